// Inside compare/: a samples file the manifest names, read confined to the
// manifest's folder.
#pragma once

#include <gltf_anim/compare/compare.hpp>

#include <string>

namespace gltf_anim::compare::detail {

samples::SamplesFile read_manifest_samples(const Manifest& m, const std::string& relative,
                                           const samples::ReadOptions& options);

}  // namespace gltf_anim::compare::detail

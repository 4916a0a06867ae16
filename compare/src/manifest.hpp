// Inside compare/: the files a manifest names (samples files, assets), read through the
// reader of the manifest's folder (a FolderReader confined to it for compare_paths, the
// caller's for compare_suite).
#pragma once

#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/io/resource_reader.hpp>

#include <string>

namespace gltf_anim::compare::detail {

struct ManifestFiles {
  const Manifest& manifest;
  const io::ResourceReader& reader;  // relative to the manifest's folder
};

// A samples file the manifest names (relative, no ".."), read through `files.reader`;
// messages name it under the manifest's folder.
samples::SamplesFile read_manifest_samples(const ManifestFiles& files, const std::string& relative,
                                           const samples::ReadOptions& options);

}  // namespace gltf_anim::compare::detail

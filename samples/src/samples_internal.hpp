#pragma once
// Internal entry points of the samples readers.
#include <gltf_anim/samples/samples.hpp>

#include <cstdio>
#include <string>

namespace gltf_anim::samples::detail {

// Reads JSON from an open file, streaming (the caller checked the size limit).
SamplesFile read_samples_json_stream(std::FILE* in, const std::string& file);

}  // namespace gltf_anim::samples::detail

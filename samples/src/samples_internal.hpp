#pragma once
// Internal entry points of the samples readers.
#include <gltf_anim/samples/samples.hpp>

#include <gltf_anim/io/regular_file.hpp>

#include <string>

namespace gltf_anim::samples::detail {

// Reads JSON from an open file, streaming (the caller checked the size limit).
SamplesFile read_samples_json_stream(const io::RegularFile& in, const std::string& file);

}  // namespace gltf_anim::samples::detail

#pragma once
// Internal entry points of the samples readers.
#include <gltf_anim/reports/samples.hpp>

#include <cerrno>
#include <cstdio>
#include <string>
#include <system_error>

namespace gltf_anim::reports::detail {

// The system's words for errno ("No such file or directory", "Permission
// denied", ...), for messages about a file that cannot be opened or read.
// std::strerror may share a buffer between threads; error_code does not.
inline std::string errno_text(int e = errno) { return std::error_code(e, std::generic_category()).message(); }

// Reads JSON from an open file, streaming (the caller checked the size limit).
SamplesFile read_samples_json_stream(std::FILE* in, const std::string& file);

}  // namespace gltf_anim::reports::detail

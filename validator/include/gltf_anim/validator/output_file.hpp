#pragma once
// Outputs and the inputs they must not replace live in io/ (io/output_file.hpp,
// io/input_files.hpp); the validator's names for them, used across the modules.
#include <gltf_anim/io/input_files.hpp>
#include <gltf_anim/io/output_file.hpp>

namespace gltf_anim::validator {

using io::FdOstream;
using io::file_identity;
using io::FileIdentity;
using io::InputFiles;
using io::OutputError;
using io::OutputFile;
using io::write_output_file;

}  // namespace gltf_anim::validator

// libFuzzer target: `gltf-anim sample` (conformance::sample_asset, which loads
// the file, decodes the accessors and runs the reference evaluator) on random
// .gltf / .glb bytes, then the JSON and CSV samples writers. SampleError is the
// documented refusal; any other exception escapes and is a finding.
#include <gltf_anim/conformance/sample.hpp>
#include <gltf_anim/reports/samples.hpp>

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fs = std::filesystem;
  static const fs::path path =
      fs::temp_directory_path() / ("gltf_anim_fuzz_sample_" + std::to_string(::getpid()) + ".gltf");
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  gltf_anim::conformance::SampleRequest request;
  request.extensions = size % 2 == 0;
  try {
    const auto samples = gltf_anim::conformance::sample_asset(path, request);
    (void)gltf_anim::reports::write_samples_json(samples);
    (void)gltf_anim::reports::write_samples_csv(samples);
  } catch (const gltf_anim::conformance::SampleError&) {
  }
  return 0;
}

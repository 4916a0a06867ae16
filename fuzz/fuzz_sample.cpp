// libFuzzer target: `gltf-anim sample` (sampler::sample_asset, which loads
// the file, decodes the accessors and runs the reference evaluator) on random
// .gltf / .glb bytes, then the JSON and CSV samples writers. SampleError is the
// documented refusal; any other exception escapes and is a finding.
// Differential: the streamed path of the CLI (SampleStream, 1 or 2 threads)
// must refuse exactly what sample_asset refuses and write the same bytes as
// the model writers; a difference traps.
#include <gltf_anim/sampler/sample.hpp>
#include <gltf_anim/samples/samples.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <random>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace fs = std::filesystem;
  static const fs::path path =
      fs::temp_directory_path() /
      ("gltf_anim_fuzz_sample_" + std::to_string(std::random_device{}()) + ".gltf");
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  gltf_anim::sampler::SampleRequest request;
  request.extensions = size % 2 == 0;
  namespace gs = gltf_anim::samples;
  std::optional<gs::SamplesFile> samples;
  try {
    samples = gltf_anim::sampler::sample_asset(path, request);
  } catch (const gltf_anim::sampler::SampleError&) {
  }
  const std::string json = samples ? gs::write_samples_json(*samples) : std::string();
  const std::string csv = samples ? gs::write_samples_csv(*samples) : std::string();
  try {
    const gltf_anim::sampler::SampleStream stream(path, request);
    if (!samples) __builtin_trap();  // the stream accepted what sample_asset refused
    const unsigned threads = size % 3 == 0 ? 2 : 1;
    std::ostringstream streamed_json, streamed_csv;
    stream.write(gs::SamplesFormat::kJson, streamed_json, threads);
    stream.write(gs::SamplesFormat::kCsv, streamed_csv, threads);
    if (streamed_json.str() != json || streamed_csv.str() != csv) __builtin_trap();
  } catch (const gltf_anim::sampler::SampleError&) {
    if (samples) __builtin_trap();  // the stream refused what sample_asset accepted
  }
  return 0;
}

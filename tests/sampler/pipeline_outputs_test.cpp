// What the optimizers write (tests/sampler/pipelines/, README there), played by the sampler:
// an output both validators accept is sampled, channel by channel as a client reads it.
// Expected values come from the glTF specs, not from the code under test: a channel whose
// path the asset does not declare is ignored (glTF 2.0 leaves `path` open to extensions; a
// client skips one it does not know), while KHR_animation_pointer declared and its pointer
// missing is an error of the channel (KHR_animation_pointer: the extension object holds the
// pointer).
#include <gltf_anim/sampler/sample.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli/cli_process.hpp"
#include "scratch.hpp"

namespace gltf_anim::sampler {
namespace {

const std::filesystem::path kDir = std::filesystem::path(GLTF_ANIM_SOURCE_DIR) / "tests" / "sampler" / "pipelines";

std::size_t channel_count(const samples::SamplesFile& file) {
  std::size_t n = 0;
  for (const auto& a : file.animations) n += a.channels.size();
  return n;
}

TEST(PipelineOutputs, PointerPathWithoutTheExtensionIsAnUnknownPathAndIgnored) {
  const auto asset = kDir / "pointer_float_linear.gt-quantize.glb";
  samples::SamplesFile file;
  ASSERT_NO_THROW(file = sample_asset(asset));
  EXPECT_EQ(channel_count(file), 0u);
  const auto scratch = gltf_anim_test::scratch_root() / "pipeline_outputs";
  std::filesystem::create_directories(scratch);
  // The CLI agrees: validate accepts it (a warning), sample and sample --keys play it.
  EXPECT_EQ(cli_process::run({"validate", asset.string()}, scratch).exit_code, 0);
  const auto sampled = cli_process::run({"sample", asset.string()}, scratch);
  EXPECT_EQ(sampled.exit_code, 0) << sampled.err;
  const auto keys = cli_process::run({"sample", asset.string(), "--keys"}, scratch);
  EXPECT_EQ(keys.exit_code, 0) << keys.err;
  EXPECT_EQ(keys.out.find("problem"), std::string::npos) << keys.out;
}

// The same channel with KHR_animation_pointer declared: the pointer is missing, and the
// channel cannot be played (exit code 1, its pointer named).
TEST(PipelineOutputs, PointerPathWithTheExtensionDeclaredAndNoPointerIsRefused) {
  const auto dir = gltf_anim_test::scratch_root() / "pipeline_outputs_declared";
  std::filesystem::create_directories(dir);
  const auto path = dir / "declared.gltf";
  // times 0, 1 (float32 0x00000000, 0x3f800000) and values 0, 1: 16 bytes.
  std::ofstream(path) << R"({"asset":{"version":"2.0"},"extensionsUsed":["KHR_animation_pointer"],)"
                      << R"("buffers":[{"byteLength":16,"uri":"data:application/octet-stream;base64,AAAAAAAAgD8AAAAAAACAPw=="}],)"
                      << R"("bufferViews":[{"buffer":0,"byteLength":16}],)"
                      << R"("accessors":[{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},)"
                      << R"({"bufferView":0,"byteOffset":8,"componentType":5126,"count":2,"type":"SCALAR"}],)"
                      << R"("animations":[{"samplers":[{"input":0,"output":1}],)"
                      << R"("channels":[{"sampler":0,"target":{"path":"pointer"}}]}]})";
  try {
    sample_asset(path);
    FAIL() << "sampled a channel whose pointer is missing";
  } catch (const SampleError& e) {
    EXPECT_EQ(e.exit_code(), 1);
    EXPECT_NE(std::string(e.what()).find("/animations/0/channels/0"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("KHR_animation_pointer.pointer is missing"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace gltf_anim::sampler

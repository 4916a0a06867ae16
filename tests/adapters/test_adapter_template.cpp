// The C++ adapter template's driver (adapters/templates/cpp/adapter_main.hpp) with an engine
// that declares a feature it lacks (Engine::unsupported): that channel is written as
// "unsupported" with no samples, the engine is never asked for its values, and `gltf-anim
// compare` counts the case as not run (unsupported: FEATURE), never as failed; the cases it
// plays pass.
#include "adapter_main.hpp"

#include <gltf_anim/sampler/sample.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cli/cli_process.hpp"
#include "scratch.hpp"

namespace {

namespace fs = std::filesystem;
namespace samples = gltf_anim::samples;

// gltf-anim's reference evaluator as the engine, lacking KHR_animation_pointer: it plays a
// channel only when its target is a node's transform.
class NoPointers : public gltf_anim::adapter::Engine {
 public:
  std::string load(const fs::path& asset) override {
    channels_ = gltf_anim::sampler::decoded_channels(asset);
    return {};
  }
  std::vector<double> sample(std::size_t animation, std::size_t channel, const std::string& target,
                             double t, std::string& why) override {
    sampled.insert(target);
    for (const auto& c : channels_) {
      if (c.animation != animation || c.channel != channel) continue;
      std::vector<double> value(c.keys.components);
      gltf_anim::reference::sample(c.view(), t, value);
      return value;
    }
    why = "no such channel";
    return {};
  }
  std::string unsupported(std::size_t, std::size_t, const std::string& target) override {
    asked.push_back(target);
    return target.rfind("/nodes/", 0) == 0 ? "" : "KHR_animation_pointer";
  }

  std::vector<std::string> asked;  // every channel's target, once each
  std::set<std::string> sampled;   // the targets whose values were asked for

 private:
  std::vector<gltf_anim::sampler::DecodedChannel> channels_;
};

int run_adapter(NoPointers& engine, const fs::path& out, std::vector<std::string> cases) {
  std::vector<std::string> args = {"engine_adapter", std::string(GLTF_ANIM_SOURCE_DIR) + "/conformance_assets",
                                   out.string()};
  args.insert(args.end(), cases.begin(), cases.end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return gltf_anim::adapter::run(static_cast<int>(argv.size()), argv.data(), "engine_adapter",
                                 "adapter template test", engine);
}

TEST(AdapterTemplate, AChannelTheEngineCannotPlayIsWrittenUnsupportedAndComparedAsNotRun) {
  const fs::path work = gltf_anim_test::scratch_root() / "adapter_unsupported";
  NoPointers engine;
  // pointer_float3_linear animates a material's emissiveFactor (a pointer), translation_step
  // a node's translation: one channel each, each asked about once.
  ASSERT_EQ(run_adapter(engine, work / "out", {"pointer_float3_linear", "translation_step"}), 0);
  std::sort(engine.asked.begin(), engine.asked.end());
  EXPECT_EQ(engine.asked, (std::vector<std::string>{"/materials/0/emissiveFactor", "/nodes/0/translation"}));
  EXPECT_EQ(engine.sampled, (std::set<std::string>{"/nodes/0/translation"}));

  const samples::SamplesFile written = samples::read_samples_file(work / "out" / "pointer_float3_linear.samples.json");
  ASSERT_EQ(written.animations.size(), 1u);
  const auto& channels = written.animations[0].channels;
  ASSERT_EQ(channels.size(), 1u);
  EXPECT_EQ(channels[0].target, "/materials/0/emissiveFactor");
  EXPECT_EQ(channels[0].unsupported, "KHR_animation_pointer");
  EXPECT_EQ(channels[0].size(), 0u);

  // compare: the played case passes; the other is not run, and the run does not fail.
  const auto compare = [&](const std::string& id) {
    return cli_process::run_program({GLTF_ANIM_CLI, "compare", "--golden",
                                     std::string(GLTF_ANIM_SOURCE_DIR) + "/conformance_assets", "--actual",
                                     (work / "out" / (id + ".samples.json")).string()},
                                    work / "runs");
  };
  const cli_process::Run played = compare("translation_step");
  EXPECT_EQ(played.exit_code, 0) << played.out << played.err;
  EXPECT_NE(played.out.find("1 passed, 0 failed"), std::string::npos) << played.out;
  const cli_process::Run lacking = compare("pointer_float3_linear");
  EXPECT_EQ(lacking.exit_code, 0) << lacking.out << lacking.err;
  EXPECT_NE(lacking.out.find("NOT RUN  pointer_float3_linear"), std::string::npos) << lacking.out;
  EXPECT_NE(lacking.out.find("not run (unsupported: KHR_animation_pointer)"), std::string::npos) << lacking.out;
  EXPECT_NE(lacking.out.find("0 passed, 0 failed, 1 not run (unsupported: "), std::string::npos) << lacking.out;
}

}  // namespace

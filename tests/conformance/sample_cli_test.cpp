// gltf-anim sample through the CLI: default times, --rate, --times, --no-extensions,
// CSV, and exit codes on bad input.
#include <gltf_anim/samples/samples.hpp>

#include <gtest/gtest.h>

#include "conformance_test_util.hpp"

namespace gltf_anim::suite::test {
namespace {

// 'PATH' for the shell (built by append: GCC 12 warns falsely on "..." + std::string&&).
std::string quoted(const std::filesystem::path& path) {
  std::string out = "'";
  out += path.string();
  out += "'";
  return out;
}

// Words joined by spaces, by append.
std::string join(std::initializer_list<std::string> words) {
  std::string out;
  for (const auto& w : words) {
    if (!out.empty()) out += ' ';
    out += w;
  }
  return out;
}

samples::SamplesFile sample(const std::string& args, const std::string& name) {
  const auto out = scratch("cli_" + name) / "out.json";
  EXPECT_EQ(run_cli(join({"sample", args}), out), 0) << read_file(out.string() + ".err");
  return samples::read_samples_json(read_file(out));
}

TEST(SampleCli, DefaultTimesAreKeysQuarterPointsAndOneBeforeAndAfter) {
  // translation_linear: keys 0, 1, 2, 3.5.
  const auto f = sample(quoted(valid_asset("translation_linear.gltf")), "default");
  const auto& c = channel(f, "/nodes/0/translation");
  const std::vector<double> expected = {-0.5, 0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2,
                                        2.375, 2.75, 3.125, 3.5, 4.0};
  EXPECT_EQ(c.times, expected);
}

TEST(SampleCli, DefaultTimesIncludeClipStartWhenTheFirstKeyIsLate) {
  // edge_late_start: keys 1/24 (float32), 0.5, 1.25.
  const auto f = sample(quoted(valid_asset("edge_late_start.gltf")), "late");
  const auto& c = channel(f, "/nodes/0/translation");
  ASSERT_GE(c.size(), 3u);
  const double first = static_cast<double>(1.0f / 24);
  EXPECT_EQ(c.times[0], first - 0.5);
  EXPECT_EQ(c.times[1], 0.0);
  EXPECT_EQ(c.times[2], first);
  EXPECT_EQ(c.times.back(), 1.75);
}

// --time-mode interactivity-loop: KHR_interactivity's wrap, worked out by hand on
// divergence_loop_boundary (T = 2 s; x = t LINEAR over keys 0, 1, 2; scale STEP 1, 2, 3):
// r > 0: s = ceil((r - T) / T), r <= 0: s = floor(r / T), t = r - s T.
//   r = -2.5: s = -2, t = 1.5    r = -0.5: s = -1, t = 1.5    r = 0: t = 0
//   r = 0.5: s = 0, t = 0.5      r = 2: s = 0, t = 2 (the last key, not the first)
//   r = 2.5: s = 1, t = 0.5      r = 4: s = 1, t = 2          r = 4.5: s = 2, t = 0.5
TEST(SampleCli, InteractivityLoopWrapsTimeAsKhrInteractivityDefinesIt) {
  const std::string asset = quoted(valid_asset("divergence_loop_boundary.gltf"));
  const std::string times = "--times=-2.5,-0.5,0,0.5,2,2.5,4,4.5";
  const auto f = sample(join({asset, times, "--time-mode interactivity-loop"}), "loop");
  const auto& x = channel(f, "/nodes/0/translation");
  const std::vector<double> requested = {-2.5, -0.5, 0, 0.5, 2, 2.5, 4, 4.5};
  EXPECT_EQ(x.times, requested);  // written at the requested times
  const std::vector<double> expected_x = {1.5, 1.5, 0, 0.5, 2, 0.5, 2, 0.5};
  const std::vector<double> expected_scale = {2, 2, 1, 1, 3, 1, 3, 1};
  const auto& scale = channel(f, "/nodes/0/scale");
  for (std::size_t i = 0; i < requested.size(); ++i) {
    EXPECT_DOUBLE_EQ(x.value(i)[0], expected_x[i]) << "t = " << requested[i];
    EXPECT_EQ(scale.value(i)[0], expected_scale[i]) << "t = " << requested[i];
  }
  // The default, play-once, clamps instead: x = 2 after the last key, 0 before the first.
  const auto once = sample(join({asset, times}), "once");
  const auto& clamped = channel(once, "/nodes/0/translation");
  EXPECT_EQ(clamped.value(1)[0], 0.0);
  EXPECT_EQ(clamped.value(5)[0], 2.0);
  // An unknown mode is a usage error.
  const auto out = scratch("cli_loop_bad") / "out.json";
  EXPECT_EQ(run_cli(join({"sample", asset, "--time-mode forever"}), out), 2);
}

TEST(SampleCli, RateGivesKOverRateUpToTheLastKey) {
  const auto f = sample(join({quoted(valid_asset("translation_linear.gltf")), "--rate 3"}), "rate");
  const auto& c = channel(f, "/nodes/0/translation");
  // 3.5 s at 3 Hz: k = 0..10 (10/3 = 3.33 <= 3.5 < 11/3).
  ASSERT_EQ(c.size(), 11u);
  for (std::size_t k = 0; k < c.size(); ++k) EXPECT_EQ(c.times[k], static_cast<double>(k) / 3.0);
  // Linear in [1, 2]: at 4/3 the value is key1 + (1/3)(key2 - key1), x = 1 + (1/3)(0.5).
  EXPECT_NEAR(c.value(4)[0], 1.0 + 0.5 / 3.0, 1e-15);
}

TEST(SampleCli, ExplicitTimesAreSortedAndDeduplicated) {
  const auto f = sample(join({quoted(valid_asset("translation_linear.gltf")), "--times 2,0.5,2,10"}), "times");
  const auto& c = channel(f, "/nodes/0/translation");
  EXPECT_EQ(c.times, (std::vector<double>{0.5, 2, 10}));
  EXPECT_EQ(std::vector<double>(c.value(2).begin(), c.value(2).end()), (std::vector<double>{4, 1, 0.5}));
}

TEST(SampleCli, NoExtensionsUsesTheFallbackOrDropsTheChannel) {
  const auto with = sample(join({quoted(valid_asset("sqlerp_with_fallback.gltf")), "--no-extensions"}), "fb");
  const auto& c = channel(with, "/nodes/0/rotation");
  EXPECT_EQ(c.interpolation, "LINEAR");
  EXPECT_EQ(c.sampler, std::optional<std::size_t>(1));
  const auto without =
      sample(join({quoted(valid_asset("sqlerp_without_fallback.gltf")), "--no-extensions"}), "nofb");
  ASSERT_EQ(without.animations.size(), 1u);
  EXPECT_TRUE(without.animations[0].channels.empty());
  const auto pointer = sample(join({quoted(valid_asset("pointer_float3_linear.gltf")), "--no-extensions"}), "ptr");
  EXPECT_TRUE(pointer.animations.at(0).channels.empty());
  const auto anim2 = sample(join({quoted(valid_asset("animation2_slerp.gltf")), "--no-extensions"}), "a2");
  EXPECT_TRUE(anim2.animations.at(0).channels.empty());
  // KHR_animation2's "nodes/0/rotation" (the draft's form) is reported as a JSON pointer.
  const auto anim2_full = sample(quoted(valid_asset("animation2_slerp.gltf")), "a2_full");
  EXPECT_EQ(anim2_full.animations.at(0).channels.at(0).target, "/nodes/0/rotation");
  EXPECT_EQ(anim2_full.animations.at(0).channels.at(0).interpolation, "SLERP");
  // With extensions the pointer channel is there, with its JSON pointer as target.
  const auto full = sample(quoted(valid_asset("pointer_float3_linear.gltf")), "ptr_full");
  EXPECT_EQ(full.animations.at(0).channels.at(0).target, "/materials/0/emissiveFactor");
}

TEST(SampleCli, CsvHasTheHeaderAndOneRowPerSample) {
  const auto out = scratch("cli_csv") / "out.csv";
  ASSERT_EQ(run_cli(join({"sample", quoted(valid_asset("weights2_linear.gltf")), "--format csv --times 0,1"}), out), 0);
  const std::string text = read_file(out);
  EXPECT_EQ(text.substr(0, text.find('\n')), "animation,channel,target,t,v0,v1");
  const auto f = samples::read_samples_csv(text);
  EXPECT_EQ(f.animations.at(0).channels.at(0).size(), 2u);
}

TEST(SampleCli, BadInputsGiveClearExitCodes) {
  const auto dir = scratch("cli_bad");
  EXPECT_EQ(run_cli(join({"sample", quoted(dir / "missing.gltf")}), dir / "o1"), 2);
  {
    std::ofstream(dir / "garbage.gltf") << "not json";
  }
  EXPECT_EQ(run_cli(join({"sample", quoted(dir / "garbage.gltf")}), dir / "o2"), 2);
  {
    std::ofstream(dir / "badsampler.gltf")
        << R"({"asset":{"version":"2.0"},"nodes":[{}],"animations":[{"channels":[{"sampler":4,)"
           R"("target":{"node":0,"path":"translation"}}],"samplers":[]}]})";
  }
  EXPECT_EQ(run_cli(join({"sample", quoted(dir / "badsampler.gltf")}), dir / "o3"), 1);
  EXPECT_NE(read_file(dir / "o3.err").find("/animations/0/channels/0"), std::string::npos);
  EXPECT_EQ(run_cli(join({"sample", quoted(valid_asset("translation_linear.gltf")), "--rate 0"}), dir / "o4"), 2);
  EXPECT_EQ(run_cli(join({"sample", quoted(valid_asset("translation_linear.gltf")), "--times 1,x"}), dir / "o5"), 2);
  EXPECT_EQ(run_cli(join({"sample", quoted(valid_asset("translation_linear.gltf")), "--animation 7"}), dir / "o6"), 2);
}

TEST(SampleCli, MaxValuesBoundsWhatIsHeldInMemory) {
  // translation_linear: 2 keys decode to 2 times + 6 values, already more than 4.
  const auto dir = scratch("cli_max_values");
  const std::string asset = quoted(valid_asset("translation_linear.gltf"));
  EXPECT_EQ(run_cli(join({"sample", asset, "--max-values 4"}), dir / "small"), 2);
  EXPECT_NE(read_file(dir / "small.err").find("more than 4 values"), std::string::npos);
  EXPECT_EQ(run_cli(join({"sample", asset, "--max-values 0"}), dir / "unlimited"), 0);
  EXPECT_EQ(read_file(dir / "unlimited"), read_file(valid_asset("translation_linear.samples.json")));
}

// --max-times N: an animation asked for more times than N is sampled at N evenly spaced
// over its clip instead. translation_linear: LINEAR keys t = 0, 1, 2, 3.5 with values
// (0,0,0), (1,2,-1), (1.5,-0.5,2), (4,1,0.5); its default times are 15 (the first test
// above), --rate 30 gives 106. At 5 times, t = 3.5 k / 4; by hand, between the keys around each:
//   0.875 (7/8 of key 0 -> 1)      = (0.875, 1.75, -0.875)
//   1.75  (3/4 of key 1 -> 2)      = (1.375, 0.125, 1.25)
//   2.625 (5/12 of key 2 -> 3.5)   = (1.5 + 2.5 * 5/12, -0.5 + 1.5 * 5/12, 2 - 1.5 * 5/12)
TEST(SampleCli, MaxTimesSamplesALongClipEvenlyAtMostNTimes) {
  const std::string asset = quoted(valid_asset("translation_linear.gltf"));
  const std::vector<double> even = {0, 0.875, 1.75, 2.625, 3.5};
  const std::vector<std::vector<double>> expected = {{0, 0, 0},
                                                     {0.875, 1.75, -0.875},
                                                     {1.375, 0.125, 1.25},
                                                     {1.5 + 2.5 * 5 / 12.0, 0.125, 1.375},
                                                     {4, 1, 0.5}};
  for (const char* args : {"--max-times 5", "--rate 30 --max-times 5"}) {
    SCOPED_TRACE(args);
    const auto f = sample(join({asset, args}), "max_times");
    const auto& c = channel(f, "/nodes/0/translation");
    EXPECT_EQ(c.times, even);
    ASSERT_EQ(c.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      for (std::size_t k = 0; k < 3; ++k) EXPECT_NEAR(c.value(i)[k], expected[i][k], 1e-12) << i << " " << k;
    }
    // The keys' times are listed (the samples file's `keyframes`).
    EXPECT_EQ(f.animations[0].channels[0].keyframes, (std::vector<double>{0, 1, 2, 3.5}));
  }
  // Within the bound the times are those asked for: the 15 default ones, --rate 1's 0, 1, 2, 3.
  EXPECT_EQ(channel(sample(join({asset, "--max-times 15"}), "max_times_15"), "/nodes/0/translation").size(), 15u);
  EXPECT_EQ(channel(sample(join({asset, "--rate 1 --max-times 5"}), "max_times_rate"), "/nodes/0/translation").times,
            (std::vector<double>{0, 1, 2, 3}));
  // --no-keyframes leaves the keys' times out.
  const auto bare = sample(join({asset, "--max-times 5 --no-keyframes"}), "max_times_bare");
  EXPECT_TRUE(bare.animations[0].channels[0].keyframes.empty());
  EXPECT_EQ(channel(bare, "/nodes/0/translation").times, even);
}

TEST(SampleCli, MaxTimesIsCountedAgainstMaxValues) {
  // Held: the decoded keys (4 times + 12 values) and 5 samples x (t + 3 values) = 36,
  // counted before --rate 30's 106 times are built.
  const auto dir = scratch("cli_max_times_bounds");
  const std::string asset = quoted(valid_asset("translation_linear.gltf"));
  EXPECT_EQ(run_cli(join({"sample", asset, "--rate 30 --max-times 5 --max-values 35"}), dir / "over"), 2);
  EXPECT_NE(read_file(dir / "over.err").find("more than 35 values"), std::string::npos);
  EXPECT_EQ(run_cli(join({"sample", asset, "--rate 30 --max-times 5 --max-values 36"}), dir / "at"), 0);
  EXPECT_EQ(run_cli(join({"sample", asset, "--times 1 --max-times 5"}), dir / "times"), 2);
  EXPECT_EQ(run_cli(join({"sample", asset, "--keys --max-times 5"}), dir / "keys"), 2);
  EXPECT_EQ(run_cli(join({"sample", asset, "--keys --no-keyframes"}), dir / "keys2"), 2);
}

}  // namespace
}  // namespace gltf_anim::suite::test

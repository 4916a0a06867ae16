// compare judges a rotation's length as well as its direction, and applies each
// channel's own tolerance from the manifest.
#include <gltf_anim/compare/compare.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "compare_test_util.hpp"

namespace gs = gltf_anim::samples;
namespace gc = gltf_anim::compare;
namespace fs = std::filesystem;
using compare_test::find_case;
using compare_test::save;
using compare_test::write;

namespace {

// One rotation channel with the quaternion q scaled by `length` at t = 0.5.
gs::SamplesFile turn(double length, double golden_length = 1.0) {
  // 60 degrees about y: (0, sin 30, 0, cos 30).
  const double s = 0.5 * golden_length * length, w = std::sqrt(0.75) * golden_length * length;
  return compare_test::rotation_samples("turn.gltf", {{0.5, {0, s, 0, w}}});
}

}  // namespace

TEST(CompareLength, AShortRotationFailsWithItsLengthNamed) {
  const auto golden = turn(1.0);
  // The direction is right (angle 0); |q| = 0.866 is the middle of an unnormalized lerp.
  const auto r = gc::compare_samples(golden, turn(std::sqrt(0.75)), gc::Tolerances{});
  EXPECT_TRUE(r.failed());
  ASSERT_EQ(r.channels.size(), 1u);
  const auto& ch = r.channels[0];
  EXPECT_LT(ch.stats.max, 1e-12);  // the angle alone would pass
  EXPECT_EQ(ch.length_failures, 1u);
  EXPECT_EQ(ch.over_tolerance, 1u);
  EXPECT_NEAR(ch.worst_length_actual, 0.8660254, 1e-7);
  EXPECT_EQ(ch.worst_length_t, 0.5);
  EXPECT_NE(ch.problem.find("rotation output not unit length: |q| = 0.866 at t = 0.5"),
            std::string::npos)
      << ch.problem;
}

TEST(CompareLength, WithinTheLengthToleranceAndScaledFarBeyondIt) {
  const auto golden = turn(1.0);
  gc::Tolerances tol;
  tol.length = 1e-6;
  EXPECT_TRUE(gc::compare_samples(golden, turn(1 + 5e-7), tol).passed());
  EXPECT_TRUE(gc::compare_samples(golden, turn(1 + 1e-6), tol).passed());  // equal passes
  EXPECT_TRUE(gc::compare_samples(golden, turn(1 + 3e-6), tol).failed());
  EXPECT_TRUE(gc::compare_samples(golden, turn(2.0), tol).failed());  // 2q: the same direction
}

// Keys that are not unit (normalized integers) slerped as stored give a result as far from
// 1 as they are: that length passes, and so does a unit result (keys normalized first).
TEST(CompareLength, NonUnitGoldenAcceptsItsOwnLengthOrOne) {
  const auto golden = turn(1.0, 0.99);
  gc::Tolerances tol;
  tol.length = 1e-6;
  EXPECT_TRUE(gc::compare_samples(golden, turn(1.0, 0.99), tol).passed());
  EXPECT_TRUE(gc::compare_samples(golden, turn(1.0, 1.0), tol).passed());
  const auto r = gc::compare_samples(golden, turn(1.0, 0.9), tol);
  EXPECT_TRUE(r.failed());
  EXPECT_NE(r.channels[0].problem.find("(the keys as stored give |q| = 0.99)"), std::string::npos)
      << r.channels[0].problem;
}

TEST(CompareLength, VectorsAreNotJudgedByLength) {
  gs::SamplesFile g;
  g.asset = "m.gltf";
  auto& c = g.animations.emplace_back().channels.emplace_back();
  c.target = "/nodes/0/translation";
  c.add_sample(0, {0.5, 0, 0});
  const auto r = gc::compare_samples(g, g, gc::Tolerances{});
  EXPECT_TRUE(r.passed());
  EXPECT_EQ(r.channels[0].length_failures, 0u);
}

// A quiet channel keeps its own tolerance when a loud one sets the case's: the light's
// colour (tolerance 1e-5) fails at 5e-5 although the range channel's 6e-4 would let it pass.
TEST(CompareChannelTolerances, EachChannelIsJudgedByItsOwn) {
  const fs::path dir = compare_test::fresh_dir("compare_length", "per_channel");
  gs::SamplesFile g;
  g.asset = "light.gltf";
  auto& a = g.animations.emplace_back();
  auto& colour = a.channels.emplace_back();
  colour.index = 0;
  colour.target = "/extensions/KHR_lights_punctual/lights/0/color";
  colour.add_sample(0, {1, 0.5, 0.25});
  auto& range = a.channels.emplace_back();
  range.index = 1;
  range.target = "/extensions/KHR_lights_punctual/lights/0/range";
  range.add_sample(0, {100});
  save(dir / "golden/light.samples.json", g);
  write(dir / "golden/manifest.json", R"({"assets": [{"id": "light", "file": "light.gltf",
    "samples": "light.samples.json", "tolerance": 0.0006,
    "channelTolerances": [{"animation": 0, "channel": 0, "tolerance": 0.00001},
                          {"animation": 0, "channel": 1, "tolerance": 0.0006}]}]})");
  gs::SamplesFile actual = g;
  actual.animations[0].channels[0].values[0] += 5e-5;
  actual.animations[0].channels[1].values[0] += 5e-4;
  save(dir / "actual/light.samples.json", actual);
  const auto r = gc::compare_paths(dir / "golden", dir / "actual", {});
  const auto& c = find_case(r, "light");
  EXPECT_TRUE(c.failed());
  ASSERT_EQ(c.channels.size(), 2u);
  EXPECT_FALSE(c.channels[0].passed);
  EXPECT_EQ(c.channels[0].tolerance, 0.00001);
  EXPECT_TRUE(c.channels[1].passed);
  EXPECT_EQ(c.channels[1].tolerance, 0.0006);
  // --tolerance is the user's for every channel.
  gc::CompareOptions loose;
  loose.tolerance = 0.001;
  EXPECT_TRUE(
      find_case(gc::compare_paths(dir / "golden", dir / "actual", loose), "light").passed());
  // A malformed entry is refused with its pointer.
  write(dir / "golden/manifest.json", R"({"assets": [{"id": "light", "file": "light.gltf",
    "samples": "light.samples.json", "channelTolerances": [{"animation": 0, "tolerance": 1}]}]})");
  try {
    gc::compare_paths(dir / "golden", dir / "actual", {});
    FAIL() << "a channel tolerance without its channel was accepted";
  } catch (const gs::SamplesFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("channel"), std::string::npos) << e.what();
  }
}

// compare takes a channel's error measure from what the samples say (the
// `measure` gltf-anim sample writes, else a rotation-only interpolation),
// never from the target's name.
#include <gltf_anim/compare/compare.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace gs = gltf_anim::samples;
namespace gc = gltf_anim::compare;

namespace {

// One 4-wide channel at `target`: q at t = 0 and t = 1, q = 90 degrees about z.
gs::SamplesFile quaternion_file(const std::string& target, gs::Measure measure,
                                const std::string& interpolation, double sign) {
  gs::SamplesFile f;
  f.asset = "a.gltf";
  auto& c = f.animations.emplace_back().channels.emplace_back();
  c.target = target;
  c.interpolation = interpolation;
  c.measure = measure;
  const double h = std::sqrt(0.5);
  c.add_sample(0, {0, 0, sign * h, sign * h});
  c.add_sample(1, {0, 0, sign * h, sign * h});
  return f;
}

// q and -q are the same rotation (angle 0) but differ by 2 x 0.707 per component.
TEST(MeasureFromSamples, AQuaternionThroughAPointerNotEndingInRotationIsAnAngle) {
  // A KHR_animation_pointer target into an extension's property whose name is
  // not "rotation": the sampler wrote "measure": "angle".
  const std::string target = "/nodes/0/extensions/EXT_example/orientation";
  const auto golden = quaternion_file(target, gs::Measure::kAngle, "LINEAR", 1);
  const auto actual = quaternion_file(target, gs::Measure::kAuto, "LINEAR", -1);
  const gc::CaseResult r = gc::compare_samples(golden, actual, gc::Tolerances{});
  ASSERT_EQ(r.channels.size(), 1u);
  EXPECT_EQ(r.channels[0].measure, gc::ErrorMeasure::kAngle);
  EXPECT_TRUE(r.passed()) << r.channels[0].problem;
}

TEST(MeasureFromSamples, ATargetEndingInRotationSaidAbsoluteIsAbsolute) {
  const std::string target = "/nodes/0/rotation";
  const auto golden = quaternion_file(target, gs::Measure::kAbsolute, "LINEAR", 1);
  const auto actual = quaternion_file(target, gs::Measure::kAuto, "LINEAR", -1);
  const gc::CaseResult r = gc::compare_samples(golden, actual, gc::Tolerances{});
  ASSERT_EQ(r.channels.size(), 1u);
  EXPECT_EQ(r.channels[0].measure, gc::ErrorMeasure::kAbsolute);
  EXPECT_FALSE(r.passed());
}

TEST(MeasureFromSamples, UnstatedMeasureReadsTheInterpolationNotThePath) {
  // No measure (a CSV golden): a rotation-only mode is an angle, LINEAR is
  // absolute whatever the path says.
  EXPECT_TRUE(gc::uses_angle(
      quaternion_file("/x/y", gs::Measure::kAuto, "SLERP", 1).animations[0].channels[0]));
  EXPECT_TRUE(gc::uses_angle(
      quaternion_file("/x/y", gs::Measure::kAuto, "CUBICSLERP", 1).animations[0].channels[0]));
  EXPECT_FALSE(gc::uses_angle(quaternion_file("/nodes/0/rotation", gs::Measure::kAuto, "LINEAR", 1)
                                  .animations[0]
                                  .channels[0]));
}

}  // namespace

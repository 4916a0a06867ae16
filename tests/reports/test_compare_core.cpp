// compare: error measures and matching, with expected values from closed forms.
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/reports/compare_report.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <utility>

namespace gr = gltf_anim::reports;
namespace gs = gltf_anim::samples;
namespace gc = gltf_anim::compare;

namespace {

// Unit quaternion (x, y, z, w) of a rotation by `angle` about the unit axis.
std::array<double, 4> axis_angle(double ax, double ay, double az, double angle) {
  const double s = std::sin(angle / 2);
  return {ax * s, ay * s, az * s, std::cos(angle / 2)};
}

constexpr std::array<double, 4> kIdentity{0, 0, 0, 1};
constexpr double kInf = std::numeric_limits<double>::infinity();

gs::SamplesFile one_channel(const std::string& target, std::initializer_list<double> times,
                            std::vector<std::vector<double>> values, std::size_t animation = 0) {
  gs::SamplesFile f;
  f.asset = "case.gltf";
  auto& a = f.animations.emplace_back();
  a.index = animation;
  auto& c = a.channels.emplace_back();
  c.target = target;
  std::size_t i = 0;
  for (double t : times) c.add_sample(t, values.at(i++));
  return f;
}

}  // namespace

TEST(CompareMeasures, AngleOfSmallRotationAboutAnAxis) {
  // 0.01 rad about (1, 2, 2)/3 against identity: the rotation angle is 0.01.
  const auto q = axis_angle(1.0 / 3, 2.0 / 3, 2.0 / 3, 0.01);
  EXPECT_NEAR(gc::angle_between(kIdentity, q), 0.01, 1e-15);
  EXPECT_NEAR(gc::angle_between(q, kIdentity), 0.01, 1e-15);
}

TEST(CompareMeasures, QAndMinusQAreTheSameRotation) {
  const auto q = axis_angle(0, 1, 0, 1.2);
  const std::array<double, 4> minus{-q[0], -q[1], -q[2], -q[3]};
  EXPECT_EQ(gc::angle_between(q, minus), 0.0);
  // Rotations 0.3 apart, one of them sign-flipped: still 0.3.
  const auto r = axis_angle(0, 1, 0, 1.5);
  const std::array<double, 4> minus_r{-r[0], -r[1], -r[2], -r[3]};
  EXPECT_NEAR(gc::angle_between(q, minus_r), 0.3, 1e-14);
}

TEST(CompareMeasures, HalfTurnAndUnnormalizedInputs) {
  EXPECT_NEAR(gc::angle_between(kIdentity, std::array<double, 4>{1, 0, 0, 0}),
              std::numbers::pi, 1e-15);
  const auto q = axis_angle(0, 0, 1, 0.7);
  const std::array<double, 4> scaled{2 * q[0], 2 * q[1], 2 * q[2], 2 * q[3]};
  EXPECT_NEAR(gc::angle_between(q, scaled), 0.0, 1e-15);
  // Stored quaternion slightly off unit length: normalized first.
  const std::array<double, 4> long_identity{0, 0, 0, 1.001};
  EXPECT_EQ(gc::angle_between(kIdentity, long_identity), 0.0);
}

TEST(CompareMeasures, TinyAnglesKeepTheirPrecision) {
  // 2*acos(dot) would give 0 or ~2e-8 here; the atan2 form keeps 1e-10.
  const auto q = axis_angle(1, 0, 0, 1e-10);
  EXPECT_NEAR(gc::angle_between(kIdentity, q), 1e-10, 1e-20);
}

TEST(CompareMeasures, DegenerateQuaternionsAreInfinitelyWrong) {
  EXPECT_EQ(gc::angle_between(kIdentity, std::array<double, 4>{0, 0, 0, 0}), kInf);
  EXPECT_EQ(gc::angle_between(kIdentity, std::array<double, 4>{0, std::nan(""), 0, 1}), kInf);
  EXPECT_EQ(gc::angle_between(kIdentity, std::array<double, 3>{0, 0, 1}), kInf);
}

// A zero quaternion is no rotation: it matches only another zero quaternion
// (angle 0, whatever the signs of the zeros) and never a rotation.
TEST(CompareMeasures, ZeroQuaternionsMatchOnlyZeroQuaternions) {
  const std::array<double, 4> zero{0, 0, 0, 0};
  const std::array<double, 4> signed_zero{-0.0, 0, -0.0, 0};
  EXPECT_EQ(gc::angle_between(zero, zero), 0.0);
  EXPECT_EQ(gc::angle_between(zero, signed_zero), 0.0);
  EXPECT_EQ(gc::angle_between(zero, kIdentity), kInf);
  EXPECT_EQ(gc::angle_between(kIdentity, signed_zero), kInf);
}

// Identical values give exactly 0, and the angle does not depend on the scale:
// tiny (norm below the square root of the smallest double) and huge (squares
// overflow) quaternions are the rotations of their directions. Expected: a
// rotation by 0.5 about z, scaled, against the identity.
TEST(CompareMeasures, AngleIsExactForIdenticalAndScaleFree) {
  const auto q = axis_angle(0.6, 0, 0.8, 0.3);
  EXPECT_EQ(gc::angle_between(q, q), 0.0);
  const auto r = axis_angle(0, 0, 1, 0.5);
  for (double scale : {1e-200, 1e-300, 1e300}) {
    SCOPED_TRACE(scale);
    const std::array<double, 4> s{r[0] * scale, r[1] * scale, r[2] * scale, r[3] * scale};
    EXPECT_EQ(gc::angle_between(s, s), 0.0);
    EXPECT_NEAR(gc::angle_between(s, kIdentity), 0.5, 1e-12);
    const std::array<double, 4> id{0, 0, 0, scale};
    EXPECT_NEAR(gc::angle_between(s, id), 0.5, 1e-12);
  }
}

TEST(CompareSamples, ASamplesFileWithZeroQuaternionsMatchesItself) {
  const auto f = one_channel("/nodes/0/rotation", {0, 1}, {{0, 0, 0, 0}, {0, 0, 0, 1}});
  const auto r = gc::compare_samples(f, f, {0, 0});
  EXPECT_TRUE(r.passed());
  EXPECT_EQ(r.angle.max, 0.0);
}

TEST(CompareMeasures, MaxAbsDifference) {
  EXPECT_EQ(gc::max_abs_difference(std::array<double, 3>{1, 2, 3},
                                   std::array<double, 3>{1.5, 2, 2}),
            1.0);
  EXPECT_EQ(gc::max_abs_difference(std::array<double, 1>{-0.0}, std::array<double, 1>{0.0}), 0.0);
  EXPECT_EQ(gc::max_abs_difference(std::array<double, 1>{1}, std::array<double, 1>{std::nan("")}),
            kInf);
}

TEST(CompareMeasures, WhichChannelsUseTheAngle) {
  gs::SampledChannel c;
  c.target = "/nodes/0/rotation";
  c.add_sample(0, {0, 0, 0, 1});
  // The target's name is never read: without a measure a LINEAR channel is absolute.
  EXPECT_FALSE(gc::uses_angle(c));
  c.measure = gs::Measure::kAngle;
  EXPECT_TRUE(gc::uses_angle(c));
  c.measure = gs::Measure::kAbsolute;
  EXPECT_FALSE(gc::uses_angle(c));
  gs::SampledChannel tex;  // KHR_texture_transform rotation is a scalar
  tex.target = "/materials/0/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/rotation";
  tex.add_sample(0, {0.5});
  EXPECT_FALSE(gc::uses_angle(tex));
  gs::SampledChannel ptr;
  ptr.target = "/extensions/EXT_custom/q";
  ptr.add_sample(0, {0, 0, 0, 1});
  EXPECT_FALSE(gc::uses_angle(ptr));
  ptr.interpolation = "SLERP";
  EXPECT_TRUE(gc::uses_angle(ptr));
  ptr.interpolation = "LINEAR";
  ptr.measure = gs::Measure::kAngle;
  EXPECT_TRUE(gc::uses_angle(ptr));
}

TEST(CompareSamples, ErrorsStatisticsAndWorstTime) {
  const auto golden = one_channel("/nodes/0/translation", {0, 0.5, 1},
                                  {{0, 0, 0}, {1, 2, 3}, {2, 4, 6}});
  const auto actual = one_channel("/nodes/0/translation", {1, 0.5, 0},  // any order
                                  {{2, 4, 6.125}, {1, 2.25, 3}, {0, 0, 0}});
  const gc::CaseResult r = gc::compare_samples(golden, actual, {1e-5, 1e-5});
  EXPECT_FALSE(r.passed());
  ASSERT_EQ(r.channels.size(), 1u);
  const auto& ch = r.channels[0];
  EXPECT_EQ(ch.measure, gc::ErrorMeasure::kAbsolute);
  EXPECT_EQ(ch.compared, 3u);
  EXPECT_EQ(ch.over_tolerance, 2u);
  EXPECT_EQ(ch.stats.max, 0.25);
  EXPECT_EQ(ch.stats.worst_t, 0.5);
  EXPECT_DOUBLE_EQ(ch.stats.mean, (0 + 0.25 + 0.125) / 3);
  EXPECT_EQ(r.absolute.max, 0.25);
  EXPECT_EQ(r.angle.samples, 0u);
  EXPECT_NE(ch.problem.find("2 of 3 samples over the tolerance"), std::string::npos) << ch.problem;
  // Plot data, sorted by time.
  EXPECT_EQ(ch.times, (std::vector<double>{0, 0.5, 1}));
  EXPECT_EQ(ch.actual, (std::vector<double>{0, 0, 0, 1, 2.25, 3, 2, 4, 6.125}));
  EXPECT_EQ(ch.errors, (std::vector<double>{0, 0.25, 0.125}));

  // The same data passes under a tolerance above the worst error; a
  // tolerance equal to the error passes too (error <= tolerance).
  EXPECT_TRUE(gc::compare_samples(golden, actual, {0.3, 1e-5}).passed());
  EXPECT_TRUE(gc::compare_samples(golden, actual, {0.25, 1e-5}).passed());
  EXPECT_FALSE(gc::compare_samples(golden, actual, {0.2, 1e-5}).passed());
}

TEST(CompareSamples, RotationsCompareByAngleIgnoringSign) {
  const auto q = axis_angle(0, 0, 1, 0.5);
  const auto near = axis_angle(0, 0, 1, 0.51);
  auto golden = one_channel("/nodes/2/rotation", {0, 1},
                            {{q.begin(), q.end()}, {q.begin(), q.end()}});
  golden.animations[0].channels[0].measure = gs::Measure::kAngle;  // as `sample` writes it
  const auto actual = one_channel(
      "/nodes/2/rotation", {0, 1},
      {{-q[0], -q[1], -q[2], -q[3]}, {near.begin(), near.end()}});
  auto r = gc::compare_samples(golden, actual, {1e-5, 0.02});
  EXPECT_TRUE(r.passed());
  EXPECT_EQ(r.channels[0].measure, gc::ErrorMeasure::kAngle);
  EXPECT_NEAR(r.angle.max, 0.01, 1e-12);
  EXPECT_EQ(r.angle.worst_t, 1.0);
  EXPECT_NEAR(r.angle.mean, 0.005, 1e-12);
  r = gc::compare_samples(golden, actual, {1, 0.005});
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(r.channels[0].over_tolerance, 1u);
}

TEST(CompareSamples, MissingSampleIsAFailure) {
  const auto golden = one_channel("/nodes/0/scale", {0, 1, 2}, {{1}, {2}, {3}});
  const auto actual = one_channel("/nodes/0/scale", {0, 2}, {{1}, {3}});
  const auto r = gc::compare_samples(golden, actual, {});
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(r.channels[0].missing_samples, 1u);
  EXPECT_EQ(r.channels[0].compared, 2u);
  EXPECT_EQ(r.channels[0].stats.max, 0.0);  // what was compared is exact
  EXPECT_TRUE(std::isnan(r.channels[0].errors[1]));
  EXPECT_TRUE(std::isnan(r.channels[0].actual[1]));
  EXPECT_NE(r.channels[0].problem.find("1 of 3 golden samples missing"), std::string::npos);
}

TEST(CompareSamples, MissingChannelOrAnimationIsAFailure) {
  auto golden = one_channel("/nodes/0/scale", {0}, {{1}});
  auto& extra = golden.animations[0].channels.emplace_back();
  extra.target = "/nodes/1/scale";
  extra.add_sample(0, {1});
  const auto actual = one_channel("/nodes/0/scale", {0}, {{1}});
  auto r = gc::compare_samples(golden, actual, {});
  EXPECT_FALSE(r.passed());
  EXPECT_TRUE(r.channels[1].missing);
  EXPECT_TRUE(r.channels[0].passed);
  EXPECT_EQ(r.channels[1].problem, "channel missing in the actual samples");

  const auto other_animation = one_channel("/nodes/0/scale", {0}, {{1}}, 5);
  r = gc::compare_samples(golden, other_animation, {});
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(r.channels[0].problem, "animation missing in the actual samples");
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0], "animation 5 is only in the actual samples (ignored)");
}

TEST(CompareSamples, ExtraActualDataIsAWarningNotAFailure) {
  const auto golden = one_channel("/nodes/0/scale", {0}, {{1}});
  auto actual = one_channel("/nodes/0/scale", {0, 0.5}, {{1}, {7}});
  auto& extra = actual.animations[0].channels.emplace_back();
  extra.target = "/nodes/9/translation";
  extra.add_sample(0, {1, 2, 3});
  const auto r = gc::compare_samples(golden, actual, {});
  EXPECT_TRUE(r.passed());
  EXPECT_EQ(r.channels[0].extra_samples, 1u);
  ASSERT_EQ(r.warnings.size(), 2u);
  EXPECT_EQ(r.warnings[0], "animation 0 /nodes/0/scale: 1 actual samples match no golden time (ignored)");
  EXPECT_EQ(r.warnings[1], "animation 0: channel /nodes/9/translation is only in the actual samples (ignored)");
}

TEST(CompareSamples, TimesMatchWithinTheEpsilon) {
  const auto golden = one_channel("/nodes/0/scale", {0.1, 100.1}, {{1}, {2}});
  // float32 times (0.1f = 0.10000000149..., 100.1f = 100.09999847...) match.
  const auto f32 = one_channel("/nodes/0/scale", {static_cast<double>(0.1f), static_cast<double>(100.1f)},
                               {{1}, {2}});
  EXPECT_TRUE(gc::compare_samples(golden, f32, {}).passed());
  // 1e-4 off is another time: missing.
  const auto off = one_channel("/nodes/0/scale", {0.1001, 100.1}, {{1}, {2}});
  const auto r = gc::compare_samples(golden, off, {});
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(r.channels[0].missing_samples, 1u);
  EXPECT_EQ(r.channels[0].extra_samples, 1u);
  // The nearest actual time wins, and golden times closer than the epsilon
  // each get their own sample.
  const auto dense = one_channel("/nodes/0/scale", {1.0, 1.0 + 4e-7}, {{1}, {2}});
  const auto dense_actual = one_channel("/nodes/0/scale", {1.0 + 4e-7, 1.0}, {{2}, {1}});
  EXPECT_TRUE(gc::compare_samples(dense, dense_actual, {}).passed());
  EXPECT_TRUE(gc::compare_samples(dense, dense_actual, {}, 0).passed());  // exact times, epsilon 0
}

TEST(CompareSamples, WidthMismatchAndNaNFail) {
  const auto golden = one_channel("/nodes/0/weights", {0}, {{0.5, 0.5}});
  const auto narrow = one_channel("/nodes/0/weights", {0}, {{0.5}});
  auto r = gc::compare_samples(golden, narrow, {});
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(r.channels[0].problem, "actual values have 1 components per sample, golden 2");
  const auto nan = one_channel("/nodes/0/weights", {0}, {{0.5, std::nan("")}});
  r = gc::compare_samples(golden, nan, {1e9, 1e9});
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(r.absolute.max, kInf);
}

// A golden file without a single sample checks nothing: that is neither a
// pass (it would count as conformance evidence) nor a failure.
TEST(CompareSamples, EmptyGoldenIsNothingCompared) {
  gs::SamplesFile no_animation;
  no_animation.asset = "case.gltf";
  gs::SamplesFile no_channel = no_animation;
  no_channel.animations.emplace_back().index = 0;  // e.g. the core-only view of a pointer-only clip
  gs::SamplesFile no_sample = no_channel;
  no_sample.animations[0].channels.emplace_back().target = "/nodes/0/scale";
  const auto actual = one_channel("/nodes/0/translation", {0}, {{1, 2, 3}});
  const std::pair<const gs::SamplesFile*, const gs::SamplesFile*> pairs[] = {
      {&no_animation, &no_animation}, {&no_animation, &actual}, {&no_channel, &no_channel},
      {&no_channel, &actual},         {&no_sample, &no_sample}};
  for (const auto& [golden, a] : pairs) {
    {
      const auto r = gc::compare_samples(*golden, *a, {});
      EXPECT_EQ(r.outcome, gc::CaseOutcome::kNothingCompared);
      EXPECT_FALSE(r.passed());
      EXPECT_FALSE(r.failed());
      EXPECT_EQ(r.problem, "the golden samples hold no sample: nothing compared");
    }
  }
  // The actual file's extra channel is still reported.
  EXPECT_EQ(gc::compare_samples(no_channel, actual, {}).warnings.size(), 1u);
  // A golden channel, even an empty one, missing from the actual file fails.
  EXPECT_EQ(gc::compare_samples(no_sample, actual, {}).outcome, gc::CaseOutcome::kFailed);
  // One golden sample is enough to be a real comparison.
  const auto one = one_channel("/nodes/0/translation", {0}, {{1, 2, 3}});
  EXPECT_EQ(gc::compare_samples(one, one, {}).outcome, gc::CaseOutcome::kPassed);
  // A missing golden channel in the actual file still fails, empty or not.
  gs::SamplesFile empty_actual;
  EXPECT_EQ(gc::compare_samples(one, empty_actual, {}).outcome, gc::CaseOutcome::kFailed);
}

TEST(CompareReport, CountsAndSummaryLineWithNothingCompared) {
  gc::CompareReport r;
  for (auto o : {gc::CaseOutcome::kPassed, gc::CaseOutcome::kFailed, gc::CaseOutcome::kNothingCompared,
                 gc::CaseOutcome::kNothingCompared}) {
    r.cases.emplace_back().outcome = o;
  }
  EXPECT_EQ(r.passed(), 1u);
  EXPECT_EQ(r.failed(), 1u);
  EXPECT_EQ(r.nothing_compared(), 2u);
  EXPECT_EQ(gr::summary_line(r), "1 passed, 1 failed, 2 with nothing to compare");
  r.cases.pop_back();
  r.cases.pop_back();
  EXPECT_EQ(gr::summary_line(r), "1 passed, 1 failed");  // the form when none
}

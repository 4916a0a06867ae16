// Track sampling: keyframe search, exact keys, clamping, layouts, validation, cursor.
#include <gltf_anim/reference/track.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "tolerances.hpp"

namespace gltf_anim::reference {
namespace {

using namespace test;  // tolerances.hpp

double sample1(const TrackView& track, double t) {
  double out = 0.0;
  sample(track, t, std::span<double>(&out, 1));
  return out;
}

Quat sample_q(const TrackView& track, double t, const SampleOptions& options = {}) {
  std::array<double, 4> out{};
  sample(track, t, out, options);
  return to_quat(out);
}

// Scalar LINEAR track with its first key later than 0: keys 1 -> 10, 2 -> 20, 4 -> 0.
struct TimeRow {
  const char* name;
  double t;
  double expected;
};

class ScalarLinear : public ::testing::TestWithParam<TimeRow> {};

const std::vector<double> kTimes{1.0, 2.0, 4.0};
const std::vector<double> kValues{10.0, 20.0, 0.0};

TEST_P(ScalarLinear, SampleAndCursorAgreeWithHandValues) {
  const TrackView track{kTimes, kValues, 1, Interpolation::kLinear, ValueKind::kVector};
  ASSERT_EQ(validate(track), "");
  EXPECT_EQ(sample1(track, GetParam().t), GetParam().expected);
  // The same through a cursor that starts elsewhere.
  for (std::size_t start : {0u, 1u, 2u}) {
    KeyframeCursor cursor;
    double warm = 0.0;
    sample(track, kTimes[start], cursor, std::span<double>(&warm, 1));
    double out = 0.0;
    sample(track, GetParam().t, cursor, std::span<double>(&out, 1));
    EXPECT_EQ(out, GetParam().expected) << "cursor from key " << start;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Times, ScalarLinear,
    ::testing::Values(TimeRow{"time0_clamps_to_first", 0.0, 10.0},
                      TimeRow{"negative_clamps", -5.0, 10.0},
                      TimeRow{"first_key_exact", 1.0, 10.0},
                      TimeRow{"quarter_of_first", 1.25, 12.5},
                      TimeRow{"inner_key_exact", 2.0, 20.0},
                      TimeRow{"three_quarters_of_second", 3.5, 5.0},
                      TimeRow{"last_key_exact", 4.0, 0.0},
                      TimeRow{"after_last_clamps", 100.0, 0.0},
                      TimeRow{"infinity_clamps", std::numeric_limits<double>::infinity(), 0.0}),
    [](const auto& row) { return std::string(row.param.name); });

TEST(Track, StepReturnsCurrentKeyAtExactKey) {
  // Survey case 1: keys 0/0.5/1 -> 0/1/2. At 0.5 the value is 1 (the Sample Viewer gives 0).
  const std::vector<double> times{0.0, 0.5, 1.0}, values{0.0, 1.0, 2.0};
  const TrackView track{times, values, 1, Interpolation::kStep, ValueKind::kVector};
  EXPECT_EQ(sample1(track, 0.5), 1.0);
  EXPECT_EQ(sample1(track, 0.4999), 0.0);
  EXPECT_EQ(sample1(track, 0.9), 1.0);
  EXPECT_EQ(sample1(track, 1.0), 2.0);
}

// The owning track is its view: same keys, width, mode and kind, and the view's helpers.
// A CUBICSPLINE track of two 2-wide keys stores (in, value, out) per key: 12 numbers, and
// v_1 is numbers 2..3. Hermite midpoint with zero tangents: (v_0 + v_1) / 2.
TEST(Track, OwningTrackIsItsView) {
  Track track;
  track.times = {1.0, 3.0};
  track.values = {0, 0, 0, 2, 0, 0, /* key 1 */ 0, 0, 4, 6, 0, 0};
  track.components = 2;
  track.interpolation = Interpolation::kCubicSpline;
  const TrackView view = track.view();
  EXPECT_EQ(view.times.data(), track.times.data());
  EXPECT_EQ(view.times.size(), 2u);
  EXPECT_EQ(view.values.data(), track.values.data());
  EXPECT_EQ(view.values.size(), 12u);
  EXPECT_EQ(view.components, 2u);
  EXPECT_EQ(view.interpolation, Interpolation::kCubicSpline);
  EXPECT_EQ(view.kind, ValueKind::kVector);
  EXPECT_EQ(track.keyframe_count(), 2u);
  EXPECT_EQ(track.values_per_keyframe(), 3u);
  EXPECT_EQ(std::vector<double>(track.value(1).begin(), track.value(1).end()),
            (std::vector<double>{4, 6}));
  ASSERT_EQ(validate(view), "");
  std::array<double, 2> out{};
  sample(view, 2.0, out);
  EXPECT_EQ(out, (std::array<double, 2>{2.0, 4.0}));
  // A default track is one LINEAR vector component with no keys.
  const Track empty;
  EXPECT_EQ(empty.components, 1u);
  EXPECT_EQ(empty.interpolation, Interpolation::kLinear);
  EXPECT_EQ(empty.kind, ValueKind::kVector);
  EXPECT_EQ(empty.keyframe_count(), 0u);
}

TEST(Track, SingleKeyframeEverywhere) {
  const std::vector<double> times{3.0}, values{1.0, 2.0, 3.0};
  for (Interpolation i : {Interpolation::kStep, Interpolation::kLinear}) {
    const TrackView track{times, values, 3, i, ValueKind::kVector};
    ASSERT_EQ(validate(track), "");
    for (double t : {-1.0, 0.0, 3.0, 9.0}) {
      std::array<double, 3> out{};
      sample(track, t, out);
      EXPECT_EQ(out, (std::array<double, 3>{1.0, 2.0, 3.0}));
    }
  }
}

TEST(Track, ExactKeyReturnsStoredRotationBitForBit) {
  // A float32 key that is not unit length, next to a key with a negative dot product:
  // at the key time the stored value comes back, with its sign and its length.
  const double s = static_cast<double>(0.707f);
  const std::vector<double> times{0.0, 1.0, 2.0};
  const std::vector<double> values{0, 0, 0, 1, 0, 0, -s, -s, 0, 0, 0, 1};
  const TrackView track{times, values, 4, Interpolation::kLinear, ValueKind::kRotation};
  ASSERT_EQ(validate(track), "");
  EXPECT_EQ(sample_q(track, 1.0), (Quat{0, 0, -s, -s}));
  EXPECT_EQ(sample_q(track, 2.0), (Quat{0, 0, 0, 1}));
}

TEST(Track, LinearRotationShortestPathAndPlainOption) {
  // Magnum's AnimatedTriangle case: keys 0, 90, 180, 270 degrees and 0 degrees (stored
  // identity). The last segment: Appendix C goes forward 270 -> 360; plain goes back.
  std::vector<double> times{0, 1, 2, 3, 4};
  std::vector<double> values;
  for (double a : {0.0, 90.0, 180.0, 270.0, 0.0}) {
    const Quat q = about_z(deg(a));
    values.insert(values.end(), {q.x, q.y, q.z, q.w});
  }
  const TrackView track{times, values, 4, Interpolation::kLinear, ValueKind::kRotation};
  // 3.5: forward = 315 degrees (any sign), plain = 135 degrees.
  const Quat fwd = sample_q(track, 3.5);
  const Quat expected_fwd = about_z(deg(315));
  EXPECT_NEAR(std::abs(dot(fwd, expected_fwd)), 1.0, kTight);
  const Quat back = sample_q(track, 3.5, {SlerpVariant::kPlain, SlerpVariant::kPlain});
  EXPECT_NEAR(std::abs(dot(back, about_z(deg(135)))), 1.0, kTight);
  // SLERP (KHR_animation2) is the same evaluation.
  const TrackView khr{times, values, 4, Interpolation::kSlerp, ValueKind::kRotation};
  EXPECT_EQ(sample_q(khr, 3.5), fwd);
}

TEST(Track, ConstantAngularSpeedAtUnevenKeys) {
  // theta(T) = omega T about a fixed axis, keyed at uneven times: LINEAR slerp
  // reproduces theta at every time (each segment turns at the same constant speed).
  const Vec3 axis{0.36, 0.48, 0.8};
  const double omega = 1.3;
  const std::vector<double> times{0.0, 0.3, 0.35, 1.2, 2.0, 2.05, 3.7};
  std::vector<double> values;
  for (double t : times) {
    const Quat q = from_axis_angle(axis, omega * t);
    values.insert(values.end(), {q.x, q.y, q.z, q.w});
  }
  const TrackView track{times, values, 4, Interpolation::kLinear, ValueKind::kRotation};
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> dist(0.0, 3.7);
  for (int i = 0; i < 200; ++i) {
    const double t = dist(rng);
    expect_quat_near(sample_q(track, t), from_axis_angle(axis, omega * t), kTight);
  }
}

TEST(Track, CubicSplineMorphWeightsLayout) {
  // Two morph targets, keys at 1 and 3 (t_d = 2). Per keyframe: [a a | v v | b b].
  // Target 0: v 0 -> 1, b_0 = 0.5/s, a_1 = 0; target 1: v 2 -> 2, b_0 = 0, a_1 = -1/s.
  // At t = 0.5 (time 2): h00 = 0.5, h10 = 0.125, h01 = 0.5, h11 = -0.125, times t_d = 2:
  //   w0 = 0.5*0 + 2*0.125*0.5 + 0.5*1 + 2*(-0.125)*0 = 0.625
  //   w1 = 0.5*2 + 0 + 0.5*2 + 2*(-0.125)*(-1) = 2.25
  const std::vector<double> times{1.0, 3.0};
  const std::vector<double> values{9, 9, 0, 2, 0.5, 0,  // key 0: a (unused), v, b
                                   0, -1, 1, 2, 7, 7};  // key 1: a, v, b (unused)
  const TrackView track{times, values, 2, Interpolation::kCubicSpline, ValueKind::kVector};
  ASSERT_EQ(validate(track), "");
  std::array<double, 2> out{};
  sample(track, 2.0, out);
  EXPECT_NEAR(out[0], 0.625, kTight);
  EXPECT_NEAR(out[1], 2.25, kTight);
  sample(track, 3.0, out);  // exact key: the value, not a tangent
  EXPECT_EQ(out, (std::array<double, 2>{1.0, 2.0}));
  sample(track, 0.0, out);  // clamped to v_1 (not Hermite on tangents, cf. Babylon)
  EXPECT_EQ(out, (std::array<double, 2>{0.0, 2.0}));
}

TEST(Track, CubicSplineRotationIsNormalized) {
  // Keys at 0.5 and 1.5: identity -> 90 degrees about z, zero tangents. The Hermite sum
  // is (1 - s) q0 + s q1 with s = 3t^2 - 2t^3 (= 1/2 at t = 1/2), not unit length;
  // normalized it is the 45-degree rotation.
  const Quat q1 = about_z(deg(90));
  const std::vector<double> times{0.5, 1.5};
  const std::vector<double> values{0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0,
                                   0, 0, 0, 0, q1.x, q1.y, q1.z, q1.w, 0, 0, 0, 0};
  const TrackView track{times, values, 4, Interpolation::kCubicSpline, ValueKind::kRotation};
  expect_quat_near(sample_q(track, 1.0), about_z(deg(45)), kTight);
}

TEST(Track, CubicSlerpUsesChosenInnerSlerp) {
  // The hand-worked sqlerp of test_interpolate as a two-key CUBICSLERP track on [2, 4].
  const Quat a = about_z(0.0), b = -about_z(deg(45)), c = about_z(deg(60)), d = about_z(deg(90));
  const std::vector<double> times{2.0, 4.0};
  const std::vector<double> values{0, 0, 0, 0, a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w,
                                   c.x, c.y, c.z, c.w, d.x, d.y, d.z, d.w, 0, 0, 0, 0};
  const TrackView track{times, values, 4, Interpolation::kCubicSlerp, ValueKind::kRotation};
  ASSERT_EQ(validate(track), "");
  expect_quat_near(sample_q(track, 3.0), about_z(deg(138.75)), kTight);
  expect_quat_near(sample_q(track, 3.0, {SlerpVariant::kShortestPath, SlerpVariant::kShortestPath}),
                   about_z(deg(48.75)), kTight);
}

TEST(Track, NanTimeGivesNan) {
  const TrackView track{kTimes, kValues, 1, Interpolation::kLinear, ValueKind::kVector};
  EXPECT_TRUE(std::isnan(sample1(track, std::numeric_limits<double>::quiet_NaN())));
}

TEST(Track, OutputSizeMismatchThrows) {
  const TrackView track{kTimes, kValues, 1, Interpolation::kLinear, ValueKind::kVector};
  std::array<double, 2> out{};
  EXPECT_THROW(sample(track, 1.0, out), std::invalid_argument);
  const std::vector<double> times{0.5};
  EXPECT_THROW(sample_batch(track, times, out), std::invalid_argument);
}

// validate(): every malformed track names its problem.
struct InvalidRow {
  const char* name;
  std::vector<double> times, values;
  std::size_t components;
  Interpolation interpolation;
  ValueKind kind;
  const char* reason_contains;
};

class Validate : public ::testing::TestWithParam<InvalidRow> {};

TEST_P(Validate, NamesTheProblem) {
  const InvalidRow& r = GetParam();
  const std::string reason =
      validate(TrackView{r.times, r.values, r.components, r.interpolation, r.kind});
  EXPECT_NE(reason.find(r.reason_contains), std::string::npos) << reason;
}

const double kNan = std::numeric_limits<double>::quiet_NaN();
INSTANTIATE_TEST_SUITE_P(
    Malformed, Validate,
    ::testing::Values(
        InvalidRow{"no_keys", {}, {}, 1, Interpolation::kLinear, ValueKind::kVector, "no keyframes"},
        InvalidRow{"zero_components", {0}, {}, 0, Interpolation::kLinear, ValueKind::kVector,
                   "components is 0"},
        InvalidRow{"count_mismatch", {0, 1}, {1, 2, 3}, 1, Interpolation::kLinear,
                   ValueKind::kVector, "expected 2 values"},
        InvalidRow{"cubic_count", {0, 1}, {1, 2}, 1, Interpolation::kCubicSpline,
                   ValueKind::kVector, "expected 6 values"},
        InvalidRow{"cubic_one_key", {0}, {1, 2, 3}, 1, Interpolation::kCubicSpline,
                   ValueKind::kVector, "at least 2 keyframes"},
        InvalidRow{"rotation_width", {0}, {0, 0, 1}, 3, Interpolation::kLinear,
                   ValueKind::kRotation, "4 components"},
        InvalidRow{"cubicslerp_vector", {0, 1}, std::vector<double>(6, 0.0), 1,
                   Interpolation::kCubicSlerp, ValueKind::kVector, "rotations only"},
        InvalidRow{"slerp_vector", {0, 1}, {0, 1}, 1, Interpolation::kSlerp, ValueKind::kVector,
                   "rotations only"},
        InvalidRow{"not_increasing", {0, 1, 1}, {0, 1, 2}, 1, Interpolation::kLinear,
                   ValueKind::kVector, "not strictly increasing at keyframe 2"},
        InvalidRow{"nan_time", {0, kNan}, {0, 1}, 1, Interpolation::kLinear, ValueKind::kVector,
                   "time 1 is not finite"},
        InvalidRow{"inf_value", {0, 1}, {0, std::numeric_limits<double>::infinity()}, 1,
                   Interpolation::kLinear, ValueKind::kVector, "value 1 is not finite"}),
    [](const auto& row) { return std::string(row.param.name); });

TEST(Search, FindKeyframeHandValues) {
  const std::vector<double> t{1.0, 2.0, 4.0};
  EXPECT_EQ(find_keyframe(t, 0.5), 0u);
  EXPECT_EQ(find_keyframe(t, 1.0), 0u);
  EXPECT_EQ(find_keyframe(t, 1.999), 0u);
  EXPECT_EQ(find_keyframe(t, 2.0), 1u);
  EXPECT_EQ(find_keyframe(t, 4.0), 2u);
  EXPECT_EQ(find_keyframe(t, 5.0), 2u);
}

TEST(Search, CursorHandSequence) {
  // Steps of one, two and many segments, landing on keys and between them, and back.
  const std::vector<double> t{0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0};
  struct Step {
    double time;
    std::size_t index;
  };
  const Step steps[] = {{-1.0, 0}, {0.0, 0}, {0.5, 0}, {1.0, 1}, {3.0, 3}, {3.5, 3}, {5.0, 5},
                        {6.0, 6},  {7.0, 6}, {2.0, 2}, {2.5, 2}, {4.0, 4}, {0.2, 0}, {2.0, 2}};
  KeyframeCursor cursor;
  for (const Step& s : steps) EXPECT_EQ(cursor.find(t, s.time), s.index) << s.time;
}

// Cursor vs binary search on random and sorted times over a 1,000-key track with
// random spacing: same index, bit-identical samples, batch equal to single samples.
TEST(Search, CursorAgreesWithBinarySearch) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> gap(0.001, 0.1), angle(-3.0, 3.0);
  std::vector<double> times{0.2};
  for (int i = 1; i < 1000; ++i) times.push_back(times.back() + gap(rng));
  std::vector<double> values;
  for (std::size_t i = 0; i < times.size(); ++i) {
    const Quat q = from_axis_angle({0.6, 0.0, 0.8}, angle(rng));
    values.insert(values.end(), {q.x, q.y, q.z, q.w});
  }
  const TrackView track{times, values, 4, Interpolation::kLinear, ValueKind::kRotation};
  ASSERT_EQ(validate(track), "");
  std::uniform_real_distribution<double> when(-1.0, times.back() + 1.0);
  std::vector<double> random_times, sorted_times;
  for (int i = 0; i < 5000; ++i) random_times.push_back(when(rng));
  random_times.insert(random_times.end(), times.begin(), times.begin() + 50);  // exact keys
  sorted_times = random_times;
  std::sort(sorted_times.begin(), sorted_times.end());
  // Shorter than the track: sample_batch's unsorted path without the segment table.
  std::vector<double> short_random(random_times.begin(), random_times.begin() + 300);
  for (const auto* batch : {&random_times, &sorted_times, &short_random}) {
    KeyframeCursor cursor;
    std::vector<double> out(batch->size() * 4);
    sample_batch(track, *batch, out);
    for (std::size_t i = 0; i < batch->size(); ++i) {
      const double t = (*batch)[i];
      ASSERT_EQ(cursor.find(times, t), find_keyframe(times, t)) << t;
      const Quat single = sample_q(track, t);
      ASSERT_EQ(to_quat({out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3]}), single)
          << t;
    }
  }
}

TEST(Interpolation, NamesRoundTrip) {
  for (Interpolation i : {Interpolation::kStep, Interpolation::kLinear, Interpolation::kCubicSpline,
                          Interpolation::kCubicSlerp, Interpolation::kSlerp})
    EXPECT_EQ(parse_interpolation(interpolation_name(i)), i);
  EXPECT_EQ(interpolation_name(Interpolation::kCubicSpline), "CUBICSPLINE");
  EXPECT_FALSE(parse_interpolation("linear").has_value());
}

}  // namespace
}  // namespace gltf_anim::reference

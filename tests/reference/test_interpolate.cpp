// Interpolators against closed forms, identities and hand-worked values.
#include <gltf_anim/reference/interpolate.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "tolerances.hpp"

namespace gltf_anim::reference {
namespace {

using namespace test;  // tolerances.hpp

TEST(Step, ReturnsFirstValue) {
  EXPECT_EQ(step(3.0, 7.0, 0.99), 3.0);
  EXPECT_EQ(step(about_z(1.0), about_z(2.0), 0.5), about_z(1.0));
}

TEST(Lerp, EndpointsBitExactAndMidpoint) {
  const double a = 0.1, b = 0.7;
  EXPECT_EQ(lerp(a, b, 0.0), a);
  EXPECT_EQ(lerp(a, b, 1.0), b);
  EXPECT_DOUBLE_EQ(lerp(2.0, 6.0, 0.25), 3.0);
  EXPECT_EQ(lerp(Quat{1, 2, 3, 4}, Quat{3, 2, 1, 0}, 0.5), (Quat{2, 2, 2, 2}));
}

// Rotation about one axis at constant angular speed: keys at angles theta0 and theta1,
// slerp at t must be the rotation by theta0 + t (theta1 - theta0) when that is the short
// way (|theta1 - theta0| < 180 degrees).
struct AxisCase {
  const char* name;
  double from_deg, to_deg;
};

class SlerpConstantSpeed : public ::testing::TestWithParam<AxisCase> {};

TEST_P(SlerpConstantSpeed, BothVariantsFollowTheAngle) {
  const AxisCase& c = GetParam();
  const Vec3 axis{0.0, 0.8, -0.6};
  const Quat q0 = from_axis_angle(axis, deg(c.from_deg));
  const Quat q1 = from_axis_angle(axis, deg(c.to_deg));
  for (double t : {0.0, 0.1, 0.25, 0.5, 0.8, 1.0}) {
    SCOPED_TRACE(t);
    const Quat expected = from_axis_angle(axis, deg(c.from_deg + t * (c.to_deg - c.from_deg)));
    expect_quat_near(slerp_shortest_path(q0, q1, t), expected, kTight);
    expect_quat_near(slerp(q0, q1, t), expected, kTight);
    expect_quat_near(khr_animation2_slerp(q0, q1, t), expected, kTight);
  }
}

INSTANTIATE_TEST_SUITE_P(Angles, SlerpConstantSpeed,
                         ::testing::Values(AxisCase{"quarter", 0, 90}, AxisCase{"back", 50, -30},
                                           AxisCase{"wide", -80, 95}, AxisCase{"small", 10, 10.5},
                                           AxisCase{"across360", 300, 420}),
                         [](const auto& row) { return std::string(row.param.name); });

TEST(Slerp, EndpointsExact) {
  const Quat a = from_axis_angle({0.6, 0.0, 0.8}, 0.7);
  const Quat b = from_axis_angle({0.0, 1.0, 0.0}, -1.2);
  EXPECT_EQ(slerp_shortest_path(a, b, 0.0), a);
  EXPECT_EQ(slerp_shortest_path(a, b, 1.0), b);
  EXPECT_EQ(slerp(a, b, 0.0), a);
  EXPECT_EQ(slerp(a, b, 1.0), b);
}

TEST(Slerp, Symmetry) {
  const Quat a = from_axis_angle({0.6, 0.0, 0.8}, 0.7);
  const Quat b = from_axis_angle({0.0, 1.0, 0.0}, -1.2);
  for (double t : {0.1, 0.3, 0.5, 0.9}) {
    expect_quat_near(slerp_shortest_path(a, b, t), slerp_shortest_path(b, a, 1.0 - t), kTight);
    expect_quat_near(slerp(a, b, t), slerp(b, a, 1.0 - t), kTight);
  }
}

// 0 -> 270 degrees about z: the stored keys are more than 180 degrees apart, dot < 0.
// Plain slerp turns +270 t; Appendix C (sign on the second key) turns -90 t and starts at
// the first key as stored; Magnum's convention (sign on the first) gives the negation.
TEST(Slerp, ShortestPathVariantsDifferWhereDotIsNegative) {
  const Quat q0 = about_z(0.0);
  const Quat q1 = about_z(deg(270));
  ASSERT_LT(dot(q0, q1), 0.0);
  for (double t : {0.0, 0.25, 0.5, 0.75}) {
    SCOPED_TRACE(t);
    expect_quat_near(slerp(q0, q1, t), about_z(deg(270 * t)), kTight);
    expect_quat_near(slerp_shortest_path(q0, q1, t), about_z(deg(-90 * t)), kTight);
    expect_quat_near(slerp_shortest_path_negating_first(q0, q1, t), -about_z(deg(-90 * t)),
                     kTight);
  }
  // t = 1: Appendix C yields -q1 (same rotation), plain yields q1 as stored.
  expect_quat_near(slerp_shortest_path(q0, q1, 1.0), -q1, kTight);
  EXPECT_EQ(slerp(q0, q1, 1.0), q1);
}

TEST(Slerp, DotExactlyZeroTakesPositiveSign) {
  // 0 -> 180 degrees: dot = cos 90 = 0 exactly for these stored values.
  const Quat q0{0, 0, 0, 1}, q1{0, 0, 1, 0};
  ASSERT_EQ(dot(q0, q1), 0.0);
  expect_quat_near(slerp_shortest_path(q0, q1, 0.5), about_z(deg(90)), kTight);
}

TEST(Slerp, NearParallelFallbackIsLerpAndUnit) {
  // Reaches the fallback branch: 1 - |d| below kSlerpLinearThreshold.
  const Quat a = about_z(0.2);
  const Quat b = about_z(0.2 + 2e-8);
  ASSERT_LT(1.0 - std::abs(dot(a, b)), kSlerpLinearThreshold);
  for (double t : {0.25, 0.5}) {
    const Quat r = slerp_shortest_path(a, b, t);
    EXPECT_EQ(r, lerp(a, b, t));
    EXPECT_NEAR(length(r), 1.0, kTight);
    expect_quat_near(r, about_z(0.2 + t * 2e-8), kTight);
    EXPECT_EQ(slerp(a, b, t), lerp(a, b, t));
  }
  // Non-unit equal keys (|d| > 1): no NaN, the key comes back.
  const Quat big{0, 0, 0.7072, 0.7072};
  ASSERT_GT(dot(big, big), 1.0);
  EXPECT_EQ(slerp_shortest_path(big, big, 0.3), big);
}

TEST(Slerp, JustAboveThresholdStillAccurate) {
  // 1 - d ~ 1e-13: the trigonometric branch, whose acos is ill-conditioned; the weights
  // are not (see kSlerpLinearThreshold).
  const Quat a = about_z(0.2);
  const Quat b = about_z(0.2 + 1e-6);
  ASSERT_GT(1.0 - dot(a, b), kSlerpLinearThreshold);
  expect_quat_near(slerp_shortest_path(a, b, 0.3), about_z(0.2 + 0.3e-6), kTight);
}

TEST(Slerp, PlainAntipodalFollowsFixedPerpendicular) {
  const Quat a = from_axis_angle({1, 0, 0}, 0.5);
  const Quat b = -a;
  const Quat p{-a.y, a.x, -a.w, a.z};
  EXPECT_EQ(dot(a, p), 0.0);
  expect_quat_near(slerp(a, b, 0.5), p, kTight);
  expect_quat_near(slerp(a, b, 1.0), b, kTight);
  EXPECT_NEAR(length(slerp(a, b, 0.3)), 1.0, kTight);
  // The shortest-path slerp of a and -a is the constant rotation a.
  expect_quat_near(slerp_shortest_path(a, b, 0.3), a, kTight);
}

// nlerp about one axis: the direction of (1-t) q0 + t q1 in the z-w plane has half-angle
// h0 + atan2(t sin(dh), (1 - t) + t cos(dh)).
TEST(Nlerp, ClosedFormAboutOneAxis) {
  const double h0 = deg(10), h1 = deg(60);
  const Quat q0 = about_z(2 * h0), q1 = about_z(2 * h1);
  for (double t : {0.0, 0.2, 0.5, 0.7, 1.0}) {
    const double dh = h1 - h0;
    const double h = h0 + std::atan2(t * std::sin(dh), (1 - t) + t * std::cos(dh));
    expect_quat_near(nlerp(q0, q1, t), about_z(2 * h), kTight);
    expect_quat_near(nlerp_shortest_path(q0, q1, t), about_z(2 * h), kTight);
  }
}

TEST(Nlerp, VariantsDifferWhereDotIsNegative) {
  const Quat q0 = about_z(0.0);
  const Quat q1 = about_z(deg(270));  // half-angles 0 and 135 degrees
  // Plain: half-angle atan2(t sin 135, (1-t) + t cos 135). At t = 0.5: 67.5 degrees.
  expect_quat_near(nlerp(q0, q1, 0.5), about_z(deg(135)), kTight);
  // Shortest path: -q1 has half-angle -45: midpoint half-angle -22.5.
  expect_quat_near(nlerp_shortest_path(q0, q1, 0.5), about_z(deg(-45)), kTight);
  // Antipodal plain nlerp at 1/2 has no direction: zero comes back, not NaN.
  EXPECT_EQ(nlerp(q0, -q0, 0.5), (Quat{0, 0, 0, 0}));
}

// A cubic p(T) = c0 + c1 T + c2 T^2 + c3 T^3 on [T0, T1]. Its Hermite form, by hand:
// v_k = p(T0), v_{k+1} = p(T1), b_k = p'(T0), a_{k+1} = p'(T1) (per second), and
// Appendix C with t_d = T1 - T0 reproduces p(T0 + t t_d) exactly.
struct CubicCase {
  double c0, c1, c2, c3, t0, t1;
};

class HermiteCubic : public ::testing::TestWithParam<CubicCase> {};

TEST_P(HermiteCubic, ReproducesPolynomial) {
  const CubicCase& c = GetParam();
  auto p = [&](double x) { return c.c0 + x * (c.c1 + x * (c.c2 + x * c.c3)); };
  auto dp = [&](double x) { return c.c1 + x * (2 * c.c2 + x * 3 * c.c3); };
  const double td = c.t1 - c.t0;
  for (double t : {0.0, 0.125, 0.5, 0.8, 1.0}) {
    SCOPED_TRACE(t);
    EXPECT_NEAR(cubic_hermite(p(c.t0), dp(c.t0), p(c.t1), dp(c.t1), t, td), p(c.t0 + t * td),
                kClose);
  }
}

INSTANTIATE_TEST_SUITE_P(Cubics, HermiteCubic,
                         ::testing::Values(CubicCase{1, 0, 0, 0, 0, 1},      // constant
                                           CubicCase{0.5, -2, 0, 0, 2, 3.5},  // line
                                           CubicCase{0, 0.5, -0.25, 0.25, 0, 0.5},
                                           CubicCase{3, -1, 2, -0.7, 2, 3.5},
                                           CubicCase{-1, 4, 0.3, 1.1, 10, 10.25}));

TEST(Hermite, TangentsAreScaledBySegmentDuration) {
  // v_k = 0, v_{k+1} = 0, b_k = 1 /s, a_{k+1} = 0: v_t = t_d (t^3 - 2t^2 + t);
  // at t = 0.5 that is t_d / 8. Doubling the duration doubles the bump.
  EXPECT_DOUBLE_EQ(cubic_hermite(0, 1, 0, 0, 0.5, 1.0), 0.125);
  EXPECT_DOUBLE_EQ(cubic_hermite(0, 1, 0, 0, 0.5, 2.0), 0.25);
}

TEST(Hermite, RotationWithZeroTangentsIsNormalizedEasedLerp) {
  // Zero tangents: s(t) = 3t^2 - 2t^3 and v = normalize((1 - s) q0 + s q1) = nlerp(q0, q1, s).
  const Quat q0 = about_z(deg(20)), q1 = about_z(deg(100));
  const Quat zero{0, 0, 0, 0};
  for (double t : {0.2, 0.5, 0.9}) {
    const double s = 3 * t * t - 2 * t * t * t;
    const Quat r = cubic_hermite_rotation(q0, zero, q1, zero, t, 1.7);
    expect_quat_near(r, nlerp(q0, q1, s), kTight);
    EXPECT_NEAR(length(r), 1.0, kTight);
  }
}

TEST(Sqlerp, EndpointsAndCoincidentControlsEqualSlerp) {
  const Quat a = from_axis_angle({0.6, 0.0, 0.8}, 0.7);
  const Quat d = from_axis_angle({0.0, 1.0, 0.0}, -1.2);
  for (SlerpVariant v : {SlerpVariant::kPlain, SlerpVariant::kShortestPath}) {
    for (double t : {0.0, 0.3, 0.5, 0.9, 1.0})
      expect_quat_near(sqlerp(a, a, d, d, t, v), slerp(a, d, t, v), kTight);
    const Quat b = from_axis_angle({1, 0, 0}, 0.3), c = from_axis_angle({0, 0, 1}, 0.2);
    EXPECT_EQ(sqlerp(a, b, c, d, 0.0, v), a);
    expect_quat_near(sqlerp(a, b, c, d, 1.0, v), d, kTight);
  }
}

TEST(Sqlerp, OneAxisIsLerpOfAngles) {
  // Same axis, small differences: sqlerp's angle = lerp(lerp(A, D, t), lerp(B, C, t), 2t - 2t^2).
  const double A = 0.1, B = 0.5, C = 0.2, D = 0.9;
  for (double t : {0.1, 0.5, 0.7}) {
    const double w = 2 * t - 2 * t * t;
    const double angle = (1 - w) * ((1 - t) * A + t * D) + w * ((1 - t) * B + t * C);
    for (SlerpVariant v : {SlerpVariant::kPlain, SlerpVariant::kShortestPath})
      expect_quat_near(sqlerp(about_z(A), about_z(B), about_z(C), about_z(D), t, v),
                       about_z(angle), kTight);
  }
}

// Where the variants differ, worked by hand in the z-w plane (points at half-angle h):
// A = 0, B stored as -q(45 deg) (h = 202.5), C = q(60 deg) (h = 30), D = q(90 deg).
// t = 1/2, w = 1/2. slerp(A, D) is at h = 22.5.
//  plain:    slerp(-B, C) takes the 172.5-degree arc down to 30: h = 202.5 - 86.25 = 116.25;
//            outer from 22.5 to 116.25 at 1/2: h = 69.375 (rotation 138.75 degrees).
//  shortest: C is negated (h = 210): h = 206.25; the outer slerp negates that (h = 26.25):
//            h = 24.375 (rotation 48.75 degrees), the same as with B stored positive.
TEST(Sqlerp, InnerVariantsDifferOnNegatedControl) {
  const Quat a = about_z(0.0), b = -about_z(deg(45)), c = about_z(deg(60)), d = about_z(deg(90));
  const Quat plain = sqlerp(a, b, c, d, 0.5, SlerpVariant::kPlain);
  const Quat shortest = sqlerp(a, b, c, d, 0.5, SlerpVariant::kShortestPath);
  expect_quat_near(plain, about_z(deg(138.75)), kTight);
  expect_quat_near(shortest, about_z(deg(48.75)), kTight);
  expect_quat_near(sqlerp(a, about_z(deg(45)), c, d, 0.5, SlerpVariant::kShortestPath),
                   about_z(deg(48.75)), kTight);
  EXPECT_EQ(cubic_slerp_segment(a, b, c, d, 0.5), plain);  // default is kPlain
}

}  // namespace
}  // namespace gltf_anim::reference

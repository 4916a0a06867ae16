#pragma once
// Named tolerances and helpers of test_reference (ozz's gtest_math_helper style).
#include <gltf_anim/reference/quaternion.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cmath>

namespace gltf_anim::reference::test {

// A handful of double roundings: closed forms evaluated through sin/acos/atan2.
inline constexpr double kTight = 1e-14;
// Closed forms that go through several trigonometric steps (sqlerp, Hermite of a cubic
// with large coefficients, angle extraction).
inline constexpr double kClose = 1e-12;
// One-sided finite-difference derivatives (exact for cubics up to rounding; steps 1e-4
// and 1e-3): velocity jumps and accelerations at keys.
inline constexpr double kVelocityJump = 1e-8;
inline constexpr double kAccelerationNoise = 1e-6;

inline double deg(double d) { return d * 3.14159265358979323846 / 180.0; }

// Rotation of `angle` radians about +z.
inline Quat about_z(double angle) { return from_axis_angle({0.0, 0.0, 1.0}, angle); }

inline void expect_quat_near(const Quat& actual, const Quat& expected, double tol) {
  EXPECT_NEAR(actual.x, expected.x, tol);
  EXPECT_NEAR(actual.y, expected.y, tol);
  EXPECT_NEAR(actual.z, expected.z, tol);
  EXPECT_NEAR(actual.w, expected.w, tol);
}

inline Quat to_quat(const std::array<double, 4>& a) { return {a[0], a[1], a[2], a[3]}; }

}  // namespace gltf_anim::reference::test

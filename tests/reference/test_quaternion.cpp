// Quaternion basics, log/exp and the normalized-integer decode table.
#include <gltf_anim/reference/normalized.hpp>
#include <gltf_anim/reference/quaternion.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <numbers>
#include <span>

#include "tolerances.hpp"

namespace gltf_anim::reference {
namespace {

using namespace test;  // tolerances.hpp

TEST(Quaternion, HamiltonProductOfBasisUnits) {
  // i j = k, j k = i, k i = j, i^2 = -1 (x, y, z, w order).
  const Quat i{1, 0, 0, 0}, j{0, 1, 0, 0}, k{0, 0, 1, 0};
  EXPECT_EQ(i * j, k);
  EXPECT_EQ(j * k, i);
  EXPECT_EQ(k * i, j);
  EXPECT_EQ(i * i, (Quat{0, 0, 0, -1}));
  EXPECT_EQ(j * i, -k);
}

TEST(Quaternion, AxisAngleComposesAndConjugateInverts) {
  // Two rotations about the same axis add their angles.
  const Vec3 axis{0.0, 0.6, 0.8};
  expect_quat_near(from_axis_angle(axis, 0.3) * from_axis_angle(axis, 0.5),
                   from_axis_angle(axis, 0.8), kTight);
  const Quat q = from_axis_angle(axis, 1.1);
  expect_quat_near(conjugate(q) * q, Quat{0, 0, 0, 1}, kTight);
  // 90 degrees about z: (0, 0, sin 45, cos 45).
  expect_quat_near(from_axis_angle({0, 0, 1}, deg(90)), Quat{0, 0, std::sqrt(0.5), std::sqrt(0.5)},
                   kTight);
}

TEST(Quaternion, LogIsHalfAngleTimesAxis) {
  const Vec3 axis{0.48, 0.6, 0.64};  // unit: 0.2304 + 0.36 + 0.4096 = 1
  for (double angle : {1e-9, 1e-4, 0.3, 2.0, 3.1}) {
    SCOPED_TRACE(angle);
    const Vec3 l = quat_log(from_axis_angle(axis, angle));
    // Relative accuracy holds for tiny angles too (no 0.9999 threshold).
    EXPECT_NEAR(l.x, 0.5 * angle * axis.x, 1e-15 * angle + 1e-300);
    EXPECT_NEAR(l.y, 0.5 * angle * axis.y, 1e-15 * angle + 1e-300);
    EXPECT_NEAR(l.z, 0.5 * angle * axis.z, 1e-15 * angle + 1e-300);
    expect_quat_near(quat_exp(l), from_axis_angle(axis, angle), kTight);
  }
  // Identity: log 0, exp 0 = identity.
  const Vec3 zero = quat_log(Quat{0, 0, 0, 1});
  EXPECT_EQ(zero.x, 0.0);
  EXPECT_EQ(zero.y, 0.0);
  EXPECT_EQ(zero.z, 0.0);
  EXPECT_EQ(quat_exp(Vec3{}), (Quat{0, 0, 0, 1}));
}

TEST(Quaternion, NormalizedLeavesZeroAlone) {
  EXPECT_EQ(normalized(Quat{0, 0, 0, 0}), (Quat{0, 0, 0, 0}));
  expect_quat_near(normalized(Quat{0, 0, 3, 4}), Quat{0, 0, 0.6, 0.8}, kTight);
}

// glTF 2.0 "Animations": f = max(c / 127, -1), c / 255, max(c / 32767, -1), c / 65535.
struct DecodeRow {
  const char* name;
  double decoded;
  double expected;
};

class NormalizedDecode : public ::testing::TestWithParam<DecodeRow> {};

TEST_P(NormalizedDecode, MatchesSpecTable) {
  EXPECT_EQ(GetParam().decoded, GetParam().expected) << GetParam().name;
}

INSTANTIATE_TEST_SUITE_P(
    SpecTable, NormalizedDecode,
    ::testing::Values(
        DecodeRow{"byte -128 clamps to -1", decode_normalized(std::int8_t{-128}), -1.0},
        DecodeRow{"byte -127", decode_normalized(std::int8_t{-127}), -1.0},
        DecodeRow{"byte 0", decode_normalized(std::int8_t{0}), 0.0},
        DecodeRow{"byte 127", decode_normalized(std::int8_t{127}), 1.0},
        DecodeRow{"byte 64", decode_normalized(std::int8_t{64}), 64.0 / 127.0},
        DecodeRow{"ubyte 0", decode_normalized(std::uint8_t{0}), 0.0},
        DecodeRow{"ubyte 255", decode_normalized(std::uint8_t{255}), 1.0},
        DecodeRow{"ubyte 51", decode_normalized(std::uint8_t{51}), 0.2},
        DecodeRow{"short -32768 clamps to -1", decode_normalized(std::int16_t{-32768}), -1.0},
        DecodeRow{"short -32767", decode_normalized(std::int16_t{-32767}), -1.0},
        DecodeRow{"short 32767", decode_normalized(std::int16_t{32767}), 1.0},
        DecodeRow{"ushort 65535", decode_normalized(std::uint16_t{65535}), 1.0},
        DecodeRow{"ushort 13107", decode_normalized(std::uint16_t{13107}), 0.2}),
    [](const ::testing::TestParamInfo<DecodeRow>& row) {
      return "row" + std::to_string(row.index);
    });

TEST(NormalizedDecode, UnclampedFormulaWouldUndershoot) {
  // The clamp is what makes -128 exactly -1 (three.js returns -1.0000305 for -32768).
  EXPECT_LT(-128 / 127.0, -1.0);
  EXPECT_LT(-32768 / 32767.0, -1.0);
}

// rotation_angle: expected angles from the rotations' construction, not from the formula.
TEST(RotationAngle, QuarterTurnHalfTurnAndTheDoubleCover) {
  const Quat id{0, 0, 0, 1};
  const double h = std::sqrt(0.5);  // sin 45 = cos 45
  const Quat quarter_z{0, 0, h, h};  // 90 degrees about z
  EXPECT_NEAR(rotation_angle(id, quarter_z), std::numbers::pi / 2, 1e-15);
  EXPECT_NEAR(rotation_angle(quarter_z, id), std::numbers::pi / 2, 1e-15);
  // q and -q are one rotation: 0, and -quarter_z is still 90 degrees from the identity.
  EXPECT_EQ(rotation_angle(quarter_z, -quarter_z), 0.0);
  EXPECT_NEAR(rotation_angle(id, -quarter_z), std::numbers::pi / 2, 1e-15);
  // 270 degrees about x, (sin 135, 0, 0, cos 135), is 90 degrees the other way round.
  EXPECT_NEAR(rotation_angle(id, Quat{h, 0, 0, -h}), std::numbers::pi / 2, 1e-15);
  // Half a turn about x: the largest angle there is.
  EXPECT_NEAR(rotation_angle(id, Quat{1, 0, 0, 0}), std::numbers::pi, 1e-15);
  // 90 degrees about x and 90 about z: their dot product, the cosine of half the angle
  // between them, is h^2 = 1/2 = cos 60 degrees, so they are 120 degrees apart.
  EXPECT_NEAR(rotation_angle(Quat{h, 0, 0, h}, quarter_z), 2 * std::numbers::pi / 3, 1e-15);
}

TEST(RotationAngle, TinyAnglesKeepTheirPrecisionWhere2AcosLosesThem) {
  // 1e-9 rad about x: (sin 5e-10, 0, 0, cos 5e-10) = (5e-10, 0, 0, 1) in doubles (cos
  // 5e-10 = 1 - 1.25e-19 rounds to 1). |x - y| = 5e-10 and |x + y| = 2: 4 atan2 gives 1e-9,
  // where 2 acos(x . y) = 2 acos(1) = 0.
  const Quat id{0, 0, 0, 1};
  const Quat tiny{5e-10, 0, 0, 1};
  EXPECT_NEAR(rotation_angle(id, tiny), 1e-9, 1e-24);
  EXPECT_EQ(2 * std::acos(dot(id, tiny)), 0.0);  // what the ill-conditioned form measures
  // 1e-4 rad: 2 acos keeps only about half the digits (error ~1e-12 here); this stays exact.
  const Quat small{std::sin(5e-5), 0, 0, std::cos(5e-5)};
  EXPECT_NEAR(rotation_angle(id, small), 1e-4, 1e-18);
}

TEST(RotationAngle, ScaleZerosAndBadInput) {
  const double inf = std::numeric_limits<double>::infinity();
  const double h = std::sqrt(0.5);
  // Not unit: measured as the rotations they stand for, however tiny or huge.
  EXPECT_NEAR(rotation_angle(Quat{0, 0, 0, 1e-200}, Quat{0, 0, 1e300 * h, 1e300 * h}),
              std::numbers::pi / 2, 1e-15);
  EXPECT_EQ(rotation_angle(Quat{0, 0, 0, 2}, Quat{0, 0, 0, 3}), 0.0);
  // Zero quaternions: no rotation. Two agree, a zero and a rotation never do.
  EXPECT_EQ(rotation_angle(Quat{0, 0, 0, 0}, Quat{0, 0, 0, -0.0}), 0.0);
  EXPECT_EQ(rotation_angle(Quat{0, 0, 0, 0}, Quat{0, 0, 0, 1}), inf);
  EXPECT_EQ(rotation_angle(Quat{0, 0, 0, 1}, Quat{0, std::nan(""), 0, 1}), inf);
  EXPECT_EQ(rotation_angle(Quat{0, 0, 0, 1}, Quat{inf, 0, 0, 1}), inf);
  const double three[3] = {0, 0, 1}, four[4] = {0, 0, 0, 1};
  EXPECT_EQ(rotation_angle(std::span<const double>(four), std::span<const double>(three)), inf);
}

}  // namespace
}  // namespace gltf_anim::reference

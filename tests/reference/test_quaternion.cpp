// Quaternion basics, log/exp and the normalized-integer decode table.
#include <gltf_anim/reference/normalized.hpp>
#include <gltf_anim/reference/quaternion.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

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

}  // namespace
}  // namespace gltf_anim::reference

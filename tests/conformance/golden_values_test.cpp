// Golden values of the committed suite checked by hand maths (closed forms written
// out here, not the reference evaluator).
#include <gltf_anim/sampler/sample.hpp>
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/samples/samples.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "conformance_test_util.hpp"

namespace gltf_anim::suite::test {
namespace {

constexpr double kPi = std::numbers::pi;

samples::SamplesFile golden(const std::string& id) {
  return samples::read_samples_file(valid_asset(id + ".samples.json"));
}

void expect_near(const std::vector<double>& actual, const std::vector<double>& expected, double tol) {
  ASSERT_EQ(actual.size(), expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) EXPECT_NEAR(actual[i], expected[i], tol) << "component " << i;
}

TEST(GoldenValues, LinearTranslationMidpoints) {
  const auto f = golden("translation_linear");
  const auto& c = channel(f, "/nodes/0/translation");
  // keys (0,0,0)@0, (1,2,-1)@1, (1.5,-0.5,2)@2, (4,1,0.5)@3.5
  expect_near(at(c, 0.5), {0.5, 1.0, -0.5}, 1e-15);
  expect_near(at(c, 2.75), {2.75, 0.25, 1.25}, 1e-15);
  expect_near(at(c, 2.375), {1.5 + 0.25 * 2.5, -0.5 + 0.25 * 1.5, 2.0 - 0.25 * 1.5}, 1e-15);
  // Clamped before the first and after the last key.
  expect_near(at(c, -0.5), {0, 0, 0}, 0.0);
  expect_near(at(c, 4.0), {4, 1, 0.5}, 0.0);
}

TEST(GoldenValues, StepAtExactKeyIsTheKeysOwnValue) {
  const auto f = golden("divergence_step_exact_key");
  const auto& c = channel(f, "/nodes/0/translation");
  EXPECT_EQ(at(c, 0.5), (std::vector<double>{1, 0, 0}));
  EXPECT_EQ(at(c, 1.0), (std::vector<double>{2, 0, 0}));
  EXPECT_EQ(at(c, 0.375), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(at(c, 0.75), (std::vector<double>{1, 0, 0}));
}

TEST(GoldenValues, RotationAboutOneAxisThroughPointer) {
  // (0,0,0,1) -> 120 degrees about z; at fraction u the angle is 120u (half angle u pi / 3),
  // up to the float32 rounding of the stored key (~3e-8).
  const auto f = golden("divergence_pointer_rotation");
  const auto& c = channel(f, "/nodes/0/rotation");
  for (double u : {0.25, 0.5, 0.75}) {
    const double half = kPi / 3 * u;
    expect_near(at(c, u), {0, 0, std::sin(half), std::cos(half)}, 1e-7);
  }
}

TEST(GoldenValues, CubicSplineRotationHermiteAndClamp) {
  // Keys 0.5 s identity and 1.5 s (0,0,s,s) with s = float(sqrt(1/2)); b_1 = a_2 = (0,0,0.8,0).
  const auto f = golden("divergence_cubic_before_first");
  const auto& c = channel(f, "/nodes/0/rotation");
  const double s = static_cast<double>(static_cast<float>(std::sqrt(0.5)));
  const double m = static_cast<double>(0.8f);
  const double u = 0.25;  // t = 0.75, t_d = 1
  const double h00 = 2 * u * u * u - 3 * u * u + 1, h10 = u * u * u - 2 * u * u + u;
  const double h01 = -2 * u * u * u + 3 * u * u, h11 = u * u * u - u * u;
  const double z = h10 * m + h01 * s + h11 * m;
  const double w = h00 + h01 * s;
  const double n = std::sqrt(z * z + w * w);
  expect_near(at(c, 0.75), {0, 0, z / n, w / n}, 1e-15);
  EXPECT_NEAR(at(c, 0.75)[2], 0.190809, 1e-6);  // the survey's figure (three.js, Babylon)
  // Before the channel's first key (inside the clip): clamped to the first key.
  EXPECT_EQ(at(c, 0.25), (std::vector<double>{0, 0, 0, 1}));
  EXPECT_EQ(at(c, 0.0), (std::vector<double>{0, 0, 0, 1}));
}

TEST(GoldenValues, CubicSplineWeightsAfterLastKeyHold) {
  const auto f = golden("divergence_cubic_after_last");
  const auto& c = channel(f, "/nodes/0/weights");
  EXPECT_EQ(at(c, 1.5), (std::vector<double>{1, 0}));
  EXPECT_EQ(at(c, 2.0), (std::vector<double>{1, 0}));
  // Midpoint of [0, 1]: v = (0,0)->(1,0), b_1 = (1,1), a_2 = (0,1):
  // 0.5 v0 + 0.125 b1 + 0.5 v1 - 0.125 a2.
  expect_near(at(c, 0.5), {0.125 + 0.5, 0.125 - 0.125}, 1e-15);
}

TEST(GoldenValues, NormalizedShortMinusOneIsExactlyMinusOne) {
  const auto f = golden("divergence_short_min");
  EXPECT_EQ(at(channel(f, "/nodes/0/rotation"), 1.0), (std::vector<double>{-1, 0, 0, 0}));
  EXPECT_EQ(at(channel(f, "/nodes/0/weights"), 1.0), (std::vector<double>{-1}));
  EXPECT_EQ(at(channel(f, "/nodes/0/weights"), 0.0), (std::vector<double>{1}));
  // Halfway between A = (-1,0,0,0) and B = (-d,-d,0,0), d = 23170/32767 (not unit, as stored):
  // with a = acos(A.B) = acos(d), sin(a/2)/sin(a) (A + B) = (-(1 + d), -d, 0, 0) / (2 cos(a/2)).
  const double d = 23170 / 32767.0;
  const double w = 1 / (2 * std::cos(std::acos(d) / 2));
  expect_near(at(channel(f, "/nodes/0/rotation"), 1.5), {-(1 + d) * w, -d * w, 0, 0}, 1e-15);
}

TEST(GoldenValues, NormalizedUnsignedByteWeights) {
  // Stored 0,255 | 127,1 | 85,0 at t = 0, 1, 2; decoded c / 255.
  const auto f = golden("normalized_weights_ubyte");
  const auto& c = channel(f, "/nodes/0/weights");
  expect_near(at(c, 0.0), {0, 1}, 0.0);
  expect_near(at(c, 0.5), {0.5 * 127 / 255.0, 0.5 * (1 + 1 / 255.0)}, 1e-15);
  expect_near(at(c, 2.0), {85 / 255.0, 0}, 1e-17);
}

TEST(GoldenValues, SparseOutputsSubstituteTheirIndices) {
  // Translation base (k, k, k) for keys k = 0..3 with keys 1 and 3 replaced by (5, -1, 0.5), (-2, 4, 8);
  // weights: zeros with values 1, 0.5, 0.75 at flat indices 1, 2, 5 (2 targets per key).
  const auto f = golden("sparse_outputs");
  const auto& t = channel(f, "/nodes/0/translation");
  expect_near(at(t, 1.0), {5, -1, 0.5}, 0.0);
  expect_near(at(t, 2.0), {2, 2, 2}, 0.0);
  expect_near(at(t, 2.75), {0, 3, 5}, 1e-15);
  const auto& w = channel(f, "/nodes/0/weights");
  expect_near(at(w, 0.0), {0, 1}, 0.0);
  expect_near(at(w, 1.0), {0.5, 0}, 0.0);
  expect_near(at(w, 1.5), {0.25, 0.375}, 1e-15);
  expect_near(at(w, 3.5), {0, 0}, 0.0);
}

TEST(GoldenValues, NormalizedRotationKeysDecodeBySpecFormula) {
  // BYTE: 90 degrees about z stored (0, 0, 90, 90) -> c / 127; -60 about (1, 0, -1) stored
  // (-45, 0, 45, 110): sin(-30 deg) / sqrt(2) x 127 = -44.90, cos(30 deg) x 127 = 109.99.
  const auto b = golden("normalized_rotation_byte");
  const auto& cb = channel(b, "/nodes/0/rotation");
  EXPECT_EQ(at(cb, 1.0), (std::vector<double>{0, 0, 90 / 127.0, 90 / 127.0}));
  EXPECT_EQ(at(cb, 3.0), (std::vector<double>{-45 / 127.0, 0, 45 / 127.0, 110 / 127.0}));
  // UNSIGNED_SHORT: (0, 0, 46340, 46340) -> c / 65535; 180 degrees (0, 0, 65535, 0) -> exactly 1.
  const auto u = golden("normalized_rotation_ushort");
  const auto& cu = channel(u, "/nodes/0/rotation");
  EXPECT_EQ(at(cu, 1.0), (std::vector<double>{0, 0, 46340 / 65535.0, 46340 / 65535.0}));
  EXPECT_EQ(at(cu, 2.0), (std::vector<double>{0, 0, 1, 0}));
}

TEST(GoldenValues, TinySegmentMidpoint) {
  const auto f = golden("edge_tiny_segment");
  const auto& c = channel(f, "/nodes/0/translation");
  const double t1 = 1.0, t2 = static_cast<double>(std::nextafter(1.0f, 2.0f));
  expect_near(at(c, t1 + 0.5 * (t2 - t1)), {5, 0, 0}, 1e-12);
  expect_near(at(c, t2), {10, 0, 0}, 0.0);
}

TEST(GoldenValues, IntAndBoolPointersWithStep) {
  const auto i = golden("pointer_int_step");
  const auto& level = channel(i, "/nodes/0/extras/level");
  EXPECT_EQ(at(level, 1.0), (std::vector<double>{3}));
  EXPECT_EQ(at(level, 1.5), (std::vector<double>{3}));
  EXPECT_EQ(at(level, 2.0), (std::vector<double>{-2}));
  const auto b = golden("pointer_bool_step");
  const auto& visible = channel(b, "/nodes/0/extensions/KHR_node_visibility/visible");
  EXPECT_EQ(at(visible, 1.0), (std::vector<double>{0}));
  EXPECT_EQ(at(visible, 2.0), (std::vector<double>{1}));  // stored 2 -> true
}

TEST(GoldenValues, SqlerpChannelEvaluatesTheExtensionSampler) {
  const auto f = golden("sqlerp_with_fallback");
  const auto& c = channel(f, "/nodes/0/rotation");
  EXPECT_EQ(c.interpolation, "CUBICSLERP");
  EXPECT_EQ(c.sampler, std::optional<std::size_t>(0));
  // At t = 1 the second key, 90 degrees about z (float32-stored).
  const double s = static_cast<double>(static_cast<float>(std::sin(kPi / 4)));
  const double w = static_cast<double>(static_cast<float>(std::cos(kPi / 4)));
  EXPECT_EQ(at(c, 1.0), (std::vector<double>{0, 0, s, w}));
}

// Independent quaternion helpers (second method; not the reference evaluator).
using Q = std::array<double, 4>;
Q axis_angle_f32(double x, double y, double z, double degrees) {
  const double n = std::sqrt(x * x + y * y + z * z);
  const double h = degrees * kPi / 360.0;
  const double s = std::sin(h);
  auto f = [](double v) { return static_cast<double>(static_cast<float>(v)); };
  return {f(s * x / n), f(s * y / n), f(s * z / n), f(std::cos(h))};
}
Q slerp_test(const Q& a, const Q& b, double u) {
  double d = 0;
  for (int i = 0; i < 4; ++i) d += a[i] * b[i];
  const double sign = d < 0 ? -1.0 : 1.0;
  const double angle = std::acos(std::min(1.0, std::abs(d)));
  const double wa = std::sin((1 - u) * angle) / std::sin(angle);
  const double wb = sign * std::sin(u * angle) / std::sin(angle);
  Q out{};
  for (int i = 0; i < 4; ++i) out[i] = wa * a[i] + wb * b[i];
  return out;
}

TEST(GoldenValues, SqlerpMidSegmentIsShoemakesFormula) {
  // sqlerp(A, B, C, D, u) = slerp(slerp(A, D, u), slerp(B, C, u), 2u - 2u^2), segment 0:
  // A = identity, D = 90 deg about z, B = b_1 = 25 deg about (0.2, 0, 1), C = a_2 = 70 deg about (0, 0.3, 1).
  // The control quaternions are in one hemisphere, so plain and shortest-path slerp agree.
  const auto f = golden("sqlerp_with_fallback");
  const auto& c = channel(f, "/nodes/0/rotation");
  const Q a{0, 0, 0, 1};
  const Q d = axis_angle_f32(0, 0, 1, 90);
  const Q b = axis_angle_f32(0.2, 0, 1, 25);
  const Q cc = axis_angle_f32(0, 0.3, 1, 70);
  for (double u : {0.25, 0.5, 0.75}) {
    const Q expected = slerp_test(slerp_test(a, d, u), slerp_test(b, cc, u), 2 * u - 2 * u * u);
    expect_near(at(c, u), {expected[0], expected[1], expected[2], expected[3]}, 1e-12);
  }
}

// The `no-extensions` variant of the sqlerp case with a fallback: the LINEAR
// fallback sampler (keys identity @0, 90 deg about z @1), i.e. a slerp about z.
TEST(GoldenValues, SqlerpNoExtensionsVariantIsTheLinearFallback) {
  const auto f = samples::read_samples_file(valid_asset("sqlerp_with_fallback.no-extensions.variant.json"));
  const auto& c = channel(f, "/nodes/0/rotation");
  EXPECT_EQ(c.interpolation, "LINEAR");
  EXPECT_EQ(c.sampler, std::optional<std::size_t>(1));
  for (double u : {0.25, 0.5, 0.75}) {
    const Q expected = slerp_test({0, 0, 0, 1}, axis_angle_f32(0, 0, 1, 90), u);
    expect_near(at(c, u), {expected[0], expected[1], expected[2], expected[3]}, 1e-15);
  }
  // 45 degrees about z at the midpoint, up to the float32 key.
  expect_near(at(c, 0.5), {0, 0, std::sin(kPi / 8), std::cos(kPi / 8)}, 1e-7);
}

// compare credits a client that plays the fallback (the variant), and says so;
// the CUBICSLERP golden itself still passes as the main result.
TEST(GoldenValues, CompareCreditsThePlayedFallbackAsAVariant) {
  const auto golden_file = valid_asset("sqlerp_with_fallback.samples.json");
  const auto fallback = valid_asset("sqlerp_with_fallback.no-extensions.variant.json");
  // The suite's manifest is one folder above the golden file: named explicitly,
  // as compare never walks up to find one.
  compare::CompareOptions with_manifest;
  with_manifest.manifest = std::filesystem::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets/manifest.json";
  const auto r = compare::compare_paths(golden_file, fallback, with_manifest);
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_TRUE(r.cases[0].passed());
  EXPECT_EQ(r.cases[0].matched_variant, "no-extensions");
  const auto direct = compare::compare_paths(golden_file, golden_file, {});
  EXPECT_TRUE(direct.cases[0].passed());
  EXPECT_EQ(direct.cases[0].matched_variant, "");
  // Without the variant the fallback is far off: the curves differ by degrees.
  EXPECT_TRUE(compare::compare_samples(samples::read_samples_file(golden_file),
                                       samples::read_samples_file(fallback), {1e-6, 1e-6})
                  .failed());
}

TEST(GoldenValues, TextureTransformRotationIsAScalar) {
  const auto f = golden("pointer_texture_rotation_linear");
  const auto& c = channel(f, "/materials/0/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/rotation");
  EXPECT_EQ(c.width, 1u);
  expect_near(at(c, 0.5), {0.5 * static_cast<double>(3.14159f)}, 1e-15);
}

TEST(GoldenValues, ShortestPathAcrossStoredSignFlips) {
  // Keys 0, 40, 80, 120 degrees about z stored as q, -q, q, -q: midpoints are 20, 60, 100 degrees,
  // up to the sign of the whole quaternion.
  const auto f = golden("edge_quat_sign_flip");
  const auto& c = channel(f, "/nodes/0/rotation");
  for (double t : {0.5, 1.5, 2.5}) {
    const auto v = at(c, t);
    ASSERT_EQ(v.size(), 4u);
    const double half = (20.0 + 40.0 * (t - 0.5)) * kPi / 360.0;
    EXPECT_NEAR(std::abs(v[2] * std::sin(half) + v[3] * std::cos(half)), 1.0, 1e-7) << "t = " << t;
  }
}

TEST(GoldenValues, LoopBoundaryIsOnePlayThrough) {
  const auto f = golden("divergence_loop_boundary");
  EXPECT_EQ(at(channel(f, "/nodes/0/translation"), 2.0), (std::vector<double>{2, 0, 0}));
  EXPECT_EQ(at(channel(f, "/nodes/0/scale"), 2.0), (std::vector<double>{3, 3, 3}));
  EXPECT_EQ(at(channel(f, "/nodes/0/translation"), -0.5), (std::vector<double>{0, 0, 0}));
}

TEST(GoldenValues, ContainersGiveIdenticalSamples) {
  const auto a = read_file(valid_asset("container_data_uri.samples.json"));
  for (const char* other : {"container_external_bin", "container_glb"}) {
    auto b = read_file(valid_asset(std::string(other) + ".samples.json"));
    // Only the asset name differs.
    const std::string ext = std::string(other) == "container_glb" ? ".glb" : ".gltf";
    const auto pos = b.find(std::string(other) + ext);
    ASSERT_NE(pos, std::string::npos);
    b.replace(pos, std::string(other).size() + ext.size(), "container_data_uri.gltf");
    EXPECT_EQ(a, b) << other;
  }
}


// The value a manifest variant of a case gives at time t (fails the test when absent).
std::vector<double> variant_value(const std::string& id, const std::string& name, double t) {
  const auto manifest = compare::read_manifest(suite_dir() / "manifest.json");
  for (const auto& entry : manifest.entries) {
    if (entry.id != id) continue;
    for (const auto& v : entry.variants) {
      if (v.name != name) continue;
      for (const auto& s : v.excerpt) {
        if (s.t == t) return s.value;
      }
    }
  }
  ADD_FAILURE() << id << ": no variant " << name << " value at t = " << t;
  return {};
}

// The 180-degree tie: identity to 180 degrees about z, dot exactly 0. The golden takes
// s = +1 (through +90 degrees about z at 0.5 s); the variant s = -1 turns the other way,
// through -90 degrees: (0, 0, -sin(pi/4), cos(pi/4)) with the same end keys.
TEST(GoldenValues, HalfTurnTieHasBothReadings) {
  const auto f = golden("edge_quat_half_turn_tie");
  const auto& c = channel(f, "/nodes/0/rotation");
  const double h = std::sqrt(0.5);
  expect_near(at(c, 0.5), {0, 0, h, h}, 1e-15);
  expect_near(at(c, 0.25), {0, 0, std::sin(kPi / 8), std::cos(kPi / 8)}, 1e-15);
  expect_near(variant_value("edge_quat_half_turn_tie", "tie-negative-sign", 0.5), {0, 0, -h, h}, 1e-15);
}

// Only the tie case has consecutive rotation keys exactly 180 degrees of rotation apart
// (a dot of 0 within float32 resolution): elsewhere the tie would decide samples silently.
TEST(GoldenValues, NoOtherCaseHasAHalfTurnTie) {
  const auto manifest = compare::read_manifest(suite_dir() / "manifest.json");
  for (const auto& entry : manifest.entries) {
    for (const auto& c : sampler::decoded_channels(suite_dir() / entry.file)) {
      if (c.keys.kind != reference::ValueKind::kRotation) continue;
      const std::size_t stride =
          c.keys.values.size() / c.keys.times.size();  // 4, or 12 for the cubic modes
      const std::size_t at_value = stride == 12 ? 4 : 0;
      if (stride == 12 && c.keys.interpolation != reference::Interpolation::kCubicSlerp)
        continue;  // Hermite: no sign rule
      for (std::size_t k = 0; k + 1 < c.keys.times.size(); ++k) {
        double d = 0;
        for (std::size_t i = 0; i < 4; ++i)
          d += c.keys.values[k * stride + at_value + i] *
               c.keys.values[(k + 1) * stride + at_value + i];
        const bool tie = std::fabs(d) < 1e-6;
        EXPECT_EQ(tie, entry.id == "edge_quat_half_turn_tie") << entry.id << " keys " << k << ", " << k + 1;
      }
    }
  }
}

// Non-unit decoded keys: BYTE (0,0,90,90)/127 has length 1.0022. The golden slerps it as
// stored; the variant normalize-keys-first slerps (0,0,sqrt(1/2),sqrt(1/2)): 22.5 degrees about
// z at 0.5 s. As stored, with d = 90/127 and a = acos(d):
// sin(a/2)/sin(a) (A + B) = (0, 0, d, 1 + d) / (2 cos(a/2)).
TEST(GoldenValues, NonUnitKeysAsStoredAndNormalizedFirst) {
  const auto f = golden("normalized_rotation_byte");
  const double d = 90 / 127.0;
  const double w = 1 / (2 * std::cos(std::acos(d) / 2));
  expect_near(at(channel(f, "/nodes/0/rotation"), 0.5), {0, 0, d * w, (1 + d) * w}, 1e-15);
  expect_near(variant_value("normalized_rotation_byte", "normalize-keys-first", 0.5),
              {0, 0, std::sin(kPi / 8), std::cos(kPi / 8)}, 1e-15);
}

}  // namespace
}  // namespace gltf_anim::suite::test

// `gltf-anim sample` on KHR_accessor_float64 / KHR_accessor_float16 (drafts)
// data: rules_valid/ext/KHR_accessor_float/float16_and_float64.gltf (written by
// hand by conformance_assets/invalid/build_accessor_float_assets.py): half
// times 0, 0.5, 1; double translations (0, 0, 0), (1/3, -0.1, 2), (1, 1, 1);
// half rotations identity, then (0, 0, 0x39A8, 0x39A8) twice; half scales
// 0x2E66 (1638/16384) then 1. Expected values worked by hand from those keys.
#include <gltf_anim/sampler/sample.hpp>
#include <gltf_anim/samples/samples.hpp>

#include <gtest/gtest.h>

#include <cmath>

#include "conformance_test_util.hpp"

namespace gltf_anim::suite::test {
namespace {

TEST(AccessorFloatSample, HalfAndDoubleKeysAreSampledAtFullPrecision) {
  sampler::SampleRequest request;
  request.times = std::vector<double>{0.25, 0.5, 0.75};
  const samples::SamplesFile f = sampler::sample_asset(
      suite_dir() / "rules_valid" / "ext" / "KHR_accessor_float" / "float16_and_float64.gltf",
      request);
  const double third = 1.0 / 3.0;
  // At a key the stored double comes back as is (1/3 has no float32 form).
  const auto& translation = channel(f, "/nodes/0/translation");
  EXPECT_EQ(at(translation, 0.5), (std::vector<double>{third, -0.1, 2.0}));
  // Halfway between (0, 0, 0) and the second key: each component halved (exact).
  EXPECT_EQ(at(translation, 0.25), (std::vector<double>{third / 2, -0.1 / 2, 1.0}));
  // The half 0x39A8 is (1 + 424/1024) / 2 = 0.70703125, exactly.
  const auto& rotation = channel(f, "/nodes/0/rotation");
  EXPECT_EQ(at(rotation, 0.5), (std::vector<double>{0, 0, 0.70703125, 0.70703125}));
  // Between two equal keys that are not unit (|q|^2 = d = 2 x 0.70703125^2), the
  // stored values are slerped as they are: the angle a = acos(d) gives weights
  // (sin(a/2) + sin(a/2)) / sin(a) = 1 / cos(a/2) at t = 1/2, i.e.
  // q / sqrt((1 + d) / 2), about 0.7070690.
  const double d = 2 * 0.70703125 * 0.70703125;
  const double mid = 0.70703125 / std::sqrt((1 + d) / 2);
  const auto r = at(rotation, 0.75);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0], 0.0);
  EXPECT_EQ(r[1], 0.0);
  EXPECT_NEAR(r[2], mid, 1e-15);
  EXPECT_NEAR(r[3], mid, 1e-15);
  // Scale halfway between 1638/16384 and 1.
  const auto& scale = channel(f, "/nodes/0/scale");
  const double s = (1638.0 / 16384.0 + 1.0) / 2;
  const auto v = at(scale, 0.25);
  ASSERT_EQ(v.size(), 3u);
  for (const double c : v) EXPECT_NEAR(c, s, 1e-16);
}

}  // namespace
}  // namespace gltf_anim::suite::test

// `gltf-anim sample` on pointers into extras (KHR_animation_pointer: "Properties
// located in extras objects MAY be targeted as well"), on the Blender-shaped
// asset conformance_assets/invalid/ext/KHR_animation_pointer/pointer/extras_blender.gltf
// (written by hand by build_pointer_assets.py; `validate` gives it one
// information per channel and no error). Expected values are worked by hand
// from the asset's keys (times 0 and 1), not by the reference evaluator.
#include <gltf_anim/sampler/sample.hpp>
#include <gltf_anim/samples/samples.hpp>

#include <gtest/gtest.h>

#include "conformance_test_util.hpp"

namespace gltf_anim::suite::test {
namespace {

const std::filesystem::path kBlenderExtras =
    suite_dir() / "invalid" / "ext" / "KHR_animation_pointer" / "pointer" / "extras_blender.gltf";

samples::SamplesFile sample_at_keys_and_midpoint(const std::filesystem::path& asset) {
  sampler::SampleRequest request;
  request.times = std::vector<double>{0.0, 0.5, 1.0};
  return sampler::sample_asset(asset, request);
}

TEST(ExtrasSample, BlenderCustomPropertiesAreSampledByTheirShape) {
  const samples::SamplesFile f = sample_at_keys_and_midpoint(kBlenderExtras);
  ASSERT_EQ(f.animations.size(), 1u);
  EXPECT_EQ(f.animations[0].channels.size(), 6u);
  // A float from SCALAR LINEAR keys 0.5 and 1: halfway 0.75.
  const auto& intensity = channel(f, "/nodes/0/extras/intensity");
  EXPECT_EQ(at(intensity, 0.5), (std::vector<double>{0.75}));
  // [r, g, b] from VEC3 keys (0, 0, 0) and (1, 1, 1): halfway 0.5 each.
  const auto& tint = channel(f, "/nodes/0/extras/tint");
  EXPECT_EQ(at(tint, 0.5), (std::vector<double>{0.5, 0.5, 0.5}));
  // CUBICSPLINE values 1 and 3 with zero tangents: Hermite at s = 1/2 is
  // h00 v0 + h01 v1 = 0.5 * 1 + 0.5 * 3 = 2.
  const auto& glow = channel(f, "/materials/0/extras/glow");
  EXPECT_EQ(at(glow, 0.0), (std::vector<double>{1.0}));
  EXPECT_EQ(at(glow, 0.5), (std::vector<double>{2.0}));
  EXPECT_EQ(at(glow, 1.0), (std::vector<double>{3.0}));
  // A boolean from UNSIGNED_BYTE 1, 0 with STEP: held, then false.
  const auto& enabled = channel(f, "/nodes/0/extras/enabled");
  EXPECT_EQ(at(enabled, 0.5), (std::vector<double>{1.0}));
  EXPECT_EQ(at(enabled, 1.0), (std::vector<double>{0.0}));
  // [r, g, b] from three SCALARs per key, (1, 0.5, 0.25) then (0, 0, 1):
  // halfway (0.5, 0.25, 0.625), as weights are read.
  const auto& tint_scalars = channel(f, "/nodes/1/extras/tint");
  EXPECT_EQ(at(tint_scalars, 0.5), (std::vector<double>{0.5, 0.25, 0.625}));
  // An int from SHORT 1, 4 with STEP.
  const auto& steps = channel(f, "/nodes/1/extras/steps");
  EXPECT_EQ(at(steps, 0.5), (std::vector<double>{1.0}));
  EXPECT_EQ(at(steps, 1.0), (std::vector<double>{4.0}));
}

}  // namespace
}  // namespace gltf_anim::suite::test

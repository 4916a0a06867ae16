// gltf-anim fix on non-unit rotation keys: CUBICSPLINE tangents scaled with their value,
// normalized BYTE keys re-quantized within one step, and a channel fix cannot decode
// refused rather than left with its code. Expected values are worked out by hand.
#include "scratch.hpp"
#include <gltf_anim/repair/fix.hpp>
#include <gltf_anim/validator/validate.hpp>

#include "tool_files.hpp"  // cli/: run_tool
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "edit_test_util.hpp"

namespace {

using namespace edit_test;
namespace fs = std::filesystem;
namespace repair = gltf_anim::repair;
namespace cli = gltf_anim::cli;

fs::path write_asset(const std::string& name, const std::string& json) {
  const fs::path dir = gltf_anim_test::scratch_root() / "fix_rotations";
  fs::create_directories(dir);
  const fs::path p = dir / name;
  fs::remove(p);
  std::ofstream(p, std::ios::binary) << json;
  return p;
}

std::set<std::string> codes_of(const fs::path& p) {
  gltf_anim::validator::ValidateOptions options;
  const auto report = gltf_anim::validator::validate_file(p, options);
  std::set<std::string> out;
  for (const auto& issue : report.issues) out.emplace(issue.code);
  return out;
}

std::vector<double> read_file_accessor(const fs::path& p, std::size_t i) {
  std::ifstream f(p, std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  return read(load(Bytes(text.begin(), text.end())), i);
}

// One rotation channel: times [0, 1] (accessor 0), outputs `output` (accessor 1, its JSON
// after the bufferView) stored as `bytes`, `interpolation`.
std::string rotation_asset(const Bytes& bytes, const std::string& output,
                           const std::string& interpolation, bool stored_times = true) {
  Bytes b;
  put_floats(b, {0, 1});
  b.insert(b.end(), bytes.begin(), bytes.end());
  const std::string input =
      stored_times ? "{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\","
                     "\"min\":[0],\"max\":[1]}"
                   : "{\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],"
                     "\"max\":[0]}";
  return "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{}],\"buffers\":[{\"uri\":\"" + data_uri(b) +
         "\",\"byteLength\":" + std::to_string(b.size()) +
         "}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":8,"
         "\"byteLength\":" +
         std::to_string(bytes.size()) + "}],\"accessors\":[" + input +
         ",{\"bufferView\":1," + output +
         "}],\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1,\"interpolation\":\"" +
         interpolation +
         "\"}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"rotation\"}}]}]}";
}

Bytes floats_bytes(const std::vector<float>& v) {
  Bytes b;
  for (float f : v) put_floats(b, {f});
  return b;
}

// Both keys of length 2 with tangents t: fix divides each value by 2 and (the tangents
// scaled alike) each tangent by 2, so the whole Hermite is halved and its normalized
// playback is unchanged everywhere (by hand: p / |p| = (p / 2) / |p / 2|); every number
// here is a float whose half is exact. Dividing the values alone gives the tangents twice
// the weight: the playback bends between the keys.
TEST(FixRotations, CubicTangentsAreScaledWithTheirValue) {
  const std::vector<float> k = {
      0, 0, 0.5f, 0,  0, 0, 0,    2,    0, 0, 1.5f, 0.25f,  // a0, v0 = 2 (0, 0, 0, 1), b0
      0, 0, 1, -0.5f, 0, 0, 1.2f, 1.6f, 0, 0, 0.5f, 0};     // a1, v1 = 2 (0, 0, 0.6, 0.8), b1
  const fs::path in = write_asset(
      "cubic.gltf", rotation_asset(floats_bytes(k),
                                   "\"componentType\":5126,\"count\":6,\"type\":\"VEC4\"",
                                   "CUBICSPLINE"));
  ASSERT_TRUE(codes_of(in).count("ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION"));
  repair::ToolOptions o;
  o.input = in;
  o.output = in.parent_path() / "cubic_fixed.gltf";
  const repair::ToolReport r = cli::run_tool(repair::fix_tool({}), o);
  ASSERT_EQ(r.exit_code, 0) << r.message;
  EXPECT_FALSE(
      codes_of(*o.output).count("ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION"));
  // The first in-tangent and the last out-tangent are zeroed too (their own repair).
  std::vector<double> expected(k.begin(), k.end());
  for (double& x : expected) x /= 2;
  for (int i = 0; i < 4; ++i) expected[i] = expected[20 + i] = 0;
  EXPECT_EQ(read_file_accessor(*o.output, 1), expected);
  ASSERT_FALSE(r.channels.empty());
  ASSERT_TRUE(r.channels[0].max_angle.has_value());
  EXPECT_LT(*r.channels[0].max_angle, 1e-6);
}

// Key 1 stored as BYTE (60, 60, 60, 60) / 127, length 120/127 = 0.945. Its unit value is
// (1, 1, 1, 1) / 2 = 63.5 / 127 each: every rounding within one step takes 63 or 64 per
// component. Four equal ones keep the direction but are off unit length by 1/127 = 0.00787,
// over the validator's 0.00769; two 63 and two 64: length sqrt(16130)/127 = 1.00003, angle
// 2 acos(254 / (2 sqrt(16130))) = 0.01575; three 63: length 0.99609, angle
// 2 acos(253 / (2 sqrt(16003))) = 0.01369; three 64: length sqrt(16257)/127 = 1.00396, angle
// 2 acos(255 / (2 sqrt(16257))) = 0.01358, the smallest within the tolerance.
TEST(FixRotations, ByteKeysAreRequantizedWithinOneStepAtTheSmallestAngle) {
  const Bytes bytes = {0, 0, 0, 127, 60, 60, 60, 60};
  const fs::path in = write_asset(
      "byte.gltf",
      rotation_asset(bytes,
                     "\"componentType\":5120,\"normalized\":true,\"count\":2,\"type\":\"VEC4\"",
                     "LINEAR"));
  ASSERT_TRUE(codes_of(in).count("ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION"));
  repair::ToolOptions o;
  o.input = in;
  o.output = in.parent_path() / "byte_fixed.gltf";
  const repair::ToolReport r = cli::run_tool(repair::fix_tool({}), o);
  ASSERT_EQ(r.exit_code, 0) << r.message;
  EXPECT_FALSE(
      codes_of(*o.output).count("ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION"));
  const std::vector<double> v = read_file_accessor(*o.output, 1);
  ASSERT_EQ(v.size(), 8u);
  std::vector<long> q;
  for (int i = 4; i < 8; ++i) q.push_back(std::lround(v[i] * 127));
  std::sort(q.begin(), q.end());
  EXPECT_EQ(q, (std::vector<long>{63, 64, 64, 64}));
  // The angle to the unit value (1, 1, 1, 1) / 2 as written: 0.01358 rad.
  double dot = 0, len = 0;
  for (int i = 4; i < 8; ++i) {
    dot += 0.5 * v[i];
    len += v[i] * v[i];
  }
  EXPECT_NEAR(2 * std::acos(std::min(1.0, dot / std::sqrt(len))), 0.013584503, 1e-8);
}

// The Khronos validator's quaternion_non_unit_values: its times have no bufferView (two
// zeros), so the channel is not decoded and its keys cannot be normalized. fix refuses
// (exit 2, nothing written) and says why, instead of exiting 0 with the code still there.
TEST(FixRotations, UndecodedChannelWithNonUnitKeysIsRefused) {
  const fs::path in = write_asset(
      "undecoded.gltf",
      rotation_asset(floats_bytes({0.18257418f, 0.36514837f, 0.54772258f, 0.73029673f, 0.1f,
                                   0.2f, 0.3f, 0.4f}),
                     "\"componentType\":5126,\"count\":2,\"type\":\"VEC4\"", "LINEAR", false));
  ASSERT_TRUE(codes_of(in).count("ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION"));
  repair::ToolOptions o;
  o.input = in;
  o.output = in.parent_path() / "undecoded_fixed.gltf";
  fs::remove(*o.output);
  const repair::ToolReport r = cli::run_tool(repair::fix_tool({}), o);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.message.find("ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION"),
            std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find("not decoded"), std::string::npos) << r.message;
  EXPECT_FALSE(fs::exists(*o.output));
}

}  // namespace

// The repair tools on channel data they cannot edit: times that are all NaN, and outputs
// stored as float64 (the draft KHR_accessor_float64, which validate accepts when declared and
// required). Each tool names the channel (or the sampler) and says what is wrong in words a
// user reads against validate's report; the other channel is still edited where the tool may
// edit it; no message carries the tool's name twice.
#include "scratch.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "cli/cli_process.hpp"
#include "repair/edit_test_util.hpp"

namespace {

namespace fs = std::filesystem;

fs::path scratch() { return gltf_anim_test::scratch_root() / "tool_bad_data"; }

void put_doubles(edit_test::Bytes& out, std::initializer_list<double> values) {
  for (const double d : values) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &d, 8);
    for (int k = 0; k < 8; ++k) out.push_back(static_cast<std::uint8_t>(bits >> (8 * k)));
  }
}

// Two LINEAR channels, 11 keys 0.1 s apart: /animations/0/channels/0 a translation along x
// (sampler 0: times accessor 0, values accessor 2), /animations/0/channels/1 a scale that
// grows along x (sampler 1: times accessor 1, values accessor 3). `nan_times`: accessor 0's
// times are all NaN; `float64`: accessor 2 holds float64 (componentType 5130), declared.
fs::path write_asset(const std::string& name, bool nan_times, bool float64) {
  edit_test::Bytes bin;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (int k = 0; k <= 10; ++k) {
    const float t = static_cast<float>(k) / 10.0f;
    edit_test::put_floats(bin, {nan_times ? nan : t});
  }
  for (int k = 0; k <= 10; ++k) edit_test::put_floats(bin, {static_cast<float>(k) / 10.0f});
  const std::size_t translation_at = bin.size();  // 88, a multiple of 8
  for (int k = 0; k <= 10; ++k) {
    if (float64) {
      put_doubles(bin, {k / 10.0, 0, 0});
    } else {
      edit_test::put_floats(bin, {static_cast<float>(k) / 10.0f, 0, 0});
    }
  }
  const std::size_t scale_at = bin.size();
  for (int k = 0; k <= 10; ++k)
    edit_test::put_floats(bin, {1 + static_cast<float>(k) / 100.0f, 1, 1});
  const std::string extensions =
      float64
          ? R"("extensionsUsed": ["KHR_accessor_float64"], "extensionsRequired": ["KHR_accessor_float64"],)"
          : "";
  const std::string json =
      R"({"asset": {"version": "2.0"}, )" + extensions +
      R"( "nodes": [{}, {}], "scenes": [{"nodes": [0, 1]}], "scene": 0,
 "buffers": [{"byteLength": )" +
      std::to_string(bin.size()) + R"(, "uri": "data:application/octet-stream;base64,)" +
      edit_test::base64(bin) + R"("}],
 "bufferViews": [{"buffer": 0, "byteLength": 44}, {"buffer": 0, "byteOffset": 44, "byteLength": 44},
   {"buffer": 0, "byteOffset": )" +
      std::to_string(translation_at) + R"(, "byteLength": )" +
      std::to_string(scale_at - translation_at) + R"(},
   {"buffer": 0, "byteOffset": )" +
      std::to_string(scale_at) + R"(, "byteLength": 132}],
 "accessors": [{"bufferView": 0, "componentType": 5126, "count": 11, "type": "SCALAR", "min": [0], "max": [1]},
   {"bufferView": 1, "componentType": 5126, "count": 11, "type": "SCALAR", "min": [0], "max": [1]},
   {"bufferView": 2, "componentType": )" +
      std::string(float64 ? "5130" : "5126") + R"(, "count": 11, "type": "VEC3"},
   {"bufferView": 3, "componentType": 5126, "count": 11, "type": "VEC3"}],
 "animations": [{"channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}},
     {"sampler": 1, "target": {"node": 1, "path": "scale"}}],
   "samplers": [{"input": 0, "output": 2}, {"input": 1, "output": 3}]}]})";
  fs::create_directories(scratch());
  const fs::path p = scratch() / name;
  std::ofstream(p, std::ios::binary) << json;
  return p;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

void no_doubled_name(const cli_process::Run& run, const std::string& tool) {
  EXPECT_FALSE(has(run.err, tool + ": " + tool + ":")) << run.err;
  EXPECT_FALSE(has(run.out, "  " + tool + ": ")) << run.out;
}

TEST(ToolBadData, AllNaNTimesWithoutForceAreRefusedNamingTheSampler) {
  const fs::path in = write_asset("nan.gltf", true, false);
  // validate reports each of the 11 times as ACCESSOR_INVALID_FLOAT at /accessors/0.
  const auto validate = cli_process::run({"validate", "--no-config", in.string()}, scratch());
  EXPECT_EQ(validate.exit_code, 1);
  EXPECT_TRUE(has(validate.out, "ACCESSOR_INVALID_FLOAT")) << validate.out;
  for (const std::string tool : {"fix", "reduce", "fit"}) {
    std::vector<std::string> args{tool, in.string(), "--dry-run"};
    if (tool != "fix") args.insert(args.end(), {"--max-error", "0.01"});
    if (tool == "fit") args.insert(args.end(), {"--to", "cubicspline"});
    const auto run = cli_process::run(args, scratch());
    EXPECT_EQ(run.exit_code, 1) << run.err;
    EXPECT_TRUE(has(run.err,
                    "ACCESSOR_INVALID_FLOAT x11 at /accessors/0, the times of "
                    "/animations/0/samplers/0"))
        << tool << ": " << run.err;
    no_doubled_name(run, tool);
  }
}

TEST(ToolBadData, AllNaNTimesWithForceLeaveThatChannelAndEditTheOther) {
  const fs::path in = write_asset("nan.gltf", true, false);
  // fix: no key can be kept; said under validate's code, not fixed; no internal message.
  {
    const auto run = cli_process::run({"fix", in.string(), "--dry-run", "--force"}, scratch());
    EXPECT_EQ(run.exit_code, 0) << run.err << run.out;
    EXPECT_TRUE(has(run.out,
                    "NOT FIXABLE ACCESSOR_INVALID_FLOAT at /accessors/0: not fixable: "
                    "its times are all NaN (accessor 0), so no key can be kept; "
                    "/animations/0/samplers/0 and its channels are left as they are"))
        << run.out;
    EXPECT_FALSE(has(run.out, "whole number")) << run.out;
    no_doubled_name(run, "fix");
  }
  // reduce and fit: that channel not edited, with why; the scale (11 keys on a line) is.
  for (const std::string tool : {"reduce", "fit"}) {
    std::vector<std::string> args{tool, in.string(), "--dry-run", "--force", "--max-error", "0.01"};
    if (tool == "fit") args.insert(args.end(), {"--to", "cubicspline"});
    const auto run = cli_process::run(args, scratch());
    EXPECT_EQ(run.exit_code, 0) << run.err << run.out;
    const std::string verb = tool == "fit" ? "fitted" : "reduced";
    EXPECT_TRUE(
        has(run.out, "/animations/0/channels/0 /nodes/0/translation: LINEAR, keys 11 -> 11"))
        << run.out;
    EXPECT_TRUE(has(run.out, "not " + verb + ": its times are all NaN (accessor 0)")) << run.out;
    EXPECT_FALSE(has(run.out, "track 0")) << run.out;
    EXPECT_TRUE(has(run.out, "/animations/0/channels/1 /nodes/1/scale: LINEAR" +
                                 std::string(tool == "fit" ? " -> CUBICSPLINE" : "") +
                                 ", keys 11 -> 2"))
        << run.out;
  }
}

TEST(ToolBadData, Float64OutputsAreNamedAsSuchNotAsIntegers) {
  const fs::path in = write_asset("f64.gltf", false, true);
  const auto validate = cli_process::run({"validate", "--no-config", in.string()}, scratch());
  EXPECT_EQ(validate.exit_code, 0) << validate.out;  // the draft declared and required
  const auto run =
      cli_process::run({"reduce", in.string(), "--dry-run", "--max-error", "0.01"}, scratch());
  EXPECT_EQ(run.exit_code, 0) << run.err << run.out;
  EXPECT_FALSE(has(run.out, "integer")) << run.out;
  EXPECT_TRUE(has(run.out,
                  "its outputs (accessor 2) are componentType 5130 (float64, the draft "
                  "KHR_accessor_float64), which reduce does not write: not reduced"))
      << run.out;
  // Undeclared, the draft is validate's KHR_ACCESSOR_FLOAT_UNDECLARED at the accessor's
  // componentType: fix names it there and the sampler that reads those values.
  {
    std::ifstream file(in, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    const std::string declared =
        R"("extensionsUsed": ["KHR_accessor_float64"], "extensionsRequired": ["KHR_accessor_float64"],)";
    ASSERT_NE(text.find(declared), std::string::npos);
    text.erase(text.find(declared), declared.size());
    const fs::path undeclared = scratch() / "f64_undeclared.gltf";
    std::ofstream(undeclared, std::ios::binary) << text;
    const auto fix = cli_process::run({"fix", undeclared.string(), "--dry-run"}, scratch());
    EXPECT_EQ(fix.exit_code, 1) << fix.err;
    EXPECT_TRUE(has(fix.err, "(KHR_ACCESSOR_FLOAT_UNDECLARED at /accessors/2/componentType, the "
                             "values of /animations/0/samplers/0)"))
        << fix.err;
  }
  // The scale channel is reduced all the same: a line, its 2 ends.
  EXPECT_TRUE(has(run.out, "/animations/0/channels/1 /nodes/1/scale: LINEAR, keys 11 -> 2"))
      << run.out;
}

}  // namespace

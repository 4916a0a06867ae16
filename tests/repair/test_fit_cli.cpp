// gltf-anim fit end to end: a hand-made asset (a rotation whose angle is t^2 about z and a
// translation along a cubic, both keyed LINEAR 0.1 s apart) fitted in each mode; the output
// validates without errors, and `sample` of the output stays within the bound of the input
// at every time `sample` takes (keys, quarter points, before and after).
#include "scratch.hpp"
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/sampler/sample.hpp>
#include <gltf_anim/validator/validate.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli/cli_process.hpp"
#include "repair/edit_test_util.hpp"

namespace {

namespace fs = std::filesystem;

fs::path scratch() { return gltf_anim_test::scratch_root() / "fit_cli"; }

// 21 keys at t = 0, 0.1, ..., 2: rotation by t^2 rad about z, translation (t^3/4, 0, 0).
fs::path write_asset() {
  edit_test::Bytes bin;
  std::vector<float> times, quats, moves;
  for (int k = 0; k <= 20; ++k) {
    const double t = k / 10.0;
    times.push_back(static_cast<float>(t));
    const double half = t * t / 2;
    quats.insert(quats.end(), {0.0f, 0.0f, static_cast<float>(std::sin(half)),
                               static_cast<float>(std::cos(half))});
    moves.insert(moves.end(), {static_cast<float>(t * t * t / 4), 0.0f, 0.0f});
  }
  for (float f : times) edit_test::put_floats(bin, {f});
  for (float f : quats) edit_test::put_floats(bin, {f});
  for (float f : moves) edit_test::put_floats(bin, {f});
  const std::string json = R"({"asset": {"version": "2.0"}, "nodes": [{"name": "n"}],
 "buffers": [{"byteLength": )" +
                           std::to_string(bin.size()) +
                           R"(, "uri": "data:application/octet-stream;base64,)" +
                           edit_test::base64(bin) + R"("}],
 "bufferViews": [{"buffer": 0, "byteLength": 84}, {"buffer": 0, "byteOffset": 84, "byteLength": 336},
   {"buffer": 0, "byteOffset": 420, "byteLength": 252}],
 "accessors": [{"bufferView": 0, "componentType": 5126, "count": 21, "type": "SCALAR", "min": [0], "max": [2]},
   {"bufferView": 1, "componentType": 5126, "count": 21, "type": "VEC4"},
   {"bufferView": 2, "componentType": 5126, "count": 21, "type": "VEC3"}],
 "animations": [{"channels": [{"sampler": 0, "target": {"node": 0, "path": "rotation"}},
     {"sampler": 1, "target": {"node": 0, "path": "translation"}}],
   "samplers": [{"input": 0, "output": 1}, {"input": 0, "output": 2}]}]})";
  fs::create_directories(scratch());
  const fs::path p = scratch() / "in.gltf";
  std::ofstream(p, std::ios::binary) << json;
  return p;
}

double angle(const std::span<const double> a, const std::span<const double> b) {
  double d = 0, na = 0, nb = 0;
  for (int i = 0; i < 4; ++i) {
    d += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return 2 * std::acos(std::min(1.0, std::abs(d) / std::sqrt(na * nb)));
}

void expect_within(const fs::path& in, const fs::path& out, double e, double a) {
  const auto before = gltf_anim::sampler::sample_asset(in);
  gltf_anim::sampler::SampleRequest request;
  request.times = before.animations[0].channels[0].times;  // the same times for both
  const auto after = gltf_anim::sampler::sample_asset(out, request);
  for (std::size_t c = 0; c < 2; ++c) {
    const auto& x = before.animations[0].channels[c];
    const auto& y = after.animations[0].channels[c];
    ASSERT_EQ(x.times, y.times);
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (c == 0) {
        EXPECT_LE(angle(x.value(i), y.value(i)), a * (1 + 1e-6)) << "t = " << x.times[i];
      } else {
        for (std::size_t k = 0; k < 3; ++k)
          EXPECT_NEAR(x.value(i)[k], y.value(i)[k], e * (1 + 1e-6));
      }
    }
  }
}

TEST(FitCli, EachModeStaysWithinTheBoundAndValidates) {
  const fs::path in = write_asset();
  const fs::path out = scratch() / "out.gltf";
  for (const std::vector<std::string>& mode : {std::vector<std::string>{"--to", "cubicslerp"},
                                               {"--to", "cubicslerp", "--no-fallback"},
                                               {"--to", "cubicspline"}}) {
    fs::remove(out);
    std::vector<std::string> args{"fit",         in.string(), "-o",       out.string(),
                                  "--max-error", "1e-2",      "--format", "json"};
    args.insert(args.end(), mode.begin(), mode.end());
    const auto run = cli_process::run(args, scratch());
    ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
    EXPECT_NE(run.out.find("\"written\":true"), std::string::npos) << run.out;
    // Keys 0.1 s apart round the corners by 0.01 * 2 / 8 rad (rotation, angle'' = 2) and
    // 0.01 * 3 / 8 (translation, x'' <= 3): within 1e-2 both channels fit.
    EXPECT_EQ(run.out.find("not fitted"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("ratio"), std::string::npos);
    EXPECT_EQ(gltf_anim::validator::validate_file(out, {}).count(gltf_anim::gltf::Severity::kError),
              0u);
    expect_within(in, out, 1e-2, 2e-2);
  }
}

// Three LINEAR rotation samplers (t^2 rad about x, y and z, 21 keys 0.1 s apart) read one time
// accessor: an exporter's one time track per clip.
fs::path write_shared_times_asset() {
  edit_test::Bytes bin;
  for (int k = 0; k <= 20; ++k) edit_test::put_floats(bin, {static_cast<float>(k / 10.0)});
  for (int axis = 0; axis < 3; ++axis) {
    for (int k = 0; k <= 20; ++k) {
      const double half = (k / 10.0) * (k / 10.0) / 2;
      float q[4] = {0, 0, 0, static_cast<float>(std::cos(half))};
      q[axis] = static_cast<float>(std::sin(half));
      edit_test::put_floats(bin, {q[0], q[1], q[2], q[3]});
    }
  }
  const std::string json = R"({"asset": {"version": "2.0"}, "nodes": [{}, {}, {}],
 "buffers": [{"byteLength": )" +
                           std::to_string(bin.size()) +
                           R"(, "uri": "data:application/octet-stream;base64,)" +
                           edit_test::base64(bin) + R"("}],
 "bufferViews": [{"buffer": 0, "byteLength": 84}, {"buffer": 0, "byteOffset": 84, "byteLength": 336},
   {"buffer": 0, "byteOffset": 420, "byteLength": 336}, {"buffer": 0, "byteOffset": 756, "byteLength": 336}],
 "accessors": [{"bufferView": 0, "componentType": 5126, "count": 21, "type": "SCALAR", "min": [0], "max": [2]},
   {"bufferView": 1, "componentType": 5126, "count": 21, "type": "VEC4"},
   {"bufferView": 2, "componentType": 5126, "count": 21, "type": "VEC4"},
   {"bufferView": 3, "componentType": 5126, "count": 21, "type": "VEC4"}],
 "animations": [{"channels": [{"sampler": 0, "target": {"node": 0, "path": "rotation"}},
     {"sampler": 1, "target": {"node": 1, "path": "rotation"}},
     {"sampler": 2, "target": {"node": 2, "path": "rotation"}}],
   "samplers": [{"input": 0, "output": 1}, {"input": 0, "output": 2}, {"input": 0, "output": 3}]}]})";
  fs::create_directories(scratch());
  const fs::path p = scratch() / "shared_times.gltf";
  std::ofstream(p, std::ios::binary) << json;
  return p;
}

struct Bytes {
  std::vector<std::uint64_t> keys_after, before, after;
};
Bytes channel_bytes(const std::string& report) {
  gltf_anim::json::Document doc;
  doc.Parse(report.c_str());
  Bytes b;
  if (doc.HasParseError()) return b;
  for (const auto& c : doc["channels"].GetArray()) {
    b.keys_after.push_back(c["keysAfter"].GetUint64());
    b.before.push_back(c["bytesBefore"].GetUint64());
    b.after.push_back(c["bytesAfter"].GetUint64());
  }
  return b;
}

// The time accessor three samplers share is counted once in the channels' bytes, in the
// first channel's: before, 21 times x 4 B = 84 B there, and each channel's 21 quaternions x
// 16 B = 336 B. At a bound no rotation can break (10 rad: an angle between two rotations is at
// most pi), every fit keeps the two end keys, at the same times.
TEST(FitCli, ATimeAccessorSharedBySamplersIsCountedOnce) {
  const fs::path in = write_shared_times_asset();
  // CUBICSPLINE: the three samplers keep the same 2 times, so the one accessor holds them
  // (2 x 4 = 8 B, in the first channel's bytes); each channel's 2 keys x (in-tangent, value,
  // out-tangent) x 16 B = 96 B.
  {
    const auto run = cli_process::run({"fit", in.string(), "--dry-run", "--to", "cubicspline",
                                       "--max-error", "10", "--format", "json"},
                                      scratch());
    ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
    const Bytes b = channel_bytes(run.out);
    EXPECT_EQ(b.keys_after, (std::vector<std::uint64_t>{2, 2, 2})) << run.out;
    EXPECT_EQ(b.before, (std::vector<std::uint64_t>{84 + 336, 336, 336})) << run.out;
    EXPECT_EQ(b.after, (std::vector<std::uint64_t>{8 + 96, 96, 96})) << run.out;
    EXPECT_NE(run.out.find("its times (accessor 0) are /animations/0/channels/0's too"),
              std::string::npos)
        << run.out;
  }
  // CUBICSLERP with the LINEAR fallback: each channel keeps its LINEAR data (the shared
  // times still counted once) and adds a sampler of its own, 2 times and 2 x 3 quaternions:
  // 2 x 4 + 2 x 48 = 104 B.
  {
    const auto run = cli_process::run({"fit", in.string(), "--dry-run", "--to", "cubicslerp",
                                       "--max-error", "10", "--format", "json"},
                                      scratch());
    ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
    const Bytes b = channel_bytes(run.out);
    EXPECT_EQ(b.keys_after, (std::vector<std::uint64_t>{2, 2, 2})) << run.out;
    EXPECT_EQ(b.before, (std::vector<std::uint64_t>{84 + 336, 336, 336})) << run.out;
    EXPECT_EQ(b.after, (std::vector<std::uint64_t>{84 + 336 + 104, 336 + 104, 336 + 104}))
        << run.out;
  }
  // fix, on data it leaves as it is: the same figures before and after.
  {
    const auto run =
        cli_process::run({"fix", in.string(), "--dry-run", "--format", "json"}, scratch());
    ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
    const Bytes b = channel_bytes(run.out);
    EXPECT_EQ(b.before, (std::vector<std::uint64_t>{84 + 336, 336, 336})) << run.out;
    EXPECT_EQ(b.after, b.before) << run.out;
  }
}

// The byte note's key costs count a shared time accessor as the bytes do: once, in the first
// channel's. Quaternions, c = 4: channel 0 carries the times, a cubic key 4 + 12 x 4 = 52 B and
// a LINEAR one 4 + 4 x 4 = 20 B, break-even 20 / 52 = 0.3846; channels 1 and 2 read times
// counted there, so a key costs them its values alone: 12 x 4 = 48 B and 4 x 4 = 16 B, break-
// even 16 / 48 = 1/3.
TEST(FitCli, TheByteNoteCountsASharedTimeAccessorOnce) {
  const fs::path in = write_shared_times_asset();
  const auto run = cli_process::run({"fit", in.string(), "--dry-run", "--to", "cubicspline",
                                     "--max-error", "10", "--format", "json"},
                                    scratch());
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  gltf_anim::json::Document doc;
  doc.Parse(run.out.c_str());
  ASSERT_FALSE(doc.HasParseError()) << run.out;
  std::vector<std::string> costs;
  for (const auto& c : doc["channels"].GetArray()) {
    std::string found;
    for (const auto& n : c["notes"].GetArray()) {
      const std::string note = n.GetString();
      const auto at = note.find("(a cubic key costs");
      if (at != std::string::npos) found = note.substr(at);
    }
    costs.push_back(found);
  }
  EXPECT_EQ(costs,
            (std::vector<std::string>{
                "(a cubic key costs 52 B, a LINEAR one 20 B: fewer bytes only below 0.3846)",
                "(a cubic key costs 48 B, a LINEAR one 16 B: fewer bytes only below 0.3333)",
                "(a cubic key costs 48 B, a LINEAR one 16 B: fewer bytes only below 0.3333)"}))
      << run.out;
}

TEST(FitCli, RefusesAMissingBoundOrMode) {
  const fs::path in = write_asset();
  EXPECT_EQ(cli_process::run({"fit", in.string(), "--dry-run", "--to", "cubicslerp"}, scratch())
                .exit_code,
            2);
  EXPECT_EQ(cli_process::run({"fit", in.string(), "--dry-run", "--max-error", "1e-3"}, scratch())
                .exit_code,
            2);
  EXPECT_EQ(
      cli_process::run(
          {"fit", in.string(), "--dry-run", "--to", "cubicspline", "--max-error", "-1"}, scratch())
          .exit_code,
      2);
}

}  // namespace

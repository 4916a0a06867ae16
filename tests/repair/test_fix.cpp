// gltf-anim fix on hand-made assets whose repairs are worked out by hand:
// the values read back through the loader, the validator's verdict on the
// output, playback compared with the reference evaluator, --only, the
// not-fixable report, and the CLI's exit codes and JSON report.
#include "scratch.hpp"
#include <gltf_anim/reference/track.hpp>
#include <gltf_anim/repair/fix.hpp>
#include <gltf_anim/validator/validate.hpp>
#include <gltf_anim/gltf/json.hpp>

#include "tool_files.hpp"  // cli/: run_tool
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <rapidjson/document.h>
#include <rapidjson/pointer.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "edit_test_util.hpp"

namespace {

using namespace edit_test;
namespace fs = std::filesystem;
namespace repair = gltf_anim::repair;
namespace cli = gltf_anim::cli;

// Accessors (each in its own bufferView):
//  0 times [0, 1, 1, 2, 1.5, 3], declared min [0] max [9]   (non-increasing, wrong max)
//  1 translations, 6 VEC3: key k = (k, 10k, 0)
//  2 times [0, 1, 2], no min/max                            (bounds missing)
//  3 rotations: (0,0,0,1), (0,0,0.6,-0.8), (0,0,0,2)         (negative dot, non-unit)
//  4 times [0, 1]
//  5 CUBICSPLINE translations: a1 (1,1,1) v1 0 b1 (2,2,2) a2 (3,3,3) v2 (1,1,1) b2 (4,4,4)
// `rotation_keys` replaces accessor 3's data (12 floats).
struct Asset {
  std::string json;
  Bytes buffer;
};
Asset broken_asset(std::vector<float> rotation_keys = {0, 0, 0, 1, 0, 0, 0.6f, -0.8f, 0, 0, 0, 2},
                   const std::string& count1 = "6") {
  Bytes b;
  put_floats(b, {0, 1, 1, 2, 1.5f, 3});
  for (int k = 0; k < 6; ++k) put_floats(b, {float(k), float(10 * k), 0});
  put_floats(b, {0, 1, 2});
  for (const float f : rotation_keys) put_floats(b, {f});
  put_floats(b, {0, 1});
  put_floats(b, {1, 1, 1, 0, 0, 0, 2, 2, 2, 3, 3, 3, 1, 1, 1, 4, 4, 4});
  const std::size_t sizes[] = {24, 72, 12, 48, 8, 72};
  std::string views, offset_sum;
  std::size_t at = 0;
  for (std::size_t v = 0; v < 6; ++v) {
    views += std::string(v ? "," : "") + "{\"buffer\":0,\"byteOffset\":" + std::to_string(at) +
             ",\"byteLength\":" + std::to_string(sizes[v]) + "}";
    at += sizes[v];
  }
  std::string json =
      "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{},{}],\"buffers\":[{\"uri\":\"" + data_uri(b) +
      "\",\"byteLength\":" + std::to_string(b.size()) + "}],\"bufferViews\":[" + views +
      "],\"accessors\":["
      "{\"bufferView\":0,\"componentType\":5126,\"count\":6,\"type\":\"SCALAR\",\"min\":[0],"
      "\"max\":[9]},"
      "{\"bufferView\":1,\"componentType\":5126,\"count\":" +
      count1 +
      ",\"type\":\"VEC3\"},"
      "{\"bufferView\":2,\"componentType\":5126,\"count\":3,\"type\":\"SCALAR\"},"
      "{\"bufferView\":3,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"},"
      "{\"bufferView\":4,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],"
      "\"max\":[1]},"
      "{\"bufferView\":5,\"componentType\":5126,\"count\":6,\"type\":\"VEC3\"}],"
      "\"animations\":[{\"channels\":["
      "{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}},"
      "{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"rotation\"}},"
      "{\"sampler\":2,\"target\":{\"node\":1,\"path\":\"translation\"}}],\"samplers\":["
      "{\"input\":0,\"output\":1},{\"input\":2,\"output\":3},"
      "{\"input\":4,\"output\":5,\"interpolation\":\"CUBICSPLINE\"}]}]}";
  return {json, b};
}

fs::path write_asset(const std::string& name, const std::string& json) {
  const fs::path dir = gltf_anim_test::scratch_root() / "fix";
  fs::create_directories(dir);
  const fs::path p = dir / name;
  fs::remove(p);
  std::ofstream(p, std::ios::binary) << json;
  return p;
}

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

std::set<std::string> codes_of(const fs::path& p) {
  gltf_anim::validator::ValidateOptions options;
  const auto report = gltf_anim::validator::validate_file(p, options);
  std::set<std::string> out;
  for (const auto& issue : report.issues) out.emplace(issue.code);
  return out;
}

// Accessor `i` of the asset in file `p`, read back by the loader.
std::vector<double> read_file_accessor(const fs::path& p, std::size_t i) {
  const std::string text = slurp(p);
  return read(load(Bytes(text.begin(), text.end())), i);
}

std::vector<double> floats(std::initializer_list<float> v) { return {v.begin(), v.end()}; }

TEST(Fix, EveryRepairOnAHandMadeAsset) {
  const fs::path in = write_asset("broken.gltf", broken_asset().json);
  const std::set<std::string> before = codes_of(in);
  for (const char* code :
       {"ACCESSOR_ANIMATION_INPUT_NON_INCREASING", "ACCESSOR_MAX_MISMATCH",
        "ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS", "LINT_ROTATION_NEGATIVE_DOT",
        "ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION",
        "LINT_CUBICSPLINE_NONZERO_END_TANGENT"}) {
    EXPECT_TRUE(before.count(code)) << code;  // the asset shows what each repair answers
  }
  repair::ToolOptions o;
  o.input = in;
  o.output = in.parent_path() / "fixed.gltf";
  const repair::ToolReport r = cli::run_tool(repair::fix_tool({}), o);
  ASSERT_EQ(r.exit_code, 0) << r.message;  // every error is one fix repairs: no --force
  const fs::path out = *o.output;
  const std::set<std::string> after = codes_of(out);
  for (const gltf_anim::gltf::IssueCode code : repair::kFixCodes) {
    EXPECT_FALSE(after.count(std::string(code.name()))) << code.name();
  }
  EXPECT_EQ(r.errors_after, 0u);
  // Times: 1 repeated (the later key 2 kept), 1.5 after 2 dropped.
  EXPECT_EQ(read_file_accessor(out, 0), (std::vector<double>{0, 1, 2, 3}));
  EXPECT_EQ(read_file_accessor(out, 1),
            (std::vector<double>{0, 0, 0, 2, 20, 0, 3, 30, 0, 5, 50, 0}));
  // (0,0,0,2) -> (0,0,0,1); (0,0,0.6,-0.8) . (0,0,0,1) < 0 -> negated.
  EXPECT_EQ(read_file_accessor(out, 3), floats({0, 0, 0, 1, 0, 0, -0.6f, 0.8f, 0, 0, 0, 1}));
  EXPECT_EQ(read_file_accessor(out, 5),
            (std::vector<double>{0, 0, 0, 0, 0, 0, 2, 2, 2, 3, 3, 3, 1, 1, 1, 0, 0, 0}));
  // Each repair once, with its code and pointer.
  std::set<std::string> repaired;
  for (const repair::Repair& p : r.repairs) {
    EXPECT_TRUE(p.fixed) << p.code.name();
    EXPECT_FALSE(p.playback.empty());
    repaired.insert(std::string(p.code.name()) + " " + p.pointer);
  }
  EXPECT_TRUE(repaired.count("ACCESSOR_ANIMATION_INPUT_NON_INCREASING /accessors/0"));
  EXPECT_TRUE(repaired.count("LINT_ROTATION_NEGATIVE_DOT /animations/0/channels/1/sampler"));
  EXPECT_TRUE(
      repaired.count("LINT_CUBICSPLINE_NONZERO_END_TANGENT /animations/0/samplers/2/output"));
  EXPECT_TRUE(repaired.count("ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS /accessors/2"));
  // The input's bounds come from its new data: min 0, max 3.
  gltf_anim::json::Document d;
  const std::string text = slurp(out);
  d.Parse(text.c_str());
  EXPECT_EQ(gltf_anim::json::Pointer("/accessors/0/max/0").Get(d)->GetDouble(), 3.0);
  EXPECT_EQ(gltf_anim::json::Pointer("/accessors/2/max/0").Get(d)->GetDouble(), 2.0);
}

TEST(Fix, ShortestPathAndTangentsDoNotChangeConformingPlayback) {
  // Only unit rotations, so the input's playback is the spec's.
  const Asset a = broken_asset({0, 0, 0, 1, 0, 0, 0.6f, -0.8f, 0, 0, 0.8f, 0.6f});
  const fs::path in = write_asset("playback.gltf", a.json);
  repair::ToolOptions o;
  o.input = in;
  o.output = in.parent_path() / "playback_fixed.gltf";
  o.force = true;  // accessor 0's times are left broken (--only below)
  repair::FixOptions only;
  only.only = std::vector<gltf_anim::gltf::IssueCode>{"LINT_ROTATION_NEGATIVE_DOT",
                                                      "LINT_CUBICSPLINE_NONZERO_END_TANGENT"};
  const repair::ToolReport r = cli::run_tool(repair::fix_tool(only), o);
  ASSERT_EQ(r.exit_code, 0) << r.message;
  // Sampled densely before and after with the reference evaluator.
  const std::vector<double> keys_before = read_file_accessor(in, 3);
  const std::vector<double> keys_after = read_file_accessor(*o.output, 3);
  EXPECT_NE(keys_before, keys_after);
  const std::vector<double> times = {0, 1, 2};
  using gltf_anim::reference::Interpolation;
  using gltf_anim::reference::ValueKind;
  const gltf_anim::reference::TrackView tb{times, keys_before, 4, Interpolation::kLinear,
                                           ValueKind::kRotation};
  const gltf_anim::reference::TrackView ta{times, keys_after, 4, Interpolation::kLinear,
                                           ValueKind::kRotation};
  const std::vector<double> cubic_times = {0, 1};
  const std::vector<double> cb = read_file_accessor(in, 5), ca = read_file_accessor(*o.output, 5);
  const gltf_anim::reference::TrackView sb{cubic_times, cb, 3, Interpolation::kCubicSpline,
                                           ValueKind::kVector};
  const gltf_anim::reference::TrackView sa{cubic_times, ca, 3, Interpolation::kCubicSpline,
                                           ValueKind::kVector};
  for (double t = -0.5; t <= 2.5; t += 1.0 / 64) {
    std::vector<double> x(4), y(4);
    gltf_anim::reference::sample(tb, t, x);
    gltf_anim::reference::sample(ta, t, y);
    // The same rotation: q or -q, bit for bit (a slerp of negated keys is the
    // negated slerp).
    const std::vector<double> minus_y = {-y[0], -y[1], -y[2], -y[3]};
    EXPECT_TRUE(x == y || x == minus_y) << t;
    std::vector<double> u(3), v(3);
    gltf_anim::reference::sample(sb, t, u);
    gltf_anim::reference::sample(sa, t, v);
    for (int c = 0; c < 3; ++c) EXPECT_EQ(u[c], v[c]) << t;
  }
  // The other problems are left: --only did not ask for them.
  EXPECT_TRUE(codes_of(*o.output).count("ACCESSOR_ANIMATION_INPUT_NON_INCREASING"));
  // The report's own measure agrees: zero for both channels.
  for (const repair::ChannelSummary& c : r.channels) {
    if (c.channel == "/animations/0/channels/1") { EXPECT_EQ(c.max_angle, 0.0); }
    if (c.channel == "/animations/0/channels/2") { EXPECT_EQ(c.max_error, 0.0); }
  }
}

TEST(Fix, OnlyNoneRewritesTheSameBytes) {
  const fs::path in = write_asset("none.gltf", broken_asset().json);
  repair::ToolOptions o;
  o.input = in;
  o.output = in.parent_path() / "none_out.gltf";
  o.force = true;
  repair::FixOptions none;
  none.only.emplace();
  const repair::ToolReport r = cli::run_tool(repair::fix_tool(none), o);
  ASSERT_EQ(r.exit_code, 0) << r.message;
  EXPECT_TRUE(r.repairs.empty());
  EXPECT_EQ(slurp(*o.output), slurp(in));
}

TEST(Fix, WrongCountsAreReportedAsNotFixable) {
  // Accessor 1 with 5 translations for 6 keys.
  const fs::path in =
      write_asset("count.gltf", broken_asset({0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}, "5").json);
  repair::ToolOptions o;
  o.input = in;
  o.output = in.parent_path() / "count_out.gltf";
  repair::ToolReport r = cli::run_tool(repair::fix_tool({}), o);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.message.find("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT"), std::string::npos);
  o.force = true;
  r = cli::run_tool(repair::fix_tool({}), o);
  EXPECT_EQ(r.exit_code, 0) << r.message;
  bool reported = false;
  for (const repair::Repair& p : r.repairs) {
    if (p.code == "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT") reported = !p.fixed;
  }
  EXPECT_TRUE(reported);
}

// Peak resident memory of this process so far (each test runs in a process of its own).
long peak_mib() {
  struct rusage u {};
  ::getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024;
}

// One LINEAR translation channel: times from `input` (an accessor JSON), 2 stored times when
// it names bufferView 0; VEC3 outputs from `output`.
std::string one_channel(const std::string& input, const std::string& output) {
  Bytes b;
  put_floats(b, {0, 1});
  return "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{}],\"buffers\":[{\"byteLength\":8,\"uri\":\"" +
         data_uri(b) + "\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":8}],\"accessors\":[" + input +
         "," + output +
         "],\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":[{\"sampler\":0,"
         "\"target\":{\"node\":0,\"path\":\"translation\"}}]}]}";
}

TEST(Fix, TimesThatAnAccessorWithoutBufferViewDeclaresAreNotDecoded) {
  // 340 bytes declaring 60,000,000 times (zeros: no bufferView) and as many translations:
  // decoded, 1.9 GB of doubles. Refused as `sample` refuses them, and said.
  const fs::path in = write_asset(
      "declared.gltf", one_channel("{\"componentType\":5126,\"count\":60000000,\"type\":\"SCALAR\",\"min\":[0],\"max\":[0]}",
                                   "{\"componentType\":5126,\"count\":60000000,\"type\":\"VEC3\"}"));
  repair::ToolOptions o;
  o.input = in;
  o.output = in.parent_path() / "declared_out.gltf";
  const repair::ToolReport r = cli::run_tool(repair::fix_tool({}), o);
  EXPECT_EQ(r.exit_code, 0) << r.message;
  EXPECT_EQ(r.notes, (std::vector<std::string>{
                         "not repaired: /animations/0/channels/0: input times are not increasing: accessor 0 has no "
                         "bufferView, so its 60000000 times are zeros but for 0 sparse ones"}));
  EXPECT_LT(peak_mib(), 200);
}

TEST(Fix, KeysPastTheDecodingBoundAreRefusedBeforeTheyAreDecoded) {
  // Two stored times and 2^25 declared translations (no bufferView): 2 + 3 x 2^25 values,
  // past the bound of 2^26 an asset of a few hundred bytes may ask for.
  const fs::path in = write_asset(
      "wide.gltf", one_channel("{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],\"max\":[1]}",
                               "{\"componentType\":5126,\"count\":33554432,\"type\":\"VEC3\"}"));
  repair::ToolOptions o;
  o.input = in;
  o.output = in.parent_path() / "wide_out.gltf";
  o.force = true;  // its output count is wrong, which fix does not repair
  const repair::ToolReport r = cli::run_tool(repair::fix_tool({}), o);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.message.find("/animations/0/channels/0: its keys need 100663298 values"), std::string::npos)
      << r.message;
  EXPECT_NE(r.message.find("more than the 67108864 decoded values"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("nothing written"), std::string::npos) << r.message;
  EXPECT_FALSE(fs::exists(o.output.value()));
  EXPECT_LT(peak_mib(), 200);
}

TEST(Fix, TheCommandLine) {
  const fs::path in = write_asset("cli.gltf", broken_asset().json);
  const fs::path out = in.parent_path() / "cli_out.gltf";
  const fs::path json = in.parent_path() / "cli_report.json";
  const std::string cli = GLTF_ANIM_CLI;
  auto run = [&](const std::string& args) {
    const int status = std::system((cli + " fix " + args + " > " + json.string()).c_str());
    return WEXITSTATUS(status);
  };
  EXPECT_EQ(run(in.string() + " -o " + out.string() + " --format json"), 0);
  gltf_anim::json::Document d;
  const std::string text = slurp(json);
  d.Parse(text.c_str());
  ASSERT_FALSE(d.HasParseError()) << text;
  EXPECT_EQ(std::string(d["tool"].GetString()), "fix");
  EXPECT_TRUE(d["written"].GetBool());
  EXPECT_GE(d["repairs"].Size(), 6u);
  EXPECT_EQ(run(in.string() + " -o " + out.string() + " --only NOT_A_CODE 2>/dev/null"), 2);
  EXPECT_EQ(run(in.string() + " 2>/dev/null"), 2);  // no output named
  fs::remove(out);
  EXPECT_EQ(run(in.string() + " -o " + out.string() + " --dry-run"), 0);
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace

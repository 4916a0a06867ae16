// gltf-anim validate's CI policy, run as a process: lints are advice (--lints,
// opt-in lints with --enable), globs in --ignore/--severity-override/--enable,
// the project config file (.gltf-anim.json, --config), and no asset found
// being exit 2. Exit codes and the codes named in the output are checked, not
// the JSON layout (tested with the writers).
#include "scratch.hpp"
#include <gtest/gtest.h>
#include <gltf_anim/gltf/json.hpp>
#include <rapidjson/document.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "cli_process.hpp"
#include "optional_data.hpp"

namespace {

namespace fs = std::filesystem;
using CliRun = cli_process::Run;

const fs::path kAssets = fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets";
const fs::path kTmp = gltf_anim_test::scratch_root() / "cli_policy";
// Valid but for one lint each (their expected reports name nothing else).
const std::string kNegativeDot =
    (kAssets / "invalid/lint/rotation_negative_dot.gltf").string();  // warning lint
const std::string kRedundant =
    (kAssets / "invalid/lint/redundant_keyframe.gltf").string();  // opt-in lint
const std::string kStartsLate =
    (kAssets / "invalid/lint/animation_starts_after_zero.gltf").string();  // info lint
const std::string kValid = (kAssets / "rules_valid/translation_linear.gltf").string();
const std::string kDuplicates =
    (kAssets / "invalid/channel/duplicate_targets.gltf").string();  // 2 errors

fs::path scratch() {
  return kTmp / ::testing::UnitTest::GetInstance()->current_test_info()->name();
}

CliRun validate(std::vector<std::string> args, const cli_process::Options& o = {}) {
  args.insert(args.begin(), "validate");
  return cli_process::run(args, scratch(), o);
}

bool names(const CliRun& r, const std::string& code) {
  return r.out.find(code) != std::string::npos;
}

// ---- lints ----------------------------------------------------------------

TEST(CliLints, AWarningLintDoesNotFailFailOnWarningByDefault) {
  EXPECT_EQ(validate({"--fail-on", "warning", kNegativeDot}).exit_code, 0);
  const CliRun r = validate({"--format", "json", kNegativeDot});
  EXPECT_TRUE(names(r, "LINT_ROTATION_NEGATIVE_DOT")) << r.out;  // still reported, as advice
  // An information: --fail-on info fails on it, as on any information.
  EXPECT_EQ(validate({"--fail-on", "info", kNegativeDot}).exit_code, 1);
}

TEST(CliLints, LevelWarningKeepsTheRegistrySeverity) {
  EXPECT_EQ(validate({"--lints", "warning", "--fail-on", "warning", kNegativeDot}).exit_code, 1);
  // An information lint stays one under --lints warning (a ceiling, not a level).
  EXPECT_EQ(validate({"--lints", "warning", "--fail-on", "warning", kStartsLate}).exit_code, 0);
  EXPECT_EQ(validate({"--lints", "warning", "--fail-on", "info", kStartsLate}).exit_code, 1);
}

TEST(CliLints, LevelHintPassesFailOnInfo) {
  const CliRun r =
      validate({"--lints", "hint", "--fail-on", "info", "--format", "json", kNegativeDot});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(names(r, "LINT_ROTATION_NEGATIVE_DOT")) << r.out;
}

TEST(CliLints, OffReportsNone) {
  const CliRun r =
      validate({"--lints", "off", "--fail-on", "info", "--format", "json", kNegativeDot});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_FALSE(names(r, "LINT_")) << r.out;
}

TEST(CliLints, BadLevelIsAUsageError) {
  const CliRun r = validate({"--lints", "error", kValid});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--lints must be off, hint, info or warning"), std::string::npos) << r.err;
}

TEST(CliLints, RedundantKeyframeIsOptIn) {
  const CliRun quiet = validate({"--format", "json", "--fail-on", "info", kRedundant});
  EXPECT_EQ(quiet.exit_code, 0);
  EXPECT_FALSE(names(quiet, "LINT_REDUNDANT_KEYFRAME")) << quiet.out;
  for (const char* pattern : {"LINT_REDUNDANT_KEYFRAME", "LINT_*", "*_KEYFRAME"}) {
    const CliRun r =
        validate({"--format", "json", "--fail-on", "info", "--enable", pattern, kRedundant});
    EXPECT_EQ(r.exit_code, 1) << pattern;
    EXPECT_TRUE(names(r, "LINT_REDUNDANT_KEYFRAME")) << pattern << r.out;
  }
  // --lints off wins: no lint at all.
  const CliRun off =
      validate({"--format", "json", "--lints", "off", "--enable", "LINT_*", kRedundant});
  EXPECT_FALSE(names(off, "LINT_REDUNDANT_KEYFRAME")) << off.out;
}

TEST(CliLints, EnableNamesOptInLintsOnly) {
  const CliRun on_by_default = validate({"--enable", "LINT_ROTATION_NEGATIVE_DOT", kValid});
  EXPECT_EQ(on_by_default.exit_code, 2);
  EXPECT_NE(on_by_default.err.find("names no opt-in lint"), std::string::npos) << on_by_default.err;
  EXPECT_EQ(validate({"--enable", "UNUSED_OBJECT", kValid}).exit_code, 2);
  EXPECT_EQ(validate({"--enable", "NO_SUCH_LINT", kValid}).exit_code, 2);
}

// ---- globs ----------------------------------------------------------------

TEST(CliGlobs, IgnoreGlob) {
  const CliRun r =
      validate({"--format", "json", "--fail-on", "info", "--ignore", "LINT_*", kNegativeDot});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_FALSE(names(r, "LINT_")) << r.out;
  EXPECT_EQ(validate({"--ignore", "ANIMATION_DUPLICATE_*", kDuplicates}).exit_code, 0);
  EXPECT_EQ(validate({"--ignore", "ANIMATION_DUPLICATE_TARGET?", kDuplicates}).exit_code, 0);
  EXPECT_EQ(validate({"--ignore", "KHR_ANIMATION_POINTER_*", kDuplicates}).exit_code, 1);
}

TEST(CliGlobs, PatternsThatNameNothingAreUsageErrors) {
  const CliRun glob = validate({"--ignore", "NOPE_*", kValid});
  EXPECT_EQ(glob.exit_code, 2);
  EXPECT_NE(glob.err.find("'NOPE_*' matches no issue code"), std::string::npos) << glob.err;
  const CliRun code = validate({"--ignore", "NO_SUCH_CODE", kValid});
  EXPECT_EQ(code.exit_code, 2);
  EXPECT_NE(code.err.find("unknown issue code 'NO_SUCH_CODE'"), std::string::npos) << code.err;
  EXPECT_EQ(validate({"--ignore", "lint_*", kValid}).exit_code, 2);  // codes are upper case
  EXPECT_EQ(validate({"--severity-override", "NOPE_*=1", kValid}).exit_code, 2);
}

TEST(CliGlobs, SeverityOverrideGlob) {
  EXPECT_EQ(validate({"--severity-override", "LINT_*=0", kNegativeDot}).exit_code, 1);
  EXPECT_EQ(validate({"--severity-override", "ANIMATION_*=2", kDuplicates}).exit_code, 0);
}

// ---- the project config ---------------------------------------------------

// A fresh folder for this test holding `files` (name -> content).
fs::path folder_with(const std::vector<std::pair<std::string, std::string>>& files) {
  const fs::path dir = scratch() / "project";
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const auto& [name, text] : files) {
    fs::create_directories((dir / name).parent_path());
    std::ofstream(dir / name, std::ios::binary) << text;
  }
  return dir;
}

cli_process::Options in(const fs::path& dir) {
  cli_process::Options o;
  o.cwd = dir;
  return o;
}

const std::string kStrict = R"({"fail-on": "warning", "lints": "warning"})";

TEST(CliConfig, CurrentFolderConfigIsRead) {
  const fs::path dir = folder_with({{".gltf-anim.json", kStrict}});
  EXPECT_EQ(validate({kNegativeDot}, in(dir)).exit_code, 1);
  // Command-line options win over the config's.
  EXPECT_EQ(validate({"--fail-on", "error", kNegativeDot}, in(dir)).exit_code, 0);
  EXPECT_EQ(validate({"--lints", "info", kNegativeDot}, in(dir)).exit_code, 0);
  EXPECT_EQ(validate({"--no-config", kNegativeDot}, in(dir)).exit_code, 0);
  // Without a config in the folder, the defaults.
  EXPECT_EQ(validate({"--fail-on", "warning", kNegativeDot}, in(folder_with({}))).exit_code, 0);
}

TEST(CliConfig, ExplicitConfigFile) {
  const fs::path dir = folder_with({{"ci/strict.json", kStrict}});
  EXPECT_EQ(validate({"--config", (dir / "ci/strict.json").string(), kNegativeDot}).exit_code, 1);
  EXPECT_EQ(validate({"--config", (dir / "ci/strict.json").string(), "--no-config", kNegativeDot})
                .exit_code,
            2);
  const CliRun missing = validate({"--config", (dir / "ci/none.json").string(), kValid});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("No such file or directory"), std::string::npos) << missing.err;
}

TEST(CliConfig, ListsAddUpAndTheCommandLineOverrideWins) {
  const fs::path dir = folder_with(
      {{".gltf-anim.json",
        R"({"ignore": ["LINT_*"], "severity-override": {"ANIMATION_DUPLICATE_TARGETS": 2}})"}});
  EXPECT_EQ(validate({"--fail-on", "info", kNegativeDot}, in(dir)).exit_code, 0);
  EXPECT_EQ(validate({kDuplicates}, in(dir)).exit_code, 0);  // errors made information
  EXPECT_EQ(validate({"--severity-override", "ANIMATION_DUPLICATE_TARGETS=0", kDuplicates}, in(dir))
                .exit_code,
            1);
  EXPECT_EQ(validate({"--ignore", "ANIMATION_DUPLICATE_TARGETS", "--fail-on", "info", kDuplicates},
                     in(dir))
                .exit_code,
            0);
}

TEST(CliConfig, FormatAndEnableFromTheConfig) {
  const fs::path dir = folder_with(
      {{".gltf-anim.json", R"({"format": "json", "enable": ["LINT_REDUNDANT_KEYFRAME"]})"}});
  const CliRun r = validate({kRedundant}, in(dir));
  gltf_anim::json::Document d;
  d.Parse(r.out.c_str());
  EXPECT_FALSE(d.HasParseError()) << r.out;
  EXPECT_TRUE(names(r, "LINT_REDUNDANT_KEYFRAME")) << r.out;
  EXPECT_FALSE(names(validate({"--format", "text", "--no-config", kRedundant}, in(dir)),
                     "LINT_REDUNDANT_KEYFRAME"));
}

TEST(CliConfig, BadConfigIsAUsageErrorWithThePointer) {
  const fs::path dir = folder_with({{".gltf-anim.json", R"({"threads": 0})"}});
  const CliRun r = validate({kValid}, in(dir));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("bad config '.gltf-anim.json': /threads: "), std::string::npos) << r.err;
  const CliRun code =
      validate({kValid}, in(folder_with({{".gltf-anim.json", R"({"ignore": ["NOPE_*"]})"}})));
  EXPECT_EQ(code.exit_code, 2);
  EXPECT_NE(code.err.find("/ignore/0: 'NOPE_*' matches no issue code"), std::string::npos)
      << code.err;
}

TEST(CliConfig, ParentFoldersAreNotRead) {
  const fs::path dir = folder_with({{".gltf-anim.json", kStrict}, {"sub/keep", ""}});
  EXPECT_EQ(validate({kNegativeDot}, in(dir / "sub")).exit_code, 0);
}

TEST(CliConfig, ALinkOutOfTheCurrentFolderIsRefused) {
  const fs::path outside = folder_with({{"outside.json", kStrict}, {"work/keep", ""}});
  fs::create_symlink(outside / "outside.json", outside / "work" / ".gltf-anim.json");
  const CliRun r = validate({kNegativeDot}, in(outside / "work"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("outside the current folder"), std::string::npos) << r.err;
  // A link inside the folder is followed.
  const fs::path inside = folder_with({{"strict.json", kStrict}});
  fs::create_symlink("strict.json", inside / ".gltf-anim.json");
  EXPECT_EQ(validate({kNegativeDot}, in(inside)).exit_code, 1);
}

TEST(CliConfig, TheReportMayNotReplaceTheConfig) {
  const fs::path dir = folder_with({{".gltf-anim.json", kStrict}});
  const CliRun r = validate({"--output", ".gltf-anim.json", kValid}, in(dir));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(cli_process::slurp(dir / ".gltf-anim.json"), kStrict);
}

// ---- no asset found is not success -----------------------------------------

TEST(CliNoAsset, EveryWayOfFindingNothingIsExit2) {
  const fs::path dir =
      folder_with({{"assets/a.gltf", cli_process::slurp(kValid)}, {"notes/readme.txt", "text"}});
  fs::create_directories(dir / "empty");
  fs::create_directories(dir / "folder_named/b.gltf");  // a folder, not a file
  fs::create_directories(dir / "links");
  fs::create_symlink(dir / "assets/a.gltf",
                     dir / "links/a.gltf");  // links inside a folder are not followed
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const Case cases[] = {
      {{(dir / "empty").string()}, "no .gltf or .glb file in folder"},
      {{(dir / "notes").string()}, "no .gltf or .glb file in folder"},
      {{(dir / "folder_named").string()}, "no .gltf or .glb file in folder"},
      {{(dir / "links").string()}, "no .gltf or .glb file in folder"},
      // One folder with an asset does not make an empty one pass.
      {{(dir / "assets").string(), (dir / "empty").string()}, "no .gltf or .glb file in folder"},
      // What bash passes for a pattern that matches nothing.
      {{(dir / "exports/*.glb").string()},
       "no file matches '" + (dir / "exports/*.glb").string() + "'"},
      {{(dir / "missing.gltf").string()}, "No such file or directory"},
      // What bash passes with nullglob: nothing.
      {{}, "no PATH given"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args.empty() ? "(none)" : c.args.back());
    const CliRun r = validate(c.args, in(dir));
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  EXPECT_EQ(validate({(dir / "assets").string()}, in(dir)).exit_code, 0);
}

// ---- --merge-gltf-validator -------------------------------------------------

// By hand, from glTF-Validator's report shape: its pair rule gives channel 0
// twice, plus a code we do not have.
const std::string kTheirReport =
    R"({"uri": "duplicate_targets.gltf", "validatorVersion": "2.0.0-dev.3.10",
  "issues": {"numErrors": 3, "numWarnings": 0, "numInfos": 1, "numHints": 0, "truncated": false, "messages": [
    {"code": "ANIMATION_DUPLICATE_TARGETS", "message": "same target as channel 1.", "severity": 0, "pointer": "/animations/0/channels/0/target"},
    {"code": "ANIMATION_DUPLICATE_TARGETS", "message": "same target as channel 2.", "severity": 0, "pointer": "/animations/0/channels/0/target"},
    {"code": "ANIMATION_DUPLICATE_TARGETS", "message": "same target as channel 2.", "severity": 0, "pointer": "/animations/0/channels/1/target"},
    {"code": "NODE_EMPTY", "message": "Empty node \u001b[31m encountered.", "severity": 2, "pointer": "/nodes/0"}]}})";

// "CODE tool tool" for every message object anywhere in the report (whatever
// wraps the messages).
void collect_found_by(const gltf_anim::json::Value& v, std::multiset<std::string>& out) {
  if (v.IsArray()) {
    for (const auto& e : v.GetArray()) collect_found_by(e, out);
  } else if (v.IsObject()) {
    if (v.HasMember("code") && v.HasMember("foundBy") && v["foundBy"].IsArray()) {
      std::string row = v["code"].GetString();
      for (const auto& t : v["foundBy"].GetArray()) row += std::string(" ") + t.GetString();
      out.insert(row);
    }
    for (const auto& m : v.GetObject()) collect_found_by(m.value, out);
  }
}

std::multiset<std::string> found_by(const gltf_anim::json::Value& report) {
  std::multiset<std::string> out;
  collect_found_by(report, out);
  return out;
}

TEST(CliMergeGltfValidator, OneJsonCarriesBothToolsFindings) {
  const fs::path dir = folder_with({{"gv.json", kTheirReport}});
  const std::string report = (dir / "gv.json").string();
  const CliRun r = validate({"--format", "json", "--merge-gltf-validator", report, kDuplicates});
  EXPECT_EQ(r.exit_code, 1);
  gltf_anim::json::Document d;
  d.Parse(r.out.c_str());
  ASSERT_FALSE(d.HasParseError()) << r.out;
  // Two duplicate-target messages found by both, NODE_EMPTY by glTF-Validator.
  EXPECT_EQ(found_by(d),
            (std::multiset<std::string>{"ANIMATION_DUPLICATE_TARGETS gltf-anim glTF-Validator",
                                        "ANIMATION_DUPLICATE_TARGETS gltf-anim glTF-Validator",
                                        "NODE_EMPTY glTF-Validator"}))
      << r.out;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos);  // their text is escaped like ours
  // --fail-on info now fails on their information too; an ignored shared code goes from both.
  EXPECT_EQ(validate({"--fail-on", "info", "--ignore", "ANIMATION_DUPLICATE_TARGETS",
                      "--merge-gltf-validator", report, kDuplicates})
                .exit_code,
            1);
  // Without the option, nothing says who found what.
  EXPECT_EQ(validate({"--format", "json", kDuplicates}).out.find("foundBy"), std::string::npos);
}

TEST(CliMergeGltfValidator, SarifJunitAndTextCarryThemToo) {
  const fs::path dir = folder_with({{"gv.json", kTheirReport}});
  for (const char* format : {"sarif", "junit", "text"}) {
    SCOPED_TRACE(format);
    const CliRun r = validate(
        {"--format", format, "--merge-gltf-validator", (dir / "gv.json").string(), kDuplicates});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.out.find("NODE_EMPTY"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("glTF-Validator"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos);
  }
}

TEST(CliMergeGltfValidator, BadOrUnmatchedReportsAreUsageErrors) {
  const fs::path dir =
      folder_with({{"gv.json", kTheirReport},
                   {"bad.json", R"({"issues": {"messages": [{"code": "X", "severity": 9}]}})"},
                   {"other.json", R"({"uri": "other.gltf", "issues": {"messages": []}})"}});
  const CliRun bad = validate({"--merge-gltf-validator", (dir / "bad.json").string(), kDuplicates});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("/issues/messages/0/severity"), std::string::npos) << bad.err;
  const CliRun other =
      validate({"--merge-gltf-validator", (dir / "other.json").string(), kDuplicates});
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_NE(other.err.find("matches no validated asset"), std::string::npos) << other.err;
  EXPECT_EQ(
      validate({"--merge-gltf-validator", (dir / "none.json").string(), kDuplicates}).exit_code, 2);
  // The report is an input: the output may not replace it.
  const CliRun same = validate({"--output", (dir / "gv.json").string(), "--merge-gltf-validator",
                                (dir / "gv.json").string(), kDuplicates});
  EXPECT_EQ(same.exit_code, 2);
  EXPECT_EQ(cli_process::slurp(dir / "gv.json"), kTheirReport);
}

// ---- the 7 valid Khronos sample models and the other valid corpus assets ---

// Every corpus asset glTF-Validator finds no error in (missing images aside)
// passes --fail-on warning with the default lint policy. BlenderIO_24 has
// pointer errors glTF-Validator does not see (test_khr_animation_pointer.cpp).
const bool kCorpusPasses = gltf_anim::test::register_if_exists(
    "CliLintsCorpus", "ValidAssetsPassFailOnWarning",
    fs::path(GLTF_ANIM_SOURCE_DIR) / "../shared/corpus/manifest.json",
    [] {
      const fs::path corpus = fs::path(GLTF_ANIM_SOURCE_DIR) / "../shared/corpus";
      gltf_anim::json::Document m;
      m.Parse(cli_process::slurp(corpus / "manifest.json").c_str());
      ASSERT_TRUE(m.IsArray());
      std::vector<std::string> args{"--fail-on", "warning", "--format", "json"};
      for (const auto& e : m.GetArray()) {
        const auto& v = e["validator"];
        if (v["errors"].GetInt() != v["imageIoErrors"].GetInt()) continue;
        const std::string file = e["file"].GetString();
        if (file.find("24_animation_pointer") != std::string::npos) continue;
        args.push_back((corpus / file).string());
      }
      ASSERT_GE(args.size(), 4u + 7u);
      const CliRun r = validate(args);
      EXPECT_EQ(r.exit_code, 0) << r.out;
      // The lints are still there, as advice.
      EXPECT_TRUE(names(r, "LINT_ROTATION_NEGATIVE_DOT"));
      EXPECT_FALSE(names(r, "LINT_REDUNDANT_KEYFRAME"));
      // Under the old policy (lints at their registry severity) they failed.
      args.insert(args.begin(), {"--lints", "warning"});
      EXPECT_EQ(validate(args).exit_code, 1);
    },
    __FILE__, __LINE__);

}  // namespace

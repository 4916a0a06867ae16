// Resolving a validation run's options from the project config and the command
// line: the command line's value wins over the config's, the config's over the
// default; the code lists add up, the config's first; refusals are sentences
// for a usage error. Expected values are written out by hand (MiB in bytes).
#include <gltf_anim/validator/run_options.hpp>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace {

namespace fs = std::filesystem;
using gltf_anim::gltf::LintLevel;
using gltf_anim::gltf::Severity;
using gltf_anim::validator::resolve_run_options;
using gltf_anim::validator::RunArguments;
using gltf_anim::validator::RunConfig;
using gltf_anim::validator::RunOptions;

RunOptions resolved(const RunConfig& config, const RunArguments& arguments) {
  std::string why;
  const auto run = resolve_run_options(config, arguments, why);
  EXPECT_TRUE(run.has_value()) << why;
  EXPECT_EQ(why, "");
  return run.value_or(RunOptions{});
}

// The refusal ("" when the options were resolved).
std::string refusal(const RunArguments& arguments, const RunConfig& config = {}) {
  std::string why;
  const auto run = resolve_run_options(config, arguments, why);
  EXPECT_EQ(run.has_value(), why.empty()) << why;
  return why;
}

TEST(RunOptions, NothingSetGivesTheDocumentedDefaults) {
  const RunOptions run = resolved({}, {});
  EXPECT_EQ(run.format, "text");
  EXPECT_EQ(run.fail_on, Severity::kError);
  EXPECT_EQ(run.threads, 1u);
  EXPECT_EQ(run.validate.issues.max_issues, 100000u);
  EXPECT_EQ(run.validate.issues.max_issue_bytes, 67108864u);  // 64 MiB
  EXPECT_EQ(run.validate.load.max_file_bytes, 1073741824u);   // 1024 MiB
  EXPECT_EQ(run.validate.issues.lints.level, LintLevel::kInfo);
  EXPECT_TRUE(run.validate.issues.ignored.empty());
  EXPECT_TRUE(run.validate.issues.severity_overrides.empty());
  EXPECT_TRUE(run.validate.issues.lints.opted_in.empty());
  EXPECT_TRUE(run.validate.load.root.empty());
}

TEST(RunOptions, TheCommandLineWinsOverTheConfigWhichWinsOverTheDefault) {
  RunConfig config;
  config.format = "json";
  config.fail_on = Severity::kWarning;
  config.lints = LintLevel::kWarning;
  config.threads = 4;
  config.max_issues = 10;
  config.max_issue_mb = 2;
  config.max_file_mb = 3;
  const RunOptions from_config = resolved(config, {});
  EXPECT_EQ(from_config.format, "json");
  EXPECT_EQ(from_config.fail_on, Severity::kWarning);
  EXPECT_EQ(from_config.validate.issues.lints.level, LintLevel::kWarning);
  EXPECT_EQ(from_config.threads, 4u);
  EXPECT_EQ(from_config.validate.issues.max_issues, 10u);
  EXPECT_EQ(from_config.validate.issues.max_issue_bytes, 2097152u);
  EXPECT_EQ(from_config.validate.load.max_file_bytes, 3145728u);

  RunArguments given;
  given.format = "sarif";
  given.fail_on = Severity::kInfo;
  given.lints = LintLevel::kOff;
  given.threads = 2;
  given.max_issues = 0;    // no limit: a given 0 is a value, not "unset"
  given.max_issue_mb = 0;  // no limit
  given.max_file_mb = 5;
  const RunOptions both = resolved(config, given);
  EXPECT_EQ(both.format, "sarif");
  EXPECT_EQ(both.fail_on, Severity::kInfo);
  EXPECT_EQ(both.validate.issues.lints.level, LintLevel::kOff);
  EXPECT_EQ(both.threads, 2u);
  EXPECT_EQ(both.validate.issues.max_issues, 0u);
  EXPECT_EQ(both.validate.issues.max_issue_bytes, 0u);
  EXPECT_EQ(both.validate.load.max_file_bytes, 5242880u);

  // One value given, the others from the config.
  RunArguments threads_only;
  threads_only.threads = 8;
  const RunOptions mixed = resolved(config, threads_only);
  EXPECT_EQ(mixed.threads, 8u);
  EXPECT_EQ(mixed.format, "json");
  EXPECT_EQ(mixed.validate.issues.max_issues, 10u);
}

TEST(RunOptions, CodeListsAddUpTheConfigFirstSoTheCommandLineOverrideWins) {
  RunConfig config;
  config.ignore = {"EMPTY_ENTITY"};
  config.severity_overrides = {{"UNUSED_OBJECT", Severity::kWarning},
                               {"TYPE_MISMATCH", Severity::kInfo}};
  RunArguments given;
  given.ignore = {"UNEXPECTED_PROPERTY"};
  given.severity_override = {"UNUSED_OBJECT=3"};
  given.enable = {"LINT_REDUNDANT_KEYFRAME"};
  const RunOptions run = resolved(config, given);
  const auto& issues = run.validate.issues;
  EXPECT_EQ(issues.ignored.size(), 2u);
  EXPECT_TRUE(issues.ignored.contains("EMPTY_ENTITY"));
  EXPECT_TRUE(issues.ignored.contains("UNEXPECTED_PROPERTY"));
  ASSERT_EQ(issues.severity_overrides.size(), 2u);
  EXPECT_EQ(issues.severity_overrides.at("UNUSED_OBJECT"), Severity::kHint);  // the later word
  EXPECT_EQ(issues.severity_overrides.at("TYPE_MISMATCH"), Severity::kInfo);
  EXPECT_EQ(issues.lints.opted_in.size(), 1u);
  EXPECT_TRUE(issues.lints.opted_in.contains("LINT_REDUNDANT_KEYFRAME"));
}

TEST(RunOptions, AWordOfTheCommandLineThatNamesNothingIsRefused) {
  RunArguments glob;
  glob.ignore = {"NO_SUCH_*"};
  EXPECT_EQ(refusal(glob), "'NO_SUCH_*' matches no issue code (gltf-anim codes lists them)");
  RunArguments code;
  code.severity_override = {"NO_SUCH_CODE=1"};
  EXPECT_EQ(refusal(code), "unknown issue code 'NO_SUCH_CODE' (gltf-anim codes lists them)");
  RunArguments level;
  level.severity_override = {"UNUSED_OBJECT=4"};
  EXPECT_EQ(refusal(level),
            "--severity-override wants CODE=N with N in 0..3, got 'UNUSED_OBJECT=4'");
  RunArguments not_opt_in;  // a lint on by default needs no enabling
  not_opt_in.enable = {"UNUSED_OBJECT"};
  EXPECT_EQ(refusal(not_opt_in),
            "'UNUSED_OBJECT' names no opt-in lint (only opt-in lints need enabling; gltf-anim "
            "codes marks them)");
}

TEST(RunOptions, NumbersOutsideTheirRangesAreRefused) {
  auto threads = [](std::uint64_t n) {
    RunArguments a;
    a.threads = n;
    return refusal(a);
  };
  EXPECT_EQ(threads(0), "--threads must be an integer from 1 to 256, got '0'");
  EXPECT_EQ(threads(257), "--threads must be an integer from 1 to 256, got '257'");
  EXPECT_EQ(threads(1), "");
  EXPECT_EQ(threads(256), "");

  RunArguments issues;
  issues.max_issues = 4294967296u;  // 2^32
  EXPECT_EQ(refusal(issues),
            "--max-issues must be an integer from 0 to 4294967295, got '4294967296'");
  issues.max_issues = 4294967295u;
  EXPECT_EQ(refusal(issues), "");

  RunArguments issue_mb;
  issue_mb.max_issue_mb = 1048577;
  EXPECT_EQ(refusal(issue_mb),
            "--max-issue-mb must be an integer from 0 to 1048576, got '1048577'");

  RunArguments file_mb;
  file_mb.max_file_mb = 0;  // a file of 0 bytes at most: refused, unlike "no limit"
  EXPECT_EQ(refusal(file_mb), "--max-file-mb must be an integer from 1 to 1048576, got '0'");
  file_mb.max_file_mb = 1048576;  // 1 TiB
  std::string why;
  const auto run = resolve_run_options({}, file_mb, why);
  ASSERT_TRUE(run) << why;
  EXPECT_EQ(run->validate.load.max_file_bytes, 1099511627776u);
}

TEST(RunOptions, FailOnHintAndARootThatIsNoFolderAreRefused) {
  RunArguments hint;
  hint.fail_on = Severity::kHint;
  EXPECT_EQ(refusal(hint), "--fail-on must be error, warning or info");
  RunConfig hint_config;  // the config's schema refuses it; refused here all the same
  hint_config.fail_on = Severity::kHint;
  EXPECT_EQ(refusal({}, hint_config), "--fail-on must be error, warning or info");

  const fs::path file = fs::path(GLTF_ANIM_SOURCE_DIR) / "README.md";
  RunArguments not_folder;
  not_folder.root = file;
  EXPECT_EQ(refusal(not_folder), "--root '" + file.string() + "' is not a folder");
  RunArguments folder;
  folder.root = fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets";
  EXPECT_EQ(resolved({}, folder).validate.load.root, *folder.root);
}

}  // namespace

// What a run reports: the registry's shape rules for lints, code globs, the
// lint policy (level and opt-in lints) and the words the command line and the
// config file share (issue_policy.hpp).
#include <gltf_anim/gltf/issue_collector.hpp>
#include <gltf_anim/validator/issue_policy.hpp>
#include <gltf_anim/gltf/issue_registry.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace {

using gltf_anim::gltf::Enablement;
using gltf_anim::gltf::issue_types;
using gltf_anim::gltf::IssueCollector;
using gltf_anim::gltf::IssueOptions;
using gltf_anim::gltf::IssueType;
using gltf_anim::gltf::LintLevel;
using gltf_anim::gltf::LintPolicy;
using gltf_anim::gltf::match_issue_codes;
using gltf_anim::gltf::Phase;
using gltf_anim::gltf::registry_problem;
using gltf_anim::gltf::Severity;
using gltf_anim::validator::enable_lints;
using gltf_anim::validator::ignore_codes;
using gltf_anim::validator::override_severity;

// ---- the registry's shape --------------------------------------------------

constexpr IssueType kGoodRows[] = {
    {"UNUSED_OBJECT", Severity::kInfo, Phase::kLink, "m", "r", "s"},
    {"LINT_X", Severity::kWarning, Phase::kLint, "m", "r", "s", Enablement::kOptIn},
};
constexpr IssueType kLintAsError[] = {{"LINT_X", Severity::kError, Phase::kLint, "m", "r", "s"}};
constexpr IssueType kLintWithoutPrefix[] = {
    {"ADVICE_X", Severity::kInfo, Phase::kLint, "m", "r", "s"}};
constexpr IssueType kPrefixNotLint[] = {{"LINT_X", Severity::kError, Phase::kData, "m", "r", "s"}};
constexpr IssueType kOptInRule[] = {
    {"UNUSED_OBJECT", Severity::kInfo, Phase::kLink, "m", "r", "s", Enablement::kOptIn}};

// Checked while compiling, as the registry itself is.
static_assert(registry_problem(kGoodRows).empty());
static_assert(!registry_problem(kLintAsError).empty());
static_assert(!registry_problem(kLintWithoutPrefix).empty());
static_assert(!registry_problem(kPrefixNotLint).empty());
static_assert(!registry_problem(kOptInRule).empty());

TEST(Registry, IllegalLintRowsAreNamed) {
  EXPECT_EQ(registry_problem(kLintAsError), "a lint has severity error");
  EXPECT_EQ(registry_problem(kLintWithoutPrefix), "a lint's code does not start with LINT_");
  EXPECT_EQ(registry_problem(kPrefixNotLint), "a code starting with LINT_ is not a lint");
  EXPECT_EQ(registry_problem(kOptInRule), "an issue type that is not a lint is opt-in");
  EXPECT_EQ(registry_problem(issue_types()), "");
}

TEST(Registry, RedundantKeyframeIsTheOptInLint) {
  // Chosen from its rate on real assets (docs/VALIDATOR.md "Lints").
  std::vector<std::string_view> opt_in;
  for (const IssueType& t : issue_types()) {
    if (t.enablement == Enablement::kOptIn) opt_in.push_back(t.code);
  }
  EXPECT_EQ(opt_in, std::vector<std::string_view>{"LINT_REDUNDANT_KEYFRAME"});
}

// ---- globs -----------------------------------------------------------------

std::vector<std::string_view> names(const std::vector<const IssueType*>& types) {
  std::vector<std::string_view> out;
  for (const IssueType* t : types) out.push_back(t->code);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(CodeGlob, LintStarIsTheEightLints) {
  EXPECT_EQ(names(match_issue_codes("LINT_*")),
            (std::vector<std::string_view>{
                "LINT_ANIMATION_STARTS_AFTER_ZERO", "LINT_CHANNEL_WITHOUT_NODE",
                "LINT_CUBICSPLINE_NONZERO_END_TANGENT", "LINT_CUBIC_ROTATION_NEGATIVE_DOT",
                "LINT_CUBIC_ROTATION_OPPOSITE_KEYS", "LINT_REDUNDANT_KEYFRAME",
                "LINT_ROTATION_NEGATIVE_DOT", "LINT_STEP_KEY_AFTER_FRAME"}));
}

TEST(CodeGlob, PrefixGlobEqualsEveryCodeWithThePrefix) {
  // A second method: a plain prefix test over the registry.
  const std::string prefix = "KHR_ANIMATION_POINTER_";
  std::vector<std::string_view> expected;
  for (const IssueType& t : issue_types()) {
    if (t.code.substr(0, prefix.size()) == prefix) expected.push_back(t.code);
  }
  std::sort(expected.begin(), expected.end());
  EXPECT_GE(expected.size(), 5u);
  EXPECT_EQ(names(match_issue_codes(prefix + "*")), expected);
}

TEST(CodeGlob, StarsInTheMiddleAndQuestionMarks) {
  EXPECT_EQ(names(match_issue_codes("ACCESSOR_M??_MISMATCH")),
            (std::vector<std::string_view>{"ACCESSOR_MAX_MISMATCH", "ACCESSOR_MIN_MISMATCH"}));
  EXPECT_EQ(names(match_issue_codes("?NUSED_OBJECT")),
            (std::vector<std::string_view>{"UNUSED_OBJECT"}));
  EXPECT_EQ(names(match_issue_codes("*_KEYFRAME")),
            (std::vector<std::string_view>{"LINT_REDUNDANT_KEYFRAME"}));
  // Backtracking: the first '*' must not stop at the first '_'.
  EXPECT_EQ(names(match_issue_codes("LINT*DOT")),
            (std::vector<std::string_view>{"LINT_CUBIC_ROTATION_NEGATIVE_DOT",
                                           "LINT_ROTATION_NEGATIVE_DOT"}));
  EXPECT_EQ(match_issue_codes("*").size(), issue_types().size());
}

TEST(CodeGlob, NoMatchIsEmpty) {
  EXPECT_TRUE(match_issue_codes("lint_*").empty());  // codes are upper case
  EXPECT_TRUE(match_issue_codes("LINT").empty());    // not a glob, not a code
  EXPECT_TRUE(match_issue_codes("NOPE_*").empty());
  EXPECT_TRUE(match_issue_codes("UNUSED_OBJECT?").empty());
}

// ---- the lint policy in the collector -----------------------------------

std::vector<std::pair<std::string, Severity>> collect(const IssueOptions& options) {
  IssueCollector issues(options);
  issues.add("LINT_ROTATION_NEGATIVE_DOT", "/a", {"0", "1", "-1", "1"});  // registry: warning
  issues.add("LINT_ANIMATION_STARTS_AFTER_ZERO", "/b", {"1"});            // registry: info
  issues.add("LINT_REDUNDANT_KEYFRAME", "/c", {"1", "1"});                // registry: info, opt-in
  issues.add("UNUSED_OBJECT", "/d");                                      // not a lint: info
  std::vector<std::pair<std::string, Severity>> out;
  for (const auto& i : issues.issues()) out.emplace_back(std::string(i.code), i.severity);
  return out;
}

using Got = std::vector<std::pair<std::string, Severity>>;

TEST(LintPolicy, DefaultIsInfoAtMostAndNoOptIn) {
  EXPECT_EQ(collect({}), (Got{{"LINT_ROTATION_NEGATIVE_DOT", Severity::kInfo},
                              {"LINT_ANIMATION_STARTS_AFTER_ZERO", Severity::kInfo},
                              {"UNUSED_OBJECT", Severity::kInfo}}));
}

TEST(LintPolicy, WarningKeepsRegistrySeverities) {
  IssueOptions o;
  o.lints.level = LintLevel::kWarning;
  EXPECT_EQ(collect(o), (Got{{"LINT_ROTATION_NEGATIVE_DOT", Severity::kWarning},
                             {"LINT_ANIMATION_STARTS_AFTER_ZERO", Severity::kInfo},
                             {"UNUSED_OBJECT", Severity::kInfo}}));
}

TEST(LintPolicy, HintLowersEveryLintButNotRules) {
  IssueOptions o;
  o.lints.level = LintLevel::kHint;
  EXPECT_EQ(collect(o), (Got{{"LINT_ROTATION_NEGATIVE_DOT", Severity::kHint},
                             {"LINT_ANIMATION_STARTS_AFTER_ZERO", Severity::kHint},
                             {"UNUSED_OBJECT", Severity::kInfo}}));
}

TEST(LintPolicy, OffReportsNoLint) {
  IssueOptions o;
  o.lints.level = LintLevel::kOff;
  EXPECT_EQ(collect(o), (Got{{"UNUSED_OBJECT", Severity::kInfo}}));
  IssueCollector issues(o);
  EXPECT_FALSE(issues.reports_any(Phase::kLint));
  EXPECT_TRUE(issues.reports_any(Phase::kLink));
}

TEST(LintPolicy, OptInIsReportedWhenEnabled) {
  IssueOptions o;
  ASSERT_EQ(enable_lints("LINT_REDUNDANT_KEYFRAME", o), "");
  EXPECT_EQ(collect(o), (Got{{"LINT_ROTATION_NEGATIVE_DOT", Severity::kInfo},
                             {"LINT_ANIMATION_STARTS_AFTER_ZERO", Severity::kInfo},
                             {"LINT_REDUNDANT_KEYFRAME", Severity::kInfo},
                             {"UNUSED_OBJECT", Severity::kInfo}}));
}

TEST(LintPolicy, OverrideOfALintWins) {
  IssueOptions o;
  ASSERT_EQ(override_severity("LINT_ANIMATION_STARTS_AFTER_ZERO=1", o), "");
  EXPECT_EQ(collect(o), (Got{{"LINT_ROTATION_NEGATIVE_DOT", Severity::kInfo},
                             {"LINT_ANIMATION_STARTS_AFTER_ZERO", Severity::kWarning},
                             {"UNUSED_OBJECT", Severity::kInfo}}));
}

TEST(LintPolicy, IgnoreGlobDropsEveryLint) {
  IssueOptions o;
  ASSERT_EQ(ignore_codes("LINT_*", o), "");
  EXPECT_EQ(collect(o), (Got{{"UNUSED_OBJECT", Severity::kInfo}}));
  EXPECT_FALSE(IssueCollector(o).reports_any(Phase::kLint));
}

TEST(LintPolicy, EveryLintIsTheRegistry) {
  IssueOptions o;
  o.lints = LintPolicy::every_lint();
  EXPECT_EQ(collect(o), (Got{{"LINT_ROTATION_NEGATIVE_DOT", Severity::kWarning},
                             {"LINT_ANIMATION_STARTS_AFTER_ZERO", Severity::kInfo},
                             {"LINT_REDUNDANT_KEYFRAME", Severity::kInfo},
                             {"UNUSED_OBJECT", Severity::kInfo}}));
}

// ---- the shared words ------------------------------------------------------

TEST(IssuePolicyWords, RefusalsLeaveOptionsAsTheyWere) {
  IssueOptions o;
  EXPECT_EQ(ignore_codes("NO_SUCH_CODE", o),
            "unknown issue code 'NO_SUCH_CODE' (gltf-anim codes lists them)");
  EXPECT_EQ(ignore_codes("NOPE_*", o),
            "'NOPE_*' matches no issue code (gltf-anim codes lists them)");
  EXPECT_NE(override_severity("UNUSED_OBJECT=7", o), "");
  EXPECT_NE(override_severity("UNUSED_OBJECT", o), "");
  EXPECT_NE(override_severity("NOPE_*=1", o), "");
  // A lint that is on by default needs no enabling; a rule cannot be enabled.
  EXPECT_NE(enable_lints("LINT_ROTATION_NEGATIVE_DOT", o), "");
  EXPECT_NE(enable_lints("UNUSED_OBJECT", o), "");
  EXPECT_NE(enable_lints("KHR_*", o), "");
  EXPECT_TRUE(o.ignored.empty());
  EXPECT_TRUE(o.severity_overrides.empty());
  EXPECT_TRUE(o.lints.opted_in.empty());
}

TEST(IssuePolicyWords, GlobOverrideCoversEachCode) {
  IssueOptions o;
  ASSERT_EQ(override_severity("ACCESSOR_M??_MISMATCH=1", o), "");
  EXPECT_EQ(o.severity_overrides.size(), 2u);
  EXPECT_EQ(o.severity_overrides.at("ACCESSOR_MAX_MISMATCH"), Severity::kWarning);
  EXPECT_EQ(o.severity_overrides.at("ACCESSOR_MIN_MISMATCH"), Severity::kWarning);
}

}  // namespace

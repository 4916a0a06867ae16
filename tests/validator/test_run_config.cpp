// The project config file (.gltf-anim.json): what it sets, and a clear
// refusal with the JSON pointer of the bad member for anything else. The
// reading of the current folder's file is tested through the CLI
// (tests/cli/test_cli_policy.cpp), which runs in a folder of its own.
#include "scratch.hpp"
#include <gltf_anim/validator/run_config.hpp>
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using gltf_anim::gltf::LintLevel;
using gltf_anim::gltf::Severity;
using gltf_anim::validator::parse_run_config;
using gltf_anim::validator::read_run_config;

const fs::path kTmp = gltf_anim_test::scratch_root() / "run_config";

// The refusal for `text` ("" when it was accepted).
std::string refusal(const std::string& text) {
  std::string why;
  const auto c = parse_run_config(text, why);
  EXPECT_EQ(c.has_value(), why.empty()) << why;
  return why;
}

bool starts(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

TEST(RunConfig, EveryMember) {
  std::string why;
  const auto c = parse_run_config(R"({
    "$schema": "validator/config/gltf-anim-config.schema.json",
    "ignore": ["UNUSED_OBJECT", "KHR_ANIMATION_POINTER_*"],
    "severity-override": {"LINT_*": 1, "ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS": 2},
    "lints": "warning", "enable": ["LINT_REDUNDANT_KEYFRAME"], "fail-on": "warning",
    "format": "sarif", "threads": 4, "max-issues": 1000, "max-issue-mb": 8, "max-file-mb": 16})",
                                  why);
  ASSERT_TRUE(c) << why;
  EXPECT_EQ(c->ignore, (std::vector<std::string>{"UNUSED_OBJECT", "KHR_ANIMATION_POINTER_*"}));
  ASSERT_EQ(c->severity_overrides.size(), 2u);
  EXPECT_EQ(c->severity_overrides[0].first, "LINT_*");
  EXPECT_EQ(c->severity_overrides[0].second, Severity::kWarning);
  EXPECT_EQ(c->severity_overrides[1].second, Severity::kInfo);
  EXPECT_EQ(c->lints, LintLevel::kWarning);
  EXPECT_EQ(c->enable, std::vector<std::string>{"LINT_REDUNDANT_KEYFRAME"});
  EXPECT_EQ(c->fail_on, Severity::kWarning);
  EXPECT_EQ(c->format, "sarif");
  EXPECT_EQ(c->threads, 4u);
  EXPECT_EQ(c->max_issues, 1000u);
  EXPECT_EQ(c->max_issue_mb, 8u);
  EXPECT_EQ(c->max_file_mb, 16u);
}

TEST(RunConfig, EmptyObjectSetsNothing) {
  std::string why;
  const auto c = parse_run_config("{}", why);
  ASSERT_TRUE(c) << why;
  EXPECT_TRUE(c->ignore.empty());
  EXPECT_FALSE(c->lints);
  EXPECT_FALSE(c->fail_on);
  EXPECT_FALSE(c->threads);
}

TEST(RunConfig, SchemaErrorsNameTheMember) {
  EXPECT_TRUE(starts(refusal(R"({"ignore": "UNUSED_OBJECT"})"), "/ignore: "))
      << refusal(R"({"ignore": "UNUSED_OBJECT"})");
  EXPECT_TRUE(starts(refusal(R"({"ignore": ["UNUSED_OBJECT", 7]})"), "/ignore/1: "));
  EXPECT_TRUE(starts(refusal(R"({"ignore": ["unused object"]})"), "/ignore/0: "));
  EXPECT_TRUE(starts(refusal(R"({"threads": 0})"), "/threads: "));
  EXPECT_TRUE(starts(refusal(R"({"threads": 257})"), "/threads: "));
  EXPECT_TRUE(starts(refusal(R"({"max-file-mb": 1.5})"), "/max-file-mb: "));
  EXPECT_TRUE(starts(refusal(R"({"lints": "loud"})"), "/lints: "));
  EXPECT_TRUE(starts(refusal(R"({"fail-on": "hint"})"), "/fail-on: "));
  EXPECT_TRUE(starts(refusal(R"({"severity-override": {"UNUSED_OBJECT": 5}})"),
                     "/severity-override/UNUSED_OBJECT: "));
  EXPECT_TRUE(
      starts(refusal(R"({"severity-override": {"lint_x": 1}})"), "/severity-override/lint_x: "));
  EXPECT_TRUE(starts(refusal("[]"), "the document: "));
  // A path is not a config member: a checked-in config does not choose what is read or written.
  for (const char* member : {"output", "root", "config", "colour"}) {
    const std::string why = refusal(std::string(R"({")") + member + R"(": "x"})");
    EXPECT_TRUE(starts(why, std::string("/") + member + ": unknown member")) << why;
  }
}

TEST(RunConfig, CodesAreCheckedAsOnTheCommandLine) {
  EXPECT_EQ(refusal(R"({"ignore": ["UNUSED_OBJECT", "NOPE_*"]})"),
            "/ignore/1: 'NOPE_*' matches no issue code (gltf-anim codes lists them)");
  EXPECT_EQ(refusal(R"({"ignore": ["NO_SUCH_CODE"]})"),
            "/ignore/0: unknown issue code 'NO_SUCH_CODE' (gltf-anim codes lists them)");
  EXPECT_TRUE(starts(refusal(R"({"enable": ["LINT_ROTATION_NEGATIVE_DOT"]})"), "/enable/0: "));
  EXPECT_TRUE(
      starts(refusal(R"({"severity-override": {"NOPE_*": 1}})"), "/severity-override/NOPE_*: "));
}

TEST(RunConfig, HostileText) {
  EXPECT_NE(refusal(R"({"ignore": [})").find("line 1, column 13"), std::string::npos)
      << refusal(R"({"ignore": [})");
  EXPECT_NE(refusal(""), "");
  EXPECT_NE(refusal(R"({"lints": "off", "lints": "info"})"), "");  // a duplicate member
  EXPECT_NE(refusal("{\"format\": \"js\xC3\"}"), "");              // not UTF-8
  EXPECT_NE(refusal(std::string(200000, '[') + std::string(200000, ']')),
            "");  // nesting, no recursion
  EXPECT_NE(refusal("{\"ignore\": [\"\x1b[31mRED\"]}"), "");
}

TEST(RunConfig, FileBounds) {
  fs::create_directories(kTmp);
  const fs::path big = kTmp / "big.json";
  {
    std::ofstream out(big, std::ios::binary);
    out << "{\"$schema\": \"" << std::string(std::size_t{2} << 20, 'x') << "\"}";
  }
  std::string why;
  EXPECT_FALSE(read_run_config(big, why));
  EXPECT_NE(why.find("more than the limit of 1048576"), std::string::npos) << why;
  // A FIFO is refused at once (no writer would ever come).
  const fs::path fifo = kTmp / "fifo.json";
  fs::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  why.clear();
  EXPECT_FALSE(read_run_config(fifo, why));
  EXPECT_NE(why, "");
  why.clear();
  EXPECT_FALSE(read_run_config(kTmp / "missing.json", why));
  EXPECT_NE(why.find("No such file or directory"), std::string::npos) << why;
  why.clear();
  EXPECT_FALSE(read_run_config(kTmp, why));  // a folder
  EXPECT_NE(why, "");
}

}  // namespace

// Strings of any length are matched without recursion (a 50 KB code once
// overflowed the stack in std::regex) and refused beyond the longest code a
// user may write, on the config's schema and on its codes alike.
TEST(RunConfig, LongCodesAreRefusedWithoutRecursion) {
  const std::string mib(std::size_t{1} << 20, 'A');
  for (const std::string& text :
       {R"({"ignore": [")" + mib + R"("]})", R"({"enable": [")" + mib + R"("]})",
        R"({"severity-override": {")" + mib + R"(": 1}})",
        R"({"ignore": [")" + std::string(std::size_t{1} << 19, '*') + R"("]})"}) {
    const std::string why = refusal(text);
    EXPECT_NE(why, "");
    EXPECT_LT(why.size(), 1000u) << "the refusal does not quote the whole code";
  }
  EXPECT_TRUE(starts(refusal(R"({"ignore": [")" + std::string(129, 'A') + R"("]})"), "/ignore/0"));
  // 128 characters pass the schema and reach the registry's words.
  EXPECT_EQ(refusal(R"({"ignore": [")" + std::string(128, 'A') + R"("]})"),
            "/ignore/0: unknown issue code '" + std::string(128, 'A') +
                "' (gltf-anim codes lists them)");
}

// A byte order mark is what some editors write first: the config is read past it.
TEST(RunConfig, ByteOrderMarkIsAccepted) {
  std::string why;
  const auto c = parse_run_config("\xEF\xBB\xBF{\"lints\": \"off\"}", why);
  ASSERT_TRUE(c) << why;
  EXPECT_EQ(c->lints, LintLevel::kOff);
  // Only at the start, and only UTF-8's.
  EXPECT_NE(refusal("{\"lints\": \"off\"}\xEF\xBB\xBF"), "");
  EXPECT_NE(refusal("\xFF\xFE{}"), "");
}

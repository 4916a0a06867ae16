// docs/ISSUE_CODES.md is generated from the registry (gltf-anim codes --format
// md, i.e. issue_codes_markdown()); this test fails when the checked-in copy is
// stale. Regenerate with:
//   build/cli/gltf-anim codes --format md > docs/ISSUE_CODES.md
#include <gltf_anim/gltf/issue.hpp>
#include <gltf_anim/gltf/issue_registry.hpp>
#include <gltf_anim/validator/validate.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

namespace {

TEST(IssueCodesDoc, CheckedInCopyMatchesRegistry) {
  const std::filesystem::path doc = std::filesystem::path(GLTF_ANIM_SOURCE_DIR) / "docs" / "ISSUE_CODES.md";
  std::ifstream in(doc, std::ios::binary);
  ASSERT_TRUE(in) << doc << " is missing";
  std::ostringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), gltf_anim::validator::issue_codes_markdown())
      << "docs/ISSUE_CODES.md is stale: regenerate it with 'gltf-anim codes --format md'";
}

TEST(IssueRegistry, CodesAreUniqueAndDocumented) {
  std::set<std::string_view> seen;
  for (const auto& t : gltf_anim::gltf::issue_types()) {
    EXPECT_TRUE(seen.insert(t.code).second) << "duplicate row " << t.code;
    EXPECT_FALSE(t.message.empty()) << t.code;
    EXPECT_FALSE(t.rule.empty()) << t.code;
    EXPECT_FALSE(t.spec.empty()) << t.code;
  }
}

// Every template is one line: reports print a message per line, `gltf-anim codes`
// a code per line, docs/ISSUE_CODES.md a code per table row.
TEST(IssueRegistry, EveryTemplateIsOneLineOfText) {
  std::string controls;
  for (int c = 0; c < 0x20; ++c) controls += static_cast<char>(c);
  controls += '\x7f';
  for (const auto& t : gltf_anim::gltf::issue_types()) {
    for (const std::string_view text : {t.message, t.rule, t.spec}) {
      EXPECT_EQ(text.find_first_of(controls), std::string_view::npos) << t.code << ": " << text;
      for (const char* line_break : {"\u0085", "\u2028", "\u2029"}) {
        EXPECT_EQ(text.find(line_break), std::string_view::npos) << t.code << ": " << text;
      }
    }
  }
  // The compile-time rule sees them too.
  using gltf_anim::gltf::IssueType;
  using gltf_anim::gltf::Phase;
  using gltf_anim::gltf::Severity;
  for (const std::string_view bad : {"a\nb", "a\rb", "a\tb", "a\u2028b", "a\u0085b"}) {
    const IssueType row[] = {{"X", Severity::kError, Phase::kIo, bad, "rule", "spec"}};
    EXPECT_FALSE(gltf_anim::gltf::registry_problem(row).empty()) << bad;
  }
  const IssueType fine[] = {{"X", Severity::kError, Phase::kIo, "a \u00e9 {0}", "rule", "spec"}};
  EXPECT_TRUE(gltf_anim::gltf::registry_problem(fine).empty());
}

// A lint's row says what a run reports by default (at most information), then its
// own severity, which --lints warning keeps.
TEST(IssueCodesDoc, LintRowsGiveTheSeverityARunReports) {
  const std::string md = gltf_anim::validator::issue_codes_markdown();
  EXPECT_NE(
      md.find("`LINT_ROTATION_NEGATIVE_DOT` | 2 Information (1 Warning with `--lints warning`) |"),
      std::string::npos)
      << md;
  EXPECT_NE(md.find("`LINT_ANIMATION_STARTS_AFTER_ZERO` | 2 Information |"), std::string::npos)
      << md;
}

TEST(IssueCodesDoc, AnchorIsTheCodeInLowerCase) {
  EXPECT_EQ(gltf_anim::validator::issue_code_anchor("IO_ERROR"), "io_error");
  EXPECT_EQ(gltf_anim::validator::issue_code_anchor("KHR_ANIMATION2_SUPERSEDED"),
            "khr_animation2_superseded");
}

TEST(IssueCodesDoc, EveryCodeHasARow) {
  const std::string md = gltf_anim::validator::issue_codes_markdown();
  for (const auto& t : gltf_anim::gltf::issue_types()) {
    // The row starts with the code's anchor (a link to the code's row), the code in lower case.
    EXPECT_NE(md.find("| <a id=\"" + gltf_anim::validator::issue_code_anchor(t.code) + "\"></a>`" +
                      std::string(t.code) + "` |"),
              std::string::npos)
        << t.code;
  }
}

// The io, glb and json codes are about the container and the text, not a
// rule of a glTF document, so no asset of conformance_assets/invalid/ carries
// them (InvalidAssets.EveryRuleCodeHasAnAsset covers the rule phases): each
// must be named by a loader, CLI or hostile-corpus test, a guard against a new
// container code that no test raises.
TEST(IssueRegistry, EveryContainerCodeIsNamedByATest) {
  namespace fs = std::filesystem;
  using gltf_anim::gltf::Phase;
  const fs::path tests = fs::path(GLTF_ANIM_SOURCE_DIR) / "tests";
  std::string text;  // the tests that raise container codes, concatenated
  for (const char* folder : {"validator", "cli", "hostile"}) {
    for (const auto& e : fs::directory_iterator(tests / folder)) {
      const std::string name = e.path().filename().string();
      const bool loader_test = folder != std::string("validator") || name.starts_with("test_load_");
      if (!loader_test || (e.path().extension() != ".cpp" && e.path().extension() != ".json")) continue;
      std::ifstream in(e.path(), std::ios::binary);
      std::ostringstream s;
      s << in.rdbuf();
      text += s.str();
    }
  }
  std::size_t checked = 0;
  for (const auto& t : gltf_anim::gltf::issue_types()) {
    if (t.phase != Phase::kIo && t.phase != Phase::kGlb && t.phase != Phase::kJson) continue;
    EXPECT_NE(text.find("\"" + std::string(t.code) + "\""), std::string::npos)
        << t.code << " is named by no test of tests/validator/test_load_*, tests/cli or tests/hostile";
    ++checked;
  }
  EXPECT_GE(checked, 20u);  // GLB alone has 14 container codes
}

}  // namespace

// docs/ISSUE_CODES.md is generated from the registry (gltf-anim codes --format
// md, i.e. issue_codes_markdown()); this test fails when the checked-in copy is
// stale. Regenerate with:
//   build/cli/gltf-anim codes --format md > docs/ISSUE_CODES.md
#include <gltf_anim/validator/issue.hpp>
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
  for (const auto& t : gltf_anim::validator::issue_types()) {
    EXPECT_TRUE(seen.insert(t.code).second) << "duplicate row " << t.code;
    EXPECT_FALSE(t.message.empty()) << t.code;
    EXPECT_FALSE(t.rule.empty()) << t.code;
    EXPECT_FALSE(t.spec.empty()) << t.code;
  }
}

TEST(IssueCodesDoc, EveryCodeHasARow) {
  const std::string md = gltf_anim::validator::issue_codes_markdown();
  for (const auto& t : gltf_anim::validator::issue_types()) {
    EXPECT_NE(md.find("| `" + std::string(t.code) + "` |"), std::string::npos) << t.code;
  }
}

}  // namespace

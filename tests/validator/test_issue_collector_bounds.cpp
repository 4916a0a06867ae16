// The issue collector's bounds in bytes: stored pointers and messages are cut
// at kMaxIssueTextBytes on a code point boundary, and an asset's issues stop at
// max_issue_bytes (truncated), whatever --max-issues says.
#include <gltf_anim/gltf/issue_collector.hpp>
#include <gtest/gtest.h>

#include <string>

namespace {

using gltf_anim::gltf::cut_issue_text;
using gltf_anim::gltf::IssueCollector;
using gltf_anim::gltf::IssueOptions;
using gltf_anim::gltf::kCutMark;
using gltf_anim::gltf::kMaxIssueTextBytes;

TEST(IssueText, ShortTextIsKept) {
  std::string s(kMaxIssueTextBytes, 'x');
  cut_issue_text(s);
  EXPECT_EQ(s, std::string(kMaxIssueTextBytes, 'x'));
}

TEST(IssueText, LongTextIsCutAndMarked) {
  std::string s(kMaxIssueTextBytes + 1, 'x');
  cut_issue_text(s);
  EXPECT_EQ(s.size(), kMaxIssueTextBytes);
  EXPECT_EQ(s, std::string(kMaxIssueTextBytes - kCutMark.size(), 'x') + std::string(kCutMark));
}

TEST(IssueText, CutNeverSplitsACodePoint) {
  // 20 bytes kept before the mark: "ab" then 6 x U+20AC (3 bytes each) is 20
  // bytes; one byte less must drop the whole last euro sign, not part of it.
  const std::string euro = "\xE2\x82\xAC";
  std::string body = "ab";
  for (int i = 0; i < 10; ++i) body += euro;
  std::string fits = body;
  cut_issue_text(fits, 20 + kCutMark.size());
  EXPECT_EQ(fits, "ab" + euro + euro + euro + euro + euro + euro + std::string(kCutMark));
  std::string shorter = body;
  cut_issue_text(shorter, 19 + kCutMark.size());
  EXPECT_EQ(shorter, "ab" + euro + euro + euro + euro + euro + std::string(kCutMark));
  // A 4-byte sequence (U+1F600) at the edge goes whole too.
  std::string emoji = "a\xF0\x9F\x98\x80" "b" + std::string(20, 'x');
  cut_issue_text(emoji, 3 + kCutMark.size());
  EXPECT_EQ(emoji, "a" + std::string(kCutMark));
}

TEST(IssueCollectorBytes, PointersAreStoredCut) {
  IssueCollector issues;
  const std::string pointer = "/extras/" + std::string(20000, 'k');
  issues.add("JSON_DUPLICATE_KEY", pointer, {"a"});
  ASSERT_EQ(issues.issues().size(), 1u);
  EXPECT_EQ(issues.issues()[0].pointer.size(), kMaxIssueTextBytes);
  EXPECT_EQ(issues.issues()[0].pointer.substr(0, 8), "/extras/");
  EXPECT_FALSE(issues.truncated());
}

TEST(IssueCollectorBytes, ByteBudgetTruncatesBeforeTheCount) {
  // Each issue holds at least 1 KiB of pointer: a 64 KiB budget keeps fewer
  // than 64 of 1,000, however high max_issues is.
  IssueOptions options;
  options.max_issues = 100000;
  options.max_issue_bytes = 64 * 1024;
  IssueCollector issues(options);
  const std::string pointer = "/" + std::string(5000, 'k');
  for (int i = 0; i < 1000; ++i) issues.add("JSON_DUPLICATE_KEY", pointer, {"a"});
  EXPECT_TRUE(issues.truncated());
  EXPECT_GT(issues.issues().size(), 0u);
  EXPECT_LT(issues.issues().size(), 64u);
  // Ignored codes do not count against it and do not truncate.
  IssueOptions ignoring = options;
  ignoring.ignored.insert("JSON_DUPLICATE_KEY");
  IssueCollector none(ignoring);
  for (int i = 0; i < 1000; ++i) none.add("JSON_DUPLICATE_KEY", pointer, {"a"});
  EXPECT_FALSE(none.truncated());
  EXPECT_TRUE(none.issues().empty());
}

TEST(IssueCollectorBytes, ZeroBudgetMeansNoByteLimit) {
  IssueOptions options;
  options.max_issue_bytes = 0;
  IssueCollector issues(options);
  const std::string pointer = "/" + std::string(5000, 'k');
  for (int i = 0; i < 1000; ++i) issues.add("JSON_DUPLICATE_KEY", pointer, {"a"});
  EXPECT_FALSE(issues.truncated());
  EXPECT_EQ(issues.issues().size(), 1000u);
}

}  // namespace

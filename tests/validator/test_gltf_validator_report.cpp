// glTF-Validator's reports folded into ours: parsing (hostile input refused
// with the pointer of the bad member), (code, place) de-duplication, the tool
// marks, our ignore/override/limits applied to theirs, and matching reports to
// assets by uri. The glTF-Validator report is written by hand from its report
// shape (../shared/specs/validator-codes.md section 2) and its duplicate-target
// rule (section 1b: every pair of channels, on the earlier one).
#include <gltf_anim/validator/gltf_validator_report.hpp>
#include <gltf_anim/validator/validate.hpp>
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

namespace {

namespace fs = std::filesystem;
using gltf_anim::gltf::FoundBy;
using gltf_anim::gltf::IssueOptions;
using gltf_anim::gltf::Severity;
using gltf_anim::validator::GltfValidatorReport;
using gltf_anim::validator::match_gltf_validator_reports;
using gltf_anim::validator::merge_gltf_validator_report;
using gltf_anim::validator::parse_gltf_validator_reports;
using gltf_anim::validator::ValidateOptions;
using gltf_anim::validator::ValidationReport;

const fs::path kDuplicates =
    fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets/invalid/channel/duplicate_targets.gltf";

// glTF-Validator 2.0.0-dev.3.10 on duplicate_targets.gltf (3 channels, one
// target): the pair check gives (0,1), (0,2), (1,2); plus an information and a
// hint of codes we do not have.
const std::string kTheirs = R"({
    "uri": "duplicate_targets.gltf",
    "mimeType": "model/gltf+json",
    "validatorVersion": "2.0.0-dev.3.10",
    "issues": {
        "numErrors": 3, "numWarnings": 0, "numInfos": 1, "numHints": 1,
        "messages": [
            {"code": "ANIMATION_DUPLICATE_TARGETS", "message": "Animation channel has the same target as channel 1.", "severity": 0, "pointer": "/animations/0/channels/0/target"},
            {"code": "ANIMATION_DUPLICATE_TARGETS", "message": "Animation channel has the same target as channel 2.", "severity": 0, "pointer": "/animations/0/channels/0/target"},
            {"code": "ANIMATION_DUPLICATE_TARGETS", "message": "Animation channel has the same target as channel 2.", "severity": 0, "pointer": "/animations/0/channels/1/target"},
            {"code": "NODE_EMPTY", "message": "Empty node encountered.", "severity": 2, "pointer": "/nodes/0"},
            {"code": "BUFFER_VIEW_TARGET_MISSING", "message": "bufferView.target should be set.", "severity": 3, "pointer": "/bufferViews/0"}
        ],
        "truncated": false
    },
    "info": {"version": "2.0", "animationCount": 1}
})";

GltfValidatorReport theirs(const std::string& text = kTheirs) {
  std::string why;
  auto r = parse_gltf_validator_reports(text, why);
  EXPECT_TRUE(r) << why;
  EXPECT_EQ(r ? r->size() : 0u, 1u);
  return r && !r->empty() ? r->front() : GltfValidatorReport{};
}

using Row =
    std::tuple<std::string, int, std::string, FoundBy>;  // code, severity, pointer, found by

std::vector<Row> rows(const ValidationReport& r) {
  std::vector<Row> out;
  for (const auto& i : r.issues)
    out.emplace_back(std::string(i.code), static_cast<int>(i.severity), i.pointer, i.found_by);
  return out;
}

TEST(GltfValidatorReport, ParsesTheReportShape) {
  const GltfValidatorReport r = theirs();
  EXPECT_EQ(r.uri, "duplicate_targets.gltf");
  ASSERT_EQ(r.messages.size(), 5u);
  EXPECT_EQ(r.messages[3].code, "NODE_EMPTY");
  EXPECT_EQ(r.messages[3].severity, Severity::kInfo);
  EXPECT_EQ(r.messages[4].severity, Severity::kHint);
  EXPECT_EQ(r.messages[4].pointer, "/bufferViews/0");
  EXPECT_FALSE(r.truncated);
}

TEST(GltfValidatorReport, MergeDeduplicatesAndMarksTheTools) {
  ValidationReport ours = gltf_anim::validator::validate_file(kDuplicates, ValidateOptions{});
  ASSERT_EQ(ours.issues.size(), 2u);  // (0,1) and (1,2): consecutive pairs
  merge_gltf_validator_report(ours, theirs(), IssueOptions{});
  const std::vector<Row> expected = {
      {"ANIMATION_DUPLICATE_TARGETS", 0, "/animations/0/channels/0/target", FoundBy::kBoth},
      {"ANIMATION_DUPLICATE_TARGETS", 0, "/animations/0/channels/1/target", FoundBy::kBoth},
      {"NODE_EMPTY", 2, "/nodes/0", FoundBy::kGltfValidator},
      {"BUFFER_VIEW_TARGET_MISSING", 3, "/bufferViews/0", FoundBy::kGltfValidator},
  };
  EXPECT_EQ(rows(ours), expected);
  EXPECT_EQ(ours.count(Severity::kError), 2u);
  EXPECT_EQ(ours.count(Severity::kInfo), 1u);
  EXPECT_EQ(ours.count(Severity::kHint), 1u);
  EXPECT_FALSE(ours.truncated);
  // Merging the same report again changes nothing.
  merge_gltf_validator_report(ours, theirs(), IssueOptions{});
  EXPECT_EQ(rows(ours), expected);
}

TEST(GltfValidatorReport, OurIgnoreOverridesAndLimitsApplyToTheirs) {
  IssueOptions options;
  options.ignored.insert("NODE_EMPTY");
  options.severity_overrides["BUFFER_VIEW_TARGET_MISSING"] = Severity::kWarning;
  ValidationReport empty;
  merge_gltf_validator_report(empty, theirs(), options);
  EXPECT_EQ(rows(empty),
            (std::vector<Row>{
                {"ANIMATION_DUPLICATE_TARGETS", 0, "/animations/0/channels/0/target",
                 FoundBy::kGltfValidator},
                {"ANIMATION_DUPLICATE_TARGETS", 0, "/animations/0/channels/1/target",
                 FoundBy::kGltfValidator},
                {"BUFFER_VIEW_TARGET_MISSING", 1, "/bufferViews/0", FoundBy::kGltfValidator},
            }));
  IssueOptions two;
  two.max_issues = 2;
  ValidationReport limited;
  merge_gltf_validator_report(limited, theirs(), two);
  EXPECT_EQ(limited.issues.size(), 2u);
  EXPECT_TRUE(limited.truncated);
}

TEST(GltfValidatorReport, TheirTruncationAndOffsets) {
  const GltfValidatorReport r = theirs(R"({"issues": {"messages": [
      {"code": "GLB_CHUNK_TOO_BIG", "message": "m", "severity": 0, "offset": 20},
      {"code": "GLB_CHUNK_TOO_BIG", "message": "m", "severity": 0, "offset": 20},
      {"code": "GLB_CHUNK_TOO_BIG", "message": "m", "severity": 0, "offset": 28}], "truncated": true}})");
  ValidationReport ours;
  merge_gltf_validator_report(ours, r, IssueOptions{});
  ASSERT_EQ(ours.issues.size(), 2u);
  EXPECT_EQ(ours.issues[0].offset, 20u);
  EXPECT_EQ(ours.issues[1].offset, 28u);
  EXPECT_TRUE(ours.truncated);
}

TEST(GltfValidatorReport, ArraysOfReports) {
  std::string why;
  const auto r = parse_gltf_validator_reports(
      R"([{"uri": "a.gltf", "issues": {"messages": []}}, {"uri": "b.glb", "issues": {"messages": []}}])",
      why);
  ASSERT_TRUE(r) << why;
  EXPECT_EQ(r->size(), 2u);
}

TEST(GltfValidatorReport, HostileReportsAreRefusedWithThePointer) {
  const std::pair<std::string, std::string> cases[] = {
      {R"({"issues": {"messages": [{"code": "X", "severity": 4, "pointer": ""}]}})",
       "/issues/messages/0/severity: "},
      {R"({"issues": {"messages": [{"code": "x y", "severity": 0}]}})",
       "/issues/messages/0/code: "},
      {R"({"issues": {"messages": [{"code": ")" + std::string(65, 'A') + R"(", "severity": 0}]}})",
       "/issues/messages/0/code: "},
      {R"({"issues": {"messages": [{"code": "X", "severity": 0, "pointer": 7}]}})",
       "/issues/messages/0/pointer: "},
      {R"({"issues": {"messages": [{"code": "X", "severity": 0, "offset": -1}]}})",
       "/issues/messages/0/offset: "},
      {R"({"issues": {"messages": [{"code": "X", "severity": 0, "message": {}}]}})",
       "/issues/messages/0/message: "},
      {R"({"issues": {"messages": {}}})", "/issues/messages: "},
      {R"({"uri": 1, "issues": {"messages": []}})", "/uri: "},
      {R"({"asset": {"version": "2.0"}})", "/issues: "},
      {R"([{"issues": {"messages": []}}, 3])", "/1: "},
      {"[]]", "Invalid JSON"},
      {std::string(100000, '[') + std::string(100000, ']'), "Nesting deeper"},
      {"{\"uri\": \"\xC3\x28\", \"issues\": {\"messages\": []}}", "Invalid JSON"},
  };
  for (const auto& [text, start] : cases) {
    std::string why;
    EXPECT_FALSE(parse_gltf_validator_reports(text, why)) << text.substr(0, 80);
    EXPECT_NE(why.find(start), std::string::npos) << why;
  }
}

TEST(GltfValidatorReport, DistinctCodesAreBounded) {
  // Codes outside our registry are interned for the process: at most 4096.
  std::string text = R"({"issues": {"messages": [)";
  for (int k = 0; k < 5000; ++k) {
    text += (k ? "," : "") + std::string(R"({"code": "FOREIGN_)") + std::to_string(k) +
            R"(", "severity": 2})";
  }
  text += "]}}";
  std::string why;
  EXPECT_FALSE(parse_gltf_validator_reports(text, why));
  EXPECT_NE(why.find("(4096)"), std::string::npos) << why;
}

TEST(GltfValidatorReport, LongTextIsCut) {
  const GltfValidatorReport r = theirs(
      R"({"issues": {"messages": [{"code": "X", "severity": 1, "message": ")" +
      std::string(100000, 'm') + R"(", "pointer": "/)" + std::string(100000, 'p') + R"("}]}})");
  ASSERT_EQ(r.messages.size(), 1u);
  EXPECT_EQ(r.messages[0].message.size(), gltf_anim::gltf::kMaxIssueTextBytes);
  EXPECT_EQ(r.messages[0].pointer.size(), gltf_anim::gltf::kMaxIssueTextBytes);
}

std::vector<GltfValidatorReport> with_uris(const std::vector<std::optional<std::string>>& uris) {
  std::vector<GltfValidatorReport> out(uris.size());
  for (std::size_t i = 0; i < uris.size(); ++i) out[i].uri = uris[i];
  return out;
}

TEST(GltfValidatorReport, ReportsMatchAssetsByUri) {
  const std::vector<std::string> assets = {"exports/a/model.gltf", "exports/b/model.gltf",
                                           "./exports/c.glb"};
  std::string why;
  auto m = match_gltf_validator_reports(
      with_uris({"a/model.gltf", "exports/c.glb", "/home/ci/repo/exports/b/model.gltf"}), assets,
      why);
  ASSERT_TRUE(m) << why;
  EXPECT_EQ(*m, (std::vector<std::size_t>{0, 2, 1}));
  EXPECT_FALSE(match_gltf_validator_reports(with_uris({"model.gltf"}), assets, why));
  EXPECT_NE(why.find("matches several validated assets"), std::string::npos) << why;
  EXPECT_FALSE(match_gltf_validator_reports(with_uris({"other.gltf"}), assets, why));
  EXPECT_NE(why.find("matches no validated asset"), std::string::npos) << why;
  // "el.gltf" is not a tail of "model.gltf": tails start after a '/'.
  EXPECT_FALSE(match_gltf_validator_reports(with_uris({"el.gltf"}), assets, why));
  EXPECT_FALSE(match_gltf_validator_reports(with_uris({std::nullopt}), assets, why));
  const auto one = match_gltf_validator_reports(with_uris({std::nullopt}), {"x.glb"}, why);
  ASSERT_TRUE(one) << why;
  EXPECT_EQ(*one, std::vector<std::size_t>{0});
}

// glTF-Validator's npm build (2.0.0-dev.3.10) gives validateBytes(..., {uri:
// "my assets/dup targets.gltf"}) a report whose uri is "my%20assets/dup%20targets.gltf"
// (RFC 3986 percent-encoding): it still names the asset.
TEST(GltfValidatorReport, PercentEncodedUrisMatchTheirAssets) {
  const std::vector<std::string> assets = {"my assets/dup targets.gltf", "x/100%.gltf", "é/ü.glb"};
  std::string why;
  auto m = match_gltf_validator_reports(
      with_uris({"my%20assets/dup%20targets.gltf", "x/100%25.gltf", "%C3%A9/%c3%bc.glb",
                 "/home/ci/my%20assets/dup%20targets.gltf"}),
      assets, why);
  ASSERT_TRUE(m) << why;
  EXPECT_EQ(*m, (std::vector<std::size_t>{0, 1, 2, 0}));
  // A '%' without two hex digits is itself; a decoded name must still be a whole name.
  m = match_gltf_validator_reports(with_uris({"x/100%.gltf"}), assets, why);
  ASSERT_TRUE(m) << why;
  EXPECT_EQ(*m, std::vector<std::size_t>{1});
  EXPECT_FALSE(match_gltf_validator_reports(with_uris({"my%20assets/dup%2"}), assets, why));
  EXPECT_NE(why.find("'my%20assets/dup%2' matches no validated asset"), std::string::npos) << why;
}

TEST(GltfValidatorReport, ReportsGoToTheirAssetAndAShardKeepsItsOwn) {
  // The whole run: 5 assets; reports of assets 3, 0, 3 and 4, in that order.
  const std::vector<std::string> run = {"a.gltf", "b.gltf", "c.gltf", "d.gltf", "e.gltf"};
  const auto reports = with_uris({"d.gltf", "a.gltf", "d.gltf", "e.gltf"});
  std::string why;
  const auto all = gltf_anim::validator::gltf_validator_reports_by_asset(reports, run, why);
  ASSERT_TRUE(all) << why;
  ASSERT_EQ(all->size(), 5u);
  EXPECT_EQ((*all)[0], (std::vector<const GltfValidatorReport*>{&reports[1]}));
  EXPECT_TRUE((*all)[1].empty());
  EXPECT_TRUE((*all)[2].empty());
  EXPECT_EQ((*all)[3], (std::vector<const GltfValidatorReport*>{&reports[0], &reports[2]}));
  EXPECT_EQ((*all)[4], (std::vector<const GltfValidatorReport*>{&reports[3]}));

  // A shard validating run assets 1, 3 and 4: its asset 0 (run 1) has none,
  // its asset 1 (run 3) two, its asset 2 (run 4) one; the report of run asset
  // 0 is another shard's and left out, not an error.
  const std::vector<std::uint64_t> positions = {1, 3, 4};
  const auto shard =
      gltf_anim::validator::gltf_validator_reports_by_shard_asset(reports, run, positions, why);
  ASSERT_TRUE(shard) << why;
  ASSERT_EQ(shard->size(), 3u);
  EXPECT_TRUE((*shard)[0].empty());
  EXPECT_EQ((*shard)[1], (std::vector<const GltfValidatorReport*>{&reports[0], &reports[2]}));
  EXPECT_EQ((*shard)[2], (std::vector<const GltfValidatorReport*>{&reports[3]}));

  // A shard with no asset of its own keeps nothing; a report that matches no
  // asset of the whole run is still refused.
  const auto none =
      gltf_anim::validator::gltf_validator_reports_by_shard_asset(reports, run, {}, why);
  ASSERT_TRUE(none) << why;
  EXPECT_TRUE(none->empty());
  EXPECT_FALSE(gltf_anim::validator::gltf_validator_reports_by_shard_asset(with_uris({"f.gltf"}),
                                                                           run, positions, why));
  EXPECT_EQ(why, "the glTF-Validator report of 'f.gltf' matches no validated asset");
}

}  // namespace

namespace gltf_anim_tail_match {

// The matching rule as the header states it, by brute force: every tail of
// every path ("a/b/c", "b/c", "c") compared as text. A second method for the
// trie, on paths small enough for it.
std::vector<std::string> tails(const std::string& p) {
  std::vector<std::string> out{p};
  for (std::size_t i = p.find('/'); i != std::string::npos; i = p.find('/', i + 1)) {
    if (i + 1 < p.size()) out.push_back(p.substr(i + 1));
  }
  return out;
}
std::string strip(std::string p) {
  while (p.rfind("./", 0) == 0) p.erase(0, 2);
  return p;
}
// nullopt: no asset or several.
std::optional<std::size_t> brute_force(const std::string& uri,
                                       const std::vector<std::string>& assets) {
  const std::string u = strip(uri);
  std::vector<std::size_t> found;
  for (std::size_t i = 0; i < assets.size(); ++i) {
    for (const std::string& t : tails(strip(assets[i]))) {
      if (t == u) {
        found.push_back(i);
        break;
      }
    }
  }
  if (found.empty()) {
    for (const std::string& t : tails(u)) {  // longest first
      for (std::size_t i = 0; i < assets.size() && found.empty(); ++i) {
        if (strip(assets[i]) == t) found.push_back(i);
      }
      if (!found.empty()) break;
    }
  }
  if (found.size() != 1) return std::nullopt;
  return found.front();
}

}  // namespace gltf_anim_tail_match

TEST(GltfValidatorReport, UriMatchingAgreesWithEveryTailComparedAsText) {
  // Paths over a tiny alphabet of components, so that tails collide often:
  // empty components ("a//b", "/abs", "dir/"), "./" prefixes, equal paths.
  const std::vector<std::string> parts = {"a", "b", "", "m.gltf", "."};
  std::vector<std::string> pool;
  std::uint32_t seed = 12345;
  auto next = [&seed] { return seed = seed * 1103515245u + 12345u; };
  for (int n = 0; n < 400; ++n) {
    std::string p;
    const int depth = 1 + static_cast<int>((next() >> 16) % 4);
    for (int k = 0; k < depth; ++k) {
      if (k) p += '/';
      p += parts[(next() >> 16) % parts.size()];
    }
    pool.push_back(p);
  }
  for (int round = 0; round < 200; ++round) {
    std::vector<std::string> assets;
    const std::size_t count = 1 + (next() >> 16) % 4;
    for (std::size_t i = 0; i < count; ++i) assets.push_back(pool[(next() >> 16) % pool.size()]);
    for (int u = 0; u < 10; ++u) {
      const std::string uri = pool[(next() >> 16) % pool.size()];
      std::string why;
      const auto got = match_gltf_validator_reports(with_uris({uri}), assets, why);
      const auto want = gltf_anim_tail_match::brute_force(uri, assets);
      ASSERT_EQ(got.has_value(), want.has_value()) << "uri '" << uri << "' " << why;
      if (got) {
        EXPECT_EQ(got->front(), *want) << "uri '" << uri << "'";
      }
    }
  }
}

// All of an asset's reports merged at once give what merging them one by one gives.
TEST(GltfValidatorReport, ManyReportsOfOneAssetMergeAsOneByOne) {
  ValidationReport one_by_one;
  one_by_one.issues.push_back({"NODE_EMPTY", Severity::kInfo, "ours", "/nodes/0", std::nullopt});
  ValidationReport at_once = one_by_one;
  std::vector<GltfValidatorReport> reports(3, theirs());
  reports[1].messages.resize(1);
  reports[2].truncated = true;
  for (const auto& r : reports) merge_gltf_validator_report(one_by_one, r, IssueOptions{});
  std::vector<const GltfValidatorReport*> all;
  for (const auto& r : reports) all.push_back(&r);
  gltf_anim::validator::merge_gltf_validator_reports(at_once, all, IssueOptions{});
  ASSERT_EQ(at_once.issues.size(), one_by_one.issues.size());
  for (std::size_t i = 0; i < at_once.issues.size(); ++i) {
    EXPECT_EQ(at_once.issues[i].code, one_by_one.issues[i].code);
    EXPECT_EQ(at_once.issues[i].pointer, one_by_one.issues[i].pointer);
    EXPECT_EQ(at_once.issues[i].found_by, one_by_one.issues[i].found_by);
  }
  EXPECT_TRUE(at_once.truncated);
  EXPECT_EQ(at_once.truncated, one_by_one.truncated);
}

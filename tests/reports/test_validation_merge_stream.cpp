// merge writes an asset as its header (read again without its messages, with
// what they hold: counts and first codes) and its messages handed to the writer
// one at a time, read again each time the format goes through them. The facts
// and the outputs below are derived by hand from the reports' text and the
// formats' rules (docs/CI.md, the writers' headers), not from the writers.
#include <gltf_anim/reports/validation_merge.hpp>
#include <gltf_anim/reports/validation_report.hpp>
#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace gr = gltf_anim::reports;
using gltf_anim::gltf::Issue;
using gltf_anim::gltf::Severity;

const std::string kHead = R"({"tool":{"name":"gltf-anim","version":"0.1.0"},"reports":[)";
const std::string kTail = R"(],"summary":{"failOn":"error"}})";

std::string message(const char* code, int severity, int k) {
  return std::string(R"({"code":")") + code + R"(","severity":)" + std::to_string(severity) +
         R"(,"message":"m)" + std::to_string(k) + R"(","pointer":"/)" + std::to_string(k) + "\"}";
}

// warning U, error A, error U, hint A: counts 2 errors, 1 warning, 0 infos, 1 hint.
const std::string kReport =
    kHead + R"({"uri":"d/a.gltf","issues":{"numErrors":2,"numWarnings":1,"numInfos":0,)" +
    R"("numHints":1,"messages":[)" + message("UNEXPECTED_PROPERTY", 1, 0) + "," +
    message("ANIMATION_DUPLICATE_TARGETS", 0, 1) + "," + message("UNEXPECTED_PROPERTY", 0, 2) +
    "," + message("ANIMATION_DUPLICATE_TARGETS", 3, 3) + R"(],"truncated":true}})" + kTail;

TEST(ValidationMergeStream, TheHeaderHoldsNoMessageAndTheirFacts) {
  const gr::MemoryReportBytes bytes(kReport);
  const gr::IndexedRun indexed = gr::index_validation_json(bytes);
  ASSERT_EQ(indexed.assets.size(), 1u);
  const gr::AssetHeader h = gr::read_asset_header_at(bytes, indexed.assets[0]);
  EXPECT_EQ(h.asset.report.uri, "d/a.gltf");
  EXPECT_TRUE(h.asset.report.truncated);
  EXPECT_TRUE(h.asset.report.issues.empty());
  EXPECT_EQ(h.facts.counts, (std::array<std::uint64_t, 4>{2, 1, 0, 1}));
  EXPECT_EQ(h.facts.first_code[0], "ANIMATION_DUPLICATE_TARGETS");
  EXPECT_EQ(h.facts.first_code[1], "UNEXPECTED_PROPERTY");
  EXPECT_EQ(h.facts.first_code[3], "ANIMATION_DUPLICATE_TARGETS");
  // The first issue at or above: an error at index 1, or the warning at index 0.
  EXPECT_EQ(h.facts.first_reaching(Severity::kError), "ANIMATION_DUPLICATE_TARGETS");
  EXPECT_EQ(h.facts.first_reaching(Severity::kWarning), "UNEXPECTED_PROPERTY");
  EXPECT_EQ(h.facts.at_or_above(Severity::kError), 2u);
  EXPECT_EQ(h.facts.at_or_above(Severity::kInfo), 3u);
  EXPECT_TRUE(h.facts.reaches(Severity::kError));
}

TEST(ValidationMergeStream, MessagesAreHandedOnInOrderEachTimeTheyAreAskedFor) {
  const gr::MemoryReportBytes bytes(kReport);
  const gr::IndexedRun indexed = gr::index_validation_json(bytes);
  std::vector<std::string> seen;
  for (int pass = 0; pass < 2; ++pass) {
    gr::for_each_issue_at(bytes, indexed.assets[0],
                          [&seen](const Issue& i) { seen.push_back(i.pointer + " " + i.message); });
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"/0 m0", "/1 m1", "/2 m2", "/3 m3", "/0 m0", "/1 m1",
                                            "/2 m2", "/3 m3"}));
}

// Issues made one at a time and gone after their call: a writer that kept one
// would read freed memory (ASan), and it is told how many times it was read.
class Generated final : public gr::IssueSource {
 public:
  Generated(int n, int distinct) : n_(n), distinct_(distinct) {}
  void for_each(const std::function<void(const Issue&)>& each) const override {
    ++passes;
    for (int k = 0; k < n_; ++k) {
      Issue i{"UNEXPECTED_PROPERTY", Severity::kWarning,
              "message " + std::to_string(k % distinct_), "/" + std::to_string(k), std::nullopt};
      each(i);
    }
  }
  mutable int passes = 0;

 private:
  int n_, distinct_;
};

gr::IssueFacts warnings(std::uint64_t n) {
  gr::IssueFacts f;
  f.counts[1] = n;
  f.first_code[1] = "UNEXPECTED_PROPERTY";
  return f;
}

TEST(ValidationMergeStream, TextCountsDistinctMessagesPastTheListedOnes) {
  // 30 issues, 25 distinct messages: 0-4 twice (k and k + 25), the others once.
  std::ostringstream out;
  gltf_anim::validator::ValidationReport header;
  header.uri = "a.gltf";
  const Generated issues(30, 25);
  {
    const auto w = gr::make_validation_writer(out, gr::ValidationFormat::kText);
    w->asset(header, warnings(30), issues);
    w->end();
  }
  std::string expected =
      "a.gltf: ok (0 errors, 30 warnings, 0 infos, 0 hints)\n"
      "  warning UNEXPECTED_PROPERTY x30, 25 distinct messages:\n";
  for (int k = 0; k < 20; ++k) {
    expected += k < 5 ? "    x2, first at /" + std::to_string(k) + ", /" + std::to_string(k + 25)
                      : "    at /" + std::to_string(k);
    expected += ": message " + std::to_string(k) + "\n";
  }
  // Listed: 5 x 2 + 15 x 1 = 25 issues; left: 5 messages, 5 issues.
  expected +=
      "    ... 5 more distinct messages (5 issues) not listed here: the first 20 are; --format "
      "json lists every issue\n"
      "1 asset, 0 failed; 0 errors, 30 warnings, 0 infos, 0 hints\n";
  EXPECT_EQ(out.str(), expected);
  EXPECT_EQ(issues.passes, 1);
}

TEST(ValidationMergeStream, JunitListsFailingLinesThenTheOthersFromTwoReadings) {
  std::ostringstream out;
  gltf_anim::validator::ValidationReport header;
  header.uri = "d/a.gltf";
  const Generated issues(2, 2);
  {
    const auto w = gr::make_validation_writer(out, gr::ValidationFormat::kJunit);
    w->asset(header, warnings(2), issues);
    w->end();
  }
  // Warnings under --fail-on error: no failure, both lines in system-out.
  EXPECT_NE(out.str().find("    <testcase classname=\"d\" name=\"a.gltf\" file=\"d/a.gltf\">\n"
                           "      <system-out>Warning UNEXPECTED_PROPERTY at /0: message 0\n"
                           "Warning UNEXPECTED_PROPERTY at /1: message 1\n"
                           "</system-out>\n    </testcase>\n"),
            std::string::npos)
      << out.str();
  EXPECT_EQ(issues.passes, 1);  // no failing issue: the failing lines are not looked for
}

}  // namespace

// read_validation_json reads a report in pieces (its messages each from a DOM of
// its own, merge's assets again from their places) and still answers as a DOM
// walk of the whole text: the first of two members of one name counts, a
// message's error comes after its asset's members before "messages" and an
// asset's error after the report's root members. The expected refusals are what
// that walk meets first in each text.
#include <gltf_anim/reports/validation_merge.hpp>
#include <gltf_anim/reports/validation_report.hpp>
#include <gtest/gtest.h>

#include <string>

namespace {

namespace gr = gltf_anim::reports;

const std::string kHead = R"({"tool":{"name":"gltf-anim","version":"0.1.0"},"reports":[)";
const std::string kTail = R"(],"summary":{"failOn":"error"}})";
const std::string kIssues = R"("numErrors":0,"numWarnings":1,"numInfos":0,"numHints":0,"truncated":false)";
const std::string kMessage =
    R"({"code":"UNEXPECTED_PROPERTY","severity":1,"message":"m","pointer":"/a"})";

std::string refusal(const std::string& reports) {
  try {
    gr::read_validation_json(kHead + reports + kTail);
  } catch (const gr::ReportFormatError& e) {
    return e.what();
  }
  return "read";
}

TEST(ValidationJsonPieces, RefusalsAreThoseOfADomWalk) {
  // The second "messages" and the second "issues" are never read.
  EXPECT_EQ(refusal(R"({"uri":"a","issues":{"messages":[)" + kMessage + R"(],"messages":7,)" +
                    kIssues + R"(},"issues":5})"),
            "read");
  // A first "issues" that is not an object is the one read, whatever follows.
  EXPECT_EQ(refusal(R"({"uri":"a","issues":7,"issues":{"messages":[{"code":"X"}]}})"),
            "at '/reports/0/issues': not an object");
  // A bad message is met after the asset's uri...
  EXPECT_EQ(refusal(R"({"issues":{"messages":[{"code":"X"}]},"uri":5})"),
            "at '/reports/0/uri': not a string");
  // ...and before its counts.
  EXPECT_EQ(refusal(R"({"uri":"a","issues":{"messages":[)" + kMessage + R"(,{"code":"X"}]}})"),
            "at '/reports/0/issues/messages/1/code': unknown issue code 'X'");
  // An asset that is an array holds no "issues" to read, whatever came before it.
  EXPECT_EQ(refusal(R"({"uri":"a","issues":{"messages":[)" + kMessage + "]," + kIssues + R"(}},)" +
                    R"([{"issues":{"messages":[{"code":"X"}]}}])"),
            "at '/reports/1': not an object");
  // Counts are checked against the messages read one by one.
  EXPECT_EQ(refusal(R"({"uri":"a","issues":{"messages":[)" + kMessage + "," + kMessage + "]," +
                    kIssues + "}}"),
            "at '/reports/0/issues/numWarnings': does not match the messages");
}

TEST(ValidationJsonPieces, AnAssetReadAgainFromItsPlaceIsTheAssetRead) {
  const std::string text = kHead + R"({"uri":"a","issues":{"messages":[)" + kMessage + "," +
                           kMessage + R"(],"numErrors":0,"numWarnings":2,"numInfos":0,)" +
                           R"("numHints":0,"truncated":false}},{"uri":"b","issues":{"messages":[],)" +
                           R"("numErrors":0,"numWarnings":0,"numInfos":0,"numHints":0,)" +
                           R"("truncated":true}})" + kTail;
  const gr::MemoryReportBytes bytes(text);
  const gr::IndexedRun indexed = gr::index_validation_json(bytes);
  ASSERT_EQ(indexed.assets.size(), 2u);
  EXPECT_TRUE(indexed.run.assets.empty());
  // Each place is its asset's object, brace to brace, and its message count.
  EXPECT_EQ(text.substr(indexed.assets[0].offset, 7), R"({"uri":)");
  EXPECT_EQ(text[indexed.assets[0].offset + indexed.assets[0].length - 1], '}');
  EXPECT_EQ(text.substr(indexed.assets[1].offset, 11), R"({"uri":"b",)");
  EXPECT_EQ(indexed.assets[1].offset + indexed.assets[1].length, text.size() - kTail.size());
  EXPECT_EQ(indexed.assets[0].messages, 2u);
  EXPECT_EQ(indexed.assets[1].messages, 0u);
  const gr::ReadAsset a = gr::read_asset_at(bytes, indexed.assets[0]);
  EXPECT_EQ(a.report.uri, "a");
  EXPECT_EQ(a.report.issues.size(), 2u);
  const gr::ReadAsset b = gr::read_asset_at(bytes, indexed.assets[1]);
  EXPECT_EQ(b.report.uri, "b");
  EXPECT_TRUE(b.report.truncated);
  // A place that is not an asset's object (the file changed) is refused.
  gr::IndexedAsset moved = indexed.assets[1];
  moved.offset += 1;
  moved.length -= 1;
  EXPECT_THROW(gr::read_asset_at(bytes, moved), gr::ReportFormatError);
}

}  // namespace

// UTF-8 of text that reaches reports (gltf_anim/text/utf8.hpp), and the loader's
// refusal of JSON strings that decode to something that is not UTF-8.
// Expected values: Unicode 15, section 3.9 (Table 3-7, well-formed sequences;
// Table 3-8, U+FFFD for maximal subparts) and RFC 8259 section 7.
#include <gltf_anim/text/utf8.hpp>

#include <gtest/gtest.h>

#include "strict_text.hpp"
#include "validator/load_test_util.hpp"

namespace {

using namespace gltf_anim::gltf;
using namespace load_test;
namespace text = gltf_anim::text;

const std::string R = "\xEF\xBF\xBD";  // U+FFFD

TEST(TextUtf8, DecodesWellFormedSequences) {
  EXPECT_EQ(text::decode_utf8("A", 0).value, U'A');
  EXPECT_EQ(text::decode_utf8("\xC3\xA9", 0).value, U'\u00E9');
  EXPECT_EQ(text::decode_utf8("\xE2\x82\xAC", 0).value, U'\u20AC');
  EXPECT_EQ(text::decode_utf8("\xF0\x9F\x98\x80", 0).value, U'\U0001F600');
  EXPECT_EQ(text::decode_utf8("\xF4\x8F\xBF\xBF", 0).value, U'\U0010FFFF');
  EXPECT_EQ(text::decode_utf8("\xF0\x9F\x98\x80", 0).length, 4u);
  EXPECT_TRUE(text::is_valid_utf8("\xED\x9F\xBF"));  // U+D7FF, the last before the surrogates
  EXPECT_TRUE(text::is_valid_utf8(std::string("a\0b", 3)));
}

TEST(TextUtf8, RefusesSurrogatesOverlongsAndBeyondU10FFFF) {
  EXPECT_EQ(text::first_invalid_utf8("ok\xED\xA0\x80"), 2u);      // U+D800
  EXPECT_EQ(text::first_invalid_utf8("\xED\xB0\x80"), 0u);        // U+DC00
  EXPECT_EQ(text::first_invalid_utf8("\xC0\xAF"), 0u);            // overlong '/'
  EXPECT_EQ(text::first_invalid_utf8("\xE0\x80\xAF"), 0u);        // overlong '/'
  EXPECT_EQ(text::first_invalid_utf8("\xF4\x90\x80\x80"), 0u);    // U+110000
  EXPECT_EQ(text::first_invalid_utf8("ab\xE2\x82"), 2u);          // cut short
  EXPECT_EQ(text::first_invalid_utf8("\x80"), 0u);                // lone continuation
}

TEST(TextUtf8, RepairReplacesEachMaximalSubpart) {
  // Table 3-8's example: 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64 gives
  // a, FFFD (F1 80 80), FFFD (E1 80), FFFD (C2), b, FFFD, c, FFFD, FFFD, d.
  EXPECT_EQ(text::repair_utf8("\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64"),
            "a" + R + R + R + "b" + R + "c" + R + R + "d");
  // A surrogate's lead ED takes no A0-BF: three replacements (as browsers do).
  EXPECT_EQ(text::repair_utf8("\xED\xB0\x80"), R + R + R);
  EXPECT_EQ(text::repair_utf8("caf\xC3\xA9"), "caf\xC3\xA9");
  EXPECT_EQ(text::repair_utf8("x\xE2\x82"), "x" + R);
}

TEST(TextUtf8, TruncatesOnCodePointBoundaries) {
  const std::string ellipsis = "\xE2\x80\xA6";
  EXPECT_EQ(text::truncate_utf8("abc", 3), "abc");
  EXPECT_EQ(text::truncate_utf8("abcd", 3), "abc" + ellipsis);
  // é is two bytes: 5 bytes hold two of them, not two and a half.
  EXPECT_EQ(text::truncate_utf8("\xC3\xA9\xC3\xA9\xC3\xA9", 5), "\xC3\xA9\xC3\xA9" + ellipsis);
  EXPECT_EQ(text::truncate_utf8("\xF0\x9F\x98\x80", 3), ellipsis);
  EXPECT_EQ(text::truncate_utf8("a\xFF", 10), "a" + R);
}

void expect_invalid_json(std::string_view json, std::string_view message_part) {
  IssueCollector issues;
  const LoadedAsset a = load_text(json, issues);
  EXPECT_EQ(a.document, nullptr) << json;
  ASSERT_EQ(issues.issues().size(), 1u) << json;
  EXPECT_EQ(issues.issues()[0].code, "INVALID_JSON");
  EXPECT_NE(issues.issues()[0].message.find(message_part), std::string::npos) << issues.issues()[0].message;
}

TEST(LoadJson, LoneSurrogateEscapesAreInvalidJson) {
  // RFC 8259 section 7 allows "\udc00" in the grammar but it names no
  // character: the decoded string would not be UTF-8 (glTF requires UTF-8).
  expect_invalid_json(R"({"asset":{"version":"2.0"},"extras":"\udc00"})", "surrogate");
  expect_invalid_json(R"({"asset":{"version":"2.0"},"extras":"a\udfffb"})", "surrogate");
  expect_invalid_json(R"({"asset":{"version":"2.0"},"\udc00":1})", "surrogate");
  expect_invalid_json(R"({"asset":{"version":"2.0"},"extras":"\ud800"})", "surrogate");
  expect_invalid_json(R"({"asset":{"version":"2.0"},"extras":"\ud800\u0041"})", "surrogate");
  // A pair is one character, U+1F600.
  IssueCollector issues;
  const LoadedAsset a = load_text(R"({"asset":{"version":"2.0"},"extras":"\ud83d\ude00"})", issues);
  ASSERT_NE(a.document, nullptr);
  EXPECT_TRUE(issues.issues().empty());
  EXPECT_EQ(std::string((*a.document)["extras"].GetString()), "\xF0\x9F\x98\x80");
}

TEST(LoadJson, QuotedUrisAreCutOnCodePointBoundaries) {
  // 63 bytes, then two-byte characters: the quote stops before the first one
  // rather than in its middle, and says that it was cut.
  const std::string uri = "data:" + std::string(58, 'a') + "\xC3\xA9\xC3\xA9\xC3\xA9";
  IssueCollector issues;
  load_text(R"({"asset":{"version":"2.0"},"buffers":[{"byteLength":1,"uri":")" + uri + "\"}]}", issues);
  ASSERT_FALSE(issues.issues().empty());
  const std::string& m = issues.issues()[0].message;
  EXPECT_TRUE(strict_text::utf8(m)) << m;
  EXPECT_NE(m.find("data:" + std::string(58, 'a') + "\xE2\x80\xA6"), std::string::npos) << m;
}

TEST(TextUtf8, MessageArgumentsAreRepairedAndCutOnCharacterBoundaries) {
  // 1024 bytes hold 512 two-byte characters; the 513th is cut and marked.
  std::string long_arg;
  for (int k = 0; k < 2000; ++k) long_arg += "\xC3\xA9";
  const std::string m = format_message("a {0} b {1}", {long_arg, "x\xFFy"});
  std::string expected = "a ";
  for (int k = 0; k < 512; ++k) expected += "\xC3\xA9";
  expected += "\xE2\x80\xA6 b x" + R + "y";
  EXPECT_EQ(m, expected);
}

}  // namespace

// The JSON layer of the loader: hostile text must give one INVALID_JSON at ""
// (or a named limit issue), a null document, and return promptly.
#include <gltf_anim/gltf/json.hpp>
#include <rapidjson/document.h>
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <chrono>
#include <cmath>

#include "validator/load_test_util.hpp"

namespace {

using namespace gltf_anim::gltf;
using namespace load_test;

void expect_invalid_json(std::string_view text, std::string_view message_part = {}) {
  IssueCollector issues;
  const LoadedAsset a = load_text(text, issues);
  EXPECT_EQ(a.document, nullptr);
  EXPECT_EQ(a.mime_type, MimeType::kNone);
  ASSERT_EQ(issues.issues().size(), 1u) << text.substr(0, 40);
  const Issue& i = issues.issues()[0];
  EXPECT_EQ(i.code, "INVALID_JSON");
  EXPECT_EQ(i.pointer, "");
  EXPECT_FALSE(i.offset.has_value());
  if (!message_part.empty()) {
    EXPECT_NE(i.message.find(message_part), std::string::npos) << i.message;
  }
}

TEST(LoadJson, ValidTextGivesDocumentAndMimeType) {
  IssueCollector issues;
  const LoadedAsset a = load_text(R"({"asset":{"version":"2.0"}})", issues);
  ASSERT_NE(a.document, nullptr);
  EXPECT_EQ(a.mime_type, MimeType::kGltfJson);
  EXPECT_EQ(mime_type_name(a.mime_type), "model/gltf+json");
  EXPECT_TRUE(issues.issues().empty());
  EXPECT_EQ(a.uri, "test.gltf");
}

TEST(LoadJson, EmptyFile) { expect_invalid_json("", "empty"); }
TEST(LoadJson, WhitespaceOnly) { expect_invalid_json("  \n\t ", "empty"); }
TEST(LoadJson, TruncatedText) { expect_invalid_json(R"({"asset":{"version":"2.)"); }
TEST(LoadJson, TrailingGarbage) { expect_invalid_json(R"({"asset":{}} x)", "offset 13"); }

TEST(LoadJson, InvalidUtf8) {
  // 0xC3 0x28: a 2-byte lead followed by a non-continuation byte.
  expect_invalid_json("{\"name\":\"\xC3\x28\"}", "Invalid UTF-8 in a string");
  // An overlong encoding of '/' (0xC0 0xAF) is invalid UTF-8 too.
  expect_invalid_json("{\"name\":\"\xC0\xAF\"}", "Invalid UTF-8 in a string");
}

TEST(LoadJson, NulByteAfterDocumentIsRejected) {
  // RapidJSON would stop at the NUL and accept "{}".
  const std::string text("{}\0{}", 5);
  expect_invalid_json(text, "NUL character (at line 1, column 3; byte offset 2)");
}

TEST(LoadJson, ByteOrderMarkIsRejectedWithClearMessage) {
  expect_invalid_json("\xEF\xBB\xBF{}", "byte order mark");
}

TEST(LoadJson, NumberOutOfDoubleRange) {
  expect_invalid_json(R"({"a":1e400})", "too big");
  expect_invalid_json(R"({"a":-1.5e309})", "too big");
}

TEST(LoadJson, NumbersAreReadExactlyAndTypedAsRapidJsonTypesThem) {
  // Expected doubles are the correctly rounded values of the decimal text
  // (IEEE 754 round-to-nearest), written as C++ literals the compiler rounds.
  IssueCollector issues;
  const LoadedAsset a = load_text(
      R"({"n":[0e40,-0e+300,0.000e-5,0.1,1e-400,5e-324,2.2250738585072011e-308,)"
      R"(1e23,-2147483648,-2147483649,4294967295,4294967296,)"
      R"(18446744073709551615,18446744073709551616,-9223372036854775809,-0,1.0,1e2]})",
      issues);
  ASSERT_NE(a.document, nullptr);
  EXPECT_TRUE(issues.issues().empty());
  const gltf_anim::json::Value& n = (*a.document)["n"];
  ASSERT_EQ(n.Size(), 18u);
  // RapidJSON 1.1.0's full-precision parser read "0e40" as 2.36e21 (fuzz_glb).
  EXPECT_EQ(n[0].GetDouble(), 0.0);
  EXPECT_EQ(n[1].GetDouble(), 0.0);
  EXPECT_TRUE(std::signbit(n[1].GetDouble()));
  EXPECT_EQ(n[2].GetDouble(), 0.0);
  EXPECT_EQ(n[3].GetDouble(), 0.1);
  EXPECT_EQ(n[4].GetDouble(), 0.0);  // underflow gives 0, as in RapidJSON
  EXPECT_EQ(n[5].GetDouble(), 5e-324);
  EXPECT_EQ(n[6].GetDouble(), 2.2250738585072011e-308);
  EXPECT_EQ(n[7].GetDouble(), 1e23);
  EXPECT_TRUE(n[8].IsInt());
  EXPECT_EQ(n[8].GetInt(), -2147483647 - 1);
  EXPECT_TRUE(n[9].IsInt64() && !n[9].IsInt());
  EXPECT_EQ(n[9].GetInt64(), -2147483649LL);
  EXPECT_TRUE(n[10].IsUint() && !n[10].IsInt());
  EXPECT_EQ(n[10].GetUint(), 4294967295u);
  EXPECT_TRUE(n[11].IsUint64() && !n[11].IsUint());
  EXPECT_EQ(n[11].GetUint64(), 4294967296ULL);
  EXPECT_TRUE(n[12].IsUint64());
  EXPECT_EQ(n[12].GetUint64(), 18446744073709551615ULL);
  EXPECT_TRUE(n[13].IsDouble());  // beyond 64 bits: a double, as in RapidJSON
  EXPECT_EQ(n[13].GetDouble(), 18446744073709551616.0);
  EXPECT_TRUE(n[14].IsDouble());
  EXPECT_EQ(n[14].GetDouble(), -9223372036854775809.0);
  EXPECT_TRUE(n[15].IsInt());
  EXPECT_EQ(n[15].GetInt(), 0);
  EXPECT_TRUE(n[16].IsDouble());
  EXPECT_EQ(n[16].GetDouble(), 1.0);
  EXPECT_TRUE(n[17].IsDouble());
  EXPECT_EQ(n[17].GetDouble(), 100.0);
}

TEST(LoadJson, IndicesBeyond2To53StayParseable) {
  // Valid JSON: the loader keeps it; an index this large simply resolves to nothing.
  IssueCollector issues;
  const LoadedAsset a =
      load_text(R"({"accessors":[{"bufferView":9007199254740993,"componentType":5126,"count":1,"type":"SCALAR"}]})",
                issues);
  ASSERT_NE(a.document, nullptr);
  ASSERT_EQ(a.accessors.size(), 1u);
  EXPECT_EQ(a.accessors[0].buffer_view, 9007199254740993u);
  check_buffers_and_accessors(a, issues);
  const Issue* i = find(issues, "UNRESOLVED_REFERENCE");
  ASSERT_NE(i, nullptr);
  EXPECT_EQ(i->pointer, "/accessors/0/bufferView");
}

TEST(LoadJson, DeepNesting200000IsRefusedQuickly) {
  const std::size_t depth = 200000;
  std::string text(depth, '[');
  text.append(depth, ']');
  const auto start = std::chrono::steady_clock::now();
  expect_invalid_json(text, "Nesting deeper than 64 levels.");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(LoadJson, DeepObjectsUnclosedAreRefusedToo) {
  std::string text;
  for (int i = 0; i < 200000; ++i) text += "{\"a\":";
  expect_invalid_json(text, "Nesting deeper than 64 levels.");
}

TEST(LoadJson, NestingAtTheLimitIsAccepted) {
  LoadOptions options;
  options.max_json_depth = 5;
  std::string ok = "[[[[[]]]]]";        // 5 levels
  std::string too_deep = "[[[[[[]]]]]]";  // 6 levels
  IssueCollector a_issues;
  EXPECT_NE(load_text(ok, a_issues, options).document, nullptr);
  EXPECT_TRUE(a_issues.issues().empty());
  IssueCollector b_issues;
  EXPECT_EQ(load_text(too_deep, b_issues, options).document, nullptr);
  EXPECT_TRUE(b_issues.has("INVALID_JSON"));
}

TEST(LoadJson, LargeButAllowedDepthUsesNoRecursion) {
  // 100,000 levels allowed: RapidJSON's iterative reader and the heap-held
  // document stack must cope without touching the C++ stack limit.
  LoadOptions options;
  options.max_json_depth = 200000;
  const std::size_t depth = 100000;
  std::string text(depth, '[');
  text.append(depth, ']');
  IssueCollector issues;
  const LoadedAsset a = load_text(text, issues, options);
  ASSERT_NE(a.document, nullptr);
  EXPECT_TRUE(issues.issues().empty());
}

TEST(LoadJson, ValueCountLimit) {
  LoadOptions options;
  options.max_json_values = 10;
  IssueCollector ok;  // the array and 9 numbers: 10 values
  EXPECT_NE(load_text("[1,2,3,4,5,6,7,8,9]", ok, options).document, nullptr);
  EXPECT_TRUE(ok.issues().empty());
  IssueCollector over;  // 11 values; keys count too
  EXPECT_EQ(load_text("[1,2,3,4,5,6,7,8,9,10]", over, options).document, nullptr);
  ASSERT_EQ(codes(over), std::vector<std::string>{"JSON_TOO_MANY_VALUES"});
  EXPECT_EQ(over.issues()[0].pointer, "");
  IssueCollector keys;
  EXPECT_EQ(load_text(R"({"a":1,"b":2,"c":3,"d":4,"e":5,"f":6})", keys, options).document, nullptr);
  EXPECT_TRUE(keys.has("JSON_TOO_MANY_VALUES"));
}

TEST(LoadJson, DuplicateKeysAreReportedWithPointer) {
  IssueCollector issues;
  const LoadedAsset a = load_text(
      R"({"asset":{"version":"2.0","version":"2.0"},"nodes":[{},{"a/b":1,"a/b":2,"a/b":3}]})", issues);
  ASSERT_NE(a.document, nullptr);
  ASSERT_EQ(issues.issues().size(), 2u);
  EXPECT_EQ(issues.issues()[0].code, "JSON_DUPLICATE_KEY");
  EXPECT_EQ(issues.issues()[0].pointer, "/asset/version");
  EXPECT_EQ(issues.issues()[0].severity, Severity::kWarning);
  // A name repeated three times is one issue; '/' escaped as ~1 (RFC 6901).
  EXPECT_EQ(issues.issues()[1].pointer, "/nodes/1/a~1b");
}

TEST(LoadJson, FileAboveLimitIsRefusedBeforeReading) {
  LoadOptions options;
  options.max_file_bytes = 10;
  IssueCollector issues;
  const LoadedAsset a = load_text(R"({"asset":{"version":"2.0"}})", issues, options);
  EXPECT_EQ(a.document, nullptr);
  ASSERT_EQ(codes(issues), std::vector<std::string>{"FILE_TOO_LARGE"});
  EXPECT_EQ(issues.issues()[0].pointer, "");

  const fs::path dir = scratch("json_limit");
  write_file(dir / "big.gltf", R"({"asset":{"version":"2.0"}})");
  IssueCollector file_issues;
  const LoadedAsset b = load_file(dir / "big.gltf", options, file_issues);
  EXPECT_EQ(b.document, nullptr);
  EXPECT_EQ(codes(file_issues), std::vector<std::string>{"FILE_TOO_LARGE"});
}

TEST(LoadJson, MissingFileIsIoError) {
  IssueCollector issues;
  const LoadedAsset a = load_file(scratch("json_missing") / "nope.gltf", {}, issues);
  EXPECT_EQ(a.document, nullptr);
  ASSERT_EQ(codes(issues), std::vector<std::string>{"IO_ERROR"});
  EXPECT_EQ(issues.issues()[0].pointer, "");
}

TEST(LoadJson, FolderAsInputIsIoError) {
  IssueCollector issues;
  const LoadedAsset a = load_file(scratch("json_folder"), {}, issues);
  EXPECT_EQ(a.document, nullptr);
  EXPECT_EQ(codes(issues), std::vector<std::string>{"IO_ERROR"});
}

TEST(LoadJson, FifoOrDeviceAsInputIsIoErrorWithoutBlocking) {
  const fs::path dir = scratch("json_fifo");
  ASSERT_EQ(::mkfifo((dir / "pipe.gltf").c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  IssueCollector fifo;
  EXPECT_EQ(load_file(dir / "pipe.gltf", {}, fifo).document, nullptr);
  EXPECT_EQ(codes(fifo), std::vector<std::string>{"IO_ERROR"});
  IssueCollector zero;  // an endless device is refused before any read
  EXPECT_EQ(load_file("/dev/zero", {}, zero).document, nullptr);
  EXPECT_EQ(codes(zero), std::vector<std::string>{"IO_ERROR"});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(LoadJson, WrongTypesDoNotCrashTheViews) {
  IssueCollector issues;
  const LoadedAsset a = load_text(
      R"({"buffers":{"a":1},"bufferViews":[1,"x",null,{"buffer":-1,"byteLength":1.5}],
          "accessors":[[],{"componentType":"FLOAT","count":-1,"type":7,"sparse":[]}]})",
      issues);
  ASSERT_NE(a.document, nullptr);
  EXPECT_TRUE(a.buffers.empty());  // not an array: no views
  ASSERT_EQ(a.buffer_views.size(), 4u);
  for (const auto& bv : a.buffer_views) EXPECT_FALSE(bv.well_formed);
  ASSERT_EQ(a.accessors.size(), 2u);
  EXPECT_FALSE(a.accessors[1].well_formed);
  EXPECT_TRUE(a.accessors[1].has_sparse_member);
  EXPECT_EQ(a.accessor_status[1], DataStatus::kMalformed);
  // Malformed objects are the schema check's to report, not the layout check's.
  check_buffers_and_accessors(a, issues);
  EXPECT_TRUE(issues.issues().empty());
}

TEST(LoadJson, RootThatIsNotAnObject) {
  IssueCollector issues;
  const LoadedAsset a = load_text("[1,2,3]", issues);
  ASSERT_NE(a.document, nullptr);  // valid JSON; the schema check reports the type
  EXPECT_TRUE(a.accessors.empty());
  EXPECT_TRUE(issues.issues().empty());
}

}  // namespace

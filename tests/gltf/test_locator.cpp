// The locator: byte ranges, lines and columns counted by hand from the test
// texts (each count is written beside the text it comes from).
#include <gltf_anim/gltf/locator.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using gltf_anim::gltf::locate;
using gltf_anim::gltf::Location;
using gltf_anim::gltf::TextPlace;
using gltf_anim::gltf::TextRange;

TextRange range(std::uint64_t b0, std::uint64_t l0, std::uint64_t c0, std::uint64_t b1,
                std::uint64_t l1, std::uint64_t c1) {
  return TextRange{TextPlace{b0, l0, c0}, TextPlace{b1, l1, c1}};
}

// Line 1 `{` (bytes 0-1 with its newline).
// Line 2, from byte 2: `  "asset": {"version": "2.0"},`
//   "asset" bytes 4-10 (columns 3-9), its value `{` byte 13 (column 12) to `}`
//   byte 30 (column 29); "version" bytes 14-22 (columns 13-21); "2.0" bytes
//   25-29 (columns 24-28); newline byte 32.
// Line 3, from byte 33: `  "nodes": [ {"name": "a\"b"}, 7 ]`
//   "nodes" bytes 35-41 (columns 3-9); `[` byte 44 (column 12); `{` byte 46
//   (column 14); "name" bytes 47-52 (columns 15-20); "a\"b" bytes 55-60
//   (columns 23-28); `}` byte 61 (column 29); `7` byte 64 (column 32); `]`
//   byte 66 (column 34); newline byte 67.
// Line 4: `}` byte 68.
const std::string kText =
    "{\n"
    "  \"asset\": {\"version\": \"2.0\"},\n"
    "  \"nodes\": [ {\"name\": \"a\\\"b\"}, 7 ]\n"
    "}";

TEST(Locator, ObjectMembersHaveValueAndNameRanges) {
  const auto asset = locate(kText, "/asset");
  ASSERT_TRUE(asset);
  EXPECT_EQ(asset->value, range(13, 2, 12, 31, 2, 30));
  ASSERT_TRUE(asset->name);
  EXPECT_EQ(*asset->name, range(4, 2, 3, 11, 2, 10));

  const auto version = locate(kText, "/asset/version");
  ASSERT_TRUE(version);
  EXPECT_EQ(version->value, range(25, 2, 24, 30, 2, 29));
  EXPECT_EQ(*version->name, range(14, 2, 13, 23, 2, 22));
  EXPECT_EQ(kText.substr(25, 5), "\"2.0\"");
}

TEST(Locator, ArrayElementsHaveNoName) {
  const std::vector<std::string> pointers = {"/nodes", "/nodes/0", "/nodes/0/name", "/nodes/1", ""};
  const auto found = locate(kText, pointers);
  ASSERT_EQ(found.size(), 5u);
  ASSERT_TRUE(found[0] && found[1] && found[2] && found[3] && found[4]);
  EXPECT_EQ(found[0]->value, range(44, 3, 12, 67, 3, 35));
  EXPECT_EQ(*found[0]->name, range(35, 3, 3, 42, 3, 10));
  EXPECT_EQ(found[1]->value, range(46, 3, 14, 62, 3, 30));
  EXPECT_FALSE(found[1]->name);
  // The escaped quote is inside the string: the value ends at the last quote.
  EXPECT_EQ(found[2]->value, range(55, 3, 23, 61, 3, 29));
  EXPECT_EQ(*found[2]->name, range(47, 3, 15, 53, 3, 21));
  EXPECT_EQ(found[3]->value, range(64, 3, 32, 65, 3, 33));
  // The document: from `{` to the final `}` (line 4, column 1).
  EXPECT_EQ(found[4]->value, range(0, 1, 1, 69, 4, 2));
  EXPECT_FALSE(found[4]->name);
}

TEST(Locator, WhatIsNotThereIsNotFound) {
  const std::vector<std::string> pointers = {
      "/nodes/2",   // past the end
      "/nodes/01",  // not the canonical index
      "/nodes/-",   // the "append" index names no value
      "/asset/generator",
      "asset",            // not a pointer: no leading '/'
      "/nodes/0/name/x",  // below a string
      "/asset/version/0",
  };
  for (const auto& found : locate(kText, pointers)) EXPECT_FALSE(found);
}

// One line: `{"a/b":1,"m~n":2,"\u00e9":3,"é":[0],"a/b":9}`
//   `1` byte 7, `2` byte 15, "\u00e9" bytes 17-24 with `3` at byte 26, "é"
//   bytes 28-31 (é is two bytes, 29-30), `[` byte 33, the second "a/b" bytes
//   37-41 and its `9` at byte 43. Columns are bytes + 1 up to byte 30, then
//   bytes (one continuation byte before).
const std::string kEscapes = "{\"a/b\":1,\"m~n\":2,\"\\u00e9\":3,\"\xC3\xA9\":[0],\"a/b\":9}";

TEST(Locator, PointerEscapesAndJsonEscapesMeetInTheName) {
  const std::vector<std::string> pointers = {"/a~1b",       "/m~0n", "/\xC3\xA9",
                                             "/\xC3\xA9/0", "/a~2b", "/a~"};
  const auto found = locate(kEscapes, pointers);
  ASSERT_TRUE(found[0]);
  EXPECT_EQ(found[0]->value, range(7, 1, 8, 8, 1, 9));  // the first "a/b", not the one at 43
  ASSERT_TRUE(found[1]);
  EXPECT_EQ(found[1]->value, range(15, 1, 16, 16, 1, 17));
  ASSERT_TRUE(found[2]);  // "\u00e9" is é: the first member of that name
  EXPECT_EQ(found[2]->value, range(26, 1, 27, 27, 1, 28));
  EXPECT_EQ(*found[2]->name, range(17, 1, 18, 25, 1, 26));
  // The first member named é holds no element 0: the first /é/0 in the text is
  // in the second member (`0` at byte 34, column 34).
  ASSERT_TRUE(found[3]);
  EXPECT_EQ(found[3]->value, range(34, 1, 34, 35, 1, 35));
  EXPECT_FALSE(found[4]);  // ~2 is no escape
  EXPECT_FALSE(found[5]);
}

TEST(Locator, ColumnsCountCodePoints) {
  // `{"é":1,"b":2}`: "é" bytes 1-4, `1` byte 6 (column 6), "b" bytes 8-10,
  // `2` byte 12 (column 12).
  const auto b = locate("{\"\xC3\xA9\":1,\"b\":2}", "/b");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->value, range(12, 1, 12, 13, 1, 13));
  EXPECT_EQ(*b->name, range(8, 1, 8, 11, 1, 11));
}

TEST(Locator, CrLfEndsALine) {
  // `{` `\r` `\n`, then line 2 `"a": 1}`: `1` at byte 8, column 6.
  const auto a = locate("{\r\n\"a\": 1}", "/a");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->value, range(8, 2, 6, 9, 2, 7));
  EXPECT_EQ(*a->name, range(3, 2, 1, 6, 2, 4));
}

TEST(Locator, BrokenTextFindsWhatEndedBeforeTheBreak) {
  // `{"a": [1, 2`: `1` byte 7, `2` byte 10; the array never closes.
  const std::vector<std::string> pointers = {"/a/0", "/a/1", "/a", ""};
  const auto found = locate("{\"a\": [1, 2", pointers);
  ASSERT_TRUE(found[0]);
  EXPECT_EQ(found[0]->value.begin.byte, 7u);
  ASSERT_TRUE(found[1]);
  EXPECT_EQ(found[1]->value, range(10, 1, 11, 11, 1, 12));
  EXPECT_FALSE(found[2]);
  EXPECT_FALSE(found[3]);
  EXPECT_FALSE(locate("", ""));
  EXPECT_FALSE(locate("{\"a\" 1}", "/a"));          // no ':'
  EXPECT_FALSE(locate("{\"a\":1 \"b\":2}", "/b"));  // no ','
}

TEST(Locator, EmptyContainersAndStringsWithBrackets) {
  // `{"s":"]}{[","e":{},"f":[],"g":[{}]}`: "s" value bytes 5-10, "e" value
  // bytes 16-17, "f" value bytes 23-24, "g" value bytes 30-33, its element
  // bytes 31-32.
  const std::string text = "{\"s\":\"]}{[\",\"e\":{},\"f\":[],\"g\":[{}]}";
  const std::vector<std::string> pointers = {"/s", "/e", "/f", "/g", "/g/0"};
  const auto found = locate(text, pointers);
  ASSERT_TRUE(found[0] && found[1] && found[2] && found[3] && found[4]);
  EXPECT_EQ(found[0]->value.begin.byte, 5u);
  EXPECT_EQ(found[0]->value.end.byte, 11u);
  EXPECT_EQ(found[1]->value.begin.byte, 16u);
  EXPECT_EQ(found[1]->value.end.byte, 18u);
  EXPECT_EQ(found[2]->value.begin.byte, 23u);
  EXPECT_EQ(found[2]->value.end.byte, 25u);
  EXPECT_EQ(found[3]->value.begin.byte, 30u);
  EXPECT_EQ(found[3]->value.end.byte, 34u);
  EXPECT_EQ(found[4]->value.begin.byte, 31u);
  EXPECT_EQ(found[4]->value.end.byte, 33u);
}

TEST(Locator, DeepNestingNeedsNoRecursion) {
  // 100,000 nested arrays around 5 (a recursive walk would need megabytes of
  // stack): the 5 is byte 100,000 (column 100,001).
  constexpr std::size_t kDepth = 100000;
  const std::string text = std::string(kDepth, '[') + "5" + std::string(kDepth, ']');
  std::string pointer;
  for (std::size_t k = 0; k < kDepth; ++k) pointer += "/0";
  const auto five = locate(text, pointer);
  ASSERT_TRUE(five);
  EXPECT_EQ(five->value, range(kDepth, 1, kDepth + 1, kDepth + 1, 1, kDepth + 2));
}

TEST(Locator, ManyPointersOnePass) {
  // `[0,1,...,N-1]`: every element found, each at its own offset.
  constexpr std::size_t kCount = 20000;
  std::string text = "[";
  std::vector<std::string> pointers;
  std::vector<std::uint64_t> offsets;
  for (std::size_t k = 0; k < kCount; ++k) {
    if (k != 0) text += ',';
    offsets.push_back(text.size());
    text += std::to_string(k);
    pointers.push_back("/" + std::to_string(kCount - 1 - k));  // asked in reverse order
  }
  text += "]";
  const auto found = locate(text, pointers);
  for (std::size_t k = 0; k < kCount; ++k) {
    ASSERT_TRUE(found[k]);
    EXPECT_EQ(found[k]->value.begin.byte, offsets[kCount - 1 - k]);
  }
}

}  // namespace

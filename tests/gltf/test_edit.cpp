// The edit session's JSON edits and encoder. Edited texts are read back with
// rapidjson's DOM (a second parser), untouched bytes compared by hand;
// encoded bytes and bounds are derived by hand from the spec's formulas.
#include <gltf_anim/gltf/edit.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/pointer.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace {

using gltf_anim::gltf::ComponentType;
using gltf_anim::gltf::Container;
using gltf_anim::gltf::Edit;
using gltf_anim::gltf::ElementFormat;
using gltf_anim::gltf::ElementType;
using gltf_anim::gltf::encode;
using gltf_anim::gltf::OutputNames;
using gltf_anim::gltf::Source;

// A .gltf source of `json` alone (no buffers); it views `json`, which must outlive it.
Source text_source(const std::string& json) {
  Source s;
  s.container = Container::kGltf;
  s.file_bytes = {reinterpret_cast<const std::uint8_t*>(json.data()), json.size()};
  s.json_text = json;
  return s;
}

std::string build_text(const Edit& edit, std::string& why) {
  const auto out = edit.build(OutputNames{"out", {}}, why);
  if (!out) return "<failed: " + why + ">";
  EXPECT_TRUE(out->buffers.empty());
  return std::string(out->main.begin(), out->main.end());
}

gltf_anim::json::Document parse(const std::string& text) {
  gltf_anim::json::Document d;
  d.Parse(text.c_str());
  EXPECT_FALSE(d.HasParseError()) << text;
  return d;
}

const std::string kText =
    "{\n  \"asset\": {\"version\": \"2.0\", \"extras\": {\"keep\": 1.50}},\n"
    "  \"extensions\": {\"EXT_unknown\": {\"a\": [1, 2]}},\n"
    "  \"nodes\": [ {\"name\": \"n0\", \"translation\": [0, 0, 0]}, {} ],\n"
    "  \"animations\": []\n}";

TEST(Edit, NoEditGivesTheSameBytes) {
  const Edit edit(text_source(kText));
  std::string why;
  EXPECT_TRUE(edit.empty());
  EXPECT_EQ(build_text(edit, why), kText);
}

TEST(Edit, SetPutAppendRemoveAsSplices) {
  Edit edit(text_source(kText));
  edit.set("/nodes/0/translation/1", "2.5");
  edit.put_member("/nodes/0", "name", "\"renamed\"");  // present: set
  edit.put_member("/nodes/1", "scale", "[2,2,2]");     // absent, empty object: inserted
  edit.put_member("/asset", "generator", "\"g\"");     // absent: inserted after the others
  edit.append("/animations", "{\"channels\":[],\"samplers\":[]}");
  edit.append("/animations", "{}");
  edit.append("/extensionsUsed", "\"EXT_a\"");  // absent: created
  edit.append("/extensionsUsed", "\"EXT_b\"");
  edit.remove("/asset/extras");
  std::string why;
  const std::string out = build_text(edit, why);
  // Every byte outside the edits as it was (spacing, 1.50, the unknown extension).
  EXPECT_EQ(out,
            "{\n  \"asset\": {\"version\": \"2.0\",\"generator\":\"g\"},\n"
            "  \"extensions\": {\"EXT_unknown\": {\"a\": [1, 2]}},\n"
            "  \"nodes\": [ {\"name\": \"renamed\", \"translation\": [0, 2.5, 0]}, "
            "{\"scale\":[2,2,2]} ],\n"
            "  \"animations\": [{\"channels\":[],\"samplers\":[]},{}]"
            ",\"extensionsUsed\":[\"EXT_a\",\"EXT_b\"]\n}");
  const gltf_anim::json::Document d = parse(out);
  EXPECT_EQ(gltf_anim::json::Pointer("/extensionsUsed/1").Get(d)->GetString(),
            std::string("EXT_b"));
  EXPECT_EQ(gltf_anim::json::Pointer("/animations").Get(d)->Size(), 2u);
  EXPECT_EQ(gltf_anim::json::Pointer("/asset/extras").Get(d), nullptr);
}

TEST(Edit, RemovingFirstMiddleLastAndEveryMemberKeepsValidJson) {
  const std::string text = "{\"o\": {\"a\": 1, \"b\": 2, \"c\": 3, \"d\": 4}, \"p\": {\"x\": 0}}";
  struct Case {
    std::vector<std::string> removed;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {{"/o/a"}, "{\"o\": {\"b\": 2, \"c\": 3, \"d\": 4}, \"p\": {\"x\": 0}}"},
      {{"/o/b"}, "{\"o\": {\"a\": 1, \"c\": 3, \"d\": 4}, \"p\": {\"x\": 0}}"},
      {{"/o/d"}, "{\"o\": {\"a\": 1, \"b\": 2, \"c\": 3}, \"p\": {\"x\": 0}}"},
      {{"/o/a", "/o/b"}, "{\"o\": {\"c\": 3, \"d\": 4}, \"p\": {\"x\": 0}}"},
      {{"/o/a", "/o/b", "/o/c", "/o/d"}, "{\"o\": {}, \"p\": {\"x\": 0}}"},
      {{"/p/x", "/o/c"}, "{\"o\": {\"a\": 1, \"b\": 2, \"d\": 4}, \"p\": {}}"},
  };
  for (const Case& c : cases) {
    Edit edit(text_source(text));
    for (const std::string& p : c.removed) edit.remove(p);
    std::string why;
    const std::string out = build_text(edit, why);
    EXPECT_EQ(out, c.expected) << c.removed.size() << " " << c.removed[0];
    parse(out);
  }
}

TEST(Edit, InsertIntoAnObjectWhoseMembersAreAllRemovedHasNoStrayComma) {
  const std::string text = "{\"o\": {\"a\": 1, \"b\": 2}}";  // outlives the session
  Edit edit(text_source(text));
  edit.remove("/o/a");
  edit.remove("/o/b");
  edit.put_member("/o", "c", "3");
  std::string why;
  const std::string out = build_text(edit, why);
  EXPECT_EQ(out, "{\"o\": {\"c\":3}}");
}

TEST(Edit, ConflictsAndMissingValuesAreRefusedWithThePointer) {
  std::string why;
  {
    Edit edit(text_source(kText));
    edit.set("/nodes/0/translation/0", "1");
    edit.set("/nodes/0/translation/0", "2");
    EXPECT_FALSE(edit.build(OutputNames{"out", {}}, why));
    EXPECT_NE(why.find("/nodes/0/translation/0"), std::string::npos) << why;
  }
  {
    Edit edit(text_source(kText));
    edit.remove("/nodes/0/translation");
    edit.set("/nodes/0/translation/2", "1");  // inside the removed value
    EXPECT_FALSE(edit.build(OutputNames{"out", {}}, why));
    EXPECT_NE(why.find("conflicting"), std::string::npos) << why;
  }
  {
    Edit edit(text_source(kText));
    edit.set("/nodes/5", "{}");
    EXPECT_FALSE(edit.build(OutputNames{"out", {}}, why));
    EXPECT_NE(why.find("/nodes/5"), std::string::npos) << why;
  }
  {
    Edit edit(text_source(kText));
    edit.remove("/nodes/0/translation/0");  // an array element: not a member
    EXPECT_FALSE(edit.build(OutputNames{"out", {}}, why));
  }
  {
    Edit edit(text_source(kText));
    edit.append("/nodes/0/name", "1");  // a string, not an array
    EXPECT_FALSE(edit.build(OutputNames{"out", {}}, why));
  }
}

TEST(Edit, MemberNamesAreEscapedInPointersAndText) {
  const std::string text = "{\"a/b\": {\"x~y\": 1}}";
  Edit edit(text_source(text));
  edit.put_member("/a~1b", "x~y", "2");
  edit.put_member("/a~1b", "q\"r", "3");
  std::string why;
  const std::string out = build_text(edit, why);
  EXPECT_EQ(out, "{\"a/b\": {\"x~y\": 2,\"q\\\"r\":3}}");
}

float as_float(const std::vector<std::uint8_t>& bytes, std::size_t k) {
  float f;
  std::memcpy(&f, bytes.data() + 4 * k, 4);
  return f;
}

TEST(Encode, FloatRoundsToNearestAndBoundsPerComponent) {
  std::string why;
  const std::vector<double> values = {0.1, -2, 3, 4, 1.0 / 3.0, -7};
  const auto data = encode(values, ElementFormat{ComponentType::kFloat, ElementType::kVec2, false}, why);
  ASSERT_TRUE(data) << why;
  EXPECT_EQ(data->count, 3u);
  ASSERT_EQ(data->bytes.size(), 24u);
  EXPECT_EQ(as_float(data->bytes, 0), 0.1f);
  EXPECT_EQ(as_float(data->bytes, 4), 1.0f / 3.0f);
  // Component 0: 0.1f, 3, 1/3f; component 1: -2, 4, -7.
  EXPECT_EQ(data->min, (std::vector<std::string>{"0.1", "-7"}));
  EXPECT_EQ(data->max, (std::vector<std::string>{"3", "4"}));
}

TEST(Encode, NormalizedTypesStoreRoundedIntegersAndIntegerBounds) {
  std::string why;
  // Signed short: round(v x 32767); -1 -> -32767, 0.5 -> 16384 (16383.5 rounds away).
  const auto s = encode(std::vector<double>{-1, 0.5, 0, 1},
                        ElementFormat{ComponentType::kShort, ElementType::kVec4, true}, why);
  ASSERT_TRUE(s) << why;
  ASSERT_EQ(s->bytes.size(), 8u);
  auto i16 = [&](std::size_t k) {
    return static_cast<std::int16_t>(s->bytes[2 * k] | s->bytes[2 * k + 1] << 8);
  };
  EXPECT_EQ(i16(0), -32767);
  EXPECT_EQ(i16(1), 16384);
  EXPECT_EQ(i16(2), 0);
  EXPECT_EQ(i16(3), 32767);
  EXPECT_EQ(s->min, (std::vector<std::string>{"-32767", "16384", "0", "32767"}));
  // Unsigned byte: round(v x 255): 0.2 -> 51.
  const auto b = encode(std::vector<double>{0.2, 1},
                        ElementFormat{ComponentType::kUnsignedByte, ElementType::kScalar, true}, why);
  ASSERT_TRUE(b) << why;
  EXPECT_EQ(b->bytes, (std::vector<std::uint8_t>{51, 255}));
  EXPECT_EQ(b->min, (std::vector<std::string>{"51"}));
  EXPECT_EQ(b->max, (std::vector<std::string>{"255"}));
}

TEST(Encode, RefusesWhatTheFormatCannotHold) {
  std::string why;
  EXPECT_FALSE(encode(std::vector<double>{1.5},
                      ElementFormat{ComponentType::kUnsignedByte, ElementType::kScalar, true}, why));
  EXPECT_FALSE(encode(std::vector<double>{-0.5},
                      ElementFormat{ComponentType::kUnsignedShort, ElementType::kScalar, true}, why));
  EXPECT_FALSE(
      encode(std::vector<double>{NAN}, ElementFormat{ComponentType::kFloat, ElementType::kScalar, false}, why));
  EXPECT_FALSE(encode(std::vector<double>{1e300},
                      ElementFormat{ComponentType::kFloat, ElementType::kScalar, false}, why));
  EXPECT_FALSE(
      encode(std::vector<double>{1, 2}, ElementFormat{ComponentType::kFloat, ElementType::kVec3, false}, why));
  EXPECT_FALSE(
      encode(std::vector<double>{}, ElementFormat{ComponentType::kFloat, ElementType::kScalar, false}, why));
  EXPECT_FALSE(encode(std::vector<double>{1}, ElementFormat{ComponentType::kUnsignedInt, ElementType::kScalar, false}, why));
  // A type outside the spec's seven cannot be named; a normalized matrix can, and is refused.
  EXPECT_FALSE(encode(std::vector<double>{0, 0, 0, 0}, ElementFormat{ComponentType::kShort, ElementType::kMat2, true}, why));
  EXPECT_EQ(why, "matrices are encoded as FLOAT only");
}

}  // namespace

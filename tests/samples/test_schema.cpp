// docs/samples.schema.json and the samples readers agree: every file of a corpus
// of hand-written samples files, valid and malformed, is accepted by both or
// refused by both at the same JSON pointer (the schema checked with valijson on
// the whole document); the golden files of the suite follow the schema; and
// the skeleton the reader hands to the schema check holds the file's objects
// without their samples.
#include <gltf_anim/samples/samples.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "samples_schema.hpp"

namespace gs = gltf_anim::samples;
namespace fs = std::filesystem;

namespace {

struct Case {
  const char* name;
  std::string json;
  const char* pointer;  // where both refuse it; nullptr: both accept it
};

// A file with one channel whose text is `channel` (inside animation 0).
std::string with_channel(const std::string& channel) {
  return R"({"asset": "a.gltf", "animations": [{"index": 0, "channels": [)" + channel + "]}]}";
}
std::string with_sample(const std::string& sample) {
  return with_channel(
      R"({"target": "/nodes/0/translation", "samples": [{"t": 0, "value": [1, 2, 3]}, )" + sample +
      "]}");
}

const Case kCases[] = {
    {"minimal", R"({"asset": "a.gltf", "animations": []})", nullptr},
    {"everything",
     with_channel(R"({"index": 2, "target": "/nodes/0/rotation", "interpolation": "LINEAR",
        "sampler": 1, "measure": "angle", "keyframes": [0, 1.5], "samples": [{"t": -0.5, "value": [0, 0, 0, 1]},
        {"t": 1e3, "value": [null, -0, 5e-324, 1]}], "myExtra": {"x": [1]}})"),
     nullptr},
    {"unknown members anywhere",
     R"({"asset": "a", "x": [[{}]], "animations": [{"index": 0, "y": 1, "channels": [
        {"target": "/w", "samples": [{"t": 0, "value": [1], "z": "s"}]}]}]})",
     nullptr},
    {"an engine's error and an unsupported channel",
     R"({"asset": "a", "error": "e", "animations": [{"index": 0, "channels": [
        {"target": "/w", "unsupported": "morph weights", "samples": []}]}]})",
     nullptr},
    {"error empty", R"({"asset": "a", "error": "", "animations": []})", "/error"},
    {"error not a string", R"({"asset": "a", "error": 1, "animations": []})", "/error"},
    {"unsupported empty", with_channel(R"({"target": "/w", "unsupported": "", "samples": []})"),
     "/animations/0/channels/0/unsupported"},
    {"unsupported not a string",
     with_channel(R"({"target": "/w", "unsupported": ["x"], "samples": []})"),
     "/animations/0/channels/0/unsupported"},
    {"root not an object", "[]", ""},
    {"no asset", R"({"animations": []})", ""},
    {"asset not a string", R"({"asset": 1, "animations": []})", "/asset"},
    {"generator not a string", R"({"asset": "a", "generator": [], "animations": []})",
     "/generator"},
    {"no animations", R"({"asset": "a"})", ""},
    {"animations not an array", R"({"asset": "a", "animations": {}})", "/animations"},
    {"animation not an object", R"({"asset": "a", "animations": [3]})", "/animations/0"},
    {"animation without index", R"({"asset": "a", "animations": [{"channels": []}]})",
     "/animations/0"},
    {"animation index negative", R"({"asset": "a", "animations": [{"index": -1, "channels": []}]})",
     "/animations/0/index"},
    {"animation index fractional",
     R"({"asset": "a", "animations": [{"index": 0.5, "channels": []}]})", "/animations/0/index"},
    {"animation name not a string",
     R"({"asset": "a", "animations": [{"index": 0, "name": 7, "channels": []}]})",
     "/animations/0/name"},
    {"animation without channels", R"({"asset": "a", "animations": [{"index": 0}]})",
     "/animations/0"},
    {"channel not an object", with_channel(R"({"target": "/w", "samples": []}, [1])"),
     "/animations/0/channels/1"},
    {"channel without target", with_channel(R"({"samples": []})"), "/animations/0/channels/0"},
    {"channel without samples", with_channel(R"({"target": "/w"})"), "/animations/0/channels/0"},
    {"target not a pointer", with_channel(R"({"target": "nodes/0/rotation", "samples": []})"),
     "/animations/0/channels/0/target"},
    {"interpolation not a string",
     with_channel(R"({"target": "/w", "interpolation": 1, "samples": []})"),
     "/animations/0/channels/0/interpolation"},
    {"sampler not an index", with_channel(R"({"target": "/w", "sampler": "0", "samples": []})"),
     "/animations/0/channels/0/sampler"},
    {"channel index negative", with_channel(R"({"index": -3, "target": "/w", "samples": []})"),
     "/animations/0/channels/0/index"},
    {"measure unknown", with_channel(R"({"target": "/w", "measure": "degrees", "samples": []})"),
     "/animations/0/channels/0/measure"},
    {"keyframes not an array", with_channel(R"({"target": "/w", "keyframes": 0, "samples": []})"),
     "/animations/0/channels/0/keyframes"},
    {"keyframe not a number",
     with_channel(R"({"target": "/w", "keyframes": [0, "1"], "samples": []})"),
     "/animations/0/channels/0/keyframes/1"},
    {"samples not an array", with_channel(R"({"target": "/w", "samples": {}})"),
     "/animations/0/channels/0/samples"},
    {"sample not an object", with_sample("[0, 1]"), "/animations/0/channels/0/samples/1"},
    {"sample without t", with_sample(R"({"value": [1, 2, 3]})"),
     "/animations/0/channels/0/samples/1"},
    {"sample without value", with_sample(R"({"t": 1})"), "/animations/0/channels/0/samples/1"},
    {"t not a number", with_sample(R"({"t": "1", "value": [1, 2, 3]})"),
     "/animations/0/channels/0/samples/1/t"},
    {"t null", with_sample(R"({"t": null, "value": [1, 2, 3]})"),
     "/animations/0/channels/0/samples/1/t"},
    {"value not an array", with_sample(R"({"t": 1, "value": 1})"),
     "/animations/0/channels/0/samples/1/value"},
    {"value empty", with_sample(R"({"t": 1, "value": []})"),
     "/animations/0/channels/0/samples/1/value"},
    {"value component a string", with_sample(R"({"t": 1, "value": [1, "2", 3]})"),
     "/animations/0/channels/0/samples/1/value/1"},
    {"value component an array", with_sample(R"({"t": 1, "value": [1, [2], 3]})"),
     "/animations/0/channels/0/samples/1/value/1"},
};

// Rules the schema cannot state (its description lists them): the reader alone refuses.
const Case kReaderOnly[] = {
    {"duplicate animation index", R"({"asset": "a", "animations": [{"index": 0, "channels": []},
        {"index": 0, "channels": []}]})",
     "/animations/1/index"},
    {"duplicate target",
     with_channel(R"({"target": "/w", "samples": []}, {"target": "/w", "samples": []})"),
     "/animations/0/channels/1/target"},
    {"duplicate t", with_sample(R"({"t": 0, "value": [1, 2, 3]})"),
     "/animations/0/channels/0/samples/1/t"},
    {"mixed widths", with_sample(R"({"t": 1, "value": [1, 2]})"),
     "/animations/0/channels/0/samples/1/value"},
    {"unsupported with samples",
     with_channel(R"({"target": "/w", "unsupported": "x", "samples": [{"t": 0, "value": [1]}]})"),
     "/animations/0/channels/0/samples"},
};

std::optional<gs::detail::SchemaViolation> schema_check(const std::string& json) {
  gltf_anim::json::Document d;
  d.Parse(json.c_str());
  EXPECT_FALSE(d.HasParseError()) << json;
  return gs::detail::samples_schema_violation(d);
}

// The reader's verdict: nullptr when it accepts, else where it refuses.
std::optional<std::string> reader_check(const std::string& json) {
  try {
    gs::read_samples_json(json);
    return std::nullopt;
  } catch (const gs::SamplesFormatError& e) { return e.location(); }
}

}  // namespace

TEST(SamplesSchema, SchemaAndReaderAgreeOnEveryCase) {
  for (const Case& c : kCases) {
    const auto schema = schema_check(c.json);
    const auto reader = reader_check(c.json);
    if (c.pointer == nullptr) {
      EXPECT_FALSE(schema) << c.name << ": the schema refuses at " << schema->pointer << ": "
                           << schema->message;
      EXPECT_FALSE(reader) << c.name << ": the reader refuses at " << *reader;
      continue;
    }
    ASSERT_TRUE(schema) << c.name << ": the schema accepts it";
    ASSERT_TRUE(reader) << c.name << ": the reader accepts it";
    EXPECT_EQ(schema->pointer, c.pointer) << c.name << ": " << schema->message;
    EXPECT_EQ(*reader, c.pointer) << c.name;
  }
}

TEST(SamplesSchema, RulesBeyondTheSchemaAreTheReadersAndDocumented) {
  const std::string text(gs::detail::samples_schema_text());
  for (const char* rule : {"animation indices are unique", "targets are unique within an animation",
                           "times are unique within a channel", "the same number of components",
                           "a channel declared unsupported has no samples"}) {
    EXPECT_NE(text.find(rule), std::string::npos) << rule;
  }
  for (const Case& c : kReaderOnly) {
    EXPECT_FALSE(schema_check(c.json)) << c.name;
    const auto reader = reader_check(c.json);
    ASSERT_TRUE(reader) << c.name;
    EXPECT_EQ(*reader, c.pointer) << c.name;
  }
}

TEST(SamplesSchema, EmbeddedSchemaIsTheDocumentedFile) {
  std::ifstream in(fs::path(GLTF_ANIM_SOURCE_DIR) / "docs/samples.schema.json", std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), gs::detail::samples_schema_text());
}

TEST(SamplesSchema, EveryGoldenFileOfTheSuiteFollowsIt) {
  std::size_t files = 0;
  for (const auto& e :
       fs::directory_iterator(fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets/valid")) {
    const std::string name = e.path().filename().string();
    if (!name.ends_with(".samples.json")) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const auto v = schema_check(text.str());
    EXPECT_FALSE(v) << name << ": " << v->pointer << ": " << v->message;
    ++files;
  }
  EXPECT_GT(files, 50u);
}

// The reader's events through the piecewise check: each root, animation and
// channel object against the schema, its samples and keyframes left to the
// reader, unknown members left out, the pointer the file's own.
std::optional<gs::detail::SchemaViolation> piecewise(const std::string& json) {
  gs::detail::SamplesSkeleton skeleton;
  struct Events : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, Events> {
    gs::detail::SamplesSkeleton& s;
    explicit Events(gs::detail::SamplesSkeleton& sk) : s(sk) {}
    bool Null() {
      s.scalar(gltf_anim::json::Value());
      return true;
    }
    bool Bool(bool b) {
      s.scalar(gltf_anim::json::Value(b));
      return true;
    }
    bool RawNumber(const char* t, rapidjson::SizeType n, bool) {
      s.number(std::string_view(t, n));
      return true;
    }
    bool String(const char* t, rapidjson::SizeType n, bool) {
      s.string(std::string_view(t, n));
      return true;
    }
    bool StartObject() {
      s.start(true);
      return true;
    }
    bool Key(const char* t, rapidjson::SizeType n, bool) {
      s.key(std::string_view(t, n));
      return true;
    }
    bool EndObject(rapidjson::SizeType) { return s.end(); }
    bool StartArray() {
      s.start(false);
      return true;
    }
    bool EndArray(rapidjson::SizeType) { return s.end(); }
  } events(skeleton);
  gltf_anim::json::Reader reader;
  rapidjson::StringStream stream(json.c_str());
  const bool parsed =
      !reader.Parse<rapidjson::kParseNumbersAsStringsFlag>(stream, events).IsError();
  EXPECT_EQ(parsed, !skeleton.violation()) << json;
  return skeleton.violation();
}

TEST(SamplesSchema, PiecewiseCheckFindsWhatTheWholeSchemaFinds) {
  // Everything the schema says about the objects, outside samples and keyframes.
  for (const Case& c : kCases) {
    const std::string_view name = c.name;
    if (name.starts_with("sample") || name.starts_with("t ") || name.starts_with("value") ||
        name.starts_with("keyframe ")) {
      continue;  // inside samples or keyframes: the reader's
    }
    const auto v = piecewise(c.json);
    if (c.pointer == nullptr) {
      EXPECT_FALSE(v) << c.name << ": " << v->pointer << ": " << v->message;
    } else {
      ASSERT_TRUE(v) << c.name;
      EXPECT_EQ(v->pointer, c.pointer) << c.name;
    }
  }
  // Samples and unknown members are not looked at; pointers count the pieces before.
  EXPECT_FALSE(piecewise(with_sample(R"({"t": "x", "value": []})")));
  const std::string two = R"({"asset": "a", "x": [[{"samples": [1], "measure": 5}]], "animations": [
      {"index": 0, "channels": [{"target": "/a", "samples": []}]},
      {"index": 1, "y": {"z": 1}, "channels": [{"target": "/a", "samples": [], "w": null},
        {"target": "/b", "measure": "degrees", "keyframes": [0], "samples": [{"t": 0, "value": [1]}]}]}]})";
  const auto v = piecewise(two);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->pointer, "/animations/1/channels/1/measure");
}

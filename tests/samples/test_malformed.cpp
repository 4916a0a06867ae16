// Samples files: hostile and malformed input gives SamplesFormatError with the
// location of the problem (JSON pointer / CSV line and field), never a crash.
#include <gltf_anim/samples/samples.hpp>

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace gs = gltf_anim::samples;

namespace {

struct Bad {
  const char* name;
  std::string text;
  std::string location;
  std::string message_part;
};

// A valid document with one place to break: `S` is a sample, `C` extra
// channel members, `A` extra animation members.
std::string doc(const std::string& samples, const std::string& channel_extra = "",
                const std::string& anim_extra = "") {
  std::string s = R"({"asset": "a.gltf", "animations": [{"index": 0)";
  s += anim_extra;
  s += R"(, "channels": [{"target": "/nodes/0/translation")";
  s += channel_extra;
  s += R"(, "samples": [)";
  s += samples;
  s += "]}]}]}";
  return s;
}

void PrintTo(const Bad& b, std::ostream* os) { *os << b.name; }

class MalformedJson : public ::testing::TestWithParam<Bad> {};

TEST_P(MalformedJson, GivesPointerAndMessage) {
  const Bad& b = GetParam();
  try {
    gs::read_samples_json(b.text, {}, "in.json");
    FAIL() << "accepted: " << b.text;
  } catch (const gs::SamplesFormatError& e) {
    EXPECT_EQ(e.location(), b.location) << e.what();
    EXPECT_NE(e.message().find(b.message_part), std::string::npos) << e.what();
    EXPECT_EQ(e.file(), "in.json");
    EXPECT_EQ(std::string(e.what()).rfind("in.json: ", 0), 0u) << e.what();
  }
}

const std::string kS0 = R"({"t": 0, "value": [1, 2, 3]})";
const std::string kS = R"(/animations/0/channels/0/samples)";

INSTANTIATE_TEST_SUITE_P(
    Samples, MalformedJson,
    ::testing::Values(
        Bad{"empty", "", "", "empty document"},
        Bad{"whitespace", "  \n ", "", "empty document"},
        Bad{"array_root", "[]", "", "must be a JSON object"},
        Bad{"number_root", "42", "", "must be a JSON object"},
        Bad{"truncated", "{", "line 1, column 2", "invalid JSON"},
        Bad{"truncated_line2", "{\n\"asset\": \"a\",\n", "line 3, column 1", "invalid JSON"},
        Bad{"trailing", doc(kS0) + " {}", "line 1, column 144", "invalid JSON"},
        Bad{"no_asset", R"({"animations": []})", "", "missing member \"asset\""},
        Bad{"no_animations", R"({"asset": "a"})", "", "missing member \"animations\""},
        Bad{"asset_number", R"({"asset": 1, "animations": []})", "/asset", "must be a string"},
        Bad{"asset_object", R"({"asset": {}, "animations": []})", "/asset", "must be a string"},
        Bad{"animations_object", R"({"asset": "a", "animations": {}})", "/animations",
            "must be an array"},
        Bad{"animation_number", R"({"asset": "a", "animations": [{"index": 0, "channels": []}, 1]})",
            "/animations/1", "must be an object"},
        Bad{"no_index", R"({"asset": "a", "animations": [{"channels": []}]})", "/animations/0",
            "missing member \"index\""},
        Bad{"negative_index", R"({"asset": "a", "animations": [{"index": -1, "channels": []}]})",
            "/animations/0/index", "non-negative integer"},
        Bad{"fractional_index", R"({"asset": "a", "animations": [{"index": 1.5, "channels": []}]})",
            "/animations/0/index", "non-negative integer"},
        Bad{"duplicate_animation",
            R"({"asset": "a", "animations": [{"index": 2, "channels": []}, {"index": 2, "channels": []}]})",
            "/animations/1/index", "duplicate animation index 2"},
        Bad{"duplicate_member", R"({"asset": "a", "asset": "b", "animations": []})", "/asset",
            "duplicate member"},
        Bad{"no_target", R"({"asset": "a", "animations": [{"index": 0, "channels": [{"samples": []}]}]})",
            "/animations/0/channels/0", "missing member \"target\""},
        Bad{"no_samples",
            R"({"asset": "a", "animations": [{"index": 0, "channels": [{"target": "/nodes/0/scale"}]}]})",
            "/animations/0/channels/0", "missing member \"samples\""},
        Bad{"target_twice", doc(kS0, R"(, "target": "x")"),
            "/animations/0/channels/0/target", "duplicate member"},
        Bad{"target_not_pointer",
            R"({"asset": "a", "animations": [{"index": 0, "channels": [{"target": "nodes/0", "samples": []}]}]})",
            "/animations/0/channels/0/target", "starting with '/'"},
        Bad{"sampler_string", doc(kS0, R"(, "sampler": "0")"), "/animations/0/channels/0/sampler",
            "non-negative integer"},
        Bad{"measure_unknown", doc(kS0, R"(, "measure": "relative")"),
            "/animations/0/channels/0/measure", "\"angle\" or \"absolute\""},
        Bad{"keyframes_string", doc(kS0, R"(, "keyframes": [0, "1"])"),
            "/animations/0/channels/0/keyframes/1", "must be a number"},
        Bad{"keyframes_null", doc(kS0, R"(, "keyframes": [null])"),
            "/animations/0/channels/0/keyframes/0", "must be a number"},
        Bad{"keyframes_object", doc(kS0, R"(, "keyframes": {})"),
            "/animations/0/channels/0/keyframes", "array of numbers"},
        Bad{"sample_not_object", doc(kS0 + ", [1]"), kS + "/1", "must be an object"},
        Bad{"no_t", doc(R"({"value": [1]})"), kS + "/0", "missing member \"t\""},
        Bad{"no_value", doc(R"({"t": 1})"), kS + "/0", "missing member \"value\""},
        Bad{"t_string", doc(kS0 + R"(, {"t": "1", "value": [1, 2, 3]})"), kS + "/1/t",
            "must be a number"},
        Bad{"t_null", doc(R"({"t": null, "value": [1]})"), kS + "/0/t", "must be a number"},
        Bad{"t_huge", doc(R"({"t": 1e999, "value": [1]})"), "line 1, column 115", "too big"},
        Bad{"value_huge", doc(R"({"t": 0, "value": [1, -1e400]})"), "line 1, column 131",
            "too big"},
        Bad{"t_underflow", doc(R"({"t": 1e-400, "value": [1]})"), kS + "/0/t",
            "out of the range"},
        Bad{"value_underflow", doc(R"({"t": 0, "value": [1, -1e-999]})"), kS + "/0/value/1",
            "out of the range"},
        Bad{"index_huge",
            R"({"asset": "a", "animations": [{"index": 99999999999999999999, "channels": []}]})",
            "/animations/0/index", "non-negative integer"},
        Bad{"value_empty", doc(R"({"t": 0, "value": []})"), kS + "/0/value", "at least one"},
        Bad{"value_scalar", doc(R"({"t": 0, "value": 1})"), kS + "/0/value", "array of numbers"},
        Bad{"value_string", doc(R"({"t": 0, "value": [1, "2"]})"), kS + "/0/value/1",
            "must be a number"},
        Bad{"value_nested", doc(R"({"t": 0, "value": [[1]]})"), kS + "/0/value/0",
            "must be a number"},
        Bad{"value_object", doc(R"({"t": 0, "value": [{}]})"), kS + "/0/value/0",
            "must be a number"},
        Bad{"mixed_width", doc(kS0 + R"(, {"t": 1, "value": [1, 2]})"), kS + "/1/value",
            "has 2 components, earlier samples of this channel have 3"},
        Bad{"duplicate_t", doc(kS0 + R"(, {"t": 1, "value": [1, 2, 3]}, {"t": 0.0, "value": [4, 5, 6]})"),
            kS + "/2/t", "duplicate t 0 (also sample 0)"},
        Bad{"duplicate_target",
            R"({"asset": "a", "animations": [{"index": 0, "channels": [{"target": "/nodes/0/scale", "samples": []}, {"target": "/nodes/0/scale", "samples": []}]}]})",
            "/animations/0/channels/1/target", "duplicate target"},
        Bad{"bad_utf8", "{\"asset\": \"\xff\xfe\", \"animations\": []}", "line 1, column 12",
            "invalid JSON"},
        Bad{"nan_literal", doc(R"({"t": 0, "value": [NaN]})"), "line 1, column 128",
            "invalid JSON"},
        Bad{"deep_value", doc(std::string(R"({"t": 0, "value": )").append(100000, '[').append(100000, ']').append("}")),
            kS + "/0/value/0", "must be a number"}));

class MalformedCsv : public ::testing::TestWithParam<Bad> {};

TEST_P(MalformedCsv, GivesLineAndMessage) {
  const Bad& b = GetParam();
  try {
    gs::read_samples_csv(b.text, {}, "in.csv");
    FAIL() << "accepted: " << b.text;
  } catch (const gs::SamplesFormatError& e) {
    EXPECT_EQ(e.location(), b.location) << e.what();
    EXPECT_NE(e.message().find(b.message_part), std::string::npos) << e.what();
  }
}

const std::string kH = "animation,channel,target,t,v0,v1\n";

INSTANTIATE_TEST_SUITE_P(
    Samples, MalformedCsv,
    ::testing::Values(
        Bad{"empty", "", "", "empty file"},
        Bad{"short_header", "animation,channel,target,t\n", "line 1", "the header must be"},
        Bad{"wrong_header", "animation,channel,target,time,v0\n", "line 1, field 4",
            "expected \"t\""},
        Bad{"header_v_gap", "animation,channel,target,t,v0,v2\n", "line 1, field 6",
            "expected \"v1\""},
        Bad{"animation_text", kH + "a,0,/n/0/x,0,1,2\n", "line 2, field 1", "non-negative integer"},
        Bad{"channel_negative", kH + "0,-1,/n/0/x,0,1,2\n", "line 2, field 2",
            "non-negative integer"},
        Bad{"target_relative", kH + "0,0,n/0/x,0,1,2\n", "line 2, field 3", "starting with '/'"},
        Bad{"t_text", kH + "0,0,/n/0/x,zero,1,2\n", "line 2, field 4", "finite number"},
        Bad{"t_inf", kH + "0,0,/n/0/x,inf,1,2\n", "line 2, field 4", "finite number"},
        Bad{"value_text", kH + "0,0,/n/0/x,0,1,two\n", "line 2, field 6", "not a number"},
        Bad{"value_gap", kH + "0,0,/n/0/x,0,,2\n", "line 2, field 6", "after an empty value"},
        Bad{"no_value", kH + "0,0,/n/0/x,0,,\n", "line 2, field 5", "at least one value"},
        Bad{"too_many", kH + "0,0,/n/0/x,0,1,2,3\n", "line 2, field 7", "more fields"},
        Bad{"too_few", kH + "0,0,/n/0/x\n", "line 2", "at least one value"},
        Bad{"mixed_width", kH + "0,0,/n/0/x,0,1,2\n0,0,/n/0/x,1,1,\n", "line 3, field 5",
            "row has 1 values"},
        Bad{"index_target_clash", kH + "0,0,/n/0/x,0,1,2\n0,0,/n/0/y,1,1,2\n", "line 3, field 3",
            "had target \"/n/0/x\""},
        Bad{"target_index_clash", kH + "0,0,/n/0/x,0,1,2\n0,1,/n/0/x,1,1,2\n", "line 3, field 2",
            "was channel 0"},
        Bad{"duplicate_t", kH + "0,0,/n/0/x,0.5,1,2\n\n0,0,/n/0/x,0.50,1,2\n", "line 4",
            "duplicate t 0.5"},
        Bad{"unterminated", kH + "0,0,\"/n/0/x,0.5,1,2\n", "line 2", "unterminated"},
        Bad{"after_quote", kH + "0,0,\"/n/0/x\"y,0.5,1,2\n", "line 2", "after a quoted field"}));

// Random corruption of a valid file: each variant parses or throws
// SamplesFormatError; anything else (another exception, a crash) fails.
TEST(SamplesFuzz, CorruptedJsonAndCsvNeverCrash) {
  gs::SamplesFile f;
  f.asset = "fuzz.gltf";
  auto& a = f.animations.emplace_back();
  auto& c = a.channels.emplace_back();
  c.target = "/nodes/0/rotation";
  c.interpolation = "LINEAR";
  c.sampler = 0;
  for (int i = 0; i < 6; ++i) c.add_sample(i * 0.25, {0.5, -0.5, 0.5, 1e-7 * i});
  const std::string json = gs::write_samples_json(f);
  const std::string csv = gs::write_samples_csv(f);
  std::mt19937 rng(12345);
  const std::string alphabet = "{}[]\",:0123456789.-eE/ \n\\tnul\xff";
  int accepted = 0, rejected = 0;
  for (int round = 0; round < 3000; ++round) {
    const bool use_csv = round % 3 == 0;
    std::string text = use_csv ? csv : json;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const std::size_t pos = rng() % text.size();
      switch (rng() % 3) {
        case 0: text[pos] = alphabet[rng() % alphabet.size()]; break;
        case 1: text.erase(pos, 1 + rng() % 8); break;
        default: text.insert(pos, 1, alphabet[rng() % alphabet.size()]); break;
      }
      if (text.empty()) text.push_back('x');
    }
    try {
      if (use_csv) gs::read_samples_csv(text);
      else gs::read_samples_json(text);
      ++accepted;
    } catch (const gs::SamplesFormatError& e) {
      ++rejected;
      EXPECT_FALSE(e.message().empty());
    }
  }
  EXPECT_GT(rejected, 1000);  // the corruption does break most variants
  EXPECT_GT(accepted + rejected, 2999);
}

}  // namespace

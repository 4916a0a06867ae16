// The hand-written matchers that stand in for valijson's std::regex on the
// "pattern"s of our embedded schemas (schema_patterns.hpp): each agrees with
// std::regex_search on every string of a small alphabet up to a length (a
// second method, on inputs short enough for it), and runs on megabytes.
#include <gtest/gtest.h>
#include <gltf_anim/gltf/json.hpp>
#include <rapidjson/document.h>

#include <regex>
#include <string>
#include <vector>

#include <gltf_anim/schema/schema_patterns.hpp>

namespace {

using gltf_anim::schema::linear_matcher;
using gltf_anim::schema::take_patterns_from_valijson;

// Every string over `alphabet` of length 0..`max_length`.
std::vector<std::string> all_strings(const std::string& alphabet, std::size_t max_length) {
  std::vector<std::string> out{""};
  for (std::size_t begin = 0, length = 0; length < max_length; ++length) {
    const std::size_t end = out.size();
    for (std::size_t i = begin; i < end; ++i) {
      for (const char c : alphabet) out.push_back(out[i] + c);
    }
    begin = end;
  }
  return out;
}

void expect_agrees_with_std_regex(const std::string& pattern, const std::string& alphabet,
                                  std::size_t max_length) {
  const auto matches = linear_matcher(pattern);
  ASSERT_NE(matches, nullptr) << pattern;
  const std::regex re(pattern, std::regex::ECMAScript);
  for (const std::string& s : all_strings(alphabet, max_length)) {
    EXPECT_EQ(matches(s), std::regex_search(s, re)) << pattern << " on '" << s << "'";
  }
}

TEST(SchemaPatterns, AgreeWithStdRegexOnShortStrings) {
  // asset.version: digits, a dot, a leading zero, ten digits (one too many).
  expect_agrees_with_std_regex(R"(^(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})$)", "01.x", 5);
  for (const std::string s : {"2.0", "123456789.0", "1234567890.0", "0.123456789", "0.01"}) {
    const std::regex re(R"(^(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})$)");
    EXPECT_EQ(linear_matcher(R"(^(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})$)")(s),
              std::regex_search(s, re))
        << s;
  }
  expect_agrees_with_std_regex("^[A-Z0-9_*?]+$", "AZ09_*?a-\n", 3);
  expect_agrees_with_std_regex("^/", "/a~", 4);
}

TEST(SchemaPatterns, MegabytesInOnePass) {
  const std::string mib(std::size_t{1} << 20, 'A');
  EXPECT_TRUE(linear_matcher("^[A-Z0-9_*?]+$")(mib));
  EXPECT_FALSE(linear_matcher("^[A-Z0-9_*?]+$")(mib + "a"));
  EXPECT_TRUE(linear_matcher("^/")("/" + mib));
  EXPECT_FALSE(linear_matcher(R"(^(0|[1-9][0-9]{0,8})\.(0|[1-9][0-9]{0,8})$)")(mib));
}

// What valijson would run with std::regex is refused when a schema is
// compiled; the keyword is renamed wherever it is a keyword, not where it is
// a property's name or a value.
TEST(SchemaPatterns, SchemasWithoutAMatcherAreRefused) {
  const auto prepare = [](const char* text) {
    gltf_anim::json::Document d;
    d.Parse(text);
    take_patterns_from_valijson(d, d.GetAllocator());
    return d;
  };
  EXPECT_THROW(prepare(R"({"pattern": "^a+$"})"), std::logic_error);
  EXPECT_THROW(prepare(R"({"items": {"pattern": "(a|a)*b"}})"), std::logic_error);
  EXPECT_THROW(prepare(R"({"patternProperties": {"^/": {}}})"), std::logic_error);
  EXPECT_THROW(prepare(R"({"format": "date-time"})"), std::logic_error);
  const gltf_anim::json::Document d =
      prepare(R"({"properties": {"pattern": {"pattern": "^/"}}, "enum": [{"pattern": "x"}]})");
  const auto& property = d["properties"]["pattern"];
  EXPECT_TRUE(property.HasMember(gltf_anim::schema::kLinearPatternKeyword));
  EXPECT_FALSE(property.HasMember("pattern"));
  EXPECT_TRUE(d["enum"][0].HasMember("pattern"));
}

}  // namespace

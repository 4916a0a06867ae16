// JSON syntax errors in the report formats: SARIF gets a region with the line
// and column (code points, declared by run.columnKind), or the byte offset
// inside a GLB; the JSON report keeps glTF-Validator's shape (pointer "", the
// place only in the message). Places are counted by hand from the test text.
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/validator/validate.hpp>

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

namespace {

using gltf_anim::validator::ValidationReport;

ValidationReport validate_text(std::string_view text, std::string uri) {
  const std::vector<std::uint8_t> bytes(text.begin(), text.end());
  return gltf_anim::validator::validate_bytes(bytes, std::move(uri), {}, {});
}

rapidjson::Document sarif_of(const ValidationReport& r) {
  std::ostringstream out;
  gltf_anim::reports::write_validation_sarif(out, std::vector<ValidationReport>{r});
  rapidjson::Document d;
  d.Parse(out.str().c_str());
  EXPECT_FALSE(d.HasParseError()) << out.str();
  return d;
}

TEST(ValidationPositions, SarifRegionOfATrailingCommaHasLineAndColumn) {
  // Line 3 is `    "version": "2.0",`, line 4 `  }`: the '}' after the comma
  // is column 3 of line 4. "é" in the generator makes bytes and code points differ
  // on line 2, not on line 4.
  const ValidationReport r = validate_text(
      "{\n  \"asset\": {\"generator\": \"\xC3\xA9\",\n    \"version\": \"2.0\",\n  }\n}\n", "comma.gltf");
  ASSERT_EQ(r.issues.size(), 1u);
  const rapidjson::Document d = sarif_of(r);
  const auto& run = d["runs"][0];
  EXPECT_STREQ(run["columnKind"].GetString(), "unicodeCodePoints");
  const auto& result = run["results"][0];
  EXPECT_STREQ(result["ruleId"].GetString(), "INVALID_JSON");
  const auto& region = result["locations"][0]["physicalLocation"]["region"];
  EXPECT_EQ(region["startLine"].GetUint(), 4u);
  EXPECT_EQ(region["startColumn"].GetUint(), 3u);
  EXPECT_FALSE(region.HasMember("byteOffset"));
}

TEST(ValidationPositions, SarifRegionInsideAGlbIsTheFileByteOffset) {
  // 12-byte header, 8-byte chunk header, then `{"asset":{},}`: the '}' after
  // the comma is byte 12 of the chunk, 32 of the file.
  std::string json = "{\"asset\":{},}   ";  // padded to 16 bytes
  std::string file = "glTF";
  auto u32 = [&file](std::uint32_t v) {
    char b[4];
    std::memcpy(b, &v, 4);
    file.append(b, 4);
  };
  u32(2);
  u32(static_cast<std::uint32_t>(20 + json.size()));
  u32(static_cast<std::uint32_t>(json.size()));
  u32(0x4E4F534A);
  file += json;
  const ValidationReport r = validate_text(file, "comma.glb");
  ASSERT_EQ(r.issues.size(), 1u);
  const rapidjson::Document d = sarif_of(r);
  const auto& region = d["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
  EXPECT_EQ(region["byteOffset"].GetUint(), 32u);
  // GitHub needs a startLine: line and column count within the JSON chunk,
  // which the region's message says.
  EXPECT_EQ(region["startLine"].GetUint(), 1u);
  EXPECT_EQ(region["startColumn"].GetUint(), 13u);
  EXPECT_NE(std::string(region["message"]["text"].GetString()).find("JSON chunk"),
            std::string::npos);
}

TEST(ValidationPositions, JsonReportKeepsGltfValidatorShape) {
  const ValidationReport r = validate_text("{\"asset\":{}\n,}", "comma.gltf");
  std::ostringstream out;
  gltf_anim::reports::write_validation_json(out, std::vector<ValidationReport>{r});
  rapidjson::Document d;
  d.Parse(out.str().c_str());
  ASSERT_FALSE(d.HasParseError());
  const auto& m = d["reports"][0]["issues"]["messages"][0];
  EXPECT_STREQ(m["code"].GetString(), "INVALID_JSON");
  EXPECT_STREQ(m["pointer"].GetString(), "");
  EXPECT_FALSE(m.HasMember("offset"));
  // code, message, severity, pointer, and our position (for SARIF regions after a merge).
  EXPECT_EQ(m.MemberCount(), 5u);
  EXPECT_EQ(m["position"]["line"].GetUint(), 2u);
  EXPECT_EQ(m["position"]["column"].GetUint(), 2u);
  EXPECT_EQ(m["position"]["byteOffset"].GetUint(), 13u);
  EXPECT_FALSE(m["position"]["inGlbJsonChunk"].GetBool());
  // `,}` on line 2: the '}' is column 2, byte 13.
  EXPECT_NE(std::string(m["message"].GetString()).find("(at line 2, column 2; byte offset 13)"), std::string::npos)
      << m["message"].GetString();
}

}  // namespace

// Positions in the report formats: a JSON syntax error's, and where the value
// at an issue's pointer starts (located when the asset is validated). SARIF
// gets a region with the line and column (code points, declared by
// run.columnKind), or the byte offset inside a GLB (a binary file: line 1); the JSON report keeps
// glTF-Validator's shape and adds `position`. Places are counted by hand from
// the test text.
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/validator/validate.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <algorithm>
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

gltf_anim::json::Document sarif_of(const ValidationReport& r) {
  std::ostringstream out;
  gltf_anim::reports::write_validation_sarif(out, std::vector<ValidationReport>{r});
  gltf_anim::json::Document d;
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
  const gltf_anim::json::Document d = sarif_of(r);
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
  const gltf_anim::json::Document d = sarif_of(r);
  const auto& region = d["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
  EXPECT_EQ(region["byteOffset"].GetUint(), 32u);
  // GitHub needs a startLine: line 1 stands for the binary file, which the
  // region's message says; no column (it would count within the JSON chunk).
  EXPECT_EQ(region["startLine"].GetUint(), 1u);
  EXPECT_FALSE(region.HasMember("startColumn"));
  EXPECT_NE(std::string(region["message"]["text"].GetString()).find("JSON chunk"),
            std::string::npos);
}

TEST(ValidationPositions, JsonReportKeepsGltfValidatorShape) {
  const ValidationReport r = validate_text("{\"asset\":{}\n,}", "comma.gltf");
  std::ostringstream out;
  gltf_anim::reports::write_validation_json(out, std::vector<ValidationReport>{r});
  gltf_anim::json::Document d;
  d.Parse(out.str().c_str());
  ASSERT_FALSE(d.HasParseError());
  const auto& m = d["reports"][0]["issues"]["messages"][0];
  EXPECT_STREQ(m["code"].GetString(), "INVALID_JSON");
  EXPECT_STREQ(m["pointer"].GetString(), "");
  EXPECT_FALSE(m.HasMember("offset"));
  // code, message, severity, pointer, and ours: the template's arguments and the position
  // (for SARIF regions after a merge).
  EXPECT_EQ(m.MemberCount(), 6u);
  EXPECT_TRUE(m["arguments"].IsArray());
  EXPECT_EQ(m["position"]["line"].GetUint(), 2u);
  EXPECT_EQ(m["position"]["column"].GetUint(), 2u);
  EXPECT_EQ(m["position"]["byteOffset"].GetUint(), 13u);
  EXPECT_FALSE(m["position"]["inGlbJsonChunk"].GetBool());
  // `,}` on line 2: the '}' is column 2, byte 13.
  EXPECT_NE(std::string(m["message"].GetString()).find("(at line 2, column 2; byte offset 13)"), std::string::npos)
      << m["message"].GetString();
}

TEST(ValidationPositions, EveryIssueAtAPointerIsLocatedWhenValidated) {
  // `{"asset":{"version":"2.0","foo":1}}`: the 1 of the unexpected member is
  // byte 32, line 1, column 33; as a GLB's JSON chunk, byte 52 of the file.
  const std::string json = "{\"asset\":{\"version\":\"2.0\",\"foo\":1}}";
  std::string chunk = json;
  while (chunk.size() % 4 != 0) chunk += ' ';
  std::string glb = "glTF";
  auto u32 = [&glb](std::uint32_t v) {
    char b[4];
    std::memcpy(b, &v, 4);
    glb.append(b, 4);
  };
  u32(2);
  u32(static_cast<std::uint32_t>(20 + chunk.size()));
  u32(static_cast<std::uint32_t>(chunk.size()));
  u32(0x4E4F534A);
  glb += chunk;
  for (const bool binary : {false, true}) {
    SCOPED_TRACE(binary ? "glb" : "gltf");
    const ValidationReport r = validate_text(binary ? glb : json, binary ? "a.glb" : "a.gltf");
    const auto foo = std::find_if(r.issues.begin(), r.issues.end(),
                                  [](const auto& i) { return i.pointer == "/asset/foo"; });
    ASSERT_NE(foo, r.issues.end());
    ASSERT_TRUE(foo->position);
    EXPECT_EQ(foo->position->line, 1u);
    EXPECT_EQ(foo->position->column, 33u);
    EXPECT_EQ(foo->position->byte_offset, binary ? 52u : 32u);
    EXPECT_EQ(foo->position->in_glb_chunk, binary);
    // The json report carries it, for merge.
    std::ostringstream out;
    gltf_anim::reports::write_validation_json(out, std::vector<ValidationReport>{r});
    const auto back = gltf_anim::reports::read_validation_json(out.str());
    const auto& issues = back.assets.at(0).report.issues;
    const auto again = std::find_if(issues.begin(), issues.end(),
                                    [](const auto& i) { return i.pointer == "/asset/foo"; });
    ASSERT_NE(again, issues.end());
    ASSERT_TRUE(again->position);
    EXPECT_EQ(again->position->byte_offset, foo->position->byte_offset);
    EXPECT_EQ(again->position->column, 33u);
  }
}

}  // namespace

// What the CLI says when its input is wrong, run as a process: a JSON syntax
// error with its line and column (and a SARIF region), binary data as "not a
// glTF file", and every file that cannot be read with the system's reason.
#include "scratch.hpp"
#include <gtest/gtest.h>
#include <gltf_anim/gltf/json.hpp>
#include <rapidjson/document.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli/compare_cli_util.hpp"

namespace {

namespace fs = std::filesystem;
using compare_cli::run;

fs::path scratch(const std::string& name) {
  const fs::path dir = gltf_anim_test::scratch_root() / "cli_messages" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write(const fs::path& p, std::string_view bytes) {
  std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string q(const fs::path& p) { return "'" + p.string() + "'"; }

TEST(CliMessages, TrailingCommaIsNamedWithLineAndColumnInEveryFormat) {
  const fs::path dir = scratch("comma");
  // Lines 1-3 hold 2 + 31 + 14 bytes, so the '}' of line 4 (column 1) is byte 47.
  write(dir / "a.gltf", "{\n  \"asset\": {\"version\": \"2.0\"},\n  \"scene\": 0,\n}\n");
  const auto text = run(" validate " + q(dir / "a.gltf"));
  EXPECT_EQ(text.exit_code, 1);
  EXPECT_NE(text.out.find("INVALID_JSON at \"\": Invalid JSON data. Parser output: Trailing comma before '}': "
                          "JSON allows no comma after the last member of an object. (at line 4, column 1; "
                          "byte offset 47)"),
            std::string::npos)
      << text.out;
  const auto sarif = run(" validate --format sarif " + q(dir / "a.gltf"));
  EXPECT_EQ(sarif.exit_code, 1);
  gltf_anim::json::Document d;
  d.Parse(sarif.out.c_str());
  ASSERT_FALSE(d.HasParseError());
  const auto& region = d["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"];
  EXPECT_EQ(region["startLine"].GetUint(), 4u);
  EXPECT_EQ(region["startColumn"].GetUint(), 1u);
}

TEST(CliMessages, BinBufferPassedByMistakeIsOneNotGltfIssue) {
  const fs::path dir = scratch("bin");
  // Two floats: 1.0f (00 00 80 3F) and 2.0f (00 00 00 40).
  write(dir / "model.bin", std::string("\x00\x00\x80\x3F\x00\x00\x00\x40", 8));
  const auto r = run(" validate --format json " + q(dir / "model.bin"));
  EXPECT_EQ(r.exit_code, 1);
  gltf_anim::json::Document d;
  d.Parse(r.out.c_str());
  ASSERT_FALSE(d.HasParseError()) << r.out;
  EXPECT_FALSE(d["reports"][0].HasMember("mimeType"));
  const auto& messages = d["reports"][0]["issues"]["messages"];
  ASSERT_EQ(messages.Size(), 1u);
  EXPECT_STREQ(messages[0]["code"].GetString(), "NOT_GLTF");
  EXPECT_STREQ(messages[0]["message"].GetString(),
               "Not a glTF file: binary data (first bytes 00 00 80 3F), neither JSON text nor a GLB "
               "(no 'glTF' magic).");
  // sample says the same, with the code, instead of a generic refusal.
  const auto s = run(" sample " + q(dir / "model.bin"));
  EXPECT_EQ(s.exit_code, 2);
  EXPECT_NE(s.err.find("model.bin: NOT_GLTF: Not a glTF file: binary data"), std::string::npos) << s.err;
}

TEST(CliMessages, PngNamedGlbIsOneInvalidMagic) {
  const fs::path dir = scratch("png");
  write(dir / "model.glb", std::string("\x89PNG\r\n\x1A\n\0\0\0\rIHDR\0\0\0\x01", 20));
  const auto r = run(" validate " + q(dir / "model.glb"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("GLB_INVALID_MAGIC at @0: Invalid GLB magic value (0x474E5089): not a glTF file but a "
                       "PNG image."),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("1 error,"), std::string::npos) << r.out;
}

TEST(CliMessages, UnreadableFilesSayWhy) {
  const fs::path dir = scratch("io");
  fs::create_directory(dir / "folder.samples.json");
  write(dir / "ok.samples.json", "{}");

  auto r = run(" validate " + q(dir / "missing.gltf"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("missing.gltf': No such file or directory"), std::string::npos) << r.err;

  r = run(" sample " + q(dir / "missing.gltf"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("missing.gltf: No such file or directory"), std::string::npos) << r.err;

  r = run(" sample " + q(dir / "folder.samples.json"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("Is a directory"), std::string::npos) << r.err;

  r = run(" compare --golden " + q(dir / "missing.samples.json") + " --actual " + q(dir / "ok.samples.json"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("missing.samples.json: No such file or directory"), std::string::npos) << r.err;
}

}  // namespace

// End to end: an asset whose file name is not UTF-8 and whose JSON holds
// terminal escapes, C1 controls, bidi overrides and markup of every format,
// through validate (every format), sample (JSON, CSV) and compare (every
// format). Each output must be valid UTF-8 and parse strictly in its format.
#include "scratch.hpp"
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli/compare_cli_util.hpp"
#include "strict_text.hpp"

namespace fs = std::filesystem;
using compare_cli::read_file;
using compare_cli::run;

namespace {

const fs::path kAssets = fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets";

std::string q(const fs::path& p) { return "'" + p.string() + "'"; }

// JSON escapes (decoded by the loader to the characters themselves) and raw
// UTF-8 of what broke reports: ESC sequences, BEL, NUL, C1 CSI, U+2028, an
// RLO, XML's "]]>", HTML's "</script>", Markdown's pipes and backticks.
const std::string kHostileJson =
    R"(\u001b[31mred\u001b]0;title\u0007 nul\u0000 csi\u009b2J sep\u2028 rlo\u202etxt ]]> </script><b>|`x`|)";

struct Scratch {
  fs::path dir, asset;
};

// The unknown-path asset of the invalid suite (one VALUE_NOT_IN_LIST warning,
// which quotes the path) with the hostile text as its path and as an unknown
// member name (UNEXPECTED_PROPERTY, whose pointer holds it), saved under a
// name with a byte that is not UTF-8 and an ESC.
Scratch hostile_asset(const std::string& name) {
  Scratch s;
  s.dir = gltf_anim_test::scratch_root() / "text_safety" / name;
  fs::remove_all(s.dir);
  fs::create_directories(s.dir);
  std::string text = read_file(kAssets / "invalid/channel/target_path_unknown.gltf");
  const std::string path = "\"color\"";
  const auto at = text.find(path);
  EXPECT_NE(at, std::string::npos);
  text.replace(at, path.size(), "\"" + kHostileJson + "\"");
  const std::string asset = "\"asset\": {";
  text.replace(text.find(asset), asset.size(), asset + "\"" + kHostileJson + "\": 1, ");
  s.asset = s.dir / "evil\xFF\x1B[31m name.gltf";
  std::ofstream(s.asset, std::ios::binary) << text;
  return s;
}

}  // namespace

TEST(CliTextSafety, EveryValidateFormatParsesStrictly) {
  const Scratch s = hostile_asset("validate");
  for (const char* format : {"json", "sarif", "junit", "text"}) {
    const fs::path out = s.dir / (std::string("report.") + format);
    const auto r = run(std::string(" validate --format ") + format + " --output " + q(out) + " " + q(s.asset));
    EXPECT_EQ(r.exit_code, 0) << format << ": " << r.err;  // warnings only
    const std::string report = read_file(out);
    EXPECT_EQ(strict_text::format_problem(format, report), "") << format << "\n" << report;
    EXPECT_NE(report.find("VALUE_NOT_IN_LIST"), std::string::npos) << format;
    EXPECT_NE(report.find("UNEXPECTED_PROPERTY"), std::string::npos) << format;
  }
  // The CI job's page: with --fail-on warning the asset fails, so the summary lists
  // its issues and every warning is an annotation.
  for (const char* format : {"md", "github"}) {
    const fs::path out = s.dir / (std::string("report.") + format);
    const auto r = run(std::string(" validate --fail-on warning --format ") + format + " --output " + q(out) +
                       " " + q(s.asset));
    EXPECT_EQ(r.exit_code, 1) << format << ": " << r.err;
    const std::string report = read_file(out);
    EXPECT_EQ(strict_text::ci_format_problem(format, report), "") << format << "\n" << report;
    const std::string code = std::string_view(format) == "md" ? "VALUE\\_NOT\\_IN\\_LIST" : "VALUE_NOT_IN_LIST";
    EXPECT_NE(report.find(code), std::string::npos) << format << "\n" << report;
  }
}

TEST(CliTextSafety, LoneSurrogateIsInvalidJsonAndTheReportStaysUtf8) {
  const Scratch s = hostile_asset("surrogate");
  const fs::path asset = s.dir / "lone.gltf";
  std::ofstream(asset, std::ios::binary) << R"({"asset": {"version": "2.0", "generator": "\udc00"}})";
  const auto r = run(" validate --format json " + q(asset));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(strict_text::json_problem(r.out), "") << r.out;
  EXPECT_NE(r.out.find("INVALID_JSON"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("surrogate"), std::string::npos) << r.out;
}

TEST(CliTextSafety, SamplesAndEveryCompareFormatParseStrictly) {
  const Scratch s = hostile_asset("compare");
  const fs::path json = s.dir / "golden.samples.json", csv = s.dir / "golden.samples.csv";
  auto r = run(" sample --output " + q(json) + " " + q(s.asset));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run(" sample --format csv --output " + q(csv) + " " + q(s.asset));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string samples = read_file(json);
  EXPECT_EQ(strict_text::json_problem(samples), "") << samples;
  EXPECT_TRUE(strict_text::utf8(read_file(csv)));
  // The samples file written from that asset is read back by compare (it
  // refused the invalid UTF-8 that the file name used to put in it).
  for (const char* format : {"text", "json", "md", "junit", "html"}) {
    const fs::path out = s.dir / (std::string("compare.") + format);
    r = run(std::string(" compare --format ") + format + " --output " + q(out) + " --golden " + q(json) +
            " --actual " + q(json));
    EXPECT_EQ(r.exit_code, 0) << format << ": " << r.err;
    const std::string report = read_file(out);
    EXPECT_EQ(strict_text::format_problem(format, report), "") << format << "\n" << report;
    if (std::string_view(format) == "html") {
      EXPECT_EQ(strict_text::text_problem(report), "") << report;
      EXPECT_EQ(report.find("<b>"), std::string::npos);
      EXPECT_EQ(report.find("</script>"), std::string::npos);
    }
  }
}

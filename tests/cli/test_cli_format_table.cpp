// The report formats come from one table each (reports/formats.hpp): the CLI
// help of validate, merge and compare lists exactly the table's names, in its
// order, every name is accepted and nothing else; the config file's schema
// enumerates the same validation formats, and so do the npm package's declarations.
#include "scratch.hpp"
#include <gltf_anim/gltf/issue.hpp>
#include <gltf_anim/reports/formats.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_process.hpp"

namespace {

namespace fs = std::filesystem;
namespace gr = gltf_anim::reports;
const fs::path kSource = GLTF_ANIM_SOURCE_DIR;
const fs::path kTmp = gltf_anim_test::scratch_root() / "format_table";

cli_process::Run cli(const std::vector<std::string>& args, const std::string& tag) {
  return cli_process::run(args, kTmp / tag);
}

template <class Rows>
std::vector<std::string> table_names(const Rows& rows) {
  std::vector<std::string> names;
  for (const auto& row : rows) names.emplace_back(row.name);
  return names;
}

// The names the help of `command` lists for --format: the words of the
// option's description ("a, b, c or d"), read off the help text.
std::vector<std::string> help_names(const std::string& command) {
  const auto r = cli({command, "--help"}, command + "_help");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  while (std::getline(lines, line)) {
    const auto option = line.find("--format arg");
    if (option == std::string::npos) continue;
    std::string list = line.substr(line.find(')', option) + 1);
    std::vector<std::string> names;
    std::string word;
    std::istringstream words(list);
    while (words >> word) {
      if (word == "or") continue;
      if (word.back() == ',') word.pop_back();
      names.push_back(word);
    }
    return names;
  }
  ADD_FAILURE() << command << " --help has no --format line:\n" << r.out;
  return {};
}

TEST(FormatTable, HelpListsExactlyTheTable) {
  const std::vector<std::string> validation = table_names(gr::validation_formats());
  EXPECT_EQ(validation,
            (std::vector<std::string>{"text", "json", "junit", "sarif", "md", "github"}));
  EXPECT_EQ(help_names("validate"), validation);
  EXPECT_EQ(help_names("merge"), validation);
  const std::vector<std::string> compare = table_names(gr::compare_formats());
  EXPECT_EQ(compare, (std::vector<std::string>{"text", "json", "md", "junit", "html"}));
  EXPECT_EQ(help_names("compare"), compare);
  EXPECT_EQ(gr::validation_format_names(), "text, json, junit, sarif, md or github");
}

TEST(FormatTable, EveryNameIsAcceptedAndNothingElse) {
  const std::string asset = (kSource / "conformance_assets/valid/translation_linear.gltf").string();
  for (const auto& row : gr::validation_formats()) {
    const auto r =
        cli({"validate", "--format", std::string(row.name), asset}, "v_" + std::string(row.name));
    EXPECT_EQ(r.exit_code, 0) << row.name << ": " << r.err;
    EXPECT_FALSE(r.out.empty()) << row.name;
    EXPECT_EQ(gr::validation_format_from_name(row.name), row.format);
  }
  for (const std::string bad : {"xml", "JSON", "", "markdown", "html"}) {
    EXPECT_EQ(cli({"validate", "--format", bad, asset}, "v_bad").exit_code, 2) << bad;
    EXPECT_FALSE(gr::validation_format_from_name(bad)) << bad;
  }
  const std::string golden = (kSource / "conformance_assets").string();
  for (const auto& row : gr::compare_formats()) {
    const auto r = cli({"compare", "--golden", golden, "--actual", golden, "--cases",
                        "translation_linear", "--format", std::string(row.name)},
                       "c_" + std::string(row.name));
    EXPECT_EQ(r.exit_code, 0) << row.name << ": " << r.err;
    EXPECT_FALSE(r.out.empty()) << row.name;
  }
  const auto bad =
      cli({"compare", "--golden", golden, "--actual", golden, "--format", "sarif"}, "c_bad");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("(text, json, md, junit or html)"), std::string::npos) << bad.err;
}

// The config file's "format" (validator/config/gltf-anim-config.schema.json)
// enumerates the validation formats of the table.
TEST(FormatTable, ConfigSchemaEnumeratesTheTable) {
  const std::string text =
      cli_process::slurp(kSource / "validator/config/gltf-anim-config.schema.json");
  gltf_anim::json::Document schema;
  schema.Parse(text.c_str(), text.size());
  ASSERT_FALSE(schema.HasParseError());
  const gltf_anim::json::Value& e = schema["properties"]["format"]["enum"];
  std::vector<std::string> names;
  for (const auto& v : e.GetArray()) names.emplace_back(v.GetString(), v.GetStringLength());
  EXPECT_EQ(names, table_names(gr::validation_formats()));
}

// The npm package's TypeScript declarations (web/package/index.d.ts, written by hand) spell
// the formats of each options interface as a union of string literals: the same set of
// names as the table (a union has no order).
std::vector<std::string> declared_formats(const std::string& declarations,
                                          const std::string& interface_name) {
  const std::size_t at = declarations.find("export interface " + interface_name + " ");
  if (at == std::string::npos) {
    ADD_FAILURE() << "index.d.ts declares no " << interface_name;
    return {};
  }
  const std::size_t end = declarations.find("\n}", at);
  const std::size_t line = declarations.find("  format?:", at);
  if (line == std::string::npos || line > end) {
    ADD_FAILURE() << interface_name << " has no format member";
    return {};
  }
  const std::string text = declarations.substr(line, declarations.find(';', line) - line);
  std::vector<std::string> names;
  for (std::size_t q = text.find('\''); q != std::string::npos;) {
    const std::size_t close = text.find('\'', q + 1);
    names.push_back(text.substr(q + 1, close - q - 1));
    q = text.find('\'', close + 1);
  }
  return names;
}

std::vector<std::string> sorted(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  return names;
}

TEST(FormatTable, TheNpmDeclarationsSpellTheTable) {
  const std::string declarations = cli_process::slurp(kSource / "web/package/index.d.ts");
  ASSERT_FALSE(declarations.empty());
  EXPECT_EQ(sorted(declared_formats(declarations, "ValidateOptions")),
            sorted(table_names(gr::validation_formats())));
  EXPECT_EQ(sorted(declared_formats(declarations, "CompareOptions")),
            sorted(table_names(gr::compare_formats())));
}

// `codes --format json` is data for programs (the page reads it): every registered code once,
// in registry order, each field the registry's own, and the same codes as the text format.
TEST(FormatTable, CodesJsonIsTheRegistry) {
  const auto r = cli({"codes", "--format", "json"}, "codes_json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  gltf_anim::json::Document d;
  d.Parse(r.out.c_str());
  ASSERT_FALSE(d.HasParseError());
  const auto& codes = d["codes"].GetArray();
  const auto types = gltf_anim::gltf::issue_types();
  ASSERT_EQ(codes.Size(), types.size());
  for (rapidjson::SizeType i = 0; i < codes.Size(); ++i) {
    const auto& c = codes[i];
    const auto& t = types[i];
    const std::string code = c["code"].GetString();
    EXPECT_EQ(code, t.code);
    EXPECT_EQ(std::string(c["message"].GetString()), t.message) << code;
    EXPECT_EQ(std::string(c["rule"].GetString()), t.rule) << code;
    EXPECT_EQ(std::string(c["spec"].GetString()), t.spec) << code;
    EXPECT_EQ(c["declaredSeverity"].GetInt(), static_cast<int>(t.severity)) << code;
    // A lint is reported at most as information by default (severity 2).
    const bool lint = t.phase == gltf_anim::gltf::Phase::kLint;
    EXPECT_EQ(c["severity"].GetInt(), lint ? std::max(2, static_cast<int>(t.severity)) : static_cast<int>(t.severity))
        << code;
    EXPECT_EQ(c["optIn"].GetBool(), t.enablement == gltf_anim::gltf::Enablement::kOptIn) << code;
    std::string lower = code;
    for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    EXPECT_EQ(std::string(c["anchor"].GetString()), lower) << code;
  }
  const auto text = cli({"codes"}, "codes_text");
  std::istringstream lines(text.out);
  std::string line;
  rapidjson::SizeType row = 0;
  while (std::getline(lines, line)) {
    ASSERT_LT(row, codes.Size());
    EXPECT_EQ(line.substr(0, line.find('\t')), codes[row++]["code"].GetString());
  }
  EXPECT_EQ(row, codes.Size());
}

}  // namespace

// The validation report writers (reports/validation_report.hpp) on hand-built
// reports: json shape and key order (glTF-Validator's), SARIF 2.1.0 fields,
// JUnit well-formedness and escaping, text grouping.
#include "scratch.hpp"
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/gltf/issue.hpp>
#include <gltf_anim/validator/validate.hpp>
#include <gltf_anim/version.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using gltf_anim::gltf::Issue;
using gltf_anim::gltf::Severity;
using gltf_anim::reports::ValidationFormat;
using gltf_anim::reports::ValidationWriteOptions;
using gltf_anim::validator::AssetInfo;
using gltf_anim::validator::ValidationReport;

Issue issue(std::string_view code, Severity s, std::string pointer, std::string message = "m") {
  return Issue{code, s, std::move(message), std::move(pointer), std::nullopt};
}

ValidationReport sample_report() {
  ValidationReport r;
  r.uri = "dir/a b.gltf";
  r.mime_type = "model/gltf+json";
  r.issues.push_back(issue("ANIMATION_DUPLICATE_TARGETS", Severity::kError,
                           "/animations/0/channels/0/target", "same <target> & \"x\""));
  r.issues.push_back(issue("ANIMATION_DUPLICATE_TARGETS", Severity::kError,
                           "/animations/0/channels/1/target"));
  r.issues.push_back(issue("ANIMATION_DUPLICATE_TARGETS", Severity::kError,
                           "/animations/0/channels/2/target"));
  r.issues.push_back(issue("ANIMATION_DUPLICATE_TARGETS", Severity::kError,
                           "/animations/0/channels/3/target"));
  r.issues.push_back(issue("UNEXPECTED_PROPERTY", Severity::kWarning, "/animations/0/x"));
  r.issues.push_back(issue("UNUSED_OBJECT", Severity::kInfo, "/animations/0/samplers/1"));
  Issue glb{"IO_ERROR", Severity::kError, "glb", "", std::uint64_t{12}};
  r.issues.push_back(glb);
  AssetInfo info;
  info.version = "2.0";
  info.generator = "hand";
  info.animation_count = 1;
  r.info = info;
  return r;
}

std::vector<std::string> keys(const gltf_anim::json::Value& o) {
  std::vector<std::string> out;
  for (const auto& m : o.GetObject()) out.emplace_back(m.name.GetString());
  return out;
}

TEST(ValidationJson, OneReportKeepsGltfValidatorKeyOrderInsideTheRunObject) {
  const std::vector<ValidationReport> reports{sample_report()};
  std::ostringstream out;
  gltf_anim::reports::write_validation_json(out, reports);
  gltf_anim::json::Document doc;
  doc.Parse(out.str().c_str());
  ASSERT_FALSE(doc.HasParseError());
  ASSERT_TRUE(doc.IsObject());
  EXPECT_EQ(keys(doc), (std::vector<std::string>{"tool", "reports", "summary"}));
  EXPECT_EQ(keys(doc["tool"]), (std::vector<std::string>{"name", "version", "informationUri"}));
  EXPECT_STREQ(doc["tool"]["name"].GetString(), "gltf-anim");
  EXPECT_STREQ(doc["tool"]["version"].GetString(), gltf_anim::kVersion);
  ASSERT_EQ(doc["reports"].Size(), 1u);
  const auto& d = doc["reports"][0];
  // glTF-Validator's keys in its order, with the tool's name beside its version.
  EXPECT_EQ(keys(d), (std::vector<std::string>{"uri", "mimeType", "validatorName",
                                               "validatorVersion", "issues", "info"}));
  EXPECT_STREQ(d["validatorName"].GetString(), "gltf-anim");
  EXPECT_STREQ(d["uri"].GetString(), "dir/a b.gltf");
  const auto& issues = d["issues"];
  EXPECT_EQ(keys(issues), (std::vector<std::string>{"numErrors", "numWarnings", "numInfos",
                                                    "numHints", "messages", "truncated"}));
  // 4 duplicate targets + 1 GLB issue are errors; counted by hand above.
  EXPECT_EQ(issues["numErrors"].GetInt(), 5);
  EXPECT_EQ(issues["numWarnings"].GetInt(), 1);
  EXPECT_EQ(issues["numInfos"].GetInt(), 1);
  EXPECT_EQ(issues["numHints"].GetInt(), 0);
  EXPECT_FALSE(issues["truncated"].GetBool());
  const auto& messages = issues["messages"];
  ASSERT_EQ(messages.Size(), 7u);
  EXPECT_EQ(keys(messages[0]), (std::vector<std::string>{"code", "message", "severity", "pointer"}));
  EXPECT_STREQ(messages[0]["message"].GetString(), "same <target> & \"x\"");
  // A GLB container issue carries an offset instead of a pointer.
  EXPECT_EQ(keys(messages[6]), (std::vector<std::string>{"code", "message", "severity", "offset"}));
  EXPECT_EQ(messages[6]["offset"].GetInt(), 12);
  EXPECT_EQ(keys(d["info"])[0], "version");
  EXPECT_EQ(d["info"]["animationCount"].GetInt(), 1);
  // The same counts over the run, and its verdict at the default --fail-on error.
  const auto& summary = doc["summary"];
  EXPECT_EQ(keys(summary),
            (std::vector<std::string>{"assets", "assetsFailing", "assetsTruncated", "numErrors",
                                      "numWarnings", "numInfos", "numHints", "failOn", "result"}));
  EXPECT_EQ(summary["assets"].GetInt(), 1);
  EXPECT_EQ(summary["assetsFailing"].GetInt(), 1);
  EXPECT_EQ(summary["numErrors"].GetInt(), 5);
  EXPECT_STREQ(summary["failOn"].GetString(), "error");
  EXPECT_STREQ(summary["result"].GetString(), "fail");
  // Four-space indent, as glTF-Validator's CLI writes it.
  EXPECT_NE(out.str().find("\n            \"uri\""), std::string::npos);
}

TEST(ValidationJson, TheShapeIsTheSameForNoneOneAndSeveralAssets) {
  ValidationReport broken;
  broken.uri = "bad.gltf";
  broken.issues.push_back(issue("INVALID_JSON", Severity::kError, ""));
  for (const std::size_t n : {0u, 1u, 2u}) {
    SCOPED_TRACE(n);
    std::vector<ValidationReport> reports{sample_report(), broken};
    reports.resize(n);
    std::ostringstream out;
    gltf_anim::reports::write_validation_json(out, reports);
    gltf_anim::json::Document d;
    d.Parse(out.str().c_str());
    ASSERT_TRUE(d.IsObject());
    EXPECT_EQ(keys(d), (std::vector<std::string>{"tool", "reports", "summary"}));
    ASSERT_TRUE(d["reports"].IsArray());
    ASSERT_EQ(d["reports"].Size(), n);
    EXPECT_EQ(d["summary"]["assets"].GetUint64(), n);
    EXPECT_EQ(d["summary"]["assetsFailing"].GetUint64(), n);  // both reports have errors
    EXPECT_STREQ(d["summary"]["result"].GetString(), n == 0 ? "pass" : "fail");
    if (n == 2) {
      EXPECT_FALSE(d["reports"][1].HasMember("mimeType"));
      EXPECT_FALSE(d["reports"][1].HasMember("info"));
      EXPECT_STREQ(d["reports"][1]["issues"]["messages"][0]["pointer"].GetString(), "");
      EXPECT_EQ(d["summary"]["numErrors"].GetInt(), 5 + 1);
    }
  }
}

TEST(ValidationJson, TimesAndShardPlacesAreWrittenWhenGiven) {
  std::ostringstream out;
  gltf_anim::reports::ValidationWriteOptions options;
  options.fail_on = Severity::kInfo;
  options.shard = gltf_anim::reports::Shard{2, 3, 40, "0123456789abcdef0123456789abcdef"};
  const auto writer =
      gltf_anim::reports::make_validation_writer(out, ValidationFormat::kJson, options);
  // 0.25 s and 0.5 s are exact in binary: their sum is exactly 0.75.
  writer->asset(sample_report(), {0.25, 7});
  writer->asset(sample_report(), {0.5, 9});
  writer->end();
  gltf_anim::json::Document d;
  d.Parse(out.str().c_str());
  ASSERT_FALSE(d.HasParseError());
  EXPECT_EQ(keys(d), (std::vector<std::string>{"tool", "shard", "reports", "summary"}));
  EXPECT_EQ(d["shard"]["index"].GetInt(), 2);
  EXPECT_EQ(d["shard"]["count"].GetInt(), 3);
  EXPECT_EQ(d["shard"]["assets"].GetInt(), 40);
  EXPECT_STREQ(d["shard"]["run"].GetString(), "0123456789abcdef0123456789abcdef");
  EXPECT_EQ(keys(d["reports"][0]),
            (std::vector<std::string>{"uri", "mimeType", "validatorName", "validatorVersion",
                                      "shardPosition", "validationSeconds", "issues", "info"}));
  EXPECT_EQ(d["reports"][0]["shardPosition"].GetInt(), 7);
  EXPECT_EQ(d["reports"][1]["shardPosition"].GetInt(), 9);
  EXPECT_EQ(d["reports"][1]["validationSeconds"].GetDouble(), 0.5);
  EXPECT_EQ(d["summary"]["validationSeconds"].GetDouble(), 0.75);
  EXPECT_STREQ(d["summary"]["failOn"].GetString(), "info");
}

TEST(ValidationSarif, Has210FieldsRulesFromRegistryAndLocations) {
  const std::vector<ValidationReport> reports{sample_report()};
  std::ostringstream out;
  gltf_anim::reports::write_validation_sarif(out, reports);
  gltf_anim::json::Document d;
  d.Parse(out.str().c_str());
  ASSERT_FALSE(d.HasParseError());
  EXPECT_STREQ(d["version"].GetString(), "2.1.0");
  EXPECT_TRUE(d.HasMember("$schema"));
  const auto& run = d["runs"][0];
  EXPECT_STREQ(run["tool"]["driver"]["name"].GetString(), "gltf-anim");
  const auto& rules = run["tool"]["driver"]["rules"];
  EXPECT_EQ(rules.Size(), gltf_anim::gltf::issue_types().size());
  const auto& results = run["results"];
  ASSERT_EQ(results.Size(), 7u);
  const auto& r0 = results[0];
  EXPECT_STREQ(r0["ruleId"].GetString(), "ANIMATION_DUPLICATE_TARGETS");
  EXPECT_STREQ(r0["level"].GetString(), "error");
  // ruleIndex points at the rule with the same id.
  EXPECT_STREQ(rules[r0["ruleIndex"].GetUint()]["id"].GetString(), "ANIMATION_DUPLICATE_TARGETS");
  const auto& loc = r0["locations"][0];
  // Relative path kept relative, the space percent-encoded.
  EXPECT_STREQ(loc["physicalLocation"]["artifactLocation"]["uri"].GetString(), "dir/a%20b.gltf");
  EXPECT_STREQ(loc["logicalLocations"][0]["fullyQualifiedName"].GetString(),
               "/animations/0/channels/0/target");
  EXPECT_STREQ(results[4]["level"].GetString(), "warning");
  EXPECT_STREQ(results[5]["level"].GetString(), "note");
  EXPECT_EQ(results[6]["locations"][0]["physicalLocation"]["region"]["byteOffset"].GetInt(), 12);
}

// Locates the issues of `r` in `bytes` loaded as the asset would be (what
// validate_file does once the rules are done).
void locate_in(ValidationReport& r, const std::string& bytes) {
  gltf_anim::gltf::IssueCollector ignored;
  const std::vector<std::uint8_t> data(bytes.begin(), bytes.end());
  const auto asset = gltf_anim::gltf::load_bytes(data, r.uri, {}, {}, ignored);
  gltf_anim::validator::locate_issues(asset, r.issues);
}

gltf_anim::json::Document sarif_document(const std::vector<ValidationReport>& reports) {
  std::ostringstream out;
  gltf_anim::reports::write_validation_sarif(out, reports);
  gltf_anim::json::Document d;
  d.Parse(out.str().c_str());
  EXPECT_FALSE(d.HasParseError());
  return d;
}

const std::string kLinesText =
    "{\n"                                     // line 1
    "  \"asset\": {\"version\": \"2.0\"},\n"  // line 2
    "  \"animations\": [\n"                   // line 3
    "    {\n"                                 // line 4: /animations/0
    "      \"channels\": [],\n"               // line 5: /animations/0/channels
    "      \"a/b\": 1\n"                      // line 6: /animations/0/a~1b
    "    }\n"
    "  ]\n"
    "}\n";

ValidationReport lines_report() {
  ValidationReport r;
  r.uri = "lines.gltf";
  r.mime_type = "model/gltf+json";
  r.issues.push_back(issue("UNDEFINED_PROPERTY", Severity::kError, "/animations/0"));
  r.issues.push_back(issue("EMPTY_ENTITY", Severity::kError, "/animations/0/channels"));
  r.issues.push_back(issue("UNEXPECTED_PROPERTY", Severity::kWarning, "/animations/0/a~1b"));
  r.issues.push_back(issue("UNRESOLVED_REFERENCE", Severity::kError, "/animations/7"));
  return r;
}

void expect_lines_regions(const gltf_anim::json::Document& d) {
  const auto& results = d["runs"][0]["results"];
  auto region = [&](rapidjson::SizeType k) -> const gltf_anim::json::Value& {
    return results[k]["locations"][0]["physicalLocation"]["region"];
  };
  auto line = [&](rapidjson::SizeType k) { return region(k)["startLine"].GetInt(); };
  auto column = [&](rapidjson::SizeType k) { return region(k)["startColumn"].GetInt(); };
  // Where each value starts: its bracket, or the first character of a scalar.
  EXPECT_EQ(line(0), 4);
  EXPECT_EQ(column(0), 5);
  EXPECT_EQ(line(1), 5);
  EXPECT_EQ(column(1), 19);
  EXPECT_EQ(line(2), 6);
  EXPECT_EQ(column(2), 14);
  // Not in the text: line 1 stands for the file (every result has a region), and says so.
  EXPECT_EQ(line(3), 1);
  EXPECT_FALSE(region(3).HasMember("startColumn"));
  EXPECT_NE(
      std::string(region(3)["message"]["text"].GetString()).find("not in the asset's JSON text"),
      std::string::npos);
}

TEST(ValidationSarif, RegionLineOfThePointerInTheGltfText) {
  ValidationReport r = lines_report();
  locate_in(r, kLinesText);
  expect_lines_regions(sarif_document({r}));
}

// An issue of ours carries its template's arguments right after its message; one
// without (a finding of glTF-Validator's alone) writes none. Both survive a merge.
TEST(ValidationJson, ArgumentsFollowTheMessageAndSurviveAMerge) {
  ValidationReport r;
  r.uri = "a.gltf";
  Issue ours = issue("ACCESSOR_ANIMATION_INPUT_NEGATIVE", Severity::kError,
                     "/animations/0/samplers/0/input",
                     "Animation input accessor element at index 2 is negative: -1.");
  // An argument of 200 bytes: its length takes two bytes packed.
  const std::vector<std::string> arguments{"2", std::string(200, 'x'), "-1"};
  gltf_anim::gltf::set_issue_arguments(ours, arguments);
  r.issues.push_back(ours);
  r.issues.push_back(issue("UNEXPECTED_PROPERTY", Severity::kWarning, "/x"));
  std::ostringstream out;
  gltf_anim::reports::write_validation_json(out, std::vector<ValidationReport>{r});
  gltf_anim::json::Document doc;
  doc.Parse(out.str().c_str());
  ASSERT_FALSE(doc.HasParseError());
  const auto& messages = doc["reports"][0]["issues"]["messages"];
  EXPECT_EQ(keys(messages[0]),
            (std::vector<std::string>{"code", "message", "arguments", "severity", "pointer"}));
  ASSERT_EQ(messages[0]["arguments"].Size(), 3u);
  EXPECT_STREQ(messages[0]["arguments"][0].GetString(), "2");
  EXPECT_EQ(messages[0]["arguments"][1].GetString(), arguments[1]);
  EXPECT_STREQ(messages[0]["arguments"][2].GetString(), "-1");
  EXPECT_EQ(keys(messages[1]), (std::vector<std::string>{"code", "message", "severity", "pointer"}));
  // Read back and written again: the same text.
  const auto run = gltf_anim::reports::read_validation_json(out.str());
  ASSERT_EQ(run.assets.size(), 1u);
  EXPECT_EQ(gltf_anim::gltf::issue_arguments(run.assets[0].report.issues[0]), arguments);
  EXPECT_FALSE(gltf_anim::gltf::issue_arguments(run.assets[0].report.issues[1]).has_value());
  // A member that is not an array of strings is refused, naming where.
  std::string bad = out.str();
  bad.replace(bad.find("\"2\""), 3, "2");
  EXPECT_THROW(gltf_anim::reports::read_validation_json(bad), gltf_anim::reports::ReportFormatError);
}

TEST(ValidationSarif, MergeTakesRegionsFromTheJsonReport) {
  // validate --format json, then merge --format sarif: the positions travel in
  // the json report, and the asset is nowhere to be read.
  ValidationReport r = lines_report();
  locate_in(r, kLinesText);
  std::ostringstream json;
  gltf_anim::reports::write_validation_json(json, std::vector<ValidationReport>{r});
  const auto run = gltf_anim::reports::read_validation_json(json.str());
  ASSERT_EQ(run.assets.size(), 1u);
  ASSERT_FALSE(std::filesystem::exists(run.assets[0].report.uri));
  expect_lines_regions(sarif_document({run.assets[0].report}));
}

TEST(ValidationSarif, TheWriterNeverReadsTheAsset) {
  // A report naming a file that exists, with issues that carry no position:
  // the regions stay line 1 (the writer does not open the file to look).
  const std::filesystem::path dir = gltf_anim_test::scratch_root() / "sarif";
  std::filesystem::create_directories(dir);
  ValidationReport r = lines_report();
  r.uri = (dir / "lines.gltf").string();
  std::ofstream(r.uri, std::ios::binary) << kLinesText;
  const gltf_anim::json::Document d = sarif_document({r});
  const auto& results = d["runs"][0]["results"];
  for (rapidjson::SizeType k = 0; k < results.Size(); ++k) {
    const auto& region = results[k]["locations"][0]["physicalLocation"]["region"];
    EXPECT_EQ(region["startLine"].GetInt(), 1);
    EXPECT_FALSE(region.HasMember("startColumn"));
  }
}

TEST(ValidationSarif, RegionsCountCodePointsAndSkipStringsAndWorkInsideAGlb) {
  // Line 2: 'é' is two bytes, one code point; the string holds ':' ',' '[' '{'
  // and an escaped quote, none of which starts a token.
  const std::string json =
      "{\"asset\": {\"version\": \"2.0\"},\n"
      "\"é\": \"x:,[{\\\" y\", \"n\": [ 7, {\"k\": true}]}";
  // /n/0 is the 7: line 2, column 26 (code points; 27 bytes precede it on its line).
  ValidationReport text;
  text.uri = "places.gltf";
  text.mime_type = "model/gltf+json";
  text.issues.push_back(issue("TYPE_MISMATCH", Severity::kError, "/n/0"));
  text.issues.push_back(issue("TYPE_MISMATCH", Severity::kError, "/n/1/k"));
  // The same JSON as a GLB's JSON chunk (padded with spaces to 4 bytes).
  std::string chunk = json;
  while (chunk.size() % 4 != 0) chunk += ' ';
  std::string glb = "glTF";
  auto u32 = [&glb](std::uint32_t v) {
    for (int k = 0; k < 4; ++k) glb += static_cast<char>((v >> (8 * k)) & 0xFF);
  };
  u32(2);
  u32(static_cast<std::uint32_t>(20 + chunk.size()));
  u32(static_cast<std::uint32_t>(chunk.size()));
  u32(0x4E4F534Au);
  glb += chunk;
  ValidationReport binary = text;
  binary.uri = "places.glb";
  binary.mime_type = "model/gltf-binary";
  locate_in(text, json);
  locate_in(binary, glb);
  const gltf_anim::json::Document d = sarif_document({text, binary});
  const auto& results = d["runs"][0]["results"];
  ASSERT_EQ(results.Size(), 4u);
  const std::size_t seven = json.find('7');
  const std::size_t k_key = json.find("true");
  for (rapidjson::SizeType g = 0; g < 2; ++g) {
    const auto& seven_region = results[2 * g]["locations"][0]["physicalLocation"]["region"];
    const auto& k_region = results[2 * g + 1]["locations"][0]["physicalLocation"]["region"];
    if (g == 0) {
      EXPECT_EQ(seven_region["startLine"].GetInt(), 2);
      EXPECT_EQ(seven_region["startColumn"].GetInt(), 26);
      EXPECT_EQ(k_region["startLine"].GetInt(), 2);
      EXPECT_EQ(k_region["startColumn"].GetInt(), 26 + static_cast<int>(k_key - seven));
      EXPECT_FALSE(seven_region.HasMember("byteOffset"));
    } else {
      // A GLB is binary: line 1 stands for the file, no column (which would count
      // within the JSON chunk); the byte offset, the chunk's data starting at byte
      // 20 of the file, and the pointer in the message.
      EXPECT_EQ(seven_region["startLine"].GetInt(), 1);
      EXPECT_FALSE(seven_region.HasMember("startColumn"));
      EXPECT_FALSE(k_region.HasMember("startColumn"));
      EXPECT_EQ(seven_region["byteOffset"].GetUint64(), 20 + seven);
      EXPECT_EQ(k_region["byteOffset"].GetUint64(), 20 + k_key);
      EXPECT_NE(std::string(seven_region["message"]["text"].GetString()).find("/n/0"), std::string::npos);
    }
  }
}

TEST(ValidationSarif, RulesSpeakToTheReaderAndLinkNoRepository) {
  // A rule's title and help are for the person reading the alert: no source
  // path, no note on how the check is implemented, no link to a repository
  // location (which may not be where the reader got the tool).
  const gltf_anim::json::Document d = sarif_document({sample_report()});
  const auto& rules = d["runs"][0]["tool"]["driver"]["rules"];
  ASSERT_GT(rules.Size(), 0u);
  for (const auto& rule : rules.GetArray()) {
    EXPECT_FALSE(rule.HasMember("helpUri")) << rule["id"].GetString();
    for (const char* field : {"shortDescription", "fullDescription", "help"}) {
      const std::string t = rule[field]["text"].GetString();
      for (const char* note : {".cpp", ".hpp", "src/", "hash map", "linear time", "github.com"}) {
        EXPECT_EQ(t.find(note), std::string::npos)
            << rule["id"].GetString() << " " << field << ": " << t;
      }
    }
  }
}

TEST(ValidationSarif, FileUri) {
  EXPECT_EQ(gltf_anim::reports::file_uri("a/b.gltf"), "a/b.gltf");
  EXPECT_EQ(gltf_anim::reports::file_uri("/abs/x y.glb"), "file:///abs/x%20y.glb");
  EXPECT_EQ(gltf_anim::reports::file_uri("a#b%.gltf"), "a%23b%25.gltf");
}

// Minimal XML well-formedness: tags nest and close, attribute values quoted,
// no raw '<' or '&' outside markup and entities.
bool well_formed_xml(const std::string& x, std::string& why) {
  std::vector<std::string> stack;
  std::size_t i = 0;
  if (x.rfind("<?xml", 0) == 0) i = x.find("?>") + 2;
  while (i < x.size()) {
    if (x[i] == '<') {
      const std::size_t end = x.find('>', i);
      if (end == std::string::npos) return why = "unclosed tag", false;
      std::string tag = x.substr(i + 1, end - i - 1);
      if (tag.find('<') != std::string::npos) return why = "'<' inside a tag", false;
      const bool closing = !tag.empty() && tag[0] == '/';
      const bool empty = !tag.empty() && tag.back() == '/';
      const std::string name = tag.substr(closing ? 1 : 0, tag.find_first_of(" /", closing ? 1 : 0) - (closing ? 1 : 0));
      std::size_t quotes = 0;
      for (char c : tag) quotes += c == '"' ? 1 : 0;
      if (quotes % 2 != 0) return why = "odd quotes in <" + tag + ">", false;
      if (closing) {
        if (stack.empty() || stack.back() != name) return why = "mismatched </" + name + ">", false;
        stack.pop_back();
      } else if (!empty) {
        stack.push_back(name);
      }
      i = end + 1;
    } else if (x[i] == '&') {
      const std::size_t semi = x.find(';', i);
      const std::string ent = x.substr(i, semi - i + 1);
      if (ent != "&amp;" && ent != "&lt;" && ent != "&gt;" && ent != "&quot;" && ent != "&apos;") {
        return why = "bad entity " + ent, false;
      }
      i = semi + 1;
    } else {
      ++i;
    }
  }
  if (!stack.empty()) return why = "unclosed <" + stack.back() + ">", false;
  return true;
}

TEST(ValidationJunit, TestcaseHasItsFolderAsClassnameItsFileAndItsTime) {
  ValidationReport nested = sample_report();
  nested.uri = "models/chars/a.gltf";
  ValidationReport top = sample_report();
  top.uri = "b.glb";
  std::ostringstream out;
  const auto writer = gltf_anim::reports::make_validation_writer(out, ValidationFormat::kJunit);
  writer->asset(nested, {0.25, std::nullopt});
  writer->asset(top, {0.5, std::nullopt});
  writer->end();
  const std::string x = out.str();
  std::string why;
  EXPECT_TRUE(well_formed_xml(x, why)) << why << "\n" << x;
  EXPECT_NE(
      x.find("<testcase classname=\"models/chars\" name=\"a.gltf\" file=\"models/chars/a.gltf\" "
             "time=\"0.250000\">"),
      std::string::npos)
      << x;
  EXPECT_NE(x.find("<testcase classname=\".\" name=\"b.glb\" file=\"b.glb\" time=\"0.500000\">"),
            std::string::npos)
      << x;
  // The suite's time is the sum, 0.75 exactly in binary.
  EXPECT_NE(x.find("skipped=\"0\" time=\"0.750000\">"), std::string::npos) << x;
}

TEST(ValidationJunit, WellFormedOneTestcasePerAssetFailingOnThreshold) {
  ValidationReport clean;
  clean.uri = "ok&fine.gltf";
  clean.issues.push_back(issue("UNUSED_OBJECT", Severity::kInfo, "/animations/0/samplers/1"));
  const std::vector<ValidationReport> reports{sample_report(), clean};
  std::ostringstream out;
  gltf_anim::reports::write_validation_junit(out, reports);
  const std::string x = out.str();
  std::string why;
  EXPECT_TRUE(well_formed_xml(x, why)) << why << "\n" << x;
  EXPECT_NE(x.find("tests=\"2\" failures=\"1\""), std::string::npos) << x;
  EXPECT_NE(x.find("name=\"ok&amp;fine.gltf\""), std::string::npos);
  EXPECT_NE(x.find("same &lt;target&gt; &amp; &quot;x&quot;"), std::string::npos);

  // With --fail-on info the clean asset fails too.
  ValidationWriteOptions opt;
  opt.fail_on = Severity::kInfo;
  std::ostringstream out2;
  gltf_anim::reports::write_validation_junit(out2, reports, opt);
  EXPECT_NE(out2.str().find("tests=\"2\" failures=\"2\""), std::string::npos);
}

TEST(ValidationText, GroupsRepeatsWithCountAndFirstPlaces) {
  std::vector<ValidationReport> reports{sample_report()};
  std::ostringstream out;
  gltf_anim::reports::write_validation_text(out, reports);
  const std::string t = out.str();
  EXPECT_NE(t.find("dir/a b.gltf: FAIL (5 errors, 1 warning, 1 info, 0 hints)"), std::string::npos)
      << t;
  // 4 duplicates with 2 distinct messages: the code's count, then each message
  // with its count and first places.
  EXPECT_NE(
      t.find("  error ANIMATION_DUPLICATE_TARGETS x4, 2 distinct messages:\n"
             "    at /animations/0/channels/0/target: same <target> & \"x\"\n"
             "    x3, first at /animations/0/channels/1/target, /animations/0/channels/2/target, "
             "/animations/0/channels/3/target: m\n"),
      std::string::npos)
      << t;
  // One message: one line, count, the first three places, then "...".
  reports[0].issues[0].message = "m";
  std::ostringstream same;
  gltf_anim::reports::write_validation_text(same, reports);
  EXPECT_NE(same.str().find(
                "  error ANIMATION_DUPLICATE_TARGETS x4, first at /animations/0/channels/0/target, "
                "/animations/0/channels/1/target, /animations/0/channels/2/target, ...: m\n"),
            std::string::npos)
      << same.str();
  EXPECT_EQ(same.str().find("/animations/0/channels/3/target"), std::string::npos);
  EXPECT_NE(t.find("warning UNEXPECTED_PROPERTY at /animations/0/x: m"), std::string::npos);
  EXPECT_NE(t.find("error IO_ERROR at @12: glb"), std::string::npos);
  EXPECT_NE(t.find("1 asset, 1 failed; 5 errors, 1 warning, 1 info, 0 hints"), std::string::npos);
}

// A CI log shows every distinct message of a code (UNDEFINED_PROPERTY names a
// different property in each), and stays bounded when there are thousands.
TEST(ValidationText, ListsEveryDistinctMessageUpToABound) {
  ValidationReport r;
  r.uri = "a.gltf";
  // 25 distinct messages; message k is raised k + 1 times (k = 0..24): 325 issues.
  for (int k = 0; k < 25; ++k) {
    for (int n = 0; n <= k; ++n) {
      r.issues.push_back(issue("UNDEFINED_PROPERTY", Severity::kError,
                               "/p" + std::to_string(k) + "/" + std::to_string(n),
                               "property " + std::to_string(k)));
    }
  }
  std::ostringstream out;
  gltf_anim::reports::write_validation_text(out, std::vector<ValidationReport>{r});
  const std::string t = out.str();
  EXPECT_NE(t.find("  error UNDEFINED_PROPERTY x325, 25 distinct messages:\n"
                   "    at /p0/0: property 0\n"
                   "    x2, first at /p1/0, /p1/1: property 1\n"
                   "    x3, first at /p2/0, /p2/1, /p2/2: property 2\n"
                   "    x4, first at /p3/0, /p3/1, /p3/2, ...: property 3\n"),
            std::string::npos)
      << t;
  // The first 20 messages are listed (property 19 is), the other 5 counted:
  // 21 + 22 + 23 + 24 + 25 = 115 issues.
  EXPECT_NE(t.find("    x20, first at /p19/0, /p19/1, /p19/2, ...: property 19\n"),
            std::string::npos)
      << t;
  EXPECT_EQ(t.find("property 20"), std::string::npos) << t;
  EXPECT_NE(t.find("    ... 5 more distinct messages (115 issues) not listed here"),
            std::string::npos)
      << t;
  // Lines: the asset, the code, 20 messages, the cut, the summary.
  EXPECT_EQ(std::count(t.begin(), t.end(), '\n'), 24) << t;
}

TEST(ValidationFormat, Names) {
  EXPECT_EQ(gltf_anim::reports::validation_format_from_name("sarif"), ValidationFormat::kSarif);
  EXPECT_EQ(gltf_anim::reports::validation_format_from_name("junit"), ValidationFormat::kJunit);
  EXPECT_FALSE(gltf_anim::reports::validation_format_from_name("xml").has_value());
}

}  // namespace

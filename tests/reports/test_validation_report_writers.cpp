// The validation report writers (reports/validation_report.hpp) on hand-built
// reports: json shape and key order (glTF-Validator's), SARIF 2.1.0 fields,
// JUnit well-formedness and escaping, text grouping.
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/validator/issue.hpp>

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using gltf_anim::reports::ValidationWriteOptions;
using gltf_anim::validator::AssetInfo;
using gltf_anim::validator::Issue;
using gltf_anim::validator::Severity;
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

std::vector<std::string> keys(const rapidjson::Value& o) {
  std::vector<std::string> out;
  for (const auto& m : o.GetObject()) out.emplace_back(m.name.GetString());
  return out;
}

TEST(ValidationJson, OneReportIsAnObjectInGltfValidatorKeyOrder) {
  const std::vector<ValidationReport> reports{sample_report()};
  std::ostringstream out;
  gltf_anim::reports::write_validation_json(out, reports);
  rapidjson::Document d;
  d.Parse(out.str().c_str());
  ASSERT_FALSE(d.HasParseError());
  ASSERT_TRUE(d.IsObject());
  EXPECT_EQ(keys(d), (std::vector<std::string>{"uri", "mimeType", "validatorVersion", "issues", "info"}));
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
  // Four-space indent, as glTF-Validator's CLI writes it.
  EXPECT_NE(out.str().find("\n    \"uri\""), std::string::npos);
}

TEST(ValidationJson, SeveralReportsAreAnArrayAndUnparsableHasNoMimeType) {
  ValidationReport broken;
  broken.uri = "bad.gltf";
  broken.issues.push_back(issue("INVALID_JSON", Severity::kError, ""));
  const std::vector<ValidationReport> reports{sample_report(), broken};
  std::ostringstream out;
  gltf_anim::reports::write_validation_json(out, reports);
  rapidjson::Document d;
  d.Parse(out.str().c_str());
  ASSERT_TRUE(d.IsArray());
  ASSERT_EQ(d.Size(), 2u);
  EXPECT_FALSE(d[1].HasMember("mimeType"));
  EXPECT_FALSE(d[1].HasMember("info"));
  EXPECT_STREQ(d[1]["issues"]["messages"][0]["pointer"].GetString(), "");
}

TEST(ValidationSarif, Has210FieldsRulesFromRegistryAndLocations) {
  const std::vector<ValidationReport> reports{sample_report()};
  std::ostringstream out;
  gltf_anim::reports::write_validation_sarif(out, reports);
  rapidjson::Document d;
  d.Parse(out.str().c_str());
  ASSERT_FALSE(d.HasParseError());
  EXPECT_STREQ(d["version"].GetString(), "2.1.0");
  EXPECT_TRUE(d.HasMember("$schema"));
  const auto& run = d["runs"][0];
  EXPECT_STREQ(run["tool"]["driver"]["name"].GetString(), "gltf-anim");
  const auto& rules = run["tool"]["driver"]["rules"];
  EXPECT_EQ(rules.Size(), gltf_anim::validator::issue_types().size());
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

TEST(ValidationSarif, RegionLineOfThePointerInTheGltfText) {
  const std::filesystem::path dir = std::filesystem::path(GLTF_ANIM_TEST_TMP) / "sarif";
  std::filesystem::create_directories(dir);
  const std::filesystem::path file = dir / "lines.gltf";
  {
    std::ofstream out(file, std::ios::binary);
    out << "{\n"                                   // line 1
           "  \"asset\": {\"version\": \"2.0\"},\n"   // line 2
           "  \"animations\": [\n"                   // line 3
           "    {\n"                                 // line 4: /animations/0
           "      \"channels\": [],\n"               // line 5: /animations/0/channels
           "      \"a/b\": 1\n"                       // line 6: /animations/0/a~1b
           "    }\n"
           "  ]\n"
           "}\n";
  }
  ValidationReport r;
  r.uri = file.string();
  r.mime_type = "model/gltf+json";
  r.issues.push_back(issue("UNDEFINED_PROPERTY", Severity::kError, "/animations/0"));
  r.issues.push_back(issue("EMPTY_ENTITY", Severity::kError, "/animations/0/channels"));
  r.issues.push_back(issue("UNEXPECTED_PROPERTY", Severity::kWarning, "/animations/0/a~1b"));
  r.issues.push_back(issue("UNRESOLVED_REFERENCE", Severity::kError, "/animations/7"));
  const std::vector<ValidationReport> reports{r};
  std::ostringstream out;
  gltf_anim::reports::write_validation_sarif(out, reports);
  rapidjson::Document d;
  d.Parse(out.str().c_str());
  ASSERT_FALSE(d.HasParseError());
  const auto& results = d["runs"][0]["results"];
  auto line = [&](rapidjson::SizeType k) {
    const auto& loc = results[k]["locations"][0]["physicalLocation"];
    return loc.HasMember("region") ? loc["region"]["startLine"].GetInt() : 0;
  };
  EXPECT_EQ(line(0), 4);
  EXPECT_EQ(line(1), 5);
  EXPECT_EQ(line(2), 6);
  EXPECT_EQ(line(3), 0);  // not in the file: no region
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
  const std::vector<ValidationReport> reports{sample_report()};
  std::ostringstream out;
  gltf_anim::reports::write_validation_text(out, reports);
  const std::string t = out.str();
  EXPECT_NE(t.find("dir/a b.gltf: FAIL (5 errors, 1 warning, 1 info, 0 hints)"), std::string::npos) << t;
  // 4 duplicates: one line, count, the first three places, then "...".
  EXPECT_NE(t.find("error ANIMATION_DUPLICATE_TARGETS x4, first at /animations/0/channels/0/target, "
                   "/animations/0/channels/1/target, /animations/0/channels/2/target, ...: "),
            std::string::npos)
      << t;
  EXPECT_EQ(t.find("/animations/0/channels/3/target"), std::string::npos);
  EXPECT_NE(t.find("warning UNEXPECTED_PROPERTY at /animations/0/x: m"), std::string::npos);
  EXPECT_NE(t.find("error IO_ERROR at @12: glb"), std::string::npos);
  EXPECT_NE(t.find("1 asset, 1 failed; 5 errors, 1 warning, 1 info, 0 hints"), std::string::npos);
}

TEST(ValidationFormat, Names) {
  using gltf_anim::reports::ValidationFormat;
  EXPECT_EQ(gltf_anim::reports::validation_format_from_name("sarif"), ValidationFormat::kSarif);
  EXPECT_EQ(gltf_anim::reports::validation_format_from_name("junit"), ValidationFormat::kJunit);
  EXPECT_FALSE(gltf_anim::reports::validation_format_from_name("xml").has_value());
}

}  // namespace

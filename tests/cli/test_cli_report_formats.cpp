// The CI formats against their consumers: the JSON report against its
// published schema (docs/schemas/validation-report.schema.json, with valijson),
// JUnit through a real JUnit parser (Debian's python3-junitparser), SARIF rule
// help whole in the log (no repository links), the summary
// line on stderr, and the --shard partition. (SARIF against Microsoft's SARIF
// Multitool: tools/sarif, CTest sarif_multitool_*.)
#include "scratch.hpp"
#include <gtest/gtest.h>
#include <gltf_anim/gltf/json.hpp>
#include <rapidjson/document.h>
#include <gltf_anim/schema/schema_adapter.hpp>
#include <valijson/adapters/rapidjson_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cli/cli_process.hpp"
#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace {

namespace fs = std::filesystem;
const fs::path kSource = GLTF_ANIM_SOURCE_DIR;
const fs::path kTmp = gltf_anim_test::scratch_root() / "report_formats";

cli_process::Run cli(const std::vector<std::string>& args, const std::string& tag) {
  return cli_process::run(args, kTmp / tag);
}

gltf_anim::json::Document parse(const std::string& text) {
  gltf_anim::json::Document d;
  d.Parse(text.c_str(), text.size());
  return d;
}

// Empty when `report` satisfies the schema, else valijson's first errors.
std::string schema_errors(const std::string& report) {
  static const gltf_anim::json::Document schema_doc =
      parse(cli_process::slurp(kSource / "docs/schemas/validation-report.schema.json"));
  valijson::Schema schema;
  valijson::SchemaParser parser;
  gltf_anim::schema::SchemaAdapter schema_adapter(schema_doc);
  parser.populateSchema(schema_adapter, schema);
  const gltf_anim::json::Document d = parse(report);
  if (d.HasParseError()) return "not JSON";
  valijson::Validator validator;
  valijson::ValidationResults results;
  gltf_anim::schema::SchemaAdapter adapter(d);
  if (validator.validate(schema, adapter, &results)) return {};
  std::string why;
  valijson::ValidationResults::Error e;
  for (int k = 0; k < 5 && results.popError(e); ++k) {
    for (const auto& c : e.context) why += c;
    why += ": " + e.description + "\n";
  }
  return why.empty() ? "invalid" : why;
}

std::size_t assets_in(const fs::path& folder) {
  std::size_t n = 0;
  for (const auto& e : fs::recursive_directory_iterator(folder)) {
    const std::string ext = e.path().extension().string();
    n += ext == ".gltf" || ext == ".glb" ? 1 : 0;
  }
  return n;
}

TEST(ReportFormats, JsonReportsOfEveryKindMatchThePublishedSchema) {
  const std::string invalid = (kSource / "conformance_assets/invalid").string();
  const std::string hostile = (kSource / "tests/hostile/cases").string();
  const std::string one = (kSource / "conformance_assets/valid/sqlerp_with_fallback.gltf").string();
  const std::vector<std::vector<std::string>> runs{
      {"validate", "--format", "json", one},
      {"validate", "--format", "json", "--no-timings", invalid},
      {"validate", "--format", "json", hostile},
      {"validate", "--format", "json", "--shard", "2/3", invalid},
      {"validate", "--format", "json", "--shard", "7/7", one},  // an empty shard is a report too
  };
  for (std::size_t k = 0; k < runs.size(); ++k) {
    SCOPED_TRACE(k);
    const auto r = cli(runs[k], "schema_" + std::to_string(k));
    ASSERT_LE(r.exit_code, 1) << r.err;
    EXPECT_EQ(schema_errors(r.out), "");
  }
  // The check can fail: the former shape (an array of reports) and a report
  // whose message has neither pointer nor offset are refused.
  EXPECT_NE(schema_errors("[]"), "");
  const auto r = cli(runs[0], "schema_mutated");
  std::string mutated = r.out;
  mutated.replace(mutated.find("\"validatorName\": \"gltf-anim\""), 29,
                  "\"validatorName\": \"other\"");
  EXPECT_NE(schema_errors(mutated), "");
}

TEST(ReportFormats, SarifHelpIsWholeInTheLogWithoutRepositoryLinks) {
  const auto r =
      cli({"validate", "--format", "sarif", (kSource / "conformance_assets/valid").string()},
          "sarif_help");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const gltf_anim::json::Document d = parse(r.out);
  ASSERT_FALSE(d.HasParseError());
  const auto& driver = d["runs"][0]["tool"]["driver"];
  EXPECT_TRUE(driver.HasMember("informationUri"));
  std::size_t rules = 0;
  for (const auto& rule : driver["rules"].GetArray()) {
    ++rules;
    // No link to a place in a repository: the help says it all.
    EXPECT_FALSE(rule.HasMember("helpUri")) << rule["id"].GetString();
    const std::string help = rule["help"]["text"].GetString();
    EXPECT_EQ(help.find("://"), std::string::npos) << help;
    // The rule (the title) and the spec sentence, whole.
    EXPECT_EQ(help.rfind(rule["shortDescription"]["text"].GetString(), 0), 0u) << help;
    EXPECT_NE(help.find(rule["fullDescription"]["text"].GetString()), std::string::npos) << help;
    EXPECT_TRUE(rule["help"].HasMember("markdown"));
  }
  EXPECT_GT(rules, 100u);
}

// A SARIF rule's defaultConfiguration.level is the level this run gives its
// results (SARIF 2.1.0 3.49.6 maps error/warning/note; info and hint are both
// "note" in our mapping): the registry says LINT_CHANNEL_WITHOUT_NODE is a
// warning, the default --lints info makes it information, so a note; under
// --lints warning it is a warning; an override wins over both. A code that is
// not a lint keeps its registry level (ANIMATION_DUPLICATE_TARGETS: error).
TEST(ReportFormats, SarifRuleLevelsAreTheLevelsOfThisRun) {
  const std::string one = (kSource / "conformance_assets/valid/sqlerp_with_fallback.gltf").string();
  auto levels = [&](const std::vector<std::string>& extra, const std::string& tag) {
    std::vector<std::string> args{"validate", "--format", "sarif"};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back(one);
    const auto r = cli(args, "sarif_levels_" + tag);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::map<std::string, std::string> out;
    const gltf_anim::json::Document d = parse(r.out);
    if (d.HasParseError()) return out;
    for (const auto& rule : d["runs"][0]["tool"]["driver"]["rules"].GetArray()) {
      out[rule["id"].GetString()] = rule["defaultConfiguration"]["level"].GetString();
    }
    return out;
  };
  auto by_default = levels({}, "default");
  EXPECT_EQ(by_default["LINT_CHANNEL_WITHOUT_NODE"], "note");
  EXPECT_EQ(by_default["ANIMATION_DUPLICATE_TARGETS"], "error");
  auto warning = levels({"--lints", "warning"}, "warning");
  EXPECT_EQ(warning["LINT_CHANNEL_WITHOUT_NODE"], "warning");
  EXPECT_EQ(warning["LINT_ANIMATION_STARTS_AFTER_ZERO"], "note");  // information in the registry
  auto overridden = levels({"--severity-override", "LINT_CHANNEL_WITHOUT_NODE=0",
                            "--severity-override", "ANIMATION_DUPLICATE_TARGETS=1"},
                           "override");
  EXPECT_EQ(overridden["LINT_CHANNEL_WITHOUT_NODE"], "error");
  EXPECT_EQ(overridden["ANIMATION_DUPLICATE_TARGETS"], "warning");
}

// The json report carries a policy that is not the default one (and only
// then), in the published schema's shape.
TEST(ReportFormats, JsonNamesAPolicyThatIsNotTheDefault) {
  const std::string one = (kSource / "conformance_assets/valid/sqlerp_with_fallback.gltf").string();
  const auto plain = cli({"validate", "--format", "json", one}, "policy_plain");
  EXPECT_FALSE(parse(plain.out).HasMember("policy"));
  const auto r = cli({"validate", "--format", "json", "--lints", "hint", "--severity-override",
                      "LINT_CHANNEL_*=1", one},
                     "policy_given");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(schema_errors(r.out), "");
  const gltf_anim::json::Document d = parse(r.out);
  ASSERT_TRUE(d.HasMember("policy"));
  EXPECT_STREQ(d["policy"]["lints"].GetString(), "hint");
  ASSERT_EQ(d["policy"]["severityOverrides"].MemberCount(), 1u);
  EXPECT_STREQ(d["policy"]["severityOverrides"]["LINT_CHANNEL_WITHOUT_NODE"].GetString(), "warning");
}

TEST(ReportFormats, SarifPathsAreRelativeToTheSarifBaseWhateverTheyWereNamedBy) {
  const fs::path asset = kSource / "conformance_assets/invalid/channel/duplicate_targets.gltf";
  auto location = [](const std::string& sarif) {
    const gltf_anim::json::Document d = parse(sarif);
    const auto& loc = d["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    return std::make_pair(std::string(loc["uri"].GetString()),
                          loc.HasMember("uriBaseId") ? std::string(loc["uriBaseId"].GetString()) : "");
  };
  // An absolute path beneath the base: relative to it, with %SRCROOT%.
  const auto inside =
      cli({"validate", "--format", "sarif", "--sarif-base", kSource.string(), asset.string()}, "base_in");
  EXPECT_EQ(location(inside.out),
            std::make_pair(std::string("conformance_assets/invalid/channel/duplicate_targets.gltf"),
                           std::string("%SRCROOT%")));
  // Outside the base: the absolute file URI, no base.
  const auto outside = cli({"validate", "--format", "sarif", "--sarif-base",
                            (kSource / "docs").string(), asset.string()},
                           "base_out");
  EXPECT_EQ(location(outside.out), std::make_pair("file://" + asset.lexically_normal().generic_string(),
                                                  std::string("")));
  EXPECT_EQ(cli({"validate", "--format", "sarif", "--sarif-base", (kTmp / "absent").string(),
                 asset.string()},
                "base_absent")
                .exit_code,
            2);
}

TEST(ReportFormats, JunitIsReadByARealJunitParser) {
  // python3-junitparser (Debian) with Debian's own python3, whatever python3
  // comes first on PATH; without it the test fails, it is not skipped.
  const fs::path python = "/usr/bin/python3";
  const fs::path folder = kSource / "conformance_assets/invalid";
  fs::create_directories(kTmp);
  const fs::path xml = kTmp / "junit.xml";
  const auto r =
      cli({"validate", "--format", "junit", "--output", xml.string(), folder.string()}, "junit");
  ASSERT_EQ(r.exit_code, 1) << r.err;
  const fs::path script = kTmp / "read_junit.py";
  std::ofstream(script) << R"(import sys
import junitparser
xml = junitparser.JUnitXml.fromfile(sys.argv[1])
for suite in xml:
    print("suite", suite.tests, suite.failures, suite.time)
    for case in suite:
        failed = any(isinstance(x, junitparser.Failure) for x in case.result)
        print("case", case.classname, case.name, case._elem.get("file"), case.time, int(failed))
)";
  const std::string out_file = (kTmp / "junit_parsed.txt").string();
  const std::string command =
      python.string() + " " + script.string() + " " + xml.string() + " > " + out_file;
  ASSERT_EQ(std::system(command.c_str()), 0)
      << "python3-junitparser is needed (apt-get install python3-junitparser)";
  std::ifstream in(out_file);
  std::string kind;
  std::size_t cases = 0, failed_cases = 0;
  std::size_t suite_tests = 0, suite_failures = 0;
  while (in >> kind) {
    if (kind == "suite") {
      double time = -1;
      in >> suite_tests >> suite_failures >> time;
      EXPECT_GT(time, 0.0);
      continue;
    }
    std::string classname, name, file;
    double time = -1;
    int failed = 0;
    in >> classname >> name >> file >> time >> failed;
    ++cases;
    failed_cases += static_cast<std::size_t>(failed);
    // classname is the folder, name the file name, file the path: file = classname/name.
    EXPECT_EQ(file, classname + "/" + name);
    EXPECT_TRUE(fs::exists(file)) << file;
    EXPECT_GE(time, 0.0);
  }
  EXPECT_EQ(cases, assets_in(folder));
  EXPECT_EQ(suite_tests, cases);
  EXPECT_EQ(suite_failures, failed_cases);
  EXPECT_GT(failed_cases, 0u);
}

TEST(ReportFormats, SummaryLineOnStderrOnlyWhenTheReportGoesToAFile) {
  const fs::path folder = kSource / "conformance_assets/invalid";
  fs::create_directories(kTmp);
  const fs::path json = kTmp / "summary.json";
  const auto to_file =
      cli({"validate", "--format", "json", "--output", json.string(), folder.string()}, "summary");
  ASSERT_EQ(to_file.exit_code, 1);
  // The counts, from the report itself, summed here.
  const gltf_anim::json::Document d = parse(cli_process::slurp(json));
  std::uint64_t failing = 0, errors = 0;
  for (const auto& report : d["reports"].GetArray()) {
    errors += report["issues"]["numErrors"].GetUint64();
    failing += report["issues"]["numErrors"].GetUint64() != 0 ? 1 : 0;
  }
  const std::string expected = "gltf-anim validate: FAIL: " + std::to_string(assets_in(folder)) +
                               " assets, " + std::to_string(failing) + " failed; " +
                               std::to_string(errors) + " errors, ";
  EXPECT_NE(to_file.err.find(expected), std::string::npos) << to_file.err;
  EXPECT_NE(to_file.err.find("(fail-on error); report in " + json.string() + "\n"),
            std::string::npos);
  const auto to_stdout = cli({"validate", "--format", "json", folder.string()}, "summary_stdout");
  EXPECT_EQ(to_stdout.err.find("gltf-anim validate: FAIL"), std::string::npos) << to_stdout.err;
  const auto pass = cli({"validate", "--output", (kTmp / "pass.txt").string(),
                         (kSource / "conformance_assets/valid/sqlerp_with_fallback.gltf").string()},
                        "summary_pass");
  EXPECT_EQ(pass.exit_code, 0);
  EXPECT_NE(pass.err.find("gltf-anim validate: pass: 1 asset, 0 failed; 0 errors, "),
            std::string::npos)
      << pass.err;
}

// FNV-1a 64, written again here; checked against the published test vector.
std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

TEST(ReportFormats, ShardsPartitionTheFilesByTheirPathInTheFolder) {
  ASSERT_EQ(fnv1a("a"), 0xaf63dc4c8601ec8cull);
  // The same 12 files in two folders of different names, created in opposite
  // orders: each file is in the shard its relative path says, in both.
  std::vector<std::string> names;
  for (int i = 0; i < 12; ++i)
    names.push_back("sub" + std::to_string(i % 3) + "/m" + std::to_string(i) + ".gltf");
  for (const char* root : {"shard_a", "shard_b_renamed"}) {
    const fs::path dir = kTmp / root;
    fs::remove_all(dir);
    std::vector<std::string> order = names;
    if (std::string(root) == "shard_b_renamed") std::reverse(order.begin(), order.end());
    for (const auto& n : order) {
      fs::create_directories((dir / n).parent_path());
      std::ofstream(dir / n) << R"({"asset":{"version":"2.0"}})";
    }
    constexpr std::uint64_t kShards = 4;
    std::set<std::string> seen;
    std::uint64_t position_sum = 0;
    for (std::uint64_t k = 1; k <= kShards; ++k) {
      const auto r = cli({"validate", "--format", "json", "--shard",
                          std::to_string(k) + "/" + std::to_string(kShards), dir.string()},
                         std::string(root) + std::to_string(k));
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const gltf_anim::json::Document d = parse(r.out);
      EXPECT_EQ(d["shard"]["assets"].GetUint64(), names.size());
      for (const auto& report : d["reports"].GetArray()) {
        const std::string relative =
            fs::path(report["uri"].GetString()).lexically_relative(dir).generic_string();
        EXPECT_EQ(fnv1a(relative) % kShards + 1, k) << relative;
        EXPECT_TRUE(seen.insert(relative).second) << relative << " in two shards";
        position_sum += report["shardPosition"].GetUint64();
      }
    }
    EXPECT_EQ(seen.size(), names.size());                            // every file in some shard
    EXPECT_EQ(position_sum, names.size() * (names.size() - 1) / 2);  // positions 0..11, once each
  }
  for (const char* bad : {"0/3", "4/3", "1/0", "a/3", "3", "1/3/", "-1/3", "1/10000000"}) {
    EXPECT_EQ(cli({"validate", "--shard", bad, (kTmp / "shard_a").string()}, "shard_bad").exit_code,
              2)
        << bad;
  }
}

}  // namespace

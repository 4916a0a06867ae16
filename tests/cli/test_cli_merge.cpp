// gltf-anim merge: N shards merged equal one run (byte for byte in every
// format; json with times too, once each asset's validationSeconds and the
// summary's are set aside), and sets of reports that do not make one run are
// refused with exit 2 and a reason.
#include "scratch.hpp"
#include <gtest/gtest.h>
#include <gltf_anim/gltf/json.hpp>
#include <rapidjson/document.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "cli/cli_process.hpp"

namespace {

namespace fs = std::filesystem;
const fs::path kSource = GLTF_ANIM_SOURCE_DIR;
const fs::path kTmp = gltf_anim_test::scratch_root() / "merge";

cli_process::Run cli(const std::vector<std::string>& args, const std::string& tag) {
  return cli_process::run(args, kTmp / tag);
}

// The assets of a run: two folders and a file, so that the whole run's order
// (argument order, then each folder sorted) is not a plain sort of the paths.
std::vector<std::string> assets() {
  return {(kSource / "tests/hostile/cases").string(),
          (kSource / "conformance_assets/invalid").string(),
          (kSource / "conformance_assets/valid/sqlerp_with_fallback.gltf").string()};
}

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Writes the json reports of shards 1..n (extra options first); returns their paths.
std::vector<std::string> shards(std::size_t n, const std::vector<std::string>& extra,
                                const std::string& tag) {
  std::vector<std::string> paths;
  for (std::size_t k = 1; k <= n; ++k) {
    const fs::path out =
        kTmp / (tag + "_" + std::to_string(k) + "of" + std::to_string(n) + ".json");
    fs::create_directories(kTmp);
    const auto r = cli(concat(concat({"validate", "--format", "json", "--output", out.string(),
                                      "--shard", std::to_string(k) + "/" + std::to_string(n)},
                                     extra),
                              assets()),
                       tag + std::to_string(k));
    EXPECT_LE(r.exit_code, 1) << r.err;
    paths.push_back(out.string());
  }
  return paths;
}

// The json without its time fields (docs/CI.md: the only members that differ
// between a merged and a whole run).
std::string without_times(const std::string& json) {
  return std::regex_replace(json, std::regex(R"(\n *"validationSeconds": [0-9.e+-]+,?)"), "");
}

TEST(Merge, ShardsMergedEqualOneRunInEveryFormat) {
  for (const char* format : {"json", "sarif", "junit", "text"}) {
    const auto whole = cli(concat({"validate", "--no-timings", "--format", format}, assets()),
                           std::string("whole_") + format);
    ASSERT_EQ(whole.exit_code, 1) << whole.err;
    for (const std::size_t n : {1u, 2u, 5u}) {
      SCOPED_TRACE(std::string(format) + " " + std::to_string(n));
      auto parts = shards(n, {"--no-timings"}, std::string("nt_") + format);
      std::reverse(parts.begin(), parts.end());  // the order given does not matter
      const auto merged = cli(concat({"merge", "--no-timings", "--format", format}, parts),
                              std::string("merged_") + format + std::to_string(n));
      EXPECT_EQ(merged.exit_code, 1) << merged.err;
      EXPECT_EQ(merged.out, whole.out);
    }
  }
}

// More shards than merge keeps open at once (64): the whole run's order takes
// each asset from another file in turn, so files are closed and opened again
// between their assets, and the merge is still the whole run's report.
TEST(Merge, MoreShardsThanOpenFilesMergeAsOneRun) {
  const auto whole = cli(concat({"validate", "--no-timings", "--format", "json"}, assets()),
                         "whole_many");
  ASSERT_EQ(whole.exit_code, 1) << whole.err;
  const auto parts = shards(80, {"--no-timings"}, "many");
  const auto merged = cli(concat({"merge", "--no-timings", "--format", "json"}, parts), "merged_many");
  EXPECT_EQ(merged.exit_code, 1) << merged.err;
  EXPECT_EQ(merged.out, whole.out);
}

// Severities other than the default (--lints, --severity-override) travel in
// the shards' json "policy": the merged SARIF lists its rules at the run's
// levels, byte for byte as the whole run does.
TEST(Merge, ANonDefaultPolicyIsTheMergedRunsPolicy) {
  const std::vector<std::string> policy{"--no-timings", "--lints", "warning", "--severity-override",
                                        "ANIMATION_DUPLICATE_TARGETS=2"};
  for (const char* format : {"json", "sarif"}) {
    SCOPED_TRACE(format);
    const auto whole =
        cli(concat(concat({"validate", "--format", format}, policy), assets()), std::string("pw_") + format);
    ASSERT_EQ(whole.exit_code, 1) << whole.err;
    const auto parts = shards(3, policy, std::string("policy_") + format);
    const auto merged = cli(concat({"merge", "--no-timings", "--format", format}, parts),
                            std::string("pm_") + format);
    EXPECT_EQ(merged.exit_code, 1) << merged.err;
    EXPECT_EQ(merged.out, whole.out);
    EXPECT_NE(merged.out.find("ANIMATION_DUPLICATE_TARGETS"), std::string::npos);
  }
}

// A run that folded in glTF-Validator's report: its messages (codes that are
// not ours, "foundBy") survive the merge, so the merged report equals the run.
TEST(Merge, GltfValidatorFindingsSurviveTheMerge) {
  const fs::path dir = kTmp / "foreign";
  fs::create_directories(dir);
  const std::string asset = (kSource / "conformance_assets/valid/sqlerp_with_fallback.gltf").string();
  const fs::path theirs = dir / "gv.json";
  std::ofstream(theirs) << R"({"uri": ")" << asset
                        << R"(", "issues": {"numErrors": 0, "numWarnings": 0, "numInfos": 1,
      "numHints": 0, "truncated": false, "messages": [{"code": "NODE_EMPTY",
      "message": "Empty node encountered.", "severity": 2, "pointer": "/nodes/0"}]}})";
  for (const char* format : {"json", "sarif", "junit", "text"}) {
    SCOPED_TRACE(format);
    const std::vector<std::string> common = {"--no-timings", "--format", format,
                                             "--merge-gltf-validator", theirs.string(), asset};
    const auto whole = cli(concat({"validate"}, common), std::string("gv_whole_") + format);
    ASSERT_EQ(whole.exit_code, 0) << whole.err;
    ASSERT_NE(whole.out.find("NODE_EMPTY"), std::string::npos) << whole.out;
    const fs::path part = dir / (std::string("part_") + format + ".json");
    const auto shard = cli(concat({"validate", "--shard", "1/1", "-o", part.string(), "--format",
                                   "json", "--no-timings", "--merge-gltf-validator",
                                   theirs.string()}, {asset}),
                           std::string("gv_part_") + format);
    ASSERT_EQ(shard.exit_code, 0) << shard.err;
    const auto merged = cli({"merge", "--no-timings", "--format", format, part.string()},
                            std::string("gv_merged_") + format);
    EXPECT_EQ(merged.exit_code, 0) << merged.err;
    EXPECT_EQ(merged.out, whole.out);
  }
  // A code that is not ours is refused unless glTF-Validator alone found it.
  const fs::path forged = dir / "forged.json";
  std::string text = cli_process::slurp(dir / "part_json.json");
  const std::string mark = R"("foundBy": [)";
  const auto at = text.find(mark);
  ASSERT_NE(at, std::string::npos) << text;
  std::ofstream(forged) << std::regex_replace(text, std::regex(R"("code": "NODE_EMPTY")"),
                                             R"("code": "NOT_OURS")");
  EXPECT_EQ(cli({"merge", forged.string()}, "gv_forged_theirs").exit_code, 0);
  std::ofstream(forged) << std::regex_replace(
      std::regex_replace(text, std::regex(R"("code": "NODE_EMPTY")"), R"("code": "NOT_OURS")"),
      std::regex(R"("glTF-Validator")"), R"("gltf-anim")");
  const auto refused = cli({"merge", forged.string()}, "gv_forged_ours");
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("unknown issue code 'NOT_OURS'"), std::string::npos) << refused.err;
}

// Sharded, each part is given the whole library's glTF-Validator report: a
// report of another shard's asset is that shard's, and the parts merged equal
// the whole run.
TEST(Merge, EveryShardTakesTheWholeGltfValidatorReport) {
  const fs::path dir = kTmp / "foreign_shards";
  fs::remove_all(dir);
  fs::create_directories(dir / "lib");
  std::string reports = "[";
  for (const char* name : {"a", "b", "c", "d", "e", "f"}) {
    const fs::path to = dir / "lib" / (std::string(name) + ".gltf");
    fs::copy_file(kSource / "conformance_assets/valid/sqlerp_with_fallback.gltf", to);
    reports += std::string(reports.size() > 1 ? "," : "") + R"({"uri": ")" + to.string() +
               R"(", "issues": {"numErrors": 0, "numWarnings": 0, "numInfos": 1, "numHints": 0,
      "truncated": false, "messages": [{"code": "NODE_EMPTY", "message": "Empty node.",
      "severity": 2, "pointer": "/nodes/0"}]}})";
  }
  std::ofstream(dir / "gv.json") << reports << "]";
  const std::vector<std::string> common = {"--no-timings", "--format", "json",
                                           "--merge-gltf-validator", (dir / "gv.json").string(),
                                           (dir / "lib").string()};
  const auto whole = cli(concat({"validate"}, common), "gvs_whole");
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  std::vector<std::string> parts;
  for (const char* k : {"1/3", "2/3", "3/3"}) {
    const fs::path part = dir / (std::string("part") + k[0] + ".json");
    const auto r = cli(concat({"validate", "--shard", k, "-o", part.string()}, common),
                       std::string("gvs_part") + k[0]);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    parts.push_back(part.string());
  }
  const auto merged = cli(concat({"merge", "--no-timings"}, parts), "gvs_merged");
  EXPECT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_EQ(merged.out, whole.out);
}

TEST(Merge, WithTimesOnlyTheTimeFieldsDiffer) {
  const auto whole = cli(concat({"validate", "--format", "json"}, assets()), "timed_whole");
  const auto parts = shards(3, {}, "timed");
  const auto merged = cli(concat({"merge"}, parts), "timed_merged");
  EXPECT_EQ(merged.exit_code, 1) << merged.err;
  EXPECT_NE(merged.out.find("\"validationSeconds\""), std::string::npos);
  EXPECT_EQ(without_times(merged.out), without_times(whole.out));
  // Each asset keeps the time its shard measured.
  gltf_anim::json::Document m, s;
  m.Parse(merged.out.c_str());
  s.Parse(cli_process::slurp(parts[0]).c_str());
  ASSERT_FALSE(m.HasParseError());
  ASSERT_FALSE(s.HasParseError());
  ASSERT_GT(s["reports"].Size(), 0u);
  const auto& first = s["reports"][0];
  const auto& same = m["reports"][first["shardPosition"].GetUint()];
  EXPECT_STREQ(same["uri"].GetString(), first["uri"].GetString());
  EXPECT_EQ(same["validationSeconds"].GetDouble(), first["validationSeconds"].GetDouble());
  EXPECT_FALSE(same.HasMember("shardPosition"));
  EXPECT_FALSE(m.HasMember("shard"));
}

TEST(Merge, WholeRunsAreJoinedInTheOrderGiven) {
  const std::string a = (kSource / "conformance_assets/valid/sqlerp_with_fallback.gltf").string();
  const std::string b = (kSource / "conformance_assets/invalid/channel").string();
  fs::create_directories(kTmp);
  const fs::path ra = kTmp / "run_a.json", rb = kTmp / "run_b.json";
  cli({"validate", "--format", "json", "--no-timings", "-o", ra.string(), a}, "run_a");
  cli({"validate", "--format", "json", "--no-timings", "-o", rb.string(), b}, "run_b");
  const auto joined = cli({"merge", rb.string(), ra.string()}, "joined");
  const auto both = cli({"validate", "--format", "json", "--no-timings", b, a}, "both");
  EXPECT_EQ(joined.exit_code, 1);
  EXPECT_EQ(joined.out, both.out);
}

TEST(Merge, SetsThatAreNotOneRunAreRefused) {
  const auto three = shards(3, {"--no-timings"}, "refuse");
  const auto two = shards(2, {"--no-timings"}, "refuse");
  fs::create_directories(kTmp);
  const fs::path whole = kTmp / "refuse_whole.json";
  cli(concat({"validate", "--format", "json", "-o", whole.string()}, assets()), "refuse_whole");
  const fs::path warning = kTmp / "refuse_warning.json";
  cli(concat({"validate", "--format", "json", "--fail-on", "warning", "--shard", "3/3", "-o",
              warning.string()},
             assets()),
      "refuse_warning");
  const fs::path lints = kTmp / "refuse_lints.json";
  cli(concat({"validate", "--format", "json", "--no-timings", "--lints", "warning", "--shard", "3/3",
              "-o", lints.string()},
             assets()),
      "refuse_lints");
  const fs::path ignoring = kTmp / "refuse_ignore.json";
  cli(concat({"validate", "--format", "json", "--no-timings", "--ignore", "UNUSED_OBJECT",
              "--shard", "3/3", "-o", ignoring.string()},
             assets()),
      "refuse_ignore");
  const fs::path other_library = kTmp / "refuse_library.json";
  cli(concat({"validate", "--format", "json", "--no-timings", "--shard", "3/3", "-o",
              other_library.string()},
             concat(assets(), {(kSource / "conformance_assets/valid/sqlerp_with_fallback.gltf")
                                   .string()})),
      "refuse_library");
  auto write = [](const std::string& name, const std::string& text) {
    const fs::path p = kTmp / name;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  };
  std::string tampered = cli_process::slurp(whole);
  tampered.replace(tampered.find("\"numErrors\": "), 14, "\"numErrors\": 9");
  std::string unknown = cli_process::slurp(whole);
  unknown.replace(unknown.find("\"code\": \""), 9, "\"code\": \"NOT_A_CODE_");
  // Counts from the file never size an allocation: 2^63 shards or assets.
  auto replaced = [](const std::string& text, const char* pattern, const char* with) {
    return std::regex_replace(text, std::regex(pattern), with, std::regex_constants::format_first_only);
  };
  const std::string shard1 = cli_process::slurp(three[0]);
  const std::string huge_count = replaced(shard1, R"("count": 3)", R"("count": 9223372036854775808)");
  const std::string huge_assets =
      replaced(shard1, R"("assets": [0-9]+)", R"("assets": 9223372036854775808)");
  const std::string past =
      replaced(shard1, R"("shardPosition": [0-9]+)", R"("shardPosition": 100000)");
  const fs::path fifo = kTmp / "report.fifo";
  fs::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{three[0], three[1]}, "shard 3/3 is missing"},
      // The same report twice, by path or as a copy, is not counted twice.
      {{three[0], three[1], three[1], three[2]}, "is the same report as"},
      {{three[0], three[1], write("copy.json", cli_process::slurp(three[1])), three[2]},
       "is the same report as"},
      // Shards of another run: other options, another library (its identity).
      {{three[0], three[1], ignoring.string()}, "are shards of different runs"},
      {{three[0], three[1], other_library.string()}, "are shards of different runs"},
      {{three[0], three[1], two[1]}, "is shard 2/2 of "},
      {{three[0], three[1], three[2], whole.string()},
       "either the shards of one run or whole runs"},
      {{three[0], three[1], warning.string()}, "--fail-on warning"},
      {{three[0], three[1], lints.string()}, "different --lints or --severity-override"},
      {{write("policy.json", replaced(cli_process::slurp(lints), R"("lints": "warning")",
                                      R"("lints": "loud")"))},
       "at '/policy/lints': not off, hint, info or warning"},
      {{write("array.json", "[]")}, "not an object"},
      {{write("other.json", R"({"tool":{"name":"other","version":"1"}})")},
       "not a gltf-anim report"},
      {{write("broken.json", "{\"tool\": ")}, "not JSON"},
      {{write("tampered.json", tampered)}, "does not match the messages"},
      {{write("unknown.json", unknown)}, "unknown issue code 'NOT_A_CODE_"},
      {{kTmp.string()}, "Is a directory"},
      {{fifo.string()}, "not a regular file"},
      {{(kTmp / "absent.json").string()}, "No such file"},
      {{write("huge_count.json", huge_count)}, "shard 2/9223372036854775808 is missing"},
      {{write("huge_assets_1.json", huge_assets),
        write("huge_assets_2.json", replaced(cli_process::slurp(three[1]), R"("assets": [0-9]+)",
                                             R"("assets": 9223372036854775808)")),
        write("huge_assets_3.json", replaced(cli_process::slurp(three[2]), R"("assets": [0-9]+)",
                                             R"("assets": 9223372036854775808)"))},
       "assets, the run 9223372036854775808"},
      {{write("past.json", past), three[1], three[2]}, "at shardPosition 100000 past the run's assets"},
      {{write("seconds.json", std::regex_replace(cli_process::slurp(whole),
                                                 std::regex(R"("validationSeconds": [0-9.e+-]+)"),
                                                 R"("validationSeconds": 1e300)"))},
       "not a number of seconds"},
  };
  for (std::size_t k = 0; k < cases.size(); ++k) {
    SCOPED_TRACE(cases[k].second);
    const auto r = cli(concat({"merge"}, cases[k].first), "refused" + std::to_string(k));
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.err.find(cases[k].second), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
  // An output that is one of the reports is refused before anything is written.
  const std::string before = cli_process::slurp(three[0]);
  const auto same = cli({"merge", "-o", three[0], three[0], three[1], three[2]}, "same_file");
  EXPECT_EQ(same.exit_code, 2);
  EXPECT_EQ(cli_process::slurp(three[0]), before);
}

// A report on standard input ("-") merges as the file it came from; only one
// report can come from there.
TEST(Merge, AReportFromStandardInput) {
  const auto three = shards(3, {"--no-timings"}, "stdin");
  const auto files = cli({"merge", "--no-timings", three[0], three[1], three[2]}, "stdin_files");
  cli_process::Options o;
  o.stdin_path = three[1];
  const auto piped = cli_process::run_program(
      {GLTF_ANIM_CLI, "merge", "--no-timings", three[0], "-", three[2]}, kTmp / "stdin_piped", o);
  EXPECT_EQ(piped.exit_code, files.exit_code) << piped.err;
  EXPECT_EQ(piped.out, files.out);
  const auto twice = cli_process::run_program({GLTF_ANIM_CLI, "merge", "-", "-"},
                                              kTmp / "stdin_twice", o);
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.err.find("given twice"), std::string::npos) << twice.err;
}

}  // namespace

namespace {

// merge --format sarif takes the regions from the shards' json reports: after
// the asset is gone (or on a machine that never had it) each result still has
// the line and column validate found, and merge opens no file a report names.
TEST(Merge, SarifRegionsComeFromTheReportsNotTheAssets) {
  const fs::path dir = kTmp / "gone";
  fs::create_directories(dir);
  const fs::path asset = dir / "gone.gltf";
  // Line 4 holds /animations/0 (from column 5), whose channels and samplers
  // are empty: its issues point at the animation or its members, all on line 4.
  std::ofstream(asset) << "{\n  \"asset\": {\"version\": \"2.0\"},\n  \"animations\": [\n    "
                          "{\"channels\": [], \"samplers\": []}\n  ]\n}\n";
  const fs::path report = dir / "gone.json";
  const auto v = cli({"validate", "--no-timings", "--format", "json", "--output", report.string(),
                      "--shard", "1/1", asset.string()},
                     "gone_validate");
  ASSERT_LE(v.exit_code, 1) << v.err;
  const auto before =
      cli({"merge", "--no-timings", "--format", "sarif", report.string()}, "gone_before");
  fs::remove(asset);
  const auto after =
      cli({"merge", "--no-timings", "--format", "sarif", report.string()}, "gone_after");
  EXPECT_EQ(after.out, before.out);
  gltf_anim::json::Document d;
  d.Parse(after.out.c_str());
  ASSERT_FALSE(d.HasParseError()) << after.out;
  const auto& results = d["runs"][0]["results"];
  ASSERT_GT(results.Size(), 0u);
  for (const auto& result : results.GetArray()) {
    const auto& region = result["locations"][0]["physicalLocation"]["region"];
    EXPECT_EQ(region["startLine"].GetUint(), 4u) << result["message"]["text"].GetString();
    EXPECT_TRUE(region.HasMember("startColumn"));
  }
}

}  // namespace

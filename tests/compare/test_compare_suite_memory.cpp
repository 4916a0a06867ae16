// compare_suite: a suite and an engine's samples held in memory, every file the manifest
// names read through the caller's reader (which counts what it is asked for), no file
// opened. The verdicts are known by construction: each actual file is the golden one with a
// change whose size is chosen against the case's tolerance.
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/io/resource_reader.hpp>

#include <gtest/gtest.h>

#include "counting_reader.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace gc = gltf_anim::compare;
namespace gs = gltf_anim::samples;
namespace io = gltf_anim::io;

namespace {

using gltf_anim::test_support::CountingReader;

// One translation channel sampled at t = 0 and t = 1.
std::string samples_json(const std::string& asset, const std::string& v0, const std::string& v1) {
  return R"({"asset": ")" + asset + R"(", "animations": [{"index": 0, "channels": [
    {"index": 0, "target": "/nodes/0/translation", "interpolation": "LINEAR",
     "samples": [{"t": 0, "value": )" + v0 + R"(}, {"t": 1, "value": )" + v1 + R"(}]}]}]})";
}

// Four cases, each golden going from (0, 0, 0) at 0 s to (1, 2, 3) at 1 s, tolerance 0.01:
//  near    - actual off by 0.005 at 1 s: within 0.01, passes;
//  half    - actual (0.5, 1, 1.5) at 1 s: off by 1.5, but that is the variant "half", passes
//            as it;
//  absent  - no actual file: not run;
//  far     - actual x off by 0.5 at 1 s: fails, worst error 0.5 at t = 1.
const char* kManifest = R"({"tolerance": 0.01, "assets": [
  {"id": "near", "samples": "valid/near.samples.json"},
  {"id": "half", "samples": "valid/half.samples.json",
   "variants": {"half": {"description": "half the way",
     "samples": [{"animation": 0, "channel": 0, "t": 1, "value": [0.5, 1, 1.5]}]}}},
  {"id": "absent", "samples": "valid/absent.samples.json"},
  {"id": "far", "samples": "valid/far.samples.json"}]})";

const std::vector<std::string> kIds = {"near", "half", "absent", "far"};

struct Suite {
  CountingReader files;
  gc::Manifest manifest = gc::parse_manifest(kManifest, "suite/manifest.json");
  Suite() {
    for (const std::string& id : kIds) {
      files.add("valid/" + id + ".samples.json", samples_json(id + ".gltf", "[0, 0, 0]", "[1, 2, 3]"));
    }
  }
  gc::SuiteInput input() const { return {&manifest, &files, "suite"}; }
};

gc::NamedSamples actual(const std::string& id, const std::string& v1) {
  return gc::read_named_samples(id + ".samples.json", samples_json(id + ".gltf", "[0, 0, 0]", v1));
}

const gc::CaseResult& find(const gc::CompareReport& r, const std::string& id) {
  const auto it = std::find_if(r.cases.begin(), r.cases.end(),
                               [&](const gc::CaseResult& c) { return c.id == id; });
  if (it == r.cases.end()) throw std::runtime_error("no case " + id);
  return *it;
}

}  // namespace

TEST(CompareSuiteMemory, VerdictsKnownByConstructionAndEachGoldenReadOnce) {
  const Suite suite;
  gc::ActualInput run;
  run.name = "engine";
  run.files.push_back(actual("near", "[1.005, 2, 3]"));
  run.files.push_back(actual("half", "[0.5, 1, 1.5]"));
  run.files.push_back(actual("far", "[1.5, 2, 3]"));
  const gc::CompareReport r = gc::compare_suite(suite.input(), std::move(run), {});

  EXPECT_EQ(r.golden, "suite");
  EXPECT_EQ(r.actual, "engine");
  ASSERT_EQ(r.cases.size(), 4u);
  // Sorted by id, as every report is.
  EXPECT_EQ(r.cases[0].id, "absent");
  EXPECT_EQ(r.cases[1].id, "far");
  EXPECT_EQ(r.cases[2].id, "half");
  EXPECT_EQ(r.cases[3].id, "near");

  EXPECT_EQ(find(r, "near").outcome, gc::CaseOutcome::kPassed);
  EXPECT_EQ(find(r, "near").golden_file, "valid/near.samples.json");
  EXPECT_EQ(find(r, "near").actual_file, "near.samples.json");
  EXPECT_NEAR(find(r, "near").channels.at(0).stats.max, 0.005, 1e-12);

  EXPECT_EQ(find(r, "half").outcome, gc::CaseOutcome::kPassed);
  EXPECT_EQ(find(r, "half").matched_variant, "half");

  EXPECT_EQ(find(r, "absent").outcome, gc::CaseOutcome::kNotRun);

  const gc::CaseResult& far = find(r, "far");
  EXPECT_EQ(far.outcome, gc::CaseOutcome::kFailed);
  ASSERT_EQ(far.channels.size(), 1u);
  EXPECT_DOUBLE_EQ(far.channels[0].stats.max, 0.5);
  EXPECT_DOUBLE_EQ(far.channels[0].stats.worst_t, 1.0);
  EXPECT_EQ(far.channels[0].over_tolerance, 1u);
  EXPECT_DOUBLE_EQ(far.channels[0].tolerance, 0.01);
  EXPECT_EQ(r.passed(), 2u);
  EXPECT_EQ(r.failed(), 1u);
  EXPECT_EQ(r.not_run(), 1u);

  // Each golden file read once through the caller's reader, and nothing else asked for (the
  // variant is an excerpt, no case names an asset).
  std::map<std::string, int> expected;
  for (const std::string& id : kIds) expected["valid/" + id + ".samples.json"] = 1;
  EXPECT_EQ(suite.files.reads(), expected);
}

TEST(CompareSuiteMemory, ARefusedActualFailsItsCaseAndAStrayOneIsAWarning) {
  const Suite suite;
  gc::ActualInput run;
  run.files.push_back(gc::read_named_samples("near.samples.json", "{\"asset\": "));
  run.files.push_back(actual("stray", "[1, 2, 3]"));
  const gc::CompareReport r = gc::compare_suite(suite.input(), std::move(run), {});
  const gc::CaseResult& near = find(r, "near");
  EXPECT_EQ(near.outcome, gc::CaseOutcome::kFailed);
  EXPECT_NE(near.problem.find("the actual samples file is refused: near.samples.json"),
            std::string::npos)
      << near.problem;
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0], "actual file stray.samples.json matches no golden file (ignored)");
}

TEST(CompareSuiteMemory, AMissingGoldenFileIsTheSuitesErrorNamingIt) {
  Suite suite;
  const gc::Manifest broken = gc::parse_manifest(
      R"({"assets": [{"id": "gone", "samples": "valid/gone.samples.json"}]})", "suite/manifest.json");
  const gc::SuiteInput input{&broken, &suite.files, "suite"};
  try {
    (void)gc::compare_suite(input, {}, {});
    FAIL() << "no error";
  } catch (const gs::SamplesFormatError& e) {
    EXPECT_EQ(e.file(), "suite/valid/gone.samples.json");
  }
}

TEST(CompareSuiteMemory, CsvIsToldByTheName) {
  // The CSV reader reads it (JSON would refuse its first byte): one channel, one sample of 1.
  const gc::NamedSamples csv = gc::read_named_samples(
      "a.samples.CSV", "animation,channel,target,t,v0\n0,0,/nodes/0/translation,0,1\n");
  ASSERT_FALSE(csv.error) << gc::describe(*csv.error);
  ASSERT_EQ(csv.file.animations.size(), 1u);
  ASSERT_EQ(csv.file.animations[0].channels.size(), 1u);
  EXPECT_EQ(csv.file.animations[0].channels[0].values, std::vector<double>{1});
}

namespace {

std::string committed(const std::string& relative) {
  std::ifstream in(std::filesystem::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets" / relative,
                   std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace

// A named reading decodes the case's asset through the suite's reader too. The asset and its
// golden samples are the committed sqlerp_with_fallback's, handed over as bytes; the actual
// values are its LINEAR fallback's keys (identity at 0 s, 90 degrees about z at 1 s,
// (0.5, -0.5, 0.5, 0.5) at 2.5 s: `sample --keys --no-extensions`) played by normalized lerp,
// computed here, so the stacked reading "no-extensions + nlerp" explains the channel at the 6
// golden times off the keys (tests/cli/test_compare_named_readings_cli.cpp, on files).
TEST(CompareSuiteMemory, ANamedReadingDecodesTheAssetThroughTheReader) {
  using Q = std::array<double, 4>;
  const double times[] = {0, 1, 2.5};
  const Q keys[] = {
      {0, 0, 0, 1}, {0, 0, 0.7071067690849304, 0.7071067690849304}, {0.5, -0.5, 0.5, 0.5}};
  const auto nlerp = [&](double t) {
    if (t <= times[0]) return keys[0];
    if (t >= times[2]) return keys[2];
    const int k = t < times[1] ? 0 : 1;
    const double s = (t - times[k]) / (times[k + 1] - times[k]);
    Q b = keys[k + 1];
    const Q& a = keys[k];
    if (a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] < 0)
      for (double& c : b) c = -c;
    Q p;
    double n = 0;
    for (int c = 0; c < 4; ++c) {
      p[c] = (1 - s) * a[c] + s * b[c];
      n += p[c] * p[c];
    }
    for (double& c : p) c /= std::sqrt(n);
    return p;
  };
  CountingReader files;
  files.add("valid/sqlerp_with_fallback.gltf", committed("valid/sqlerp_with_fallback.gltf"));
  files.add("valid/sqlerp_with_fallback.samples.json",
            committed("valid/sqlerp_with_fallback.samples.json"));
  const gc::Manifest manifest = gc::parse_manifest(
      R"({"assets": [{"id": "sqlerp_with_fallback", "file": "valid/sqlerp_with_fallback.gltf",
          "samples": "valid/sqlerp_with_fallback.samples.json",
          "angleTolerance": 1.3e-05, "lengthTolerance": 2.2e-06}]})",
      "manifest.json");
  gc::NamedSamples engine;
  engine.name = "sqlerp_with_fallback.samples.json";
  engine.file.asset = "sqlerp_with_fallback.gltf";
  auto& a = engine.file.animations.emplace_back();
  a.index = 0;
  auto& ch = a.channels.emplace_back();
  ch.index = 0;
  ch.target = "/nodes/0/rotation";
  for (const double t : {-0.5, 0.0, 0.25, 0.5, 0.75, 1.0, 1.375, 1.75, 2.125, 2.5, 3.0}) {
    const Q q = nlerp(t);
    ch.add_sample(t, q);
  }
  gc::ActualInput run;
  run.files.push_back(std::move(engine));
  const gc::CompareReport r = gc::compare_suite({&manifest, &files, "suite"}, std::move(run), {});

  ASSERT_EQ(r.cases.size(), 1u);
  // A named reading changes no verdict.
  EXPECT_EQ(r.cases[0].outcome, gc::CaseOutcome::kFailed);
  ASSERT_EQ(r.cases[0].channels.size(), 1u);
  const auto& alternatives = r.cases[0].channels[0].alternatives;
  const auto named = std::find_if(alternatives.begin(), alternatives.end(),
                                  [](const gc::AlternativeMatch& m) {
                                    return m.name == "no-extensions + nlerp";
                                  });
  ASSERT_NE(named, alternatives.end());
  EXPECT_TRUE(named->allowed);
  EXPECT_FALSE(named->partial);
  EXPECT_EQ(named->other_failing, 0u);
  EXPECT_EQ(named->first_times, (std::vector<double>{0.25, 0.5, 0.75, 1.375, 1.75, 2.125}));
  // The golden file once; the asset for the channel's keys and again for its core-only view.
  const std::map<std::string, int> expected{{"valid/sqlerp_with_fallback.gltf", 2},
                                            {"valid/sqlerp_with_fallback.samples.json", 1}};
  EXPECT_EQ(files.reads(), expected);
}

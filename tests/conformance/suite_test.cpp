// The committed suite is exactly the generator's output; the generator is deterministic;
// the manifest describes every asset.
#include <gltf_anim/suite/suite.hpp>
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/samples/samples.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <set>

#include "conformance_test_util.hpp"

namespace gltf_anim::suite::test {
namespace {

namespace fs = std::filesystem;

// Relative paths of the files the generator owns in `root`: manifest.json and valid/*.
std::set<std::string> generated_files(const fs::path& root) {
  std::set<std::string> out;
  if (fs::exists(root / "manifest.json")) out.insert("manifest.json");
  if (fs::is_directory(root / "valid")) {
    for (const auto& e : fs::directory_iterator(root / "valid")) {
      out.insert("valid/" + e.path().filename().string());
    }
  }
  return out;
}

TEST(Suite, CommittedSuiteIsTheGeneratorsOutput) {
  const fs::path fresh = scratch("regenerated");
  const std::size_t n = generate(fresh);
  EXPECT_EQ(n, suite_cases().size());
  const auto expected = generated_files(fresh);
  const auto committed = generated_files(suite_dir());
  EXPECT_EQ(committed, expected) << "conformance_assets/valid differs in its list of files: run "
                                    "gltf-anim generate --out conformance_assets";
  for (const auto& name : expected) {
    EXPECT_TRUE(read_file(fresh / name) == read_file(suite_dir() / name))
        << name << " differs from the generator's output: run gltf-anim generate --out conformance_assets";
  }
}

TEST(Suite, GenerateIsByteIdenticalOnEveryRun) {
  const fs::path a = scratch("run_a");
  const fs::path b = scratch("run_b");
  generate(a);
  generate(b);
  const auto files = generated_files(a);
  ASSERT_EQ(files, generated_files(b));
  ASSERT_GT(files.size(), 2 * suite_cases().size());
  for (const auto& name : files) EXPECT_TRUE(read_file(a / name) == read_file(b / name)) << name;
}

TEST(Suite, ManifestListsEveryAssetWithItsGoldenAndTolerances) {
  gltf_anim::json::Document doc;
  const std::string text = read_file(suite_dir() / "manifest.json");
  doc.Parse(text.c_str(), text.size());
  ASSERT_FALSE(doc.HasParseError());
  const auto& assets = doc["assets"];
  ASSERT_TRUE(assets.IsArray());
  EXPECT_EQ(assets.Size(), suite_cases().size());
  std::set<std::string> ids;
  for (const auto& a : assets.GetArray()) {
    const std::string id = a["id"].GetString();
    EXPECT_TRUE(ids.insert(id).second) << id;
    EXPECT_TRUE(fs::exists(suite_dir() / a["file"].GetString())) << id;
    const fs::path samples = suite_dir() / a["samples"].GetString();
    ASSERT_TRUE(fs::exists(samples)) << id;
    const auto golden = samples::read_samples_file(samples);
    EXPECT_EQ(golden.asset, fs::path(a["file"].GetString()).filename().string());
    EXPECT_FALSE(golden.animations.empty()) << id;
    for (const auto& anim : golden.animations) EXPECT_FALSE(anim.channels.empty()) << id;
    EXPECT_GT(a["tolerance"].GetDouble(), 0.0);
    EXPECT_GT(a["angleTolerance"].GetDouble(), 0.0);
    EXPECT_GT(a["features"].Size(), 0u);
    EXPECT_GT(a["clauses"].Size(), 0u);
    if (a.HasMember("variants")) {
      for (const auto& v : a["variants"].GetObject()) {
        EXPECT_TRUE(v.value.HasMember("description")) << id << " " << v.name.GetString();
      }
    }
  }
}

TEST(Suite, EveryDivergenceOfTheSurveyHasACase) {
  std::set<std::string> ids;
  for (const auto& c : suite_cases()) ids.insert(c.id);
  for (const char* id : {"divergence_step_exact_key", "divergence_cubic_before_first", "divergence_cubic_after_last",
                         "divergence_quat_sign_exact_key", "divergence_non_unit_quat", "divergence_short_min",
                         "divergence_pointer_rotation", "divergence_near_parallel_fallback",
                         "divergence_loop_boundary"}) {
    EXPECT_TRUE(ids.count(id)) << id;
  }
}

TEST(Suite, ReadmeListsEveryCase) {
  const std::string readme = read_file(suite_dir() / "README.md");
  for (const auto& c : suite_cases()) {
    EXPECT_NE(readme.find("| `" + c.id + "` |"), std::string::npos) << c.id << " is missing from README.md";
  }
}

// The classification rule: a known divergence is non-conforming, so its description says
// which spec sentence it breaks ("breaks ..."), which the report shows to the engine's
// author; a variant is allowed by the specs and breaks none.
TEST(Suite, EveryKnownDivergenceNamesTheSpecSentenceItBreaks) {
  const auto manifest = compare::read_manifest(suite_dir() / "manifest.json");
  std::size_t divergences = 0;
  for (const auto& entry : manifest.entries) {
    for (const auto& d : entry.known_divergences) {
      ++divergences;
      EXPECT_NE(d.notes.find("breaks "), std::string::npos) << entry.id << ": " << d.name;
    }
    for (const auto& v : entry.variants) {
      EXPECT_EQ(v.notes.find("breaks "), std::string::npos) << entry.id << ": " << v.name;
      for (const auto& d : entry.known_divergences) EXPECT_NE(v.name, d.name) << entry.id;
    }
  }
  EXPECT_GT(divergences, 0u);
}

}  // namespace
}  // namespace gltf_anim::suite::test

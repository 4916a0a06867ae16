// compare on files and folders: the manifest (tolerances, features, variants),
// matching actual files to golden ones, and I/O errors.
#include <gltf_anim/compare/compare.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "compare_test_util.hpp"

namespace gs = gltf_anim::samples;
namespace gc = gltf_anim::compare;
namespace fs = std::filesystem;
using compare_test::find_case;
using compare_test::save;
using compare_test::write;

namespace {

fs::path fresh_dir(const std::string& name) {
  return compare_test::fresh_dir("compare_paths", name);
}

// A file with one translation channel sampled at t = 0, 1 with x = x0, x1.
gs::SamplesFile translation(const std::string& asset, double x0, double x1) {
  gs::SamplesFile f;
  f.asset = asset;
  auto& c = f.animations.emplace_back().channels.emplace_back();
  c.target = "/nodes/0/translation";
  c.add_sample(0, {x0, 0, 0});
  c.add_sample(1, {x1, 0, 0});
  return f;
}

// A rotation channel: about z by angle a0 at t = 0 and a1 at t = 1.
gs::SamplesFile rotation(const std::string& asset, double a0, double a1) {
  return compare_test::rotation_samples(asset, {{0, {0, 0, std::sin(a0 / 2), std::cos(a0 / 2)}},
                                                {1, {0, 0, std::sin(a1 / 2), std::cos(a1 / 2)}}});
}

const char* kManifest = R"({
  "generator": "test",
  "assets": [
    {"id": "move", "file": "move/move.gltf", "samples": "move/move.samples.json",
     "features": ["translation", "LINEAR"], "clauses": ["3.11.1 <b>"], "tolerance": 0.01,
     "notes": ["two", "parts"]},
    {"id": "spin", "file": "spin.gltf", "samples": "spin.samples.json",
     "features": ["rotation"], "angleTolerance": 0.02,
     "variants": [{"name": "nlerp", "samples": "spin.nlerp.samples.json", "notes": "nlerp instead of slerp"}]},
    {"id": "invalid-only", "file": "bad.gltf"}
  ]
})";

// golden/ with a manifest and three cases; no other JSON is scanned.
fs::path make_golden(const fs::path& dir) {
  const fs::path g = dir / "golden";
  write(g / "manifest.json", kManifest);
  save(g / "move/move.samples.json", translation("move/move.gltf", 0, 1));
  save(g / "spin.samples.json", rotation("spin.gltf", 0, 1.0));
  save(g / "spin.nlerp.samples.json", rotation("spin.gltf", 0, 1.1));
  write(g / "bad.expected.json", "{\"not\": \"a samples file\"}");  // an expected report
  return g;
}

}  // namespace

TEST(ComparePaths, ManifestTolerancesFeaturesAndMatchingByAsset) {
  const fs::path dir = fresh_dir("manifest");
  const fs::path g = make_golden(dir);
  // Actual files named freely, matched by asset (path prefix differs).
  save(dir / "out/a.json", translation("/home/me/suite/move.gltf", 0.005, 1));
  save(dir / "out/spin.json", rotation("spin.gltf", 0, 1.015));

  const gc::CompareReport r = gc::compare_paths(g, dir / "out", {});
  ASSERT_EQ(r.cases.size(), 2u);  // "invalid-only" has no samples
  const auto& move = find_case(r, "move");
  EXPECT_TRUE(move.passed());  // 0.005 <= manifest tolerance 0.01
  EXPECT_EQ(move.tolerances.absolute, 0.01);
  EXPECT_EQ(move.tolerances.angle, gc::kDefaultAngleTolerance);
  EXPECT_EQ(move.features, (std::vector<std::string>{"translation", "LINEAR"}));
  EXPECT_EQ(move.clauses, (std::vector<std::string>{"3.11.1 <b>"}));
  EXPECT_EQ(move.notes, "two parts");
  EXPECT_EQ(move.golden_file, "move/move.samples.json");
  EXPECT_EQ(move.actual_file, "a.json");
  const auto& spin = find_case(r, "spin");
  EXPECT_TRUE(spin.passed());  // 0.015 rad <= 0.02
  EXPECT_NEAR(spin.angle.max, 0.015, 1e-12);
  EXPECT_EQ(r.passed(), 2u);

  // Command-line overrides beat the manifest.
  gc::CompareOptions strict;
  strict.tolerance = 0.001;
  strict.angle_tolerance = 0.01;
  const auto r2 = gc::compare_paths(g, dir / "out", strict);
  EXPECT_FALSE(find_case(r2, "move").passed());
  EXPECT_FALSE(find_case(r2, "spin").passed());
  EXPECT_EQ(find_case(r2, "move").tolerances.absolute, 0.001);
  EXPECT_EQ(r2.failed(), 2u);
}

TEST(ComparePaths, VariantFromTheManifestCanPass) {
  const fs::path dir = fresh_dir("variant");
  const fs::path g = make_golden(dir);
  // 1.1 rad at t=1: 0.1 rad from the main golden, 0 from the nlerp variant.
  save(dir / "out/spin.samples.json", rotation("spin.gltf", 0, 1.1));
  const auto r = gc::compare_paths(g / "spin.samples.json", dir / "out/spin.samples.json", {});
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_TRUE(r.cases[0].passed());
  EXPECT_EQ(r.cases[0].matched_variant, "nlerp");
  EXPECT_EQ(r.cases[0].id, "spin");  // manifest found above the golden file
  ASSERT_FALSE(r.cases[0].warnings.empty());
  EXPECT_EQ(r.cases[0].warnings[0],
            "fails against the main golden samples but matches variant \"nlerp\": nlerp instead of "
            "slerp");
  // Neither golden nor variant: fails against the main golden.
  save(dir / "out/spin.samples.json", rotation("spin.gltf", 0, 1.3));
  const auto bad = gc::compare_paths(g / "spin.samples.json", dir / "out/spin.samples.json", {});
  EXPECT_FALSE(bad.cases[0].passed());
  EXPECT_NEAR(bad.cases[0].angle.max, 0.3, 1e-12);
}

TEST(ComparePaths, MissingAndExtraActualFiles) {
  const fs::path dir = fresh_dir("missing");
  const fs::path g = make_golden(dir);
  save(dir / "out/move.samples.json", translation("move/move.gltf", 0, 1));
  save(dir / "out/other.samples.json", translation("other.gltf", 0, 1));
  const auto r = gc::compare_paths(g, dir / "out", {});
  EXPECT_TRUE(find_case(r, "move").passed());
  // No actual file: not run, neither passed nor failed.
  const auto& spin = find_case(r, "spin");
  EXPECT_EQ(spin.outcome, gc::CaseOutcome::kNotRun);
  EXPECT_FALSE(spin.passed());
  EXPECT_FALSE(spin.failed());
  EXPECT_EQ(spin.problem, "no actual samples file for this case");
  EXPECT_EQ(r.not_run(), 1u);
  EXPECT_EQ(r.failed(), 0u);
  EXPECT_EQ(r.warnings, (std::vector<std::string>{
                            "actual file other.samples.json matches no golden file (ignored)"}));
}

TEST(ComparePaths, FoldersWithoutManifestMatchByFileName) {
  const fs::path dir = fresh_dir("nomanifest");
  // CSV golden (no asset) and CSV actual: matched by file name.
  save(dir / "g/x.samples.csv", translation("", 0, 1));
  save(dir / "g/y.samples.json", translation("y.glb", 0, 1));
  write(dir / "g/notes.json", "not even JSON");  // ignored: *.samples.* files exist
  save(dir / "a/x.csv", translation("", 0, 1.5));
  save(dir / "a/y.json", translation("y.glb", 0, 1));
  const auto r = gc::compare_paths(dir / "g", dir / "a", {});
  ASSERT_EQ(r.cases.size(), 2u);
  EXPECT_EQ(r.cases[0].id, "x");
  EXPECT_FALSE(r.cases[0].passed());
  EXPECT_EQ(r.cases[0].absolute.max, 0.5);
  EXPECT_EQ(r.cases[1].id, "y.glb");
  EXPECT_TRUE(r.cases[1].passed());
  // Two files are compared whatever their assets, with a warning if they differ.
  const auto pair = gc::compare_paths(dir / "g/y.samples.json", dir / "a/x.csv", {});
  ASSERT_EQ(pair.cases.size(), 1u);
  EXPECT_FALSE(pair.cases[0].passed());
  EXPECT_TRUE(pair.warnings.empty());  // CSV has no asset name
  gs::SamplesFile other = translation("z.glb", 0, 1);
  save(dir / "z.json", other);
  const auto mismatch = gc::compare_paths(dir / "g/y.samples.json", dir / "z.json", {});
  EXPECT_TRUE(mismatch.cases[0].passed());
  EXPECT_EQ(mismatch.warnings,
            (std::vector<std::string>{"the actual samples are of asset \"z.glb\", the golden ones of \"y.glb\""}));
  // A single actual file against the golden folder compares just its case.
  const auto one = gc::compare_paths(dir / "g", dir / "a/y.json", {});
  ASSERT_EQ(one.cases.size(), 1u);
  EXPECT_EQ(one.cases[0].id, "y.glb");
}

// The engine's output is at fault when an actual file cannot be read: in a
// folder run that case fails with the reader's words (file and JSON pointer or
// line), and every other case is still compared.
TEST(ComparePaths, MalformedActualFileFailsItsCaseOnly) {
  const fs::path dir = fresh_dir("malformed_actual");
  const fs::path g = make_golden(dir);
  save(dir / "out/move.samples.json", translation("move/move.gltf", 0, 1));
  const fs::path spin = dir / "out/spin.samples.json";
  const std::string refused = "the actual samples file is refused: " + spin.string() + ": ";
  const auto only_spin_fails = [&](const std::string& why) {
    const gc::CompareReport r = gc::compare_paths(g, dir / "out", {});
    ASSERT_EQ(r.cases.size(), 2u);
    EXPECT_TRUE(find_case(r, "move").passed());
    const auto& c = find_case(r, "spin");
    EXPECT_TRUE(c.failed());
    EXPECT_EQ(c.problem, refused + why);
    EXPECT_EQ(c.actual_file, "spin.samples.json");
    EXPECT_EQ(c.golden_file, "spin.samples.json");
    EXPECT_TRUE(c.channels.empty());
    EXPECT_EQ(c.features, (std::vector<std::string>{"rotation"}));
    EXPECT_EQ(r.passed(), 1u);
    EXPECT_EQ(r.failed(), 1u);
    EXPECT_TRUE(r.warnings.empty());
  };
  // A violation of the samples format, at its JSON pointer.
  write(spin, R"({"asset": "spin.gltf", "animations": [{"index": "0"}]})");
  only_spin_fails(R"(at JSON pointer "/animations/0/index": must be a non-negative integer)");
  // Not JSON: line and column (the 10th character of line 2 is the second comma).
  write(spin, "{\n  \"a\": 1,,\n}");
  only_spin_fails("line 2, column 10: invalid JSON: Missing a name for object member.");
  // Refused before reading: over the size limit.
  {
    gc::CompareOptions small;
    small.read.max_file_bytes = 4096;
    write(spin, std::string(5000, ' ') + "{}");
    const gc::CompareReport r = gc::compare_paths(g, dir / "out", small);
    EXPECT_TRUE(find_case(r, "move").passed());
    EXPECT_TRUE(find_case(r, "spin").failed());
    EXPECT_EQ(find_case(r, "spin").problem.rfind(refused, 0), 0u) << find_case(r, "spin").problem;
  }
  // Selected out by --cases, a malformed file changes nothing.
  gc::CompareOptions only_move;
  only_move.cases = {"move"};
  const auto selected = gc::compare_paths(g, dir / "out", only_move);
  ASSERT_EQ(selected.cases.size(), 1u);
  EXPECT_TRUE(selected.cases[0].passed());
  // Two files: the one case fails the same way.
  write(spin, "[]");
  const auto pair = gc::compare_paths(g / "spin.samples.json", spin, {});
  ASSERT_EQ(pair.cases.size(), 1u);
  EXPECT_TRUE(pair.cases[0].failed());
  EXPECT_EQ(pair.cases[0].id, "spin");
  EXPECT_EQ(pair.cases[0].problem.rfind(refused, 0), 0u) << pair.cases[0].problem;
  // A golden folder and that single file: paired by its name.
  const auto one = gc::compare_paths(g, spin, {});
  ASSERT_EQ(one.cases.size(), 1u);
  EXPECT_TRUE(one.cases[0].failed());
  EXPECT_EQ(one.cases[0].id, "spin");
}

// A malformed actual file whose name pairs it with no golden file belongs to
// no case: in a folder run a warning with the reader's words (the golden case
// it was meant for is not run); named alone, the reader's error (exit 2).
TEST(ComparePaths, MalformedActualFileOfNoCase) {
  const fs::path dir = fresh_dir("malformed_stray");
  const fs::path g = make_golden(dir);
  save(dir / "out/move.samples.json", translation("move/move.gltf", 0, 1));
  save(dir / "out/spin.samples.json", rotation("spin.gltf", 0, 1.0));
  write(dir / "out/stray.samples.json", "[]");
  const auto r = gc::compare_paths(g, dir / "out", {});
  EXPECT_EQ(r.passed(), 2u);
  EXPECT_EQ(r.failed(), 0u);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0], "actual file stray.samples.json matches no golden file by its name and "
                           "cannot be read: " +
                               (dir / "out/stray.samples.json").string() +
                               ": the document must be a JSON object (ignored)");
  try {
    gc::compare_paths(g, dir / "out/stray.samples.json", {});
    FAIL() << "no exception";
  } catch (const gs::SamplesFormatError& e) {
    EXPECT_EQ(e.file(), (dir / "out/stray.samples.json").string());
    EXPECT_EQ(e.message(), "the document must be a JSON object");
  }
}

// Our data is broken when a golden file cannot be read: the run stops (exit 2
// at the CLI), naming the file and the JSON pointer.
TEST(ComparePaths, MalformedGoldenFileStopsTheRun) {
  const fs::path dir = fresh_dir("malformed_golden");
  const fs::path g = make_golden(dir);
  save(dir / "out/move.samples.json", translation("move/move.gltf", 0, 1));
  save(dir / "out/spin.samples.json", rotation("spin.gltf", 0, 1.0));
  write(g / "spin.samples.json", R"({"asset": "spin.gltf", "animations": [{"index": "0"}]})");
  try {
    gc::compare_paths(g, dir / "out", {});
    FAIL() << "no exception";
  } catch (const gs::SamplesFormatError& e) {
    EXPECT_EQ(e.file(), (g / "spin.samples.json").string());
    EXPECT_EQ(e.location(), "/animations/0/index");
  }
}

TEST(ComparePaths, ErrorsNameTheFileAndPointer) {
  const fs::path dir = fresh_dir("errors");
  const fs::path g = make_golden(dir);
  EXPECT_THROW(gc::compare_paths(g, dir / "nowhere", {}), gs::SamplesFormatError);
  // A single actual file that matches no golden case is an error, not a pass.
  save(dir / "lonely.json", translation("lonely.gltf", 0, 1));
  EXPECT_THROW(gc::compare_paths(g, dir / "lonely.json", {}), gs::SamplesFormatError);
  // A malformed manifest.
  write(g / "manifest.json", R"({"assets": [{"id": "move", "tolerance": "big"}]})");
  try {
    gc::compare_paths(g, dir / "lonely.json", {});
    FAIL() << "no exception";
  } catch (const gs::SamplesFormatError& e) {
    EXPECT_EQ(e.location(), "/assets/0/tolerance");
    EXPECT_EQ(e.message(), "must be a non-negative number");
  }
  write(g / "manifest.json", "{\n  \"assets\": [,]\n}");
  try {
    gc::compare_paths(g, dir / "lonely.json", {});
    FAIL() << "no exception";
  } catch (const gs::SamplesFormatError& e) {
    EXPECT_EQ(e.location(), "line 2, column 14");
  }
}

// The manifest is the golden folder's (or the golden file's folder's), never
// one found by walking up: a stray manifest.json above must not set tolerances.
TEST(ComparePaths, FindManifestLooksOnlyInTheGoldenFolder) {
  const fs::path dir = fresh_dir("find");
  write(dir / "manifest.json", "[]");
  fs::create_directories(dir / "a/b");
  EXPECT_EQ(gc::find_manifest(dir), fs::absolute(dir / "manifest.json"));
  EXPECT_EQ(gc::find_manifest(dir / "file.json"), fs::absolute(dir / "manifest.json"));
  EXPECT_EQ(gc::find_manifest(dir / "a/b"), std::nullopt);
  EXPECT_EQ(gc::find_manifest(dir / "a/b/file.json"), std::nullopt);
  const auto m = gc::read_manifest(dir / "manifest.json");
  EXPECT_TRUE(m.entries.empty());
}

TEST(ComparePaths, ManifestAboveTheGoldenFolderIsIgnored) {
  const fs::path dir = fresh_dir("stray");
  write(dir / "manifest.json", R"({"tolerance": 1e9, "assets": []})");
  save(dir / "g/move.samples.json", translation("move.gltf", 0, 1));
  save(dir / "a/move.samples.json", translation("move.gltf", 0, 1000));
  const auto r = gc::compare_paths(dir / "g", dir / "a", {});
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_FALSE(r.cases[0].passed());  // 999 over the default 1e-5, not under 1e9
  EXPECT_EQ(r.cases[0].tolerances.absolute, gc::Tolerances{}.absolute);
  // Named explicitly, it is used.
  gc::CompareOptions o;
  o.manifest = dir / "manifest.json";
  EXPECT_TRUE(gc::compare_paths(dir / "g", dir / "a", o).cases.at(0).passed());
}

// RapidJSON 1.1.0's full-precision parser read 0e200 as a huge number; the
// manifest's numbers are converted from their text (0e200 is exactly 0).
TEST(ComparePaths, ManifestNumbersAreReadExactly) {
  const fs::path dir = fresh_dir("exact");
  write(dir / "g/manifest.json",
        R"({"tolerance": 0e200, "angleTolerance": 25e-1, "assets": [{"id": "move", "samples": "move.samples.json", "tolerance": 1.5e-0}]})");
  const auto m = gc::read_manifest(dir / "g/manifest.json");
  EXPECT_EQ(m.tolerance, std::optional<double>(0.0));
  EXPECT_EQ(m.angle_tolerance, std::optional<double>(2.5));
  ASSERT_EQ(m.entries.size(), 1u);
  EXPECT_EQ(m.entries[0].tolerance, std::optional<double>(1.5));
  write(dir / "g2/manifest.json", R"({"tolerance": 0e200, "assets": []})");
  save(dir / "g2/move.samples.json", translation("move.gltf", 0, 1));
  save(dir / "a/move.samples.json", translation("move.gltf", 0, 1000));
  const auto r = gc::compare_paths(dir / "g2", dir / "a", {});
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_EQ(r.cases[0].tolerances.absolute, 0.0);
  EXPECT_FALSE(r.cases[0].passed());
  write(dir / "g3/manifest.json", R"({"tolerance": 1e400, "assets": []})");
  try {
    gc::read_manifest(dir / "g3/manifest.json");
    FAIL() << "no exception";
  } catch (const gs::SamplesFormatError& e) {
    EXPECT_NE(e.message().find("too big"), std::string::npos) << e.message();
  }
}

// A variant's samples path is confined to the manifest's folder: absolute
// paths and ".." make the manifest malformed (at the path's JSON pointer), a
// symlink out is refused on opening (exit 2 at the CLI); nothing outside is read.
TEST(ComparePaths, ManifestSamplesPathsAreConfined) {
  const fs::path dir = fresh_dir("confined");
  save(dir / "escape.samples.json", translation("move.gltf", 0, 1000));
  save(dir / "g/move.samples.json", translation("move.gltf", 0, 1));
  save(dir / "a/move.samples.json", translation("move.gltf", 0, 1000));
  fs::create_symlink(dir / "escape.samples.json", dir / "g/link.samples.json");
  const std::string absolute = (dir / "escape.samples.json").string();
  for (const auto& [path, why] : std::vector<std::pair<std::string, std::string>>{
           {"../escape.samples.json", "relative path inside the manifest's folder"},
           {absolute, "relative path inside the manifest's folder"},
           {"sub/../../escape.samples.json", "relative path inside the manifest's folder"},
           {"link.samples.json", "resolves outside"}}) {
    SCOPED_TRACE(path);
    write(dir / "g/manifest.json",
          R"({"assets": [{"id": "move", "samples": "move.samples.json", "variants": [{"name": "v", "samples": ")" +
              path + R"("}]}]})");
    try {
      gc::compare_paths(dir / "g", dir / "a", {});
      FAIL() << "no exception";
    } catch (const gs::SamplesFormatError& e) {
      EXPECT_NE(e.message().find(why), std::string::npos) << e.what();
    }
  }
  // An entry's own samples path obeys the same rule, reported at its pointer.
  write(dir / "g/manifest.json", R"({"assets": [{"id": "move", "samples": "../escape.samples.json"}]})");
  try {
    gc::read_manifest(dir / "g/manifest.json");
    FAIL() << "no exception";
  } catch (const gs::SamplesFormatError& e) {
    EXPECT_EQ(e.location(), "/assets/0/samples");
  }
  // Inside the folder, the variant is read and credited.
  save(dir / "g/v/alt.samples.json", translation("move.gltf", 0, 1000));
  write(dir / "g/manifest.json",
        R"({"assets": [{"id": "move", "samples": "move.samples.json", "variants": [{"name": "v", "samples": "v/alt.samples.json"}]}]})");
  const auto r = gc::compare_paths(dir / "g", dir / "a", {});
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_TRUE(r.cases[0].passed());
  EXPECT_EQ(r.cases[0].matched_variant, "v");
}

TEST(ComparePaths, VariantExcerptsAsTheGeneratorWritesThem) {
  // The generator's form: variants keyed by name, with the variant's values
  // at the times where it differs from the golden samples.
  const fs::path dir = fresh_dir("excerpt");
  save(dir / "g/spin.samples.json", rotation("spin.gltf", 0, 1.0));
  const std::string z = gs::format_double(std::sin(0.55)), w = gs::format_double(std::cos(0.55));
  write(dir / "g/manifest.json",
        R"({"assets": [{"id": "spin", "samples": "spin.samples.json", "variants": {
             "nlerp": {"description": "nlerp, not slerp", "samples": [
               {"animation": 0, "channel": 0, "t": 1, "value": [0, 0, )" + z + ", " + w + R"(]}]},
             "broken": {"description": "names a channel that does not exist", "samples": [
               {"animation": 0, "channel": 7, "t": 1, "value": [0, 0, 0, 1]}]}}}]})");
  save(dir / "a/spin.samples.json", rotation("spin.gltf", 0, 1.1));
  auto r = gc::compare_paths(dir / "g", dir / "a", {});
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_TRUE(r.cases[0].passed());
  EXPECT_EQ(r.cases[0].matched_variant, "nlerp");
  EXPECT_EQ(r.cases[0].warnings.at(0),
            "fails against the main golden samples but matches variant \"nlerp\": nlerp, not slerp");
  // The golden result itself passes without any variant.
  save(dir / "a/spin.samples.json", rotation("spin.gltf", 0, 1.0));
  r = gc::compare_paths(dir / "g", dir / "a", {});
  EXPECT_TRUE(r.cases[0].passed());
  EXPECT_EQ(r.cases[0].matched_variant, "");
  // A known divergence explains a failure but never makes the case pass.
  const std::string z13 = gs::format_double(std::sin(0.65)), w13 = gs::format_double(std::cos(0.65));
  write(dir / "g/manifest.json",
        R"({"assets": [{"id": "spin", "samples": "spin.samples.json", "knownDivergences": {
             "engine-x": {"description": "engine X overshoots", "samples": [
               {"animation": 0, "channel": 0, "t": 1, "value": [0, 0, )" + z13 + ", " + w13 + R"(]}]}}}]})");
  save(dir / "a/spin.samples.json", rotation("spin.gltf", 0, 1.3));
  r = gc::compare_paths(dir / "g", dir / "a", {});
  EXPECT_FALSE(r.cases[0].passed());
  EXPECT_EQ(r.cases[0].matched_divergence, "engine-x");
  EXPECT_EQ(r.cases[0].warnings.at(0), "matches known divergence \"engine-x\": engine X overshoots");
  save(dir / "a/spin.samples.json", rotation("spin.gltf", 0, 1.2));
  r = gc::compare_paths(dir / "g", dir / "a", {});
  EXPECT_FALSE(r.cases[0].passed());
  EXPECT_EQ(r.cases[0].matched_divergence, "");
  // A malformed excerpt is an error with its pointer.
  write(dir / "g/manifest.json",
        R"({"assets": [{"id": "spin", "variants": {"a/b": {"samples": [{"animation": 0, "channel": 0, "t": "x", "value": [1]}]}}}]})");
  try {
    gc::compare_paths(dir / "g", dir / "a", {});
    FAIL() << "no exception";
  } catch (const gs::SamplesFormatError& e) {
    EXPECT_EQ(e.location(), "/assets/0/variants/a~1b/samples/0/t");
  }
}

// An engine that takes two readings the specs allow, each on its own channel:
// nlerp on the rotation (about z, 1.1 rad at t = 1 where slerp gives 1.0) and
// float32 time on the translation (x = 1.25 at t = 1 where the golden is 1).
// Neither variant alone explains the case; together, one per channel, they do.
// A channel explained only by a known divergence never passes.
TEST(ComparePaths, VariantsOnDifferentChannelsPassTogether) {
  const fs::path dir = fresh_dir("two_variants");
  const auto two_channels = [](double angle, double x) {
    gs::SamplesFile f = rotation("pair.gltf", 0, angle);
    auto& c = f.animations[0].channels.emplace_back();
    c.index = 1;
    c.target = "/nodes/1/translation";
    c.add_sample(0, {0, 0, 0});
    c.add_sample(1, {x, 0, 0});
    return f;
  };
  save(dir / "g/pair.samples.json", two_channels(1.0, 1));
  const std::string z = gs::format_double(std::sin(0.55)), w = gs::format_double(std::cos(0.55));
  const std::string manifest_head =
      R"({"assets": [{"id": "pair", "samples": "pair.samples.json", "variants": {
           "nlerp": {"description": "nlerp", "samples": [
             {"animation": 0, "channel": 0, "t": 1, "value": [0, 0, )" + z + ", " + w + R"(]}]},
           "float32-time": {"description": "float32 time", "samples": [
             {"animation": 0, "channel": 1, "t": 1, "value": [1.25, 0, 0]}]}})";
  write(dir / "g/manifest.json", manifest_head + "}]}");

  save(dir / "a/pair.samples.json", two_channels(1.1, 1.25));
  auto r = gc::compare_paths(dir / "g", dir / "a", {});
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_TRUE(r.cases[0].passed());
  EXPECT_EQ(r.cases[0].matched_variant, "nlerp + float32-time");
  ASSERT_FALSE(r.cases[0].warnings.empty());
  EXPECT_EQ(r.cases[0].warnings[0],
            "fails against the main golden samples but matches variants channel by channel: "
            "\"nlerp\" on animation 0 /nodes/0/rotation; \"float32-time\" on animation 0 "
            "/nodes/1/translation");
  EXPECT_EQ(r.cases[0].angle.max, 0.0);     // measured against the combination
  EXPECT_EQ(r.cases[0].absolute.max, 0.0);

  // One variant alone still passes as that variant, by the whole-case rule.
  save(dir / "a/pair.samples.json", two_channels(1.1, 1));
  r = gc::compare_paths(dir / "g", dir / "a", {});
  EXPECT_TRUE(r.cases[0].passed());
  EXPECT_EQ(r.cases[0].matched_variant, "nlerp");

  // nlerp on the rotation, but the translation off both readings: fails, and
  // the rotation's diagnosis still names nlerp.
  save(dir / "a/pair.samples.json", two_channels(1.1, 1.5));
  r = gc::compare_paths(dir / "g", dir / "a", {});
  EXPECT_TRUE(r.cases[0].failed());
  EXPECT_EQ(r.cases[0].matched_variant, "");
  ASSERT_EQ(r.cases[0].channels.size(), 2u);
  ASSERT_EQ(r.cases[0].channels[0].alternatives.size(), 1u);
  EXPECT_EQ(r.cases[0].channels[0].alternatives[0].name, "nlerp");
  EXPECT_TRUE(r.cases[0].channels[1].alternatives.empty());

  // The translation's x = 1.5 is a known divergence: a variant on one channel
  // and a divergence on the other is a failure naming both.
  write(dir / "g/manifest.json",
        manifest_head + R"(, "knownDivergences": {"overshoot": {"description": "breaks 3.11", "samples": [
             {"animation": 0, "channel": 1, "t": 1, "value": [1.5, 0, 0]}]}}}]})");
  r = gc::compare_paths(dir / "g", dir / "a", {});
  EXPECT_TRUE(r.cases[0].failed());
  EXPECT_EQ(r.cases[0].matched_variant, "");
  ASSERT_EQ(r.cases[0].channels[1].alternatives.size(), 1u);
  EXPECT_EQ(r.cases[0].channels[1].alternatives[0].name, "overshoot");
  EXPECT_FALSE(r.cases[0].channels[1].alternatives[0].allowed);
}

// Two readings the specs allow on the SAME channel, each at its own samples:
// a translation x = t on keys 0..2 s sampled at 0.5, 1.5 and 2.5 s, where the
// engine gives 0.75 at 0.5 s (float32 time, say) and 0.5 at 2.5 s (a loop).
// Neither variant alone explains the channel; the golden channel with each
// one's values where it differs from the golden passes: "A + B", named on the
// channel. A third sample off both stays a failure, both partial readings named.
TEST(ComparePaths, TwoVariantsOnOneChannelPassAsTheirCombination) {
  const fs::path dir = fresh_dir("two_variants_one_channel");
  const auto line = [](double at05, double at15, double at25) {
    gs::SamplesFile f;
    f.asset = "line.gltf";
    auto& a = f.animations.emplace_back();
    a.index = 0;
    auto& c = a.channels.emplace_back();
    c.index = 0;
    c.target = "/nodes/0/translation";
    c.add_sample(0.5, {at05, 0, 0});
    c.add_sample(1.5, {at15, 0, 0});
    c.add_sample(2.5, {at25, 0, 0});
    return f;
  };
  save(dir / "g/line.samples.json", line(0.5, 1.5, 2));
  write(dir / "g/manifest.json", R"({"assets": [{"id": "line", "samples": "line.samples.json", "variants": {
           "float32-time": {"description": "float32 time", "samples": [
             {"animation": 0, "channel": 0, "t": 0.5, "value": [0.75, 0, 0]}]},
           "loop-fmod": {"description": "fmod loop", "samples": [
             {"animation": 0, "channel": 0, "t": 2.5, "value": [0.5, 0, 0]}]}}}]})");

  save(dir / "a/line.samples.json", line(0.75, 1.5, 0.5));
  auto r = gc::compare_paths(dir / "g", dir / "a", {});
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_TRUE(r.cases[0].passed());
  EXPECT_EQ(r.cases[0].matched_variant, "float32-time + loop-fmod");
  ASSERT_FALSE(r.cases[0].warnings.empty());
  EXPECT_EQ(r.cases[0].warnings[0],
            "fails against the main golden samples but matches variants channel by channel: "
            "\"float32-time + loop-fmod\" on animation 0 /nodes/0/translation");
  EXPECT_EQ(r.cases[0].absolute.max, 0.0);  // measured against the combination

  // One of the two alone: that variant, as before.
  save(dir / "a/line.samples.json", line(0.75, 1.5, 2));
  r = gc::compare_paths(dir / "g", dir / "a", {});
  EXPECT_TRUE(r.cases[0].passed());
  EXPECT_EQ(r.cases[0].matched_variant, "float32-time");

  // Both, and a third sample off both: a failure, the channel naming each reading.
  save(dir / "a/line.samples.json", line(0.75, 1.7, 0.5));
  r = gc::compare_paths(dir / "g", dir / "a", {});
  EXPECT_TRUE(r.cases[0].failed());
  EXPECT_EQ(r.cases[0].matched_variant, "");
  ASSERT_EQ(r.cases[0].channels.size(), 1u);
  ASSERT_EQ(r.cases[0].channels[0].alternatives.size(), 2u);
  EXPECT_EQ(r.cases[0].channels[0].alternatives[0].name, "float32-time");
  EXPECT_EQ(r.cases[0].channels[0].alternatives[1].name, "loop-fmod");
}

// gltf-anim compare end to end: exit codes, tolerance overrides, --output and
// the report formats, error messages naming the file and JSON pointer.
#include "scratch.hpp"
#include <gltf_anim/samples/samples.hpp>

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "compare_cli_util.hpp"

namespace gs = gltf_anim::samples;
namespace fs = std::filesystem;
using compare_cli::read_file;
using compare_cli::run;

namespace {

// golden/: a translation case and a rotation case. actual/: the same with a
// 0.002 translation error at t = 1 and a 0.004 rad rotation error at t = 1.
struct Fixture {
  fs::path dir, golden, actual;
};

Fixture make(const std::string& name) {
  Fixture f;
  f.dir = gltf_anim_test::scratch_root() / "compare_cli" / name;
  fs::remove_all(f.dir);
  f.golden = f.dir / "golden";
  f.actual = f.dir / "actual";
  fs::create_directories(f.golden);
  fs::create_directories(f.actual);
  for (int actual = 0; actual < 2; ++actual) {
    const fs::path out = actual ? f.actual : f.golden;
    gs::SamplesFile move;
    move.asset = "move.gltf";
    auto& t = move.animations.emplace_back().channels.emplace_back();
    t.target = "/nodes/0/translation";
    t.add_sample(0, {0, 0, 0});
    t.add_sample(1, {1, actual ? 2.002 : 2.0, 3});
    gs::write_samples_file(out / "move.samples.json", move);
    gs::SamplesFile spin;
    spin.asset = "spin.gltf";
    auto& r = spin.animations.emplace_back().channels.emplace_back();
    r.target = "/nodes/0/rotation";
    r.measure = gs::Measure::kAngle;  // as `gltf-anim sample` writes a quaternion's channel
    r.add_sample(0, {0, 0, 0, 1});
    const double a = actual ? 0.504 : 0.5;  // rotation about x by a
    r.add_sample(1, {std::sin(a / 2), 0, 0, std::cos(a / 2)});
    gs::write_samples_file(out / "spin.samples.json", spin);
  }
  return f;
}

std::string args(const Fixture& f) {
  return " compare --golden '" + f.golden.string() + "' --actual '" + f.actual.string() + "'";
}

}  // namespace

TEST(CompareCli, FailsWithDefaultTolerancesAndPassesWithOverrides) {
  const Fixture f = make("tolerances");
  auto r = run(args(f));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("\n0 passed, 2 failed\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("FAIL  move.gltf"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("max 0.002 at t=1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("max 0.004 rad at t=1"), std::string::npos) << r.out;

  r = run(args(f) + " --tolerance 0.0025");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("\n1 passed, 1 failed\n"), std::string::npos) << r.out;

  r = run(args(f) + " --tolerance 0.0025 --angle-tolerance 0.0045");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("\n2 passed, 0 failed\n"), std::string::npos) << r.out;

  r = run(args(f) + " --tolerance 0.0025 --angle-tolerance 0.0035");
  EXPECT_EQ(r.exit_code, 1);
}

TEST(CompareCli, SameFilesPass) {
  const Fixture f = make("same");
  const auto r = run(" compare --golden '" + f.golden.string() + "' --actual '" +
                     f.golden.string() + "/move.samples.json'");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("\n1 passed, 0 failed\n"), std::string::npos) << r.out;
}

// A golden with no sample (the core-only view of a pointer-only asset):
// "nothing compared", exit 0 when nothing else fails; with a failing case, 1.
TEST(CompareCli, NothingComparedNeitherPassesNorFails) {
  const Fixture f = make("nothing");
  gs::SamplesFile empty;
  empty.asset = "pointer_only.gltf";
  empty.animations.emplace_back();
  gs::write_samples_file(f.golden / "pointer_only.samples.json", empty);
  gs::write_samples_file(f.actual / "pointer_only.samples.json", empty);
  auto r = run(" compare --golden '" + (f.golden / "pointer_only.samples.json").string() + "' --actual '" +
               (f.actual / "pointer_only.samples.json").string() + "'");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("NONE  pointer_only.gltf"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n0 passed, 0 failed, 1 with nothing to compare\n"), std::string::npos) << r.out;
  r = run(args(f) + " --tolerance 0.0025");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("\n1 passed, 1 failed, 1 with nothing to compare\n"), std::string::npos) << r.out;
}

TEST(CompareCli, OutputFileInEveryFormat) {
  const Fixture f = make("formats");
  for (const char* format : {"text", "json", "md", "junit", "html"}) {
    const fs::path out = f.dir / (std::string("report.") + format);
    const auto r = run(args(f) + " --format " + format + " --output '" + out.string() + "'");
    EXPECT_EQ(r.exit_code, 1) << format << r.err;
    EXPECT_EQ(r.out, "0 passed, 2 failed\n") << format;
    const std::string text = read_file(out);
    EXPECT_NE(text.find("0 passed, 2 failed"), std::string::npos) << format;
  }
  EXPECT_NE(read_file(f.dir / "report.md").find("| ❌ **fail** | move\\.gltf |"), std::string::npos);
  const std::string junit = read_file(f.dir / "report.junit");
  EXPECT_NE(junit.find("<testcase classname=\"conformance\" name=\"spin.gltf\">"), std::string::npos);
  EXPECT_NE(junit.find("<failure message=\"animation 0 /nodes/0/rotation: 1 of 2 samples over the "
                       "tolerance 1e-05 rad (max 0.004 at t=1)\""),
            std::string::npos)
      << junit;
  const std::string html = read_file(f.dir / "report.html");
  EXPECT_NE(html.find("<svg class=\"plot\""), std::string::npos);
  EXPECT_NE(read_file(f.dir / "report.json").find("\"failed\": 2"), std::string::npos);
}

TEST(CompareCli, UsageAndInputErrorsExitTwo) {
  const Fixture f = make("errors");
  auto r = run(" compare --golden '" + f.golden.string() + "'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("actual"), std::string::npos) << r.err;

  r = run(args(f) + " --format pdf");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown --format 'pdf'"), std::string::npos) << r.err;

  r = run(args(f) + " --tolerance -1");
  EXPECT_EQ(r.exit_code, 2);
  r = run(args(f) + " --angle-tolerance nan");
  EXPECT_EQ(r.exit_code, 2);

  r = run(" compare --golden '" + (f.dir / "nowhere").string() + "' --actual '" +
          f.actual.string() + "'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("nowhere: No such file or directory"), std::string::npos) << r.err;

  r = run(args(f) + " --output '" + (f.dir / "no/such/dir/report.txt").string() + "'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("cannot write"), std::string::npos) << r.err;

  // A malformed golden file: our data is broken, the run stops, naming the file
  // and the JSON pointer.
  const std::string golden_text = read_file(f.golden / "spin.samples.json");
  std::ofstream(f.golden / "spin.samples.json")
      << R"({"asset": "spin.gltf", "animations": [{"index": 0, "channels": [{"target": "/nodes/0/rotation", "samples": [{"t": 0, "value": [0, 0, "x", 1]}]}]}]})";
  r = run(args(f));
  EXPECT_EQ(r.exit_code, 2);
  const std::string expected = (f.golden / "spin.samples.json").string() +
                               ": at JSON pointer \"/animations/0/channels/0/samples/0/value/2\": "
                               "must be a number (or null for NaN)";
  EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
  std::ofstream(f.golden / "spin.samples.json") << golden_text;
}

// A malformed actual file is the engine's failure on that case: the case fails
// with the reader's words (file and JSON pointer, or line and column), the
// other case is still compared, exit 1.
TEST(CompareCli, MalformedActualFileFailsItsCase) {
  const Fixture f = make("malformed_actual");
  const std::string spin = (f.actual / "spin.samples.json").string();
  std::ofstream(spin)
      << R"({"asset": "spin.gltf", "animations": [{"index": 0, "channels": [{"target": "/nodes/0/rotation", "samples": [{"t": 0, "value": [0, 0, "x", 1]}]}]}]})";
  auto r = run(args(f));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("the actual samples file is refused: " + spin +
                       ": at JSON pointer \"/animations/0/channels/0/samples/0/value/2\": "
                       "must be a number (or null for NaN)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("0 passed, 2 failed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("max 0.002"), std::string::npos) << r.out;  // move.gltf still compared
  // A syntax error: line and column.
  std::ofstream(spin) << "{\n  \"asset\": \"spin.gltf\",,\n}";
  r = run(args(f));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("spin.samples.json: line 2, column 24: invalid JSON"), std::string::npos)
      << r.out;
  // Truncated file.
  std::ofstream(spin) << "";
  r = run(args(f));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("empty document"), std::string::npos) << r.out;
  // JSON: the case's problem, in the same words.
  r = run(args(f) + " --format json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("\"problem\": \"the actual samples file is refused: "), std::string::npos)
      << r.out;
}

TEST(CompareCli, HelpHasAnExample) {
  const auto r = run(" compare --help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("Example:\n  gltf-anim compare --golden"), std::string::npos) << r.out;
  const auto top = run(" --help");
  EXPECT_NE(top.out.find("  compare "), std::string::npos);
}

// The manifest comes from --manifest or the golden folder, never from a folder
// above: a stray manifest.json with tolerance 1e9 above the golden folder
// changes nothing (the 0.002 / 0.004 rad errors still fail), and a manifest
// whose variant escapes its folder is refused with exit 2, naming the reason.
TEST(CompareCli, ManifestIsTheGoldenFoldersOrNamedAndConfined) {
  const Fixture f = make("manifest");
  std::ofstream(f.dir / "manifest.json") << R"({"tolerance": 1e9, "angleTolerance": 1e9, "assets": []})";
  auto r = run(args(f));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("\n0 passed, 2 failed\n"), std::string::npos) << r.out;
  r = run(args(f) + " --manifest '" + (f.dir / "manifest.json").string() + "'");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;

  std::ofstream(f.golden / "manifest.json")
      << R"({"assets": [{"id": "move", "samples": "move.samples.json",
                         "variants": [{"name": "v", "samples": "../../../../../../../../etc/passwd"}]}]})";
  r = run(args(f));
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("relative path inside the manifest's folder"), std::string::npos) << r.err;
}

// gltf-anim compare for an engine that produced part of the suite: cases not
// run and --require-all, --cases, --extensions, --worst; the exit-code rule.
#include "scratch.hpp"
#include <gltf_anim/samples/samples.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "compare_cli_util.hpp"

namespace gs = gltf_anim::samples;
namespace fs = std::filesystem;
using compare_cli::run;

namespace {

// golden/: move (translation x 0 -> 1) and spin (another translation);
// actual/: move only, equal to the golden one except x = 1.5 at t = 1 when
// `wrong`.
fs::path make(const std::string& name, bool wrong = false) {
  const fs::path dir = gltf_anim_test::scratch_root() / "compare_partial_cli" / name;
  fs::remove_all(dir);
  fs::create_directories(dir / "golden");
  fs::create_directories(dir / "actual");
  for (const char* id : {"move", "spin"}) {
    gs::SamplesFile f;
    f.asset = std::string(id) + ".gltf";
    auto& c = f.animations.emplace_back().channels.emplace_back();
    c.target = "/nodes/0/translation";
    c.add_sample(0, {0, 0, 0});
    c.add_sample(1, {1, 0, 0});
    gs::write_samples_file(dir / "golden" / (std::string(id) + ".samples.json"), f);
    if (std::string(id) == "move") {
      if (wrong) c.values[3] = 1.5;
      gs::write_samples_file(dir / "actual/move.samples.json", f);
    }
  }
  return dir;
}

std::string args(const fs::path& dir) {
  return " compare --golden '" + (dir / "golden").string() + "' --actual '" +
         (dir / "actual").string() + "'";
}

}  // namespace

// Not run alone does not fail the run; --require-all makes it fail (exit 1).
TEST(ComparePartialCli, NotRunIsExitZeroUnlessRequireAll) {
  const fs::path dir = make("not_run");
  auto r = run(args(dir));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("NOT RUN  spin.gltf\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n1 passed, 0 failed, 1 not run\n"), std::string::npos) << r.out;
  r = run(args(dir) + " --require-all");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  // Every case run: --require-all changes nothing.
  r = run(args(dir) + " --require-all --cases move.gltf");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("\n1 passed, 0 failed\n"), std::string::npos) << r.out;
  // A failure fails the run with or without it.
  const fs::path bad = make("not_run_bad", true);
  EXPECT_EQ(run(args(bad)).exit_code, 1);
}

TEST(ComparePartialCli, CasesSelectingNothingIsAUsageError) {
  const fs::path dir = make("cases");
  auto r = run(args(dir) + " --cases 'move.gltf,nope*'");
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--cases 'nope*' selects no case"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
  r = run(args(dir) + " --cases ,");
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--cases names no case"), std::string::npos) << r.err;
  r = run(args(dir) + " --cases 'sp*'");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("\n0 passed, 0 failed, 1 not run\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("move.gltf"), std::string::npos) << r.out;
}

TEST(ComparePartialCli, WorstRowsOptionIsBounded) {
  const fs::path dir = make("worst", true);
  auto r = run(args(dir) + " --cases move.gltf --worst 1");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  // One row: t = 1, x 1 against 1.5.
  EXPECT_NE(r.out.find("        worst samples:\n        t  golden   actual     error\n"
                       "        1  1, 0, 0  1.5, 0, 0  0.5\n"),
            std::string::npos)
      << r.out;
  r = run(args(dir) + " --cases move.gltf --worst 0");
  EXPECT_EQ(r.out.find("worst samples"), std::string::npos) << r.out;
  r = run(args(dir) + " --worst 101");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--worst"), std::string::npos) << r.err;
}

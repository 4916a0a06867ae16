// The `gltf-anim squad-report` command: runs, exits 0, prints the seed's figures beside ours.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace {

struct CliRun {
  int exit_code;
  std::string out;
};

CliRun run_cli(const std::string& args) {
  const std::string command = std::string("\"") + GLTF_ANIM_CLI + "\" " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return {-1, ""};
  std::string out;
  std::array<char, 4096> buf{};
  while (const std::size_t n = std::fread(buf.data(), 1, buf.size(), pipe)) out.append(buf.data(), n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

TEST(SquadReportCli, MarkdownTableBesideSeedFigures) {
  const CliRun r = run_cli("squad-report --format md --all --samples 2000");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  for (const char* seed : {"| exact |", "| 0.008141 |", "| 0.00195 |", "| 0.008285 |"})
    EXPECT_NE(r.out.find(seed), std::string::npos) << seed << "\n" << r.out;
  EXPECT_NE(r.out.find("### Investigation"), std::string::npos);
  // Every table row has the header's 7 cells (8 pipes).
  std::size_t pos = 0;
  while ((pos = r.out.find("\n|", pos)) != std::string::npos) {
    const std::size_t end = r.out.find('\n', pos + 1);
    const std::string line = r.out.substr(pos + 1, end - pos - 1);
    EXPECT_EQ(std::count(line.begin(), line.end(), '|'), 8) << line;
    pos = end;
  }
}

TEST(SquadReportCli, UsageErrorsExitTwo) {
  EXPECT_EQ(run_cli("squad-report --format xml").exit_code, 2);
  EXPECT_EQ(run_cli("squad-report --samples 0").exit_code, 2);
  EXPECT_EQ(run_cli("squad-report --help").exit_code, 0);
}

}  // namespace

// A command killed by SIGINT, SIGTERM or SIGHUP while writing an output leaves
// nothing beside the target: the temporary is removed by the signal handler,
// and the process still ends by that signal.
#include "scratch.hpp"
#include <gtest/gtest.h>
#include <gltf_anim/io/output_file.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
namespace io = gltf_anim::io;

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  return out;
}

// A child process writes two outputs (one through a folder descriptor, as the
// suite generator does), says so on a pipe, and waits; the parent signals it.
void signal_a_child_while_it_writes(int sig) {
  const fs::path dir = gltf_anim_test::scratch_root() / ("signal_" + std::to_string(sig));
  fs::remove_all(dir);
  fs::create_directories(dir);
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(ready[0]);
    io::remove_temporaries_on_signals();
    io::OutputFile out(dir / "report.sarif");
    out.stream() << "partial report" << std::flush;
    io::OutputFile second(dir / "samples.json");
    second.stream() << "[" << std::flush;
    (void)!::write(ready[1], "r", 1);
    for (;;) ::pause();
  }
  ::close(ready[1]);
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  ::close(ready[0]);
  EXPECT_EQ(names_in(dir).size(), 2u);  // the two temporaries, before the signal
  ASSERT_EQ(::kill(child, sig), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << status;
  EXPECT_EQ(WTERMSIG(status), sig);
  EXPECT_EQ(names_in(dir), std::vector<std::string>{});
}

TEST(OutputSignals, SigintRemovesTheTemporaries) { signal_a_child_while_it_writes(SIGINT); }
TEST(OutputSignals, SigtermRemovesTheTemporaries) { signal_a_child_while_it_writes(SIGTERM); }
TEST(OutputSignals, SighupRemovesTheTemporaries) { signal_a_child_while_it_writes(SIGHUP); }

}  // namespace

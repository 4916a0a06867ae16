// A command killed by SIGINT, SIGTERM or SIGHUP while writing an output leaves
// nothing beside the target: the temporary is removed by the signal handler,
// and the process still ends by that signal.
#include "scratch.hpp"
#include <gtest/gtest.h>
#include <gltf_anim/io/output_file.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>
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

// One output of two files, written and not yet renamed: a new buffer and its asset.
struct AssetAndBuffer {
  explicit AssetAndBuffer(const fs::path& dir) : bin(dir / "walk.bin"), gltf(dir / "walk.gltf") {
    bin.stream() << "BIN" << std::flush;
    gltf.stream() << "{}" << std::flush;
  }
  void commit(const std::function<void()>& between) {
    io::OutputFile* group[] = {&bin, &gltf};
    const bool created[] = {true, false};
    io::commit_together(group, created, between);
  }
  io::OutputFile bin;
  io::OutputFile gltf;
};

// An asset and its buffer committed as one output: a SIGTERM that comes between the two
// renames is held until both are in place, then ends the process by that signal. Without
// the hold the handler ran at once: the buffer was in place and the asset's temporary
// removed, a buffer without its asset.
TEST(OutputSignals, ASignalBetweenTheRenamesOfOneOutputLeavesItWhole) {
  const fs::path dir = gltf_anim_test::scratch_root() / "signal_between_renames";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    io::remove_temporaries_on_signals();
    AssetAndBuffer output(dir);
    output.commit([] { ::raise(SIGTERM); });
    ::_exit(0);  // not reached: the held signal ends the process once both are in place
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status)) << status;
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  std::vector<std::string> names = names_in(dir);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"walk.bin", "walk.gltf"}));
}

// A rename that fails after the buffer is in place: the new buffer is removed again, no
// temporary is left, and the reason reaches the caller.
TEST(OutputSignals, AFailedRenameOfOneOutputRemovesItsNewBuffers) {
  const fs::path dir = gltf_anim_test::scratch_root() / "failed_rename_of_group";
  fs::remove_all(dir);
  fs::create_directories(dir);
  AssetAndBuffer output(dir);
  // Between the renames the asset's target becomes a folder that is not empty: rename()
  // cannot replace it.
  const auto block = [&] { fs::create_directories(dir / "walk.gltf" / "inside"); };
  EXPECT_THROW(output.commit(block), io::OutputError);
  EXPECT_EQ(names_in(dir), std::vector<std::string>{"walk.gltf"});  // the folder only
  EXPECT_TRUE(fs::is_directory(dir / "walk.gltf"));
}

}  // namespace

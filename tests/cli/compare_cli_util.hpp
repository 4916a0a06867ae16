#pragma once
// Runs the gltf-anim CLI (or another command) through the shell and captures
// its exit code, stdout and stderr. Used by the compare CLI tests.
#include "scratch.hpp"
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace compare_cli {

struct Result {
  int exit_code = -1;
  std::string out, err;
};

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// `command` is appended to the CLI path when `cli` is true (then it starts
// with a space and the subcommand), else run as is.
inline Result run(const std::string& command, bool cli = true) {
  static std::atomic<int> counter{0};
  const std::filesystem::path dir = gltf_anim_test::scratch_root() / "compare_cli_run";
  std::filesystem::create_directories(dir);
  const std::string id = std::to_string(::getpid()) + "_" + std::to_string(counter++);
  const auto out = dir / ("out_" + id), err = dir / ("err_" + id);
  const std::string full = (cli ? std::string("'") + GLTF_ANIM_CLI + "'" : std::string()) + command +
                           " >'" + out.string() + "' 2>'" + err.string() + "'";
  const int status = std::system(full.c_str());
  Result r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_file(out);
  r.err = read_file(err);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return r;
}

}  // namespace compare_cli

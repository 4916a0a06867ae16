#pragma once
// Helpers of the conformance tests: paths, reading files, running the CLI.
#include "scratch.hpp"
#include <gltf_anim/samples/samples.hpp>

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace gltf_anim::suite::test {

inline std::filesystem::path suite_dir() {
  return std::filesystem::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets";
}
inline std::filesystem::path valid_asset(const std::string& name) { return suite_dir() / "valid" / name; }

inline std::filesystem::path scratch(const std::string& name) {
  const auto dir = gltf_anim_test::scratch_root() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs `gltf-anim <args>` with stdout to `out`, stderr to `out`.err; returns the exit code.
inline int run_cli(const std::string& args, const std::filesystem::path& out) {
  std::string cmd = "'";  // built by append (GCC 12 warns falsely on "..." + std::string&&)
  cmd += GLTF_ANIM_CLI;
  cmd += "' ";
  cmd += args;
  cmd += " > '";
  cmd += out.string();
  cmd += "' 2> '";
  cmd += out.string();
  cmd += ".err'";
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The samples of one channel (by target) of animation 0.
inline const samples::SampledChannel& channel(const samples::SamplesFile& f, const std::string& target) {
  for (const auto& c : f.animations.at(0).channels) {
    if (c.target == target) return c;
  }
  throw std::runtime_error("no channel " + target);
}

// The value at time t; fails the test when the time is missing.
inline std::vector<double> at(const samples::SampledChannel& c, double t) {
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (c.times[i] == t) {
      const auto v = c.value(i);
      return {v.begin(), v.end()};
    }
  }
  ADD_FAILURE() << "no sample at t = " << t << " in " << c.target;
  return {};
}

}  // namespace gltf_anim::suite::test

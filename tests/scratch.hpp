#pragma once
// The test process's own scratch folder: GLTF_ANIM_TEST_TMP/p<pid>.
//
// CTest runs every GoogleTest test in a process of its own, several at once
// (ctest -j). A folder named after a fixture or a source file alone is then
// shared by concurrent tests, and one test's clean-up (remove_all in SetUp or
// TearDown) deletes another's files mid-run: its CLI's captured stdout reads
// back empty. Every scratch path of the test suites starts here instead (the
// source_layout test keeps it so), so no two processes share a folder.
//
// The folder is removed when the process that made it exits normally with all
// its tests passed; a failed or crashed run leaves it for inspection. A child
// forked by a test (tests/cli/cli_process.hpp) never removes it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

namespace gltf_anim_test {

namespace scratch_detail {
inline std::filesystem::path& root() {
  static std::filesystem::path path;
  return path;
}
inline pid_t& owner() {
  static pid_t pid = 0;
  return pid;
}
inline void remove_at_exit() {
  if (::getpid() != owner()) return;
  if (!::testing::UnitTest::GetInstance()->Passed()) return;
  std::error_code ec;
  std::filesystem::remove_all(root(), ec);
}
}  // namespace scratch_detail

inline std::filesystem::path scratch_root() {
  static const bool made = [] {
    namespace d = scratch_detail;
    // GoogleTest's UnitTest is a function-local static: made before the handler is
    // registered, it is destroyed after the handler has read it.
    (void)::testing::UnitTest::GetInstance();
    d::owner() = ::getpid();
    d::root() = std::filesystem::path(GLTF_ANIM_TEST_TMP) / ("p" + std::to_string(d::owner()));
    std::error_code ec;
    std::filesystem::remove_all(d::root(), ec);  // an earlier process with the same id
    std::filesystem::create_directories(d::root(), ec);
    std::atexit(d::remove_at_exit);
    return true;
  }();
  (void)made;
  return scratch_detail::root();
}

}  // namespace gltf_anim_test

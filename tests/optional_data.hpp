#pragma once
// Tests of optional shared material (../shared/corpus, ../shared/specs): the
// project's own tests must not need it, and a test that passes without having
// looked at anything would be a false green. So such a test is registered only
// when its data exists: it then runs and asserts, or it is not in the list at
// all (`ctest -N` shows which ran). Discovery (gtest_discover_tests) lists the
// tests after each build, on the machine that runs them.
#include <gtest/gtest.h>

#include <filesystem>
#include <utility>

namespace gltf_anim::test {

// Registers body() as suite.name when `data` exists; returns whether it did.
// Call at namespace scope: `const bool kX = register_if_exists(...);`.
template <class Body>
bool register_if_exists(const char* suite, const char* name, const std::filesystem::path& data, Body body,
                        const char* file, int line) {
  std::error_code ec;
  if (!std::filesystem::exists(data, ec)) return false;
  class Test final : public ::testing::Test {
   public:
    explicit Test(Body b) : body_(std::move(b)) {}
    void TestBody() override { body_(); }

   private:
    Body body_;
  };
  ::testing::RegisterTest(suite, name, nullptr, nullptr, file, line,
                          [body]() -> ::testing::Test* { return new Test(body); });
  return true;
}

}  // namespace gltf_anim::test

// The ordered pool of a build without threads (GLTF_ANIM_THREADS=OFF, the
// WebAssembly build): whatever number of threads is asked for, no thread is
// started and each job is produced then consumed on the calling thread, in order.
#include <gtest/gtest.h>
#include <gltf_anim/io/ordered_pool.hpp>

#include <string>
#include <thread>
#include <vector>

namespace {

using gltf_anim::io::OrderedPool;

TEST(OrderedPoolWithoutThreads, RunsEveryJobInlineInOrder) {
  EXPECT_FALSE(gltf_anim::io::threads_available());
  EXPECT_EQ(gltf_anim::io::hardware_threads(), 1u);
  OrderedPool pool(8, 2);
  EXPECT_FALSE(pool.threaded());
  EXPECT_EQ(pool.slots(), 1u);
  std::vector<std::string> log;
  const auto caller = std::this_thread::get_id();
  pool.run(
      4,
      [&](std::size_t i, std::size_t slot) {
        EXPECT_EQ(std::this_thread::get_id(), caller);
        log.push_back("p" + std::to_string(i) + "@" + std::to_string(slot));
      },
      [&](std::size_t i, std::size_t slot) {
        log.push_back("c" + std::to_string(i) + "@" + std::to_string(slot));
      });
  EXPECT_EQ(log, (std::vector<std::string>{"p0@0", "c0@0", "p1@0", "c1@0", "p2@0", "c2@0", "p3@0",
                                           "c3@0"}));
}

}  // namespace

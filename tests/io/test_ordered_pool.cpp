// The ordered pool: jobs consumed in order on the calling thread, a bounded
// window, exceptions at their job's turn, and inline execution with no worker.
// Compiled twice: in test_io with this build's threads, and in test_io_inline
// as a build without threads compiles the pool (GLTF_ANIM_NO_THREADS, the
// WebAssembly build), where every test here holds too.
#include <gtest/gtest.h>
#include <gltf_anim/io/ordered_pool.hpp>

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using gltf_anim::io::OrderedPool;

// Runs `jobs` jobs on a pool that runs them inline: each produce is checked to run
// on the calling thread; the log records "p<i>@<slot>" and "c<i>@<slot>" in order.
std::vector<std::string> inline_log(OrderedPool& pool, std::size_t jobs) {
  std::vector<std::string> log;
  const auto caller = std::this_thread::get_id();
  pool.run(
      jobs,
      [&](std::size_t i, std::size_t slot) {
        EXPECT_EQ(std::this_thread::get_id(), caller);
        log.push_back("p" + std::to_string(i) + "@" + std::to_string(slot));
      },
      [&](std::size_t i, std::size_t slot) {
        log.push_back("c" + std::to_string(i) + "@" + std::to_string(slot));
      });
  return log;
}

TEST(OrderedPool, ConsumesInOrderOnTheCallingThreadWithinTheWindow) {
  OrderedPool pool(4, 2);
  ASSERT_EQ(pool.threaded(), gltf_anim::io::threads_available());
  const std::size_t n = 200;
  std::vector<std::size_t> values(pool.slots());
  std::vector<std::size_t> consumed;
  std::mutex mutex;
  std::size_t produced = 0, most_ahead = 0;
  const auto caller = std::this_thread::get_id();
  pool.run(
      n,
      [&](std::size_t i, std::size_t slot) {
        // Later jobs finish first often: the consumer must still see 0, 1, 2...
        if (i % 3 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
        values[slot] = i * i;
        std::lock_guard lock(mutex);
        ++produced;
        most_ahead = std::max(most_ahead, produced - consumed.size());
      },
      [&](std::size_t i, std::size_t slot) {
        EXPECT_EQ(std::this_thread::get_id(), caller);
        EXPECT_EQ(slot, i % pool.slots());
        EXPECT_EQ(values[slot], i * i);
        std::lock_guard lock(mutex);
        consumed.push_back(i);
      });
  ASSERT_EQ(consumed.size(), n);
  for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(consumed[i], i);
  // Produced and not yet consumed: never more than the slots.
  EXPECT_LE(most_ahead, pool.slots());
}

TEST(OrderedPool, AJobsExceptionComesAtItsTurnAndThePoolRunsAgain) {
  OrderedPool pool(3, 2);
  std::vector<std::size_t> consumed;
  EXPECT_THROW(pool.run(
                   50,
                   [](std::size_t i, std::size_t) {
                     if (i == 7) throw std::runtime_error("job 7");
                   },
                   [&](std::size_t i, std::size_t) { consumed.push_back(i); }),
               std::runtime_error);
  // Every job before the failing one was consumed, none after it.
  EXPECT_EQ(consumed, (std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6}));
  consumed.clear();
  pool.run(
      5, [](std::size_t, std::size_t) {},
      [&](std::size_t i, std::size_t) { consumed.push_back(i); });
  EXPECT_EQ(consumed, (std::vector<std::size_t>{0, 1, 2, 3, 4}));
}

TEST(OrderedPool, AConsumersExceptionStopsTheRun) {
  OrderedPool pool(2, 2);
  std::mutex mutex;
  std::size_t produced = 0;
  EXPECT_THROW(pool.run(
                   1000,
                   [&](std::size_t, std::size_t) {
                     std::lock_guard lock(mutex);
                     ++produced;
                   },
                   [](std::size_t i, std::size_t) {
                     if (i == 3) throw std::runtime_error("write failed");
                   }),
               std::runtime_error);
  // At most the window past the failing job was started.
  EXPECT_LE(produced, 4 + pool.slots());
}

// One thread (or none available): no worker; each job is produced then
// consumed on the calling thread, in order, one slot.
TEST(OrderedPool, InlineModeProducesThenConsumesEachJobInOrder) {
  for (unsigned threads : {0u, 1u}) {
    OrderedPool pool(threads, 2);
    EXPECT_FALSE(pool.threaded());
    EXPECT_EQ(pool.slots(), 1u);
    const std::vector<std::string> log = inline_log(pool, 3);
    EXPECT_EQ(log, (std::vector<std::string>{"p0@0", "c0@0", "p1@0", "c1@0", "p2@0", "c2@0"}));
  }
}

#ifdef GLTF_ANIM_NO_THREADS
// Without threads, whatever number of threads is asked for, no thread is
// started and each job is produced then consumed on the calling thread, in order.
TEST(OrderedPool, WithoutThreadsRunsEveryJobInlineInOrder) {
  EXPECT_FALSE(gltf_anim::io::threads_available());
  EXPECT_EQ(gltf_anim::io::hardware_threads(), 1u);
  OrderedPool pool(8, 2);
  EXPECT_FALSE(pool.threaded());
  EXPECT_EQ(pool.slots(), 1u);
  const std::vector<std::string> log = inline_log(pool, 4);
  EXPECT_EQ(log, (std::vector<std::string>{"p0@0", "c0@0", "p1@0", "c1@0", "p2@0", "c2@0", "p3@0",
                                           "c3@0"}));
}
#endif

}  // namespace

#pragma once
// The one ordered thread pool: jobs 0, 1, ... n-1 produced on worker threads,
// consumed on the calling thread in order of their index, each as soon as it
// and all before it are done, with at most `window` jobs produced and not yet
// consumed. Validating many assets, sampling blocks of channels and reading
// many samples files all run on it.
//
// Built with GLTF_ANIM_THREADS=OFF (WebAssembly), or with fewer than two
// threads, it starts no thread: each job is produced then consumed on the
// calling thread, in the same order, with the same results.
#include <cstddef>
#include <functional>
#include <memory>

namespace gltf_anim::io {

// Whether this build runs jobs on threads (CMake option GLTF_ANIM_THREADS).
bool threads_available();
// The cores the system offers (at least 1); 1 in a build without threads.
unsigned hardware_threads();

class OrderedPool {
 public:
  // `threads` workers (none when threads < 2 or threads_available() is false),
  // kept for every run(); at most threads x window_per_thread jobs in flight.
  OrderedPool(unsigned threads, std::size_t window_per_thread);
  OrderedPool(const OrderedPool&) = delete;
  OrderedPool& operator=(const OrderedPool&) = delete;
  // Stops and joins the workers.
  ~OrderedPool();

  // The storage slots a caller keeps for jobs in flight: job i uses slot
  // i % slots(), from produce(i) until consume(i) returns. 1 without workers.
  std::size_t slots() const { return slots_; }
  // Whether run() uses worker threads.
  bool threaded() const;

  // Runs produce(i, slot) for i = 0 .. n-1 (on the workers, several at once)
  // and consume(i, slot) on the calling thread in order of i. An exception of
  // produce(i) is rethrown by run() at i's turn, an exception of consume(i)
  // as it happens; either way no job is started after it and those running
  // are waited for before it leaves run(), so the pool can run again.
  void run(std::size_t n, const std::function<void(std::size_t index, std::size_t slot)>& produce,
           const std::function<void(std::size_t index, std::size_t slot)>& consume);

 private:
  struct Workers;
  std::size_t slots_ = 1;
  std::unique_ptr<Workers> workers_;  // null: inline
};

}  // namespace gltf_anim::io

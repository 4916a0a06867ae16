// The ordered pool: worker threads, or inline execution in a build without
// threads (GLTF_ANIM_THREADS=OFF defines GLTF_ANIM_NO_THREADS).
#include <gltf_anim/io/ordered_pool.hpp>

#include <algorithm>
#include <exception>
#include <vector>

#ifndef GLTF_ANIM_NO_THREADS
#include <condition_variable>
#include <mutex>
#include <thread>
#endif

namespace gltf_anim::io {

#ifdef GLTF_ANIM_NO_THREADS

bool threads_available() { return false; }
unsigned hardware_threads() { return 1; }
struct OrderedPool::Workers {};
OrderedPool::OrderedPool(unsigned, std::size_t) {}
bool OrderedPool::threaded() const { return false; }

#else

bool threads_available() { return true; }
unsigned hardware_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

struct OrderedPool::Workers {
  struct Slot {
    std::exception_ptr error;
    bool done = false;
  };

  Workers(unsigned threads, std::size_t window) : slots(window) {
    try {
      for (unsigned t = 0; t < threads; ++t) pool.emplace_back([this] { work(); });
    } catch (...) {
      shut_down();  // those started are stopped before the failure reaches the caller
      throw;
    }
  }
  ~Workers() { shut_down(); }

  void shut_down() {
    {
      std::lock_guard lock(mutex);
      stop = true;
    }
    work_ready.notify_all();
    for (auto& t : pool) t.join();
    pool.clear();
  }

  void work() {
    std::unique_lock lock(mutex);
    for (;;) {
      work_ready.wait(lock,
                      [&] { return stop || (next < jobs && next < consumed + slots.size()); });
      if (stop) return;
      const std::size_t i = next++;
      const std::size_t s = i % slots.size();
      ++running;
      lock.unlock();
      // Slot s is this job's until it is consumed: job i + slots.size() is not
      // handed out before that.
      std::exception_ptr error;
      try {
        (*produce)(i, s);
      } catch (...) { error = std::current_exception(); }
      lock.lock();
      --running;
      slots[s].error = error;
      slots[s].done = true;
      job_done.notify_all();
    }
  }

  // Hands out no more jobs of this run and waits until none runs.
  void finish_run() {
    std::unique_lock lock(mutex);
    jobs = next;
    job_done.wait(lock, [&] { return running == 0; });
    for (auto& s : slots) s = Slot{};
    produce = nullptr;
  }

  void run(std::size_t n, const std::function<void(std::size_t, std::size_t)>& produce_job,
           const std::function<void(std::size_t, std::size_t)>& consume) {
    {
      std::lock_guard lock(mutex);
      produce = &produce_job;
      jobs = n;
      next = 0;
      consumed = 0;
    }
    work_ready.notify_all();
    try {
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t s = i % slots.size();
        std::exception_ptr error;
        {
          std::unique_lock lock(mutex);
          job_done.wait(lock, [&] { return slots[s].done; });
          error = slots[s].error;
        }
        if (error) std::rethrow_exception(error);
        consume(i, s);
        {
          std::lock_guard lock(mutex);
          slots[s] = Slot{};
          ++consumed;
        }
        work_ready.notify_all();
      }
    } catch (...) {
      finish_run();
      throw;
    }
    finish_run();
  }

  std::vector<Slot> slots;
  std::vector<std::thread> pool;
  std::mutex mutex;
  std::condition_variable work_ready;  // a job can be taken, or stop
  std::condition_variable job_done;    // a slot is filled, or a job ended
  const std::function<void(std::size_t, std::size_t)>* produce = nullptr;
  std::size_t jobs = 0;      // jobs of the current run
  std::size_t next = 0;      // next job to hand out
  std::size_t consumed = 0;  // job i may start when i < consumed + slots
  std::size_t running = 0;   // jobs being produced
  bool stop = false;
};

OrderedPool::OrderedPool(unsigned threads, std::size_t window_per_thread) {
  if (threads < 2) return;
  slots_ = std::max<std::size_t>(1, std::size_t{threads} * window_per_thread);
  workers_ = std::make_unique<Workers>(threads, slots_);
}

bool OrderedPool::threaded() const { return workers_ != nullptr; }

#endif

OrderedPool::~OrderedPool() = default;

void OrderedPool::run(std::size_t n, const std::function<void(std::size_t, std::size_t)>& produce,
                      const std::function<void(std::size_t, std::size_t)>& consume) {
#ifndef GLTF_ANIM_NO_THREADS
  if (workers_) {
    workers_->run(n, produce, consume);
    return;
  }
#endif
  for (std::size_t i = 0; i < n; ++i) {
    produce(i, 0);
    consume(i, 0);
  }
}

}  // namespace gltf_anim::io

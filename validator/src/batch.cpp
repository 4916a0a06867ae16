#include <gltf_anim/validator/batch.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <new>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

namespace gltf_anim::validator {

ValidationReport validate_path(const std::string& path, const std::string& folder,
                               const ValidateOptions& options, const StandardInput& standard_input,
                               const ReportAmendment& amend) {
  if (path == kStandardInputPath) {
    if (standard_input.too_large) {
      // What load_bytes reports for too many bytes, without holding them: the
      // read stopped one byte past the limit.
      IssueCollector issues(options.issues);
      LoadedAsset asset;
      asset.uri = kStandardInputPath;
      issues.add("FILE_TOO_LARGE", "",
                 {std::to_string(options.load.max_file_bytes + 1),
                  std::to_string(options.load.max_file_bytes)});
      return validate_asset(asset, issues, amend);
    }
    return validate_bytes(standard_input.bytes, std::string(kStandardInputPath), options.load.root,
                          options, amend);
  }
  if (!folder.empty()) {
    ValidateOptions beneath = options;
    beneath.load.asset_folder = folder;
    return validate_file(path, beneath, amend);
  }
  return validate_file(path, options, amend);
}

ValidationReport internal_error_report(const std::string& uri, const std::string& what) {
  IssueCollector issues;
  issues.add("INTERNAL_ERROR", "", {what});
  ValidationReport r;
  r.uri = uri;
  r.issues = issues.issues();
  return r;
}

namespace {

// validate(i), timed, with whatever it throws turned into an INTERNAL_ERROR
// for this asset, so the run goes on and the report says which asset.
ValidatedAsset validate_guarded(std::span<const std::string> uris, std::size_t i,
                                const std::function<ValidationReport(std::size_t)>& validate) {
  const auto start = std::chrono::steady_clock::now();
  ValidatedAsset done;
  try {
    done.report = validate(i);
  } catch (const std::bad_alloc&) {
    done.report = internal_error_report(uris[i], "out of memory");
  } catch (const std::exception& e) {
    done.report = internal_error_report(uris[i], e.what());
  } catch (...) { done.report = internal_error_report(uris[i], "unknown exception"); }
  done.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return done;
}

}  // namespace

void validate_in_order(std::span<const std::string> uris, unsigned threads,
                       const std::function<ValidationReport(std::size_t)>& validate,
                       const std::function<void(std::size_t, ValidatedAsset&&)>& sink) {
  const std::size_t count = uris.size();
  const std::size_t n_threads = std::min<std::size_t>(threads, count);
  if (n_threads <= 1) {
    for (std::size_t i = 0; i < count; ++i) sink(i, validate_guarded(uris, i, validate));
    return;
  }
  // Asset i waits in slot i % window until the sink takes it; a worker takes
  // asset i only once asset i - window went through the sink, so the slot is free.
  const std::size_t window = n_threads * kReportWindowPerThread;
  std::vector<std::optional<ValidatedAsset>> slots(window);
  std::mutex mutex;
  std::condition_variable slot_free, report_done;
  std::size_t next = 0, written = 0;
  bool stop = false;  // the sink failed: workers take nothing more
  auto worker = [&] {
    for (;;) {
      std::size_t i = 0;
      {
        std::unique_lock lock(mutex);
        slot_free.wait(lock, [&] { return stop || next >= count || next < written + window; });
        if (stop || next >= count) return;
        i = next++;
      }
      ValidatedAsset done = validate_guarded(uris, i, validate);
      {
        std::lock_guard lock(mutex);
        slots[i % window].emplace(std::move(done));
      }
      report_done.notify_all();
    }
  };
  std::vector<std::jthread> pool;
  try {
    // Inside the try: if a thread cannot be started, those started are stopped.
    for (std::size_t t = 0; t < n_threads; ++t) pool.emplace_back(worker);
    for (std::size_t i = 0; i < count; ++i) {
      ValidatedAsset done;
      {
        std::unique_lock lock(mutex);
        report_done.wait(lock, [&] { return slots[i % window].has_value(); });
        done = std::move(*slots[i % window]);
        slots[i % window].reset();
      }
      sink(i, std::move(done));
      {
        std::lock_guard lock(mutex);
        written = i + 1;
      }
      slot_free.notify_all();
    }
  } catch (...) {
    {
      std::lock_guard lock(mutex);
      stop = true;
    }
    slot_free.notify_all();
    throw;  // the pool joins the workers as this unwinds
  }
}

}  // namespace gltf_anim::validator

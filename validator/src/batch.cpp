#include <gltf_anim/validator/batch.hpp>

#include <gltf_anim/io/ordered_pool.hpp>

#include <algorithm>
#include <chrono>
#include <exception>
#include <new>
#include <optional>
#include <utility>
#include <vector>

namespace gltf_anim::validator {

using gltf::IssueCollector;
using gltf::LoadedAsset;

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
  io::OrderedPool pool(static_cast<unsigned>(std::min<std::size_t>(threads, count)),
                       kReportWindowPerThread);
  // Asset i waits in slot i % slots until the sink takes it.
  std::vector<std::optional<ValidatedAsset>> slots(pool.slots());
  pool.run(
      count,
      [&](std::size_t i, std::size_t slot) {
        slots[slot].emplace(validate_guarded(uris, i, validate));
      },
      [&](std::size_t i, std::size_t slot) {
        ValidatedAsset done = std::move(*slots[slot]);
        slots[slot].reset();
        sink(i, std::move(done));
      });
}

}  // namespace gltf_anim::validator

#pragma once
// Validating many assets: on several threads, each report handed on in input
// order as soon as it and all before it are done, so a report can be written
// while later assets are still being validated and memory does not grow with
// the number of assets. An asset whose validation throws gets one
// INTERNAL_ERROR report and the run goes on.
#include <gltf_anim/validator/validate.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

namespace gltf_anim::validator {

// The path that names standard input.
inline constexpr std::string_view kStandardInputPath = "-";

// Standard input's bytes, read once by the caller, for the asset named "-".
struct StandardInput {
  std::span<const std::uint8_t> bytes;
  // The read stopped one byte past options.load.max_file_bytes: the asset is
  // refused (FILE_TOO_LARGE) without its bytes having been held.
  bool too_large = false;
};

// Validates the asset at `path`: a file, opened beneath `folder` when that is
// not empty (the folder the user named, which it was found in), or
// kStandardInputPath for `standard_input`. `amend` as for validate_file.
ValidationReport validate_path(const std::string& path, const std::string& folder,
                               const ValidateOptions& options, const StandardInput& standard_input,
                               const ReportAmendment& amend = {});

// The report of an asset whose validation threw (std::bad_alloc: "out of
// memory", or a defect): one INTERNAL_ERROR, not subject to ignored codes or
// overrides, because an asset that was not validated must never look clean.
ValidationReport internal_error_report(const std::string& uri, const std::string& what);

// At most this many reports per thread are alive at once in validate_in_order
// (validated or being validated, and not yet through the sink).
inline constexpr std::size_t kReportWindowPerThread = 2;

struct ValidatedAsset {
  ValidationReport report;
  double seconds = 0.0;  // wall clock spent in validate(i): what a CI job waits for
};

// Validates uris.size() assets, asset i by validate(i), on `threads` worker
// threads (at most one per asset; one or none: on the calling thread), and
// calls sink(i, asset) on the calling thread for i = 0, 1, ... in order, each
// as soon as it and all before it are done. At most kReportWindowPerThread x
// threads reports are alive at once. validate is called from several threads
// at once. An exception from validate(i) becomes internal_error_report(uris[i])
// for that asset only. An exception from the sink (a failed write) stops the
// workers: no asset is started after it, they are joined, and it reaches the
// caller.
void validate_in_order(std::span<const std::string> uris, unsigned threads,
                       const std::function<ValidationReport(std::size_t index)>& validate,
                       const std::function<void(std::size_t index, ValidatedAsset&& asset)>& sink);

}  // namespace gltf_anim::validator

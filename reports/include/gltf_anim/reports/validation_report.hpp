#pragma once
// Writers for validation reports (validator/validate.hpp), all reading the same
// ValidationReport list and all deterministic (no timestamps, no durations):
//  - json:  glTF-Validator's report shape; one object for one asset, an array
//           for several;
//  - text:  for people: one line per issue, repeats of a code grouped with their
//           count and first places, and a summary;
//  - junit: one <testcase> per asset, failing when an issue reaches fail_on;
//  - sarif: SARIF 2.1.0, rules from the registry, one result per issue with the
//           asset's URI and the JSON pointer as a logical location.
#include <gltf_anim/validator/validate.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

namespace gltf_anim::reports {

enum class ValidationFormat { kText, kJson, kJunit, kSarif };
// "text", "json", "junit", "sarif"; nullopt for anything else.
std::optional<ValidationFormat> validation_format_from_name(std::string_view name);

struct ValidationWriteOptions {
  // Issues at this severity or more severe fail (junit failures, text summary).
  validator::Severity fail_on = validator::Severity::kError;
  // json: write an array even for one report.
  bool force_array = false;
  // Name the tool(s) that found each issue (a run that merged glTF-Validator's
  // reports): json "foundBy", sarif result properties, text and junit a tag.
  bool found_by = false;
};

void write_validation_json(std::ostream& out, std::span<const validator::ValidationReport> reports,
                           const ValidationWriteOptions& options = {});
void write_validation_text(std::ostream& out, std::span<const validator::ValidationReport> reports,
                           const ValidationWriteOptions& options = {});
void write_validation_junit(std::ostream& out, std::span<const validator::ValidationReport> reports,
                            const ValidationWriteOptions& options = {});
void write_validation_sarif(std::ostream& out, std::span<const validator::ValidationReport> reports,
                            const ValidationWriteOptions& options = {});
void write_validation(std::ostream& out, ValidationFormat format,
                      std::span<const validator::ValidationReport> reports,
                      const ValidationWriteOptions& options = {});

// A report written as its assets arrive, in order, with the same bytes as
// write_validation of all of them: construction writes what comes before the
// first asset, asset() one asset's part, end() the rest. What is held between
// assets is bounded by the assets' count, not their issues: json and text hold
// running totals, junit its failure count, sarif each asset's URI and MIME type
// (its artifacts come before all results). junit and sarif put the per-asset
// parts in an unnamed temporary file (std::tmpfile, in memory if none can be
// made) until end(), because their headers count every asset.
class ValidationStreamWriter {
 public:
  virtual ~ValidationStreamWriter() = default;
  virtual void asset(const validator::ValidationReport& report) = 0;
  virtual void end() = 0;
};
// `asset_count`: how many assets asset() will get (json: an array unless one).
std::unique_ptr<ValidationStreamWriter> make_validation_writer(std::ostream& out, ValidationFormat format,
                                                               std::size_t asset_count,
                                                               const ValidationWriteOptions& options = {});

// True when some issue of `report` is at `fail_on` or more severe.
bool reaches(const validator::ValidationReport& report, validator::Severity fail_on);

// A file URI reference for SARIF: relative paths stay relative (forward
// slashes, percent-encoded), absolute paths become file:///...
std::string file_uri(std::string_view path);

}  // namespace gltf_anim::reports

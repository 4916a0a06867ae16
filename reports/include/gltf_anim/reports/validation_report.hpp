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

// True when some issue of `report` is at `fail_on` or more severe.
bool reaches(const validator::ValidationReport& report, validator::Severity fail_on);

// A file URI reference for SARIF: relative paths stay relative (forward
// slashes, percent-encoded), absolute paths become file:///...
std::string file_uri(std::string_view path);

}  // namespace gltf_anim::reports

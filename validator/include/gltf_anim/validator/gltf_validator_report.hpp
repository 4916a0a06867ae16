#pragma once
// Reports of the Khronos glTF-Validator (run by the user), folded into ours so
// that one JSON, SARIF or JUnit report carries both tools' findings: we check
// animation and what animation touches, glTF-Validator the rest.
//
// The input is glTF-Validator's report JSON (ValidationResult.toMap:
// {uri, mimeType, validatorVersion, issues: {numErrors, ..., messages:
// [{code, message, severity 0..3, pointer | offset}], truncated}, info}), or an
// array of such reports. It is hostile: at most kMaxGltfValidatorReportBytes,
// parsed by the loader's hardened parser (UTF-8 validated, iterative, nesting
// and value count limited), each member's type checked, codes UPPER_SNAKE of
// at most 64 characters, at most kMaxForeignCodes distinct codes; messages and
// pointers are cut like ours; what is merged counts toward the asset's issue
// limits.
#include <gltf_anim/gltf/issue_collector.hpp>
#include <gltf_anim/io/input_files.hpp>
#include <gltf_anim/io/output_file.hpp>
#include <gltf_anim/validator/validate.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gltf_anim::validator {

inline constexpr std::uint64_t kMaxGltfValidatorReportBytes = std::uint64_t{256} << 20;
inline constexpr std::size_t kMaxForeignCodes = 4096;

struct ForeignMessage {
  std::string_view code;  // interned (static storage), like our registry codes
  gltf::Severity severity;
  std::string message;
  std::string pointer;
  std::optional<std::uint64_t> offset;
};

// A glTF-Validator code as an Issue::code: ours point into the registry, the
// others into a process-wide set (static storage); nullopt when `code` is not
// UPPER_SNAKE of at most 64 characters or kMaxForeignCodes are held already.
std::optional<std::string_view> intern_gltf_validator_code(std::string_view code);

// One asset's report as glTF-Validator wrote it.
struct GltfValidatorReport {
  std::optional<std::string> uri;
  std::vector<ForeignMessage> messages;
  bool truncated = false;
};

// Parses report text: nullopt with `why` ("/issues/messages/3/severity: ...")
// when it is not a glTF-Validator report.
std::optional<std::vector<GltfValidatorReport>> parse_gltf_validator_reports(std::string_view text,
                                                                             std::string& why);
// Reads the file (a regular file, bounded); `identity` is set to the file read,
// so that an output replacing it can be refused.
std::optional<std::vector<GltfValidatorReport>> read_gltf_validator_reports(
    const std::filesystem::path& path, std::optional<io::FileIdentity>& identity, std::string& why);

// Folds `theirs` into `ours`. A message whose (code, pointer) (or, for GLB
// container messages, (code, offset)) is already in `ours` marks ours as found
// by both tools; another is added once (glTF-Validator repeats a message per
// use of an accessor), marked glTF-Validator. `options`' ignored codes and
// severity overrides apply to theirs as to ours (by code), and their limits
// bound the merged report (truncated, as a collector would). Linear in both
// reports.
void merge_gltf_validator_report(ValidationReport& ours, const GltfValidatorReport& theirs,
                                 const gltf::IssueOptions& options);
// The same for all of an asset's reports at once, in order: ours are indexed
// once, so the cost is linear in ours plus theirs however many reports there
// are (one call per report would index ours each time).
void merge_gltf_validator_reports(ValidationReport& ours,
                                  std::span<const GltfValidatorReport* const> theirs,
                                  const gltf::IssueOptions& options);

// Which validated asset each report belongs to: `reports[k]` to
// `assets[result[k]]`. A report's uri matches an asset path when they are
// equal or one ends with the other after a '/' ("model.glb" and
// "exports/model.glb"); a report without uri matches when there is one asset.
// Linear in the length of the paths and uris.
// nullopt with `why` when a report matches no asset or several.
std::optional<std::vector<std::size_t>> match_gltf_validator_reports(
    const std::vector<GltfValidatorReport>& reports, const std::vector<std::string>& assets,
    std::string& why);

// The reports of each asset, for a run that validates `run_assets` (match_gltf_validator_reports):
// result[i] holds, in the order of `reports`, those that belong to run_assets[i].
using GltfValidatorReportsByAsset = std::vector<std::vector<const GltfValidatorReport*>>;
std::optional<GltfValidatorReportsByAsset> gltf_validator_reports_by_asset(
    const std::vector<GltfValidatorReport>& reports, const std::vector<std::string>& run_assets,
    std::string& why);
// The same for one shard of the run (--shard), which validates run_assets[positions[j]]
// for each j (`positions` ascending): the reports are matched against the whole run's
// assets, so a report of another shard's asset is that shard's, not an error, and is
// left out; result[j] holds those of the shard's asset j.
std::optional<GltfValidatorReportsByAsset> gltf_validator_reports_by_shard_asset(
    const std::vector<GltfValidatorReport>& reports, const std::vector<std::string>& run_assets,
    const std::vector<std::uint64_t>& positions, std::string& why);

}  // namespace gltf_anim::validator

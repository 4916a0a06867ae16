#pragma once
// Writers for validation reports (validator/validate.hpp), all reading the same
// ValidationReport list and all deterministic apart from the validation times
// the caller gives (AssetRun::seconds; none: byte-reproducible output):
//  - json:  one object whatever the number of assets (docs/schemas/
//           validation-report.schema.json): the tool, one glTF-Validator-shaped
//           report per asset, a summary;
//  - text:  for people: one line per issue, repeats of a code grouped with their
//           count and first places, and a summary;
//  - junit: one <testcase> per asset, failing when an issue reaches fail_on;
//  - sarif: SARIF 2.1.0, rules from the registry, one result per issue with the
//           asset's URI and the issue's JSON pointer as a logical location;
//  - md:    a CI job's summary page (GitHub-flavoured Markdown): "N of M assets
//           failed", the failing assets and their issues, then the passing ones;
//  - github: GitHub Actions workflow commands (::error file=...::...), one
//           annotation per finding up to a cap, escaped by GitHub's rules.
#include <gltf_anim/validator/validate.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gltf_anim::reports {

enum class ValidationFormat { kText, kJson, kJunit, kSarif, kMarkdown, kGithub };
// The format of that name in the table of formats (formats.hpp); nullopt for anything else.
std::optional<ValidationFormat> validation_format_from_name(std::string_view name);

// A run of `validate --shard K/N`: one part of a stable partition of the
// assets (docs/CI.md). Its JSON report says which part, so that `gltf-anim
// merge` can check that every part is there exactly once.
struct Shard {
  std::uint64_t index = 1;   // K, from 1
  std::uint64_t count = 1;   // N
  std::uint64_t assets = 0;  // assets of the whole run (all shards)
  // The run's identity (validator::run_identity): the shards of one run share it.
  std::string run;
};

// What the run knows of one asset besides its report.
struct AssetRun {
  // Wall time spent validating it: junit `time`, json `validationSeconds`.
  std::optional<double> seconds;
  // Its place in the whole run's order, for sharded runs (json `shardPosition`).
  std::optional<std::uint64_t> position;
};

struct ValidationWriteOptions {
  // Issues at this severity or more severe fail (junit failures, text summary).
  gltf::Severity fail_on = gltf::Severity::kError;
  // Set for a sharded run (json `shard`).
  std::optional<Shard> shard;
  // sarif: artifact paths are written relative to this folder (absolute,
  // normal) with uriBaseId %SRCROOT%; paths outside it stay absolute file URIs.
  std::optional<std::filesystem::path> sarif_base;
  // Name the tool(s) that found each issue (a run that merged glTF-Validator's
  // reports): json "foundBy", sarif result properties, text and junit a tag.
  bool found_by = false;
  // The run's severities (--lints, --severity-override): SARIF rules give each
  // code's level under it (defaultConfiguration), and json writes it as
  // "policy" when it is not the default one, so that `merge` can do the same.
  // Only `lints.level` and `severity_overrides` are read.
  gltf::IssueOptions issue_policy;
  // junit, sarif: their per-asset parts wait in an io::Spool until the header's
  // counts are known; past its memory bound it spools in this folder (the
  // output's, which has room for the report anyway), then $TMPDIR, then /tmp.
  std::filesystem::path spool_folder;
};

// What is known of an asset's messages before they are read one by one: their
// count by severity, and the code of the first one of each severity (junit's
// failure type is the first at or above fail_on). A merge gets it from its first
// reading of the asset; a report in memory from its issues (issue_facts).
struct IssueFacts {
  std::array<std::uint64_t, 4> counts{};  // by severity: error, warning, info, hint
  // The index and code of the first issue of each severity (index: none when its count is 0).
  std::array<std::uint64_t, 4> first_index{};
  std::array<std::string_view, 4> first_code{};  // interned codes (registry or glTF-Validator's)

  void add(const gltf::Issue& issue, std::uint64_t index);
  // True when some issue is at `fail_on` or more severe.
  bool reaches(gltf::Severity fail_on) const;
  std::uint64_t at_or_above(gltf::Severity fail_on) const;
  // The code of the first issue at `fail_on` or more severe; empty when none.
  std::string_view first_reaching(gltf::Severity fail_on) const;
};
IssueFacts issue_facts(const validator::ValidationReport& report);

// An asset's messages, delivered one at a time and in order, as many times as a
// writer asks (junit lists the failing ones, then the others): a merge reads them
// again from the report's text each time, so no writer holds more than one.
class IssueSource {
 public:
  virtual ~IssueSource() = default;
  // Calls `each` with every issue in order; an issue lives only during its call.
  virtual void for_each(const std::function<void(const gltf::Issue&)>& each) const = 0;
};
// The issues of a report in memory.
class IssueSpan final : public IssueSource {
 public:
  explicit IssueSpan(std::span<const gltf::Issue> issues) : issues_(issues) {}
  void for_each(const std::function<void(const gltf::Issue&)>& each) const override {
    for (const gltf::Issue& i : issues_) each(i);
  }

 private:
  std::span<const gltf::Issue> issues_;
};

// Counts over the assets of a run: the json summary, the text report's last
// line and the line `validate --output` prints on stderr.
struct ValidationTotals {
  std::uint64_t assets = 0;
  std::uint64_t failing = 0;              // assets with an issue at or above fail_on
  std::uint64_t truncated = 0;            // assets whose issues were cut by the limits
  std::array<std::uint64_t, 4> issues{};  // by severity: error, warning, info, hint
  double seconds = 0;                     // sum of the times given
  bool timed = true;                      // every asset had a time

  void add(const validator::ValidationReport& report, gltf::Severity fail_on,
           const AssetRun& run = {});
  // `header`'s truncated flag with the counts of `facts` (its issues are not read).
  void add(const validator::ValidationReport& header, const IssueFacts& facts,
           gltf::Severity fail_on, const AssetRun& run = {});
  // "3 assets, 1 failed; 2 errors, 0 warnings, 1 info, 0 hints"
  std::string line() const;
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
// parts in an io::Spool until end(), because their headers count every asset.
// No writer reads an asset: sarif's regions are the issues' positions
// (validate_file locates them; a json report carries them).
//
// An asset is given either whole (a report in memory: `validate`) or as a
// header (uri, MIME type, truncated, info; its issues not read), the facts of
// its messages and their source, read one at a time (`merge`): what a writer
// holds of one asset is then bounded whatever its number of issues (json, sarif,
// github and junit one issue; md the rows it prints; text, per group of a code,
// its first distinct messages and an 8-byte digest of each other distinct one).
class ValidationStreamWriter {
 public:
  virtual ~ValidationStreamWriter() = default;
  void asset(const validator::ValidationReport& report, const AssetRun& run = {}) {
    write_asset(report, issue_facts(report), IssueSpan(report.issues), run);
  }
  void asset(const validator::ValidationReport& header, const IssueFacts& facts,
             const IssueSource& issues, const AssetRun& run = {}) {
    write_asset(header, facts, issues, run);
  }
  virtual void end() = 0;

 protected:
  virtual void write_asset(const validator::ValidationReport& header, const IssueFacts& facts,
                           const IssueSource& issues, const AssetRun& run) = 0;
};
std::unique_ptr<ValidationStreamWriter> make_validation_writer(
    std::ostream& out, ValidationFormat format, const ValidationWriteOptions& options = {});

// A json report read back (`gltf-anim merge`).
struct ReadAsset {
  validator::ValidationReport report;
  AssetRun run;
};
struct ValidationRun {
  std::string tool_version;
  std::optional<Shard> shard;
  gltf::Severity fail_on = gltf::Severity::kError;
  std::vector<ReadAsset> assets;
  bool found_by = false;  // its messages say which tool found them (foundBy)
  gltf::IssueOptions issue_policy;  // "policy": lints.level and severity_overrides
  // A digest of the report's text: the same report given twice to `merge` is refused.
  std::string fingerprint;
};
class ReportFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// Reads a json report (docs/schemas/validation-report.schema.json). Throws
// ReportFormatError naming the JSON pointer of the first thing that is not
// what our writer writes (an unknown issue code included, unless glTF-Validator
// alone found it: foundBy of a run with --merge-gltf-validator). Iterative parse,
// UTF-8 checked. Each asset's report is read as it is parsed, from a DOM of that
// asset alone: memory is the result and one asset's DOM, never a DOM of the whole
// text. A failed allocation is std::bad_alloc, never a write through null.
ValidationRun read_validation_json(std::string_view text);

// The --fail-on name of a severity: "error", "warning", "info", "hint".
std::string_view fail_on_name(gltf::Severity s);

// True when some issue of `report` is at `fail_on` or more severe.
bool reaches(const validator::ValidationReport& report, gltf::Severity fail_on);

// The homepage of gltf-anim (SARIF informationUri, json tool.informationUri).
std::string_view information_uri();

// A file URI reference for SARIF: relative paths stay relative (forward
// slashes, percent-encoded), absolute paths become file:///...
std::string file_uri(std::string_view path);

}  // namespace gltf_anim::reports

#pragma once
// The json reports of `gltf-anim validate` runs joined into one report (`gltf-anim
// merge`): the checks that they are parts of one run, and the order to write the
// assets in. Internal to this build (the CLI wires it); not an installed header.
//
// A merge reads each report twice, a piece at a time, and holds none whole: a
// first pass (index_validation_json) checks the whole report as
// read_validation_json does and keeps, of each asset, only where its object
// lies in the text (and its shardPosition); the merged report is then written
// asset by asset, each read again from its place: its header first
// (read_asset_header_at), then its messages handed to the writer one at a time
// (for_each_issue_at), as often as the format asks. Memory is one message and
// one asset's header (never its messages all at once) plus about 40 bytes per
// asset, whatever the size of the reports or of any one asset.
#include <gltf_anim/reports/validation_report.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace gltf_anim::reports {

// Where a report's bytes come from, read in pieces at any offset: a file the
// caller keeps open (the CLI, through io/) or bytes in memory.
class ReportBytes {
 public:
  virtual ~ReportBytes() = default;
  virtual std::uint64_t size() const = 0;
  // Copies up to `n` bytes from `offset` to `into` and says how many (0 past
  // the end). Throws ReportReadError when they cannot be read.
  virtual std::size_t read(std::uint64_t offset, char* into, std::size_t n) const = 0;
};
class ReportReadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class MemoryReportBytes final : public ReportBytes {
 public:
  explicit MemoryReportBytes(std::string_view text) : text_(text) {}
  std::uint64_t size() const override { return text_.size(); }
  std::size_t read(std::uint64_t offset, char* into, std::size_t n) const override;

 private:
  std::string_view text_;
};

// One asset of an indexed report: its object's first byte and length in the
// text, its shardPosition (a shard's report; 0 otherwise) and how many messages
// it has (so that its list is allocated once when it is read again).
struct IndexedAsset {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  std::uint64_t position = 0;
  std::uint64_t messages = 0;
};

// A report checked whole, its assets left where they are: `run` is what
// read_validation_json gives without its assets (run.assets is empty).
struct IndexedRun {
  ValidationRun run;
  std::vector<IndexedAsset> assets;
};

// The first pass: the same checks, in the same order, with the same
// ReportFormatError as read_validation_json, reading the bytes in pieces of a
// bounded size (one asset's DOM at a time). Throws ReportReadError when the
// bytes cannot be read.
IndexedRun index_validation_json(const ReportBytes& bytes);

// The asset whose object is `length` bytes at `offset` (an IndexedAsset), read
// again: what read_validation_json gives for it. Throws ReportFormatError when
// those bytes are no longer the asset indexed (the file changed meanwhile),
// ReportReadError when they cannot be read.
ReadAsset read_asset_at(const ReportBytes& bytes, const IndexedAsset& place);

// The asset at `place` read again without keeping its messages (counted, one
// at a time): its report with no issues, and what its messages hold (counts,
// first codes), which the writers print before them.
struct AssetHeader {
  ReadAsset asset;
  IssueFacts facts;
};
AssetHeader read_asset_header_at(const ReportBytes& bytes, const IndexedAsset& place);

// The messages of the asset at `place` read again, each handed to `each` as it
// is read and then dropped: one message is held at a time. Throws as
// read_asset_at does (after the messages before the fault were handed on).
void for_each_issue_at(const ReportBytes& bytes, const IndexedAsset& place,
                       const std::function<void(const gltf::Issue&)>& each);

// What the merged report is written with, and its assets in order: each as the
// report it is in (an index into the runs given) and its place there.
struct MergedRuns {
  gltf::Severity fail_on = gltf::Severity::kError;
  gltf::IssueOptions issue_policy;       // lints.level and severity_overrides
  bool found_by = false;                 // some part merged glTF-Validator's reports
  bool sharded = false;                  // the merged report is the whole run's: no shardPosition
  struct Place {
    std::size_t report = 0;
    IndexedAsset asset;
  };
  std::vector<Place> order;
};

// Joins `runs` (read from the files `names`, same order, at least one), all of
// `tool_version`. Shards (`validate --shard K/N`) must be every part 1..N of
// one run exactly once (one run identity, Shard::run) and their assets the whole
// run's: they are put in the whole run's order, and the merged json is then what
// one unsharded run writes. Whole runs are joined in the order given. Either way,
// the runs must share --fail-on and the severities, and no report may be given
// twice (the same text: ValidationRun::fingerprint). nullopt with `why`, a
// sentence naming the files, otherwise; `uri_of` gives the uri of an asset a
// refusal names (read again from its report). The runs' asset lists are
// emptied (moved into the order). Linear in the runs' assets (plus a logarithm
// per shard index).
std::optional<MergedRuns> merge_validation_runs(
    std::vector<IndexedRun>& runs, const std::vector<std::string>& names,
    std::string_view tool_version, std::string& why,
    const std::function<std::string(std::size_t report, const IndexedAsset&)>& uri_of);

}  // namespace gltf_anim::reports

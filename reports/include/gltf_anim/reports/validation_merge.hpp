#pragma once
// The json reports of `gltf-anim validate` runs joined into one report (`gltf-anim
// merge`): the checks that they are parts of one run, and the order to write the
// assets in. Internal to this build (the CLI wires it); not an installed header.
#include <gltf_anim/reports/validation_report.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gltf_anim::reports {

// What the merged report is written with, and its assets in order (pointers
// into the runs given, which must outlive it).
struct MergedRuns {
  gltf::Severity fail_on = gltf::Severity::kError;
  gltf::IssueOptions issue_policy;       // lints.level and severity_overrides
  bool found_by = false;                 // some part merged glTF-Validator's reports
  std::vector<ReadAsset*> order;
};

// Joins `runs` (read from the files `names`, same order, at least one), all of
// `tool_version`. Shards (`validate --shard K/N`) must be every part 1..N of
// one run exactly once (one run identity, Shard::run) and their assets the whole
// run's: they are put in the whole run's order, and the merged json is then what
// one unsharded run writes. Whole runs are joined in the order given. Either way,
// the runs must share --fail-on and the severities, and no report may be given
// twice (the same text: ValidationRun::fingerprint). nullopt with `why`, a
// sentence naming the files, otherwise. Linear in the runs' assets (plus a
// logarithm per shard index).
std::optional<MergedRuns> merge_validation_runs(std::vector<ValidationRun>& runs,
                                                const std::vector<std::string>& names,
                                                std::string_view tool_version, std::string& why);

}  // namespace gltf_anim::reports

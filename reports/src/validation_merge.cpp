// `gltf-anim merge`'s checks and order (validation_merge.hpp).
#include <gltf_anim/reports/validation_merge.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <unordered_map>

namespace gltf_anim::reports {
namespace {

std::optional<MergedRuns> refuse(std::string& why, std::string what) {
  why = std::move(what);
  return std::nullopt;
}

std::string quoted(const std::string& name) { return "'" + name + "'"; }

}  // namespace

std::optional<MergedRuns> merge_validation_runs(
    std::vector<IndexedRun>& indexed, const std::vector<std::string>& names,
    std::string_view tool_version, std::string& why,
    const std::function<std::string(std::size_t report, const IndexedAsset&)>& uri_of) {
  if (indexed.empty() || indexed.size() != names.size()) return refuse(why, "no report given");
  const ValidationRun& first = indexed.front().run;
  const std::string& first_name = names.front();
  std::unordered_map<std::string, std::size_t> seen;  // fingerprint -> run
  for (std::size_t k = 0; k < indexed.size(); ++k) {
    const ValidationRun& run = indexed[k].run;
    const std::string& name = names[k];
    if (run.tool_version != tool_version) {
      return refuse(why, quoted(name) + " was written by gltf-anim " + run.tool_version +
                             ", this is " + std::string(tool_version) +
                             ": merge reports of one version");
    }
    if (const auto [it, fresh] = seen.emplace(run.fingerprint, k); !fresh) {
      return refuse(why, quoted(name) + " is the same report as " + quoted(names[it->second]) +
                             ": each part is given once");
    }
    if (run.fail_on != first.fail_on) {
      return refuse(why, quoted(name) + " was written with --fail-on " +
                             std::string(fail_on_name(run.fail_on)) + ", " + quoted(first_name) +
                             " with " + std::string(fail_on_name(first.fail_on)));
    }
    // The severities are the run's: shards of one run share them, and the
    // merged SARIF lists each rule at the level they give.
    const gltf::IssueOptions& policy = run.issue_policy;
    if (policy.lints.level != first.issue_policy.lints.level ||
        policy.severity_overrides != first.issue_policy.severity_overrides) {
      return refuse(why, quoted(name) + " and " + quoted(first_name) +
                             " were written with different --lints or --severity-override "
                             "options");
    }
    if (run.shard.has_value() != first.shard.has_value()) {
      return refuse(why, quoted(name) + " and " + quoted(first_name) +
                             ": merge either the shards of one run or whole runs");
    }
  }
  MergedRuns out;
  out.fail_on = first.fail_on;
  out.issue_policy = first.issue_policy;
  // The tool marks stay when any part has them (a run with --merge-gltf-validator).
  out.found_by = std::any_of(indexed.begin(), indexed.end(),
                             [](const IndexedRun& r) { return r.run.found_by; });
  if (!first.shard) {
    std::size_t assets = 0;
    for (const IndexedRun& run : indexed) assets += run.assets.size();
    out.order.reserve(assets);
    for (std::size_t k = 0; k < indexed.size(); ++k) {
      for (const IndexedAsset& a : indexed[k].assets) out.order.push_back({k, a});
      indexed[k].assets = {};  // held once: in the order
    }
    return out;
  }
  out.sharded = true;
  const Shard whole = *first.shard;
  // The parts given, by index. Counts and places come from the files: they
  // are checked against what was read before anything is sized by them.
  std::map<std::uint64_t, const std::string*> part;
  std::uint64_t read = 0;
  for (std::size_t k = 0; k < indexed.size(); ++k) {
    const Shard& s = *indexed[k].run.shard;
    if (s.run != whole.run) {
      // Another library, other options or other glTF-Validator reports: the
      // parts would not add up to one run's report.
      return refuse(why, quoted(names[k]) + " and " + quoted(first_name) +
                             " are shards of different runs (other assets, or other options: "
                             "--ignore, --severity-override, --lints, --enable, limits, --root, "
                             "--fail-on, --merge-gltf-validator)");
    }
    if (s.count != whole.count || s.assets != whole.assets) {
      return refuse(why, quoted(names[k]) + " is shard " + std::to_string(s.index) + "/" +
                             std::to_string(s.count) + " of " + std::to_string(s.assets) +
                             " assets, " + quoted(first_name) + " of " +
                             std::to_string(whole.count) + " shards and " +
                             std::to_string(whole.assets) + " assets");
    }
    const auto [it, fresh] = part.emplace(s.index, &names[k]);
    if (!fresh) {
      return refuse(why, "shard " + std::to_string(s.index) + "/" + std::to_string(s.count) +
                             " given twice: " + quoted(*it->second) + " and " + quoted(names[k]));
    }
    read += indexed[k].assets.size();
  }
  // Indices are 1..count and distinct: the first gap is within size() + 1.
  for (std::uint64_t i = 1; part.size() != whole.count; ++i) {
    if (part.count(i) == 0) {
      return refuse(why, "shard " + std::to_string(i) + "/" + std::to_string(whole.count) +
                             " is missing: its assets would be left out");
    }
  }
  if (read != whole.assets) {
    return refuse(why, "the shards hold " + std::to_string(read) + " assets, the run " +
                           std::to_string(whole.assets));
  }
  // whole.assets equals the assets read (checked above), so it and every position
  // below it fit a size_t (32-bit in the WebAssembly build).
  // A place is taken when its asset's length is set (an asset's object is at
  // least "{}").
  std::vector<MergedRuns::Place> place(static_cast<std::size_t>(whole.assets));
  for (std::size_t k = 0; k < indexed.size(); ++k) {
    for (const IndexedAsset& a : indexed[k].assets) {
      const std::uint64_t position = a.position;
      const auto at = static_cast<std::size_t>(position);
      if (position >= whole.assets || place[at].asset.length != 0) {
        return refuse(why, quoted(names[k]) + ": asset '" + uri_of(k, a) + "' at shardPosition " +
                               std::to_string(position) +
                               (position >= whole.assets ? " past the run's assets" : " taken twice"));
      }
      place[at] = {k, a};
    }
    indexed[k].assets = {};  // held once: in the order
  }
  // As many assets as places, none taken twice: every place is filled.
  out.order = std::move(place);
  return out;
}

}  // namespace gltf_anim::reports

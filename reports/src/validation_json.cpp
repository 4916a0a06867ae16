// The json format: one object whatever the number of assets
// (docs/schemas/validation-report.schema.json): the tool, then one report per
// asset in glTF-Validator's shape (ValidationResult.toMap, keys in its order,
// no validatedAt timestamp, plus validatorName and our optional members), then
// a summary. 4-space indent.
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/validator/issue_policy.hpp>
#include <gltf_anim/version.hpp>

#include <rapidjson/prettywriter.h>

#include <cmath>
#include <cstdint>
#include <string>

#include <gltf_anim/text/escape.hpp>
#include "json_writer.hpp"
#include "validation_writers.hpp"

namespace gltf_anim::reports {
namespace {

using detail::BlockOStream;
using detail::json_key;
using detail::json_str;
using gltf::Issue;
using gltf::Severity;
using validator::ValidationReport;
using Writer = detail::JsonWriter;

void uint_member(Writer& w, const char* k, std::uint64_t v) {
  w.Key(k);
  w.Uint64(v);
}

void write_issue(Writer& w, const Issue& issue, bool found_by) {
  w.StartObject();
  json_key(w, "code");
  json_str(w, issue.code);
  json_key(w, "message");
  json_str(w, issue.message);
  // The template's {0}, {1}, ... (none for a finding of glTF-Validator's alone).
  if (const auto arguments = gltf::issue_arguments(issue)) {
    json_key(w, "arguments");
    w.StartArray();
    for (const std::string& a : *arguments) json_str(w, a);
    w.EndArray();
  }
  json_key(w, "severity");
  w.Int(static_cast<int>(issue.severity));
  if (issue.offset) {
    json_key(w, "offset");
    w.Uint64(*issue.offset);
  } else {
    json_key(w, "pointer");
    json_str(w, issue.pointer);
  }
  if (issue.position) {  // a syntax error, or where the value at the pointer starts
    json_key(w, "position");
    w.StartObject();
    uint_member(w, "line", issue.position->line);
    uint_member(w, "column", issue.position->column);
    uint_member(w, "byteOffset", issue.position->byte_offset);
    json_key(w, "inGlbJsonChunk");
    w.Bool(issue.position->in_glb_chunk);
    w.EndObject();
  }
  if (found_by) {
    json_key(w, "foundBy");
    w.StartArray();
    for (const std::string_view tool : gltf::found_by_names(issue.found_by)) json_str(w, tool);
    w.EndArray();
  }
  w.EndObject();
}

void write_strings(Writer& w, const char* name, const std::vector<std::string>& list) {
  json_key(w, name);
  w.StartArray();
  for (const auto& s : list) json_str(w, s);
  w.EndArray();
}

void write_info(Writer& w, const validator::AssetInfo& info) {
  w.StartObject();
  json_key(w, "version");
  json_str(w, info.version);
  if (info.min_version) {
    json_key(w, "minVersion");
    json_str(w, *info.min_version);
  }
  if (info.generator) {
    json_key(w, "generator");
    json_str(w, *info.generator);
  }
  if (!info.extensions_used.empty()) write_strings(w, "extensionsUsed", info.extensions_used);
  if (!info.extensions_required.empty()) {
    write_strings(w, "extensionsRequired", info.extensions_required);
  }
  if (!info.resources.empty()) {
    json_key(w, "resources");
    w.StartArray();
    for (const auto& r : info.resources) {
      w.StartObject();
      json_key(w, "pointer");
      json_str(w, r.pointer);
      json_key(w, "mimeType");
      json_str(w, "application/gltf-buffer");
      json_key(w, "storage");
      json_str(w, r.storage);
      if (r.uri) {
        json_key(w, "uri");
        json_str(w, *r.uri);
      }
      if (r.byte_length) {
        json_key(w, "byteLength");
        w.Uint64(*r.byte_length);
      }
      w.EndObject();
    }
    w.EndArray();
  }
  json_key(w, "animationCount");
  w.Uint64(info.animation_count);
  json_key(w, "hasMorphTargets");
  w.Bool(info.has_morph_targets);
  json_key(w, "hasSkins");
  w.Bool(info.has_skins);
  w.EndObject();
}

// Seconds as a JSON number with microsecond resolution: what a timer of a
// validation says, without the noise digits of a double.
void seconds(Writer& w, double s) { w.Double(std::round(s * 1e6) / 1e6); }

void write_report(Writer& w, const ValidationReport& r, const IssueFacts& facts,
                  const IssueSource& issues, const AssetRun& run, bool found_by) {
  w.StartObject();
  json_key(w, "uri");
  json_str(w, r.uri);
  if (!r.mime_type.empty()) {
    json_key(w, "mimeType");
    json_str(w, r.mime_type);
  }
  json_key(w, "validatorName");
  json_str(w, "gltf-anim");
  json_key(w, "validatorVersion");
  json_str(w, kVersion);
  if (run.position) {
    json_key(w, "shardPosition");
    w.Uint64(*run.position);
  }
  if (run.seconds) {
    json_key(w, "validationSeconds");
    seconds(w, *run.seconds);
  }
  json_key(w, "issues");
  w.StartObject();
  json_key(w, "numErrors");
  w.Uint64(facts.counts[0]);
  json_key(w, "numWarnings");
  w.Uint64(facts.counts[1]);
  json_key(w, "numInfos");
  w.Uint64(facts.counts[2]);
  json_key(w, "numHints");
  w.Uint64(facts.counts[3]);
  json_key(w, "messages");
  w.StartArray();
  issues.for_each([&w, found_by](const Issue& issue) { write_issue(w, issue, found_by); });
  w.EndArray();
  json_key(w, "truncated");
  w.Bool(r.truncated);
  w.EndObject();
  if (r.info) {
    json_key(w, "info");
    write_info(w, *r.info);
  }
  w.EndObject();
}

class JsonStreamWriter final : public ValidationStreamWriter {
 public:
  JsonStreamWriter(std::ostream& out, const ValidationWriteOptions& options)
      : out_(out), os_(out), w_(os_), options_(options) {
    w_.SetIndent(' ', 4);
    w_.StartObject();
    json_key(w_, "tool");
    w_.StartObject();
    json_key(w_, "name");
    json_str(w_, "gltf-anim");
    json_key(w_, "version");
    json_str(w_, kVersion);
    json_key(w_, "informationUri");
    json_str(w_, information_uri());
    w_.EndObject();
    if (options.shard) {
      json_key(w_, "shard");
      w_.StartObject();
      uint_member(w_, "index", options.shard->index);
      uint_member(w_, "count", options.shard->count);
      uint_member(w_, "assets", options.shard->assets);
      json_key(w_, "run");
      json_str(w_, options.shard->run);
      w_.EndObject();
    }
    write_policy(options.issue_policy);
    json_key(w_, "reports");
    w_.StartArray();
  }
  // "policy": the run's severities when they are not the default ones (lints
  // at most info, no override), so the default report stays as it was and
  // `merge` rebuilds the same SARIF rules from the shards.
  void write_policy(const gltf::IssueOptions& policy) {
    if (policy.lints.level == gltf::LintLevel::kInfo && policy.severity_overrides.empty()) return;
    json_key(w_, "policy");
    w_.StartObject();
    json_key(w_, "lints");
    json_str(w_, validator::lint_level_name(policy.lints.level));
    if (!policy.severity_overrides.empty()) {
      json_key(w_, "severityOverrides");
      w_.StartObject();
      for (const auto& [code, severity] : policy.severity_overrides) {
        json_key(w_, code.c_str());
        json_str(w_, validator::severity_word(severity));  // as --severity-override takes them
      }
      w_.EndObject();
    }
    w_.EndObject();
  }

  void end() override {
    w_.EndArray();
    json_key(w_, "summary");
    w_.StartObject();
    uint_member(w_, "assets", totals_.assets);
    uint_member(w_, "assetsFailing", totals_.failing);
    uint_member(w_, "assetsTruncated", totals_.truncated);
    uint_member(w_, "numErrors", totals_.issues[0]);
    uint_member(w_, "numWarnings", totals_.issues[1]);
    uint_member(w_, "numInfos", totals_.issues[2]);
    uint_member(w_, "numHints", totals_.issues[3]);
    json_key(w_, "failOn");
    json_str(w_, fail_on_name(options_.fail_on));
    json_key(w_, "result");
    json_str(w_, totals_.failing != 0 ? "fail" : "pass");
    if (totals_.timed && totals_.assets != 0) {
      json_key(w_, "validationSeconds");
      seconds(w_, totals_.seconds);
    }
    w_.EndObject();
    w_.EndObject();
    os_.Flush();
    out_ << "\n";
  }

 protected:
  void write_asset(const ValidationReport& r, const IssueFacts& facts, const IssueSource& issues,
                   const AssetRun& run) override {
    totals_.add(r, facts, options_.fail_on, run);
    write_report(w_, r, facts, issues, run, options_.found_by);
  }

 private:
  std::ostream& out_;
  BlockOStream os_;
  Writer w_;
  ValidationWriteOptions options_;
  ValidationTotals totals_;
};

}  // namespace

std::unique_ptr<ValidationStreamWriter> make_validation_json_writer(
    std::ostream& out, const ValidationWriteOptions& options) {
  return std::make_unique<JsonStreamWriter>(out, options);
}

void write_validation_json(std::ostream& out, std::span<const ValidationReport> reports,
                           const ValidationWriteOptions& options) {
  JsonStreamWriter w(out, options);
  for (const ValidationReport& r : reports) w.asset(r);
  w.end();
}

}  // namespace gltf_anim::reports

// The json format: one object whatever the number of assets
// (docs/schemas/validation-report.schema.json): the tool, then one report per
// asset in glTF-Validator's shape (ValidationResult.toMap, keys in its order,
// no validatedAt timestamp, plus validatorName and our optional members), then
// a summary. 4-space indent.
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/version.hpp>

#include <rapidjson/prettywriter.h>

#include <cmath>
#include <cstdint>
#include <string>

#include <gltf_anim/text/escape.hpp>
#include "validation_writers.hpp"

namespace gltf_anim::reports {
namespace {

using validator::Issue;
using validator::Severity;
using validator::ValidationReport;
// A rapidjson output stream that hands the ostream 64 KiB blocks: one virtual
// call per character (rapidjson::OStreamWrapper) made this writer the slowest
// part of a folder run.
class BlockOStream {
 public:
  using Ch = char;
  explicit BlockOStream(std::ostream& out) : out_(out) { buffer_.reserve(kBlock); }
  void Put(char c) {
    buffer_ += c;
    if (buffer_.size() >= kBlock) Flush();
  }
  void Flush() {
    out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    buffer_.clear();
  }

 private:
  static constexpr std::size_t kBlock = std::size_t{1} << 16;
  std::ostream& out_;
  std::string buffer_;
};
using Writer = rapidjson::PrettyWriter<BlockOStream>;

void key(Writer& w, const char* k) { w.Key(k); }
void uint_member(Writer& w, const char* k, std::uint64_t v) {
  w.Key(k);
  w.Uint64(v);
}
void str(Writer& w, std::string_view s) { text::json_value(w, s); }

void write_issue(Writer& w, const Issue& issue) {
  w.StartObject();
  key(w, "code");
  str(w, issue.code);
  key(w, "message");
  str(w, issue.message);
  key(w, "severity");
  w.Int(static_cast<int>(issue.severity));
  if (issue.offset) {
    key(w, "offset");
    w.Uint64(*issue.offset);
  } else {
    key(w, "pointer");
    str(w, issue.pointer);
  }
  if (issue.position) {  // a JSON syntax error: where it is (also in the message)
    key(w, "position");
    w.StartObject();
    uint_member(w, "line", issue.position->line);
    uint_member(w, "column", issue.position->column);
    uint_member(w, "byteOffset", issue.position->byte_offset);
    key(w, "inGlbJsonChunk");
    w.Bool(issue.position->in_glb_chunk);
    w.EndObject();
  }
  w.EndObject();
}

void write_strings(Writer& w, const char* name, const std::vector<std::string>& list) {
  key(w, name);
  w.StartArray();
  for (const auto& s : list) str(w, s);
  w.EndArray();
}

void write_info(Writer& w, const validator::AssetInfo& info) {
  w.StartObject();
  key(w, "version");
  str(w, info.version);
  if (info.min_version) {
    key(w, "minVersion");
    str(w, *info.min_version);
  }
  if (info.generator) {
    key(w, "generator");
    str(w, *info.generator);
  }
  if (!info.extensions_used.empty()) write_strings(w, "extensionsUsed", info.extensions_used);
  if (!info.extensions_required.empty()) {
    write_strings(w, "extensionsRequired", info.extensions_required);
  }
  if (!info.resources.empty()) {
    key(w, "resources");
    w.StartArray();
    for (const auto& r : info.resources) {
      w.StartObject();
      key(w, "pointer");
      str(w, r.pointer);
      key(w, "mimeType");
      str(w, "application/gltf-buffer");
      key(w, "storage");
      str(w, r.storage);
      if (r.uri) {
        key(w, "uri");
        str(w, *r.uri);
      }
      if (r.byte_length) {
        key(w, "byteLength");
        w.Uint64(*r.byte_length);
      }
      w.EndObject();
    }
    w.EndArray();
  }
  key(w, "animationCount");
  w.Uint64(info.animation_count);
  key(w, "hasMorphTargets");
  w.Bool(info.has_morph_targets);
  key(w, "hasSkins");
  w.Bool(info.has_skins);
  w.EndObject();
}

// Seconds as a JSON number with microsecond resolution: what a timer of a
// validation says, without the noise digits of a double.
void seconds(Writer& w, double s) { w.Double(std::round(s * 1e6) / 1e6); }

void write_report(Writer& w, const ValidationReport& r, const AssetRun& run) {
  w.StartObject();
  key(w, "uri");
  str(w, r.uri);
  if (!r.mime_type.empty()) {
    key(w, "mimeType");
    str(w, r.mime_type);
  }
  key(w, "validatorName");
  str(w, "gltf-anim");
  key(w, "validatorVersion");
  str(w, kVersion);
  if (run.position) {
    key(w, "shardPosition");
    w.Uint64(*run.position);
  }
  if (run.seconds) {
    key(w, "validationSeconds");
    seconds(w, *run.seconds);
  }
  key(w, "issues");
  w.StartObject();
  key(w, "numErrors");
  w.Uint64(r.count(Severity::kError));
  key(w, "numWarnings");
  w.Uint64(r.count(Severity::kWarning));
  key(w, "numInfos");
  w.Uint64(r.count(Severity::kInfo));
  key(w, "numHints");
  w.Uint64(r.count(Severity::kHint));
  key(w, "messages");
  w.StartArray();
  for (const Issue& issue : r.issues) write_issue(w, issue);
  w.EndArray();
  key(w, "truncated");
  w.Bool(r.truncated);
  w.EndObject();
  if (r.info) {
    key(w, "info");
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
    key(w_, "tool");
    w_.StartObject();
    key(w_, "name");
    str(w_, "gltf-anim");
    key(w_, "version");
    str(w_, kVersion);
    key(w_, "informationUri");
    str(w_, information_uri());
    w_.EndObject();
    if (options.shard) {
      key(w_, "shard");
      w_.StartObject();
      uint_member(w_, "index", options.shard->index);
      uint_member(w_, "count", options.shard->count);
      uint_member(w_, "assets", options.shard->assets);
      w_.EndObject();
    }
    key(w_, "reports");
    w_.StartArray();
  }
  void end() override {
    w_.EndArray();
    key(w_, "summary");
    w_.StartObject();
    uint_member(w_, "assets", totals_.assets);
    uint_member(w_, "assetsFailing", totals_.failing);
    uint_member(w_, "assetsTruncated", totals_.truncated);
    uint_member(w_, "numErrors", totals_.issues[0]);
    uint_member(w_, "numWarnings", totals_.issues[1]);
    uint_member(w_, "numInfos", totals_.issues[2]);
    uint_member(w_, "numHints", totals_.issues[3]);
    key(w_, "failOn");
    str(w_, fail_on_name(options_.fail_on));
    key(w_, "result");
    str(w_, totals_.failing != 0 ? "fail" : "pass");
    if (totals_.timed && totals_.assets != 0) {
      key(w_, "validationSeconds");
      seconds(w_, totals_.seconds);
    }
    w_.EndObject();
    w_.EndObject();
    os_.Flush();
    out_ << "\n";
  }

 protected:
  void write_asset(const ValidationReport& r, const AssetRun& run) override {
    totals_.add(r, options_.fail_on, run);
    write_report(w_, r, run);
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

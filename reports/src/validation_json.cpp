// The json format: glTF-Validator's report shape (ValidationResult.toMap),
// 4-space indent, keys in its order, no validatedAt timestamp.
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/version.hpp>

#include <rapidjson/prettywriter.h>

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
void str(Writer& w, std::string_view s) { text::json_value(w, s); }

void write_issue(Writer& w, const Issue& issue, bool found_by) {
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
  if (found_by) {
    key(w, "foundBy");
    w.StartArray();
    for (const std::string_view tool : validator::found_by_names(issue.found_by)) str(w, tool);
    w.EndArray();
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

void write_report(Writer& w, const ValidationReport& r, bool found_by) {
  w.StartObject();
  key(w, "uri");
  str(w, r.uri);
  if (!r.mime_type.empty()) {
    key(w, "mimeType");
    str(w, r.mime_type);
  }
  key(w, "validatorVersion");
  str(w, kVersion);
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
  for (const Issue& issue : r.issues) write_issue(w, issue, found_by);
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
  JsonStreamWriter(std::ostream& out, std::size_t asset_count,
                   const ValidationWriteOptions& options)
      : out_(out),
        os_(out),
        w_(os_),
        array_(options.force_array || asset_count != 1),
        found_by_(options.found_by) {
    w_.SetIndent(' ', 4);
    if (array_) w_.StartArray();
  }
  void asset(const ValidationReport& r) override { write_report(w_, r, found_by_); }
  void end() override {
    if (array_) w_.EndArray();
    os_.Flush();
    out_ << "\n";
  }

 private:
  std::ostream& out_;
  BlockOStream os_;
  Writer w_;
  bool array_;
  bool found_by_;
};

}  // namespace

std::unique_ptr<ValidationStreamWriter> make_validation_json_writer(std::ostream& out, std::size_t asset_count,
                                                                    const ValidationWriteOptions& options) {
  return std::make_unique<JsonStreamWriter>(out, asset_count, options);
}

void write_validation_json(std::ostream& out, std::span<const ValidationReport> reports,
                           const ValidationWriteOptions& options) {
  JsonStreamWriter w(out, reports.size(), options);
  for (const ValidationReport& r : reports) w.asset(r);
  w.end();
}

}  // namespace gltf_anim::reports

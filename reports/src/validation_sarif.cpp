// The SARIF 2.1.0 validation report: one result per issue, rules taken from
// the issue registry. Regions come from the positions the report carries
// (located at validation time, or read back from a json report by merge):
// this writer never opens the assets it names.
#include <gltf_anim/io/file_queries.hpp>
#include <gltf_anim/io/spool.hpp>
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/text/escape.hpp>
#include <gltf_anim/gltf/json_pointer.hpp>
#include <gltf_anim/validator/validate.hpp>
#include <gltf_anim/version.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <rapidjson/prettywriter.h>

#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "validation_writers.hpp"

namespace gltf_anim::reports {
namespace {

using gltf::Issue;
using gltf::Severity;
using io::Spool;
using validator::ValidationReport;

const char* sarif_level(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kInfo: return "note";
    case Severity::kHint: return "note";
  }
  return "none";
}

// Where the SARIF writer's bytes go: nowhere (a prefix written only to put the
// writer in the right state), the spool (results), a string (the end) or the
// output (the real prefix, once all artifacts are known).
class SarifSink {
 public:
  using Ch = char;
  enum class To { kNothing, kSpool, kTail, kOut };
  SarifSink(Spool& spool, std::string& tail, std::ostream& out)
      : spool_(spool), tail_(tail), out_(out) {}
  void to(To t) { to_ = t; }
  void Put(char c) {
    switch (to_) {
      case To::kNothing: break;
      case To::kSpool: spool_.put(c); break;
      case To::kTail: tail_ += c; break;
      case To::kOut: out_.put(c); break;
    }
  }
  void Flush() {}

 private:
  Spool& spool_;
  std::string& tail_;
  std::ostream& out_;
  To to_ = To::kNothing;
};
using SarifWriter = gltf_anim::json::PrettyWriter<SarifSink>;

// An asset's location: its URI and whether it is relative to %SRCROOT%.
struct Artifact {
  std::string uri;
  bool relative_to_base = false;
  std::string mime_type;
};

// The artifact location of `path`: relative to `base` (with uriBaseId
// %SRCROOT%) when it lies beneath it, so code-scanning views find it in the
// repository whatever folder the run was in; else as given.
Artifact artifact_of(const ValidationReport& r, const std::optional<std::filesystem::path>& base) {
  namespace fs = std::filesystem;
  if (base && r.uri != "-") {
    std::error_code ec;
    const fs::path absolute = io::absolute_path(fs::path(r.uri), ec).lexically_normal();
    if (!ec) {
      const fs::path relative = absolute.lexically_relative(*base);
      if (!relative.empty() && *relative.begin() != ".." && relative != ".") {
        return Artifact{file_uri(relative.generic_string()), true, r.mime_type};
      }
      return Artifact{file_uri(absolute.generic_string()), false, r.mime_type};
    }
  }
  return Artifact{file_uri(r.uri), false, r.mime_type};
}

void write_artifact_location(SarifWriter& w, const Artifact& a) {
  w.Key("uri");
  text::json_value(w, a.uri);
  if (a.relative_to_base) {
    w.Key("uriBaseId");
    text::json_value(w, "%SRCROOT%");
  }
}

// SARIF messages are sentences ending in a period (Multitool's SARIF2001);
// glTF-Validator's wording sometimes ends with a quoted value or a place.
std::string sentence(std::string_view message) {
  std::string out(message);
  if (out.empty() || (out.back() != '.' && out.back() != '!' && out.back() != '?')) out += '.';
  return out;
}

void write_text_message(SarifWriter& w, const char* name, std::string_view message) {
  w.Key(name);
  w.StartObject();
  w.Key("text");
  text::json_value(w, sentence(message));
  w.EndObject();
}

std::string friendly_name(std::string_view code) {
  std::string out;
  bool word_start = true;
  for (char c : code) {
    if (c == '_') {
      word_start = true;
      continue;
    }
    out += word_start || c < 'A' || c > 'Z' ? c : static_cast<char>(c - 'A' + 'a');
    word_start = false;
  }
  return out;
}

void write_rule(SarifWriter& w, const gltf::IssueType& t, const gltf::IssueOptions& policy) {
  // The level this run reports the code at, as its results carry it: a lint
  // under the default --lints info is a note here too, not its registry's warning.
  const gltf::Severity severity = policy.severity(t);
  auto s = [&w](std::string_view v) { text::json_value(w, v); };
  w.StartObject();
  w.Key("id");
  s(t.code);
  w.Key("name");  // the friendly name SARIF asks for: IO_ERROR is IoError
  s(friendly_name(t.code));
  write_text_message(w, "shortDescription", t.rule);
  write_text_message(w, "fullDescription", t.spec);
  w.Key("messageStrings");
  w.StartObject();
  write_text_message(w, "default", t.message);
  w.EndObject();
  // The help is whole in the log: no link to a repository location, which
  // may not be where (or at the version) the person reading the alert got the
  // tool from; `gltf-anim codes` and docs/ISSUE_CODES.md say the same.
  w.Key("help");
  w.StartObject();
  w.Key("text");
  s(sentence(std::string(t.rule)) + " Spec: " + sentence(t.spec));
  w.Key("markdown");
  s("**" + std::string(t.code) + "** (" + std::string(gltf::severity_name(severity)) +
    "): " + sentence(t.rule) + "\n\nSpec: " + sentence(t.spec));
  w.EndObject();
  w.Key("defaultConfiguration");
  w.StartObject();
  w.Key("level");
  s(sarif_level(severity));
  w.EndObject();
  w.EndObject();
}

// Everything before the first result: the tool with its rules, the artifacts,
// and "results": [.
void write_sarif_prefix(SarifWriter& w, std::span<const Artifact> artifacts,
                        const gltf::IssueOptions& policy) {
  auto s = [&w](std::string_view v) { text::json_value(w, v); };
  w.StartObject();
  w.Key("$schema");
  s("https://json.schemastore.org/sarif-2.1.0.json");
  w.Key("version");
  s("2.1.0");
  w.Key("runs");
  w.StartArray();
  w.StartObject();
  w.Key("tool");
  w.StartObject();
  w.Key("driver");
  w.StartObject();
  w.Key("name");
  s("gltf-anim");
  w.Key("version");
  s(kVersion);
  w.Key("informationUri");
  s(information_uri());
  w.Key("rules");
  w.StartArray();
  for (const auto& t : gltf::issue_types()) write_rule(w, t, policy);
  w.EndArray();
  w.EndObject();  // driver
  w.EndObject();  // tool
  w.Key("artifacts");
  w.StartArray();
  for (const Artifact& a : artifacts) {
    w.StartObject();
    w.Key("location");
    w.StartObject();
    write_artifact_location(w, a);
    w.EndObject();
    if (!a.mime_type.empty()) {
      w.Key("mimeType");
      s(a.mime_type);
    }
    w.EndObject();
  }
  w.EndArray();
  // Columns count code points, as the locator and JSON syntax errors count them.
  w.Key("columnKind");
  s("unicodeCodePoints");
  w.Key("results");
  w.StartArray();
}

// A JSON syntax error's place, or the place of a value at a pointer.
bool is_syntax_error(const Issue& i) {
  const gltf::IssueType* t = gltf::find_issue_type(i.code);
  return t != nullptr && t->phase == gltf::Phase::kJson;
}

// Every result has a region with a startLine (GitHub code scanning needs one).
// What the region means depends on what is known; its message says it when it
// is not simply "the value at this issue's pointer in this file". Only the
// report's own positions are used: the asset is never read again here.
void write_region(SarifWriter& w, const Issue& i) {
  w.Key("region");
  w.StartObject();
  if (i.position && i.position->in_glb_chunk) {
    // A GLB is binary: a line and column would count within its JSON chunk
    // (often one line of thousands of characters) and mean nothing in the file.
    // Its place is the JSON pointer (the logical location) and the byte offset.
    w.Key("startLine");
    w.Uint64(1);
    w.Key("byteOffset");
    w.Uint64(i.position->byte_offset);
    write_text_message(
        w, "message",
        is_syntax_error(i)
            ? "Byte offset " + std::to_string(i.position->byte_offset) +
                  " of the GLB file, in its JSON chunk (a binary file has no lines: line 1 "
                  "stands for the file)"
            : "The value at JSON pointer " + text::json_text(i.pointer.empty() ? "\"\"" : i.pointer) +
                  " of the GLB's JSON chunk, at byte offset " +
                  std::to_string(i.position->byte_offset) +
                  " of the file (a binary file has no lines: line 1 stands for the file)");
  } else if (i.position) {
    w.Key("startLine");
    w.Uint64(i.position->line);
    w.Key("startColumn");
    w.Uint64(i.position->column);
  } else if (i.offset) {  // a GLB container issue: bytes, no text
    w.Key("startLine");
    w.Uint64(1);
    w.Key("byteOffset");
    w.Uint64(*i.offset);
    write_text_message(
        w, "message",
        "Byte offset " + std::to_string(*i.offset) +
            " of the GLB file (a container issue has no line: line 1 stands for the file)");
  } else {
    w.Key("startLine");
    w.Uint64(1);
    write_text_message(
        w, "message",
        "The value at the JSON pointer is not in the asset's JSON text (a member that is "
        "missing, or a text that could not be parsed): line 1 stands for the file");
  }
  w.EndObject();
}

class SarifStreamWriter final : public ValidationStreamWriter {
 public:
  SarifStreamWriter(std::ostream& out, const ValidationWriteOptions& options)
      : out_(out),
        base_(options.sarif_base),
        results_(options.spool_folder),
        sink_(results_, tail_, out),
        w_(sink_),
        found_by_(options.found_by),
        policy_(options.issue_policy) {
    w_.SetIndent(' ', 2);
    for (std::size_t k = 0; k < gltf::issue_types().size(); ++k) {
      rule_index_.emplace(gltf::issue_types()[k].code, k);
    }
    // The writer's state must be that of the whole document when the first
    // result comes; the artifacts it writes here are not known yet and go
    // nowhere (end() writes the real prefix).
    write_sarif_prefix(w_, {}, policy_);
    sink_.to(SarifSink::To::kSpool);
  }
  void end() override {
    sink_.to(SarifSink::To::kTail);
    w_.EndArray();  // results
    w_.EndObject();
    w_.EndArray();  // runs
    w_.EndObject();
    SarifSink head(results_, tail_, out_);
    head.to(SarifSink::To::kOut);
    SarifWriter h(head);
    h.SetIndent(' ', 2);
    write_sarif_prefix(h, artifacts_, policy_);
    results_.copy_to(out_);
    out_ << tail_ << "\n";
  }

 protected:
  void write_asset(const ValidationReport& r, const IssueFacts& facts, const IssueSource& issues,
                   const AssetRun& run) override;

 private:
  std::ostream& out_;
  std::optional<std::filesystem::path> base_;
  Spool results_;
  std::string tail_;
  SarifSink sink_;
  SarifWriter w_;
  std::vector<Artifact> artifacts_;
  std::map<std::string_view, std::size_t> rule_index_;
  bool found_by_;
  gltf::IssueOptions policy_;
};

void SarifStreamWriter::write_asset(const ValidationReport& r, const IssueFacts& /*facts*/,
                                    const IssueSource& issues, const AssetRun& /*run*/) {
  SarifWriter& w = w_;
  auto s = [&w](std::string_view v) { text::json_value(w, v); };
  const std::size_t a = artifacts_.size();
  artifacts_.push_back(artifact_of(r, base_));
  const Artifact& artifact = artifacts_.back();
  issues.for_each([&](const Issue& i) {
    w.StartObject();
    w.Key("ruleId");
    s(i.code);
    if (const auto it = rule_index_.find(i.code); it != rule_index_.end()) {
      w.Key("ruleIndex");
      w.Uint64(it->second);
    }
    w.Key("level");
    s(sarif_level(i.severity));
    write_text_message(w, "message", i.message);
    w.Key("locations");
    w.StartArray();
    w.StartObject();
    w.Key("physicalLocation");
    w.StartObject();
    w.Key("artifactLocation");
    w.StartObject();
    write_artifact_location(w, artifact);
    w.Key("index");
    w.Uint64(a);
    w.EndObject();
    write_region(w, i);
    w.EndObject();  // physicalLocation
    if (!i.offset) {
      w.Key("logicalLocations");
      w.StartArray();
      w.StartObject();
      w.Key("fullyQualifiedName");
      s(i.pointer);
      w.Key("kind");
      s("member");
      w.EndObject();
      w.EndArray();
    }
    w.EndObject();
    w.EndArray();  // locations
    if (found_by_) {
      w.Key("properties");
      w.StartObject();
      w.Key("foundBy");
      w.StartArray();
      for (const std::string_view tool : gltf::found_by_names(i.found_by)) s(tool);
      w.EndArray();
      w.EndObject();
    }
    w.EndObject();
  });
}

}  // namespace

std::string_view information_uri() { return kHomepage; }

std::string file_uri(std::string_view path) {
  std::string p(path);
  for (char& c : p) {
    if (c == '\\') c = '/';
  }
  std::string out;
  if (!p.empty() && p.front() == '/') out = "file://";
  static const char* kHex = "0123456789ABCDEF";
  for (unsigned char c : p) {
    const bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    if (keep) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::unique_ptr<ValidationStreamWriter> make_validation_sarif_writer(
    std::ostream& out, const ValidationWriteOptions& options) {
  return std::make_unique<SarifStreamWriter>(out, options);
}

void write_validation_sarif(std::ostream& out, std::span<const ValidationReport> reports,
                            const ValidationWriteOptions& options) {
  SarifStreamWriter w(out, options);
  for (const ValidationReport& r : reports) w.asset(r);
  w.end();
}

}  // namespace gltf_anim::reports

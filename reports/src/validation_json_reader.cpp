// Reads back the json report (validation_json.cpp's output) for `gltf-anim
// merge`. Strict: every member our writer writes is checked for its type, and
// anything wrong is a ReportFormatError naming its JSON pointer, so a report
// from another tool or a damaged file is refused, never half-read.
#include <gltf_anim/reports/validation_merge.hpp>
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/validator/gltf_validator_report.hpp>
#include <gltf_anim/validator/issue_policy.hpp>
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/gltf/json_pointer.hpp>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <cstdlib>
#include <functional>
#include <new>
#include <optional>
#include <string>
#include <vector>

namespace gltf_anim::reports {
namespace {

using gltf::Issue;
using gltf::Severity;
// gltf_anim::json's types throw std::bad_alloc where rapidjson would write
// through a null allocation: under a memory limit a large report is "out of
// memory", not a segmentation fault.
using json::Value;

[[noreturn]] void fail(const std::string& pointer, const std::string& what) {
  throw ReportFormatError("at '" + pointer + "': " + what);
}

const Value& member(const Value& object, const char* name, const std::string& pointer) {
  if (!object.IsObject()) fail(pointer, "not an object");
  const auto it = object.FindMember(name);
  if (it == object.MemberEnd()) fail(pointer, std::string("no member '") + name + "'");
  return it->value;
}
const Value* optional_member(const Value& object, const char* name) {
  const auto it = object.FindMember(name);
  return it == object.MemberEnd() ? nullptr : &it->value;
}
std::string child(const std::string& pointer, const char* name) { return pointer + "/" + name; }
std::string child(const std::string& pointer, std::size_t index) {
  return pointer + "/" + std::to_string(index);
}

std::string string_at(const Value& v, const std::string& pointer) {
  if (!v.IsString()) fail(pointer, "not a string");
  return std::string(v.GetString(), v.GetStringLength());
}
std::uint64_t uint_at(const Value& v, const std::string& pointer) {
  if (!v.IsUint64()) fail(pointer, "not a non-negative integer");
  return v.GetUint64();
}
bool bool_at(const Value& v, const std::string& pointer) {
  if (!v.IsBool()) fail(pointer, "not a boolean");
  return v.GetBool();
}
// A validation time: at most 10^9 s (31 years), so that sums and the writer's
// rounding to microseconds stay finite.
double seconds_at(const Value& v, const std::string& pointer) {
  constexpr double kMaxSeconds = 1e9;
  if (!v.IsNumber() || !(v.GetDouble() >= 0 && v.GetDouble() <= kMaxSeconds)) {
    fail(pointer, "not a number of seconds from 0 to 1e9");
  }
  return v.GetDouble();
}
const Value& array_at(const Value& v, const std::string& pointer) {
  if (!v.IsArray()) fail(pointer, "not an array");
  return v;
}
std::string string_member(const Value& o, const char* name, const std::string& p) {
  return string_at(member(o, name, p), child(p, name));
}
std::uint64_t uint_member(const Value& o, const char* name, const std::string& p) {
  return uint_at(member(o, name, p), child(p, name));
}

std::optional<Severity> fail_on_from_name(std::string_view s) {
  if (s == "error") return Severity::kError;
  if (s == "warning") return Severity::kWarning;
  if (s == "info") return Severity::kInfo;
  return std::nullopt;
}

// "policy": the run's --lints level and --severity-override codes, as the
// writer writes them (codes of the registry, severities by name).
gltf::IssueOptions read_policy(const Value& policy) {
  gltf::IssueOptions options;
  if (!policy.IsObject()) fail("/policy", "not an object");
  const auto lints = validator::lint_level_from_name(string_member(policy, "lints", "/policy"));
  if (!lints) fail("/policy/lints", "not off, hint, info or warning");
  options.lints.level = *lints;
  if (const Value* overrides = optional_member(policy, "severityOverrides")) {
    const std::string p = "/policy/severityOverrides";
    if (!overrides->IsObject()) fail(p, "not an object");
    for (const auto& m : overrides->GetObject()) {
      const std::string code(m.name.GetString(), m.name.GetStringLength());
      const std::string at = p + "/" + gltf::escape_pointer_token(code);
      const gltf::IssueType* type = gltf::find_issue_type(code);
      if (type == nullptr) fail(at, "unknown issue code '" + code + "'");
      const auto severity = validator::severity_from_name(string_at(m.value, at));
      if (!severity) fail(at, "not error, warning, info or hint");
      options.severity_overrides.emplace(std::string(type->code), *severity);
    }
  }
  return options;
}

// "foundBy" (validate --merge-gltf-validator): the tools' names, as
// found_by_names writes them.
std::optional<gltf::FoundBy> read_found_by(const Value& m, const std::string& p) {
  const Value* list = optional_member(m, "foundBy");
  if (list == nullptr) return std::nullopt;
  const std::string lp = child(p, "foundBy");
  bool ours = false, theirs = false;
  for (rapidjson::SizeType k = 0; k < array_at(*list, lp).Size(); ++k) {
    const std::string tool = string_at((*list)[k], child(lp, k));
    if (tool == gltf::found_by_names(gltf::FoundBy::kGltfAnim)[0] && !ours)
      ours = true;
    else if (tool == gltf::found_by_names(gltf::FoundBy::kGltfValidator)[0] && !theirs)
      theirs = true;
    else fail(child(lp, k), "not gltf-anim or glTF-Validator, or named twice");
  }
  if (ours && theirs) return gltf::FoundBy::kBoth;
  if (theirs) return gltf::FoundBy::kGltfValidator;
  if (ours) return gltf::FoundBy::kGltfAnim;
  fail(lp, "names no tool");
}

Issue read_issue(const Value& m, const std::string& p, bool& found_by_given) {
  const std::string code = string_member(m, "code", p);
  const std::optional<gltf::FoundBy> found_by = read_found_by(m, p);
  found_by_given = found_by_given || found_by.has_value();
  // A code of glTF-Validator's alone (a merged report) is kept as it came;
  // any other must be one of ours.
  std::optional<std::string_view> known;
  if (const gltf::IssueType* type = gltf::find_issue_type(code))
    known = type->code;
  else if (found_by == gltf::FoundBy::kGltfValidator)
    known = validator::intern_gltf_validator_code(code);
  if (!known) fail(child(p, "code"), "unknown issue code '" + code + "'");
  const std::uint64_t severity = uint_member(m, "severity", p);
  if (severity > 3) fail(child(p, "severity"), "not 0 to 3");
  Issue issue{*known, static_cast<Severity>(severity), string_member(m, "message", p), "",
              std::nullopt};
  if (found_by) issue.found_by = *found_by;
  if (const Value* list = optional_member(m, "arguments")) {
    const std::string ap = child(p, "arguments");
    const Value& items = array_at(*list, ap);
    std::vector<std::string> arguments;
    arguments.reserve(items.Size());
    for (rapidjson::SizeType a = 0; a < items.Size(); ++a)
      arguments.push_back(string_at(items[a], child(ap, a)));
    gltf::set_issue_arguments(issue, arguments);
  }
  if (const Value* offset = optional_member(m, "offset")) {
    issue.offset = uint_at(*offset, child(p, "offset"));
  } else {
    issue.pointer = string_member(m, "pointer", p);
  }
  if (const Value* position = optional_member(m, "position")) {
    const std::string pp = child(p, "position");
    gltf::TextPosition place;
    place.line = uint_member(*position, "line", pp);
    place.column = uint_member(*position, "column", pp);
    place.byte_offset = uint_member(*position, "byteOffset", pp);
    place.in_glb_chunk =
        bool_at(member(*position, "inGlbJsonChunk", pp), child(pp, "inGlbJsonChunk"));
    issue.position = place;
  }
  return issue;
}

std::vector<std::string> strings_member(const Value& o, const char* name, const std::string& p) {
  std::vector<std::string> out;
  if (const Value* list = optional_member(o, name)) {
    const std::string lp = child(p, name);
    for (rapidjson::SizeType k = 0; k < array_at(*list, lp).Size(); ++k)
      out.push_back(string_at((*list)[k], child(lp, k)));
  }
  return out;
}

validator::AssetInfo read_info(const Value& o, const std::string& p) {
  validator::AssetInfo info;
  info.version = string_member(o, "version", p);
  if (const Value* v = optional_member(o, "minVersion"))
    info.min_version = string_at(*v, child(p, "minVersion"));
  if (const Value* v = optional_member(o, "generator"))
    info.generator = string_at(*v, child(p, "generator"));
  info.extensions_used = strings_member(o, "extensionsUsed", p);
  info.extensions_required = strings_member(o, "extensionsRequired", p);
  if (const Value* list = optional_member(o, "resources")) {
    const std::string lp = child(p, "resources");
    for (rapidjson::SizeType k = 0; k < array_at(*list, lp).Size(); ++k) {
      const std::string rp = child(lp, k);
      const Value& r = (*list)[k];
      validator::ResourceInfo resource;
      resource.pointer = string_member(r, "pointer", rp);
      resource.storage = string_member(r, "storage", rp);
      if (const Value* v = optional_member(r, "uri"))
        resource.uri = string_at(*v, child(rp, "uri"));
      if (const Value* v = optional_member(r, "byteLength"))
        resource.byte_length = uint_at(*v, child(rp, "byteLength"));
      info.resources.push_back(std::move(resource));
    }
  }
  info.animation_count = uint_member(o, "animationCount", p);
  info.has_morph_targets = bool_at(member(o, "hasMorphTargets", p), child(p, "hasMorphTargets"));
  info.has_skins = bool_at(member(o, "hasSkins", p), child(p, "hasSkins"));
  return info;
}

// An asset's messages read as they were parsed, each from a DOM of that message
// alone (StreamedReport): their count by severity and, when kept, their issues;
// or the first message refused.
struct StreamedMessages {
  bool active = false;  // the asset's "issues"/"messages" array was read this way
  bool keep = false;    // the issues are kept (else only counted: the first pass)
  // Each issue handed on as it is read, and not kept (a merge writing it).
  const std::function<void(const Issue&)>* each = nullptr;
  std::vector<Issue> issues;
  std::array<std::uint64_t, 4> counts{};
  IssueFacts facts;
  std::uint64_t read = 0;
  std::optional<ReportFormatError> error;
};

// `streamed`: the messages already read (the DOM holds an empty array in their
// place); their error, if any, comes where the DOM walk would have found it.
ReadAsset read_report(const Value& o, const std::string& p, bool& found_by_given,
                      StreamedMessages* streamed = nullptr) {
  ReadAsset out;
  validator::ValidationReport& r = out.report;
  r.uri = string_member(o, "uri", p);
  if (const Value* v = optional_member(o, "mimeType"))
    r.mime_type = string_at(*v, child(p, "mimeType"));
  if (const Value* v = optional_member(o, "shardPosition"))
    out.run.position = uint_at(*v, child(p, "shardPosition"));
  if (const Value* v = optional_member(o, "validationSeconds")) {
    out.run.seconds = seconds_at(*v, child(p, "validationSeconds"));
  }
  const std::string ip = child(p, "issues");
  const Value& issues = member(o, "issues", p);
  const std::string mp = child(ip, "messages");
  const Value& messages = array_at(member(issues, "messages", ip), mp);
  const bool counted = streamed != nullptr && streamed->active;
  if (counted) {
    if (streamed->error) throw *streamed->error;
    r.issues = std::move(streamed->issues);
  }
  for (rapidjson::SizeType k = 0; k < messages.Size(); ++k)
    r.issues.push_back(read_issue(messages[k], child(mp, k), found_by_given));
  r.truncated = bool_at(member(issues, "truncated", ip), child(ip, "truncated"));
  // The counts must be those of the messages: a report edited by hand or cut
  // short would otherwise give a merged summary that contradicts its lists.
  const char* names[] = {"numErrors", "numWarnings", "numInfos", "numHints"};
  for (int s = 0; s < 4; ++s) {
    const std::uint64_t count = counted ? streamed->counts[static_cast<std::size_t>(s)]
                                        : r.count(static_cast<Severity>(s));
    if (uint_member(issues, names[s], ip) != count) {
      fail(child(ip, names[s]), "does not match the messages");
    }
  }
  if (const Value* info = optional_member(o, "info")) r.info = read_info(*info, child(p, "info"));
  return out;
}

// A rapidjson input stream over [begin, end) of a report's bytes, read through a
// window of at most `window` bytes: the report is never held whole. Tell() is the
// offset in the whole text, so parse errors name the byte as before. A report
// that ends before `end` (a file cut short meanwhile) ends there.
class PieceStream {
 public:
  using Ch = char;
  PieceStream(const ReportBytes& bytes, std::uint64_t begin, std::uint64_t end, std::size_t window)
      : bytes_(bytes), buffer_(static_cast<std::size_t>(std::min<std::uint64_t>(window, end - begin))),
        pos_(begin), start_(begin), end_(end) {}
  Ch Peek() { return pos_ < end_ ? at() : '\0'; }
  Ch Take() {
    if (pos_ >= end_) return '\0';
    const Ch c = at();
    ++pos_;
    return c;
  }
  std::size_t Tell() const { return static_cast<std::size_t>(pos_); }
  std::uint64_t offset() const { return pos_; }
  // Not an output stream (rapidjson's concept asks for these).
  Ch* PutBegin() { return nullptr; }
  void Put(Ch) {}
  void Flush() {}
  std::size_t PutEnd(Ch*) { return 0; }

 private:
  Ch at() {
    if (pos_ - start_ >= have_) {
      start_ = pos_;
      have_ = bytes_.read(pos_, buffer_.data(),
                          static_cast<std::size_t>(std::min<std::uint64_t>(buffer_.size(), end_ - pos_)));
      if (have_ == 0) {
        end_ = pos_;
        return '\0';
      }
    }
    return buffer_[static_cast<std::size_t>(pos_ - start_)];
  }

  const ReportBytes& bytes_;
  std::vector<char> buffer_;
  std::uint64_t pos_, start_, end_;
  std::size_t have_ = 0;
};

// The first pass reads the text 64 KiB at a time.
constexpr std::size_t kWindowBytes = std::size_t{1} << 16;

// Two FNV-1a 64-bit hashes of different offsets, as 32 hex digits, of the
// whole text (read a window at a time).
std::string fingerprint(const ReportBytes& bytes) {
  std::uint64_t a = 0xcbf29ce484222325ULL, b = 0x84222325cbf29ce4ULL;
  std::vector<char> buffer(kWindowBytes);
  for (std::uint64_t at = 0; at < bytes.size();) {
    const std::size_t n = bytes.read(
        at, buffer.data(),
        static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), bytes.size() - at)));
    if (n == 0) break;
    for (std::size_t i = 0; i < n; ++i) {
      const auto c = static_cast<unsigned char>(buffer[i]);
      a = (a ^ c) * 0x100000001b3ULL;
      b = (b ^ c) * 0x100000001b3ULL;
    }
    at += n;
  }
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (const std::uint64_t h : {a, b}) {
    for (int shift = 60; shift >= 0; shift -= 4) out += kDigits[(h >> shift) & 0xF];
  }
  return out;
}

// The root members the reader reads: the others are skipped, not built.
bool read_member(const std::string& name) {
  return name == "tool" || name == "shard" || name == "policy" || name == "summary" ||
         name == "reports";
}

// The report read as it is parsed (rapidjson's SAX reader, iterative, over a
// window of the text): each element of "reports" is built as a small DOM, read
// into its ReadAsset to check it, and dropped before the next one, keeping only
// where its object lies (IndexedAsset); within it, each element of its
// "issues"/"messages" array is built as a DOM of that message alone, read into
// its issue and dropped (the asset's DOM holds an empty array in its place).
// The root's other members that are read (tool, shard, policy, summary: a few
// values) are kept as DOM values to be checked at the end, any other is skipped.
// So one window of the text, one asset's report and the DOM of its members but
// its messages are held, never the text or a DOM of it (about 10 x its size).
// The checks and their order are those of a DOM walk: JSON syntax first (a
// malformed text is "not JSON" wherever the fault is), then the root members,
// then the assets in order, each as read_report reads it.
//
// With `one_asset`, the text is one asset's object (read_asset_at): read as an
// element of "reports" is, and kept.
class StreamedReport : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, StreamedReport> {
 public:
  // `expected_messages`: with one_asset, how many messages the first pass read.
  // `keep`: with one_asset, its issues are kept (else counted: facts()); `each`:
  // with one_asset, each issue is handed to it as it is read.
  StreamedReport(const PieceStream& stream, bool one_asset, std::uint64_t expected_messages = 0,
                 bool keep = true, const std::function<void(const Issue&)>* each = nullptr)
      : stream_(stream), one_asset_(one_asset), keep_(one_asset && keep), each_(each),
        expected_messages_(expected_messages) {
    if (one_asset) {  // as if inside {"reports": [ ... ]}
      open_ = 2;
      root_is_object_ = true;
      reports_open_ = true;
      reports_streamed_ = true;
    }
  }
  // The facts of the messages of the asset read with one_asset.
  const IssueFacts& facts() const { return facts_; }
  // The asset read with one_asset; throws its ReportFormatError.
  ReadAsset take_asset() {
    if (asset_error_) throw *asset_error_;
    if (!one_) throw ReportFormatError("no asset");
    return std::move(*one_);
  }
  bool Null() { return scalar(Value()); }
  bool Bool(bool b) { return scalar(Value(b)); }
  bool Int(int i) { return scalar(Value(i)); }
  bool Uint(unsigned u) { return scalar(Value(u)); }
  bool Int64(std::int64_t i) { return scalar(Value(i)); }
  bool Uint64(std::uint64_t u) { return scalar(Value(u)); }
  bool Double(double d) { return scalar(Value(d)); }
  bool String(const char* s, rapidjson::SizeType n, bool) {
    return scalar(Value(s, n, *allocator()));
  }
  bool Key(const char* s, rapidjson::SizeType n, bool) {
    if (open_ == 1) {
      key_.assign(s, n);
      return true;
    }
    if (skipping()) return true;
    if (in_reports() && open_ == 3) asset_key_.assign(s, n);
    if (issues_open_ && open_ == 4) issues_key_.assign(s, n);
    stack_.emplace_back(s, n, *allocator());
    return true;
  }
  bool StartObject() { return start(/*array=*/false); }
  bool StartArray() { return start(/*array=*/true); }
  bool EndObject(rapidjson::SizeType members) { return end(/*array=*/false, members); }
  bool EndArray(rapidjson::SizeType elements) { return end(/*array=*/true, elements); }

  // After a successful parse: the root members, then each asset, as the DOM
  // walk checked them.
  IndexedRun finish(const ReportBytes& bytes) {
    if (!root_is_object_)
      fail("", "not an object (a gltf-anim json report is one object with tool, reports, summary)");
    IndexedRun indexed;
    ValidationRun& run = indexed.run;
    run.fingerprint = fingerprint(bytes);
    const Value& tool = member(root_, "tool", "");
    if (string_member(tool, "name", "/tool") != "gltf-anim")
      fail("/tool/name", "not a gltf-anim report");
    run.tool_version = string_member(tool, "version", "/tool");
    if (const Value* shard = optional_member(root_, "shard")) {
      Shard s;
      s.index = uint_member(*shard, "index", "/shard");
      s.count = uint_member(*shard, "count", "/shard");
      s.assets = uint_member(*shard, "assets", "/shard");
      s.run = string_member(*shard, "run", "/shard");
      if (s.count == 0 || s.index == 0 || s.index > s.count)
        fail("/shard", "index must be 1 to count");
      run.shard = s;
    }
    if (const Value* policy = optional_member(root_, "policy"))
      run.issue_policy = read_policy(*policy);
    const std::string fail_on = string_member(member(root_, "summary", ""), "failOn", "/summary");
    const auto severity = fail_on_from_name(fail_on);
    if (!severity) fail("/summary/failOn", "not error, warning or info");
    run.fail_on = *severity;
    if (!reports_streamed_) array_at(member(root_, "reports", ""), "/reports");  // throws
    // The first asset read whose shardPosition is present where it must not
    // be, or absent where it must be.
    if (const auto& k = run.shard ? first_unplaced_ : first_placed_) {
      fail(child(std::string("/reports"), *k),
           "shardPosition must be present exactly in a shard's report");
    }
    if (asset_error_) throw *asset_error_;
    indexed.assets = std::move(assets_);
    run.found_by = found_by_;
    return indexed;
  }

 private:
  // Where the value being built goes: the root's members live to the end, an
  // asset's DOM only until it is read, a message's until it is read.
  json::Allocator* allocator() {
    if (in_messages()) return &message_allocator_;
    return in_reports() ? &asset_allocator_ : &root_allocator_;
  }
  bool in_messages() const { return messages_open_ && open_ >= 5; }
  bool in_reports() const { return reports_open_ && open_ >= 2; }
  // Events not built into anything: a root that is not an object (reported
  // after the parse), a root member named again (the first counts, as a DOM's
  // FindMember sees it), assets after one that is refused (its error is the one).
  // And the messages of an asset after one that is refused (its error is the one).
  bool skipping() const {
    return !root_is_object_ || (repeated_ && open_ >= 2) || (in_reports() && asset_error_) ||
           (in_messages() && messages_.error);
  }
  // The first "issues" member of an asset and the first "messages" member in it
  // are the ones read (a DOM's FindMember): a scalar one is seen too.
  void seen(bool array, bool object) {
    if (in_reports() && open_ == 3 && asset_key_ == "issues") {
      if (!issues_seen_ && object) issues_open_ = true;
      issues_seen_ = true;
    } else if (issues_open_ && open_ == 4 && issues_key_ == "messages") {
      if (!messages_seen_ && array) messages_open_ = messages_.active = true;
      messages_seen_ = true;
    }
  }

  bool scalar(Value v) {
    if (open_ == 0) return true;  // a scalar root: not an object
    if (skipping()) return true;
    seen(false, false);
    stack_.push_back(std::move(v));
    return done();
  }
  bool start(bool array) {
    if (open_ == 0) {
      root_is_object_ = !array;
    } else if (open_ == 1) {
      repeated_ = !read_member(key_) || has_member(key_);
      if (array && key_ == "reports" && !repeated_) {
        reports_open_ = true;
        reports_streamed_ = true;
      }
    } else if (open_ == 2 && in_reports()) {
      asset_begin_ = stream_.offset();  // at its '{' (or '['): rapidjson takes it after this call
      issues_seen_ = messages_seen_ = issues_open_ = messages_open_ = false;
      asset_key_.clear();  // an asset that is an array has no member "issues"
      issues_key_.clear();
      messages_ = StreamedMessages{};
      messages_.keep = keep_;
      messages_.each = each_;
      message_ = 0;
    } else if (!skipping()) {
      seen(array, !array);
    }
    ++open_;
    return true;
  }
  bool end(bool array, rapidjson::SizeType count) {
    const bool skip = skipping();  // as the values inside this container were
    --open_;
    // At its '}': rapidjson takes it after this call.
    if (open_ == 2 && in_reports()) asset_end_ = stream_.offset() + 1;
    if (open_ == 0) return true;  // the root
    if (open_ == 1 && reports_open_) {
      reports_open_ = false;
      Value name("reports", root_allocator_), empty(rapidjson::kArrayType);
      root_.AddMember(name, empty, root_allocator_);  // present, its assets read
      return true;
    }
    if (open_ == 4 && messages_open_) {
      messages_open_ = false;
      stack_.emplace_back(rapidjson::kArrayType);  // present, its messages read
      return true;
    }
    if (open_ == 3 && issues_open_) issues_open_ = false;
    if (skip) return true;
    // The last `count` values (key and value pairs for an object) become one.
    const std::size_t taken = array ? count : std::size_t{2} * count;
    const std::size_t base = stack_.size() - taken;
    Value made(array ? rapidjson::kArrayType : rapidjson::kObjectType);
    if (array) {
      made.Reserve(count, *allocator());
      for (std::size_t i = base; i < stack_.size(); ++i) made.PushBack(stack_[i], *allocator());
    } else {
      for (std::size_t i = base; i < stack_.size(); i += 2)
        made.AddMember(stack_[i], stack_[i + 1], *allocator());
    }
    stack_.resize(base);
    stack_.push_back(std::move(made));
    return done();
  }
  // A value is complete when it is all that is left on the stack at the level
  // of a root member or of an asset.
  bool done() {
    if (in_messages() && open_ == 5) {
      const std::string p = child(
          child(child(child(std::string("/reports"), assets_.size()), "issues"), "messages"),
          message_);
      try {
        Issue issue = read_issue(stack_.back(), p, found_by_);
        ++messages_.counts[static_cast<std::size_t>(issue.severity)];
        messages_.facts.add(issue, messages_.read);
        ++messages_.read;
        if (messages_.each != nullptr) (*messages_.each)(issue);
        if (messages_.keep) {
          // The first pass counted them: the list is allocated once.
          if (messages_.issues.empty())
            messages_.issues.reserve(static_cast<std::size_t>(expected_messages_));
          messages_.issues.push_back(std::move(issue));
        }
      } catch (const ReportFormatError& e) { messages_.error = e; }
      ++message_;
      stack_.pop_back();
      message_allocator_.Clear();
    } else if (open_ == 1) {
      if (read_member(key_) && !has_member(key_)) {  // a member named twice: the first counts
        Value name(key_.c_str(), static_cast<rapidjson::SizeType>(key_.size()), root_allocator_);
        root_.AddMember(name, stack_.back(), root_allocator_);
      }
      stack_.clear();
    } else if (in_reports() && open_ == 2) {
      const std::size_t k = assets_.size();
      try {
        // Read to be checked, then dropped: the merge reads it again from its place.
        ReadAsset read =
            read_report(stack_.back(), child(std::string("/reports"), k), found_by_, &messages_);
        const std::optional<std::uint64_t> position = read.run.position;
        auto& first = position ? first_placed_ : first_unplaced_;
        if (!first) first = k;
        assets_.push_back(IndexedAsset{asset_begin_, asset_end_ - asset_begin_,
                                       position.value_or(0), messages_.read});
        if (one_asset_) {
          one_ = std::move(read);
          facts_ = messages_.facts;
        }
      } catch (const ReportFormatError& e) { asset_error_ = e; }
      stack_.clear();
      asset_allocator_.Clear();
      messages_ = StreamedMessages{};
      message_ = 0;
    }
    return true;
  }
  bool has_member(const std::string& name) const {
    return root_.FindMember(Value(rapidjson::StringRef(name.c_str(), name.size()))) !=
           root_.MemberEnd();
  }

  json::Allocator root_allocator_, asset_allocator_, message_allocator_;
  Value root_{rapidjson::kObjectType};
  std::vector<Value> stack_;  // values of the container being built, in order
  std::size_t open_ = 0;      // containers open (the root is 1)
  std::string key_;           // the root member being read
  bool root_is_object_ = false;
  bool repeated_ = false;          // the root member being read was named before
  bool reports_open_ = false;      // inside the root's "reports" array
  bool reports_streamed_ = false;  // "reports" was an array (its assets read as they came)
  const PieceStream& stream_;
  std::uint64_t asset_begin_ = 0, asset_end_ = 0;  // the asset being read, in the text
  std::vector<IndexedAsset> assets_;
  // The first asset read with a shardPosition, and the first without one.
  std::optional<std::size_t> first_placed_, first_unplaced_;
  bool found_by_ = false;
  std::optional<ReportFormatError> asset_error_;  // the first asset refused
  const bool one_asset_;
  const bool keep_;
  const std::function<void(const Issue&)>* each_;
  const std::uint64_t expected_messages_;
  IssueFacts facts_;
  std::optional<ReadAsset> one_;
  // The asset being read: its member and its "issues" member being read, which
  // of them were seen, whether its messages are being read one by one.
  std::string asset_key_, issues_key_;
  bool issues_seen_ = false, messages_seen_ = false, issues_open_ = false, messages_open_ = false;
  StreamedMessages messages_;
  std::size_t message_ = 0;  // the next message's index
};

}  // namespace

std::size_t MemoryReportBytes::read(std::uint64_t offset, char* into, std::size_t n) const {
  if (offset >= text_.size()) return 0;
  n = static_cast<std::size_t>(std::min<std::uint64_t>(n, text_.size() - offset));
  std::memcpy(into, text_.data() + static_cast<std::size_t>(offset), n);
  return n;
}

IndexedRun index_validation_json(const ReportBytes& bytes) {
  PieceStream stream(bytes, 0, bytes.size(), kWindowBytes);
  StreamedReport report(stream, /*one_asset=*/false);
  json::Reader reader;
  // A byte order mark skipped as rapidjson's EncodedInputStream<UTF8<>,
  // MemoryStream> skips it (what read the whole text before): each of its three
  // bytes in turn, if there.
  for (const int mark : {0xEF, 0xBB, 0xBF}) {
    if (static_cast<unsigned char>(stream.Peek()) == mark) stream.Take();
  }
  reader.Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag>(stream,
                                                                                       report);
  if (reader.HasParseError()) {
    throw ReportFormatError(std::string("not JSON: ") +
                            rapidjson::GetParseError_En(reader.GetParseErrorCode()) + " (byte " +
                            std::to_string(reader.GetErrorOffset()) + ")");
  }
  return report.finish(bytes);
}

namespace {

// The asset at `place` read again, its issues kept (`keep`), counted, or handed
// to `each` one at a time; `facts`, when given, receives what its messages
// hold.
ReadAsset read_asset(const ReportBytes& bytes, const IndexedAsset& place, bool keep,
                     const std::function<void(const Issue&)>* each, IssueFacts* facts) {
  if (place.length > bytes.size() || place.offset > bytes.size() - place.length)
    throw ReportFormatError("an asset indexed past the end of the report");
  // The asset's own bytes (they hold one JSON value): a window of them at most.
  PieceStream stream(bytes, place.offset, place.offset + place.length, kWindowBytes);
  StreamedReport asset(stream, /*one_asset=*/true, place.messages, keep, each);
  json::Reader reader;
  reader.Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag |
               rapidjson::kParseStopWhenDoneFlag>(stream, asset);
  if (reader.HasParseError() || stream.offset() != place.offset + place.length) {
    throw ReportFormatError("the asset at byte " + std::to_string(place.offset) +
                            " is not the one read before");
  }
  ReadAsset read = asset.take_asset();
  if (facts != nullptr) *facts = asset.facts();
  return read;
}

}  // namespace

ReadAsset read_asset_at(const ReportBytes& bytes, const IndexedAsset& place) {
  return read_asset(bytes, place, /*keep=*/true, nullptr, nullptr);
}

AssetHeader read_asset_header_at(const ReportBytes& bytes, const IndexedAsset& place) {
  AssetHeader header;
  header.asset = read_asset(bytes, place, /*keep=*/false, nullptr, &header.facts);
  return header;
}

void for_each_issue_at(const ReportBytes& bytes, const IndexedAsset& place,
                       const std::function<void(const gltf::Issue&)>& each) {
  read_asset(bytes, place, /*keep=*/false, &each, nullptr);
}

ValidationRun read_validation_json(std::string_view text) {
  const MemoryReportBytes bytes(text);
  IndexedRun indexed = index_validation_json(bytes);
  indexed.run.assets.reserve(indexed.assets.size());
  for (const IndexedAsset& place : indexed.assets)
    indexed.run.assets.push_back(read_asset_at(bytes, place));
  return std::move(indexed.run);
}

}  // namespace gltf_anim::reports

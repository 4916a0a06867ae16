// The CI formats: JUnit XML (one testcase per asset) and SARIF 2.1.0 (one
// result per issue, rules taken from the issue registry).
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/validator/json_pointer.hpp>
#include <gltf_anim/validator/validate.hpp>
#include <gltf_anim/version.hpp>

#include <rapidjson/filereadstream.h>
#include <rapidjson/ostreamwrapper.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/reader.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "validation_writers.hpp"
#include <gltf_anim/text/escape.hpp>

namespace gltf_anim::reports {
namespace {

using validator::Issue;
using validator::Severity;
using validator::ValidationReport;

using text::xml_escape;

// "[glTF-Validator]" or "[gltf-anim, glTF-Validator]": who found it, in a merged run.
std::string found_by_tag(const Issue& i) {
  std::string s = "[";
  for (const std::string_view tool : validator::found_by_names(i.found_by)) {
    s += s.size() > 1 ? ", " : "";
    s += tool;
  }
  return s + "] ";
}

std::string issue_line(const Issue& i, bool found_by) {
  std::string s = found_by ? found_by_tag(i) : std::string();
  s += validator::severity_name(i.severity);
  s += ' ';
  s += i.code;
  s += " at ";
  if (i.offset) {
    s += '@';
    s += std::to_string(*i.offset);
  } else {
    s += i.pointer.empty() ? std::string("\"\"") : i.pointer;
  }
  s += ": ";
  s += i.message;
  return s;
}

const char* sarif_level(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kInfo: return "note";
    case Severity::kHint: return "note";
  }
  return "none";
}

// Where a JSON value starts: 1-based line, column in Unicode code points (as
// run.columnKind says), and byte offset in the text.
struct Place {
  std::size_t line = 0;  // 0: not found
  std::size_t column = 0;
  std::size_t byte = 0;
};

// A rapidjson input stream over a file read in fixed-size blocks, at most
// `limit` bytes from where the file is (a GLB's JSON chunk), that knows where
// the last value token started: memory stays one block whatever the size.
// A token starts at the first character after whitespace or one of : , [ {
// outside a string, so the place of a value is its first character (the
// quote of a string, the bracket of an object or array).
class PlaceTrackingFileStream {
 public:
  using Ch = char;
  PlaceTrackingFileStream(std::FILE* f, std::size_t limit)
      : in_(f, buffer_, sizeof buffer_), limit_(limit) {}
  Ch Peek() const { return taken_ < limit_ ? in_.Peek() : '\0'; }
  Ch Take() {
    if (taken_ >= limit_) return '\0';
    const Ch c = in_.Take();
    const auto u = static_cast<unsigned char>(c);
    if (after_newline_) {
      ++line_;
      column_ = 0;
    }
    if ((u & 0xC0) != 0x80) ++column_;  // a continuation byte is not a new code point
    after_newline_ = c == '\n';
    if (in_string_) {
      if (escape_) {
        escape_ = false;
      } else if (c == '\\') {
        escape_ = true;
      } else if (c == '"') {
        in_string_ = false;
      }
    } else {
      const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
      if (!space && boundary_) token_ = Place{line_, column_, taken_};
      boundary_ = space || c == ':' || c == ',' || c == '[' || c == '{';
      in_string_ = c == '"';
      if (c == '[' || c == '{') bracket_ = token_;
    }
    ++taken_;
    return c;
  }
  std::size_t Tell() const { return taken_; }
  // The last value token that started; the last '{' or '[' taken.
  const Place& token() const { return token_; }
  const Place& bracket() const { return bracket_; }
  // Only used by in-situ parsing, which this stream does not offer.
  Ch* PutBegin() { return nullptr; }
  void Put(Ch) {}
  void Flush() {}
  std::size_t PutEnd(Ch*) { return 0; }

 private:
  char buffer_[1 << 16];
  rapidjson::FileReadStream in_;
  std::size_t limit_;
  std::size_t taken_ = 0;
  std::size_t line_ = 1;
  std::size_t column_ = 0;
  bool after_newline_ = false;
  bool in_string_ = false;
  bool escape_ = false;
  bool boundary_ = true;
  Place token_;
  Place bracket_;
};

// FNV-1a, continued token by token: the hash of a pointer is computed from
// its parent's in time proportional to the last token only.
constexpr std::uint64_t kPointerHashSeed = 0xcbf29ce484222325ull;
std::uint64_t hash_more(std::uint64_t h, std::string_view bytes) {
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

// Finds where the values at some JSON pointers start in a JSON text, with one
// SAX pass (rapidjson::Reader). Linear in the text: the current pointer is kept as a string
// and a hash, both updated by the last token only; a wanted pointer is compared
// in full only when the hashes agree and it was not found yet.
class PointerLocator {
 public:
  using Ch = char;
  PointerLocator(const PlaceTrackingFileStream& stream, const std::set<std::string>& wanted)
      : stream_(stream), wanted_(wanted.begin(), wanted.end()), place_(wanted_.size()) {
    for (std::size_t k = 0; k < wanted_.size(); ++k) {
      by_hash_.emplace(hash_more(kPointerHashSeed, wanted_[k]), k);
    }
  }

  bool Null() { return scalar(); }
  bool Bool(bool) { return scalar(); }
  bool Int(int) { return scalar(); }
  bool Uint(unsigned) { return scalar(); }
  bool Int64(std::int64_t) { return scalar(); }
  bool Uint64(std::uint64_t) { return scalar(); }
  bool Double(double) { return scalar(); }
  bool RawNumber(const Ch*, rapidjson::SizeType, bool) { return scalar(); }
  bool String(const Ch*, rapidjson::SizeType, bool) { return scalar(); }
  bool StartObject() { return open(false); }
  bool Key(const Ch* s, rapidjson::SizeType n, bool) {
    resolve();
    set_token(validator::escape_pointer_token(std::string_view(s, n)));
    return true;
  }
  bool EndObject(rapidjson::SizeType) { return close(); }
  bool StartArray() { return open(true); }
  bool EndArray(rapidjson::SizeType) { return close(); }

  // Wanted pointer -> place, for those found (the first occurrence wins).
  std::map<std::string, Place> found() {
    resolve();
    std::map<std::string, Place> out;
    for (std::size_t k = 0; k < wanted_.size(); ++k) {
      if (place_[k].line != 0) out.emplace(wanted_[k], place_[k]);
    }
    return out;
  }

 private:
  struct Frame {
    bool array;
    std::size_t index;
    std::size_t length;  // of the container's own pointer in current_
    std::uint64_t hash;  // of the container's own pointer
  };
  // Makes current_ the pointer of the next value of the innermost container.
  void set_token(std::string_view token) {
    const Frame& f = stack_.back();
    current_.resize(f.length);
    current_ += '/';
    current_ += token;
    hash_ = hash_more(f.hash, std::string_view(current_).substr(f.length));
  }
  void record(bool container) {
    if (remaining_ == 0) return;
    if (stack_.empty()) {
      current_.clear();
      hash_ = kPointerHashSeed;
    } else if (stack_.back().array) {
      set_token(std::to_string(stack_.back().index));
    }
    const auto [first, last] = by_hash_.equal_range(hash_);
    for (auto it = first; it != last; ++it) {
      if (place_[it->second].line == 0 && !pending(it->second) && wanted_[it->second] == current_) {
        if (container) {
          pending_.push_back(it->second);
        } else {
          place_[it->second] = stream_.token();
        }
        --remaining_;
      }
    }
  }
  bool pending(std::size_t k) const {
    return std::find(pending_.begin(), pending_.end(), k) != pending_.end();
  }
  // rapidjson calls StartObject and StartArray before it takes the bracket:
  // a container's place is that of the bracket taken after, known at the next
  // event.
  void resolve() {
    for (std::size_t k : pending_) place_[k] = stream_.bracket();
    pending_.clear();
  }
  void advance() {
    if (!stack_.empty() && stack_.back().array) ++stack_.back().index;
  }
  bool scalar() {
    resolve();
    record(false);
    advance();
    return true;
  }
  bool open(bool array) {
    resolve();
    record(true);
    stack_.push_back(Frame{array, 0, current_.size(), hash_});
    return true;
  }
  bool close() {
    resolve();
    stack_.pop_back();
    advance();
    return true;
  }

  const PlaceTrackingFileStream& stream_;
  std::vector<std::string> wanted_;
  std::vector<Place> place_;          // line 0: not found yet
  std::vector<std::size_t> pending_;  // containers found, before their bracket is taken
  std::size_t remaining_ = wanted_.size();
  std::unordered_multimap<std::uint64_t, std::size_t> by_hash_;
  std::vector<Frame> stack_;
  std::string current_;
  std::uint64_t hash_ = kPointerHashSeed;
};

std::uint32_t le32(const unsigned char* b) {
  return std::uint32_t{b[0]} | std::uint32_t{b[1]} << 8 | std::uint32_t{b[2]} << 16 |
         std::uint32_t{b[3]} << 24;
}

// Where each issue pointer's value starts in the asset's JSON: the .gltf file,
// or a GLB's JSON chunk (places then count within the chunk, its byte offset
// from the chunk's start). Nothing for standard input, unreadable or
// non-regular files, or a GLB whose first chunk is not JSON.
std::map<std::string, Place> pointer_places(const ValidationReport& r) {
  const bool glb = r.mime_type == "model/gltf-binary";
  if ((!glb && r.mime_type != "model/gltf+json") || r.uri == "-") return {};
  std::set<std::string> wanted;
  for (const Issue& i : r.issues) {
    if (!i.offset) wanted.insert(i.pointer);
  }
  if (wanted.empty()) return {};
  // O_NONBLOCK: a FIFO put in the file's place must not block the open.
  const int fd = ::open(r.uri.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return {};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return {};
  }
  std::FILE* file = ::fdopen(fd, "rb");
  if (file == nullptr) {
    ::close(fd);
    return {};
  }
  std::size_t limit = static_cast<std::size_t>(st.st_size);
  if (glb) {
    // Header (magic, version, length) and the first chunk's length and type.
    unsigned char head[20];
    if (std::fread(head, 1, sizeof head, file) != sizeof head ||
        std::memcmp(head, "glTF", 4) != 0 || le32(head + 16) != 0x4E4F534Au) {
      std::fclose(file);
      return {};
    }
    limit = le32(head + 12);
  }
  auto stream = std::make_unique<PlaceTrackingFileStream>(file, limit);
  PointerLocator locator(*stream, wanted);
  rapidjson::Reader reader;
  reader.Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseStopWhenDoneFlag>(*stream, locator);
  std::fclose(file);
  return locator.found();
}

// Bytes written now and read back once, in order: an unnamed temporary file
// (std::tmpfile: removed when closed, also on a crash), or memory when no
// temporary file can be made. A failed write throws with the reason.
class Spool {
 public:
  Spool() : file_(std::tmpfile()) {}
  ~Spool() {
    if (file_ != nullptr) std::fclose(file_);
  }
  Spool(const Spool&) = delete;
  Spool& operator=(const Spool&) = delete;

  void put(char c) {
    buffer_ += c;
    if (buffer_.size() >= kBlock) drain();
  }
  void write(std::string_view s) {
    buffer_ += s;
    if (buffer_.size() >= kBlock) drain();
  }
  // Appends everything written so far to `out`.
  void copy_to(std::ostream& out) {
    if (file_ != nullptr) {
      drain();
      if (std::fflush(file_) != 0) fail();
      std::rewind(file_);
      std::string block(kBlock, '\0');
      while (const std::size_t n = std::fread(block.data(), 1, block.size(), file_)) {
        out.write(block.data(), static_cast<std::streamsize>(n));
      }
      if (std::ferror(file_)) fail();
    }
    out << buffer_;
  }

 private:
  static constexpr std::size_t kBlock = std::size_t{1} << 16;
  void drain() {
    if (file_ == nullptr) return;  // everything stays in buffer_
    if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) fail();
    buffer_.clear();
  }
  [[noreturn]] static void fail() {
    throw std::runtime_error(std::string("temporary file for the report: ") + std::strerror(errno));
  }

  std::FILE* file_;
  std::string buffer_;  // not yet in file_ (everything, when there is no file)
};

// Seconds for a JUnit time attribute (xs:decimal), microsecond resolution.
std::string junit_seconds(double s) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.6f", s < 0 ? 0.0 : s);
  return buffer;
}

class JunitStreamWriter final : public ValidationStreamWriter {
 public:
  JunitStreamWriter(std::ostream& out, const ValidationWriteOptions& options)
      : out_(out), options_(options) {}
  void end() override {
    const std::string time = totals_.timed && totals_.assets != 0
                                 ? " time=\"" + junit_seconds(totals_.seconds) + "\""
                                 : "";
    out_ << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         << "<testsuites name=\"gltf-anim validate\" tests=\"" << totals_.assets << "\" failures=\""
         << totals_.failing << "\" errors=\"0\"" << time << ">\n"
         << "  <testsuite name=\"gltf-anim validate\" tests=\"" << totals_.assets
         << "\" failures=\"" << totals_.failing << "\" errors=\"0\" skipped=\"0\"" << time << ">\n";
    testcases_.copy_to(out_);
    out_ << "  </testsuite>\n</testsuites>\n";
  }

 protected:
  void write_asset(const ValidationReport& r, const AssetRun& run) override;

 private:
  std::ostream& out_;
  ValidationWriteOptions options_;
  Spool testcases_;
  ValidationTotals totals_;
};

// One testcase per asset: classname its folder as given ("." for none), name
// its file name, file its path, so CI views group assets by folder and link
// the file.
void JunitStreamWriter::write_asset(const ValidationReport& r, const AssetRun& run) {
  totals_.add(r, options_.fail_on, run);
  const std::string_view uri = r.uri;
  const std::size_t slash = uri.find_last_of('/');
  const std::string_view folder =
      slash == std::string_view::npos ? "." : uri.substr(0, slash == 0 ? 1 : slash);
  const std::string_view name = slash == std::string_view::npos ? uri : uri.substr(slash + 1);
  std::ostringstream out;
  out << "    <testcase classname=\"" << text::xml_escape(folder) << "\" name=\""
      << text::xml_escape(name) << "\" file=\"" << text::xml_escape(uri) << "\"";
  if (run.seconds) out << " time=\"" << junit_seconds(*run.seconds) << "\"";
  out << ">\n";
  std::string failing, other;
  std::size_t n_failing = 0;
  const Issue* first = nullptr;
  for (const Issue& i : r.issues) {
    const bool f = static_cast<int>(i.severity) <= static_cast<int>(options_.fail_on);
    // One line per issue, whatever the message holds.
    (f ? failing : other) += text::visible_text(issue_line(i, options_.found_by)) + "\n";
    n_failing += f ? 1 : 0;
    if (f && first == nullptr) first = &i;
  }
  if (first != nullptr) {
    out << "      <failure type=\"" << text::xml_escape(first->code) << "\" message=\"" << n_failing
        << (n_failing == 1 ? " issue" : " issues") << " at or above "
        << text::xml_escape(validator::severity_name(options_.fail_on)) << "\">"
        << text::xml_escape(failing, false) << "</failure>\n";
  }
  if (!other.empty() || r.truncated) {
    out << "      <system-out>" << text::xml_escape(other, false)
        << (r.truncated ? "(truncated by --max-issues or --max-issue-mb)\n" : "") << "</system-out>\n";
  }
  out << "    </testcase>\n";
  testcases_.write(out.view());
}

// Where the SARIF writer's bytes go: nowhere (a prefix written only to put the
// writer in the right state), the spool (results), a string (the end) or the
// output (the real prefix, once all artifacts are known).
class SarifSink {
 public:
  using Ch = char;
  enum class To { kNothing, kSpool, kTail, kOut };
  SarifSink(Spool& spool, std::string& tail, std::ostream& out) : spool_(spool), tail_(tail), out_(out) {}
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
using SarifWriter = rapidjson::PrettyWriter<SarifSink>;

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
    const fs::path absolute = fs::absolute(fs::path(r.uri), ec).lexically_normal();
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

void write_rule(SarifWriter& w, const validator::IssueType& t, const validator::IssueOptions& policy) {
  // The level this run reports the code at, as its results carry it: a lint
  // under the default --lints info is a note here too, not its registry's warning.
  const validator::Severity severity = policy.severity(t);
  auto s = [&w](std::string_view v) { text::json_value(w, v); };
  const std::string help_uri = issue_code_help_uri(t.code);
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
  w.Key("helpUri");
  s(help_uri);
  w.Key("help");
  w.StartObject();
  w.Key("text");
  s(sentence(std::string(t.rule)) + " Spec: " + sentence(t.spec) + " See " + help_uri);
  w.Key("markdown");
  s("**" + std::string(t.code) + "** (" + std::string(validator::severity_name(severity)) +
    "): " + sentence(t.rule) + "\n\nSpec: " + sentence(t.spec) + "\n\n[" + std::string(t.code) +
    " in ISSUE_CODES.md](" + help_uri + ")");
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
                        const validator::IssueOptions& policy) {
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
  for (const auto& t : validator::issue_types()) write_rule(w, t, policy);
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
  // Columns count code points (validator/json_syntax.hpp, PlaceTrackingFileStream).
  w.Key("columnKind");
  s("unicodeCodePoints");
  w.Key("results");
  w.StartArray();
}

// The GLB JSON chunk's data starts after the 12-byte header and its 8-byte
// chunk header.
constexpr std::uint64_t kGlbJsonChunkData = 20;

// Every result has a region with a startLine (GitHub code scanning needs one).
// What the region means depends on what is known; its message says it when it
// is not simply "the value at this issue's pointer in this file".
void write_region(SarifWriter& w, const Issue& i, const std::map<std::string, Place>& places,
                  bool glb) {
  w.Key("region");
  w.StartObject();
  if (i.position) {  // a JSON syntax error: no pointer to look up
    w.Key("startLine");
    w.Uint64(i.position->line);
    w.Key("startColumn");
    w.Uint64(i.position->column);
    if (i.position->in_glb_chunk) {
      w.Key("byteOffset");
      w.Uint64(i.position->byte_offset);
      write_text_message(w, "message",
                         "Line and column within the GLB's JSON chunk; byteOffset is in the file");
    }
  } else if (i.offset) {  // a GLB container issue: bytes, no text
    w.Key("startLine");
    w.Uint64(1);
    w.Key("byteOffset");
    w.Uint64(*i.offset);
    write_text_message(
        w, "message",
        "Byte offset " + std::to_string(*i.offset) +
            " of the GLB file (a container issue has no line: line 1 stands for the file)");
  } else if (const auto p = places.find(i.pointer); p != places.end()) {
    w.Key("startLine");
    w.Uint64(p->second.line);
    w.Key("startColumn");
    w.Uint64(p->second.column);
    if (glb) {
      w.Key("byteOffset");
      w.Uint64(kGlbJsonChunkData + p->second.byte);
      write_text_message(
          w, "message",
          "Line and column within the GLB's JSON chunk, where the value at the JSON pointer "
          "starts; byteOffset is in the file");
    }
  } else {
    w.Key("startLine");
    w.Uint64(1);
    write_text_message(
        w, "message",
        "The value at the JSON pointer could not be located in the file (not parsed, not "
        "readable when the report was written, or standard input): line 1 stands for the file");
  }
  w.EndObject();
}

class SarifStreamWriter final : public ValidationStreamWriter {
 public:
  SarifStreamWriter(std::ostream& out, const ValidationWriteOptions& options)
      : out_(out),
        base_(options.sarif_base),
        sink_(results_, tail_, out),
        w_(sink_),
        found_by_(options.found_by),
        policy_(options.issue_policy) {
    w_.SetIndent(' ', 2);
    for (std::size_t k = 0; k < validator::issue_types().size(); ++k) {
      rule_index_.emplace(validator::issue_types()[k].code, k);
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
  void write_asset(const ValidationReport& r, const AssetRun& run) override;

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
  validator::IssueOptions policy_;
};

void SarifStreamWriter::write_asset(const ValidationReport& r, const AssetRun& /*run*/) {
  SarifWriter& w = w_;
  auto s = [&w](std::string_view v) { text::json_value(w, v); };
  const std::size_t a = artifacts_.size();
  artifacts_.push_back(artifact_of(r, base_));
  const Artifact& artifact = artifacts_.back();
  const std::map<std::string, Place> places = pointer_places(r);
  const bool glb = r.mime_type == "model/gltf-binary";
  for (const Issue& i : r.issues) {
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
    write_region(w, i, places, glb);
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
      for (const std::string_view tool : validator::found_by_names(i.found_by)) s(tool);
      w.EndArray();
      w.EndObject();
    }
    w.EndObject();
  }
}

}  // namespace

std::string_view information_uri() { return kHomepage; }

std::string issue_code_help_uri(std::string_view code) {
  return std::string(kHomepage) + "/blob/main/docs/ISSUE_CODES.md#" +
         validator::issue_code_anchor(code);
}

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

std::unique_ptr<ValidationStreamWriter> make_validation_junit_writer(std::ostream& out,
                                                                     const ValidationWriteOptions& options) {
  return std::make_unique<JunitStreamWriter>(out, options);
}

std::unique_ptr<ValidationStreamWriter> make_validation_sarif_writer(
    std::ostream& out, const ValidationWriteOptions& options) {
  return std::make_unique<SarifStreamWriter>(out, options);
}

void write_validation_junit(std::ostream& out, std::span<const ValidationReport> reports,
                            const ValidationWriteOptions& options) {
  JunitStreamWriter w(out, options);
  for (const ValidationReport& r : reports) w.asset(r);
  w.end();
}

void write_validation_sarif(std::ostream& out, std::span<const ValidationReport> reports,
                            const ValidationWriteOptions& options) {
  SarifStreamWriter w(out, options);
  for (const ValidationReport& r : reports) w.asset(r);
  w.end();
}

}  // namespace gltf_anim::reports

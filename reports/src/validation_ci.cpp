// The CI formats: JUnit XML (one testcase per asset) and SARIF 2.1.0 (one
// result per issue, rules taken from the issue registry).
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/validator/json_pointer.hpp>
#include <gltf_anim/version.hpp>

#include <rapidjson/filereadstream.h>
#include <rapidjson/ostreamwrapper.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/reader.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
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

// A rapidjson input stream over a file read in fixed-size blocks that knows
// the 1-based line of the last character taken: memory stays one block
// whatever the file's size.
class LineCountingFileStream {
 public:
  using Ch = char;
  explicit LineCountingFileStream(std::FILE* f) : in_(f, buffer_, sizeof buffer_) {}
  Ch Peek() const { return in_.Peek(); }
  Ch Take() {
    const Ch c = in_.Take();
    if (after_newline_) ++line_;
    after_newline_ = c == '\n';
    return c;
  }
  std::size_t Tell() const { return in_.Tell(); }
  std::size_t line() const { return line_; }
  // Only used by in-situ parsing, which this stream does not offer.
  Ch* PutBegin() { return nullptr; }
  void Put(Ch) {}
  void Flush() {}
  std::size_t PutEnd(Ch*) { return 0; }

 private:
  char buffer_[1 << 16];
  rapidjson::FileReadStream in_;
  std::size_t line_ = 1;
  bool after_newline_ = false;
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

// Finds the lines of the values at some JSON pointers in a JSON text, with one
// SAX pass (rapidjson::Reader). Scalars are located where they end, objects and
// arrays just before their opening bracket: the same line for anything a glTF
// exporter writes. Linear in the text: the current pointer is kept as a string
// and a hash, both updated by the last token only; a wanted pointer is compared
// in full only when the hashes agree and it was not found yet.
class PointerLocator {
 public:
  using Ch = char;
  PointerLocator(const LineCountingFileStream& stream, const std::set<std::string>& wanted)
      : stream_(stream), wanted_(wanted.begin(), wanted.end()), line_(wanted_.size(), 0) {
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
    set_token(validator::escape_pointer_token(std::string_view(s, n)));
    return true;
  }
  bool EndObject(rapidjson::SizeType) { return close(); }
  bool StartArray() { return open(true); }
  bool EndArray(rapidjson::SizeType) { return close(); }

  // Wanted pointer -> line, for those found (the first occurrence wins).
  std::map<std::string, std::size_t> found() const {
    std::map<std::string, std::size_t> out;
    for (std::size_t k = 0; k < wanted_.size(); ++k) {
      if (line_[k] != 0) out.emplace(wanted_[k], line_[k]);
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
  void record() {
    if (remaining_ == 0) return;
    if (stack_.empty()) {
      current_.clear();
      hash_ = kPointerHashSeed;
    } else if (stack_.back().array) {
      set_token(std::to_string(stack_.back().index));
    }
    const auto [first, last] = by_hash_.equal_range(hash_);
    for (auto it = first; it != last; ++it) {
      if (line_[it->second] == 0 && wanted_[it->second] == current_) {
        line_[it->second] = stream_.line();
        --remaining_;
      }
    }
  }
  void advance() {
    if (!stack_.empty() && stack_.back().array) ++stack_.back().index;
  }
  bool scalar() {
    record();
    advance();
    return true;
  }
  bool open(bool array) {
    record();
    stack_.push_back(Frame{array, 0, current_.size(), hash_});
    return true;
  }
  bool close() {
    stack_.pop_back();
    advance();
    return true;
  }

  const LineCountingFileStream& stream_;
  std::vector<std::string> wanted_;
  std::vector<std::size_t> line_;  // 0: not found yet
  std::size_t remaining_ = wanted_.size();
  std::unordered_multimap<std::uint64_t, std::size_t> by_hash_;
  std::vector<Frame> stack_;
  std::string current_;
  std::uint64_t hash_ = kPointerHashSeed;
};

// 1-based line of each issue pointer found in the .gltf file `path` (JSON
// text only: nothing for GLB, standard input, unreadable or non-regular files).
std::map<std::string, std::size_t> pointer_lines(const ValidationReport& r) {
  if (r.mime_type != "model/gltf+json" || r.uri == "-") return {};
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
  auto stream = std::make_unique<LineCountingFileStream>(file);
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

class JunitStreamWriter final : public ValidationStreamWriter {
 public:
  JunitStreamWriter(std::ostream& out, const ValidationWriteOptions& options) : out_(out), options_(options) {}
  void asset(const ValidationReport& r) override;
  void end() override {
    out_ << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         << "<testsuites name=\"gltf-anim validate\" tests=\"" << tests_ << "\" failures=\"" << failures_
         << "\" errors=\"0\">\n"
         << "  <testsuite name=\"gltf-anim validate\" tests=\"" << tests_ << "\" failures=\"" << failures_
         << "\" errors=\"0\" skipped=\"0\">\n";
    testcases_.copy_to(out_);
    out_ << "  </testsuite>\n</testsuites>\n";
  }

 private:
  std::ostream& out_;
  ValidationWriteOptions options_;
  Spool testcases_;
  std::size_t tests_ = 0;
  std::size_t failures_ = 0;
};

void JunitStreamWriter::asset(const ValidationReport& r) {
  ++tests_;
  failures_ += reaches(r, options_.fail_on) ? 1 : 0;
  std::ostringstream out;
  out << "    <testcase classname=\"gltf-anim.validate\" name=\"" << text::xml_escape(r.uri) << "\">\n";
  std::string failing, other;
  std::size_t n_failing = 0;
  for (const Issue& i : r.issues) {
    const bool f = static_cast<int>(i.severity) <= static_cast<int>(options_.fail_on);
    // One line per issue, whatever the message holds.
    (f ? failing : other) += text::visible_text(issue_line(i, options_.found_by)) + "\n";
    n_failing += f ? 1 : 0;
  }
  if (n_failing != 0) {
    const Issue* first = nullptr;
    for (const Issue& i : r.issues) {
      if (static_cast<int>(i.severity) <= static_cast<int>(options_.fail_on)) {
        first = &i;
        break;
      }
    }
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

struct Artifact {
  std::string uri;
  std::string mime_type;
};

// Everything before the first result: the tool with its rules, the artifacts,
// and "results": [.
void write_sarif_prefix(SarifWriter& w, std::span<const Artifact> artifacts) {
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
  w.Key("rules");
  w.StartArray();
  for (const auto& t : validator::issue_types()) {
    w.StartObject();
    w.Key("id");
    s(t.code);
    w.Key("shortDescription");
    w.StartObject();
    w.Key("text");
    s(t.rule);
    w.EndObject();
    w.Key("fullDescription");
    w.StartObject();
    w.Key("text");
    s(t.spec);
    w.EndObject();
    w.Key("messageStrings");
    w.StartObject();
    w.Key("default");
    w.StartObject();
    w.Key("text");
    s(t.message);
    w.EndObject();
    w.EndObject();
    w.Key("defaultConfiguration");
    w.StartObject();
    w.Key("level");
    s(sarif_level(t.severity));
    w.EndObject();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();  // driver
  w.EndObject();  // tool
  w.Key("artifacts");
  w.StartArray();
  for (const Artifact& a : artifacts) {
    w.StartObject();
    w.Key("location");
    w.StartObject();
    w.Key("uri");
    s(file_uri(a.uri));
    w.EndObject();
    if (!a.mime_type.empty()) {
      w.Key("mimeType");
      s(a.mime_type);
    }
    w.EndObject();
  }
  w.EndArray();
  // Columns of JSON syntax errors count code points (validator/json_syntax.hpp).
  w.Key("columnKind");
  s("unicodeCodePoints");
  w.Key("results");
  w.StartArray();
}

class SarifStreamWriter final : public ValidationStreamWriter {
 public:
  SarifStreamWriter(std::ostream& out, bool found_by)
      : out_(out), sink_(results_, tail_, out), w_(sink_), found_by_(found_by) {
    w_.SetIndent(' ', 2);
    for (std::size_t k = 0; k < validator::issue_types().size(); ++k) {
      rule_index_.emplace(validator::issue_types()[k].code, k);
    }
    // The writer's state must be that of the whole document when the first
    // result comes; the artifacts it writes here are not known yet and go
    // nowhere (end() writes the real prefix).
    write_sarif_prefix(w_, {});
    sink_.to(SarifSink::To::kSpool);
  }
  void asset(const ValidationReport& r) override;
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
    write_sarif_prefix(h, artifacts_);
    results_.copy_to(out_);
    out_ << tail_ << "\n";
  }

 private:
  std::ostream& out_;
  Spool results_;
  std::string tail_;
  SarifSink sink_;
  SarifWriter w_;
  std::vector<Artifact> artifacts_;
  std::map<std::string_view, std::size_t> rule_index_;
  bool found_by_;
};

void SarifStreamWriter::asset(const ValidationReport& r) {
  SarifWriter& w = w_;
  auto s = [&w](std::string_view v) { text::json_value(w, v); };
  const std::size_t a = artifacts_.size();
  artifacts_.push_back(Artifact{r.uri, r.mime_type});
  const std::string uri = file_uri(r.uri);
  const std::map<std::string, std::size_t> lines = pointer_lines(r);
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
    w.Key("message");
    w.StartObject();
    w.Key("text");
    s(i.message);
    w.EndObject();
    w.Key("locations");
    w.StartArray();
    w.StartObject();
    w.Key("physicalLocation");
    w.StartObject();
    w.Key("artifactLocation");
    w.StartObject();
    w.Key("uri");
    s(uri);
    w.Key("index");
    w.Uint64(a);
    w.EndObject();
    if (i.offset || (i.position && i.position->in_glb_chunk)) {
      w.Key("region");
      w.StartObject();
      w.Key("byteOffset");
      w.Uint64(i.offset ? *i.offset : i.position->byte_offset);
      w.EndObject();
    } else if (i.position) {  // a JSON syntax error: no pointer to look up
      w.Key("region");
      w.StartObject();
      w.Key("startLine");
      w.Uint64(i.position->line);
      w.Key("startColumn");
      w.Uint64(i.position->column);
      w.EndObject();
    } else if (const auto line = lines.find(i.pointer); line != lines.end()) {
      w.Key("region");
      w.StartObject();
      w.Key("startLine");
      w.Uint64(line->second);
      w.EndObject();
    }
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
  return std::make_unique<SarifStreamWriter>(out, options.found_by);
}

void write_validation_junit(std::ostream& out, std::span<const ValidationReport> reports,
                            const ValidationWriteOptions& options) {
  JunitStreamWriter w(out, options);
  for (const ValidationReport& r : reports) w.asset(r);
  w.end();
}

void write_validation_sarif(std::ostream& out, std::span<const ValidationReport> reports,
                            const ValidationWriteOptions& options) {
  SarifStreamWriter w(out, options.found_by);
  for (const ValidationReport& r : reports) w.asset(r);
  w.end();
}

}  // namespace gltf_anim::reports

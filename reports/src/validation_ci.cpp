// The CI formats: JUnit XML (one testcase per asset) and SARIF 2.1.0 (one
// result per issue, rules taken from the issue registry).
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/validator/json_pointer.hpp>
#include <gltf_anim/version.hpp>

#include <rapidjson/memorystream.h>
#include <rapidjson/ostreamwrapper.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/reader.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "text_escape.hpp"

namespace gltf_anim::reports {
namespace {

using validator::Issue;
using validator::Severity;
using validator::ValidationReport;

using detail::xml_escape;

std::string issue_line(const Issue& i) {
  std::string s(validator::severity_name(i.severity));
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

// Finds where the values at some JSON pointers start in a JSON text, with one
// SAX pass (rapidjson::Reader) that tracks the current pointer. Scalars are
// located where they end, objects and arrays at their opening bracket: the
// same line for anything a glTF exporter writes.
class PointerLocator {
 public:
  using Ch = char;
  PointerLocator(const rapidjson::MemoryStream& stream, const std::set<std::string>& wanted)
      : stream_(stream), wanted_(wanted) {}

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
    stack_.back().key = validator::escape_pointer_token(std::string_view(s, n));
    return true;
  }
  bool EndObject(rapidjson::SizeType) { return close(); }
  bool StartArray() { return open(true); }
  bool EndArray(rapidjson::SizeType) { return close(); }

  const std::map<std::string, std::size_t>& found() const { return found_; }

 private:
  struct Frame {
    bool array;
    std::size_t index = 0;
    std::string key;
  };
  std::string pointer() const {
    std::string p;
    for (const Frame& f : stack_) {
      p += '/';
      p += f.array ? std::to_string(f.index) : f.key;
    }
    return p;
  }
  void record() {
    if (found_.size() == wanted_.size()) return;
    std::string p = pointer();
    if (wanted_.count(p) != 0) found_.emplace(std::move(p), stream_.Tell());
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
    stack_.push_back(Frame{array, 0, {}});
    return true;
  }
  bool close() {
    stack_.pop_back();
    advance();
    return true;
  }

  const rapidjson::MemoryStream& stream_;
  const std::set<std::string>& wanted_;
  std::vector<Frame> stack_;
  std::map<std::string, std::size_t> found_;
};

// 1-based line of each issue pointer found in the .gltf file `path` (JSON
// text only: nothing for GLB, standard input or unreadable files).
std::map<std::string, std::size_t> pointer_lines(const ValidationReport& r) {
  std::map<std::string, std::size_t> lines;
  if (r.mime_type != "model/gltf+json" || r.uri == "-") return lines;
  std::set<std::string> wanted;
  for (const Issue& i : r.issues) {
    if (!i.offset) wanted.insert(i.pointer);
  }
  if (wanted.empty()) return lines;
  std::ifstream in(r.uri, std::ios::binary);
  if (!in) return lines;
  std::ostringstream buf;
  buf << in.rdbuf();
  const std::string text = buf.str();
  rapidjson::MemoryStream stream(text.data(), text.size());
  PointerLocator locator(stream, wanted);
  rapidjson::Reader reader;
  reader.Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseStopWhenDoneFlag>(stream, locator);
  std::vector<std::size_t> newlines;
  for (std::size_t k = 0; k < text.size(); ++k) {
    if (text[k] == '\n') newlines.push_back(k);
  }
  for (const auto& [pointer, offset] : locator.found()) {
    // Scalars end at `offset`; the value's last character is before it.
    const std::size_t at = offset == 0 ? 0 : offset - 1;
    lines.emplace(pointer, 1 + static_cast<std::size_t>(
                                   std::lower_bound(newlines.begin(), newlines.end(), at) -
                                   newlines.begin()));
  }
  return lines;
}

}  // namespace

void write_validation_junit(std::ostream& out, std::span<const ValidationReport> reports,
                            const ValidationWriteOptions& options) {
  std::size_t failures = 0;
  for (const ValidationReport& r : reports) failures += reaches(r, options.fail_on) ? 1 : 0;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"gltf-anim validate\" tests=\"" << reports.size() << "\" failures=\""
      << failures << "\" errors=\"0\">\n"
      << "  <testsuite name=\"gltf-anim validate\" tests=\"" << reports.size()
      << "\" failures=\"" << failures << "\" errors=\"0\" skipped=\"0\">\n";
  for (const ValidationReport& r : reports) {
    out << "    <testcase classname=\"gltf-anim.validate\" name=\"" << xml_escape(r.uri) << "\">\n";
    std::string failing, other;
    std::size_t n_failing = 0;
    for (const Issue& i : r.issues) {
      const bool f = static_cast<int>(i.severity) <= static_cast<int>(options.fail_on);
      // One line per issue, whatever the message holds.
      (f ? failing : other) += detail::text_clean(issue_line(i)) + "\n";
      n_failing += f ? 1 : 0;
    }
    if (n_failing != 0) {
      const Issue* first = nullptr;
      for (const Issue& i : r.issues) {
        if (static_cast<int>(i.severity) <= static_cast<int>(options.fail_on)) {
          first = &i;
          break;
        }
      }
      out << "      <failure type=\"" << xml_escape(first->code) << "\" message=\"" << n_failing
          << (n_failing == 1 ? " issue" : " issues") << " at or above "
          << xml_escape(validator::severity_name(options.fail_on)) << "\">"
          << xml_escape(failing, false) << "</failure>\n";
    }
    if (!other.empty() || r.truncated) {
      out << "      <system-out>" << xml_escape(other, false)
          << (r.truncated ? "(truncated by --max-issues)\n" : "") << "</system-out>\n";
    }
    out << "    </testcase>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
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

void write_validation_sarif(std::ostream& out, std::span<const ValidationReport> reports,
                            const ValidationWriteOptions& /*options*/) {
  using Writer = rapidjson::PrettyWriter<rapidjson::OStreamWrapper>;
  rapidjson::OStreamWrapper os(out);
  Writer w(os);
  w.SetIndent(' ', 2);
  auto s = [&w](std::string_view v) { detail::json_value(w, v); };
  const auto types = validator::issue_types();
  std::map<std::string_view, std::size_t> rule_index;
  for (std::size_t k = 0; k < types.size(); ++k) rule_index.emplace(types[k].code, k);

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
  for (const auto& t : types) {
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
  for (const ValidationReport& r : reports) {
    w.StartObject();
    w.Key("location");
    w.StartObject();
    w.Key("uri");
    s(file_uri(r.uri));
    w.EndObject();
    if (!r.mime_type.empty()) {
      w.Key("mimeType");
      s(r.mime_type);
    }
    w.EndObject();
  }
  w.EndArray();
  // Columns of JSON syntax errors count code points (validator/json_syntax.hpp).
  w.Key("columnKind");
  s("unicodeCodePoints");
  w.Key("results");
  w.StartArray();
  for (std::size_t a = 0; a < reports.size(); ++a) {
    const ValidationReport& r = reports[a];
    const std::map<std::string, std::size_t> lines = pointer_lines(r);
    for (const Issue& i : r.issues) {
      w.StartObject();
      w.Key("ruleId");
      s(i.code);
      if (const auto it = rule_index.find(i.code); it != rule_index.end()) {
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
      s(file_uri(r.uri));
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
      w.EndObject();
    }
  }
  w.EndArray();  // results
  w.EndObject();
  w.EndArray();  // runs
  w.EndObject();
  os.Flush();
  out << "\n";
}

}  // namespace gltf_anim::reports

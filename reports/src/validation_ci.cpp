// The CI formats: JUnit XML (one testcase per asset) and SARIF 2.1.0 (one
// result per issue, rules taken from the issue registry).
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/version.hpp>

#include <rapidjson/ostreamwrapper.h>
#include <rapidjson/prettywriter.h>

#include <cstdio>
#include <map>

namespace gltf_anim::reports {
namespace {

using validator::Issue;
using validator::Severity;
using validator::ValidationReport;

std::string xml_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // XML 1.0 forbids most control characters even escaped.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r') {
          out += '?';
        } else {
          out += c;
        }
    }
  }
  return out;
}

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
      (f ? failing : other) += issue_line(i) + "\n";
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
      out << "      <failure type=\"" << first->code << "\" message=\"" << n_failing
          << (n_failing == 1 ? " issue" : " issues") << " at or above "
          << xml_escape(validator::severity_name(options.fail_on)) << "\">"
          << xml_escape(failing) << "</failure>\n";
    }
    if (!other.empty() || r.truncated) {
      out << "      <system-out>" << xml_escape(other)
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
  auto s = [&w](std::string_view v) {
    w.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
  };
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
  w.Key("results");
  w.StartArray();
  for (std::size_t a = 0; a < reports.size(); ++a) {
    const ValidationReport& r = reports[a];
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
      if (i.offset) {
        w.Key("region");
        w.StartObject();
        w.Key("byteOffset");
        w.Uint64(*i.offset);
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

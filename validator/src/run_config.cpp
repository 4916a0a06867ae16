// The project config file: read (bounded, regular file, inside the current
// folder when found there), parsed with the loader's hardened JSON parser,
// checked against the embedded schema (EmbeddedSchema), then against the
// registry with the command line's own words (issue_policy.hpp).
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/schema/embedded_schema.hpp>
#include <gltf_anim/validator/issue_policy.hpp>
#include <gltf_anim/gltf/json_pointer.hpp>
#include <gltf_anim/validator/run_config.hpp>

#include <cerrno>
#include <cstring>
#include <system_error>
#include <stdexcept>

#include <gltf_anim/gltf/json_syntax.hpp>
#include <gltf_anim/io/file_queries.hpp>
#include <gltf_anim/io/resource_reader.hpp>

namespace gltf_anim::validator {
using schema::EmbeddedSchema;
using schema::SchemaViolation;

using gltf::escape_pointer_token;
using gltf::IssueCollector;
using gltf::IssueOptions;
using gltf::Severity;
using io::ReadResult;

namespace detail {
extern const std::string_view kRunConfigSchema;  // generated from validator/config/
}  // namespace detail

namespace {

// A config is a flat object of short lists: this is generous.
constexpr std::size_t kMaxDepth = 8;
constexpr std::size_t kMaxValues = std::size_t{1} << 16;

// The first schema error, at its deepest place: valijson reports a failing
// member and then each enclosing object that failed because of it.
std::string schema_error(const gltf_anim::json::Value& doc) {
  static const EmbeddedSchema schema(detail::kRunConfigSchema, "the embedded config schema");
  const std::optional<SchemaViolation> violation = schema.violation(doc);
  if (!violation) return "";
  const std::string& pointer = violation->pointer;
  // An unknown member is reported at its object; point at the member itself.
  constexpr std::string_view kUnknown =
      "Object contains a property that could not be validated using 'properties' or "
      "'additionalProperties' constraints: '";
  const std::string& d = violation->message;
  if (d.rfind(kUnknown, 0) == 0 && d.size() >= kUnknown.size() + 2) {
    const std::string name = d.substr(kUnknown.size(), d.size() - kUnknown.size() - 2);
    return pointer + "/" + escape_pointer_token(name) +
           ": unknown member (members: ignore, severity-override, lints, enable, fail-on, format, "
           "threads, max-issues, max-issue-mb, max-file-mb, $schema)";
  }
  return (pointer.empty() ? "the document" : pointer) + ": " + d;
}

std::optional<RunConfig> refuse(std::string& why, std::string what) {
  why = std::move(what);
  return std::nullopt;
}

std::vector<std::string> strings(const gltf_anim::json::Value& doc, const char* name) {
  std::vector<std::string> out;
  const auto m = doc.FindMember(name);
  if (m == doc.MemberEnd()) return out;
  for (const auto& v : m->value.GetArray()) out.emplace_back(v.GetString(), v.GetStringLength());
  return out;
}

std::optional<std::uint64_t> count(const gltf_anim::json::Value& doc, const char* name) {
  const auto m = doc.FindMember(name);
  if (m == doc.MemberEnd()) return std::nullopt;
  return m->value.GetUint64();  // the schema made it an integer in range
}

std::optional<std::string> word(const gltf_anim::json::Value& doc, const char* name) {
  const auto m = doc.FindMember(name);
  if (m == doc.MemberEnd()) return std::nullopt;
  return std::string(m->value.GetString(), m->value.GetStringLength());
}

std::optional<RunConfig> from_read(ReadResult r, std::string& why) {
  if (r.failure != ReadResult::Failure::kNone) {
    switch (r.failure) {
      case ReadResult::Failure::kTooLarge:
        why = "it is " + std::to_string(r.size) + " bytes, more than the limit of " +
              std::to_string(kMaxConfigBytes);
        break;
      case ReadResult::Failure::kOutsideRoot: why = "it resolves outside the current folder"; break;
      default: why = r.detail; break;
    }
    return std::nullopt;
  }
  const auto bytes = r.storage->bytes();
  auto config = parse_run_config(
      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), why);
  if (config) config->identity = r.identity;
  return config;
}

}  // namespace

std::string_view run_config_schema() { return detail::kRunConfigSchema; }

std::optional<RunConfig> parse_run_config(std::string_view text, std::string& why) {
  // Editors on Windows save JSON with a UTF-8 byte order mark; a config is no
  // glTF (whose spec forbids the mark), so it is read past.
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  IssueCollector issues;
  const auto doc = parse_json({reinterpret_cast<const std::uint8_t*>(text.data()), text.size()}, 0,
                              kMaxDepth, kMaxValues, issues);
  if (!doc) {
    return refuse(why, issues.issues().empty() ? "not JSON" : issues.issues().front().message);
  }
  check_duplicate_keys(*doc, issues);
  if (!issues.issues().empty()) {
    return refuse(why, issues.issues().front().pointer + ": " + issues.issues().front().message);
  }
  if (std::string e = schema_error(*doc); !e.empty()) return refuse(why, std::move(e));

  RunConfig c;
  IssueOptions check;  // the command line's checks, on a scratch copy
  c.ignore = strings(*doc, "ignore");
  for (std::size_t i = 0; i < c.ignore.size(); ++i) {
    if (std::string e = ignore_codes(c.ignore[i], check); !e.empty()) {
      return refuse(why, "/ignore/" + std::to_string(i) + ": " + e);
    }
  }
  c.enable = strings(*doc, "enable");
  for (std::size_t i = 0; i < c.enable.size(); ++i) {
    if (std::string e = enable_lints(c.enable[i], check); !e.empty()) {
      return refuse(why, "/enable/" + std::to_string(i) + ": " + e);
    }
  }
  // Through a const reference: const iterators, whose comparison clang 14
  // does not find ambiguous under C++20.
  const gltf_anim::json::Value& root = *doc;
  if (const auto m = root.FindMember("severity-override"); m != root.MemberEnd()) {
    for (const auto& o : m->value.GetObject()) {
      const std::string code(o.name.GetString(), o.name.GetStringLength());
      if (code.size() > kMaxCodePatternBytes) {  // not quoted: it would be megabytes
        return refuse(why, "/severity-override: a member name of " + std::to_string(code.size()) +
                               " characters is longer than " +
                               std::to_string(kMaxCodePatternBytes));
      }
      const auto severity = static_cast<Severity>(o.value.GetInt());
      if (std::string e = override_severity(code, severity, check); !e.empty()) {
        return refuse(why, "/severity-override/" + escape_pointer_token(code) + ": " + e);
      }
      c.severity_overrides.emplace_back(code, severity);
    }
  }
  if (const auto w = word(*doc, "lints")) c.lints = lint_level_from_name(*w);
  if (const auto w = word(*doc, "fail-on")) c.fail_on = severity_from_name(*w);
  c.format = word(*doc, "format");
  c.threads = count(*doc, "threads");
  c.max_issues = count(*doc, "max-issues");
  c.max_issue_mb = count(*doc, "max-issue-mb");
  c.max_file_mb = count(*doc, "max-file-mb");
  return c;
}

std::optional<RunConfig> read_run_config(const std::filesystem::path& path, std::string& why) {
  return from_read(io::read_regular_file(path, kMaxConfigBytes, /*no_follow=*/false), why);
}

std::optional<RunConfig> read_current_folder_config(bool& found, std::string& why) {
  const std::string name(kConfigFileName);
  std::error_code ec;
  (void)io::link_type_of(name, ec);  // the name itself, a link included
  if (ec == std::errc::no_such_file_or_directory) {
    found = false;
    return std::nullopt;
  }
  found = true;
  // Beneath ".": a link that leaves the current folder is refused by the kernel.
  return from_read(io::read_file_beneath(".", name, kMaxConfigBytes), why);
}

}  // namespace gltf_anim::validator

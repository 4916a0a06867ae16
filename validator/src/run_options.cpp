#include <gltf_anim/validator/issue_policy.hpp>
#include <gltf_anim/validator/run_options.hpp>
#include <gltf_anim/io/file_queries.hpp>

#include <system_error>

namespace gltf_anim::validator {

using gltf::IssueOptions;
using gltf::Severity;

namespace {

// The command line's value, else the config's, else the default.
template <typename T>
T chosen(const std::optional<T>& given, const std::optional<T>& configured, T fallback) {
  if (given) return *given;
  if (configured) return *configured;
  return fallback;
}

// "" when `value` is within [min, max], else the refusal, worded as the
// command line's range check words it.
std::string out_of_range(const char* option, const std::optional<std::uint64_t>& value,
                         std::uint64_t min, std::uint64_t max) {
  if (!value || (*value >= min && *value <= max)) return "";
  return std::string("--") + option + " must be an integer from " + std::to_string(min) + " to " +
         std::to_string(max) + ", got '" + std::to_string(*value) + "'";
}

}  // namespace

std::optional<RunOptions> resolve_run_options(const RunConfig& config,
                                              const RunArguments& arguments, std::string& why) {
  RunOptions run;
  run.fail_on = chosen(arguments.fail_on, config.fail_on, kDefaultRunFailOn);
  if (run.fail_on == Severity::kHint) {
    why = "--fail-on must be error, warning or info";
    return std::nullopt;
  }
  // The config's numbers are in these ranges (its schema says so); the command
  // line's are checked here too, for callers that did not.
  for (const std::string& refusal :
       {out_of_range("threads", arguments.threads, 1, kMaxRunThreads),
        out_of_range("max-issues", arguments.max_issues, 0, kMaxRunIssues),
        out_of_range("max-issue-mb", arguments.max_issue_mb, 0, kMaxRunMebibytes),
        out_of_range("max-file-mb", arguments.max_file_mb, 1, kMaxRunMebibytes)}) {
    if (!refusal.empty()) {
      why = refusal;
      return std::nullopt;
    }
  }
  run.format = chosen(arguments.format, config.format, std::string(kDefaultRunFormat));
  run.threads =
      static_cast<unsigned>(chosen(arguments.threads, config.threads, kDefaultRunThreads));

  IssueOptions& issues = run.validate.issues;
  issues.max_issues = static_cast<std::size_t>(
      chosen(arguments.max_issues, config.max_issues, kDefaultRunMaxIssues));
  issues.max_issue_bytes = static_cast<std::size_t>(chosen(
                               arguments.max_issue_mb, config.max_issue_mb, kDefaultRunMaxIssueMb))
                           << 20;
  run.validate.load.max_file_bytes =
      chosen(arguments.max_file_mb, config.max_file_mb, kDefaultRunMaxFileMb) << 20;
  issues.lints.level = chosen(arguments.lints, config.lints, kDefaultRunLints);

  // The config's lists first: a later word wins (a severity override of a code
  // the config overrides too).
  for (const std::string& p : config.ignore) ignore_codes(p, issues);
  for (const std::string& p : config.enable) enable_lints(p, issues);
  for (const auto& [p, severity] : config.severity_overrides)
    override_severity(p, severity, issues);
  // Codes and globs, each refused when it names nothing (a typo must not
  // silently ignore nothing).
  for (const std::string& p : arguments.ignore) {
    if (why = ignore_codes(p, issues); !why.empty()) return std::nullopt;
  }
  for (const std::string& p : arguments.severity_override) {
    if (why = override_severity(p, issues); !why.empty()) return std::nullopt;
  }
  for (const std::string& p : arguments.enable) {
    if (why = enable_lints(p, issues); !why.empty()) return std::nullopt;
  }
  if (arguments.root) {
    if (!io::is_folder(*arguments.root)) {
      why = "--root '" + arguments.root->string() + "' is not a folder";
      return std::nullopt;
    }
    run.validate.load.root = *arguments.root;
  }
  return run;
}

namespace {

// Two FNV-1a 64-bit hashes of different offsets over length-prefixed words:
// no two lists of words give the same byte stream.
class Digest {
 public:
  void word(std::string_view w) {
    number(w.size());
    bytes(w);
  }
  void number(std::uint64_t n) {
    const std::string text = std::to_string(n) + ':';
    bytes(text);
  }
  std::string hex() const {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    for (const std::uint64_t h : {a_, b_}) {
      for (int shift = 60; shift >= 0; shift -= 4) out += kDigits[(h >> shift) & 0xF];
    }
    return out;
  }

 private:
  void bytes(std::string_view s) {
    for (const char c : s) {
      a_ = (a_ ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
      b_ = (b_ ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    }
  }
  std::uint64_t a_ = 0xcbf29ce484222325ULL;
  std::uint64_t b_ = 0x84222325cbf29ce4ULL;
};

}  // namespace

std::string run_identity(const RunOptions& run, const std::vector<std::string>& run_assets,
                         const std::vector<std::string>& other_inputs) {
  Digest d;
  d.number(run_assets.size());
  for (const std::string& a : run_assets) d.word(a);
  const IssueOptions& issues = run.validate.issues;
  d.number(issues.ignored.size());
  for (const std::string& c : issues.ignored) d.word(c);
  d.number(issues.severity_overrides.size());
  for (const auto& [code, severity] : issues.severity_overrides) {
    d.word(code);
    d.number(static_cast<std::uint64_t>(severity));
  }
  d.number(static_cast<std::uint64_t>(issues.lints.level));
  d.number(issues.lints.opted_in.size());
  for (const std::string& c : issues.lints.opted_in) d.word(c);
  d.number(issues.max_issues);
  d.number(issues.max_issue_bytes);
  d.number(run.validate.load.max_file_bytes);
  d.word(run.validate.load.root.generic_string());
  d.number(static_cast<std::uint64_t>(run.fail_on));
  d.number(other_inputs.size());
  for (const std::string& i : other_inputs) d.word(i);
  return d.hex();
}

}  // namespace gltf_anim::validator

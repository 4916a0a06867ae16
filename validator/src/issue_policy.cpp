#include <gltf_anim/validator/issue_policy.hpp>

#include <string>
#include <vector>

namespace gltf_anim::validator {

using gltf::Enablement;
using gltf::is_code_glob;
using gltf::IssueOptions;
using gltf::IssueType;
using gltf::LintLevel;
using gltf::match_issue_codes;
using gltf::Severity;

namespace {

// The codes `pattern` names, or the sentence refusing it. A pattern longer
// than any code could be is refused before matching: matching costs
// |pattern| x |code| for every code, and the refusal quotes the pattern.
std::vector<const IssueType*> named_codes(std::string_view pattern, std::string& why) {
  if (pattern.size() > kMaxCodePatternBytes) {
    why = "a code or glob of " + std::to_string(pattern.size()) + " characters is longer than " +
          std::to_string(kMaxCodePatternBytes) + " (gltf-anim codes lists the codes)";
    return {};
  }
  std::vector<const IssueType*> types = match_issue_codes(pattern);
  if (types.empty()) {
    why = is_code_glob(pattern) ? "'" + std::string(pattern) + "' matches no issue code"
                                : "unknown issue code '" + std::string(pattern) + "'";
    why += " (gltf-anim codes lists them)";
  }
  return types;
}

}  // namespace

std::optional<Severity> severity_from_name(std::string_view name) {
  if (name == "error") return Severity::kError;
  if (name == "warning") return Severity::kWarning;
  if (name == "info") return Severity::kInfo;
  if (name == "hint") return Severity::kHint;
  return std::nullopt;
}

std::string_view severity_word(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kInfo: return "info";
    case Severity::kHint: return "hint";
  }
  return "error";
}

std::optional<LintLevel> lint_level_from_name(std::string_view name) {
  if (name == "off") return LintLevel::kOff;
  if (name == "hint") return LintLevel::kHint;
  if (name == "info") return LintLevel::kInfo;
  if (name == "warning") return LintLevel::kWarning;
  return std::nullopt;
}

std::string_view lint_level_name(LintLevel level) {
  switch (level) {
    case LintLevel::kOff: return "off";
    case LintLevel::kHint: return "hint";
    case LintLevel::kInfo: return "info";
    case LintLevel::kWarning: return "warning";
  }
  return "info";
}

std::string ignore_codes(std::string_view pattern, IssueOptions& options) {
  std::string why;
  for (const IssueType* t : named_codes(pattern, why)) options.ignored.emplace(t->code);
  return why;
}

std::string override_severity(std::string_view pattern, Severity severity, IssueOptions& options) {
  std::string why;
  for (const IssueType* t : named_codes(pattern, why))
    options.severity_overrides[std::string(t->code)] = severity;
  return why;
}

std::string override_severity(std::string_view assignment, IssueOptions& options) {
  const auto eq = assignment.find('=');
  const std::string_view level = eq == std::string_view::npos ? "" : assignment.substr(eq + 1);
  if (eq == std::string_view::npos || level.size() != 1 || level[0] < '0' || level[0] > '3') {
    return "--severity-override wants CODE=N with N in 0..3, got '" + std::string(assignment) + "'";
  }
  return override_severity(assignment.substr(0, eq), static_cast<Severity>(level[0] - '0'),
                           options);
}

std::string enable_lints(std::string_view pattern, IssueOptions& options) {
  std::string why;
  const std::vector<const IssueType*> types = named_codes(pattern, why);
  if (!why.empty()) return why;
  bool any = false;
  for (const IssueType* t : types) {
    if (t->enablement != Enablement::kOptIn) continue;
    options.lints.opted_in.emplace(t->code);
    any = true;
  }
  if (!any) {
    return "'" + std::string(pattern) +
           "' names no opt-in lint (only opt-in lints need enabling; gltf-anim codes marks them)";
  }
  return "";
}

}  // namespace gltf_anim::validator

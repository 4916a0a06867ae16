#pragma once
// The user's words for what a run reports (codes and globs to ignore, severity
// overrides, the lint level, opt-in lints), turned into IssueOptions. Shared by
// the command line and the project config file (run_config.hpp), so both accept
// and refuse exactly the same things. Each function returns "" on success, or
// the reason it refused (a sentence for a usage error) and leaves the options
// as they were.
#include <gltf_anim/gltf/issue.hpp>
#include <gltf_anim/gltf/issue_collector.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace gltf_anim::validator {

// "error", "warning", "info", "hint": the words of --fail-on, --severity-override
// and the config, both ways.
std::optional<gltf::Severity> severity_from_name(std::string_view name);
std::string_view severity_word(gltf::Severity s);
// "off", "hint", "info", "warning".
std::optional<gltf::LintLevel> lint_level_from_name(std::string_view name);
std::string_view lint_level_name(gltf::LintLevel level);

// The longest code or glob a user may write (the config schema's maxLength
// says the same); the longest code is about half of it.
inline constexpr std::size_t kMaxCodePatternBytes = 128;

// A code or a glob (match_issue_codes): every code it names is never reported.
// An unknown code, or a glob that matches no code, is refused: a typo must not
// silently ignore nothing.
std::string ignore_codes(std::string_view pattern, gltf::IssueOptions& options);
// Every code `pattern` names is reported with `severity`; refused like ignore_codes.
std::string override_severity(std::string_view pattern, gltf::Severity severity,
                              gltf::IssueOptions& options);
// "CODE=N" with N in 0..3 (the command line's --severity-override).
std::string override_severity(std::string_view assignment, gltf::IssueOptions& options);
// Every opt-in lint `pattern` names is reported. Refused when it names no
// opt-in lint (a lint that is on by default needs no enabling).
std::string enable_lints(std::string_view pattern, gltf::IssueOptions& options);

}  // namespace gltf_anim::validator

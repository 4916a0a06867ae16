#pragma once
// Collects issues while validating one asset, applying the run's options
// (ignored codes, severity overrides, the issue limit) as they arrive.
#include <gltf_anim/gltf/issue.hpp>
#include <gltf_anim/gltf/issue_registry.hpp>
#include <gltf_anim/gltf/json_pointer.hpp>

#include <cstddef>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace gltf_anim::gltf {

// How severe a lint (Phase::kLint) may be reported: lints are advice, so by
// default at most information, and an asset without errors or warnings of the
// specs passes --fail-on warning. kOff: lints are not run.
enum class LintLevel { kOff, kHint, kInfo, kWarning };

// The lint policy of a run. A lint is reported when the level is not kOff and
// it is not opt-in or its code is in `opted_in`; with the severity of its
// registry row made no more severe than `level` (kWarning: the registry's own
// severity, a lint being never an error). A --severity-override of the code
// comes after and wins.
struct LintPolicy {
  LintLevel level = LintLevel::kInfo;
  std::set<std::string, std::less<>> opted_in;  // opt-in lints to report

  // Every lint at its registry severity, the opt-in ones included: what the
  // expected reports of conformance_assets/invalid/lint/ hold.
  static LintPolicy every_lint();
  // Whether this policy reports lint `type` (true for any type that is not a lint).
  bool reports(const IssueType& type) const;
  // `type`'s severity under this policy, before overrides.
  Severity severity(const IssueType& type) const;
};

struct IssueOptions {
  std::set<std::string, std::less<>> ignored;  // codes never reported
  std::map<std::string, Severity, std::less<>> severity_overrides;
  LintPolicy lints;
  std::size_t max_issues = 0;  // 0: unlimited
  // Bytes the stored issues may hold (their pointers, messages and records);
  // later issues are dropped and truncated() is set. 0: unlimited.
  std::size_t max_issue_bytes = kDefaultMaxIssueBytes;
  static constexpr std::size_t kDefaultMaxIssueBytes = std::size_t{64} << 20;

  // The severity this run reports `type` at: the lint policy's, then a
  // --severity-override of the code. The one answer for issues and for the
  // rules a report lists (SARIF's defaultConfiguration).
  Severity severity(const IssueType& type) const;
};

// A stored pointer or message longer than this is cut (on a UTF-8 code point
// boundary) and ends with kCutMark: a 20 KB key repeated in 100,000 pointers
// must not take 2 GB.
inline constexpr std::size_t kMaxIssueTextBytes = 1024;
inline constexpr std::string_view kCutMark = "...(cut)";
// Cuts `text` to at most max_bytes bytes (kCutMark included) without
// splitting a UTF-8 sequence.
void cut_issue_text(std::string& text, std::size_t max_bytes = kMaxIssueTextBytes);

class IssueCollector {
 public:
  explicit IssueCollector(IssueOptions options = {});

  // Records an issue. The code is checked against the registry when the call
  // site is compiled (IssueCode), so nothing is looked up here.
  void add(IssueCode code, const JsonPointer& at, std::initializer_list<std::string> args = {});
  void add(IssueCode code, std::string_view pointer, std::initializer_list<std::string> args = {});
  void add_at_offset(IssueCode code, std::uint64_t offset,
                     std::initializer_list<std::string> args = {});
  // A document-level issue (pointer "") at a place in the JSON text.
  void add_at_position(IssueCode code, const TextPosition& position,
                       std::initializer_list<std::string> args = {});

  // True once max_issues or max_issue_bytes was reached; later issues are dropped.
  bool truncated() const { return truncated_; }
  const std::vector<Issue>& issues() const { return issues_; }
  std::size_t count(Severity s) const;
  // Has an issue with this code been recorded (before the limit)?
  bool has(IssueCode code) const;
  // Would an issue with this code be kept (not ignored, and for a lint, on
  // under the lint policy)? Lets a rule skip work nobody will see.
  bool reports(IssueCode code) const;
  // Would any issue type of this phase be kept?
  bool reports_any(Phase phase) const;

 private:
  // Not ignored, and on under the lint policy.
  bool keeps(const IssueType& type) const;
  // Null when the issue is dropped (ignored code, lint off or a limit reached).
  const IssueType* admit(IssueCode code);
  void push(const IssueType& type, std::string_view pointer, std::optional<std::uint64_t> offset,
            std::initializer_list<std::string> args,
            std::optional<TextPosition> position = std::nullopt);

  IssueOptions options_;
  std::vector<Issue> issues_;
  std::size_t bytes_ = 0;  // held by issues_, as counted by push
  bool truncated_ = false;
};

// Fills {0}, {1}, ... of a registry message template. Each argument is
// repaired to valid UTF-8 and cut after kMaxArgumentBytes on a character
// boundary (marked with U+2026): arguments quote the input.
inline constexpr std::size_t kMaxArgumentBytes = 1024;
std::string format_message(std::string_view message_template,
                           std::initializer_list<std::string> args);

}  // namespace gltf_anim::gltf

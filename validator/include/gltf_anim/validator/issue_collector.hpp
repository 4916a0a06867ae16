#pragma once
// Collects issues while validating one asset, applying the run's options
// (ignored codes, severity overrides, the issue limit) as they arrive.
#include <gltf_anim/validator/issue.hpp>
#include <gltf_anim/validator/json_pointer.hpp>

#include <cstddef>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace gltf_anim::validator {

struct IssueOptions {
  std::set<std::string, std::less<>> ignored;                // codes never reported
  std::map<std::string, Severity, std::less<>> severity_overrides;
  std::size_t max_issues = 0;                                // 0: unlimited
};

class IssueCollector {
 public:
  explicit IssueCollector(IssueOptions options = {});

  // Records an issue of a registered code. An unregistered code is a
  // programming error: it throws std::logic_error so tests catch it.
  void add(std::string_view code, const JsonPointer& at,
           std::initializer_list<std::string> args = {});
  void add(std::string_view code, std::string_view pointer,
           std::initializer_list<std::string> args = {});
  void add_at_offset(std::string_view code, std::uint64_t offset,
                     std::initializer_list<std::string> args = {});
  // A document-level issue (pointer "") at a place in the JSON text.
  void add_at_position(std::string_view code, const TextPosition& position,
                       std::initializer_list<std::string> args = {});

  // True once max_issues was reached; later issues are dropped.
  bool truncated() const { return truncated_; }
  const std::vector<Issue>& issues() const { return issues_; }
  std::size_t count(Severity s) const;
  // Has an issue with this code been recorded (before the limit)?
  bool has(std::string_view code) const;

 private:
  void push(const IssueType& type, std::string pointer, std::optional<std::uint64_t> offset,
            std::initializer_list<std::string> args,
            std::optional<TextPosition> position = std::nullopt);

  IssueOptions options_;
  std::vector<Issue> issues_;
  bool truncated_ = false;
};

// Fills {0}, {1}, ... of a registry message template. Each argument is
// repaired to valid UTF-8 and cut after kMaxArgumentBytes on a character
// boundary (marked with U+2026): arguments quote the input.
inline constexpr std::size_t kMaxArgumentBytes = 1024;
std::string format_message(std::string_view message_template,
                           std::initializer_list<std::string> args);

}  // namespace gltf_anim::validator

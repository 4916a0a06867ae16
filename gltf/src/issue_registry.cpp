// The registry's functions; the table itself is in issue_registry.hpp.
#include <gltf_anim/gltf/issue_registry.hpp>

#include <iterator>

namespace gltf_anim::gltf {

using registry::kIssueTypes;

// Rows are found by code: two rows with one code would make the second unreachable.
consteval bool codes_are_unique() {
  for (std::size_t i = 0; i < std::size(kIssueTypes); ++i) {
    for (std::size_t j = i + 1; j < std::size(kIssueTypes); ++j) {
      if (kIssueTypes[i].code == kIssueTypes[j].code) return false;
    }
  }
  return true;
}
static_assert(codes_are_unique(), "two rows of the issue registry have the same code");

std::span<const IssueType> issue_types() { return kIssueTypes; }

const IssueType* find_issue_type(std::string_view code) {
  for (const IssueType& t : kIssueTypes) {
    if (t.code == code) return &t;
  }
  return nullptr;
}

bool is_code_glob(std::string_view pattern) {
  return pattern.find_first_of("*?") != std::string_view::npos;
}

namespace {

// Glob match with '*' and '?'. The classic single-backtrack walk: on a
// mismatch after a '*', that star absorbs one more character. Time is
// O(|pattern| x |code|) at worst; codes are short and patterns come from the
// user's command line or config.
bool glob_matches(std::string_view pattern, std::string_view code) {
  std::size_t p = 0, c = 0;
  std::size_t star = std::string_view::npos, resume = 0;
  while (c < code.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == code[c])) {
      ++p;
      ++c;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = c;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      c = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace

std::vector<const IssueType*> match_issue_codes(std::string_view pattern) {
  std::vector<const IssueType*> out;
  if (!is_code_glob(pattern)) {
    if (const IssueType* t = find_issue_type(pattern)) out.push_back(t);
    return out;
  }
  for (const IssueType& t : kIssueTypes) {
    if (glob_matches(pattern, t.code)) out.push_back(&t);
  }
  return out;
}

std::span<const std::string_view> found_by_names(FoundBy f) {
  static constexpr std::string_view kNames[] = {"gltf-anim", "glTF-Validator"};
  switch (f) {
    case FoundBy::kGltfAnim: return {kNames, 1};
    case FoundBy::kGltfValidator: return {kNames + 1, 1};
    case FoundBy::kBoth: return kNames;
  }
  return {kNames, 1};
}

std::string_view severity_name(Severity s) {
  switch (s) {
    case Severity::kError: return "Error";
    case Severity::kWarning: return "Warning";
    case Severity::kInfo: return "Information";
    case Severity::kHint: return "Hint";
  }
  return "Unknown";
}

std::string_view phase_name(Phase p) {
  switch (p) {
    case Phase::kIo: return "io";
    case Phase::kGlb: return "glb";
    case Phase::kJson: return "json";
    case Phase::kSchema: return "schema";
    case Phase::kLink: return "link";
    case Phase::kSemantic: return "semantic";
    case Phase::kData: return "data";
    case Phase::kLint: return "lint";
  }
  return "unknown";
}

}  // namespace gltf_anim::gltf

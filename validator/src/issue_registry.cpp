// The registry: every issue code the validator can raise, in one table.
// docs/ISSUE_CODES.md is generated from this table (gltf-anim codes --format md)
// and a test fails when the checked-in copy is stale.
//
// Codes shared with glTF-Validator keep its name, default severity and pointer
// conventions (../shared/specs/validator-codes.md); our own codes say so in `rule`.
#include <gltf_anim/validator/issue.hpp>

#include <algorithm>
#include <array>

namespace gltf_anim::validator {
namespace {

using S = Severity;
using P = Phase;

// Keep grouped by phase; within a phase, alphabetical.
constexpr IssueType kIssueTypes[] = {
    // ---- io -------------------------------------------------------------
    {"IO_ERROR", S::kError, P::kIo, "Resource not found ({0}).",
     "A file or external resource could not be read.",
     "glTF 2.0 3.6.1 (URIs)"},
};

}  // namespace

std::span<const IssueType> issue_types() { return kIssueTypes; }

const IssueType* find_issue_type(std::string_view code) {
  for (const IssueType& t : kIssueTypes) {
    if (t.code == code) return &t;
  }
  return nullptr;
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

}  // namespace gltf_anim::validator

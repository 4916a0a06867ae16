#pragma once
// Issues: what the validator reports. An IssueType is a row of the registry
// (issue_registry.hpp, the one place where codes, severities and messages live);
// an Issue is one occurrence of it at a JSON pointer (or, for GLB container
// problems, a byte offset), in the shape of glTF-Validator's report messages.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gltf_anim::gltf {

// Numbers as in glTF-Validator's reports: 0 error ... 3 hint.
enum class Severity : int { kError = 0, kWarning = 1, kInfo = 2, kHint = 3 };

// The phase that raises an issue type; also the grouping of docs/ISSUE_CODES.md.
// kLint is also a category: a lint is advice beyond the specs, never an error,
// reported under the run's lint policy (IssueOptions::lints).
enum class Phase { kIo, kGlb, kJson, kSchema, kLink, kSemantic, kData, kLint };

// Whether an issue type is reported without being asked for. Only a lint can
// be opt-in (a noisy one: docs/VALIDATOR.md "Lints" says which and why);
// registry_problem() rejects anything else while compiling.
enum class Enablement { kDefault, kOptIn };

struct IssueType {
  std::string_view code;  // UPPER_SNAKE, stable forever once released
  Severity severity;      // default severity; overridable per run
  Phase phase;
  std::string_view message;  // template: {0}, {1}, ... are replaced by arguments
  std::string_view rule;     // what is checked, in one sentence
  std::string_view spec;     // the spec sentence or section it enforces
  Enablement enablement = Enablement::kDefault;  // kOptIn: lints only
};

// All registered issue types, in registry order.
std::span<const IssueType> issue_types();
// nullptr when the code is not registered.
const IssueType* find_issue_type(std::string_view code);
std::string_view severity_name(Severity s);  // "Error", "Warning", "Information", "Hint"
std::string_view phase_name(Phase p);

// The registered codes that `pattern` names: itself when it is a code, or the
// codes it matches when it is a glob ('*' any run of characters, '?' one
// character; case-sensitive, as codes are UPPER_SNAKE). In registry order;
// empty when nothing matches.
std::vector<const IssueType*> match_issue_codes(std::string_view pattern);
// True when `pattern` has a glob character ('*' or '?').
bool is_code_glob(std::string_view pattern);

// Where an issue is in the JSON text, for editors and SARIF: a JSON syntax
// error's place, or where the value at the issue's pointer starts (located at
// validation time from the text the loader holds). 1-based line and column
// within the JSON text (a line ends at '\n', so "\r\n" too; a column counts
// Unicode code points, a tab being one), and the byte offset in the file. For
// a GLB the line and column count within its JSON chunk.
struct TextPosition {
  std::uint64_t line = 1;
  std::uint64_t column = 1;
  std::uint64_t byte_offset = 0;
  bool in_glb_chunk = false;
};

// Which tool found an issue: ours, glTF-Validator (a report folded in with
// --merge-gltf-validator), or both (the same code at the same place).
enum class FoundBy { kGltfAnim, kGltfValidator, kBoth };
// The tools' names, as reports list them: {"gltf-anim"}, {"glTF-Validator"} or both.
std::span<const std::string_view> found_by_names(FoundBy f);

struct Issue {
  std::string_view code;                // points into the registry (static storage)
  Severity severity;                    // after overrides
  std::string message;                  // template with arguments filled in
  std::string pointer;                  // RFC 6901; "" for the document; empty when offset is set
  std::optional<std::uint64_t> offset;  // byte offset, GLB container issues only
  // A JSON syntax error's place (pointer ""; the message says it in words
  // too), or where the value at `pointer` starts; unset when the text holds no
  // value there (a missing member) or the issue is at a byte offset.
  std::optional<TextPosition> position = std::nullopt;
  FoundBy found_by = FoundBy::kGltfAnim;
  // The values of the message template's {0}, {1}, ... in order, each cut as in
  // the message, so that a reader (the page's markers at keys) takes a key's
  // index from them instead of parsing the English: read and set them with
  // issue_arguments / set_issue_arguments. False for a finding of glTF-Validator's,
  // whose reports carry the message only.
  bool has_arguments = false;
  // Packed in one string (each argument's length as LEB128, then its bytes): a
  // report keeps up to --max-issues issues, and typical arguments ("3", "JSON
  // object") then fit in the string itself, with no allocation an issue.
  std::string packed_arguments = {};
};

// An issue's template arguments; nullopt when it has none recorded.
std::optional<std::vector<std::string>> issue_arguments(const Issue& issue);
void set_issue_arguments(Issue& issue, std::span<const std::string> arguments);

}  // namespace gltf_anim::gltf

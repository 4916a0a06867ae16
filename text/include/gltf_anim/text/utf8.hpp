#pragma once
// UTF-8 for text that reaches a report: file names, member names, string
// values and messages quoting them come from untrusted input, while every
// report format must stay valid UTF-8. The report writers (reports/) repair
// with these functions before their per-format escaping; the loader uses them
// to refuse JSON strings that decode to something that is not UTF-8.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gltf_anim::text {

// U+FFFD REPLACEMENT CHARACTER, what an invalid sequence becomes.
inline constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
// U+2026 HORIZONTAL ELLIPSIS, what marks a shortened quote.
inline constexpr std::string_view kEllipsis = "\xE2\x80\xA6";

// One decoded code point of a UTF-8 text: `length` bytes starting at the
// position asked for. `length` 0 means the bytes there are not valid UTF-8
// (RFC 3629: no overlong forms, no surrogates D800-DFFF, nothing above
// U+10FFFF); `invalid_length` is then the maximal subpart to replace by one
// U+FFFD (Unicode's "substitution of maximal subparts", what browsers do).
struct CodePoint {
  char32_t value = 0;
  std::size_t length = 0;
  std::size_t invalid_length = 1;
};
CodePoint decode_utf8(std::string_view s, std::size_t at);

// Byte offset of the first invalid sequence, or npos when `s` is valid UTF-8.
std::size_t first_invalid_utf8(std::string_view s);
inline bool is_valid_utf8(std::string_view s) { return first_invalid_utf8(s) == std::string_view::npos; }

// `s` with each invalid sequence replaced by U+FFFD; valid text unchanged.
void append_repaired_utf8(std::string& out, std::string_view s);
std::string repair_utf8(std::string_view s);

// At most `max_bytes` bytes of `s` (repaired), cut at a code-point boundary;
// when something was cut, `mark` is appended (so the result may exceed
// max_bytes by the mark's size).
std::string truncate_utf8(std::string_view s, std::size_t max_bytes, std::string_view mark = kEllipsis);

}  // namespace gltf_anim::text

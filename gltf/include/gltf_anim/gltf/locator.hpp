#pragma once
// The locator: where the value at a JSON pointer lies in a JSON text, as a byte
// range with the line and column of both ends, and, for an object member,
// where its name lies. Reports point editors and code-scanning views at it;
// the writer splices an edited value into exactly that range.
//
// It reads the text the loader already holds (a .gltf file, or a GLB's JSON
// chunk: its places count within the chunk, the file offset is the caller's to
// add). One pass over the text, whatever the number of pointers; no recursion
// (an explicit stack, one entry per open container); no regular expression.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gltf_anim::gltf {

// A place in a JSON text: its byte offset, and the 1-based line and column
// there. A line ends at '\n' (so "\r\n" too); a column counts Unicode code
// points (the bytes that are not UTF-8 continuation bytes, a tab being one),
// as SARIF's columnKind "unicodeCodePoints" says.
struct TextPlace {
  std::uint64_t byte = 0;
  std::uint64_t line = 1;
  std::uint64_t column = 1;
  friend bool operator==(const TextPlace&, const TextPlace&) = default;
};

// The bytes [begin.byte, end.byte) of the text; `end` is the place just after
// the last byte (after the closing quote or bracket).
struct TextRange {
  TextPlace begin;
  TextPlace end;
  friend bool operator==(const TextRange&, const TextRange&) = default;
};

struct Location {
  TextRange value;  // the value, from its first character to its last
  // The member name with its quotes, when the value is an object member
  // (not for the document or an array element).
  std::optional<TextRange> name;
  friend bool operator==(const Location&, const Location&) = default;
};

// One answer per pointer, in the order given: nullopt when the text holds no
// value there, the pointer is not RFC 6901 ("" is the document, anything else
// starts with '/'; '~' only in "~0" and "~1"), or the text breaks before the
// value ends. An array index matches only in its canonical decimal form. A
// pointer is found at its first occurrence in the text: when an object names
// a member twice, the first one (as the parsed document's member lookup); a
// pointer below it is found below the second only when the first has no such
// value. Linear in the text plus the pointers; memory is the open containers
// and a fixed amount per distinct pointer, whatever its length.
std::vector<std::optional<Location>> locate(std::string_view json,
                                            std::span<const std::string> pointers);
std::optional<Location> locate(std::string_view json, std::string_view pointer);

}  // namespace gltf_anim::gltf

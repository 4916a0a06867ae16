// Names JSON syntax errors the way a person editing the file thinks of them.
// RapidJSON reports a code and the offset where it stopped; the usual mistakes
// (JSON5 habits, a file cut short) are recognised from the bytes there.
#include <gltf_anim/gltf/json_syntax.hpp>

#include <rapidjson/error/en.h>

#include <cstdio>

namespace gltf_anim::gltf {

namespace {

bool is_json_whitespace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// Case-insensitive: does `text` hold `word` at `at`?
bool word_at(std::string_view text, std::size_t at, std::string_view word) {
  if (at > text.size() || text.size() - at < word.size()) return false;
  for (std::size_t k = 0; k < word.size(); ++k) {
    if (lower(text[at + k]) != word[k]) return false;
  }
  return true;
}

// NaN, Infinity, -Infinity, +Infinity (any case) starting at `at`.
bool non_finite_literal_at(std::string_view text, std::size_t at) {
  if (at < text.size() && (text[at] == '-' || text[at] == '+')) ++at;
  return word_at(text, at, "nan") || word_at(text, at, "inf");
}

std::string hex_code_point(unsigned char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(c));
  return buf;
}

}  // namespace

TextPosition text_position(std::string_view text, std::size_t offset) {
  if (offset > text.size()) offset = text.size();
  TextPosition p;
  p.byte_offset = offset;
  for (std::size_t k = 0; k < offset; ++k) {
    const auto c = static_cast<unsigned char>(text[k]);
    if (c == '\n') {
      ++p.line;
      p.column = 1;
    } else if ((c & 0xC0) != 0x80) {
      ++p.column;
    }
  }
  return p;
}

std::string line_column_text(const TextPosition& position) {
  return "line " + std::to_string(position.line) + ", column " + std::to_string(position.column);
}

std::string describe_json_error(std::string_view text, std::size_t offset,
                                rapidjson::ParseErrorCode code) {
  if (offset > text.size()) offset = text.size();
  if (offset == 0 && text.substr(0, 3) == "\xEF\xBB\xBF") {
    return "UTF-8 byte order mark at the start: glTF JSON is written without one";
  }
  if (offset == text.size()) {
    if (code == rapidjson::kParseErrorDocumentEmpty)
      return "The document is empty (only whitespace).";
    return "The JSON text ends before the document is complete: it is cut short, or a '{', '[' or "
           "string is never closed.";
  }
  const char c = text[offset];
  const char next = offset + 1 < text.size() ? text[offset + 1] : '\0';
  if (c == '/' && (next == '/' || next == '*')) {
    return "Comments ('//' or '/* */') are not allowed in JSON.";
  }
  if (c == '}' || c == ']') {
    std::size_t k = offset;
    while (k > 0 && is_json_whitespace(text[k - 1])) --k;
    if (k > 0 && text[k - 1] == ',') {
      return std::string("Trailing comma before '") + c +
             "': JSON allows no comma after the last " +
             (c == '}' ? "member of an object." : "element of an array.");
    }
  }
  if (c == '\'')
    return "Single quotes are not allowed in JSON: strings and member names use double quotes.";
  // RapidJSON stops inside the token: after the sign of "-Infinity", after the
  // 'n' of "nan" (read as the start of null).
  if (non_finite_literal_at(text, offset) ||
      (offset > 0 && non_finite_literal_at(text, offset - 1))) {
    return "NaN and Infinity are not JSON numbers (JSON has only finite numbers).";
  }
  const auto u = static_cast<unsigned char>(c);
  // RapidJSON names a raw control character in a string an invalid escape or
  // encoding, depending on the version.
  if (u < 0x20 && (code == rapidjson::kParseErrorStringInvalidEncoding ||
                   code == rapidjson::kParseErrorStringEscapeInvalid)) {
    return "Raw control character " + hex_code_point(u) +
           " in a string: JSON writes it as an escape (\\n, \\t, \\u00XX).";
  }
  if (code == rapidjson::kParseErrorStringInvalidEncoding) {
    return "Invalid UTF-8 in a string: glTF JSON must be UTF-8 (was the file saved as Latin-1?).";
  }
  if (code == rapidjson::kParseErrorObjectMissName &&
      ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$')) {
    return "Member names must be strings in double quotes.";
  }
  if (code == rapidjson::kParseErrorDocumentEmpty) {
    // RapidJSON says "empty" for any first character that cannot start a value.
    return "Invalid value at the start: a glTF file is a JSON object starting with '{'.";
  }
  return rapidjson::GetParseError_En(code);
}

}  // namespace gltf_anim::gltf

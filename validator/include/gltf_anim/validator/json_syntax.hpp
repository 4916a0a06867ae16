#pragma once
// Words for JSON syntax errors, shared by every reader of JSON text (glTF
// assets, samples files): where the error is as a line and column, and what
// the mistake is when it is one of the usual hand-editing ones.
#include <gltf_anim/validator/issue.hpp>

#include <rapidjson/error/error.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace gltf_anim::validator {

// 1-based line and column of byte `offset` of `text` (clamped to its size).
// A line ends at '\n' (so "\r\n" too); a column counts Unicode code points,
// i.e. the bytes that are not UTF-8 continuation bytes, a tab being one. Linear
// in `offset`; byte_offset is `offset` and in_glb_chunk false.
TextPosition text_position(std::string_view text, std::size_t offset);

// "line 3, column 7"
std::string line_column_text(const TextPosition& position);

// What went wrong where RapidJSON stopped with `code` at byte `offset` of
// `text`. Names a trailing comma, a comment, single quotes, NaN or Infinity,
// an unquoted member name, a raw control character in a string, text that ends
// early and a UTF-8 byte order mark; otherwise RapidJSON's own sentence. Reads
// only a few bytes around `offset` (and back over whitespace for a comma).
std::string describe_json_error(std::string_view text, std::size_t offset, rapidjson::ParseErrorCode code);

}  // namespace gltf_anim::validator

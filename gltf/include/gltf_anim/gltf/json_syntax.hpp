#pragma once
// Words for JSON syntax errors, shared by every reader of JSON text (glTF
// assets, samples files): where the error is as a line and column, and what
// the mistake is when it is one of the usual hand-editing ones; and the one
// bounded parser of JSON text (the loader's; the validator reads its config
// files and glTF-Validator's reports with it too). Internal: not installed.
#include <gltf_anim/gltf/issue.hpp>
#include <gltf_anim/gltf/issue_collector.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <rapidjson/error/error.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace gltf_anim::gltf {

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
std::string describe_json_error(std::string_view text, std::size_t offset,
                                rapidjson::ParseErrorCode code);

// Parses `text` (UTF-8 validated, iterative, full-precision numbers, depth
// and value-count limited; JSON_TOO_MANY_VALUES past max_values). On failure: INVALID_JSON at ""
// (the message carries the byte offset within `text`) and nullptr.
std::unique_ptr<gltf_anim::json::Document> parse_json(std::span<const std::uint8_t> text,
                                                      std::uint64_t file_offset,
                                                      std::size_t max_depth, std::size_t max_values,
                                                      IssueCollector& issues);
// JSON_DUPLICATE_KEY for every object member name seen twice (iterative walk).
void check_duplicate_keys(const gltf_anim::json::Value& root, IssueCollector& issues);

}  // namespace gltf_anim::gltf

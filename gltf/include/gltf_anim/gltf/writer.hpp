#pragma once
// The faithful writer: an asset written back is the bytes it was read from,
// except where an edit changed something. Edits become splices at the byte
// ranges the locator (locator.hpp) found, so unknown extensions, extras,
// whitespace, number spellings and member order survive untouched; a GLB
// keeps its header, every chunk it does not replace and their order.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gltf_anim::gltf {

// The bytes [begin, end) of a text become `text`.
struct Splice {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::string text;
};

// The value at `pointer` (RFC 6901) becomes `value`, JSON text written as given.
struct ValueEdit {
  std::string pointer;
  std::string value;
};

// `json` with `splices` applied, every other byte copied. nullopt, with the
// reason in `why`, when a splice leaves the text or splices are not in order
// of `begin` or overlap. Linear in the text and the splices.
std::optional<std::string> apply_splices(std::string_view json, std::span<const Splice> splices,
                                         std::string& why);

// The splices that make `edits` (one pass of the locator, whatever their
// number), in text order. nullopt, with the pointer in `why`, when one names
// no value in `json` or two name the same value or one inside another.
std::optional<std::vector<Splice>> splices_for(std::string_view json,
                                               std::span<const ValueEdit> edits, std::string& why);

// A GLB `file` with its JSON chunk's data replaced by `json` (padded with
// spaces to a multiple of 4 bytes, as the spec asks) and, when `bin` is given,
// its BIN chunk's data by `bin` (padded with zeros; a BIN chunk is added after
// the JSON chunk when there was none); the header, every other chunk and
// their order kept; the header's and the replaced chunks' lengths rewritten.
// The same JSON and no `bin` give `file` back byte for byte. nullopt, with the
// reason, when `file` is not a GLB whose chunks fit its length, or the result
// would pass 4 GiB.
std::optional<std::vector<std::uint8_t>> write_glb(std::span<const std::uint8_t> file,
                                                   std::string_view json,
                                                   std::optional<std::span<const std::uint8_t>> bin,
                                                   std::string& why);

}  // namespace gltf_anim::gltf

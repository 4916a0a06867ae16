#pragma once
// Loader internals shared by the files of src/load/. Not installed.
#include <gltf_anim/gltf/asset.hpp>
#include <gltf_anim/gltf/issue_collector.hpp>
#include <gltf_anim/gltf/load.hpp>
#include <gltf_anim/io/input_files.hpp>
#include <gltf_anim/io/output_file.hpp>
#include <gltf_anim/io/resource_reader.hpp>
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/gltf/json_syntax.hpp>

#include <rapidjson/document.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gltf_anim::gltf {

using io::ByteStorage;
using io::ReadResult;

// Gives load_* access to the asset's private storage.
struct LoaderAccess {
  static std::span<const std::uint8_t> keep(LoadedAsset& asset, std::unique_ptr<ByteStorage> s) {
    std::span<const std::uint8_t> view = s->bytes();
    asset.storage_.push_back(std::move(s));
    return view;
  }
};

// ---- GLB ------------------------------------------------------------------
struct GlbChunks {
  bool header_ok = false;  // magic and version 2; otherwise nothing else is known
  std::optional<std::span<const std::uint8_t>> json;
  std::uint64_t json_offset = 0;  // file offset of the JSON chunk's data
  std::optional<std::span<const std::uint8_t>> bin;
};
inline constexpr std::uint32_t kGlbMagic = 0x46546C67;   // "glTF"
inline constexpr std::uint32_t kChunkJson = 0x4E4F534A;  // "JSON"
inline constexpr std::uint32_t kChunkBin = 0x004E4942;   // "BIN\0"
bool looks_like_glb(std::span<const std::uint8_t> bytes);
GlbChunks read_glb(std::span<const std::uint8_t> bytes, IssueCollector& issues);
// For a file that should be a GLB (its name ends in .glb) but has no "glTF"
// magic: one GLB_INVALID_MAGIC saying what the bytes look like, or
// GLB_UNEXPECTED_END_OF_HEADER when it is shorter than the magic.
void report_missing_glb_magic(std::span<const std::uint8_t> bytes, IssueCollector& issues);

// ---- what the input is (detect.cpp) -------------------------------------------
// "UTF-16 (little-endian)" etc. when the bytes are JSON text in UTF-16 or
// UTF-32 (a BOM, or the zero bytes of a widened ASCII '{'); glTF needs UTF-8.
std::optional<std::string> wide_text_encoding(std::span<const std::uint8_t> bytes);
// True for text: after an optional UTF-8 BOM and whitespace the first byte is
// '{', or another printable ASCII byte with no control byte but tab, LF and
// CR in the first 4 KiB, or there is none. Anything else is binary data: never
// JSON, and not a GLB when the magic is missing.
bool looks_like_text(std::span<const std::uint8_t> bytes);
// For a Git LFS pointer file (a repository's stand-in for a large file: text
// starting "version https://git-lfs.github.com/spec/v1"): what it points at,
// "an object of N bytes" (or "an object of unknown size"); else nothing.
std::optional<std::string> git_lfs_pointer(std::span<const std::uint8_t> bytes);
// What binary data looks like, for messages: "a PNG image", "a ZIP archive",
// ..., else "binary data (first bytes 00 00 80 3F)".
std::string describe_binary(std::span<const std::uint8_t> bytes);

// ---- URIs -------------------------------------------------------------------
// RFC 3986 scheme (letters, digits, + - . after a letter, then ':'), or "".
std::string_view uri_scheme(std::string_view uri);
// decode_uri_path: <gltf_anim/gltf/load.hpp>.
// The octets of a data URI's payload written without ';base64' (RFC 2397:
// "the data is represented using ASCII encoding for octets inside the range of
// safe URL characters and using the standard %xx hex encoding of URLs for
// octets outside that range"). nullopt at a '%' not followed by two hex
// digits, with `error_at` its index.
std::optional<std::vector<std::uint8_t>> decode_percent_octets(std::string_view text,
                                                               std::size_t& error_at);

// ---- views and layout --------------------------------------------------------
void build_views(LoadedAsset& asset);
// EXT_/KHR_meshopt_compression (meshopt.cpp): checks the extension objects and fallback
// buffers and decodes the compressed bufferViews accessors read into buffer_view_data (at most
// max_decoded_bytes together); its findings go to loader_findings. Returns per bufferView the
// status of its decoded bytes, nullopt for a bufferView without compression.
std::vector<std::optional<DataStatus>> decode_compressed_views(LoadedAsset& asset,
                                                               std::uint64_t max_decoded_bytes);
// KHR_meshopt_compression's version 1 attribute stream (header 0xa1) into `out` (count x
// stride bytes), which meshoptimizer 0.18 cannot decode (meshopt_v1.cpp). nullopt on success,
// else why the stream is invalid.
std::optional<std::string> decode_meshopt_attributes_v1(std::uint8_t* out, std::size_t count,
                                                        std::size_t stride,
                                                        std::span<const std::uint8_t> stream);
// The one layout pass: sets buffer_view_status, accessor_status and
// layout_findings (reported later by check_buffers_and_accessors). `compressed`
// is what decode_compressed_views returned (empty: no bufferView is compressed).
void analyze_layout(LoadedAsset& asset,
                    const std::vector<std::optional<DataStatus>>& compressed = {});

// Overflow-safe helpers for untrusted 64-bit numbers.
inline bool add_overflows(std::uint64_t a, std::uint64_t b, std::uint64_t& out) {
  return __builtin_add_overflow(a, b, &out);
}
inline bool mul_overflows(std::uint64_t a, std::uint64_t b, std::uint64_t& out) {
  return __builtin_mul_overflow(a, b, &out);
}

}  // namespace gltf_anim::gltf

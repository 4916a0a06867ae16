#pragma once
// Loading a glTF asset: container, JSON, buffers, and the layout of accessors.
//
// load_file / load_bytes do, in order:
//  1. read the input once into memory (never mapped: see files.cpp), refusing
//     anything above max_file_bytes before reading it (io phase);
//  2. detect the container: bytes starting with "glTF" are GLB (header, JSON
//     chunk first, optional BIN chunk, unknown chunks skipped; every length
//     compared against what remains of the file, never added), anything else is
//     JSON text (glb phase, issues at byte offsets);
//  3. parse the JSON with RapidJSON, iteratively, validating UTF-8 and with
//     a nesting limit; any failure is one INVALID_JSON at pointer "" and a null
//     document (json phase); more than max_json_values values is
//     JSON_TOO_MANY_VALUES. Duplicate member names are JSON_DUPLICATE_KEY;
//  4. build the tolerant views of buffers, bufferViews and accessors (no
//     issues: the JSON-Schema check owns type errors);
//  5. load every buffer: GLB BIN chunk, data: URI (strict base64), or a relative
//     resource read through options.resources (by default the files inside
//     options.root); every refusal is an issue at /buffers/i/uri;
//  6. analyse the layout of every bufferView and accessor, once: its status
//     and the problems found (LoadedAsset::layout_findings; no issues yet).
//
// load_* never throws on bad input and always returns an asset the rules can
// walk. The link-phase layout issues (ACCESSOR_TOO_LONG, BUFFER_VIEW_TOO_LONG,
// alignment, stride, sparse layout, UNRESOLVED_REFERENCE of accessor.bufferView,
// sparse bufferViews and bufferView.buffer) are NOT raised by load_*: call
// check_buffers_and_accessors once, at the point of the link phase where the
// report wants them (glTF-Validator links bufferViews, then accessors, before
// meshes/nodes/animations). It reports the findings load_* recorded, so its
// issues and the stored statuses come from the same single analysis.
//
// Safety by default: no URI with a scheme other than data: is followed, no
// absolute path, no path resolving (after symlinks) outside options.root, only
// regular files are opened (a FIFO is detected without blocking), and nothing
// here opens a socket. The loader opens no file itself: every byte comes
// through io/ (io::ResourceReader for external buffers).
#include <gltf_anim/io/resource_reader.hpp>
#include <gltf_anim/gltf/asset.hpp>
#include <gltf_anim/gltf/issue_collector.hpp>
#include <gltf_anim/io/input_files.hpp>
#include <gltf_anim/io/output_file.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace gltf_anim::gltf {

struct LoadOptions {
  // Where external buffers come from: their relative URIs, percent-decoded,
  // are read through this reader (a MemoryReader for the files a web page was
  // handed, for instance). Null: an io::FolderReader over the asset's folder
  // (load_file) or base_dir (load_bytes), confined to `root`, recording into
  // `inputs`.
  const io::ResourceReader* resources = nullptr;
  // External buffers may only resolve inside this folder. Empty: the folder of
  // the asset (load_file) or base_dir (load_bytes). Unused with `resources`.
  std::filesystem::path root;
  // Largest input accepted, for the asset itself and for each external buffer;
  // checked (stat) before any byte is read.
  std::uint64_t max_file_bytes = std::uint64_t{1} << 30;  // 1 GiB
  // load_bytes keeps a view of the bytes it is given instead of its own copy: the caller
  // keeps them alive, unchanged, as long as the asset (the repair tools, which hold their
  // input and output in memory already: a 342 MB asset is not held twice).
  bool borrow_bytes = false;
  // Deepest JSON nesting accepted (objects + arrays). glTF needs about 10.
  std::size_t max_json_depth = 64;
  // Most JSON values (numbers, strings, members, ...) accepted. Each costs 16 to
  // 32 bytes of parsed document, so a file of "0,0,0,..." would otherwise grow
  // eight-fold in memory. 2^24 bounds the document near 512 MiB; real assets
  // keep animation data in buffers and need far fewer (100,000 channels use
  // about 10^6).
  std::size_t max_json_values = std::size_t{1} << 24;
  // false: do not load buffers at all (no data checks possible); the JSON and
  // the container are still checked.
  bool load_buffers = true;
  // When set, every file opened (the asset and its external buffers) is
  // recorded here, so a command can refuse an output that is one of them.
  io::InputFiles* inputs =
      nullptr;  // When set (load_file), the asset is opened beneath this folder with the
  // kernel's confinement (openat2 RESOLVE_BENEATH), as for external buffers: a
  // file that folder mode listed as regular and that was swapped for a link out
  // of the folder before it was opened is refused (IO_ERROR), never read.
  std::filesystem::path asset_folder;
};

// Loads the asset at `path`. The report uri is `path` as given.
// IO_ERROR at "" when the file cannot be opened or is not a regular file.
LoadedAsset load_file(const std::filesystem::path& path, const LoadOptions& options,
                      IssueCollector& issues);

// Loads an asset already in memory (the CLI's "-" for standard input, a file
// a web page was handed). The bytes are copied once into the asset (not with
// options.borrow_bytes). Relative
// buffer URIs are read through options.resources, else resolve against
// `base_dir` (no external buffer is loaded when both are empty).
LoadedAsset load_bytes(std::span<const std::uint8_t> bytes, std::string uri_for_report,
                       const std::filesystem::path& base_dir, const LoadOptions& options,
                       IssueCollector& issues);

// Raises the link-phase issues the loader's layout pass recorded
// (LoadedAsset::layout_findings), bufferViews (in index order) then accessors
// (in index order), each problem once, with glTF-Validator's codes and pointers:
//   /bufferViews/i/buffer            UNRESOLVED_REFERENCE
//   /bufferViews/i/byteLength        BUFFER_VIEW_TOO_LONG
//   /bufferViews/i/byteStride        BUFFER_VIEW_TOO_BIG_BYTE_STRIDE
//   /accessors/i/bufferView          UNRESOLVED_REFERENCE, ACCESSOR_SMALL_BYTESTRIDE
//   /accessors/i/byteOffset          ACCESSOR_OFFSET_ALIGNMENT, ACCESSOR_TOTAL_OFFSET_ALIGNMENT,
//                                    ACCESSOR_TOO_LONG
//   /accessors/i/sparse/count        ACCESSOR_SPARSE_COUNT_OUT_OF_RANGE
//   /accessors/i/sparse/{indices,values}/bufferView   UNRESOLVED_REFERENCE
//   /accessors/i/sparse/{indices,values}/byteOffset   ACCESSOR_TOO_LONG, ACCESSOR_OFFSET_ALIGNMENT
// Malformed objects are skipped silently (the schema check reported them).
// The data-phase sparse checks (ACCESSOR_SPARSE_INDICES_NON_INCREASING,
// ACCESSOR_SPARSE_INDEX_OOB) need the bytes and are raised by AccessorReader.
void check_buffers_and_accessors(const LoadedAsset& asset, IssueCollector& issues);

// A relative URI reference as the loader reads it: its path percent-decoded (query and
// fragment dropped); nullopt when a '%' is not followed by two hex digits or decodes to
// NUL. The one decoder of the project: tools that name the files an asset refers to
// (the repair tools' inputs) resolve them as the loader does.
std::optional<std::string> decode_uri_path(std::string_view uri);

}  // namespace gltf_anim::gltf

// load_file / load_bytes: container, JSON, views, buffers, layout statuses.
#include "load/internal.hpp"

#include <gltf_anim/text/base64.hpp>
#include <gltf_anim/text/utf8.hpp>

#include <algorithm>
#include <optional>
#include <system_error>

namespace gltf_anim::gltf {

namespace {

namespace fs = std::filesystem;

// Data URIs can be megabytes long; messages quote only their start.
std::string short_uri(std::string_view uri) { return text::truncate_utf8(uri, 64); }

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           const auto lx = static_cast<char>((x >= 'A' && x <= 'Z') ? x - 'A' + 'a' : x);
           const auto ly = static_cast<char>((y >= 'A' && y <= 'Z') ? y - 'A' + 'a' : y);
           return lx == ly;
         });
}

bool named_glb(std::string_view name) {
  return name.size() >= 4 && iequals(name.substr(name.size() - 4), ".glb");
}

class Loader {
 public:
  Loader(LoadedAsset& asset, const LoadOptions& options, fs::path base_dir, IssueCollector& issues)
      : asset_(asset), options_(options), issues_(issues) {
    if (options.resources != nullptr) {
      resources_ = options.resources;
    } else if (!base_dir.empty()) {
      folder_.emplace(std::move(base_dir), options.root, options.inputs);
      resources_ = &*folder_;
    }
  }

  // `bytes` must outlive the asset when it is GLB (the caller keeps it in storage).
  // `named_glb`: the file name ends in .glb, so binary data without the magic
  // is a broken GLB rather than some other file.
  void run(std::span<const std::uint8_t> bytes, bool named_glb) {
    std::optional<std::span<const std::uint8_t>> bin;
    const bool glb = looks_like_glb(bytes);
    if (glb) {
      GlbChunks chunks = read_glb(bytes, issues_);
      if (!chunks.header_ok || !chunks.json) return;
      asset_.document = parse_json(*chunks.json, chunks.json_offset, options_.max_json_depth,
                                   options_.max_json_values, issues_);
      keep_json_text(*chunks.json, chunks.json_offset);
      bin = chunks.bin;
    } else {
      // One issue for what the input is, rather than a JSON parser's view of it.
      if (const auto lfs = git_lfs_pointer(bytes)) {
        issues_.add("GIT_LFS_POINTER", "", {"The asset", *lfs});
        return;
      }
      if (const auto wide = wide_text_encoding(bytes)) {
        issues_.add_at_position("INVALID_JSON", TextPosition{},
                                {"The text is " + *wide +
                                 "; glTF JSON must be UTF-8 (at line 1, column 1; byte offset 0)"});
        return;
      }
      if (!looks_like_text(bytes)) {
        if (named_glb) {
          report_missing_glb_magic(bytes, issues_);
        } else {
          issues_.add("NOT_GLTF", "", {describe_binary(bytes)});
        }
        return;
      }
      asset_.document =
          parse_json(bytes, 0, options_.max_json_depth, options_.max_json_values, issues_);
      keep_json_text(bytes, 0);
    }
    if (!asset_.document) return;
    asset_.mime_type = glb ? MimeType::kGltfBinary : MimeType::kGltfJson;
    check_duplicate_keys(*asset_.document, issues_);
    build_views(asset_);
    load_buffers(glb, bin);
    analyze_layout(asset_, decode_compressed_views(asset_, options_.max_file_bytes));
  }

 private:
  void keep_json_text(std::span<const std::uint8_t> text, std::uint64_t offset) {
    if (!asset_.document) return;
    asset_.json_text = std::string_view(reinterpret_cast<const char*>(text.data()), text.size());
    asset_.json_offset = offset;
  }

  void load_buffers(bool glb, std::optional<std::span<const std::uint8_t>> bin) {
    asset_.buffer_data.assign(asset_.buffers.size(), std::nullopt);
    if (!options_.load_buffers) return;
    for (std::size_t i = 0; i < asset_.buffers.size(); ++i) {
      const Buffer& b = asset_.buffers[i];
      const JsonPointer at = JsonPointer("/buffers") / i;
      if (!b.uri) {
        // Only buffer 0 of a GLB refers to the BIN chunk. Any other buffer without uri is a
        // placeholder the spec leaves to extensions (a meshopt fallback buffer, say): it has
        // no data, which matters only where data is read from it (meshopt.cpp reports that).
        if (glb && i == 0) load_glb_buffer(at, bin);
        continue;
      }
      Resource r;
      r.pointer = at.str();
      const std::string_view uri = *b.uri;
      const std::string_view scheme = uri_scheme(uri);
      // Allowed, but a GLB is meant to hold its data in the BIN chunk
      // (glTF-Validator's URI_GLB and DATA_URI_GLB).
      if (glb) issues_.add("URI_GLB", at / "uri");
      if (iequals(scheme, "data")) {
        if (glb) issues_.add("DATA_URI_GLB", at / "uri");
        r.storage = "data-uri";
        r.byte_length = load_data_uri(i, at / "uri", uri);
      } else {
        r.storage = "external";
        r.uri = std::string(uri);
        if (!scheme.empty()) {
          // The spec allows absolute URIs ("at least these two URI types"),
          // so this is no error; but we never open a connection, so the data
          // behind it is not checked, and the report says so.
          issues_.add("NON_RELATIVE_URI", at / "uri", {short_uri(uri)});
          issues_.add("URI_SCHEME_NOT_ALLOWED", at / "uri", {std::string(scheme), short_uri(uri)});
        } else {
          r.byte_length = load_external(i, at / "uri", uri);
        }
      }
      asset_.resources.push_back(std::move(r));
    }
  }

  // Checks loaded bytes against byteLength and keeps the first byteLength of
  // them. `exact`: data URIs must match byteLength exactly; otherwise the data
  // may be longer, by up to 3 bytes of padding without an issue.
  void accept(std::size_t i, const JsonPointer& at, std::span<const std::uint8_t> data, bool exact,
              std::optional<IssueCode> too_long_code) {
    const Buffer& b = asset_.buffers[i];
    if (!b.well_formed) return;  // no trustworthy byteLength: no data checks
    const std::uint64_t declared = *b.byte_length;
    if (data.size() < declared || (exact && data.size() != declared)) {
      issues_.add("BUFFER_BYTE_LENGTH_MISMATCH", at,
                  {std::to_string(data.size()), std::to_string(declared)});
      if (data.size() < declared) return;
    } else if (too_long_code && data.size() - declared > 3) {
      issues_.add(*too_long_code, at,
                  {std::to_string(data.size() - declared), std::to_string(declared)});
    }
    asset_.buffer_data[i] = data.first(static_cast<std::size_t>(declared));
  }

  void load_glb_buffer(const JsonPointer& at, std::optional<std::span<const std::uint8_t>> bin) {
    Resource r;
    r.pointer = at.str();
    r.storage = "glb";
    if (!bin) {
      issues_.add("BUFFER_MISSING_GLB_DATA", at);
    } else {
      r.byte_length = bin->size();
      accept(0, at, *bin, false, IssueCode("BUFFER_GLB_CHUNK_TOO_BIG"));
    }
    asset_.resources.push_back(std::move(r));
  }

  std::optional<std::uint64_t> load_data_uri(std::size_t i, const JsonPointer& at,
                                             std::string_view uri) {
    // RFC 2397: data:[<mediatype>][;base64],<data>
    const std::size_t comma = uri.find(',');
    if (comma == std::string_view::npos) {
      issues_.add("INVALID_URI", at, {short_uri(uri), "data URI without ','"});
      return std::nullopt;
    }
    const std::string_view header = uri.substr(5, comma - 5);
    const std::string_view media = header.substr(0, header.find(';'));
    const bool base64 = header.size() >= 7 && iequals(header.substr(header.size() - 7), ";base64");
    if (!iequals(media, "application/octet-stream") && !iequals(media, "application/gltf-buffer")) {
      issues_.add("BUFFER_DATA_URI_MIME_TYPE_INVALID", at, {std::string(media)});
    }
    std::size_t error_at = 0;
    // Without ';base64' the payload is the octets themselves, percent-encoded
    // where needed (RFC 2397), as glTF-Validator reads it.
    auto bytes = base64 ? text::base64_decode(uri.substr(comma + 1), error_at)
                        : decode_percent_octets(uri.substr(comma + 1), error_at);
    if (!bytes && !base64) {
      issues_.add("INVALID_URI", at,
                  {short_uri(uri), "invalid percent-encoding at character " +
                                       std::to_string(comma + 1 + error_at)});
      return std::nullopt;
    }
    if (!bytes) {
      issues_.add("DATA_URI_INVALID_BASE64", at, {std::to_string(comma + 1 + error_at)});
      return std::nullopt;
    }
    const std::uint64_t size = bytes->size();
    const auto view = LoaderAccess::keep(asset_, ByteStorage::from_vector(std::move(*bytes)));
    accept(i, at, view, true, std::nullopt);
    return size;
  }

  std::optional<std::uint64_t> load_external(std::size_t i, const JsonPointer& at,
                                             std::string_view uri) {
    // "//host/x" is a network-path reference and "/x" an absolute path: both
    // name something other than a file beside the asset.
    if (!uri.empty() && uri[0] == '/') {
      issues_.add("URI_ABSOLUTE_PATH", at, {short_uri(uri)});
      return std::nullopt;
    }
    const auto decoded = decode_uri_path(uri);
    if (!decoded || decoded->empty()) {
      issues_.add("INVALID_URI", at,
                  {short_uri(uri), decoded ? "empty path" : "invalid percent-encoding or NUL"});
      return std::nullopt;
    }
    if ((*decoded)[0] == '/') {  // "%2Fetc%2Fpasswd"
      issues_.add("URI_ABSOLUTE_PATH", at, {short_uri(uri)});
      return std::nullopt;
    }
    if (resources_ == nullptr) {
      issues_.add("IO_ERROR", at,
                  {short_uri(uri) + ": no folder to resolve relative URIs against"});
      return std::nullopt;
    }
    ReadResult rr = resources_->read(fs::path(*decoded), options_.max_file_bytes);
    switch (rr.failure) {
      case ReadResult::Failure::kNone: break;
      case ReadResult::Failure::kOutsideRoot:
        issues_.add("URI_OUTSIDE_ROOT", at, {short_uri(uri), rr.detail});
        return std::nullopt;
      case ReadResult::Failure::kNotRegular:
        issues_.add("RESOURCE_NOT_REGULAR_FILE", at, {short_uri(uri), rr.detail});
        return std::nullopt;
      case ReadResult::Failure::kTooLarge:
        issues_.add("FILE_TOO_LARGE", at,
                    {std::to_string(rr.size), std::to_string(options_.max_file_bytes)});
        return std::nullopt;
      case ReadResult::Failure::kOpen:
      case ReadResult::Failure::kRead:
        issues_.add("IO_ERROR", at, {short_uri(uri) + ": " + rr.detail});
        return std::nullopt;
    }
    const auto view = LoaderAccess::keep(asset_, std::move(rr.storage));
    if (const auto lfs = git_lfs_pointer(view)) {
      issues_.add("GIT_LFS_POINTER", at, {"'" + short_uri(uri) + "'", *lfs});
      return std::nullopt;
    }
    accept(i, at, view, false, IssueCode("BUFFER_EXTERNAL_DATA_TOO_LONG"));
    return view.size();
  }

  LoadedAsset& asset_;
  const LoadOptions& options_;
  IssueCollector& issues_;
  std::optional<io::FolderReader> folder_;  // the default reader, over the asset's folder
  const io::ResourceReader* resources_ = nullptr;
};

}  // namespace

LoadedAsset load_file(const std::filesystem::path& path, const LoadOptions& options,
                      IssueCollector& issues) {
  LoadedAsset asset;
  asset.uri = path.string();
  ReadResult rr = options.asset_folder.empty()
                      ? io::read_regular_file(path, options.max_file_bytes, /*no_follow=*/false)
                      : io::read_file_beneath(options.asset_folder,
                                              path.lexically_relative(options.asset_folder),
                                              options.max_file_bytes);
  switch (rr.failure) {
    case ReadResult::Failure::kNone: break;
    case ReadResult::Failure::kTooLarge:
      issues.add("FILE_TOO_LARGE", "",
                 {std::to_string(rr.size), std::to_string(options.max_file_bytes)});
      return asset;
    case ReadResult::Failure::kNotRegular:
    case ReadResult::Failure::kOpen:
    case ReadResult::Failure::kRead:
    case ReadResult::Failure::kOutsideRoot:
      // A name of thousands of bytes is cut (message arguments stop at 1 KiB),
      // the reason after it never is.
      issues.add("IO_ERROR", "", {text::truncate_utf8(path.string(), 512) + ": " + rr.detail});
      return asset;
  }
  if (options.inputs && rr.identity) options.inputs->record(*rr.identity, path.string());
  fs::path base = path.parent_path();
  if (base.empty()) base = ".";
  // The file stays with the asset: a GLB's BIN chunk is used in place, and the
  // JSON text is what the locator and the writer read.
  asset.file_bytes = LoaderAccess::keep(asset, std::move(rr.storage));
  Loader(asset, options, base, issues).run(asset.file_bytes, named_glb(asset.uri));
  return asset;
}

LoadedAsset load_bytes(std::span<const std::uint8_t> bytes, std::string uri_for_report,
                       const std::filesystem::path& base_dir, const LoadOptions& options,
                       IssueCollector& issues) {
  LoadedAsset asset;
  asset.uri = std::move(uri_for_report);
  if (bytes.size() > options.max_file_bytes) {
    issues.add("FILE_TOO_LARGE", "",
               {std::to_string(bytes.size()), std::to_string(options.max_file_bytes)});
    return asset;
  }
  asset.file_bytes = LoaderAccess::keep(
      asset, options.borrow_bytes ? ByteStorage::borrow(bytes)
                                  : ByteStorage::from_vector({bytes.begin(), bytes.end()}));
  Loader(asset, options, base_dir, issues).run(asset.file_bytes, named_glb(asset.uri));
  return asset;
}

}  // namespace gltf_anim::gltf

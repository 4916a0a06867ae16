#pragma once
// Validating one asset end to end: load, schema, link, data. The result is a
// ValidationReport in the shape of glTF-Validator's report (reports/ writes it
// as json, text, junit or sarif).
#include <gltf_anim/validator/asset.hpp>
#include <gltf_anim/validator/issue.hpp>
#include <gltf_anim/validator/issue_collector.hpp>
#include <gltf_anim/validator/load.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gltf_anim::validator {

struct ValidateOptions {
  IssueOptions issues;  // ignored codes, severity overrides, max issues
  LoadOptions load;     // root folder, size limits, whether to load buffers
};

// One entry of info.resources.
struct ResourceInfo {
  std::string pointer;                       // "/buffers/0"
  std::string storage;                       // "data-uri", "glb", "external"
  std::optional<std::string> uri;            // external files only
  std::optional<std::uint64_t> byte_length;  // absent when loading failed
};

// The report's "info": present when asset.version could be read.
struct AssetInfo {
  std::string version;
  std::optional<std::string> min_version;
  std::optional<std::string> generator;
  std::vector<std::string> extensions_used;
  std::vector<std::string> extensions_required;
  std::vector<ResourceInfo> resources;
  std::size_t animation_count = 0;
  bool has_morph_targets = false;
  bool has_skins = false;
};

struct ValidationReport {
  std::string uri;        // as given (file path, or "-" for standard input)
  std::string mime_type;  // "model/gltf+json", "model/gltf-binary", or "" when unparsable
  std::vector<Issue> issues;  // in the deterministic order they were found
  bool truncated = false;     // --max-issues was reached
  std::optional<AssetInfo> info;

  std::size_t count(Severity s) const;
};

// Validates the asset in file `path` (.gltf or .glb; detected from the bytes).
ValidationReport validate_file(const std::filesystem::path& path, const ValidateOptions& options);

// Validates an asset already in memory; relative buffer URIs resolve against
// `base_dir` (none are loaded when it is empty).
ValidationReport validate_bytes(std::span<const std::uint8_t> bytes, std::string uri,
                                const std::filesystem::path& base_dir,
                                const ValidateOptions& options);

// The phases after loading, for callers that loaded the asset themselves.
ValidationReport validate_asset(const LoadedAsset& asset, IssueCollector& issues);

// docs/ISSUE_CODES.md: the registry as Markdown tables, one per phase; each
// code's row carries the anchor issue_code_anchor(code) (the code in lower case).
std::string issue_codes_markdown();
std::string issue_code_anchor(std::string_view code);

}  // namespace gltf_anim::validator

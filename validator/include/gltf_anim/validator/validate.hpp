#pragma once
// Validating one asset end to end: load, schema, link, data. The result is a
// ValidationReport in the shape of glTF-Validator's report (reports/ writes it
// as json, text, junit or sarif).
#include <gltf_anim/gltf/animation_model.hpp>
#include <gltf_anim/gltf/asset.hpp>
#include <gltf_anim/gltf/issue.hpp>
#include <gltf_anim/gltf/issue_collector.hpp>
#include <gltf_anim/gltf/load.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gltf_anim::validator {

struct ValidateOptions {
  gltf::IssueOptions issues;  // ignored codes, severity overrides, max issues
  gltf::LoadOptions load;     // root folder, size limits, whether to load buffers
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
  std::vector<gltf::Issue> issues;  // in the deterministic order they were found
  bool truncated = false;     // --max-issues was reached
  std::optional<AssetInfo> info;

  std::size_t count(gltf::Severity s) const;
};

// Called with an asset's report while the asset is still loaded, before its
// issues are located: folds in issues found elsewhere (glTF-Validator's), so
// they get positions too.
using ReportAmendment = std::function<void(ValidationReport&)>;

// Every report these return has its issues located (locate_issues): a
// position is known at validation time, from the text the loader holds, so no
// report writer reads the asset again.

// Validates the asset in file `path` (.gltf or .glb; detected from the bytes).
ValidationReport validate_file(const std::filesystem::path& path, const ValidateOptions& options,
                               const ReportAmendment& amend = {});

// Validates an asset already in memory; relative buffer URIs resolve against
// `base_dir` (none are loaded when it is empty).
ValidationReport validate_bytes(std::span<const std::uint8_t> bytes, std::string uri,
                                const std::filesystem::path& base_dir,
                                const ValidateOptions& options, const ReportAmendment& amend = {});

// The phases after loading, for callers that loaded the asset themselves.
ValidationReport validate_asset(const gltf::LoadedAsset& asset, gltf::IssueCollector& issues,
                                const ReportAmendment& amend = {});
// The same with the asset's animation model (build_animation_model of this asset) built by
// the caller, who needs it too (the repair tools): built once per asset.
ValidationReport validate_asset(const gltf::LoadedAsset& asset,
                                const gltf::model::AnimationModel& model,
                                gltf::IssueCollector& issues, const ReportAmendment& amend = {});

// Gives each issue at a JSON pointer the position where the pointer's value
// starts in the asset's JSON text (<gltf_anim/gltf/locator.hpp>): line and
// column within that text (a GLB's JSON chunk: in_glb_chunk), byte_offset in
// the file. An issue that has a position already (a JSON syntax error), one at
// a byte offset (a GLB container issue) and one whose pointer names no value in
// the text (a missing member) keep what they have. One pass over the text.
void locate_issues(const gltf::LoadedAsset& asset, std::span<gltf::Issue> issues);

// docs/ISSUE_CODES.md: the registry as Markdown tables, one per phase; each
// code's row carries the anchor issue_code_anchor(code) (the code in lower case).
std::string issue_codes_markdown();
// The registry as one JSON object (`gltf-anim codes --format json`): each code's fields.
std::string issue_codes_json();
std::string issue_code_anchor(std::string_view code);

}  // namespace gltf_anim::validator

// validate_file / validate_bytes / validate_asset: the phases in their fixed
// order (rules.hpp describes them) and the report's info block.
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/gltf/locator.hpp>
#include <gltf_anim/validator/rules.hpp>
#include <gltf_anim/validator/validate.hpp>

#include <algorithm>
#include <optional>

#include <gltf_anim/gltf/json_access.hpp>

namespace gltf_anim::validator {

using gltf::check_buffers_and_accessors;
using gltf::Issue;
using gltf::IssueCollector;
using gltf::load_bytes;
using gltf::load_file;
using gltf::LoadedAsset;
using gltf::mime_type_name;
using gltf::MimeType;
using gltf::Resource;
using gltf::Severity;
using gltf::TextPosition;
namespace model = gltf::model;

namespace {

using rules::array_member;
using rules::member;
using rules::string_member;

std::vector<std::string> string_list(const gltf_anim::json::Value& doc, std::string_view name) {
  std::vector<std::string> out;
  if (const gltf_anim::json::Value* a = array_member(doc, name)) {
    for (const auto& v : a->GetArray()) {
      if (v.IsString()) out.emplace_back(v.GetString(), v.GetStringLength());
    }
  }
  return out;
}

std::optional<AssetInfo> make_info(const LoadedAsset& asset) {
  if (!asset.document || !asset.document->IsObject()) return std::nullopt;
  const gltf_anim::json::Value& doc = *asset.document;
  const gltf_anim::json::Value* a = member(doc, "asset");
  if (a == nullptr) return std::nullopt;
  const auto version = string_member(*a, "version");
  if (!version) return std::nullopt;
  AssetInfo info;
  info.version = std::string(*version);
  if (const auto v = string_member(*a, "minVersion")) info.min_version = std::string(*v);
  if (const auto g = string_member(*a, "generator")) info.generator = std::string(*g);
  info.extensions_used = string_list(doc, "extensionsUsed");
  info.extensions_required = string_list(doc, "extensionsRequired");
  for (const Resource& r : asset.resources) {
    info.resources.push_back(ResourceInfo{r.pointer, r.storage, r.uri, r.byte_length});
  }
  info.animation_count = rules::array_size(array_member(doc, "animations"));
  if (const gltf_anim::json::Value* skins = array_member(doc, "skins"))
    info.has_skins = !skins->Empty();
  if (const gltf_anim::json::Value* meshes = array_member(doc, "meshes")) {
    for (const auto& mesh : meshes->GetArray()) {
      const gltf_anim::json::Value* prims = array_member(mesh, "primitives");
      if (prims == nullptr) continue;
      for (const auto& p : prims->GetArray()) {
        if (array_member(p, "targets") != nullptr) info.has_morph_targets = true;
      }
    }
  }
  return info;
}

// `prebuilt`: the asset's animation model when the caller built it, else built here.
void run_phases(const LoadedAsset& asset, IssueCollector& issues,
                const model::AnimationModel* prebuilt = nullptr) {
  if (!asset.document) return;  // INVALID_JSON or a broken container: nothing more to say
  const rules::MemberIndexScope indexed_lookups;
  DataChecks data;
  const std::vector<std::unique_ptr<RuleModule>> modules = rule_modules();
  std::optional<model::AnimationModel> built;
  if (prebuilt == nullptr) built.emplace(model::build_animation_model(asset));
  const model::AnimationModel& animations = prebuilt != nullptr ? *prebuilt : *built;
  RuleContext ctx{asset, *asset.document, issues, data, {}, modules, animations};
  check_schema(*asset.document, ctx, modules);
  if (!asset.document->IsObject()) return;
  // Link: bufferViews and accessors first (as glTF-Validator), then each module.
  check_buffers_and_accessors(asset, issues);
  for (const auto& m : modules) m->link(ctx);
  run_data_phase(ctx);
}

ValidationReport finish(const LoadedAsset& asset, const IssueCollector& issues) {
  ValidationReport report;
  report.uri = asset.uri;
  report.mime_type = std::string(mime_type_name(asset.mime_type));
  report.issues = issues.issues();
  report.truncated = issues.truncated();
  report.info = make_info(asset);
  return report;
}

}  // namespace

std::size_t ValidationReport::count(Severity s) const {
  return static_cast<std::size_t>(std::count_if(
      issues.begin(), issues.end(), [s](const Issue& i) { return i.severity == s; }));
}

void locate_issues(const LoadedAsset& asset, std::span<Issue> issues) {
  if (asset.json_text.empty()) return;
  std::vector<std::string> pointers;
  std::vector<Issue*> located;
  for (Issue& i : issues) {
    if (i.position || i.offset) continue;
    pointers.push_back(i.pointer);
    located.push_back(&i);
  }
  if (pointers.empty()) return;
  const bool glb = asset.mime_type == MimeType::kGltfBinary;
  const std::vector<std::optional<gltf::Location>> found = gltf::locate(asset.json_text, pointers);
  for (std::size_t k = 0; k < found.size(); ++k) {
    if (!found[k]) continue;
    const gltf::TextPlace& at = found[k]->value.begin;
    located[k]->position = TextPosition{at.line, at.column, asset.json_offset + at.byte, glb};
  }
}

ValidationReport validate_asset(const LoadedAsset& asset, IssueCollector& issues,
                                const ReportAmendment& amend) {
  run_phases(asset, issues);
  ValidationReport report = finish(asset, issues);
  if (amend) amend(report);
  locate_issues(asset, report.issues);
  return report;
}

ValidationReport validate_asset(const LoadedAsset& asset, const model::AnimationModel& model,
                                IssueCollector& issues, const ReportAmendment& amend) {
  run_phases(asset, issues, &model);
  ValidationReport report = finish(asset, issues);
  if (amend) amend(report);
  locate_issues(asset, report.issues);
  return report;
}

ValidationReport validate_file(const std::filesystem::path& path, const ValidateOptions& options,
                               const ReportAmendment& amend) {
  IssueCollector issues(options.issues);
  const LoadedAsset asset = load_file(path, options.load, issues);
  return validate_asset(asset, issues, amend);
}

ValidationReport validate_bytes(std::span<const std::uint8_t> bytes, std::string uri,
                                const std::filesystem::path& base_dir,
                                const ValidateOptions& options, const ReportAmendment& amend) {
  IssueCollector issues(options.issues);
  const LoadedAsset asset = load_bytes(bytes, std::move(uri), base_dir, options.load, issues);
  return validate_asset(asset, issues, amend);
}

}  // namespace gltf_anim::validator

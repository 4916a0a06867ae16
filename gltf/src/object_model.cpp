// The glTF 2.0 Asset Object Model table (object_model.hpp) and the pointer
// matcher and resolver built on it.
//
// Source: ../shared/specs/glTF-2.0-ObjectModel.adoc, every row of its core and
// extension tables (mutable and read-only), in its order; plus the booleans that
// node extensions' own specifications add to the Object Model, each default true:
// KHR_node_visibility `visible`, KHR_node_selectability `selectable` and
// KHR_node_hoverability `hoverable` (the last two Release Candidates since
// 2026-07; drafts' proposed rows wait until they are Release Candidates). Defaults
// are the glTF 2.0 and extension specifications' (e.g. alphaCutoff 0.5,
// KHR_materials_ior ior 1.5, KHR_lights_punctual color [1,1,1], spot angles 0
// and pi/4, KHR_materials_volume attenuationDistance +infinity); properties
// without one: every camera member (orthographic ones are required,
// perspective aspectRatio and zfar are optional without default, yfov and
// znear are required) and KHR_lights_punctual `range` (undefined means
// infinite). A test compares this list with the adoc when it is present.
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/gltf/json_pointer.hpp>
#include <gltf_anim/gltf/object_model.hpp>

#include <gltf_anim/gltf/json_access.hpp>

#include <charconv>
#include <limits>

namespace gltf_anim::gltf::object_model {
namespace {

using T = ValueType;

constexpr Property kProperties[] = {
    {"/cameras/{}/orthographic/xmag", T::kFloat, false, false, false},
    {"/cameras/{}/orthographic/ymag", T::kFloat, false, false, false},
    {"/cameras/{}/orthographic/zfar", T::kFloat, false, false, false},
    {"/cameras/{}/orthographic/znear", T::kFloat, false, false, false},
    {"/cameras/{}/perspective/aspectRatio", T::kFloat, false, false, false},
    {"/cameras/{}/perspective/yfov", T::kFloat, false, false, false},
    {"/cameras/{}/perspective/zfar", T::kFloat, false, false, false},
    {"/cameras/{}/perspective/znear", T::kFloat, false, false, false},
    {"/materials/{}/alphaCutoff", T::kFloat, true, false, false},
    {"/materials/{}/emissiveFactor", T::kFloat3, true, false, false},
    {"/materials/{}/normalTexture/scale", T::kFloat, true, false, false},
    {"/materials/{}/occlusionTexture/strength", T::kFloat, true, false, false},
    {"/materials/{}/pbrMetallicRoughness/baseColorFactor", T::kFloat4, true, false, false},
    {"/materials/{}/pbrMetallicRoughness/metallicFactor", T::kFloat, true, false, false},
    {"/materials/{}/pbrMetallicRoughness/roughnessFactor", T::kFloat, true, false, false},
    {"/nodes/{}/translation", T::kFloat3, true, false, false},
    {"/nodes/{}/rotation", T::kFloat4, true, false, true},
    {"/nodes/{}/scale", T::kFloat3, true, false, false},
    {"/nodes/{}/weights", T::kFloatArray, true, false, false},
    {"/nodes/{}/weights/{}", T::kFloat, true, false, false},
    {"/animations.length", T::kInt, false, true, false},
    {"/cameras.length", T::kInt, false, true, false},
    {"/materials.length", T::kInt, false, true, false},
    {"/materials/{}/doubleSided", T::kBool, false, true, false},
    {"/meshes.length", T::kInt, false, true, false},
    {"/meshes/{}/primitives.length", T::kInt, false, true, false},
    {"/meshes/{}/primitives/{}/material", T::kInt, false, true, false},
    {"/nodes.length", T::kInt, false, true, false},
    {"/nodes/{}/camera", T::kInt, false, true, false},
    {"/nodes/{}/children.length", T::kInt, false, true, false},
    {"/nodes/{}/children/{}", T::kInt, false, true, false},
    {"/nodes/{}/globalMatrix", T::kFloat4x4, false, true, false},
    {"/nodes/{}/matrix", T::kFloat4x4, false, true, false},
    {"/nodes/{}/mesh", T::kInt, false, true, false},
    {"/nodes/{}/parent", T::kInt, false, true, false},
    {"/nodes/{}/skin", T::kInt, false, true, false},
    {"/nodes/{}/weights.length", T::kInt, false, true, false},
    {"/scene", T::kInt, false, true, false},
    {"/scenes.length", T::kInt, false, true, false},
    {"/scenes/{}/nodes.length", T::kInt, false, true, false},
    {"/scenes/{}/nodes/{}", T::kInt, false, true, false},
    {"/skins.length", T::kInt, false, true, false},
    {"/skins/{}/joints.length", T::kInt, false, true, false},
    {"/skins/{}/joints/{}", T::kInt, false, true, false},
    {"/skins/{}/skeleton", T::kInt, false, true, false},
    {"/materials/{}/normalTexture/extensions/KHR_texture_transform/offset", T::kFloat2, true, false,
     false},
    {"/materials/{}/normalTexture/extensions/KHR_texture_transform/rotation", T::kFloat, true,
     false, false},
    {"/materials/{}/normalTexture/extensions/KHR_texture_transform/scale", T::kFloat2, true, false,
     false},
    {"/materials/{}/occlusionTexture/extensions/KHR_texture_transform/offset", T::kFloat2, true,
     false, false},
    {"/materials/{}/occlusionTexture/extensions/KHR_texture_transform/rotation", T::kFloat, true,
     false, false},
    {"/materials/{}/occlusionTexture/extensions/KHR_texture_transform/scale", T::kFloat2, true,
     false, false},
    {"/materials/{}/emissiveTexture/extensions/KHR_texture_transform/offset", T::kFloat2, true,
     false, false},
    {"/materials/{}/emissiveTexture/extensions/KHR_texture_transform/rotation", T::kFloat, true,
     false, false},
    {"/materials/{}/emissiveTexture/extensions/KHR_texture_transform/scale", T::kFloat2, true,
     false, false},
    {"/materials/{}/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/offset",
     T::kFloat2, true, false, false},
    {"/materials/{}/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/"
     "rotation",
     T::kFloat, true, false, false},
    {"/materials/{}/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/scale",
     T::kFloat2, true, false, false},
    {"/materials/{}/pbrMetallicRoughness/metallicRoughnessTexture/extensions/KHR_texture_transform/"
     "offset",
     T::kFloat2, true, false, false},
    {"/materials/{}/pbrMetallicRoughness/metallicRoughnessTexture/extensions/KHR_texture_transform/"
     "rotation",
     T::kFloat, true, false, false},
    {"/materials/{}/pbrMetallicRoughness/metallicRoughnessTexture/extensions/KHR_texture_transform/"
     "scale",
     T::kFloat2, true, false, false},
    {"/extensions/KHR_lights_punctual/lights/{}/color", T::kFloat3, true, false, false},
    {"/extensions/KHR_lights_punctual/lights/{}/intensity", T::kFloat, true, false, false},
    {"/extensions/KHR_lights_punctual/lights/{}/range", T::kFloat, false, false, false},
    {"/extensions/KHR_lights_punctual/lights/{}/spot/innerConeAngle", T::kFloat, true, false,
     false},
    {"/extensions/KHR_lights_punctual/lights/{}/spot/outerConeAngle", T::kFloat, true, false,
     false},
    {"/extensions/KHR_lights_punctual/lights.length", T::kInt, false, true, false},
    {"/nodes/{}/extensions/KHR_lights_punctual/light", T::kInt, false, true, false},
    {"/materials/{}/extensions/KHR_materials_anisotropy/anisotropyStrength", T::kFloat, true, false,
     false},
    {"/materials/{}/extensions/KHR_materials_anisotropy/anisotropyRotation", T::kFloat, true, false,
     false},
    {"/materials/{}/extensions/KHR_materials_anisotropy/anisotropyTexture/extensions/"
     "KHR_texture_transform/offset",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/KHR_materials_anisotropy/anisotropyTexture/extensions/"
     "KHR_texture_transform/rotation",
     T::kFloat, true, false, false},
    {"/materials/{}/extensions/KHR_materials_anisotropy/anisotropyTexture/extensions/"
     "KHR_texture_transform/scale",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/KHR_materials_clearcoat/clearcoatFactor", T::kFloat, true, false,
     false},
    {"/materials/{}/extensions/KHR_materials_clearcoat/clearcoatRoughnessFactor", T::kFloat, true,
     false, false},
    {"/materials/{}/extensions/KHR_materials_clearcoat/clearcoatNormalTexture/scale", T::kFloat,
     true, false, false},
    {"/materials/{}/extensions/KHR_materials_clearcoat/clearcoatTexture/extensions/"
     "KHR_texture_transform/offset",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/KHR_materials_clearcoat/clearcoatTexture/extensions/"
     "KHR_texture_transform/rotation",
     T::kFloat, true, false, false},
    {"/materials/{}/extensions/KHR_materials_clearcoat/clearcoatTexture/extensions/"
     "KHR_texture_transform/scale",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/KHR_materials_clearcoat/clearcoatRoughnessTexture/extensions/"
     "KHR_texture_transform/offset",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/KHR_materials_clearcoat/clearcoatRoughnessTexture/extensions/"
     "KHR_texture_transform/rotation",
     T::kFloat, true, false, false},
    {"/materials/{}/extensions/KHR_materials_clearcoat/clearcoatRoughnessTexture/extensions/"
     "KHR_texture_transform/scale",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/KHR_materials_clearcoat/clearcoatNormalTexture/extensions/"
     "KHR_texture_transform/offset",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/KHR_materials_clearcoat/clearcoatNormalTexture/extensions/"
     "KHR_texture_transform/rotation",
     T::kFloat, true, false, false},
    {"/materials/{}/extensions/KHR_materials_clearcoat/clearcoatNormalTexture/extensions/"
     "KHR_texture_transform/scale",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/KHR_materials_dispersion/dispersion", T::kFloat, true, false, false},
    {"/materials/{}/extensions/KHR_materials_emissive_strength/emissiveStrength", T::kFloat, true,
     false, false},
    {"/materials/{}/extensions/KHR_materials_ior/ior", T::kFloat, true, false, false},
    {"/materials/{}/extensions/KHR_materials_iridescence/iridescenceFactor", T::kFloat, true, false,
     false},
    {"/materials/{}/extensions/KHR_materials_iridescence/iridescenceIor", T::kFloat, true, false,
     false},
    {"/materials/{}/extensions/KHR_materials_iridescence/iridescenceThicknessMinimum", T::kFloat,
     true, false, false},
    {"/materials/{}/extensions/KHR_materials_iridescence/iridescenceThicknessMaximum", T::kFloat,
     true, false, false},
    {"/materials/{}/extensions/KHR_materials_iridescence/iridescenceTexture/extensions/"
     "KHR_texture_transform/offset",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/KHR_materials_iridescence/iridescenceTexture/extensions/"
     "KHR_texture_transform/rotation",
     T::kFloat, true, false, false},
    {"/materials/{}/extensions/KHR_materials_iridescence/iridescenceTexture/extensions/"
     "KHR_texture_transform/scale",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/KHR_materials_iridescence/iridescenceThicknessTexture/extensions/"
     "KHR_texture_transform/offset",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/KHR_materials_iridescence/iridescenceThicknessTexture/extensions/"
     "KHR_texture_transform/rotation",
     T::kFloat, true, false, false},
    {"/materials/{}/extensions/KHR_materials_iridescence/iridescenceThicknessTexture/extensions/"
     "KHR_texture_transform/scale",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/KHR_materials_sheen/sheenColorFactor", T::kFloat3, true, false,
     false},
    {"/materials/{}/extensions/KHR_materials_sheen/sheenRoughnessFactor", T::kFloat, true, false,
     false},
    {"/materials/{}/extensions/KHR_materials_sheen/sheenColorTexture/extensions/"
     "KHR_texture_transform/offset",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/KHR_materials_sheen/sheenColorTexture/extensions/"
     "KHR_texture_transform/rotation",
     T::kFloat, true, false, false},
    {"/materials/{}/extensions/KHR_materials_sheen/sheenColorTexture/extensions/"
     "KHR_texture_transform/scale",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/KHR_materials_sheen/sheenRoughnessTexture/extensions/"
     "KHR_texture_transform/offset",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/KHR_materials_sheen/sheenRoughnessTexture/extensions/"
     "KHR_texture_transform/rotation",
     T::kFloat, true, false, false},
    {"/materials/{}/extensions/KHR_materials_sheen/sheenRoughnessTexture/extensions/"
     "KHR_texture_transform/scale",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/KHR_materials_specular/specularFactor", T::kFloat, true, false,
     false},
    {"/materials/{}/extensions/KHR_materials_specular/specularColorFactor", T::kFloat3, true, false,
     false},
    {"/materials/{}/extensions/KHR_materials_specular/specularTexture/extensions/"
     "KHR_texture_transform/offset",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/KHR_materials_specular/specularTexture/extensions/"
     "KHR_texture_transform/rotation",
     T::kFloat, true, false, false},
    {"/materials/{}/extensions/KHR_materials_specular/specularTexture/extensions/"
     "KHR_texture_transform/scale",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/KHR_materials_specular/specularColorTexture/extensions/"
     "KHR_texture_transform/offset",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/KHR_materials_specular/specularColorTexture/extensions/"
     "KHR_texture_transform/rotation",
     T::kFloat, true, false, false},
    {"/materials/{}/extensions/KHR_materials_specular/specularColorTexture/extensions/"
     "KHR_texture_transform/scale",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/KHR_materials_transmission/transmissionFactor", T::kFloat, true,
     false, false},
    {"/materials/{}/extensions/KHR_materials_transmission/transmissionTexture/extensions/"
     "KHR_texture_transform/offset",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/KHR_materials_transmission/transmissionTexture/extensions/"
     "KHR_texture_transform/rotation",
     T::kFloat, true, false, false},
    {"/materials/{}/extensions/KHR_materials_transmission/transmissionTexture/extensions/"
     "KHR_texture_transform/scale",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/KHR_materials_volume/thicknessFactor", T::kFloat, true, false,
     false},
    {"/materials/{}/extensions/KHR_materials_volume/attenuationDistance", T::kFloat, true, false,
     false},
    {"/materials/{}/extensions/KHR_materials_volume/attenuationColor", T::kFloat3, true, false,
     false},
    {"/materials/{}/extensions/KHR_materials_volume/thicknessTexture/extensions/"
     "KHR_texture_transform/offset",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/KHR_materials_volume/thicknessTexture/extensions/"
     "KHR_texture_transform/rotation",
     T::kFloat, true, false, false},
    {"/materials/{}/extensions/KHR_materials_volume/thicknessTexture/extensions/"
     "KHR_texture_transform/scale",
     T::kFloat2, true, false, false},
    {"/nodes/{}/extensions/EXT_lights_ies/multiplier", T::kFloat, true, false, false},
    {"/nodes/{}/extensions/EXT_lights_ies/color", T::kFloat3, true, false, false},
    {"/extensions/EXT_lights_ies/lights.length", T::kInt, false, true, false},
    {"/extensions/EXT_lights_image_based/lights/{}/rotation", T::kFloat4, true, false, true},
    {"/extensions/EXT_lights_image_based/lights/{}/intensity", T::kFloat, true, false, false},
    {"/extensions/EXT_lights_image_based/lights.length", T::kInt, false, true, false},
    {"/materials/{}/extensions/ADOBE_materials_clearcoat_specular/clearcoatIor", T::kFloat, true,
     false, false},
    {"/materials/{}/extensions/ADOBE_materials_clearcoat_specular/clearcoatSpecularFactor",
     T::kFloat, true, false, false},
    {"/materials/{}/extensions/ADOBE_materials_clearcoat_specular/clearcoatSpecularTexture/"
     "extensions/KHR_texture_transform/offset",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/ADOBE_materials_clearcoat_specular/clearcoatSpecularTexture/"
     "extensions/KHR_texture_transform/rotation",
     T::kFloat, true, false, false},
    {"/materials/{}/extensions/ADOBE_materials_clearcoat_specular/clearcoatSpecularTexture/"
     "extensions/KHR_texture_transform/scale",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/ADOBE_materials_clearcoat_tint/clearcoatTintFactor", T::kFloat3,
     true, false, false},
    {"/materials/{}/extensions/ADOBE_materials_clearcoat_tint/clearcoatTintTexture/extensions/"
     "KHR_texture_transform/offset",
     T::kFloat2, true, false, false},
    {"/materials/{}/extensions/ADOBE_materials_clearcoat_tint/clearcoatTintTexture/extensions/"
     "KHR_texture_transform/rotation",
     T::kFloat, true, false, false},
    {"/materials/{}/extensions/ADOBE_materials_clearcoat_tint/clearcoatTintTexture/extensions/"
     "KHR_texture_transform/scale",
     T::kFloat2, true, false, false},
    {"/nodes/{}/extensions/KHR_node_visibility/visible", T::kBool, true, false, false},
    {"/nodes/{}/extensions/KHR_node_selectability/selectable", T::kBool, true, false, false},
    {"/nodes/{}/extensions/KHR_node_hoverability/hoverable", T::kBool, true, false, false},
};

// Splits a template into its tokens (templates hold no escapes).
std::vector<std::string_view> template_tokens(std::string_view t) {
  std::vector<std::string_view> out;
  while (!t.empty()) {
    t.remove_prefix(1);  // the '/'
    const std::size_t end = t.find('/');
    out.push_back(t.substr(0, end));
    t = end == std::string_view::npos ? std::string_view() : t.substr(end);
  }
  return out;
}

// The tokens of every row, split once (thread-safe static initialisation).
const std::vector<std::vector<std::string_view>>& all_template_tokens() {
  static const std::vector<std::vector<std::string_view>> all = [] {
    std::vector<std::vector<std::string_view>> out;
    for (const Property& p : kProperties) out.push_back(template_tokens(p.pointer));
    return out;
  }();
  return all;
}

const gltf_anim::json::Value* child(const gltf_anim::json::Value* v, std::string_view token) {
  if (v == nullptr) return nullptr;
  if (v->IsObject()) return json_access::member(*v, token);  // indexed for large objects
  if (v->IsArray()) {
    const auto i = array_index(token);
    if (!i || *i >= v->Size()) return nullptr;
    return &(*v)[static_cast<rapidjson::SizeType>(*i)];
  }
  return nullptr;
}

const gltf_anim::json::Value* element(const gltf_anim::json::Value* array, std::uint64_t i) {
  if (array == nullptr || !array->IsArray() || i >= array->Size()) return nullptr;
  return &(*array)[static_cast<rapidjson::SizeType>(i)];
}

// primitives[0].targets length of the node's mesh (as the core weights rule), or 0.
std::uint64_t morph_target_count(const gltf_anim::json::Value& doc,
                                 const gltf_anim::json::Value& node) {
  const gltf_anim::json::Value* mesh_index = child(&node, "mesh");
  const auto mesh_at = mesh_index != nullptr ? json_access::as_uint(*mesh_index) : std::nullopt;
  if (!mesh_at) return 0;
  const gltf_anim::json::Value* mesh = element(child(&doc, "meshes"), *mesh_at);
  if (mesh == nullptr || !mesh->IsObject()) return 0;
  const gltf_anim::json::Value* primitive = element(child(mesh, "primitives"), 0);
  const gltf_anim::json::Value* targets =
      primitive != nullptr ? child(primitive, "targets") : nullptr;
  return targets != nullptr && targets->IsArray() ? targets->Size() : 0;
}

}  // namespace

std::string_view type_name(ValueType t) {
  switch (t) {
    case T::kFloat: return "float";
    case T::kFloat2: return "float2";
    case T::kFloat3: return "float3";
    case T::kFloat4: return "float4";
    case T::kFloatArray: return "float[]";
    case T::kInt: return "int";
    case T::kBool: return "bool";
    case T::kFloat4x4: return "float4x4";
  }
  return "?";
}

std::span<const Property> properties() { return kProperties; }

std::vector<std::string_view> owning_extensions(const Property& p) {
  std::vector<std::string_view> out;
  const std::vector<std::string_view> tokens = template_tokens(p.pointer);
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (tokens[i] == "extensions") out.push_back(tokens[i + 1]);
  }
  return out;
}

std::optional<std::vector<std::string>> parse_pointer(std::string_view pointer) {
  std::vector<std::string> tokens;
  if (pointer.empty()) return tokens;
  if (pointer.front() != '/') return std::nullopt;
  std::string current;
  for (std::size_t i = 1; i <= pointer.size(); ++i) {
    if (i == pointer.size() || pointer[i] == '/') {
      tokens.push_back(std::move(current));
      current.clear();
      continue;
    }
    if (pointer[i] == '~') {
      if (i + 1 >= pointer.size() || (pointer[i + 1] != '0' && pointer[i + 1] != '1')) {
        return std::nullopt;
      }
      current += pointer[i + 1] == '0' ? '~' : '/';
      ++i;
      continue;
    }
    current += pointer[i];
  }
  return tokens;
}

std::string join_pointer(std::span<const std::string> tokens) {
  std::string out;
  for (const std::string& t : tokens) {
    out += '/';
    out += escape_pointer_token(t);
  }
  return out;
}

std::optional<std::uint64_t> array_index(std::string_view token) {
  if (token.empty()) return std::nullopt;
  for (const char c : token) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  if (token.size() > 1 && token.front() == '0') return std::nullopt;
  std::uint64_t n = 0;
  const auto [p, ec] = std::from_chars(token.data(), token.data() + token.size(), n);
  if (ec == std::errc::result_out_of_range) return std::numeric_limits<std::uint64_t>::max();
  if (ec != std::errc() || p != token.data() + token.size()) return std::nullopt;
  return n;
}

std::optional<Match> match(std::span<const std::string> tokens) {
  const auto& all = all_template_tokens();
  for (std::size_t row = 0; row < all.size(); ++row) {
    const Property& p = kProperties[row];
    const std::vector<std::string_view>& t = all[row];
    if (t.size() != tokens.size()) continue;
    Match m{&p, {}};
    bool ok = true;
    for (std::size_t i = 0; ok && i < t.size(); ++i) {
      if (t[i] == "{}") {
        const auto index = array_index(tokens[i]);
        if (index) m.indices.push_back(*index);
        ok = index.has_value();
      } else {
        ok = t[i] == tokens[i];
      }
    }
    if (ok) return m;
  }
  return std::nullopt;
}

Resolved resolve(const gltf_anim::json::Value& doc, const Match& m) {
  Resolved r;
  if (m.property == nullptr) return r;
  const std::string_view pointer = m.property->pointer;
  const std::vector<std::string_view> t = template_tokens(pointer);
  // Node weights follow the instantiated mesh, not the node's JSON.
  if (pointer == "/nodes/{}/weights" || pointer == "/nodes/{}/weights/{}") {
    const gltf_anim::json::Value* node = element(child(&doc, "nodes"), m.indices[0]);
    if (node == nullptr || !node->IsObject()) return r;
    const std::uint64_t targets = morph_target_count(doc, *node);
    if (targets == 0) {
      r.status = Resolution::kNoMorphTargets;
      return r;
    }
    if (m.indices.size() == 2 && m.indices[1] >= targets) return r;
    r.status = Resolution::kDefined;
    r.width = m.indices.size() == 1 ? targets : 1;
    return r;
  }
  // Walk the enclosing objects; the last token may be absent when defaulted.
  const gltf_anim::json::Value* v = &doc;
  std::size_t next_index = 0;
  for (std::size_t i = 0; i + 1 < t.size(); ++i) {
    const gltf_anim::json::Value* parent = v;
    if (t[i] == "{}") {
      v = element(v, m.indices[next_index++]);
    } else {
      v = v != nullptr && v->IsObject() ? child(v, t[i]) : nullptr;
    }
    // A material's absent pbrMetallicRoughness is there with its defaults: "When
    // undefined, all the default values of pbrMetallicRoughness MUST apply" (glTF 2.0,
    // 5.19 material.pbrMetallicRoughness), and the Object Model considers "undefined glTF
    // properties that have default values ... defined with their default values" (its
    // rule 2). So its factors are defined; its textures, which have no default, are not.
    if (v == nullptr && i == 2 && i + 2 == t.size() && t[0] == "materials" &&
        t[i] == "pbrMetallicRoughness" && parent != nullptr && parent->IsObject()) {
      if (!m.property->has_default) return r;
      r.status = Resolution::kDefined;
      return r;
    }
    if (v == nullptr) return r;
  }
  if (!v->IsObject()) return r;
  const bool present = child(v, t.back()) != nullptr;
  if (!present && !m.property->has_default) return r;
  if ((pointer == "/nodes/{}/rotation" || pointer == "/nodes/{}/scale") &&
      child(v, "matrix") != nullptr) {
    r.status = Resolution::kNodeMatrix;
    return r;
  }
  r.status = Resolution::kDefined;
  return r;
}

bool output_format_ok(ValueType t, ElementType type, ComponentType component, bool normalized) {
  switch (t) {
    case T::kFloat:
    case T::kFloatArray: return type == ElementType::kScalar;
    case T::kFloat2: return type == ElementType::kVec2;
    case T::kFloat3: return type == ElementType::kVec3;
    case T::kFloat4: return type == ElementType::kVec4;
    case T::kFloat4x4: return type == ElementType::kMat4;
    case T::kInt:
      return type == ElementType::kScalar && !is_floating_point(component) && !normalized;
    case T::kBool: return type == ElementType::kScalar && component == ComponentType::kUnsignedByte;
  }
  return false;
}

std::string allowed_output_formats(ValueType t) {
  switch (t) {
    case T::kFloat:
    case T::kFloatArray: return "{SCALAR, any componentType}";
    case T::kFloat2: return "{VEC2, any componentType}";
    case T::kFloat3: return "{VEC3, any componentType}";
    case T::kFloat4: return "{VEC4, any componentType}";
    case T::kFloat4x4: return "{MAT4, any componentType}";
    case T::kInt:
      return "{SCALAR, BYTE}, {SCALAR, UNSIGNED_BYTE}, {SCALAR, SHORT}, {SCALAR, UNSIGNED_SHORT}, "
             "{SCALAR, UNSIGNED_INT}";
    case T::kBool: return "{SCALAR, UNSIGNED_BYTE}";
  }
  return "?";
}

const gltf_anim::json::Value* find_value(const gltf_anim::json::Value& doc,
                                         std::span<const std::string> tokens) {
  const gltf_anim::json::Value* v = &doc;
  for (const std::string& token : tokens) {
    v = child(v, token);
    if (v == nullptr) return nullptr;
  }
  return v;
}

}  // namespace gltf_anim::gltf::object_model

// KHR_animation2 (../shared/seeds/KHR_animation2.md, an experimental draft
// superseded by KHR_animation_pointer): channels carry `targetpointer`, a JSON
// pointer into the asset, instead of `target`, and samplers may use SLERP.
//
// Checked when the asset lists KHR_animation2 in extensionsUsed (otherwise the
// core schema's UNEXPECTED_PROPERTY/UNDEFINED_PROPERTY stand):
//  - an info that the draft is superseded (at its extensionsUsed entry);
//  - pointer syntax (RFC 6901; the draft's own example "nodes/0/rotation" has
//    no leading '/': accepted with a warning);
//  - resolution against the asset: the value exists (number or array of
//    numbers), or is a node's translation/rotation/scale/weights or a material
//    factor that has a default while its object exists; indices and counts
//    (mesh, count, ...) are not animatable;
//  - the validity table: quaternions (node rotation) STEP or SLERP only, SLERP
//    only for quaternions, CUBICSPLINE not for quaternions;
//  - output accessor type against the target's type, output count, unit
//    quaternions, node matrix, one channel per pointer.
// Object Model types come from the document here (number -> scalar, 2-4
// numbers -> vecN, other lengths -> float[]); KHR_animation_pointer's
// Object Model table is the full version of this.
#include <gltf_anim/validator/rules.hpp>

#include <string>
#include <unordered_map>
#include <vector>

#include "ext_common.hpp"

namespace gltf_anim::validator {
namespace {

using rules::array_member;
using rules::array_size;
using rules::has;
using rules::index_member;
using rules::member;
using rules::object_at;
using rules::string_member;

constexpr std::string_view kExt = "KHR_animation2";

// The animated value's type.
struct TargetType {
  enum Kind { kScalar, kVec, kQuat, kFloatArray } kind = kScalar;
  std::uint32_t width = 1;  // components per key (vecN: N, quat: 4, float[]: n)
};

std::string type_name(const TargetType& t) {
  switch (t.kind) {
    case TargetType::kScalar: return "scalar";
    case TargetType::kVec: return "vec" + std::to_string(t.width);
    case TargetType::kQuat: return "quat";
    case TargetType::kFloatArray: return "float[" + std::to_string(t.width) + "]";
  }
  return "?";
}

// Members holding indices, counts or enums: never animatable.
bool structural_member(std::string_view name) {
  static constexpr std::string_view kNames[] = {
      "mesh", "skin", "camera", "node", "index", "texCoord", "source", "sampler", "input",
      "output", "buffer", "bufferView", "count", "byteOffset", "byteLength", "byteStride",
      "componentType", "mode", "material", "indices", "scene", "joints", "skeleton",
      "children", "target", "inverseBindMatrices", "magFilter", "minFilter", "wrapS", "wrapT"};
  for (std::string_view n : kNames) {
    if (n == name) return true;
  }
  return false;
}

// Top-level collections whose members are not animated values.
bool structural_root(std::string_view name) {
  static constexpr std::string_view kNames[] = {
      "accessors", "animations", "asset", "buffers", "bufferViews", "extensionsUsed",
      "extensionsRequired", "images", "samplers", "scene", "scenes", "skins", "textures"};
  for (std::string_view n : kNames) {
    if (n == name) return true;
  }
  return false;
}

std::optional<std::size_t> morph_targets(const rapidjson::Value& mesh) {
  const rapidjson::Value* primitive = object_at(array_member(mesh, "primitives"), 0);
  const rapidjson::Value* targets = primitive != nullptr ? array_member(*primitive, "targets") : nullptr;
  if (targets == nullptr || targets->Empty()) return std::nullopt;
  return targets->Size();
}

std::optional<std::uint64_t> parse_index(std::string_view token) {
  if (token.empty() || (token.size() > 1 && token[0] == '0')) return std::nullopt;
  std::uint64_t n = 0;
  const auto [p, ec] = std::from_chars(token.data(), token.data() + token.size(), n);
  if (ec != std::errc() || p != token.data() + token.size()) return std::nullopt;
  return n;
}

struct Resolved {
  std::optional<TargetType> type;
  std::string why;  // when !type
  const rapidjson::Value* node = nullptr;  // the node for /nodes/n/<trs>
};

// Properties with a default that a present object makes animatable.
std::optional<TargetType> default_property(const std::vector<std::string>& t) {
  if (t.size() == 3 && t[0] == "nodes") {
    if (t[2] == "translation" || t[2] == "scale") return TargetType{TargetType::kVec, 3};
    if (t[2] == "rotation") return TargetType{TargetType::kQuat, 4};
  }
  if (t.size() == 3 && t[0] == "materials") {
    if (t[2] == "emissiveFactor") return TargetType{TargetType::kVec, 3};
    if (t[2] == "alphaCutoff") return TargetType{TargetType::kScalar, 1};
  }
  if (t.size() == 4 && t[0] == "materials" && t[2] == "pbrMetallicRoughness") {
    if (t[3] == "baseColorFactor") return TargetType{TargetType::kVec, 4};
    if (t[3] == "metallicFactor" || t[3] == "roughnessFactor") return TargetType{TargetType::kScalar, 1};
  }
  return std::nullopt;
}

Resolved resolve(const rapidjson::Value& doc, const std::vector<std::string>& tokens) {
  Resolved r;
  if (tokens.empty()) {
    r.why = "the whole document";
    return r;
  }
  if (structural_root(tokens[0]) || structural_member(tokens.back())) {
    r.why = "not an animatable property";
    return r;
  }
  if (tokens.size() >= 2 && tokens[0] == "nodes") {
    if (const auto n = parse_index(tokens[1])) r.node = object_at(array_member(doc, "nodes"), *n);
  }
  // Node and mesh weights: one value per morph target.
  if (tokens.size() == 3 && (tokens[0] == "nodes" || tokens[0] == "meshes") && tokens[2] == "weights") {
    const auto i = parse_index(tokens[1]);
    const rapidjson::Value* obj = i ? object_at(array_member(doc, tokens[0]), *i) : nullptr;
    const rapidjson::Value* mesh = obj;
    if (obj != nullptr && tokens[0] == "nodes") {
      const auto m = index_member(*obj, "mesh");
      mesh = m ? object_at(array_member(doc, "meshes"), *m) : nullptr;
    }
    const auto n = mesh != nullptr ? morph_targets(*mesh) : std::nullopt;
    if (!n) {
      r.why = obj == nullptr ? "no such object" : "no mesh with morph targets";
      return r;
    }
    r.type = TargetType{TargetType::kFloatArray, static_cast<std::uint32_t>(*n)};
    return r;
  }
  // Walk the document.
  const rapidjson::Value* v = &doc;
  for (const std::string& token : tokens) {
    if (v->IsObject()) {
      v = member(*v, token);
    } else if (v->IsArray()) {
      const auto i = parse_index(token);
      v = (i && *i < v->Size()) ? &(*v)[static_cast<rapidjson::SizeType>(*i)] : nullptr;
    } else {
      v = nullptr;
    }
    if (v == nullptr) break;
  }
  if (v == nullptr) {
    // Absent: a property with a default, while its enclosing object exists.
    const auto d = default_property(tokens);
    bool owner = false;
    if (d && tokens.size() >= 2) {
      const auto i = parse_index(tokens[1]);
      owner = i && object_at(array_member(doc, tokens[0]), *i) != nullptr;
    }
    if (d && owner) {
      r.type = d;
      return r;
    }
    r.why = "no such property";
    return r;
  }
  if (v->IsNumber()) {
    r.type = TargetType{TargetType::kScalar, 1};
    return r;
  }
  if (v->IsArray() && !v->Empty()) {
    for (const auto& e : v->GetArray()) {
      if (!e.IsNumber()) {
        r.why = "an array of non-numbers";
        return r;
      }
    }
    const auto n = static_cast<std::uint32_t>(v->Size());
    const bool rotation = tokens.size() == 3 && tokens[0] == "nodes" && tokens[2] == "rotation";
    if (rotation) {
      r.type = TargetType{TargetType::kQuat, 4};
    } else if (n >= 2 && n <= 4) {
      r.type = TargetType{TargetType::kVec, n};
    } else {
      r.type = TargetType{TargetType::kFloatArray, n};
    }
    return r;
  }
  r.why = "not a number or an array of numbers";
  return r;
}

// Keyframe values of a quaternion output (per key 1 element for STEP/SLERP).
class UnitQuaternionChecker final : public ElementChecker {
 public:
  UnitQuaternionChecker(IssueCollector& issues, std::string pointer)
      : issues_(issues), pointer_(std::move(pointer)) {}
  void consume(std::span<const double> values, std::uint64_t first) override {
    for (std::size_t k = 0; k < values.size() / 4; ++k) {
      const double length = rules::length4(values.data() + k * 4);
      if (!(std::abs(length - 1.0) <= rules::kUnitQuaternionTolerance)) {
        const std::uint64_t e = first + k;
        issues_.add("ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION", pointer_,
                    {std::to_string(e * 4), std::to_string(e * 4 + 3), rules::number_text(length)});
      }
    }
  }

 private:
  IssueCollector& issues_;
  std::string pointer_;
};

class Animation2Rules final : public RuleModule {
 public:
  std::string_view name() const override { return kExt; }

  bool accepts_value(const RuleContext& ctx, std::string_view pointer,
                     const rapidjson::Value& value) const override {
    return value.IsString() && std::string_view(value.GetString(), value.GetStringLength()) == "SLERP" &&
           used(ctx) && rules::animation_item(pointer, "samplers", "/interpolation").has_value();
  }

  std::optional<InterpolationInfo> interpolation(const RuleContext& ctx,
                                                 std::string_view mode) const override {
    if (mode == "SLERP" && used(ctx)) return InterpolationInfo{1, 0, 0};
    return std::nullopt;
  }

  bool excuses_member(const RuleContext& ctx, std::string_view code, std::string_view pointer,
                      std::string_view name) const override {
    if (!used(ctx) || !rules::animation_item(pointer, "channels", "")) return false;
    if (code == "UNEXPECTED_PROPERTY") return name == "targetpointer";
    if (code == "UNDEFINED_PROPERTY" && name == "target") {
      const rapidjson::Value* channel =
          rules::animation_object(ctx.doc, *rules::animation_item(pointer, "channels", ""), "channels");
      return channel != nullptr && has(*channel, "targetpointer");
    }
    return false;
  }

  void link(RuleContext& ctx) override {
    if (!used(ctx)) return;
    const rapidjson::Value* list = array_member(ctx.doc, "extensionsUsed");
    for (std::size_t i = 0; i < array_size(list); ++i) {
      const rapidjson::Value& v = (*list)[static_cast<rapidjson::SizeType>(i)];
      if (v.IsString() && std::string_view(v.GetString(), v.GetStringLength()) == kExt) {
        ctx.issues.add("KHR_ANIMATION2_SUPERSEDED",
                       JsonPointer() / std::string_view("extensionsUsed") / i);
        break;
      }
    }
    const rapidjson::Value* animations = array_member(ctx.doc, "animations");
    const JsonPointer root = JsonPointer() / std::string_view("animations");
    for (std::size_t a = 0; a < array_size(animations); ++a) {
      const rapidjson::Value* animation = object_at(animations, a);
      if (animation != nullptr) link_animation(ctx, *animation, root / a);
    }
  }

 private:
  static bool used(const RuleContext& ctx) {
    return rules::lists_extension(ctx.doc, "extensionsUsed", kExt);
  }

  // RFC 6901 tokens (a missing leading '/' is tolerated), or nullopt with a reason.
  static std::optional<std::vector<std::string>> tokens_of(std::string_view text, std::string& why) {
    std::vector<std::string> out;
    if (text.empty()) {
      why = "empty pointer";
      return std::nullopt;
    }
    if (text.front() == '/') text.remove_prefix(1);
    std::string token;
    for (std::size_t i = 0; i <= text.size(); ++i) {
      if (i == text.size() || text[i] == '/') {
        out.push_back(std::move(token));
        token.clear();
      } else if (text[i] == '~') {
        const char next = i + 1 < text.size() ? text[i + 1] : '\0';
        if (next != '0' && next != '1') {
          why = "'~' not followed by 0 or 1";
          return std::nullopt;
        }
        token += next == '0' ? '~' : '/';
        ++i;
      } else {
        token += text[i];
      }
    }
    return out;
  }

  static bool output_ok(const TargetType& t, const Accessor& acc) {
    if (t.kind == TargetType::kQuat) return rules::rotation_format_ok(acc);
    const bool is_float = acc.component_type == ComponentType::kFloat && !acc.normalized;
    switch (t.kind) {
      case TargetType::kScalar: return acc.type == ElementType::kScalar && is_float;
      case TargetType::kVec:
        return is_float && ((t.width == 2 && acc.type == ElementType::kVec2) ||
                            (t.width == 3 && acc.type == ElementType::kVec3) ||
                            (t.width == 4 && acc.type == ElementType::kVec4));
      case TargetType::kFloatArray: return acc.type == ElementType::kScalar && is_float;
      case TargetType::kQuat: break;
    }
    return false;
  }

  static std::string expected_format(const TargetType& t) {
    switch (t.kind) {
      case TargetType::kScalar:
      case TargetType::kFloatArray: return "{SCALAR, FLOAT}";
      case TargetType::kVec: return "{VEC" + std::to_string(t.width) + ", FLOAT}";
      case TargetType::kQuat: return "{VEC4, FLOAT} or {VEC4, (UNSIGNED_)BYTE/SHORT normalized}";
    }
    return "?";
  }

  static void link_animation(RuleContext& ctx, const rapidjson::Value& animation,
                             const JsonPointer& ap) {
    const rapidjson::Value* samplers = array_member(animation, "samplers");
    const rapidjson::Value* channels = array_member(animation, "channels");
    std::unordered_map<std::string, std::size_t> seen;  // normalized pointer -> channel
    for (std::size_t c = 0; c < array_size(channels); ++c) {
      const rapidjson::Value* channel = object_at(channels, c);
      if (channel == nullptr) continue;
      const rapidjson::Value* tp = member(*channel, "targetpointer");
      if (tp == nullptr) continue;
      const JsonPointer cp = ap / std::string_view("channels") / c;
      const JsonPointer tpp = cp / std::string_view("targetpointer");
      if (!tp->IsString()) {
        ctx.issues.add("KHR_ANIMATION2_INVALID_POINTER", tpp, {"?", "not a string"});
        continue;
      }
      const std::string_view text(tp->GetString(), tp->GetStringLength());
      std::string why;
      const auto tokens = tokens_of(text, why);
      if (!tokens) {
        ctx.issues.add("KHR_ANIMATION2_INVALID_POINTER", tpp, {std::string(text), why});
        continue;
      }
      if (text.front() != '/') {
        ctx.issues.add("KHR_ANIMATION2_POINTER_WITHOUT_LEADING_SLASH", tpp, {std::string(text)});
      }
      const Resolved r = resolve(ctx.doc, *tokens);
      if (!r.type) {
        ctx.issues.add("KHR_ANIMATION2_UNRESOLVED_POINTER", tpp, {std::string(text), r.why});
        continue;
      }
      const TargetType type = *r.type;
      std::string normalized;
      for (const std::string& t : *tokens) {
        normalized += '/';
        normalized += t;
      }
      const auto [it, inserted] = seen.emplace(normalized, c);
      if (!inserted) {
        ctx.issues.add("ANIMATION_DUPLICATE_TARGETS",
                       ap / std::string_view("channels") / it->second / std::string_view("targetpointer"),
                       {std::to_string(c)});
        it->second = c;
      }
      if (r.node != nullptr && tokens->size() == 3 &&
          ((*tokens)[2] == "translation" || (*tokens)[2] == "rotation" || (*tokens)[2] == "scale") &&
          has(*r.node, "matrix")) {
        ctx.issues.add("ANIMATION_CHANNEL_TARGET_NODE_MATRIX", tpp);
      }

      const auto s = index_member(*channel, "sampler");
      const rapidjson::Value* sampler = s ? object_at(samplers, *s) : nullptr;
      if (sampler == nullptr) continue;  // the core reports the reference
      const JsonPointer sp = cp / std::string_view("sampler");
      const std::string interp = std::string(string_member(*sampler, "interpolation").value_or("LINEAR"));
      const bool quat = type.kind == TargetType::kQuat;
      const bool interp_ok = interp == "STEP" || (quat ? interp == "SLERP"
                                                       : (interp == "LINEAR" || interp == "CUBICSPLINE"));
      const auto info = ctx.interpolation(interp);
      if (!interp_ok && info) {  // unknown modes: VALUE_NOT_IN_LIST already
        ctx.issues.add("KHR_ANIMATION2_INVALID_INTERPOLATION", sp, {interp, type_name(type)});
      }
      const auto out_index = index_member(*sampler, "output");
      const auto in_index = index_member(*sampler, "input");
      if (!out_index || *out_index >= ctx.asset.accessors.size()) continue;
      const Accessor& out = ctx.asset.accessors[*out_index];
      if (!out.well_formed) continue;
      if (!output_ok(type, out)) {
        ctx.issues.add("KHR_ANIMATION2_INVALID_OUTPUT_TYPE", sp,
                       {rules::format_text(out), type_name(type), expected_format(type)});
        continue;
      }
      const std::uint64_t per_key_values = type.kind == TargetType::kFloatArray ? type.width : 1;
      if (info && in_index && *in_index < ctx.asset.accessors.size() &&
          ctx.asset.accessors[*in_index].well_formed) {
        const std::uint64_t expected =
            *ctx.asset.accessors[*in_index].count * info->outputs_per_key * per_key_values;
        if (expected != *out.count) {
          ctx.issues.add("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT", sp,
                         {std::to_string(expected), std::to_string(*out.count)});
        }
      }
      if (quat && info && info->outputs_per_key == 1) {
        // The core rotation check's key: one report per accessor whoever asks.
        ctx.data.attach(*out_index, "animation.rotation/1/0",
                        std::make_unique<UnitQuaternionChecker>(ctx.issues, sp.str()));
      }
    }
  }
};

}  // namespace

std::unique_ptr<RuleModule> make_khr_animation2_rules() { return std::make_unique<Animation2Rules>(); }

}  // namespace gltf_anim::validator

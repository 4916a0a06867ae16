// KHR_animation2 (../shared/seeds/KHR_animation2.md, an experimental draft
// superseded by KHR_animation_pointer): channels carry `targetpointer`, a JSON
// pointer into the asset, instead of `target`, and samplers may use SLERP.
//
// Checked when the asset lists KHR_animation2 in extensionsUsed (otherwise the
// core schema's UNEXPECTED_PROPERTY/UNDEFINED_PROPERTY stand):
//  - an info that the draft is superseded (at its extensionsUsed entry);
//  - pointer syntax (RFC 6901; the draft's own example "nodes/0/rotation" has
//    no leading '/': accepted with a warning);
//  - resolution against the asset through the Object Model table
//    (object_model.hpp, shared with KHR_animation_pointer): a mutable
//    template, defined in the asset (present, or a default inside a present
//    object); one more index token names a component of a vector (the
//    draft's "scalars in an array");
//  - the validity table: quaternions (node rotation) STEP or SLERP only, SLERP
//    only for quaternions, CUBICSPLINE not for quaternions;
//  - output accessor type against the target's type, output count, unit
//    quaternions, node matrix, one channel per pointer.
#include <gltf_anim/validator/object_model.hpp>
#include <gltf_anim/validator/rules.hpp>

#include <string>
#include <unordered_map>
#include <vector>

#include "ext_common.hpp"

namespace gltf_anim::validator {
namespace {

using namespace rules;  // json_access.hpp, ext_common.hpp
namespace om = object_model;

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

std::uint32_t width_of(const TargetType& t) { return t.kind == TargetType::kScalar ? 1 : t.width; }

struct Resolved {
  std::optional<TargetType> type;
  std::string why;  // when !type
  const rapidjson::Value* node = nullptr;  // the node for /nodes/n/...
};

// Resolution and type through the Object Model table (object_model.hpp, shared
// with KHR_animation_pointer): the pointer instantiates a mutable template
// and is defined in the asset (present, or a default inside a present
// object). The draft's "scalars in an array": one more index token after a
// vector or array property names one of its components (a scalar).
Resolved resolve(const rapidjson::Value& doc, const std::vector<std::string>& tokens) {
  Resolved r;
  if (tokens.size() >= 2 && tokens[0] == "nodes") {
    if (const auto n = om::array_index(tokens[1])) r.node = object_at(array_member(doc, "nodes"), *n);
  }
  std::optional<om::Match> m = om::match(tokens);
  std::optional<std::uint64_t> component;
  if (!m && tokens.size() >= 2) {
    const auto index = om::array_index(tokens.back());
    const std::vector<std::string> parent(tokens.begin(), tokens.end() - 1);
    std::optional<om::Match> pm = index ? om::match(parent) : std::nullopt;
    if (pm && (pm->property->type == om::ValueType::kFloat2 ||
               pm->property->type == om::ValueType::kFloat3 ||
               pm->property->type == om::ValueType::kFloat4 ||
               pm->property->type == om::ValueType::kFloatArray)) {
      m = std::move(pm);
      component = index;
    }
  }
  if (!m) {
    r.why = "not a property of the glTF Object Model";
    return r;
  }
  const om::Property& p = *m->property;
  if (p.read_only) {
    r.why = "read-only in the glTF Object Model";
    return r;
  }
  const om::Resolved res = om::resolve(doc, *m);
  if (res.status == om::Resolution::kUndefined) {
    r.why = "not defined in this asset (absent, without a default in a present object)";
    return r;
  }
  if (res.status == om::Resolution::kNoMorphTargets) {
    r.why = "the node has no mesh with morph targets";
    return r;
  }
  TargetType t;
  switch (p.type) {
    case om::ValueType::kFloat:
    case om::ValueType::kInt:
    case om::ValueType::kBool: t = TargetType{TargetType::kScalar, 1}; break;
    case om::ValueType::kFloat2: t = TargetType{TargetType::kVec, 2}; break;
    case om::ValueType::kFloat3: t = TargetType{TargetType::kVec, 3}; break;
    case om::ValueType::kFloat4:
      t = p.quaternion ? TargetType{TargetType::kQuat, 4} : TargetType{TargetType::kVec, 4};
      break;
    case om::ValueType::kFloatArray:
      t = TargetType{TargetType::kFloatArray, static_cast<std::uint32_t>(res.width)};
      break;
    case om::ValueType::kFloat4x4:
      r.why = "a float4x4, which the draft does not animate (scalar, vec2-4, quat)";
      return r;
  }
  if (component) {
    if (*component >= width_of(t)) {
      r.why = "a component index past the property's " + std::to_string(width_of(t)) + " values";
      return r;
    }
    t = TargetType{TargetType::kScalar, 1};
  }
  r.type = t;
  return r;
}

class Animation2Rules final : public RuleModule {
 public:
  std::string_view name() const override { return kExt; }

  bool accepts_value(const RuleContext& ctx, const SchemaSite& site,
                     const rapidjson::Value& value) const override {
    return value.IsString() &&
           std::string_view(value.GetString(), value.GetStringLength()) == "SLERP" && used(ctx) &&
           site.schema == kSamplerSchema && site.member == "interpolation";
  }

  std::optional<InterpolationInfo> interpolation(const RuleContext& ctx,
                                                 std::string_view mode) const override {
    if (mode == "SLERP" && used(ctx)) return InterpolationInfo{1, 0, 0};
    return std::nullopt;
  }

  bool excuses_member(const RuleContext& ctx, IssueCode code,
                      const SchemaSite& site) const override {
    if (!used(ctx) || site.schema != kChannelSchema) return false;
    if (code == "UNEXPECTED_PROPERTY") return site.member == "targetpointer";
    return code == "UNDEFINED_PROPERTY" && site.member == "target" &&
           has(site.object, "targetpointer");
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
    for_each_animation(ctx.doc, [&ctx](const rapidjson::Value& animation, const JsonPointer& ap) {
      link_animation(ctx, animation, ap);
    });
  }

 private:
  static bool used(const RuleContext& ctx) {
    return rules::lists_extension(ctx.doc, "extensionsUsed", kExt);
  }

  // RFC 6901 tokens (object_model::parse_pointer; a missing leading '/' is
  // tolerated), or nullopt with a reason.
  static std::optional<std::vector<std::string>> tokens_of(std::string_view text, std::string& why) {
    if (text.empty()) {
      why = "empty pointer (the whole document)";
      return std::nullopt;
    }
    std::string full;
    if (text.front() != '/') full = "/";
    full += text;
    auto tokens = om::parse_pointer(full);
    if (!tokens) why = "'~' not followed by 0 or 1";
    return tokens;
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
    // The draft changes members (targetpointer, SLERP) and defines no
    // extension object anywhere.
    rules::report_misplaced_extension(ctx.issues, animation, ap, kExt);
    for (std::size_t s = 0; s < array_size(samplers); ++s) {
      if (const rapidjson::Value* sampler = object_at(samplers, s)) {
        rules::report_misplaced_extension(ctx.issues, *sampler, ap / std::string_view("samplers") / s, kExt);
      }
    }
    for (std::size_t c = 0; c < array_size(channels); ++c) {
      const rapidjson::Value* channel = object_at(channels, c);
      if (channel == nullptr) continue;
      rules::report_misplaced_extension(ctx.issues, *channel, ap / std::string_view("channels") / c, kExt);
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
        rules::check_output_count(ctx.issues, "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT", sp,
                                  *ctx.asset.accessors[*in_index].count, info->outputs_per_key,
                                  per_key_values, *out.count);
      }
      if (quat && info && info->outputs_per_key == 1) {
        // The core rotation check's key: one report per accessor whoever asks.
        rules::check_unit_quaternions(ctx, *out_index, sp, InterpolationInfo{1, 0, 0});
      }
    }
  }
};

}  // namespace

std::unique_ptr<RuleModule> make_khr_animation2_rules() { return std::make_unique<Animation2Rules>(); }

}  // namespace gltf_anim::validator

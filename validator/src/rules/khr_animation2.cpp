// KHR_animation2 (../shared/seeds/KHR_animation2.md, an experimental draft
// superseded by KHR_animation_pointer): channels carry `targetpointer`, a JSON
// pointer into the asset, instead of `target`, and samplers may use SLERP.
//
// Checked when the asset lists KHR_animation2 in extensionsUsed (otherwise the
// core schema's UNEXPECTED_PROPERTY/UNDEFINED_PROPERTY stand):
//  - an info that the draft is superseded (at its extensionsUsed entry);
//  - pointer syntax (RFC 6901; the draft's own example "nodes/0/rotation" has
//    no leading '/': accepted with a warning);
//  - resolution against the asset as the animation model reads targetpointer
//    (animation_model.hpp, through the Object Model table): a mutable
//    template, defined in the asset (present, or a default inside a present
//    object); one more index token names a component of a vector (the
//    draft's "scalars in an array");
//  - the validity table: quaternions (node rotation) STEP or SLERP only, SLERP
//    only for quaternions, CUBICSPLINE not for quaternions;
//  - output accessor type against the target's type, output count, unit
//    quaternions, node matrix, one channel per pointer.
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/gltf/object_model.hpp>
#include <gltf_anim/validator/rules.hpp>

#include <string>
#include <unordered_map>
#include <vector>

#include "ext_common.hpp"
#include "sampler_output.hpp"

namespace gltf_anim::validator {

using gltf::Accessor;
using gltf::ElementType;
using gltf::is_floating_point;
using gltf::IssueCode;
using gltf::JsonPointer;
namespace model = gltf::model;

namespace {

using namespace rules;  // json_access.hpp, ext_common.hpp
namespace om = gltf::object_model;

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

// The draft's type of a target the model linked, or why it cannot be animated.
struct Resolved {
  std::optional<TargetType> type;
  std::string why;  // when !type
};

Resolved draft_type(const model::Target& target) {
  Resolved r;
  const auto& property = std::get<model::PropertyTarget>(target.what);
  if (property.resolved.status == om::Resolution::kUndefined) {
    r.why = "not defined in this asset (absent, without a default in a present object)";
    return r;
  }
  if (property.resolved.status == om::Resolution::kNoMorphTargets) {
    r.why = "the node has no mesh with morph targets";
    return r;
  }
  const model::ValueShape& shape = target.shape;
  switch (*shape.type) {
    case om::ValueType::kFloat:
    case om::ValueType::kInt:
    case om::ValueType::kBool: r.type = TargetType{TargetType::kScalar, 1}; break;
    case om::ValueType::kFloat2:
    case om::ValueType::kFloat3:
    case om::ValueType::kFloat4:
      r.type = shape.quaternion ? TargetType{TargetType::kQuat, 4}
                                : TargetType{TargetType::kVec, static_cast<std::uint32_t>(*shape.width)};
      break;
    case om::ValueType::kFloatArray:
      r.type = TargetType{TargetType::kFloatArray, static_cast<std::uint32_t>(shape.width.value_or(0))};
      break;
    case om::ValueType::kFloat4x4:
      r.why = "a float4x4, which the draft does not animate (scalar, vec2-4, quat)";
      break;
  }
  return r;
}

class Animation2Rules final : public RuleModule {
 public:
  std::string_view name() const override { return kExt; }

  bool excuses_member(const RuleContext& ctx, IssueCode code,
                      const SchemaSite& site) const override {
    if (!used(ctx) || site.schema != kChannelSchema) return false;
    if (code == "UNEXPECTED_PROPERTY") return site.member == "targetpointer";
    return code == "UNDEFINED_PROPERTY" && site.member == "target" &&
           has(site.object, "targetpointer");
  }

  void link(RuleContext& ctx) override {
    if (!used(ctx)) return;
    const gltf_anim::json::Value* list = array_member(ctx.doc, "extensionsUsed");
    for (std::size_t i = 0; i < array_size(list); ++i) {
      const gltf_anim::json::Value& v = (*list)[static_cast<rapidjson::SizeType>(i)];
      if (v.IsString() && std::string_view(v.GetString(), v.GetStringLength()) == kExt) {
        ctx.issues.add("KHR_ANIMATION2_SUPERSEDED",
                       JsonPointer() / std::string_view("extensionsUsed") / i);
        break;
      }
    }
    for_each_linked_animation(
        ctx, [&ctx](const gltf_anim::json::Value& animation, const model::Animation& linked,
                    const JsonPointer& ap) { link_animation(ctx, animation, linked, ap); });
  }

 private:
  static bool used(const RuleContext& ctx) {
    return rules::lists_extension(ctx.doc, "extensionsUsed", kExt);
  }

  // A node's translation, rotation or scale, or one component of them, on a
  // node with `matrix` (the Object Model leaves rotation and scale of such a
  // node undefined, a component as much as the vector).
  static bool node_trs_with_matrix(const RuleContext& ctx, const model::PropertyTarget& target) {
    const std::string_view p = target.match.property->pointer;
    if (p != "/nodes/{}/translation" && p != "/nodes/{}/rotation" && p != "/nodes/{}/scale") {
      return false;
    }
    const gltf_anim::json::Value* node =
        object_at(array_member(ctx.doc, "nodes"), target.match.indices[0]);
    return node != nullptr && has(*node, "matrix");
  }

  static bool output_ok(const TargetType& t, const Accessor& acc) {
    if (t.kind == TargetType::kQuat) return rules::rotation_format_ok(acc);
    const bool is_float =
        acc.component_type && is_floating_point(*acc.component_type) && !acc.normalized;
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

  static void link_animation(RuleContext& ctx, const gltf_anim::json::Value& animation,
                             const model::Animation& linked, const JsonPointer& ap) {
    const gltf_anim::json::Value* samplers = array_member(animation, "samplers");
    const gltf_anim::json::Value* channels = array_member(animation, "channels");
    std::unordered_map<std::string, std::size_t> seen;  // normalized pointer -> channel
    // The draft changes members (targetpointer, SLERP) and defines no
    // extension object anywhere.
    rules::report_misplaced_extension(ctx.issues, animation, ap, kExt);
    for (std::size_t s = 0; s < array_size(samplers); ++s) {
      if (const gltf_anim::json::Value* sampler = object_at(samplers, s)) {
        rules::report_misplaced_extension(ctx.issues, *sampler, ap / std::string_view("samplers") / s, kExt);
      }
    }
    for (const model::Channel& ch : linked.channels) {
      const std::size_t c = ch.index;
      const gltf_anim::json::Value* channel = object_at(channels, c);
      rules::report_misplaced_extension(ctx.issues, *channel, ap / std::string_view("channels") / c, kExt);
      const gltf_anim::json::Value* tp = member(*channel, "targetpointer");
      if (tp == nullptr) continue;
      const JsonPointer cp = ap / std::string_view("channels") / c;
      const JsonPointer tpp = cp / std::string_view("targetpointer");
      // What the pointer animates: the model's reading of targetpointer.
      const auto* untargeted = std::get_if<model::Untargeted>(&ch.target);
      if (untargeted != nullptr && untargeted->reason == model::NoTarget::kMissingPointer) {
        ctx.issues.add("KHR_ANIMATION2_INVALID_POINTER", tpp, {"?", "not a string"});
        continue;
      }
      const std::string_view text(tp->GetString(), tp->GetStringLength());
      if (untargeted != nullptr && untargeted->reason == model::NoTarget::kInvalidPointer) {
        ctx.issues.add("KHR_ANIMATION2_INVALID_POINTER", tpp, {std::string(text), untargeted->why});
        continue;
      }
      if (text.front() != '/') {
        ctx.issues.add("KHR_ANIMATION2_POINTER_WITHOUT_LEADING_SLASH", tpp, {std::string(text)});
      }
      if (untargeted != nullptr) {
        ctx.issues.add("KHR_ANIMATION2_UNRESOLVED_POINTER", tpp, {std::string(text), untargeted->why});
        continue;
      }
      const model::Target& target = std::get<model::Target>(ch.target);
      const Resolved r = draft_type(target);
      if (!r.type) {
        ctx.issues.add("KHR_ANIMATION2_UNRESOLVED_POINTER", tpp, {std::string(text), r.why});
        continue;
      }
      const TargetType type = *r.type;
      const auto [it, inserted] = seen.emplace(target.pointer, c);
      if (!inserted) {
        ctx.issues.add("ANIMATION_DUPLICATE_TARGETS",
                       ap / std::string_view("channels") / it->second / std::string_view("targetpointer"),
                       {std::to_string(c)});
        it->second = c;
      }
      if (node_trs_with_matrix(ctx, std::get<model::PropertyTarget>(target.what))) {
        ctx.issues.add("ANIMATION_CHANNEL_TARGET_NODE_MATRIX", tpp);
      }

      const model::Sampler* const* sampler = model::linked(ch.sampler);
      if (sampler == nullptr) continue;  // the core reports the reference
      const JsonPointer sp = cp / std::string_view("sampler");
      const std::string_view interp = rules::rules_interpolation(**sampler);
      const bool quat = type.kind == TargetType::kQuat;
      const bool interp_ok = interp == "STEP" || (quat ? interp == "SLERP"
                                                       : (interp == "LINEAR" || interp == "CUBICSPLINE"));
      const auto info = ctx.interpolation(interp);
      if (!interp_ok && info) {  // unknown modes: VALUE_NOT_IN_LIST already
        ctx.issues.add("KHR_ANIMATION2_INVALID_INTERPOLATION", sp,
                       {std::string(interp), type_name(type)});
      }
      rules::OutputRule rule;
      rule.format_code = "KHR_ANIMATION2_INVALID_OUTPUT_TYPE";
      rule.format_ok = [type](const Accessor& out) { return output_ok(type, out); };
      rule.target = type_name(type);
      rule.allowed_formats = [type] { return expected_format(type); };
      rule.values_per_key = type.kind == TargetType::kFloatArray ? type.width : 1;
      // The draft gives quaternions no tangents: only a mode without them
      // (STEP, SLERP; LINEAR reported above) has keyframe values to check.
      rule.unit_quaternions = quat && info && info->outputs_per_key == 1;
      rules::check_output(ctx, **sampler, sp, rule);
    }
  }
};

}  // namespace

std::unique_ptr<RuleModule> make_khr_animation2_rules() { return std::make_unique<Animation2Rules>(); }

}  // namespace gltf_anim::validator

// KHR_animation_pointer (../shared/specs/KHR_animation_pointer/README.md): a
// channel target with path "pointer" and no node animates the property its
// extension object's JSON pointer names, as the animation model reads it
// (animation_model.hpp: the pointer parsed, matched against the Object Model
// table and resolved once, for these rules and for `sample` alike). Checked
// only when the asset lists the extension in
// extensionsUsed (without it, path "pointer" stays VALUE_NOT_IN_LIST).
//
// Per channel: path/node/extension-object consistency (glTF-Validator's codes),
// the pointer's template, read-only refusal, owning extensions, resolution;
// then the sampler's output against the Object Model type (format, STEP for
// int and bool, count x width x 3 for CUBICSPLINE), unit quaternions (data
// pass), and per animation: no property targeted twice (identical pointers, an
// array and one of its elements, a pointer and a core target of the same node
// property). RFC 6901 syntax: glTF-Validator's PATTERN_MISMATCH at .../pointer
// (the model's parse, linear, no regex).
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/gltf/accessor.hpp>
#include <gltf_anim/gltf/object_model.hpp>
#include <gltf_anim/validator/rules.hpp>

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "ext_common.hpp"
#include "sampler_output.hpp"

namespace gltf_anim::validator {

using gltf::Accessor;
using gltf::JsonPointer;
namespace model = gltf::model;

namespace {

namespace om = gltf::object_model;
using namespace rules;  // json_access.hpp, ext_common.hpp

constexpr std::string_view kExtension = "KHR_animation_pointer";
constexpr std::string_view kPointerPattern = "^(?:\\/(?:[^/~]|~0|~1)*)*$";

bool extension_used(const gltf_anim::json::Value& doc, std::string_view name) {
  return lists_extension(doc, "extensionsUsed", name);
}

// One channel's animated property for the duplicate check.
struct Target {
  std::size_t channel = 0;
  std::string pointer;   // canonical: "/nodes/0/rotation"
  std::string array;     // the whole array an element belongs to, else ""
  bool from_pointer = false;
};

class AnimationPointerRules final : public RuleModule {
 public:
  std::string_view name() const override { return "KHR_animation_pointer"; }

  bool accepts_value(const RuleContext& ctx, const SchemaSite& site,
                     const gltf_anim::json::Value& value) const override {
    return value.IsString() &&
           std::string_view(value.GetString(), value.GetStringLength()) == "pointer" &&
           site.schema == kChannelTargetSchema && site.member == "path" &&
           extension_used(ctx.doc, kExtension);
  }

  void link(RuleContext& ctx) override {
    if (!extension_used(ctx.doc, kExtension)) {
      report_undeclared(ctx);
      return;
    }
    for_each_linked_animation(
        ctx, [&ctx](const gltf_anim::json::Value& animation, const model::Animation& linked,
                    const JsonPointer& ap) { link_animation(ctx, animation, linked, ap); });
    report_misplaced_outside_animations(ctx);
  }

 private:
  // The extension object on the root, the asset or an object of a top-level
  // collection is not read either (glTF-Validator reads it on a channel
  // target only).
  static void report_misplaced_outside_animations(RuleContext& ctx) {
    report_misplaced_extension(ctx.issues, ctx.doc, JsonPointer(), kExtension);
    if (const gltf_anim::json::Value* asset = member(ctx.doc, "asset")) {
      report_misplaced_extension(ctx.issues, *asset, JsonPointer() / std::string_view("asset"),
                                 kExtension);
    }
    for (const std::string_view collection :
         {"accessors", "buffers", "bufferViews", "cameras", "images", "materials", "meshes",
          "nodes", "samplers", "scenes", "skins", "textures"}) {
      const gltf_anim::json::Value* list = array_member(ctx.doc, collection);
      for (std::size_t i = 0; i < array_size(list); ++i) {
        if (const gltf_anim::json::Value* obj = object_at(list, i)) {
          report_misplaced_extension(ctx.issues, *obj, JsonPointer() / collection / i, kExtension);
        }
      }
    }
  }

  // Without KHR_animation_pointer in extensionsUsed its objects are not read:
  // each one is UNDECLARED_EXTENSION (and path "pointer" VALUE_NOT_IN_LIST).
  static void report_undeclared(RuleContext& ctx) {
    const gltf_anim::json::Value* animations = array_member(ctx.doc, "animations");
    for (std::size_t a = 0; a < array_size(animations); ++a) {
      const gltf_anim::json::Value* animation = object_at(animations, a);
      if (animation == nullptr) continue;
      const gltf_anim::json::Value* channels = array_member(*animation, "channels");
      for (std::size_t c = 0; c < array_size(channels); ++c) {
        const gltf_anim::json::Value* channel = object_at(channels, c);
        const gltf_anim::json::Value* target =
            channel != nullptr ? member(*channel, "target") : nullptr;
        const gltf_anim::json::Value* extensions =
            target != nullptr ? member(*target, "extensions") : nullptr;
        if (extensions == nullptr || member(*extensions, kExtension) == nullptr) continue;
        ctx.issues.add("UNDECLARED_EXTENSION",
                       JsonPointer() / std::string_view("animations") / a / std::string_view("channels") /
                           c / std::string_view("target") / std::string_view("extensions") / kExtension,
                       {std::string(kExtension)});
      }
    }
  }

  static void link_animation(RuleContext& ctx, const gltf_anim::json::Value& animation,
                             const model::Animation& linked, const JsonPointer& ap) {
    const gltf_anim::json::Value* channels = array_member(animation, "channels");
    const gltf_anim::json::Value* samplers = array_member(animation, "samplers");
    const std::size_t node_count = array_size(array_member(ctx.doc, "nodes"));
    // The extension object anywhere but a channel target is not read.
    const auto misplaced = [&ctx](const gltf_anim::json::Value& obj, const JsonPointer& at) {
      report_misplaced_extension(ctx.issues, obj, at, kExtension);
    };
    misplaced(animation, ap);
    for (std::size_t s = 0; s < array_size(samplers); ++s) {
      if (const gltf_anim::json::Value* sampler = object_at(samplers, s)) {
        misplaced(*sampler, ap / std::string_view("samplers") / s);
      }
    }
    for (std::size_t c = 0; c < array_size(channels); ++c) {
      if (const gltf_anim::json::Value* channel = object_at(channels, c)) {
        misplaced(*channel, ap / std::string_view("channels") / c);
      }
    }
    std::vector<Target> targets;
    for (const model::Channel& ch : linked.channels) {
      const std::size_t c = ch.index;
      const gltf_anim::json::Value* channel = object_at(channels, c);
      const gltf_anim::json::Value* target = member(*channel, "target");
      if (target == nullptr || !target->IsObject()) continue;
      const JsonPointer cp = ap / std::string_view("channels") / c;
      const JsonPointer tp = cp / std::string_view("target");
      const std::optional<std::string_view> path = string_member(*target, "path");
      const auto node = index_member(*target, "node");
      const gltf_anim::json::Value* extensions = member(*target, "extensions");
      const gltf_anim::json::Value* ext =
          extensions != nullptr ? member(*extensions, kExtension) : nullptr;
      if (ext != nullptr && !ext->IsObject()) continue;  // TYPE_MISMATCH (schema): one root cause
      const JsonPointer pp = tp / std::string_view("extensions") / kExtension;

      // Core targets take part in the duplicate check with their canonical pointer.
      if (const model::NodeTarget* core = node_target(ch); ext == nullptr && core != nullptr) {
        if (model::linked(core->node) != nullptr) {
          targets.push_back(Target{c, std::get<model::Target>(ch.target).pointer, "", false});
        }
        continue;
      }
      if (ext != nullptr) {
        if (path && *path != "pointer") {
          ctx.issues.add("KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_PATH", pp, {std::string(*path)});
        }
        // An unresolved node is UNRESOLVED_REFERENCE only (as glTF-Validator).
        if (node && *node < node_count) {
          ctx.issues.add("KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_NODE", pp);
        }
      } else if (path && *path == "pointer") {
        // An object misplaced on the channel or on its sampler is where this
        // pointer went: its UNEXPECTED_EXTENSION_OBJECT is the one cause.
        const model::Sampler* const* linked_sampler = model::linked(ch.sampler);
        const gltf_anim::json::Value* sampler =
            linked_sampler != nullptr ? object_at(samplers, (*linked_sampler)->index) : nullptr;
        if (!holds_extension(*channel, kExtension) &&
            (sampler == nullptr || !holds_extension(*sampler, kExtension))) {
          ctx.issues.add("KHR_ANIMATION_POINTER_ANIMATION_CHANNEL_TARGET_MISSING_POINTER", tp);
        }
        continue;
      }
      if (ext == nullptr || !path || *path != "pointer") continue;
      const std::optional<std::string_view> pointer = string_member(*ext, "pointer");
      if (!pointer) continue;  // UNDEFINED_PROPERTY / TYPE_MISMATCH (schema)
      const JsonPointer at = pp / std::string_view("pointer");
      // What the pointer animates: the model's reading (Object Model or extras).
      const auto* untargeted = std::get_if<model::Untargeted>(&ch.target);
      if (untargeted != nullptr && untargeted->reason == model::NoTarget::kInvalidPointer) {
        // glTF-Validator's pattern for the pointer, checked without std::regex.
        std::string quoted = "\"";
        for (const char character : *pointer) {
          if (character == '"' || character == '\\') quoted += '\\';
          quoted += character;
        }
        quoted += '"';
        ctx.issues.add("PATTERN_MISMATCH", at, {quoted, std::string(kPointerPattern)});
        continue;
      }
      const std::string text(*pointer);
      if (untargeted != nullptr) {
        if (untargeted->reason == model::NoTarget::kUndefinedExtras) {
          ctx.issues.add("KHR_ANIMATION_POINTER_UNDEFINED_TARGET", at, {text});
        } else if (untargeted->reason == model::NoTarget::kUnknownProperty) {
          ctx.issues.add("KHR_ANIMATION_POINTER_UNKNOWN_TARGET", at, {text});
        } else if (untargeted->reason == model::NoTarget::kReadOnly) {
          ctx.issues.add("KHR_ANIMATION_POINTER_READ_ONLY_TARGET", at, {text});
        }
        continue;
      }
      const model::Target& animated = std::get<model::Target>(ch.target);
      if (const auto* extras = std::get_if<model::ExtrasTarget>(&animated.what)) {
        // extras: application-specific; said once, with the shape check.
        targets.push_back(Target{c, text, "", true});
        check_extras(ctx, ch, *extras, text, at);
        continue;
      }
      const auto* property = std::get_if<model::PropertyTarget>(&animated.what);
      if (property == nullptr) continue;  // not the pointer's reading (a KHR_animation2 channel)
      const om::Match* m = &property->match;
      const om::Property& prop = *m->property;
      for (const std::string_view e : animated.shape.extensions) {
        if (!extension_used(ctx.doc, e)) {
          ctx.issues.add("KHR_ANIMATION_POINTER_TARGET_EXTENSION_NOT_USED", at, {text, std::string(e)});
        }
      }
      const om::Resolved& r = property->resolved;
      if (r.status == om::Resolution::kUndefined) {
        ctx.issues.add("KHR_ANIMATION_POINTER_UNDEFINED_TARGET", at, {text});
        continue;
      }
      if (r.status == om::Resolution::kNodeMatrix) {
        ctx.issues.add("ANIMATION_CHANNEL_TARGET_NODE_MATRIX", at);
        continue;
      }
      if (r.status == om::Resolution::kNoMorphTargets) {
        ctx.issues.add("ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS", at);
        continue;
      }
      const bool node_trs = prop.pointer == "/nodes/{}/translation" ||
                            prop.pointer == "/nodes/{}/rotation" || prop.pointer == "/nodes/{}/scale";
      if (node_trs) {
        const gltf_anim::json::Value* n = object_at(array_member(ctx.doc, "nodes"), m->indices[0]);
        if (n != nullptr && has(*n, "skin")) ctx.issues.add("ANIMATION_CHANNEL_TARGET_NODE_SKIN", at);
      }
      std::string array;
      if (prop.pointer == "/nodes/{}/weights/{}") array = "/nodes/" + std::to_string(m->indices[0]) + "/weights";
      targets.push_back(Target{c, animated.pointer, std::move(array), true});

      check_output(ctx, ch, cp, text, prop, animated.shape, r.width);
    }
    report_duplicates(ctx, targets, ap / std::string_view("channels"));
  }

  // An extras value: an info when its JSON shape fits the output (the model's
  // reading, extras_misfit), a warning when not. Without a linked output (or
  // with an unknown interpolation) the core rules have said why.
  static void check_extras(RuleContext& ctx, const model::Channel& ch,
                           const model::ExtrasTarget& extras, const std::string& pointer,
                           const JsonPointer& at) {
    const model::Sampler* const* sampler = model::linked(ch.sampler);
    const model::AccessorRef* output =
        sampler != nullptr ? model::linked((*sampler)->output) : nullptr;
    std::string why;
    if (extras.value == model::ExtrasValue::kOther) {
      why = model::extras_misfit(extras, Accessor{}, std::nullopt, 1, true);
    } else if (output != nullptr && output->accessor->well_formed && (*sampler)->interpolation) {
      const model::AccessorRef* input = model::linked((*sampler)->input);
      const std::optional<std::uint64_t> keys =
          input != nullptr && input->accessor->well_formed ? input->accessor->count : std::nullopt;
      why = model::extras_misfit(extras, *output->accessor, keys, (*sampler)->outputs_per_key(),
                                 *(*sampler)->interpolation == reference::Interpolation::kStep);
    }
    if (why.empty()) {
      ctx.issues.add("KHR_ANIMATION_POINTER_EXTRAS_TARGET", at, {pointer, model::describe(extras)});
    } else {
      ctx.issues.add("KHR_ANIMATION_POINTER_EXTRAS_VALUE_MISMATCH", at,
                     {pointer, model::describe(extras), why});
    }
  }

  static void check_output(RuleContext& ctx, const model::Channel& ch, const JsonPointer& cp,
                           const std::string& pointer, const om::Property& prop,
                           const model::ValueShape& shape, std::uint64_t width) {
    const model::Sampler* const* sampler = model::linked(ch.sampler);
    if (sampler == nullptr) return;  // UNRESOLVED_REFERENCE (core)
    const std::string_view interpolation = rules_interpolation(**sampler);
    const JsonPointer sp = cp / std::string_view("sampler");
    if (shape.step_only && interpolation != "STEP") {
      ctx.issues.add("KHR_ANIMATION_POINTER_INTERPOLATION_NOT_STEP", sp,
                     {std::string(interpolation), pointer, std::string(om::type_name(prop.type))});
    }
    OutputRule rule;
    rule.format_ok = [type = prop.type](const Accessor& out) {
      return om::output_format_ok(type, *out.type, *out.component_type, out.normalized);
    };
    rule.target = pointer;
    rule.allowed_formats = [type = prop.type] { return om::allowed_output_formats(type); };
    rule.values_per_key = width;
    rule.unit_quaternions = shape.quaternion;
    rules::check_output(ctx, **sampler, sp, rule);
  }

  // In channel order: a channel whose property an earlier channel already
  // targets (the same pointer, the whole array and one of its elements, or a
  // core target of the same node property) gives ANIMATION_DUPLICATE_TARGETS on
  // the latest such earlier channel, naming this one (the core rule's
  // convention). Pairs of two core channels are the core rule's.
  static void report_duplicates(RuleContext& ctx, std::vector<Target>& targets,
                                const JsonPointer& channels_p) {
    std::sort(targets.begin(), targets.end(),
              [](const Target& x, const Target& y) { return x.channel < y.channel; });
    std::unordered_map<std::string, const Target*> exact;    // pointer -> latest channel
    std::unordered_map<std::string, const Target*> element;  // array -> latest element channel
    for (const Target& t : targets) {
      const Target* earlier = nullptr;
      const auto consider = [&earlier](const Target* e) {
        if (e != nullptr && (earlier == nullptr || e->channel > earlier->channel)) earlier = e;
      };
      if (const auto it = exact.find(t.pointer); it != exact.end()) consider(it->second);
      if (!t.array.empty()) {
        if (const auto it = exact.find(t.array); it != exact.end()) consider(it->second);
      } else if (const auto it = element.find(t.pointer); it != element.end()) {
        consider(it->second);
      }
      if (earlier != nullptr && (t.from_pointer || earlier->from_pointer)) {
        ctx.issues.add("ANIMATION_DUPLICATE_TARGETS",
                       channels_p / earlier->channel / std::string_view("target"),
                       {std::to_string(t.channel)});
      }
      exact[t.pointer] = &t;
      if (!t.array.empty()) element[t.array] = &t;
    }
  }
};

}  // namespace

std::unique_ptr<RuleModule> make_khr_animation_pointer_rules() {
  return std::make_unique<AnimationPointerRules>();
}

}  // namespace gltf_anim::validator

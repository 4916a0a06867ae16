// Core glTF 2.0 animation rules (spec 3.11 "Animations", Appendix C), grouped
// by the object they concern: samplers, then channels, then the animation as a
// whole (duplicate targets, unused samplers). What a channel animates (node,
// path, morph targets, quaternion) is the animation model's; references and
// duplicates are checked on the JSON as written. Codes, severities and pointers
// are glTF-Validator's (../shared/specs/validator-codes.md) except where its
// behaviour is a defect; docs/VALIDATOR.md lists those differences.
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/gltf/accessor.hpp>
#include <gltf_anim/validator/rules.hpp>

#include <cmath>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ext_common.hpp"
#include "sampler_output.hpp"

namespace gltf_anim::validator {

using gltf::Accessor;
using gltf::BufferView;
using gltf::component_count;
using gltf::ElementType;
using gltf::is_floating_point;
using gltf::IssueCollector;
using gltf::JsonPointer;
namespace model = gltf::model;

namespace {

using namespace rules;  // json_access.hpp, ext_common.hpp, sampler_output.hpp

// ---- data checkers -------------------------------------------------------

// Input times: each value >= 0 and greater than the previous one. "Previous"
// starts at the first element (glTF-Validator starts it at 0, so [-1, 0] gets
// a spurious NON_INCREASING); a NaN does not replace it.
class InputChecker final : public ElementChecker {
 public:
  InputChecker(IssueCollector& issues, std::string pointer)
      : issues_(issues), pointer_(std::move(pointer)) {}
  void consume(std::span<const double> values, std::uint64_t first) override {
    for (std::size_t k = 0; k < values.size(); ++k) {
      const double v = values[k];
      const std::uint64_t i = first + k;
      if (std::isnan(v)) continue;  // ACCESSOR_INVALID_FLOAT reports it
      if (v < 0) issues_.add("ACCESSOR_ANIMATION_INPUT_NEGATIVE", pointer_,
                             {std::to_string(i), number_text(v)});
      if (has_previous_ && v <= previous_) non_increasing(i, v, previous_);
      previous_ = v;
      has_previous_ = true;
    }
  }
  // 0 is never negative; in a run of zeros, the first element not above its
  // previous one is reported, once for the run.
  void consume_zeros(std::uint64_t first, std::uint64_t n) override {
    if (n == 0) return;
    if (has_previous_ && 0 <= previous_) {
      non_increasing(first, 0, previous_);
    } else if (n >= 2) {
      non_increasing(first + 1, 0, 0);
    }
    previous_ = 0;
    has_previous_ = true;
  }

 private:
  void non_increasing(std::uint64_t i, double v, double previous) {
    issues_.add("ACCESSOR_ANIMATION_INPUT_NON_INCREASING", pointer_,
                {std::to_string(i), number_text(v), number_text(previous)});
  }
  IssueCollector& issues_;
  std::string pointer_;
  double previous_ = 0;
  bool has_previous_ = false;
};

// ---- the module ------------------------------------------------------------

class AnimationRules final : public RuleModule {
 public:
  std::string_view name() const override { return "animation"; }

  void link(RuleContext& ctx) override {
    for_each_linked_animation(
        ctx, [&ctx](const gltf_anim::json::Value& animation, const model::Animation& linked,
                    const JsonPointer& ap) { link_animation(ctx, animation, linked, ap); });
    report_undeclared_extensions(ctx);
  }

 private:
  // glTF 2.0 3.12: every extension used MUST be listed in extensionsUsed. glTF-Validator
  // reports UNDECLARED_EXTENSION at `.../extensions/NAME` of every glTF object it reads, so
  // this walks the objects of the core schema (root, asset, each top-level array's objects
  // and the objects nested in them: sparse parts, camera projections, a material's texture
  // infos, mesh primitives, channel targets), never extras or an extension's own object
  // (what those hold is not glTF's: a member named "extensions" there is not a list of
  // extensions). In the animation objects, EXT_animation_sqlerp and KHR_animation_pointer
  // are their modules' to report, so they are not reported twice.
  struct Nested {
    std::string_view member;
    bool array;  // an array of such objects, else one object
    int kind;    // index into kKinds
  };
  struct Kind {
    std::vector<Nested> nested;
    bool animation_object;  // animation, channel, target, animation sampler
  };
  enum : int { kLeaf, kRoot, kAccessor, kSparse, kAnimation, kChannel, kAnimObject, kCamera,
               kMaterial, kPbr, kMesh };
  static const std::vector<Kind>& kinds() {
    static const std::vector<Kind> k = {
        /* kLeaf */ {{}, false},
        /* kRoot */
        {{{"asset", false, kLeaf},       {"accessors", true, kAccessor}, {"animations", true, kAnimation},
          {"buffers", true, kLeaf},      {"bufferViews", true, kLeaf},   {"cameras", true, kCamera},
          {"images", true, kLeaf},       {"materials", true, kMaterial}, {"meshes", true, kMesh},
          {"nodes", true, kLeaf},        {"samplers", true, kLeaf},      {"scenes", true, kLeaf},
          {"skins", true, kLeaf},        {"textures", true, kLeaf}},
         false},
        /* kAccessor */ {{{"sparse", false, kSparse}}, false},
        /* kSparse */ {{{"indices", false, kLeaf}, {"values", false, kLeaf}}, false},
        /* kAnimation */ {{{"channels", true, kChannel}, {"samplers", true, kAnimObject}}, true},
        /* kChannel */ {{{"target", false, kAnimObject}}, true},
        /* kAnimObject */ {{}, true},
        /* kCamera */ {{{"orthographic", false, kLeaf}, {"perspective", false, kLeaf}}, false},
        /* kMaterial */
        {{{"pbrMetallicRoughness", false, kPbr},
          {"normalTexture", false, kLeaf},
          {"occlusionTexture", false, kLeaf},
          {"emissiveTexture", false, kLeaf}},
         false},
        /* kPbr */ {{{"baseColorTexture", false, kLeaf}, {"metallicRoughnessTexture", false, kLeaf}}, false},
        /* kMesh */ {{{"primitives", true, kLeaf}}, false},
    };
    return k;
  }
  static void report_undeclared_extensions(RuleContext& ctx) {
    // Depth is bounded by the table (root, array, object, nested object: at most 5 levels),
    // so the recursion is too; each object is visited once.
    struct Walk {
      RuleContext& ctx;
      void object(const gltf_anim::json::Value* obj, int kind, const JsonPointer& at) {
        if (obj == nullptr || !obj->IsObject()) return;
        const Kind& k = kinds()[static_cast<std::size_t>(kind)];
        if (const gltf_anim::json::Value* extensions = member(*obj, "extensions");
            extensions != nullptr && extensions->IsObject()) {
          for (const auto& m : extensions->GetObject()) {
            const std::string_view name(m.name.GetString(), m.name.GetStringLength());
            if (k.animation_object && (name == "EXT_animation_sqlerp" || name == "KHR_animation_pointer"))
              continue;
            if (gltf::model::lists(ctx.model.extensions_used, name)) continue;
            ctx.issues.add("UNDECLARED_EXTENSION", at / std::string_view("extensions") / name,
                           {std::string(name)});
          }
        }
        for (const Nested& n : k.nested) {
          const JsonPointer np = at / n.member;
          if (!n.array) {
            object(member(*obj, n.member), n.kind, np);
            continue;
          }
          const gltf_anim::json::Value* arr = array_member(*obj, n.member);
          for (std::size_t i = 0; i < array_size(arr); ++i) object(object_at(arr, i), n.kind, np / i);
        }
      }
    };
    Walk{ctx}.object(&ctx.doc, kRoot, JsonPointer());
  }

  static void set_usage(RuleContext& ctx, std::uint64_t index, const std::string& usage,
                        const JsonPointer& at) {
    const auto [it, inserted] = ctx.accessor_usage.emplace(index, usage);
    if (!inserted && it->second != usage) {
      ctx.issues.add("ACCESSOR_USAGE_OVERRIDE", at, {it->second, usage});
    }
  }

  // Checks shared by input and output: byteStride. (Its target, and the other
  // data its bufferView holds, are the bufferView usage module's.)
  static void check_sampler_buffer_view(RuleContext& ctx, const Accessor& acc,
                                        const JsonPointer& at) {
    if (!acc.buffer_view || *acc.buffer_view >= ctx.asset.buffer_views.size()) return;
    const BufferView& view = ctx.asset.buffer_views[*acc.buffer_view];
    if (view.byte_stride) ctx.issues.add("ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE", at);
  }

  // A sampler's accessor reference: unresolved, or its usage and bufferView.
  // The linked accessor, or nullptr.
  static const model::AccessorRef* link_accessor(RuleContext& ctx,
                                                 const model::Link<model::AccessorRef>& link,
                                                 const std::string& usage, const JsonPointer& at) {
    if (const auto* unresolved = std::get_if<model::Unresolved>(&link)) {
      ctx.issues.add("UNRESOLVED_REFERENCE", at, {std::to_string(unresolved->index)});
      return nullptr;
    }
    const model::AccessorRef* ref = model::linked(link);
    if (ref == nullptr) return nullptr;
    set_usage(ctx, ref->index, usage, at);
    check_sampler_buffer_view(ctx, *ref->accessor, at);
    return ref;
  }

  static void link_sampler(RuleContext& ctx, const model::Sampler& sampler, const JsonPointer& sp) {
    const std::string_view interpolation = rules_interpolation(sampler);
    const InterpolationInfo interp = ctx.interpolation(interpolation).value_or(InterpolationInfo{});
    const JsonPointer ip = sp / std::string_view("input");
    if (const model::AccessorRef* input = link_accessor(ctx, sampler.input, "AnimationInput", ip)) {
      const Accessor& acc = *input->accessor;
      if (const auto outside = acc.well_formed ? std::nullopt : format_outside_lists(ctx.doc, input->index)) {
        ctx.issues.add("ANIMATION_SAMPLER_INPUT_ACCESSOR_INVALID_FORMAT", ip, {*outside, "{SCALAR, FLOAT}"});
      }
      if (acc.well_formed) {
        if (acc.type != ElementType::kScalar || !acc.component_type ||
            !is_floating_point(*acc.component_type) || acc.normalized) {
          ctx.issues.add("ANIMATION_SAMPLER_INPUT_ACCESSOR_INVALID_FORMAT", ip,
                         {format_text(acc), "{SCALAR, FLOAT}"});
        } else {
          ctx.data.attach(input->index, "animation.input",
                          std::make_unique<InputChecker>(ctx.issues, ip.str()));
        }
      }
      // Bounds and the count as written are the accessor's JSON (the typed view
      // holds a valid count only): an accessor with count 0 is broken
      // (VALUE_NOT_IN_RANGE) but also has too few keys for a spline.
      const gltf_anim::json::Value* acc_json =
          object_at(array_member(ctx.doc, "accessors"), input->index);
      if (acc_json != nullptr && (!has(*acc_json, "min") || !has(*acc_json, "max"))) {
        ctx.issues.add("ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS", ip);
      }
      const auto count = acc_json != nullptr ? index_member(*acc_json, "count") : std::nullopt;
      if (count && *count < interp.min_keys) {
        ctx.issues.add(
            "ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS", ip,
            {std::string(interpolation), std::to_string(interp.min_keys), std::to_string(*count)});
      }
    }
    link_accessor(ctx, sampler.output, "AnimationOutput", sp / std::string_view("output"));
  }

  static bool output_format_ok(model::NodePath path, const Accessor& acc) {
    switch (path) {
      case model::NodePath::kTranslation:
      case model::NodePath::kScale:
        return acc.type == ElementType::kVec3 && acc.component_type &&
               is_floating_point(*acc.component_type) && !acc.normalized;
      case model::NodePath::kRotation: return rotation_format_ok(acc);
      case model::NodePath::kWeights:
        return acc.type == ElementType::kScalar && float_or_normalized(acc);
    }
    return false;
  }

  static std::string allowed_formats(model::NodePath path) {
    if (path == model::NodePath::kTranslation || path == model::NodePath::kScale) return "{VEC3, FLOAT}";
    if (path == model::NodePath::kRotation) return rotation_formats();
    return "{SCALAR, FLOAT}, {SCALAR, BYTE normalized}, {SCALAR, UNSIGNED_BYTE normalized}, "
           "{SCALAR, SHORT normalized}, {SCALAR, UNSIGNED_SHORT normalized}";
  }

  static void link_animation(RuleContext& ctx, const gltf_anim::json::Value& animation,
                             const model::Animation& linked, const JsonPointer& ap) {
    const gltf_anim::json::Value* channels = array_member(animation, "channels");
    const JsonPointer samplers_p = ap / std::string_view("samplers");
    const JsonPointer channels_p = ap / std::string_view("channels");
    for (const model::Sampler& sampler : linked.samplers)
      link_sampler(ctx, sampler, samplers_p / sampler.index);
    std::vector<bool> used(linked.sampler_count, false);

    const gltf_anim::json::Value* nodes = array_member(ctx.doc, "nodes");
    const std::size_t node_count = array_size(nodes);
    // (node, path) -> index of the latest channel with that target.
    std::unordered_map<std::string, std::size_t> targets;

    for (const model::Channel& ch : linked.channels) {
      const std::size_t c = ch.index;
      const gltf_anim::json::Value* channel = object_at(channels, c);
      const JsonPointer cp = channels_p / c;
      const JsonPointer sampler_p = cp / std::string_view("sampler");
      const JsonPointer target_p = cp / std::string_view("target");

      // An index past the samplers is unresolved; one naming a sampler that is
      // not an object is the schema phase's finding.
      if (const auto* unresolved = std::get_if<model::Unresolved>(&ch.sampler)) {
        if (unresolved->index >= used.size()) {
          ctx.issues.add("UNRESOLVED_REFERENCE", sampler_p, {std::to_string(unresolved->index)});
        } else {
          used[unresolved->index] = true;
        }
      }
      const model::Sampler* const* sampler = model::linked(ch.sampler);
      if (sampler != nullptr) used[(*sampler)->index] = true;

      for (const auto& m : ctx.modules) {  // samplers an extension references are used too
        const auto e = m->extension_sampler(ctx, ch);
        if (e && *e < used.size()) used[*e] = true;
      }

      const gltf_anim::json::Value* target = member(*channel, "target");
      if (target == nullptr || !target->IsObject()) continue;
      // A reference check, about the JSON: any path (a pointer channel's node too).
      const std::optional<std::string_view> path = string_member(*target, "path");
      const auto node_index = index_member(*target, "node");
      if (node_index && *node_index >= node_count) {
        ctx.issues.add("UNRESOLVED_REFERENCE", target_p / std::string_view("node"), {std::to_string(*node_index)});
      }
      // What is animated: the model's core target (node path and its shape).
      if (const model::NodeTarget* animated = node_target(ch)) {
        link_node_target(ctx, *animated, std::get<model::Target>(ch.target).shape,
                         sampler != nullptr ? *sampler : nullptr, target_p, sampler_p);
      }

      // Duplicate targets, with a hash map: linear in the number of channels.
      // n channels with one target give n - 1 errors, each on the earlier
      // channel of a consecutive pair, naming the later one.
      if (node_index && path) {
        std::string key = std::to_string(*node_index);
        key += '/';
        key += *path;
        const auto [it, inserted] = targets.emplace(std::move(key), c);
        if (!inserted) {
          ctx.issues.add("ANIMATION_DUPLICATE_TARGETS", channels_p / it->second / std::string_view("target"),
                         {std::to_string(c)});
          it->second = c;
        }
      }
    }

    for (const model::Sampler& sampler : linked.samplers) {
      if (!used[sampler.index]) ctx.issues.add("UNUSED_OBJECT", samplers_p / sampler.index);
    }
  }

  // The node's own rules (matrix, skin, morph targets), then the sampler's
  // output against the path: format, count, unit quaternions.
  static void link_node_target(RuleContext& ctx, const model::NodeTarget& target,
                               const model::ValueShape& shape, const model::Sampler* sampler,
                               const JsonPointer& target_p, const JsonPointer& sampler_p) {
    const bool weights = target.path == model::NodePath::kWeights;
    if (const model::NodeRef* node = model::linked(target.node)) {
      if (!weights) {
        if (node->matrix) ctx.issues.add("ANIMATION_CHANNEL_TARGET_NODE_MATRIX", target_p);
        if (node->skin) ctx.issues.add("ANIMATION_CHANNEL_TARGET_NODE_SKIN", target_p / std::string_view("path"));
      } else if (!shape.width) {
        ctx.issues.add("ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS", target_p);
      }
    }
    if (sampler == nullptr) return;
    OutputRule rule;
    rule.format_ok = [path = target.path](const Accessor& out) {
      return output_format_ok(path, out);
    };
    rule.target = std::string(model::node_path_name(target.path));
    rule.allowed_formats = [path = target.path] { return allowed_formats(path); };
    // The count and values are checked whatever the format (glTF-Validator's order).
    rule.format_ends_check = false;
    rule.needs_known_interpolation = false;
    // Values per key: 1 for TRS, the morph targets for weights (unknown without them).
    const std::uint64_t per_key = weights ? shape.width.value_or(0) : 1;
    rule.values_per_key = per_key != 0 ? std::optional<std::uint64_t>(per_key) : std::nullopt;
    rule.unit_quaternions = shape.quaternion;
    check_output(ctx, *sampler, sampler_p, rule);
  }
};

// Accessor rules the animation data pass relies on: min/max lengths.
class AccessorRules final : public RuleModule {
 public:
  std::string_view name() const override { return "accessor"; }
  void link(RuleContext& ctx) override {
    const gltf_anim::json::Value* accessors = array_member(ctx.doc, "accessors");
    const JsonPointer root = JsonPointer() / std::string_view("accessors");
    for (std::size_t i = 0; i < ctx.asset.accessors.size(); ++i) {
      const Accessor& acc = ctx.asset.accessors[i];
      const gltf_anim::json::Value* json = object_at(accessors, i);
      if (json == nullptr || !acc.type) continue;
      const std::uint32_t n = component_count(*acc.type);
      for (const char* bound : {"min", "max"}) {
        const gltf_anim::json::Value* v = member(*json, bound);
        if (v != nullptr && v->IsArray() && v->Size() != n) {
          ctx.issues.add("ARRAY_LENGTH_NOT_IN_LIST", root / i / std::string_view(bound),
                         {std::to_string(v->Size()), paren(n)});
        }
      }
    }
  }
};

// Arrays whose elements must be unique (extensionsUsed, extensionsRequired,
// node.children, scene.nodes, skin.joints), with a hash set: JSON Schema's
// uniqueItems is quadratic.
class UniqueElementRules final : public RuleModule {
 public:
  std::string_view name() const override { return "unique-elements"; }
  void link(RuleContext& ctx) override {
    for (const char* list : {"extensionsUsed", "extensionsRequired"}) {
      check(ctx, array_member(ctx.doc, list), JsonPointer() / std::string_view(list));
    }
    const gltf_anim::json::Value* nodes = array_member(ctx.doc, "nodes");
    for (std::size_t n = 0; n < array_size(nodes); ++n) {
      const gltf_anim::json::Value* node = object_at(nodes, n);
      if (node == nullptr) continue;
      check(ctx, array_member(*node, "children"),
            JsonPointer() / std::string_view("nodes") / n / std::string_view("children"));
    }
    for (const auto& [collection, list] :
         {std::pair<std::string_view, std::string_view>{"scenes", "nodes"}, {"skins", "joints"}}) {
      const gltf_anim::json::Value* objects = array_member(ctx.doc, collection);
      for (std::size_t k = 0; k < array_size(objects); ++k) {
        const gltf_anim::json::Value* object = object_at(objects, k);
        if (object == nullptr) continue;
        check(ctx, array_member(*object, list), JsonPointer() / collection / k / list);
      }
    }
  }

 private:
  static void check(RuleContext& ctx, const gltf_anim::json::Value* array, const JsonPointer& at) {
    if (array == nullptr) return;
    std::unordered_set<std::string> seen;
    for (rapidjson::SizeType i = 0; i < array->Size(); ++i) {
      const gltf_anim::json::Value& v = (*array)[i];
      std::string key;
      if (v.IsString()) {
        key = "s";
        key.append(v.GetString(), v.GetStringLength());
      } else if (const auto u = gltf::json_access::as_uint(v)) {
        key = "u";  // 1 and 1.0 are one integer
        key += std::to_string(*u);
      } else {
        continue;  // wrong types were reported by the schema phase
      }
      if (!seen.insert(std::move(key)).second) ctx.issues.add("DUPLICATE_ELEMENTS", at / i);
    }
  }
};

}  // namespace

std::unique_ptr<RuleModule> make_unique_element_rules() {
  return std::make_unique<UniqueElementRules>();
}
std::unique_ptr<RuleModule> make_animation_rules() { return std::make_unique<AnimationRules>(); }
std::unique_ptr<RuleModule> make_accessor_rules() { return std::make_unique<AccessorRules>(); }

}  // namespace gltf_anim::validator

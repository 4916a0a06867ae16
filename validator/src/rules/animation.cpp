// Core glTF 2.0 animation rules (spec 3.11 "Animations", Appendix C), grouped
// by the object they concern: samplers, then channels, then the animation as a
// whole (duplicate targets, unused samplers). What a channel animates (node,
// path, morph targets, quaternion) is the animation model's; references and
// duplicates are checked on the JSON as written. Codes, severities and pointers
// are glTF-Validator's (../shared/specs/validator-codes.md) except where its
// behaviour is a defect; docs/VALIDATOR.md lists those differences.
#include <gltf_anim/validator/accessor.hpp>
#include <gltf_anim/validator/rules.hpp>

#include <cmath>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ext_common.hpp"

namespace gltf_anim::validator {
namespace {

using namespace rules;  // json_access.hpp, ext_common.hpp

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

struct SamplerInfo {
  const rapidjson::Value* json = nullptr;
  std::string interpolation = "LINEAR";  // spec default
  std::optional<std::uint64_t> input;    // resolved accessor indices only
  std::optional<std::uint64_t> output;
};

class AnimationRules final : public RuleModule {
 public:
  std::string_view name() const override { return "animation"; }

  void link(RuleContext& ctx) override {
    for_each_linked_animation(ctx, [&ctx](const rapidjson::Value& animation, const model::Animation& linked,
                                          const JsonPointer& ap) { link_animation(ctx, animation, linked, ap); });
  }

 private:
  // The accessor at `index` as a typed view, or nullptr when out of range.
  static const Accessor* accessor(const RuleContext& ctx, std::uint64_t index) {
    return index < ctx.asset.accessors.size() ? &ctx.asset.accessors[index] : nullptr;
  }

  static void set_usage(RuleContext& ctx, std::uint64_t index, const std::string& usage,
                        const JsonPointer& at) {
    const auto [it, inserted] = ctx.accessor_usage.emplace(index, usage);
    if (!inserted && it->second != usage) {
      ctx.issues.add("ACCESSOR_USAGE_OVERRIDE", at, {it->second, usage});
    }
  }

  // Checks shared by input and output: bufferView target and byteStride.
  static void check_sampler_buffer_view(RuleContext& ctx, const Accessor& acc,
                                        const JsonPointer& at) {
    if (!acc.buffer_view || *acc.buffer_view >= ctx.asset.buffer_views.size()) return;
    const BufferView& view = ctx.asset.buffer_views[*acc.buffer_view];
    if (view.target) {
      const std::string target = *view.target == 34962   ? "ArrayBuffer"
                                 : *view.target == 34963 ? "ElementArrayBuffer"
                                                         : std::to_string(*view.target);
      ctx.issues.add("BUFFER_VIEW_TARGET_OVERRIDE", at, {target, "Other"});
    }
    if (view.byte_stride) ctx.issues.add("ANIMATION_SAMPLER_ACCESSOR_WITH_BYTESTRIDE", at);
  }

  static std::vector<SamplerInfo> link_samplers(RuleContext& ctx, const rapidjson::Value* samplers,
                                                const JsonPointer& at) {
    std::vector<SamplerInfo> infos(array_size(samplers));
    const std::size_t accessor_count = ctx.asset.accessors.size();
    for (std::size_t s = 0; s < infos.size(); ++s) {
      const rapidjson::Value* sampler = object_at(samplers, s);
      if (sampler == nullptr) continue;
      SamplerInfo& info = infos[s];
      info.json = sampler;
      if (const auto interp = string_member(*sampler, "interpolation")) {
        info.interpolation = std::string(*interp);
      }
      const JsonPointer sp = at / s;
      const InterpolationInfo interp = ctx.interpolation(info.interpolation).value_or(InterpolationInfo{});

      if (const auto input = index_member(*sampler, "input")) {
        const JsonPointer ip = sp / std::string_view("input");
        if (*input >= accessor_count) {
          ctx.issues.add("UNRESOLVED_REFERENCE", ip, {std::to_string(*input)});
        } else {
          info.input = *input;
          const Accessor& acc = *accessor(ctx, *input);
          set_usage(ctx, *input, "AnimationInput", ip);
          check_sampler_buffer_view(ctx, acc, ip);
          if (acc.well_formed) {
            if (acc.type != ElementType::kScalar || !acc.component_type ||
                !is_floating_point(*acc.component_type) || acc.normalized) {
              ctx.issues.add("ANIMATION_SAMPLER_INPUT_ACCESSOR_INVALID_FORMAT", ip,
                             {format_text(acc), "{SCALAR, FLOAT}"});
            } else {
              ctx.data.attach(*input, "animation.input",
                              std::make_unique<InputChecker>(ctx.issues, ip.str()));
            }
          }
          const rapidjson::Value* acc_json = object_at(array_member(ctx.doc, "accessors"), *input);
          if (acc_json != nullptr && (!has(*acc_json, "min") || !has(*acc_json, "max"))) {
            ctx.issues.add("ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS", ip);
          }
          // The count as written: an accessor with count 0 is broken (VALUE_NOT_IN_RANGE)
          // but also has too few keys for a spline.
          const auto count = acc_json != nullptr ? index_member(*acc_json, "count") : std::nullopt;
          if (count && *count < interp.min_keys) {
            ctx.issues.add("ANIMATION_SAMPLER_INPUT_ACCESSOR_TOO_FEW_ELEMENTS", ip,
                           {info.interpolation, std::to_string(interp.min_keys), std::to_string(*count)});
          }
        }
      }
      if (const auto output = index_member(*sampler, "output")) {
        const JsonPointer op = sp / std::string_view("output");
        if (*output >= accessor_count) {
          ctx.issues.add("UNRESOLVED_REFERENCE", op, {std::to_string(*output)});
        } else {
          info.output = *output;
          set_usage(ctx, *output, "AnimationOutput", op);
          check_sampler_buffer_view(ctx, *accessor(ctx, *output), op);
        }
      }
    }
    return infos;
  }

  static bool output_format_ok(model::NodePath path, const Accessor& acc) {
    const bool float_type =
        acc.component_type && is_floating_point(*acc.component_type) && !acc.normalized;
    const bool normalized_int =
        acc.normalized && (acc.component_type == ComponentType::kByte ||
                           acc.component_type == ComponentType::kUnsignedByte ||
                           acc.component_type == ComponentType::kShort ||
                           acc.component_type == ComponentType::kUnsignedShort);
    switch (path) {
      case model::NodePath::kTranslation:
      case model::NodePath::kScale: return acc.type == ElementType::kVec3 && float_type;
      case model::NodePath::kRotation: return acc.type == ElementType::kVec4 && (float_type || normalized_int);
      case model::NodePath::kWeights: return acc.type == ElementType::kScalar && (float_type || normalized_int);
    }
    return false;
  }

  static std::string allowed_formats(model::NodePath path) {
    if (path == model::NodePath::kTranslation || path == model::NodePath::kScale) return "{VEC3, FLOAT}";
    if (path == model::NodePath::kRotation) {
      return "{VEC4, FLOAT}, {VEC4, BYTE normalized}, {VEC4, UNSIGNED_BYTE normalized}, "
             "{VEC4, SHORT normalized}, {VEC4, UNSIGNED_SHORT normalized}";
    }
    return "{SCALAR, FLOAT}, {SCALAR, BYTE normalized}, {SCALAR, UNSIGNED_BYTE normalized}, "
           "{SCALAR, SHORT normalized}, {SCALAR, UNSIGNED_SHORT normalized}";
  }

  static void link_animation(RuleContext& ctx, const rapidjson::Value& animation, const model::Animation& linked,
                             const JsonPointer& ap) {
    const rapidjson::Value* samplers = array_member(animation, "samplers");
    const rapidjson::Value* channels = array_member(animation, "channels");
    const JsonPointer samplers_p = ap / std::string_view("samplers");
    const JsonPointer channels_p = ap / std::string_view("channels");
    std::vector<SamplerInfo> infos = link_samplers(ctx, samplers, samplers_p);
    std::vector<bool> used(infos.size(), false);

    const rapidjson::Value* nodes = array_member(ctx.doc, "nodes");
    const std::size_t node_count = array_size(nodes);
    // (node, path) -> index of the latest channel with that target.
    std::unordered_map<std::string, std::size_t> targets;

    for (const model::Channel& ch : linked.channels) {
      const std::size_t c = ch.index;
      const rapidjson::Value* channel = object_at(channels, c);
      const JsonPointer cp = channels_p / c;
      const JsonPointer sampler_p = cp / std::string_view("sampler");
      const JsonPointer target_p = cp / std::string_view("target");

      const SamplerInfo* info = nullptr;
      if (const auto s = index_member(*channel, "sampler")) {
        if (*s >= infos.size()) {
          ctx.issues.add("UNRESOLVED_REFERENCE", sampler_p, {std::to_string(*s)});
        } else {
          used[*s] = true;
          if (infos[*s].json != nullptr) info = &infos[*s];
        }
      }

      for (const auto& m : ctx.modules) {  // samplers an extension references are used too
        const auto e = m->extension_sampler(ctx, *channel);
        if (e && *e < used.size()) used[*e] = true;
      }

      const rapidjson::Value* target = member(*channel, "target");
      if (target == nullptr || !target->IsObject()) continue;
      // A reference check, about the JSON: any path (a pointer channel's node too).
      const std::optional<std::string_view> path = string_member(*target, "path");
      const auto node_index = index_member(*target, "node");
      if (node_index && *node_index >= node_count) {
        ctx.issues.add("UNRESOLVED_REFERENCE", target_p / std::string_view("node"), {std::to_string(*node_index)});
      }
      // What is animated: the model's core target (node path and its shape).
      if (const model::NodeTarget* animated = node_target(ch)) {
        link_node_target(ctx, *animated, std::get<model::Target>(ch.target).shape, info, target_p, sampler_p);
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

    for (std::size_t s = 0; s < infos.size(); ++s) {
      if (!used[s] && infos[s].json != nullptr) ctx.issues.add("UNUSED_OBJECT", samplers_p / s);
    }
  }

  // The node's own rules (matrix, skin, morph targets), then the sampler's
  // output against the path: format, count, unit quaternions.
  static void link_node_target(RuleContext& ctx, const model::NodeTarget& target, const model::ValueShape& shape,
                               const SamplerInfo* info, const JsonPointer& target_p, const JsonPointer& sampler_p) {
    const bool weights = target.path == model::NodePath::kWeights;
    if (const model::NodeRef* node = model::linked(target.node)) {
      if (!weights) {
        if (node->matrix) ctx.issues.add("ANIMATION_CHANNEL_TARGET_NODE_MATRIX", target_p);
        if (node->skin) ctx.issues.add("ANIMATION_CHANNEL_TARGET_NODE_SKIN", target_p / std::string_view("path"));
      } else if (!shape.width) {
        ctx.issues.add("ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS", target_p);
      }
    }
    if (info == nullptr || !info->output) return;
    const Accessor& out = *accessor(ctx, *info->output);
    if (!out.well_formed) return;
    const InterpolationInfo interp = ctx.interpolation(info->interpolation).value_or(InterpolationInfo{});
    if (!output_format_ok(target.path, out)) {
      ctx.issues.add("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT", sampler_p,
                     {format_text(out), std::string(model::node_path_name(target.path)), allowed_formats(target.path)});
    }
    const Accessor* in = info->input ? accessor(ctx, *info->input) : nullptr;
    // Values per key: 1 for TRS, the morph targets for weights (unknown without them).
    const std::uint64_t per_key = weights ? shape.width.value_or(0) : 1;
    if (in != nullptr && in->well_formed && per_key != 0) {
      check_output_count(ctx.issues, "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT", sampler_p, *in->count,
                         interp.outputs_per_key, per_key, *out.count);
    }
    if (shape.quaternion && out.type == ElementType::kVec4) {
      check_unit_quaternions(ctx, *info->output, sampler_p, interp);
    }
  }
};

// Accessor rules the animation data pass relies on: min/max lengths.
class AccessorRules final : public RuleModule {
 public:
  std::string_view name() const override { return "accessor"; }
  void link(RuleContext& ctx) override {
    const rapidjson::Value* accessors = array_member(ctx.doc, "accessors");
    const JsonPointer root = JsonPointer() / std::string_view("accessors");
    for (std::size_t i = 0; i < ctx.asset.accessors.size(); ++i) {
      const Accessor& acc = ctx.asset.accessors[i];
      const rapidjson::Value* json = object_at(accessors, i);
      if (json == nullptr || !acc.type) continue;
      const std::uint32_t n = component_count(*acc.type);
      for (const char* bound : {"min", "max"}) {
        const rapidjson::Value* v = member(*json, bound);
        if (v != nullptr && v->IsArray() && v->Size() != n) {
          ctx.issues.add("ARRAY_LENGTH_NOT_IN_LIST", root / i / std::string_view(bound),
                         {std::to_string(v->Size()), paren(n)});
        }
      }
    }
  }
};

// Arrays whose elements must be unique (extensionsUsed, extensionsRequired,
// node.children), with a hash set: JSON Schema's uniqueItems is quadratic.
class UniqueElementRules final : public RuleModule {
 public:
  std::string_view name() const override { return "unique-elements"; }
  void link(RuleContext& ctx) override {
    for (const char* list : {"extensionsUsed", "extensionsRequired"}) {
      check(ctx, array_member(ctx.doc, list), JsonPointer() / std::string_view(list));
    }
    const rapidjson::Value* nodes = array_member(ctx.doc, "nodes");
    for (std::size_t n = 0; n < array_size(nodes); ++n) {
      const rapidjson::Value* node = object_at(nodes, n);
      if (node == nullptr) continue;
      check(ctx, array_member(*node, "children"),
            JsonPointer() / std::string_view("nodes") / n / std::string_view("children"));
    }
  }

 private:
  static void check(RuleContext& ctx, const rapidjson::Value* array, const JsonPointer& at) {
    if (array == nullptr) return;
    std::unordered_set<std::string> seen;
    for (rapidjson::SizeType i = 0; i < array->Size(); ++i) {
      const rapidjson::Value& v = (*array)[i];
      std::string key;
      if (v.IsString()) {
        key = "s";
        key.append(v.GetString(), v.GetStringLength());
      } else if (v.IsUint64()) {
        key = "u";
        key += std::to_string(v.GetUint64());
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

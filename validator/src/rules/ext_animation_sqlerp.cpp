// EXT_animation_sqlerp (../shared/seeds/EXT_animation_sqlerp.md): the CUBICSLERP
// interpolation mode, referenced from a channel's extension object
// (channel.extensions.EXT_animation_sqlerp.sampler), with the channel's core
// `sampler` as the fallback for clients without the extension.
//
// glTF-Validator does not know the extension: on valid data it reports
// CUBICSLERP as VALUE_NOT_IN_LIST, the 3-per-key output as a wrong count and
// the tangents as non-unit quaternions. Here, when the asset lists the
// extension in extensionsUsed:
//  - CUBICSLERP is a known mode (its row of the interpolation table,
//    reference/interpolation.hpp: 3 outputs per key, the middle one the
//    value, rotations only); the core counts and quaternion checks read it;
//  - a channel with the extension object may omit its core `sampler`;
//  - the extension's sampler counts as used (no UNUSED_OBJECT).
// The six codes EXT_ANIMATION_SQLERP_* are stable; other checks use the
// generic codes (UNRESOLVED_REFERENCE, UNDECLARED_EXTENSION, the core output
// format and quaternion codes).
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/validator/rules.hpp>

#include <string>
#include <vector>

#include "ext_common.hpp"
#include "sampler_output.hpp"

namespace gltf_anim::validator {

using gltf::Accessor;
using gltf::IssueCode;
using gltf::IssueCollector;
using gltf::JsonPointer;
namespace model = gltf::model;

namespace {

using namespace rules;  // json_access.hpp, ext_common.hpp

constexpr std::string_view kExt = "EXT_animation_sqlerp";
constexpr std::string_view kMode =
    reference::interpolation_name(reference::Interpolation::kCubicSlerp);

// Every quaternion of a CUBICSLERP output (a_k, v_k, b_k per key) is unit
// length, except the first in-tangent a_1 and the last out-tangent b_n, which
// are not used and SHOULD be zero: nonzero, they get a warning (and, if they
// are not unit either, the unit-length error).
class SqlerpOutputChecker final : public ElementChecker {
 public:
  SqlerpOutputChecker(IssueCollector& issues, std::string pointer, std::uint64_t elements)
      : issues_(issues), pointer_(std::move(pointer)), elements_(elements) {}
  void consume(std::span<const double> values, std::uint64_t first) override {
    const std::size_t n = values.size() / 4;
    for (std::size_t k = 0; k < n; ++k) {
      const std::uint64_t e = first + k;
      const double* q = values.data() + k * 4;
      const bool end_tangent = e == 0 || e + 1 == elements_;
      if (end_tangent) {
        if (q[0] == 0 && q[1] == 0 && q[2] == 0 && q[3] == 0) continue;
        issues_.add("EXT_ANIMATION_SQLERP_NONZERO_END_TANGENT", pointer_,
                    {e == 0 ? std::string("in-tangent") : std::string("out-tangent"),
                     std::to_string(e)});
      }
      const double length = rules::length4(q);
      if (!(std::abs(length - 1.0) <= rules::kUnitQuaternionTolerance)) non_unit(e, length);
    }
  }
  // Zero end tangents are right; any other zero element is not unit length:
  // one issue for the run, at its first such element.
  void consume_zeros(std::uint64_t first, std::uint64_t n) override {
    for (std::uint64_t e = first; e < first + n && e - first < 3; ++e) {
      if (e != 0 && e + 1 != elements_) {
        non_unit(e, 0.0);
        return;
      }
    }
  }

 private:
  void non_unit(std::uint64_t e, double length) {
    issues_.add("ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION", pointer_,
                {rules::component_index_text(e, 4, 0), rules::component_index_text(e, 4, 3),
                 rules::number_text(length)});
  }
  IssueCollector& issues_;
  std::string pointer_;
  std::uint64_t elements_;
};

class SqlerpRules final : public RuleModule {
 public:
  std::string_view name() const override { return kExt; }

  // A channel with the extension object may omit its core sampler (then
  // EXT_animation_sqlerp must be required; link() checks that).
  bool excuses_member(const RuleContext& /*ctx*/, IssueCode code,
                      const SchemaSite& site) const override {
    return code == "UNDEFINED_PROPERTY" && site.member == "sampler" &&
           site.schema == kChannelSchema && rules::extension_object(site.object, kExt) != nullptr;
  }

  std::optional<std::uint64_t> extension_sampler(const RuleContext& /*ctx*/,
                                                 const model::Channel& channel) const override {
    if (!channel.sqlerp_sampler) return std::nullopt;
    return sampler_index(*channel.sqlerp_sampler);
  }

  void link(RuleContext& ctx) override {
    for_each_linked_animation(
        ctx, [&ctx](const gltf_anim::json::Value& animation, const model::Animation& linked,
                    const JsonPointer& ap) { link_animation(ctx, animation, linked, ap); });
  }

 private:
  static bool used(const RuleContext& ctx) {
    return rules::lists_extension(ctx.doc, "extensionsUsed", kExt);
  }

  // The index a sampler reference names, linked or not.
  static std::optional<std::uint64_t> sampler_index(
      const model::Link<const model::Sampler*>& link) {
    if (const auto* unresolved = std::get_if<model::Unresolved>(&link)) return unresolved->index;
    if (const model::Sampler* const* sampler = model::linked(link)) return (*sampler)->index;
    return std::nullopt;
  }

  static bool is_sqlerp(const model::Sampler* sampler) {
    return sampler != nullptr && rules_interpolation(*sampler) == kMode;
  }

  static const model::Sampler* linked_sampler(const model::Link<const model::Sampler*>& link) {
    const model::Sampler* const* sampler = model::linked(link);
    return sampler != nullptr ? *sampler : nullptr;
  }

  // Keyframe, count, format and quaternion checks of one CUBICSLERP sampler,
  // once per sampler however many channels use it.
  static void check_sampler(RuleContext& ctx, const model::Sampler& sampler,
                            const JsonPointer& sp) {
    const Accessor* in = well_formed(sampler.input);
    if (in != nullptr && *in->count < 2) {
      ctx.issues.add("EXT_ANIMATION_SQLERP_TOO_FEW_KEYFRAMES", sp / std::string_view("input"),
                     {std::to_string(*in->count)});
    }
    const JsonPointer op = sp / std::string_view("output");
    OutputRule rule;
    rule.format_ok = rules::rotation_format_ok;
    rule.target = "rotation";
    rule.allowed_formats = rules::rotation_formats;
    rule.count_code = "EXT_ANIMATION_SQLERP_INVALID_OUTPUT_COUNT";
    rule.count_first = true;
    const OutputVerdict verdict = check_output(ctx, sampler, op, rule);
    // Which element is an end tangent is only known when the count is right.
    if (verdict.format_ok && verdict.count_ok) {
      ctx.data.attach(
          model::linked(sampler.output)->index, "EXT_animation_sqlerp.output",
          std::make_unique<SqlerpOutputChecker>(ctx.issues, op.str(), *verdict.output->count));
    }
  }

  static void link_animation(RuleContext& ctx, const gltf_anim::json::Value& animation,
                             const model::Animation& linked, const JsonPointer& ap) {
    const gltf_anim::json::Value* samplers = array_member(animation, "samplers");
    const gltf_anim::json::Value* channels = array_member(animation, "channels");
    const bool declared = used(ctx);
    if (declared) {
      // The extension object belongs on channels only.
      rules::report_misplaced_extension(ctx.issues, animation, ap, kExt);
      // The model holds the samplers that are objects, in glTF order.
      for (const model::Sampler& sampler : linked.samplers) {
        const JsonPointer sp = ap / std::string_view("samplers") / sampler.index;
        rules::report_misplaced_extension(ctx.issues, *object_at(samplers, sampler.index), sp,
                                          kExt);
        if (is_sqlerp(&sampler)) check_sampler(ctx, sampler, sp);
      }
    }
    const bool required = rules::lists_extension(ctx.doc, "extensionsRequired", kExt);
    for (const model::Channel& ch : linked.channels) {
      const std::size_t c = ch.index;
      const gltf_anim::json::Value* channel = object_at(channels, c);
      const JsonPointer cp = ap / std::string_view("channels") / c;
      const model::Sampler* core = linked_sampler(ch.sampler);
      const gltf_anim::json::Value* target = member(*channel, "target");
      const auto path = target != nullptr ? string_member(*target, "path") : std::nullopt;
      bool drives_sqlerp = false;

      // CUBICSLERP behind the core `sampler`: a client without the extension
      // has nothing it can play (with or without the extension object).
      if (declared && is_sqlerp(core)) {
        ctx.issues.add("EXT_ANIMATION_SQLERP_MISSING_FALLBACK", cp,
                       {"its sampler " + std::to_string(core->index) + " is CUBICSLERP"});
        drives_sqlerp = true;
      }
      if (ch.sqlerp_sampler) {
        const JsonPointer ep = cp / std::string_view("extensions") / kExt;
        if (!declared) ctx.issues.add("UNDECLARED_EXTENSION", ep, {std::string(kExt)});
        const model::Sampler* named = linked_sampler(*ch.sqlerp_sampler);
        if (const auto s = sampler_index(*ch.sqlerp_sampler); s && *s >= linked.sampler_count) {
          ctx.issues.add("UNRESOLVED_REFERENCE", ep / std::string_view("sampler"),
                         {std::to_string(*s)});
        } else if (declared && named != nullptr && !is_sqlerp(named) &&
                   !named->interpolation_mistyped) {
          // The extension's sampler holds CUBICSLERP data by definition; a
          // client with the extension would misread any other mode's output.
          ctx.issues.add("EXT_ANIMATION_SQLERP_INVALID_SAMPLER_INTERPOLATION",
                         ep / std::string_view("sampler"),
                         {std::to_string(named->index), named->interpolation_name});
        } else {
          drives_sqlerp = drives_sqlerp || is_sqlerp(named);
        }
        if (!ch.sampler_written && !required) {
          ctx.issues.add("EXT_ANIMATION_SQLERP_MISSING_FALLBACK", cp,
                         {std::string("it has no sampler and EXT_animation_sqlerp is not in "
                                      "extensionsRequired")});
        }
      }
      // "Only valid when targeting a rotation": a quaternion, however the
      // channel names it (a core rotation, a KHR_animation_pointer to one).
      const auto* animated = std::get_if<model::Target>(&ch.target);
      if (drives_sqlerp && animated != nullptr && !animated->shape.quaternion) {
        const auto* node = std::get_if<model::NodeTarget>(&animated->what);
        const JsonPointer at =
            animated->source == model::TargetSource::kAnimation2 ? cp / std::string_view("targetpointer")
            : animated->source == model::TargetSource::kAnimationPointer
                ? cp / std::string_view("target") / std::string_view("extensions") /
                      std::string_view("KHR_animation_pointer") / std::string_view("pointer")
                : cp / std::string_view("target") / std::string_view("path");
        ctx.issues.add("EXT_ANIMATION_SQLERP_INVALID_TARGET_PATH", at,
                       {node != nullptr ? std::string(model::node_path_name(node->path)) : animated->pointer});
      } else if (drives_sqlerp && animated == nullptr && path && *path != "rotation") {
        ctx.issues.add("EXT_ANIMATION_SQLERP_INVALID_TARGET_PATH",
                       cp / std::string_view("target") / std::string_view("path"), {std::string(*path)});
      }
    }
  }
};

}  // namespace

std::unique_ptr<RuleModule> make_ext_animation_sqlerp_rules() {
  return std::make_unique<SqlerpRules>();
}

}  // namespace gltf_anim::validator

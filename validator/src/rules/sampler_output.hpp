#pragma once
// The one check of a sampler's output against what it animates: format,
// count, unit quaternions, over the animation model's sampler (its linked
// input and output accessors). Each rule module says what its reading of the
// target asks (OutputRule); none of them follows sampler or accessor indices
// in the JSON itself.
#include <gltf_anim/gltf/animation_model.hpp>
#include <gltf_anim/validator/rules.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "ext_common.hpp"

namespace gltf_anim::validator::rules {

using gltf::Accessor;
using gltf::ElementType;
using gltf::IssueCode;
using gltf::JsonPointer;
namespace model = gltf::model;

// The interpolation name the rules check a sampler as: the name as written, or
// the spec's default when it is written with another type than string (the
// schema phase reported that TYPE_MISMATCH: one root cause).
inline std::string_view rules_interpolation(const model::Sampler& sampler) {
  return sampler.interpolation_mistyped ? std::string_view("LINEAR")
                                        : std::string_view(sampler.interpolation_name);
}

// The linked accessor of `link` when the loader found its JSON well formed, else nullptr.
inline const Accessor* well_formed(const model::Link<model::AccessorRef>& link) {
  const model::AccessorRef* ref = model::linked(link);
  return ref != nullptr && ref->accessor->well_formed ? ref->accessor : nullptr;
}

// The core codes OutputRule starts from. Constants, not literals in its default
// member initializers: clang 14 (Debian's emscripten) leaves a consteval
// constructor there unevaluated, and the link then misses unregistered_issue_code.
inline constexpr IssueCode kOutputFormatCode = "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT";
inline constexpr IssueCode kOutputCountCode = "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT";

// What a target asks of its sampler's output, as one rule module reads the
// target (the core path, the Object Model type, the KHR_animation2 draft's
// types, a CUBICSLERP rotation).
struct OutputRule {
  // Format: the accepted accessor formats, and the issue's second and third
  // arguments (what is animated, the formats it accepts), built only when reported.
  IssueCode format_code = kOutputFormatCode;
  std::function<bool(const Accessor&)> format_ok;
  std::string target;
  std::function<std::string()> allowed_formats;
  // A wrong format ends the check (the count and values of data of the wrong
  // type say nothing more); false: the count and quaternions are still checked.
  bool format_ends_check = true;
  // Count: keys x outputs per key x values_per_key; nullopt when unknown
  // (weights of a node without morph targets), then not checked.
  IssueCode count_code = kOutputCountCode;
  std::optional<std::uint64_t> values_per_key = 1;
  // The count is reported before the format (EXT_animation_sqlerp's order).
  bool count_first = false;
  // Without a known interpolation mode (the schema phase reported it) nothing
  // past the format is checked; false: the count is checked as one output per key.
  bool needs_known_interpolation = true;
  // Keyframe values are unit quaternions (a VEC4 output; the data pass checks them).
  bool unit_quaternions = false;
};

// What check_output found, for checks a module adds on top.
struct OutputVerdict {
  const Accessor* output = nullptr;  // well formed, else nullptr (nothing was checked)
  bool format_ok = false;
  bool count_ok = false;  // the count was checked and is right
};

// Checks `sampler`'s output against `rule`, reporting at `at`. Unlinked or
// malformed accessors are the references' and the schema's findings: skipped.
inline OutputVerdict check_output(RuleContext& ctx, const model::Sampler& sampler,
                                  const JsonPointer& at, const OutputRule& rule) {
  OutputVerdict verdict;
  const Accessor* out = well_formed(sampler.output);
  if (out == nullptr) {
    const model::AccessorRef* ref = model::linked(sampler.output);
    if (const auto outside = ref != nullptr ? format_outside_lists(ctx.doc, ref->index) : std::nullopt) {
      ctx.issues.add(rule.format_code, at, {*outside, rule.target, rule.allowed_formats()});
    }
    return verdict;
  }
  verdict.output = out;
  const std::optional<InterpolationInfo> known = ctx.interpolation(rules_interpolation(sampler));
  const bool checks_count = rule.values_per_key && (known || !rule.needs_known_interpolation);
  const InterpolationInfo interp = known.value_or(InterpolationInfo{});
  const Accessor* in = well_formed(sampler.input);
  const auto check_count = [&] {
    if (!checks_count || in == nullptr) return;
    const std::optional<std::uint64_t> expected =
        expected_output_count(*in->count, interp.outputs_per_key, *rule.values_per_key);
    verdict.count_ok = expected && *expected == *out->count;
    if (!verdict.count_ok) {
      check_output_count(ctx.issues, rule.count_code, at, *in->count, interp.outputs_per_key,
                         *rule.values_per_key, *out->count);
    }
  };
  if (rule.count_first) check_count();
  verdict.format_ok = rule.format_ok(*out);
  if (!verdict.format_ok) {
    ctx.issues.add(rule.format_code, at, {format_text(*out), rule.target, rule.allowed_formats()});
    if (rule.format_ends_check) return verdict;
  }
  if (!known && rule.needs_known_interpolation) return verdict;
  if (!rule.count_first) check_count();
  if (rule.unit_quaternions && out->type == ElementType::kVec4) {
    check_unit_quaternions(ctx, model::linked(sampler.output)->index, at, interp);
  }
  return verdict;
}

}  // namespace gltf_anim::validator::rules

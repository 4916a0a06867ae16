#pragma once
// Small helpers shared by the rule modules (animation.cpp, ext_animation_sqlerp.cpp,
// khr_animation2.cpp, khr_animation_pointer.cpp, lints.cpp): extension lists,
// animation pointers, formats, unit quaternions.
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/gltf/accessor.hpp>
#include <gltf_anim/validator/rules.hpp>

#include <charconv>
#include <cmath>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <gltf_anim/gltf/json_access.hpp>

namespace gltf_anim::validator::rules {

using gltf::Accessor;
using gltf::component_type_name;
using gltf::ComponentType;
using gltf::element_type_name;
using gltf::ElementType;
using gltf::is_floating_point;
using gltf::IssueCode;
using gltf::IssueCollector;
using gltf::JsonPointer;
namespace model = gltf::model;

// `name` is listed in the root array `list` ("extensionsUsed"/"extensionsRequired").
inline bool lists_extension(const gltf_anim::json::Value& doc, std::string_view list,
                            std::string_view name) {
  const gltf_anim::json::Value* a = array_member(doc, list);
  if (a == nullptr) return false;
  for (const auto& v : a->GetArray()) {
    if (v.IsString() && std::string_view(v.GetString(), v.GetStringLength()) == name) return true;
  }
  return false;
}

// Calls visit(json, animation, /animations/a) for each animation of the model
// (the objects of "animations", in order) with its JSON object.
template <class Visit>
void for_each_linked_animation(const RuleContext& ctx, Visit&& visit) {
  const gltf_anim::json::Value* animations = array_member(ctx.doc, "animations");
  const JsonPointer root = JsonPointer() / std::string_view("animations");
  for (const model::Animation& a : ctx.model.animations) visit(*object_at(animations, a.index), a, root / a.index);
}

// The core target (node path) a channel animates, or nullptr.
inline const model::NodeTarget* node_target(const model::Channel& channel) {
  const auto* target = std::get_if<model::Target>(&channel.target);
  return target != nullptr ? std::get_if<model::NodeTarget>(&target->what) : nullptr;
}

// The extension object `name` of `obj` (obj.extensions.name) when it is an object.
inline const gltf_anim::json::Value* extension_object(const gltf_anim::json::Value& obj,
                                                      std::string_view name) {
  const gltf_anim::json::Value* ext = member(obj, "extensions");
  if (ext == nullptr) return nullptr;
  const gltf_anim::json::Value* e = member(*ext, name);
  return (e != nullptr && e->IsObject()) ? e : nullptr;
}

// Float components, or normalized BYTE/UBYTE/SHORT/USHORT ones: the components
// of rotation and weights outputs (glTF 2.0 3.11, "Animations").
inline bool float_or_normalized(const Accessor& acc) {
  if (acc.component_type && is_floating_point(*acc.component_type)) return !acc.normalized;
  return acc.normalized && (acc.component_type == ComponentType::kByte ||
                            acc.component_type == ComponentType::kUnsignedByte ||
                            acc.component_type == ComponentType::kShort ||
                            acc.component_type == ComponentType::kUnsignedShort);
}

// Rotation output formats: VEC4 of float_or_normalized components.
inline bool rotation_format_ok(const Accessor& acc) {
  return acc.type == ElementType::kVec4 && float_or_normalized(acc);
}

// rotation_format_ok's formats, as the messages list them.
inline std::string rotation_formats() {
  return "{VEC4, FLOAT}, {VEC4, BYTE normalized}, {VEC4, UNSIGNED_BYTE normalized}, "
         "{VEC4, SHORT normalized}, {VEC4, UNSIGNED_SHORT normalized}";
}

// "{VEC4, FLOAT}" / "{VEC4, BYTE normalized}" as in the messages.
inline std::string format_text(const Accessor& a) {
  std::string s = "{";
  s += a.type ? std::string(element_type_name(*a.type)) : std::string("?");
  s += ", ";
  s += a.component_type ? std::string(component_type_name(*a.component_type)) : std::string("?");
  if (a.normalized) s += " normalized";
  return s + "}";
}

// The format an accessor declares when its componentType or type is a value outside the
// spec's lists, as text ("{SCALAR, 5127}", "{SCALAR9, FLOAT}"); nullopt otherwise. The schema
// reports the value (VALUE_NOT_IN_LIST, a warning, as glTF-Validator has it) and the accessor
// is not well formed, so no rule reads it further; but no player can decode such data, so a
// sampler reading it has a format error, as glTF-Validator reports it (and as `sample`
// refuses the channel). An absent member or one of the wrong JSON type is the schema's alone.
inline std::optional<std::string> format_outside_lists(const gltf_anim::json::Document& doc,
                                                       std::size_t accessor) {
  const gltf_anim::json::Value* acc = gltf::json_access::object_at(
      gltf::json_access::array_member(doc, "accessors"), accessor);
  if (acc == nullptr) return std::nullopt;
  const auto ct = acc->FindMember("componentType");
  const auto type = acc->FindMember("type");
  if (ct == acc->MemberEnd() || type == acc->MemberEnd() || !ct->value.IsNumber() ||
      !type->value.IsString()) {
    return std::nullopt;
  }
  const std::string_view type_text(type->value.GetString(), type->value.GetStringLength());
  const std::optional<ElementType> element = gltf::element_type_from_name(type_text);
  std::optional<ComponentType> component;
  if (ct->value.IsUint64()) component = gltf::component_type_from_gl(ct->value.GetUint64());
  if (element && component) return std::nullopt;
  // The collector repairs and cuts every message argument (UTF-8, length).
  std::string text = "{" + std::string(type_text) + ", ";
  if (component) {
    text += component_type_name(*component);
  } else if (ct->value.IsUint64()) {
    text += std::to_string(ct->value.GetUint64());
  } else {
    text += "?";
  }
  return text + "}";
}

// The output count a sampler needs: keys x outputs per key x values per key
// (3 x count for cubic modes, x morph targets for weights). nullopt when the
// product exceeds 2^64-1: no stored count can match it, and a wrapped product
// could (2^63 keys x 3 wraps to 2^63 + 2^64).
inline std::optional<std::uint64_t> expected_output_count(std::uint64_t keys, std::uint64_t outputs_per_key,
                                                          std::uint64_t per_key) {
  std::uint64_t elements = 0;
  std::uint64_t total = 0;
  if (__builtin_mul_overflow(keys, outputs_per_key, &elements) ||
      __builtin_mul_overflow(elements, per_key, &total)) {
    return std::nullopt;
  }
  return total;
}

// Reports `code` (arguments: expected, found) at `at` when `found` differs from
// the expected output count.
inline void check_output_count(IssueCollector& issues, IssueCode code, const JsonPointer& at,
                               std::uint64_t keys, std::uint64_t outputs_per_key, std::uint64_t per_key,
                               std::uint64_t found) {
  const std::optional<std::uint64_t> expected = expected_output_count(keys, outputs_per_key, per_key);
  if (expected && *expected == found) return;
  issues.add(code, at, {expected ? std::to_string(*expected) : std::string("more than 2^64-1"),
                        std::to_string(found)});
}

// Flat component index `element` x `width` + `offset` in decimal, exact past
// 2^64 (an implicit accessor's count can be as large as 2^64-1): schoolbook
// multiplication on the decimal digits, no wider integer type needed.
inline std::string component_index_text(std::uint64_t element, std::uint32_t width, std::uint32_t offset) {
  std::string digits = std::to_string(element);
  std::uint64_t carry = offset;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    const std::uint64_t v = static_cast<std::uint64_t>(*it - '0') * width + carry;
    *it = static_cast<char>('0' + v % 10);
    carry = v / 10;
  }
  for (; carry != 0; carry /= 10) digits.insert(digits.begin(), static_cast<char>('0' + carry % 10));
  return digits;
}

// Largest accepted |length - 1| of a rotation quaternion: glTF-Validator's
// unitLengthThresholdVec4, "slightly greater than" the 8-bit quantization error.
constexpr double kUnitQuaternionTolerance = 0.00769;

inline double length4(const double* q) {
  return std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
}

// Rotation outputs: unit quaternions. Only keyframe values are checked: for
// CUBICSPLINE the middle element of each in-tangent, value, out-tangent triple.
class QuaternionChecker final : public ElementChecker {
 public:
  QuaternionChecker(IssueCollector& issues, std::string pointer, InterpolationInfo interp)
      : issues_(issues), pointer_(std::move(pointer)), interp_(interp) {}
  void consume(std::span<const double> values, std::uint64_t first) override {
    const std::size_t n = values.size() / 4;
    for (std::size_t k = 0; k < n; ++k) {
      const std::uint64_t element = first + k;
      if (element % interp_.outputs_per_key != interp_.value_index) continue;
      const double length = length4(values.data() + k * 4);
      if (std::abs(length - 1.0) > kUnitQuaternionTolerance) {
        report(element, length);
      }
    }
  }
  // Keyframe values in a run of zeros have length 0: one issue, at the first.
  void consume_zeros(std::uint64_t first, std::uint64_t n) override {
    const std::uint64_t phase = first % interp_.outputs_per_key;
    const std::uint64_t skip = (interp_.value_index + interp_.outputs_per_key - phase) % interp_.outputs_per_key;
    if (skip < n) report(first + skip, 0.0);
  }

 private:
  void report(std::uint64_t element, double length) {
    issues_.add("ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION", pointer_,
                {component_index_text(element, 4, 0), component_index_text(element, 4, 3),
                 number_text(length)});
  }
  IssueCollector& issues_;
  std::string pointer_;
  InterpolationInfo interp_;
};

// Attaches the unit-quaternion check to rotation output accessor `output`,
// reporting at `at`. One key for the core rule and KHR_animation_pointer: the
// accessor is checked once however many channels, core or pointer, use it.
inline void check_unit_quaternions(RuleContext& ctx, std::uint64_t output, const JsonPointer& at,
                                   InterpolationInfo interp) {
  ctx.data.attach(output,
                  "animation.rotation/" + std::to_string(interp.outputs_per_key) + "/" +
                      std::to_string(interp.value_index),
                  std::make_unique<QuaternionChecker>(ctx.issues, at.str(), interp));
}

}  // namespace gltf_anim::validator::rules

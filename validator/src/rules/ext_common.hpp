#pragma once
// Small helpers shared by the extension and lint modules (ext_animation_sqlerp.cpp,
// khr_animation2.cpp, lints.cpp): extension lists, animation pointers, formats.
#include <gltf_anim/validator/accessor.hpp>
#include <gltf_anim/validator/rules.hpp>

#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>

#include "json_access.hpp"

namespace gltf_anim::validator::rules {

// `name` is listed in the root array `list` ("extensionsUsed"/"extensionsRequired").
inline bool lists_extension(const rapidjson::Value& doc, std::string_view list,
                            std::string_view name) {
  const rapidjson::Value* a = array_member(doc, list);
  if (a == nullptr) return false;
  for (const auto& v : a->GetArray()) {
    if (v.IsString() && std::string_view(v.GetString(), v.GetStringLength()) == name) return true;
  }
  return false;
}

// Reads "<prefix><n>" at the start of `s`; advances `s` past it.
inline std::optional<std::uint64_t> eat_index(std::string_view& s, std::string_view prefix) {
  if (s.substr(0, prefix.size()) != prefix) return std::nullopt;
  s.remove_prefix(prefix.size());
  std::uint64_t n = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || p == s.data()) return std::nullopt;
  s.remove_prefix(static_cast<std::size_t>(p - s.data()));
  return n;
}

// "/animations/a/<collection>/i<rest>" -> (a, i) when the remainder equals `rest`.
struct AnimationItem {
  std::uint64_t animation = 0;
  std::uint64_t item = 0;
};
inline std::optional<AnimationItem> animation_item(std::string_view pointer,
                                                   std::string_view collection,
                                                   std::string_view rest) {
  const auto a = eat_index(pointer, "/animations/");
  if (!a) return std::nullopt;
  std::string prefix = "/";
  prefix += collection;
  prefix += '/';
  const auto i = eat_index(pointer, prefix);
  if (!i || pointer != rest) return std::nullopt;
  return AnimationItem{*a, *i};
}

// The JSON object /animations/a/<collection>/i, or nullptr.
inline const rapidjson::Value* animation_object(const rapidjson::Value& doc, AnimationItem at,
                                                std::string_view collection) {
  const rapidjson::Value* animation = object_at(array_member(doc, "animations"), at.animation);
  if (animation == nullptr) return nullptr;
  return object_at(array_member(*animation, collection), at.item);
}

// The extension object `name` of `obj` (obj.extensions.name) when it is an object.
inline const rapidjson::Value* extension_object(const rapidjson::Value& obj, std::string_view name) {
  const rapidjson::Value* ext = member(obj, "extensions");
  if (ext == nullptr) return nullptr;
  const rapidjson::Value* e = member(*ext, name);
  return (e != nullptr && e->IsObject()) ? e : nullptr;
}

// Rotation output formats (glTF 2.0 Appendix: float VEC4 or normalized
// BYTE/UBYTE/SHORT/USHORT VEC4).
inline bool rotation_format_ok(const Accessor& acc) {
  if (acc.type != ElementType::kVec4) return false;
  if (acc.component_type == ComponentType::kFloat) return !acc.normalized;
  return acc.normalized && (acc.component_type == ComponentType::kByte ||
                            acc.component_type == ComponentType::kUnsignedByte ||
                            acc.component_type == ComponentType::kShort ||
                            acc.component_type == ComponentType::kUnsignedShort);
}

inline std::string format_text(const Accessor& a) {
  std::string s = "{";
  s += a.type ? std::string(element_type_name(*a.type)) : std::string("?");
  s += ", ";
  s += a.component_type ? std::string(component_type_name(*a.component_type)) : std::string("?");
  if (a.normalized) s += " normalized";
  return s + "}";
}

// glTF-Validator's unit-length threshold for VEC4 rotations (the core rule's).
constexpr double kUnitQuaternionTolerance = 0.00769;

inline double length4(const double* q) {
  return std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
}

}  // namespace gltf_anim::validator::rules

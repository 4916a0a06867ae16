#pragma once
// Tolerant reads of the JSON document for rule modules. The schema phase has
// already reported wrong types; rules only act on members of the right type and
// skip the rest silently (one root cause, one issue).
#include <gltf_anim/gltf/issue_collector.hpp>
#include <gltf_anim/gltf/json_pointer.hpp>
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/text/shortest_double.hpp>

#include <rapidjson/document.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace gltf_anim::gltf::json_access {

namespace detail {
// Rules look up members of the same object once per reference to it (a node
// per channel targeting it, an accessor per sampler, the root per sampler), and
// FindMember scans: a node with 10^5 members and 10^5 channels targeting it took
// minutes from a 6 MB file. So while a MemberIndexScope is alive (one
// validation, on this thread), an object with more than kIndexedMembers members
// is indexed on its first lookup, in time and memory linear in its members.
inline constexpr rapidjson::SizeType kIndexedMembers = 16;
struct MemberIndexes {
  bool active = false;
  std::unordered_map<const gltf_anim::json::Value*,
                     std::unordered_map<std::string_view, const gltf_anim::json::Value*>>
      by_object;
};
inline thread_local MemberIndexes member_indexes;
}  // namespace detail

// Member lookups are indexed while this lives (the document must not change).
class MemberIndexScope {
 public:
  MemberIndexScope() {
    detail::member_indexes.by_object.clear();
    detail::member_indexes.active = true;
  }
  ~MemberIndexScope() {
    detail::member_indexes.active = false;
    detail::member_indexes.by_object.clear();
  }
  MemberIndexScope(const MemberIndexScope&) = delete;
  MemberIndexScope& operator=(const MemberIndexScope&) = delete;
};

inline const gltf_anim::json::Value* member(const gltf_anim::json::Value& obj,
                                            std::string_view name) {
  if (!obj.IsObject()) return nullptr;
  if (obj.MemberCount() > detail::kIndexedMembers && detail::member_indexes.active) {
    auto& index = detail::member_indexes.by_object[&obj];
    if (index.empty()) {
      // The first of duplicate keys wins, as with FindMember.
      for (const auto& m : obj.GetObject()) {
        index.emplace(std::string_view(m.name.GetString(), m.name.GetStringLength()), &m.value);
      }
    }
    const auto it = index.find(name);
    return it == index.end() ? nullptr : it->second;
  }
  const auto it =
      obj.FindMember(gltf_anim::json::Value(rapidjson::StringRef(name.data(), name.size())));
  return it == obj.MemberEnd() ? nullptr : &it->value;
}

inline bool has(const gltf_anim::json::Value& obj, std::string_view name) {
  return member(obj, name) != nullptr;
}

// A non-negative JSON integer. An integer is any number with a zero fractional
// part (JSON Schema 2020-12, and glTF-Validator), so 3.0 and 3e0 are 3;
// RapidJSON keeps those as doubles, so they are converted here. nullopt for a
// fraction, a negative number, 2^64 and beyond, or any other JSON type.
inline std::optional<std::uint64_t> as_uint(const gltf_anim::json::Value& v) {
  if (v.IsUint64()) return v.GetUint64();
  if (!v.IsDouble()) return std::nullopt;
  const double d = v.GetDouble();
  // 2^64 is exact as a double; every integral double below it converts exactly.
  if (!(d >= 0.0 && d < 18446744073709551616.0)) return std::nullopt;
  const auto u = static_cast<std::uint64_t>(d);
  if (static_cast<double>(u) != d) return std::nullopt;
  return u;
}

// A glTFid member: present and a non-negative integer.
inline std::optional<std::uint64_t> index_member(const gltf_anim::json::Value& obj,
                                                 std::string_view name) {
  const gltf_anim::json::Value* v = member(obj, name);
  if (v == nullptr) return std::nullopt;
  return as_uint(*v);
}

inline std::optional<std::string_view> string_member(const gltf_anim::json::Value& obj,
                                                     std::string_view name) {
  const gltf_anim::json::Value* v = member(obj, name);
  if (v == nullptr || !v->IsString()) return std::nullopt;
  return std::string_view(v->GetString(), v->GetStringLength());
}

// A top-level array ("nodes", "accessors", ...), or nullptr.
inline const gltf_anim::json::Value* array_member(const gltf_anim::json::Value& obj,
                                                  std::string_view name) {
  const gltf_anim::json::Value* v = member(obj, name);
  return (v != nullptr && v->IsArray()) ? v : nullptr;
}

inline std::size_t array_size(const gltf_anim::json::Value* array) {
  return array == nullptr ? 0 : array->Size();
}

// Element `i` of `array` when it exists and is an object.
inline const gltf_anim::json::Value* object_at(const gltf_anim::json::Value* array,
                                               std::uint64_t i) {
  if (array == nullptr || i >= array->Size()) return nullptr;
  const gltf_anim::json::Value& v = (*array)[static_cast<rapidjson::SizeType>(i)];
  return v.IsObject() ? &v : nullptr;
}

// Shortest decimal text that reads back to the same double ("0.5", "1e-07"):
// the project's one number writer, text::shortest_double (the bytes
// std::to_chars writes). A NaN keeps the sign std::to_chars gives it ("-nan"),
// which shortest_double drops: the messages and arguments of issues stay as
// they were.
inline std::string number_text(double v) {
  if (std::isnan(v)) return std::signbit(v) ? "-nan" : "nan";
  return text::shortest_double(v);
}

// "(n)" without operator+ chains (GCC 12 -Wrestrict false positive).
inline std::string paren(std::uint64_t n) {
  std::string s = "(";
  s += std::to_string(n);
  s += ')';
  return s;
}

// Calls visit(animation, /animations/a) for each element of "animations" that
// is an object; the others are the schema phase's.
template <class Visit>
void for_each_animation(const gltf_anim::json::Value& doc, Visit&& visit) {
  const gltf_anim::json::Value* animations = array_member(doc, "animations");
  const JsonPointer root = JsonPointer() / std::string_view("animations");
  for (std::size_t a = 0; a < array_size(animations); ++a) {
    const gltf_anim::json::Value* animation = object_at(animations, a);
    if (animation != nullptr) visit(*animation, root / a);
  }
}

// obj.extensions.<extension> exists (of any type).
inline bool holds_extension(const gltf_anim::json::Value& obj, std::string_view extension) {
  const gltf_anim::json::Value* extensions = member(obj, "extensions");
  return extensions != nullptr && member(*extensions, extension) != nullptr;
}

// An object of `extension` on `obj`, where that extension defines none:
// glTF-Validator's UNEXPECTED_EXTENSION_OBJECT at .../extensions/<extension>.
inline void report_misplaced_extension(IssueCollector& issues, const gltf_anim::json::Value& obj,
                                       const JsonPointer& at, std::string_view extension) {
  if (holds_extension(obj, extension)) {
    issues.add("UNEXPECTED_EXTENSION_OBJECT", at / std::string_view("extensions") / extension);
  }
}

}  // namespace gltf_anim::gltf::json_access

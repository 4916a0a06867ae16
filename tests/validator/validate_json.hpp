#pragma once
// Validates a glTF JSON text held in a string (no external buffers), with the
// default options: the rule tests' way to run the whole validator.
#include <gltf_anim/validator/validate.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace rules_test {

inline gltf_anim::validator::ValidationReport validate_json(const std::string& json, std::string uri = "t.gltf") {
  const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(json.data()), json.size());
  return gltf_anim::validator::validate_bytes(bytes, std::move(uri), {}, gltf_anim::validator::ValidateOptions{});
}

// How many issues of a report have this code (and this pointer).
inline std::size_t count(const gltf_anim::validator::ValidationReport& r, const std::string& code,
                         const std::string& pointer) {
  return static_cast<std::size_t>(std::count_if(r.issues.begin(), r.issues.end(), [&](const auto& i) {
    return i.code == code && i.pointer == pointer;
  }));
}
inline std::size_t count_code(const gltf_anim::validator::ValidationReport& r,
                              const std::string& code) {
  return static_cast<std::size_t>(
      std::count_if(r.issues.begin(), r.issues.end(), [&](const auto& i) { return i.code == code; }));
}

}  // namespace rules_test

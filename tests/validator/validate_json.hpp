#pragma once
// Validates a glTF JSON text held in a string (no external buffers), with the
// default options: the rule tests' way to run the whole validator.
#include <gltf_anim/validator/validate.hpp>

#include <cstdint>
#include <span>
#include <string>

namespace rules_test {

inline gltf_anim::validator::ValidationReport validate_json(const std::string& json, std::string uri = "t.gltf") {
  const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(json.data()), json.size());
  return gltf_anim::validator::validate_bytes(bytes, std::move(uri), {}, gltf_anim::validator::ValidateOptions{});
}

}  // namespace rules_test

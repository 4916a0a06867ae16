#pragma once
// The sampler interpolation modes: one row per mode, the one place their facts are
// written. The validator's rules (counts, key minimums, unit quaternions), the
// animation model, the reference sampler, `compare` (which measure a channel gets)
// and the suite all derive from this table; a new sampled extension adds its row
// here and its maths in track.cpp.
//
// Sources: glTF 2.0 "Animations" and Appendix C (STEP, LINEAR, CUBICSPLINE),
// EXT_animation_sqlerp (draft; CUBICSLERP), KHR_animation2 (draft; SLERP).
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace gltf_anim::reference {

enum class Interpolation {
  kStep,         // glTF STEP
  kLinear,       // glTF LINEAR: lerp for vectors, slerp for rotations (Appendix C)
  kCubicSpline,  // glTF CUBICSPLINE: Hermite, tangents scaled by t_d, rotations normalized
  kCubicSlerp,   // EXT_animation_sqlerp CUBICSLERP: sqlerp, rotations only
  kSlerp,        // KHR_animation2 SLERP: slerp, rotations only
};

// What a mode asks of a sampler's data.
struct InterpolationMode {
  Interpolation interpolation;
  std::string_view name;          // the glTF spelling of `interpolation`
  std::uint32_t outputs_per_key;  // output elements per input key (value, or a, v, b)
  std::uint32_t value_index;      // which of them is the key's value v_k
  std::uint32_t min_keys;         // keys the spec asks for at least
  bool rotation_only;             // only for unit quaternions (the values are slerped)
  std::string_view extension;     // the extension that defines it; "" for core glTF
};

inline constexpr std::array<InterpolationMode, 5> kInterpolationModes{{
    // name, outputs per key, value index, min keys, rotation only, extension
    {Interpolation::kStep, "STEP", 1, 0, 1, false, ""},
    {Interpolation::kLinear, "LINEAR", 1, 0, 1, false, ""},
    {Interpolation::kCubicSpline, "CUBICSPLINE", 3, 1, 2, false, ""},
    {Interpolation::kCubicSlerp, "CUBICSLERP", 3, 1, 2, true, "EXT_animation_sqlerp"},
    {Interpolation::kSlerp, "SLERP", 1, 0, 1, true, "KHR_animation2"},
}};

// The row of `interpolation` (every enumerator has one).
constexpr const InterpolationMode& mode_of(Interpolation interpolation) {
  for (const InterpolationMode& m : kInterpolationModes) {
    if (m.interpolation == interpolation) return m;
  }
  return kInterpolationModes[1];  // unreachable: the test walks every enumerator
}

// The row spelt `name` (case-sensitive, as glTF), or nullptr.
constexpr const InterpolationMode* find_mode(std::string_view name) {
  for (const InterpolationMode& m : kInterpolationModes) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

// The glTF spelling ("STEP", "LINEAR", "CUBICSPLINE", "CUBICSLERP", "SLERP") and back.
constexpr std::string_view interpolation_name(Interpolation interpolation) {
  return mode_of(interpolation).name;
}
constexpr std::optional<Interpolation> parse_interpolation(std::string_view name) {
  const InterpolationMode* m = find_mode(name);
  return m ? std::optional<Interpolation>(m->interpolation) : std::nullopt;
}

}  // namespace gltf_anim::reference

#pragma once
// Normalized integer decoding, glTF 2.0 3.11 "Animations" / Appendix "Animation
// Sampler Interpolation Modes" table (the same as KHR_mesh_quantization):
//   signed byte     f = max(c / 127.0, -1.0)
//   unsigned byte   f = c / 255.0
//   signed short    f = max(c / 32767.0, -1.0)
//   unsigned short  f = c / 65535.0
// The clamp matters: -128 and -32768 decode to -1, not slightly below it.
#include <algorithm>
#include <cstdint>

namespace gltf_anim::reference {

constexpr double decode_normalized(std::int8_t c) { return std::max(c / 127.0, -1.0); }
constexpr double decode_normalized(std::uint8_t c) { return c / 255.0; }
constexpr double decode_normalized(std::int16_t c) { return std::max(c / 32767.0, -1.0); }
constexpr double decode_normalized(std::uint16_t c) { return c / 65535.0; }
// glTF also allows normalized UNSIGNED_INT for some attributes (not animation);
// decoded the same way for completeness.
constexpr double decode_normalized(std::uint32_t c) { return c / 4294967295.0; }

}  // namespace gltf_anim::reference

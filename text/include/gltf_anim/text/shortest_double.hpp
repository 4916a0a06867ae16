#pragma once
// Shortest round-trip text of a finite double, byte for byte what
// std::to_chars(first, last, double) writes (the plain overload), faster (bench_shortest_double).
// The one number writer: the samples files, the edit session's JSON numbers, the
// numbers in the rules' messages (gltf's number_text) and the WebAssembly build's
// std::to_chars (web/compat) write with it.
#include <cstddef>
#include <string>

namespace gltf_anim::text {

// The longest number write_shortest_double writes ("-2.2250738585072014e-308").
inline constexpr std::size_t kShortestDoubleMax = 24;
// The room it needs at `out`: it writes with fixed-size copies, past the end of the
// number (at most 42 bytes).
inline constexpr std::size_t kShortestDoubleRoom = 48;

// Writes finite `v` at `out` (room for kShortestDoubleRoom chars) and returns the end.
// Non-finite values are the caller's business (undefined here).
char* write_shortest_double(char* out, double v) noexcept;

// The same text as a string; "nan", "inf" and "-inf" for values that are not finite.
std::string shortest_double(double v);

}  // namespace gltf_anim::text

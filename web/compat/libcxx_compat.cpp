// The floating-point <charconv> of the wasm build: see libcxx_compat.hpp.
#include "libcxx_compat.hpp"

#include <fast_float/fast_float.h>

#include <cmath>
#include <cstring>
#include <system_error>

#include <gltf_anim/text/shortest_double.hpp>

#if !defined(__cpp_lib_to_chars)
namespace std {

// As libstdc++: a finite text whose value is too large (inf) or too small (0 from non-zero
// digits) for a double is result_out_of_range, and `value` is left as it was.
from_chars_result from_chars(const char* first, const char* last, double& value,
                             chars_format fmt) noexcept {
  fast_float::chars_format ff = fast_float::chars_format::general;
  if (fmt == chars_format::fixed) ff = fast_float::chars_format::fixed;
  if (fmt == chars_format::scientific) ff = fast_float::chars_format::scientific;
  if (fmt == chars_format::hex) return {first, errc::invalid_argument};  // never asked for
  double v = 0;
  const auto r = fast_float::from_chars(first, last, v, ff);
  if (r.ec != errc()) return {r.ptr, r.ec};
  const char* digits = first + (first != last && *first == '-' ? 1 : 0);
  const bool is_text = digits != r.ptr && (*digits == 'i' || *digits == 'I' || *digits == 'n' ||
                                          *digits == 'N');
  if (!is_text) {
    if (std::isinf(v)) return {r.ptr, errc::result_out_of_range};
    if (v == 0) {
      for (const char* p = digits; p != r.ptr && *p != 'e' && *p != 'E'; ++p) {
        if (*p >= '1' && *p <= '9') return {r.ptr, errc::result_out_of_range};
      }
    }
  }
  value = v;
  return {r.ptr, errc()};
}

to_chars_result to_chars(char* first, char* last, double value) noexcept {
  char buf[gltf_anim::text::kShortestDoubleRoom];
  char* end = buf;
  if (std::isnan(value)) {
    const char* text = std::signbit(value) ? "-nan" : "nan";
    end = buf + std::strlen(text);
    std::memcpy(buf, text, end - buf);
  } else if (std::isinf(value)) {
    const char* text = value < 0 ? "-inf" : "inf";
    end = buf + std::strlen(text);
    std::memcpy(buf, text, end - buf);
  } else {
    end = gltf_anim::text::write_shortest_double(buf, value);
  }
  const auto n = end - buf;
  if (last - first < n) return {last, errc::value_too_large};
  std::memcpy(first, buf, n);
  return {first + n, errc()};
}

}  // namespace std
#endif

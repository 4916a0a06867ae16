// Why this file: `gltf-anim sample` writes ~50 M numbers for a large asset and was bound
// by libstdc++'s std::to_chars(double) (Ryu, ~35-45 ns per number). fmt's Dragonbox
// finds the same shortest round-trip digits in ~15 ns; the layout below reproduces the
// plain std::to_chars overload exactly, so every samples file keeps its bytes.
//
// The format (C++17 [charconv.to.chars] without a chars_format, as libstdc++ writes it):
//   - the digits are the shortest that read back to the same double (ties: the closest
//     to the exact value);
//   - laid out either like printf "%f" with just those digits ("0.001", "12.5", "300"),
//     an integral value printed exactly like "%.0f" does ("1152921504606846976" for 2^60,
//     not the shortest digits padded with zeros), or like "%e" ("1e+06", "1.5e-07",
//     "2.2250738585072014e-308": the exponent has a sign and at least two digits);
//   - whichever is shorter, a tie going to "%f";
//   - a '-' for negative values including -0 ("-0"); 0 is "0".
//
// fmt is used header-only (FMT_HEADER_ONLY, a private build dependency of this library:
// nothing of it appears in an installed header). fmt::detail::dragonbox::to_decimal is
// not fmt's public API; it is used because the version is pinned by the Debian 12
// package libfmt-dev (9.1). fmt's public format_to("{}") lays out numbers differently
// (to_chars vs fmt: "1e+15" vs "1000000000000000", "1e-04" vs "0.0001",
// "1152921504606846976" vs "1.152921504606847e+18" for 2^60) and no format spec of fmt
// chooses by length, so only its digits are taken. The guard is tests/reports/test_shortest_double.cpp, which compares this
// function with std::to_chars on tens of millions of doubles: a different fmt that
// changes the digits fails it.
#include "shortest_double.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <fmt/format.h>

namespace gltf_anim::reports::detail {

namespace {

constexpr char kPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// Writes the decimal digits of `v` ending at `end` (backwards); returns their start.
template <typename U>
char* digits_backward(char* end, U v) noexcept {
  while (v >= 100) {
    const auto r = static_cast<unsigned>(v % 100);
    v /= 100;
    end -= 2;
    std::memcpy(end, kPairs + 2 * r, 2);
  }
  if (v >= 10) {
    end -= 2;
    std::memcpy(end, kPairs + 2 * static_cast<unsigned>(v), 2);
  } else {
    *--end = static_cast<char>('0' + static_cast<unsigned>(v));
  }
  return end;
}

}  // namespace

char* write_shortest_double(char* out, double v) noexcept {
  const auto bits = std::bit_cast<std::uint64_t>(v);
  if ((bits >> 63) != 0) *out++ = '-';
  if ((bits << 1) == 0) {
    *out++ = '0';
    return out;
  }
  const auto dec = fmt::detail::dragonbox::to_decimal(v);  // of |v|: the sign bit is ignored
  char buf[24];
  char* const buf_end = buf + sizeof buf;
  const char* digits = digits_backward(buf_end, static_cast<std::uint64_t>(dec.significand));
  const int n = static_cast<int>(buf_end - digits);  // 1 to 17 significant digits
  const int e = dec.exponent;                         // |v| ~ digits x 10^e
  const int sci_exp = e + n - 1;                      // d.ddd x 10^sci_exp
  const int sci_len = n + (n > 1 ? 1 : 0) + 2 + (sci_exp <= -100 || sci_exp >= 100 ? 3 : 2);
  const int fixed_len = e >= 0 ? n + e : (n + e > 0 ? n + 1 : 2 - e);
  if (fixed_len <= sci_len) {
    if (e >= 0) {
      // An integer below 10^22 (fixed_len <= sci_len bounds e): its exact value, as
      // printf "%.0f" writes it. Same number of digits as the shortest form (every power
      // of ten up to 10^22 is a double).
      const double a = std::fabs(v);
      char* start;
      if (a < 18446744073709551616.0) {
        start = digits_backward(buf_end, static_cast<std::uint64_t>(a));
      } else {
        // a = m x 2^k exactly, m < 2^53, k < 22: fits 128 bits.
        __extension__ using U128 = unsigned __int128;
        const auto m = (bits & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{1} << 52);
        const int k = static_cast<int>((bits >> 52) & 0x7ff) - 1075;
        start = digits_backward(buf_end, static_cast<U128>(m) << k);
      }
      const auto len = static_cast<std::size_t>(buf_end - start);
      std::memcpy(out, start, len);
      return out + len;
    }
    const int point = n + e;  // digits before the point
    if (point > 0) {
      std::memcpy(out, digits, static_cast<std::size_t>(point));
      out += point;
      *out++ = '.';
      std::memcpy(out, digits + point, static_cast<std::size_t>(n - point));
      return out + (n - point);
    }
    *out++ = '0';
    *out++ = '.';
    std::memset(out, '0', static_cast<std::size_t>(-point));
    out += -point;
    std::memcpy(out, digits, static_cast<std::size_t>(n));
    return out + n;
  }
  *out++ = digits[0];
  if (n > 1) {
    *out++ = '.';
    std::memcpy(out, digits + 1, static_cast<std::size_t>(n - 1));
    out += n - 1;
  }
  *out++ = 'e';
  unsigned x;
  if (sci_exp < 0) {
    *out++ = '-';
    x = static_cast<unsigned>(-sci_exp);
  } else {
    *out++ = '+';
    x = static_cast<unsigned>(sci_exp);
  }
  if (x >= 100) {
    *out++ = static_cast<char>('0' + x / 100);
    x %= 100;
  }
  std::memcpy(out, kPairs + 2 * x, 2);
  return out + 2;
}

}  // namespace gltf_anim::reports::detail

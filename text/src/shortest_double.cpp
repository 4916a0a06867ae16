// Why this file: `gltf-anim sample` writes ~50 M numbers for a large asset and was bound
// by libstdc++'s std::to_chars(double) (Ryu, ~35-40 ns per number). fmt's Dragonbox
// finds the same shortest round-trip digits in ~12 ns; with the layout below, which
// reproduces the plain std::to_chars overload exactly (every samples file keeps its
// bytes), a number of a sample costs ~27 ns (bench/bench_shortest_double.cpp).
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
// chooses by length, so only its digits are taken. The guard is
// tests/text/test_shortest_double.cpp, which compares this function with
// std::to_chars on tens of millions of doubles: a different fmt that changes the
// digits or the interface fails it.
#include <gltf_anim/text/shortest_double.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

// Dragonbox with its full table of powers of ten (~10 KB) instead of the compressed
// one that is recovered by multiplications: 27 -> 18 ns per number for [1, 2),
// 31 -> 27 ns for [-2, 2]. No other file of the program includes fmt (one definition
// of its templates).
#define FMT_USE_FULL_CACHE_DRAGONBOX 1
#include <fmt/format.h>

namespace gltf_anim::text {

namespace {

constexpr char kPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

constexpr std::uint64_t kPow10[20] = {1,
                                      10,
                                      100,
                                      1000,
                                      10000,
                                      100000,
                                      1000000,
                                      10000000,
                                      100000000,
                                      1000000000,
                                      10000000000,
                                      100000000000,
                                      1000000000000,
                                      10000000000000,
                                      100000000000000,
                                      1000000000000000,
                                      10000000000000000,
                                      100000000000000000,
                                      1000000000000000000,
                                      10000000000000000000u};

// The number of decimal digits of v > 0.
int count_digits(std::uint64_t v) noexcept {
  const int t = (static_cast<int>(std::bit_width(v)) * 1233) >> 12;  // ~ log10(2^bit_width)
  return t + (v >= kPow10[t] ? 1 : 0);
}

void write4(char* p, std::uint32_t v) noexcept {  // v < 10^4, 4 digits
  std::memcpy(p, kPairs + 2 * (v / 100), 2);
  std::memcpy(p + 2, kPairs + 2 * (v % 100), 2);
}

void write8(char* p, std::uint32_t v) noexcept {  // v < 10^8, 8 digits
  write4(p, v / 10000);
  write4(p + 4, v % 10000);
}

// Writes v < 10^17 as 17 digits with leading zeros (independent halves: short
// dependency chains, no loop).
void write17(char* p, std::uint64_t v) noexcept {
  const std::uint64_t hi = v / 100000000;
  const auto lo = static_cast<std::uint32_t>(v - hi * 100000000);
  const auto top = static_cast<std::uint32_t>(hi / 100000000);
  const auto mid = static_cast<std::uint32_t>(hi - std::uint64_t{top} * 100000000);
  p[0] = static_cast<char>('0' + top);
  write8(p + 1, mid);
  write8(p + 9, lo);
}

// Writes the decimal digits of `v` ending at `end` (backwards); returns their start.
// The slow path: integral doubles from 2^53 up.
template <typename U>
char* digits_backward(char* end, U v) noexcept {
  do {
    *--end = static_cast<char>('0' + static_cast<unsigned>(v % 10));
    v /= 10;
  } while (v != 0);
  return end;
}

}  // namespace

// Writes up to kShortestDoubleRoom bytes (fixed-size copies; only the returned
// range is the number).
char* write_shortest_double(char* out, double v) noexcept {
  const auto bits = std::bit_cast<std::uint64_t>(v);
  if ((bits >> 63) != 0) *out++ = '-';
  if ((bits << 1) == 0) {
    *out++ = '0';
    return out;
  }
  const auto dec = fmt::detail::dragonbox::to_decimal(v);  // of |v|: the sign bit is ignored
  const auto sig = static_cast<std::uint64_t>(dec.significand);  // < 10^17
  // 17 digits with leading zeros, then '0's (fixed-size copies may read past the digits).
  char buf[48];
  std::memset(buf + 16, '0', 32);
  write17(buf, sig);
  const int n = count_digits(sig);  // 1 to 17 significant digits
  const char* const digits = buf + 17 - n;
  const int e = dec.exponent;     // |v| = digits x 10^e (rounded)
  const int sci_exp = e + n - 1;  // d.ddd x 10^sci_exp
  const int sci_len = n + (n > 1 ? 1 : 0) + 2 + (sci_exp <= -100 || sci_exp >= 100 ? 3 : 2);
  const int fixed_len = e >= 0 ? n + e : (n + e > 0 ? n + 1 : 2 - e);
  if (fixed_len <= sci_len) {
    if (e >= 0) {
      // An integer below 10^22 (fixed_len <= sci_len bounds e to 5): its exact value,
      // as printf "%.0f" writes it, which is the digits and e zeros below 2^53 and
      // needs the binary value above (same number of digits: every power of ten up to
      // 10^22 is a double).
      if (bits << 1 < std::uint64_t{1023 + 53} << 53) {  // |v| < 2^53 (biased exponent)
        std::memcpy(out, digits, 24);  // the digits, then buf's '0's (n + e <= 16)
        return out + n + e;
      }
      // |v| = m x 2^k exactly, m < 2^53, 0 <= k < 22: fits 128 bits.
      __extension__ using U128 = unsigned __int128;
      const auto m = (bits & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{1} << 52);
      const int k = static_cast<int>((bits >> 52) & 0x7ff) - 1075;
      char* const end = buf + sizeof buf;
      const char* start = digits_backward(end, static_cast<U128>(m) << k);
      const auto len = static_cast<std::size_t>(end - start);
      std::memcpy(out, start, len);
      return out + len;
    }
    const int point = n + e;  // digits before the point
    if (point > 0) {          // "12.5": point < n <= 17
      std::memcpy(out, digits, 17);
      out[point] = '.';
      std::memcpy(out + point + 1, digits + point, 16);
      return out + n + 1;
    }
    // "0.000125": -point = -e - n leading zeros after the point, -e <= 22.
    out[0] = '0';
    out[1] = '.';
    std::memset(out + 2, '0', 24);
    std::memcpy(out + 2 - point, digits, 17);
    return out + 2 - e;
  }
  out[0] = digits[0];
  out[1] = '.';
  std::memcpy(out + 2, digits + 1, 16);
  out += n > 1 ? n + 1 : 1;
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

std::string shortest_double(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[kShortestDoubleRoom];
  return std::string(buf, write_shortest_double(buf, v));
}

}  // namespace gltf_anim::text

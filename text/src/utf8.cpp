#include <gltf_anim/text/utf8.hpp>

#include <algorithm>

namespace gltf_anim::text {

CodePoint decode_utf8(std::string_view s, std::size_t at) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[at + k]); };
  const unsigned char c = byte(0);
  if (c < 0x80) return {c, 1, 1};
  // Lead byte: sequence length and the allowed range of the second byte
  // (Unicode Table 3-7, which excludes overlongs, surrogates and > U+10FFFF).
  std::size_t len = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  char32_t value = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
    value = c & 0x1Fu;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    value = c & 0x0Fu;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    value = c & 0x07u;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return {0, 0, 1};
  }
  for (std::size_t k = 1; k < len; ++k) {
    // A missing or wrong continuation ends the maximal subpart before it.
    if (at + k >= s.size()) return {0, 0, k};
    const unsigned char b = byte(k);
    if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return {0, 0, k};
    value = (value << 6) | (b & 0x3Fu);
  }
  return {value, len, len};
}

std::size_t first_invalid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    const CodePoint cp = decode_utf8(s, i);
    if (cp.length == 0) return i;
    i += cp.length;
  }
  return std::string_view::npos;
}

void append_repaired_utf8(std::string& out, std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    // Copy the valid run up to the next invalid sequence in one append.
    const std::size_t bad = first_invalid_utf8(s.substr(i));
    if (bad == std::string_view::npos) {
      out.append(s.substr(i));
      return;
    }
    out.append(s.substr(i, bad));
    i += bad;
    out += kReplacement;
    i += decode_utf8(s, i).invalid_length;
  }
}

std::string repair_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  append_repaired_utf8(out, s);
  return out;
}

std::string truncate_utf8(std::string_view s, std::size_t max_bytes, std::string_view mark) {
  std::string out;
  out.reserve(std::min(s.size(), max_bytes) + mark.size());
  std::size_t i = 0;
  while (i < s.size()) {
    const CodePoint cp = decode_utf8(s, i);
    const std::string_view piece = cp.length != 0 ? s.substr(i, cp.length) : kReplacement;
    if (out.size() + piece.size() > max_bytes) {
      out += mark;
      return out;
    }
    out += piece;
    i += cp.length != 0 ? cp.length : cp.invalid_length;
  }
  return out;
}

}  // namespace gltf_anim::text

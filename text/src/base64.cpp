// Base64 encoding and strict decoding (base64.hpp).
#include <gltf_anim/text/base64.hpp>

#include <array>

namespace gltf_anim::text {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// RFC 4648 table 1 inverted; -1 for characters outside the alphabet.
constexpr std::array<std::int8_t, 256> make_decode_table() {
  std::array<std::int8_t, 256> t{};
  for (auto& v : t) v = -1;
  for (int i = 0; i < 64; ++i)
    t[static_cast<unsigned char>(kAlphabet[i])] = static_cast<std::int8_t>(i);
  return t;
}
constexpr auto kDecode = make_decode_table();

}  // namespace

std::string base64_encode(std::span<const std::uint8_t> bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t k = 0;
  for (; k + 3 <= bytes.size(); k += 3) {
    const std::uint32_t v = std::uint32_t{bytes[k]} << 16 | std::uint32_t{bytes[k + 1]} << 8 |
                            std::uint32_t{bytes[k + 2]};
    for (int s = 18; s >= 0; s -= 6) out += kAlphabet[(v >> s) & 63];
  }
  if (k < bytes.size()) {
    const std::uint32_t v = std::uint32_t{bytes[k]} << 16 |
                            (k + 1 < bytes.size() ? std::uint32_t{bytes[k + 1]} << 8 : 0);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += k + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::optional<std::vector<std::uint8_t>> base64_decode(std::string_view text,
                                                       std::size_t& error_at) {
  if (text.size() % 4 != 0) {
    error_at = text.size();
    return std::nullopt;
  }
  std::vector<std::uint8_t> out;
  out.reserve(text.size() / 4 * 3);  // bounded by the text the caller already holds
  for (std::size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    std::uint32_t quad = 0;
    int pad = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      const char c = text[i + k];
      if (c == '=' && last && k >= 2) {
        // '=' only in the last two places of the last quad, and only trailing.
        if (k == 2 && text[i + 3] != '=') {
          error_at = i + 2;
          return std::nullopt;
        }
        ++pad;
        quad <<= 6;
        continue;
      }
      const int v = kDecode[static_cast<unsigned char>(c)];
      if (v < 0) {
        error_at = i + k;
        return std::nullopt;
      }
      quad = (quad << 6) | static_cast<std::uint32_t>(v);
    }
    out.push_back(static_cast<std::uint8_t>(quad >> 16));
    if (pad < 2) out.push_back(static_cast<std::uint8_t>(quad >> 8));
    if (pad < 1) out.push_back(static_cast<std::uint8_t>(quad));
  }
  return out;
}

}  // namespace gltf_anim::text

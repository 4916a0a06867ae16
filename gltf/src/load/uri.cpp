// URI pieces the loader needs: the scheme (to refuse all but data:), the
// percent-decoded path of a relative reference, and strict base64.
#include "load/internal.hpp"

#include <array>

namespace gltf_anim::gltf {

namespace {

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// RFC 4648 table 1; -1 for characters outside the alphabet.
constexpr std::array<std::int8_t, 256> make_base64_table() {
  std::array<std::int8_t, 256> t{};
  for (auto& v : t) v = -1;
  const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (int i = 0; i < 64; ++i)
    t[static_cast<unsigned char>(alphabet[i])] = static_cast<std::int8_t>(i);
  return t;
}
constexpr auto kBase64 = make_base64_table();

}  // namespace

std::string_view uri_scheme(std::string_view uri) {
  // RFC 3986 3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), ended by ':'.
  if (uri.empty() || !is_alpha(uri[0])) return {};
  for (std::size_t i = 1; i < uri.size(); ++i) {
    const char c = uri[i];
    if (c == ':') return uri.substr(0, i);
    if (!is_alpha(c) && !is_digit(c) && c != '+' && c != '-' && c != '.') return {};
  }
  return {};
}

std::optional<std::string> decode_uri_path(std::string_view uri) {
  // A relative reference's path ends at '?' (query) or '#' (fragment).
  const std::size_t stop = uri.find_first_of("?#");
  const std::string_view path = uri.substr(0, stop);
  std::string out;
  out.reserve(path.size());
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] != '%') {
      if (path[i] == '\0') return std::nullopt;
      out += path[i];
      continue;
    }
    if (path.size() - i < 3) return std::nullopt;
    const int hi = hex_value(path[i + 1]);
    const int lo = hex_value(path[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    const int byte = hi * 16 + lo;
    if (byte == 0) return std::nullopt;  // a NUL would cut the path short in open()
    out += static_cast<char>(byte);
    i += 2;
  }
  return out;
}

std::optional<std::vector<std::uint8_t>> decode_percent_octets(std::string_view text,
                                                               std::size_t& error_at) {
  std::vector<std::uint8_t> out;
  out.reserve(text.size());  // bounded by the JSON text we already hold
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out.push_back(static_cast<std::uint8_t>(text[i]));
      continue;
    }
    const int hi = text.size() - i >= 3 ? hex_value(text[i + 1]) : -1;
    const int lo = text.size() - i >= 3 ? hex_value(text[i + 2]) : -1;
    if (hi < 0 || lo < 0) {
      error_at = i;
      return std::nullopt;
    }
    out.push_back(static_cast<std::uint8_t>(hi * 16 + lo));
    i += 2;
  }
  return out;
}

std::optional<std::vector<std::uint8_t>> decode_base64(std::string_view text,
                                                       std::size_t& error_at) {
  if (text.size() % 4 != 0) {
    error_at = text.size();
    return std::nullopt;
  }
  std::vector<std::uint8_t> out;
  out.reserve(text.size() / 4 * 3);  // bounded by the JSON text we already hold
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
      const int v = kBase64[static_cast<unsigned char>(c)];
      if (v < 0) {
        error_at = i + k;
        return std::nullopt;
      }
      quad = (quad << 6) | static_cast<std::uint32_t>(v);
    }
    out.push_back(static_cast<std::uint8_t>(quad >> 16));
    if (pad < 2) out.push_back(static_cast<std::uint8_t>(quad >> 8));
    if (pad < 1) out.push_back(static_cast<std::uint8_t>(quad));
    // Non-zero bits dropped by padding (RFC 4648 3.5) are accepted, as most
    // decoders do: they change no byte.
  }
  return out;
}

}  // namespace gltf_anim::gltf

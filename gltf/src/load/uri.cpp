// URI pieces the loader needs: the scheme (to refuse all but data:), the
// percent-decoded path of a relative reference and a data URI's percent-encoded octets
// (base64 payloads are text::base64_decode's).
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

}  // namespace gltf_anim::gltf

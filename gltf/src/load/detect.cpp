// What an input is, from its first bytes, before anything parses it: a GLB
// (the "glTF" magic), JSON text, JSON text in the wrong encoding, or something
// else entirely (a .bin buffer, a texture, an archive passed by mistake). One
// clear issue for the last two instead of a JSON parser's view of binary data.
#include "load/internal.hpp"

#include <algorithm>
#include <cstdio>

namespace gltf_anim::gltf {

namespace {

// Enough to see a file's nature; binary data shows a control byte (NUL in any
// float, index or image header) long before this.
constexpr std::size_t kHead = 4096;

bool starts_with(std::span<const std::uint8_t> bytes, std::string_view magic) {
  return bytes.size() >= magic.size() &&
         std::equal(magic.begin(), magic.end(), bytes.begin(),
                    [](char m, std::uint8_t b) { return static_cast<std::uint8_t>(m) == b; });
}

bool is_json_whitespace(std::uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string hex_bytes(std::span<const std::uint8_t> bytes) {
  std::string out;
  char buf[4];
  for (std::uint8_t b : bytes) {
    std::snprintf(buf, sizeof buf, "%02X", static_cast<unsigned>(b));
    if (!out.empty()) out += ' ';
    out += buf;
  }
  return out;
}

}  // namespace

std::optional<std::string> wide_text_encoding(std::span<const std::uint8_t> bytes) {
  // BOMs first (UTF-32 LE before UTF-16 LE: FF FE is a prefix of FF FE 00 00).
  if (starts_with(bytes, std::string_view("\xFF\xFE\0\0", 4))) return "UTF-32 (little-endian)";
  if (starts_with(bytes, std::string_view("\0\0\xFE\xFF", 4))) return "UTF-32 (big-endian)";
  if (starts_with(bytes, "\xFF\xFE")) return "UTF-16 (little-endian)";
  if (starts_with(bytes, "\xFE\xFF")) return "UTF-16 (big-endian)";
  // Without a BOM: the ASCII '{' (or whitespace) of a JSON text, widened.
  if (bytes.size() >= 4) {
    const bool ascii0 = bytes[0] == '{' || is_json_whitespace(bytes[0]);
    const bool ascii1 = bytes[1] == '{' || is_json_whitespace(bytes[1]);
    if (ascii0 && bytes[1] == 0 && bytes[2] != 0 && bytes[3] == 0) return "UTF-16 (little-endian)";
    if (bytes[0] == 0 && ascii1 && bytes[2] == 0 && bytes[3] != 0) return "UTF-16 (big-endian)";
  }
  return std::nullopt;
}

bool looks_like_text(std::span<const std::uint8_t> bytes) {
  std::size_t k = starts_with(bytes, "\xEF\xBB\xBF") ? 3 : 0;
  while (k < bytes.size() && is_json_whitespace(bytes[k])) ++k;
  if (k == bytes.size()) return true;  // empty or blank: the JSON parser says so
  // JSON text (even with a mistake in it) starts with printable ASCII.
  if (bytes[k] < 0x21 || bytes[k] > 0x7E) return false;
  // '{' is how every glTF starts (glTF-Validator detects JSON by it too): a
  // stray control byte later is a JSON error with a line and column.
  if (bytes[k] == '{') return true;
  const auto head = bytes.first(std::min(bytes.size(), kHead));
  return std::none_of(head.begin(), head.end(),
                      [](std::uint8_t c) { return c < 0x20 && !is_json_whitespace(c); });
}

std::string describe_binary(std::span<const std::uint8_t> bytes) {
  struct Magic {
    std::string_view bytes;
    std::string_view name;
  };
  static constexpr Magic kMagics[] = {
      {"\x89PNG\r\n\x1A\n", "a PNG image"},
      {"\xFF\xD8\xFF", "a JPEG image"},
      {"\xABKTX 20\xBB", "a KTX2 texture"},
      {"DDS ", "a DDS texture"},
      {"PK\x03\x04", "a ZIP archive"},
      {"\x1F\x8B", "gzip-compressed data"},
      {"Kaydara FBX Binary", "a binary FBX file"},
      {"\x7F"
       "ELF",
       "an ELF executable"},
  };
  for (const Magic& m : kMagics) {
    if (starts_with(bytes, m.bytes)) return std::string(m.name);
  }
  if (starts_with(bytes, "RIFF") && bytes.size() >= 12 && starts_with(bytes.subspan(8), "WEBP")) {
    return "a WebP image";
  }
  return "binary data (first bytes " +
         hex_bytes(bytes.first(std::min<std::size_t>(bytes.size(), 4))) + ")";
}

}  // namespace gltf_anim::gltf

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

std::optional<std::string> git_lfs_pointer(std::span<const std::uint8_t> bytes) {
  // The spec: a pointer is under 1024 bytes, "version <url>" first, then "key value" lines.
  constexpr std::string_view kVersion = "version https://git-lfs.github.com/spec/v1";
  if (bytes.size() > 1024 || !starts_with(bytes, kVersion)) return std::nullopt;
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  const std::size_t at = text.find("\nsize ");
  if (at != std::string_view::npos) {
    std::size_t end = at + 6;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
    if (end > at + 6)
      return "an object of " + std::string(text.substr(at + 6, end - at - 6)) + " bytes";
  }
  return std::string("an object of unknown size");
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

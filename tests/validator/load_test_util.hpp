#pragma once
// Helpers for the loader tests (test_load_*.cpp): byte builders for GLB and
// little-endian payloads, a base64 encoder written independently of the
// loader's decoder, scratch folders, and issue lookups.
#include "scratch.hpp"
#include <gltf_anim/gltf/accessor.hpp>
#include <gltf_anim/gltf/issue_collector.hpp>
#include <gltf_anim/gltf/load.hpp>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace load_test {

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;

inline Bytes bytes_of(std::string_view s) { return Bytes(s.begin(), s.end()); }

// Appends values little-endian (the host is little-endian; accessor.hpp asserts it).
template <typename T>
void put(Bytes& out, T v) {
  std::uint8_t b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  out.insert(out.end(), b, b + sizeof(T));
}
template <typename T>
Bytes le(std::initializer_list<T> values) {
  Bytes out;
  for (T v : values) put(out, v);
  return out;
}

inline void put_u32(Bytes& out, std::uint32_t v) { put(out, v); }

constexpr std::uint32_t kJson = 0x4E4F534A;
constexpr std::uint32_t kBin = 0x004E4942;

struct Chunk {
  std::uint32_t type;
  Bytes data;
  std::optional<std::uint32_t> declared_length;  // lie about the length
};

// A GLB from chunks, verbatim (no padding added); `declared` overrides the
// header length.
inline Bytes glb(const std::vector<Chunk>& chunks, std::optional<std::uint32_t> declared = {},
                 std::uint32_t version = 2) {
  Bytes out;
  put_u32(out, 0x46546C67);
  put_u32(out, version);
  put_u32(out, 0);
  for (const Chunk& c : chunks) {
    put_u32(out, c.declared_length.value_or(static_cast<std::uint32_t>(c.data.size())));
    put_u32(out, c.type);
    out.insert(out.end(), c.data.begin(), c.data.end());
  }
  const auto total = declared.value_or(static_cast<std::uint32_t>(out.size()));
  std::memcpy(out.data() + 8, &total, 4);
  return out;
}

// JSON text padded with spaces and BIN padded with zeros to 4 bytes, as the spec wants.
inline Bytes padded(Bytes b, std::uint8_t fill) {
  while (b.size() % 4 != 0) b.push_back(fill);
  return b;
}
inline Bytes valid_glb(std::string_view json, const Bytes& bin) {
  std::vector<Chunk> chunks{{kJson, padded(bytes_of(json), ' '), {}}};
  if (!bin.empty()) chunks.push_back({kBin, padded(bin, 0), {}});
  return glb(chunks);
}

// RFC 4648 base64, encoder side only (the loader only decodes).
inline std::string base64(const Bytes& in) {
  static const char* a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 3 <= in.size(); i += 3) {
    const std::uint32_t n = (std::uint32_t{in[i]} << 16) | (std::uint32_t{in[i + 1]} << 8) | in[i + 2];
    out += a[(n >> 18) & 63];
    out += a[(n >> 12) & 63];
    out += a[(n >> 6) & 63];
    out += a[n & 63];
  }
  if (in.size() - i == 1) {
    const std::uint32_t n = std::uint32_t{in[i]} << 16;
    out += a[(n >> 18) & 63];
    out += a[(n >> 12) & 63];
    out += "==";
  } else if (in.size() - i == 2) {
    const std::uint32_t n = (std::uint32_t{in[i]} << 16) | (std::uint32_t{in[i + 1]} << 8);
    out += a[(n >> 18) & 63];
    out += a[(n >> 12) & 63];
    out += a[(n >> 6) & 63];
    out += '=';
  }
  return out;
}

inline std::string data_uri(const Bytes& b) {
  return "data:application/octet-stream;base64," + base64(b);
}

// A fresh scratch folder in the process's scratch folder (scratch.hpp).
inline fs::path scratch(const std::string& name) {
  const fs::path dir = gltf_anim_test::scratch_root() / "loader" / name;
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir);
  return dir;
}

inline void write_file(const fs::path& p, const Bytes& b) {
  std::ofstream f(p, std::ios::binary);
  f.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}
inline void write_file(const fs::path& p, std::string_view s) { write_file(p, bytes_of(s)); }

inline gltf_anim::gltf::LoadedAsset load_text(std::string_view json,
                                              gltf_anim::gltf::IssueCollector& issues,
                                              gltf_anim::gltf::LoadOptions options = {}) {
  const Bytes b = bytes_of(json);
  return gltf_anim::gltf::load_bytes(b, "test.gltf", {}, options, issues);
}

// The first issue with this code, or nullptr.
inline const gltf_anim::gltf::Issue* find(const gltf_anim::gltf::IssueCollector& issues,
                                          std::string_view code) {
  for (const auto& i : issues.issues()) {
    if (i.code == code) return &i;
  }
  return nullptr;
}

inline std::vector<std::string> codes(const gltf_anim::gltf::IssueCollector& issues) {
  std::vector<std::string> out;
  for (const auto& i : issues.issues()) out.emplace_back(i.code);
  return out;
}

}  // namespace load_test

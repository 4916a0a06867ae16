#pragma once
// Hand-made assets for the edit path's tests: float data laid out by hand,
// a base64 written here (not the session's), GLB chunks counted by hand, and
// loading through the validator's loader from memory.
#include <gltf_anim/io/resource_reader.hpp>
#include <gltf_anim/gltf/accessor.hpp>
#include <gltf_anim/gltf/load.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace edit_test {

using Bytes = std::vector<std::uint8_t>;

inline void put32(Bytes& out, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) out.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
}

inline void put_floats(Bytes& out, std::initializer_list<float> values) {
  for (const float f : values) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &f, 4);
    put32(out, bits);
  }
}

inline std::string base64(const Bytes& in) {
  const char* a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    out += a[in[i] >> 2];
    out += a[((in[i] & 3) << 4) | (in[i + 1] >> 4)];
    out += a[((in[i + 1] & 15) << 2) | (in[i + 2] >> 6)];
    out += a[in[i + 2] & 63];
  }
  if (in.size() - i == 1) {
    out += a[in[i] >> 2];
    out += a[(in[i] & 3) << 4];
    out += "==";
  } else if (in.size() - i == 2) {
    out += a[in[i] >> 2];
    out += a[((in[i] & 3) << 4) | (in[i + 1] >> 4)];
    out += a[(in[i + 1] & 15) << 2];
    out += '=';
  }
  return out;
}

// A GLB of `json` (space-padded) and `bin` (zero-padded), lengths counted here.
inline Bytes glb(std::string json, Bytes bin) {
  while (json.size() % 4 != 0) json += ' ';
  while (bin.size() % 4 != 0) bin.push_back(0);
  Bytes out;
  put32(out, 0x46546C67);
  put32(out, 2);
  put32(out, static_cast<std::uint32_t>(12 + 8 + json.size() + 8 + bin.size()));
  put32(out, static_cast<std::uint32_t>(json.size()));
  put32(out, 0x4E4F534A);
  out.insert(out.end(), json.begin(), json.end());
  put32(out, static_cast<std::uint32_t>(bin.size()));
  put32(out, 0x004E4942);
  out.insert(out.end(), bin.begin(), bin.end());
  return out;
}

// The animation test asset's buffer: times [0, 1, 2] (bytes 0-11), a
// translation output of 3 VEC3 with byteStride 16 (bytes 12-55, 4 unused
// bytes after each element, filled with 0xEE), rotations 3 VEC4 (56-103).
inline Bytes anim_buffer() {
  Bytes b;
  put_floats(b, {0, 1, 2});
  for (int k = 0; k < 3; ++k) {
    put_floats(b, {float(k), float(10 + k), float(20 + k)});
    if (k < 2) b.insert(b.end(), 4, 0xEE);
  }
  put_floats(b, {0, 0, 0, 1, 0, 0, 0.70710678f, 0.70710678f, 0, 0, 1, 0});
  return b;
}

// Two samplers sharing time accessor 0; `uri` names the buffer ("" for a GLB).
inline std::string anim_json(const std::string& uri, std::size_t byte_length,
                             const std::string& extra_top = "") {
  return std::string("{\"asset\":{\"version\":\"2.0\"},") + extra_top +
         "\"nodes\":[{\"name\":\"n\"}],\"buffers\":[{" +
         (uri.empty() ? "" : "\"uri\":\"" + uri + "\",") +
         "\"byteLength\":" + std::to_string(byte_length) +
         "}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":12},"
         "{\"buffer\":0,\"byteOffset\":12,\"byteLength\":44,\"byteStride\":16},"
         "{\"buffer\":0,\"byteOffset\":56,\"byteLength\":48}],"
         "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"SCALAR\","
         "\"min\":[0],\"max\":[2]},"
         "{\"bufferView\":1,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
         "{\"bufferView\":2,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"}],"
         "\"animations\":[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":"
         "\"translation\"}},{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"rotation\"}}],"
         "\"samplers\":[{\"input\":0,\"output\":1},{\"input\":0,\"output\":2}]}]}";
}

inline std::string data_uri(const Bytes& b) {
  return "data:application/octet-stream;base64," + base64(b);
}

// Loads `bytes` from memory; relative URIs read from `files`.
inline gltf_anim::gltf::LoadedAsset load(const Bytes& bytes,
                                         const gltf_anim::io::MemoryReader* files = nullptr) {
  gltf_anim::gltf::IssueCollector issues;
  gltf_anim::gltf::LoadOptions options;
  gltf_anim::io::MemoryReader none;
  options.resources = files != nullptr ? files : &none;
  return gltf_anim::gltf::load_bytes(bytes, "test.gltf", {}, options, issues);
}

inline std::vector<double> read(const gltf_anim::gltf::LoadedAsset& asset, std::size_t i) {
  std::vector<double> out;
  gltf_anim::gltf::read_accessor(asset, i, out);
  return out;
}

inline Bytes bytes_of(const std::string& s) { return Bytes(s.begin(), s.end()); }

}  // namespace edit_test

// libFuzzer target: accessor decoding. The first 10 bytes pick the accessor
// (componentType, type, count, byteStride, normalized, byteOffset, sparse with
// its count, index type and offsets); the rest is the buffer, wrapped in a GLB
// whose JSON describes that one accessor. Every decoding path is then run:
// the layout check, float_view, AccessorReader in chunks and read_accessor.
#include <gltf_anim/gltf/accessor.hpp>
#include <gltf_anim/gltf/load.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {
constexpr unsigned kComponentTypes[] = {5120, 5121, 5122, 5123, 5125, 5126, 5124};
constexpr const char* kTypes[] = {"SCALAR", "VEC2", "VEC3", "VEC4", "MAT2", "MAT3", "MAT4"};
constexpr unsigned kIndexTypes[] = {5121, 5123, 5125, 5126};
void put_u32(std::vector<std::uint8_t>& v, std::uint32_t x) {
  for (int i = 0; i < 4; ++i) v.push_back(static_cast<std::uint8_t>(x >> (8 * i)));
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace gltf = gltf_anim::gltf;
  if (size < 10) return 0;
  const std::uint8_t* h = data;
  const std::size_t n = size - 10;
  std::string json = R"({"asset":{"version":"2.0"},"buffers":[{"byteLength":)" + std::to_string(n) +
                     R"(}],"bufferViews":[{"buffer":0,"byteLength":)" + std::to_string(n);
  if (h[4] != 0) json += R"(,"byteStride":)" + std::to_string(h[4]);
  json += R"(},{"buffer":0,"byteLength":)" + std::to_string(n) + "}],";
  json += R"("accessors":[{)";
  if (!(h[5] & 16)) json += R"("bufferView":0,"byteOffset":)" + std::to_string(h[6]) + ",";
  json += R"("componentType":)" + std::to_string(kComponentTypes[h[0] % 7]) + R"(,"type":")" +
          kTypes[h[1] % 7] + R"(","count":)" + std::to_string((h[2] | h[3] << 8) + 1);
  if (h[5] & 1) json += R"(,"normalized":true)";
  if (h[5] & 2) {
    json += R"(,"sparse":{"count":)" + std::to_string(h[7] + 1) +
            R"(,"indices":{"bufferView":1,"byteOffset":)" + std::to_string(h[8]) +
            R"(,"componentType":)" + std::to_string(kIndexTypes[(h[5] >> 2) & 3]) +
            R"(},"values":{"bufferView":1,"byteOffset":)" + std::to_string(h[9]) + "}}";
  }
  json += "}]}";
  while (json.size() % 4) json += ' ';
  const std::size_t bin = (n + 3) & ~std::size_t{3};
  std::vector<std::uint8_t> glb;
  glb.insert(glb.end(), {'g', 'l', 'T', 'F'});
  put_u32(glb, 2);
  put_u32(glb, static_cast<std::uint32_t>(12 + 8 + json.size() + 8 + bin));
  put_u32(glb, static_cast<std::uint32_t>(json.size()));
  put_u32(glb, 0x4E4F534Au);
  glb.insert(glb.end(), json.begin(), json.end());
  put_u32(glb, static_cast<std::uint32_t>(bin));
  put_u32(glb, 0x004E4942u);
  glb.insert(glb.end(), data + 10, data + size);
  glb.resize(glb.size() + (bin - n), 0);

  gltf::IssueCollector issues;
  const gltf::LoadedAsset asset = gltf::load_bytes(glb, "fuzz.glb", {}, {}, issues);
  gltf::check_buffers_and_accessors(asset, issues);
  if (const auto view = gltf::float_view(asset, 0)) {
    volatile float sink = 0;
    for (std::size_t i = 0; i < view->size(); ++i) sink = sink + (*view)[i];
  }
  if (const auto reader = gltf::AccessorReader::open(asset, 0, &issues)) {
    std::vector<double> chunk(7 * reader->components());
    for (std::uint64_t first = 0; first < reader->count(); first += 7) {
      const std::uint64_t left = reader->count() - first;
      const std::size_t k = left < 7 ? static_cast<std::size_t>(left) : 7;
      if (!reader->read(first, k, chunk.data())) __builtin_trap();  // in range: must succeed
    }
    if (reader->read(reader->count(), 1, chunk.data())) __builtin_trap();  // past the end
  }
  std::vector<double> all;
  gltf::read_accessor(asset, 0, all);
  return 0;
}

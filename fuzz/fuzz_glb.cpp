// libFuzzer target: the GLB container reader. Every input is made to start
// with the "glTF" magic (so the JSON-text path is not what gets explored),
// then loaded, laid out and, when readable, every accessor decoded.
#include <gltf_anim/gltf/accessor.hpp>
#include <gltf_anim/gltf/load.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace gltf = gltf_anim::gltf;
  std::vector<std::uint8_t> bytes(data, data + size);
  if (bytes.size() < 4) bytes.resize(4);
  std::memcpy(bytes.data(), "glTF", 4);
  gltf::IssueCollector issues;
  gltf::LoadOptions options;
  options.max_file_bytes = 1 << 20;
  const gltf::LoadedAsset asset = gltf::load_bytes(bytes, "fuzz.glb", {}, options, issues);
  gltf::check_buffers_and_accessors(asset, issues);
  std::vector<double> values;
  for (std::size_t i = 0; i < asset.accessors.size(); ++i) {
    gltf::read_accessor(asset, i, values, &issues, std::size_t{1} << 20);
  }
  return 0;
}

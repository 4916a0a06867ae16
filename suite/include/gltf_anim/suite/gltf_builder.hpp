#pragma once
// GltfBuilder: assembles one small glTF asset (JSON + one binary buffer) for
// the conformance suite and serialises it as .gltf with a data URI, .gltf with
// an external .bin, or .glb. Binary data is written little-endian with exact
// float32 values; every bufferView starts on a 4-byte boundary.
#include <gltf_anim/suite/json.hpp>
#include <gltf_anim/gltf/asset.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace gltf_anim::suite {

enum class Container { kDataUri, kExternalBin, kGlb };

struct OutputFile {
  std::string name;                 // file name relative to the asset's folder
  std::vector<std::uint8_t> bytes;  // exact content
};

class GltfBuilder {
 public:
  GltfBuilder();

  Json& root() { return root_; }
  // Appends `value` to the root array `name` (created on first use); returns its index.
  int add(const std::string& name, Json value);
  void use_extension(const std::string& name, bool required = false);
  // The extensions used so far (extensionsUsed), in the order first used.
  const std::vector<std::string>& extensions_used() const { return extensions_used_; }

  // Float accessor of `type` ("SCALAR", "VEC2", ...). With `minmax`, min and max
  // are written (required for animation inputs and POSITION).
  int accessor_float(const std::vector<float>& values, const char* type, bool minmax);
  // Integer accessor: `raw` holds the stored integers of `component_type`.
  int accessor_int(gltf::ComponentType component_type, bool normalized,
                   const std::vector<std::int64_t>& raw, const char* type);
  // Float accessor with a sparse substitution. With `with_base` the base values
  // live in a bufferView; without, the base is all zeros (no bufferView).
  int accessor_sparse_float(const std::vector<float>& base, bool with_base,
                            const std::vector<std::uint32_t>& indices,
                            const std::vector<float>& values, const char* type);

  // A one-triangle mesh with `morph_targets` POSITION morph targets (0 for none).
  int add_triangle_mesh(int morph_targets);
  // Adds a node (also listed in scene 0) and returns its index.
  int add_node(Json node);

  int add_animation(const std::string& name);
  int add_sampler(int animation, int input, int output, const std::string& interpolation);
  int add_channel(int animation, Json channel);
  // Core channel: target.node + target.path.
  int add_core_channel(int animation, int sampler, int node, const std::string& path);
  // KHR_animation_pointer channel: target.path "pointer" + the extension's pointer.
  int add_pointer_channel(int animation, int sampler, const std::string& pointer);

  // Serialises the asset as `<stem>.gltf` (+ `<stem>.bin`) or `<stem>.glb`.
  std::vector<OutputFile> finish(const std::string& stem, Container container) const;

 private:
  int buffer_view(const std::vector<std::uint8_t>& bytes);

  Json root_;
  std::vector<std::string> extensions_used_;
  std::vector<std::uint8_t> bin_;
  bool has_scene_ = false;
};


}  // namespace gltf_anim::suite

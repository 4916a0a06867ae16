#include <gltf_anim/suite/gltf_builder.hpp>
#include <gltf_anim/text/base64.hpp>

#include <algorithm>
#include <cstring>
#include <optional>
#include <stdexcept>

namespace gltf_anim::suite {
namespace {

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>((v >> (8 * i)) & 0xFFu));
}

void put_float(std::vector<std::uint8_t>& out, float f) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &f, sizeof bits);
  put_u32(out, bits);
}

// The builder writes scalars and vectors only.
int component_count(const std::string& type) {
  const std::optional<gltf::ElementType> t = gltf::element_type_from_name(type);
  if (!t || *t == gltf::ElementType::kMat2 || *t == gltf::ElementType::kMat3 ||
      *t == gltf::ElementType::kMat4)
    throw std::logic_error("GltfBuilder: unsupported accessor type " + type);
  return static_cast<int>(gltf::component_count(*t));
}

}  // namespace

GltfBuilder::GltfBuilder() {
  root_ = Json::object({{"asset", Json::object({{"version", "2.0"},
                                                 {"generator", "gltf-anim conformance generator"}})}});
}

int GltfBuilder::add(const std::string& name, Json value) {
  Json& list = root_[name];
  if (list.kind() == Json::Kind::kNull) list = Json::array();
  return static_cast<int>(list.push(std::move(value)));
}

void GltfBuilder::use_extension(const std::string& name, bool required) {
  auto add_unique = [&](const char* list_name) {
    Json& list = root_[list_name];
    if (list.kind() == Json::Kind::kNull) list = Json::array();
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (list.at(i).dump(0) == Json(name).dump(0)) return;
    }
    list.push(name);
  };
  add_unique("extensionsUsed");
  if (required) add_unique("extensionsRequired");
  if (std::find(extensions_used_.begin(), extensions_used_.end(), name) == extensions_used_.end()) {
    extensions_used_.push_back(name);
  }
}

int GltfBuilder::buffer_view(const std::vector<std::uint8_t>& bytes) {
  while (bin_.size() % 4 != 0) bin_.push_back(0);
  const std::size_t offset = bin_.size();
  bin_.insert(bin_.end(), bytes.begin(), bytes.end());
  Json view = Json::object({{"buffer", 0}, {"byteLength", bytes.size()}});
  if (offset != 0) view.set("byteOffset", offset);
  return add("bufferViews", std::move(view));
}

int GltfBuilder::accessor_float(const std::vector<float>& values, const char* type, bool minmax) {
  const auto n = static_cast<std::size_t>(component_count(type));
  if (values.empty() || values.size() % n != 0) {
    throw std::logic_error("GltfBuilder: float data does not fit the accessor type");
  }
  std::vector<std::uint8_t> bytes;
  for (float f : values) put_float(bytes, f);
  const int view = buffer_view(bytes);
  Json accessor = Json::object({{"bufferView", view},
                                {"componentType", static_cast<int>(gltf::ComponentType::kFloat)},
                                {"count", values.size() / n},
                                {"type", type}});
  if (minmax) {
    std::vector<float> lo(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n));
    std::vector<float> hi = lo;
    for (std::size_t i = 0; i < values.size(); ++i) {
      lo[i % n] = std::min(lo[i % n], values[i]);
      hi[i % n] = std::max(hi[i % n], values[i]);
    }
    accessor.set("max", Json::floats(hi));
    accessor.set("min", Json::floats(lo));
  }
  return add("accessors", std::move(accessor));
}

int GltfBuilder::accessor_int(gltf::ComponentType component_type, bool normalized,
                              const std::vector<std::int64_t>& raw, const char* type) {
  const auto n = static_cast<std::size_t>(component_count(type));
  if (raw.empty() || raw.size() % n != 0) {
    throw std::logic_error("GltfBuilder: integer data does not fit the accessor type");
  }
  const std::size_t size = gltf::component_size(component_type);
  std::vector<std::uint8_t> bytes;
  for (std::int64_t v : raw) {
    const auto u = static_cast<std::uint64_t>(v);
    for (std::size_t b = 0; b < size; ++b) bytes.push_back(static_cast<std::uint8_t>((u >> (8 * b)) & 0xFFu));
  }
  // Elements of a vertex-less accessor need no padding, but each element must
  // start on a component boundary, which packed data always does.
  const int view = buffer_view(bytes);
  Json accessor = Json::object({{"bufferView", view},
                                {"componentType", static_cast<int>(component_type)}});
  if (normalized) accessor.set("normalized", true);
  accessor.set("count", raw.size() / n);
  accessor.set("type", type);
  return add("accessors", std::move(accessor));
}

int GltfBuilder::accessor_sparse_float(const std::vector<float>& base, bool with_base,
                                       const std::vector<std::uint32_t>& indices,
                                       const std::vector<float>& values, const char* type) {
  const auto n = static_cast<std::size_t>(component_count(type));
  if (base.empty() || base.size() % n != 0 || values.size() != indices.size() * n) {
    throw std::logic_error("GltfBuilder: sparse data does not fit the accessor type");
  }
  Json accessor = Json::object();
  if (with_base) {
    std::vector<std::uint8_t> bytes;
    for (float f : base) put_float(bytes, f);
    accessor.set("bufferView", buffer_view(bytes));
  }
  std::vector<std::uint8_t> index_bytes;
  for (std::uint32_t i : indices) put_u32(index_bytes, i);
  const int index_view = buffer_view(index_bytes);
  std::vector<std::uint8_t> value_bytes;
  for (float f : values) put_float(value_bytes, f);
  const int value_view = buffer_view(value_bytes);
  accessor.set("componentType", static_cast<int>(gltf::ComponentType::kFloat));
  accessor.set("count", base.size() / n);
  accessor.set("type", type);
  accessor.set(
      "sparse",
      Json::object(
          {{"count", indices.size()},
           {"indices",
            Json::object({{"bufferView", index_view},
                          {"componentType", static_cast<int>(gltf::ComponentType::kUnsignedInt)}})},
           {"values", Json::object({{"bufferView", value_view}})}}));
  return add("accessors", std::move(accessor));
}

int GltfBuilder::add_triangle_mesh(int morph_targets) {
  const int position = accessor_float({0, 0, 0, 1, 0, 0, 0, 1, 0}, "VEC3", true);
  Json attributes = Json::object({{"POSITION", position}});
  // A textured material reads TEXCOORD_0: without it the asset is invalid
  // (glTF-Validator: MESH_PRIMITIVE_TOO_FEW_TEXCOORDS), whatever its animation.
  if (root_.has("textures")) attributes.set("TEXCOORD_0", accessor_float({0, 0, 1, 0, 0, 1}, "VEC2", false));
  Json primitive = Json::object({{"attributes", std::move(attributes)}});
  if (root_.has("materials")) primitive.set("material", 0);
  Json mesh = Json::object();
  if (morph_targets > 0) {
    Json targets = Json::array();
    Json weights = Json::array();
    for (int t = 0; t < morph_targets; ++t) {
      // Target t lifts vertex t % 3 by (t / 3 + 1) along +z.
      std::vector<float> d(9, 0.0f);
      d[static_cast<std::size_t>((t % 3) * 3 + 2)] = static_cast<float>(t / 3 + 1);
      targets.push(Json::object({{"POSITION", accessor_float(d, "VEC3", true)}}));
      weights.push(0.0);
    }
    primitive.set("targets", std::move(targets));
    mesh.set("primitives", Json::array({std::move(primitive)}));
    mesh.set("weights", std::move(weights));
  } else {
    mesh.set("primitives", Json::array({std::move(primitive)}));
  }
  return add("meshes", std::move(mesh));
}

int GltfBuilder::add_node(Json node) {
  if (!has_scene_) {
    root_.set("scene", 0);
    add("scenes", Json::object({{"nodes", Json::array()}}));
    has_scene_ = true;
  }
  const int index = add("nodes", std::move(node));
  root_["scenes"].at(0)["nodes"].push(index);
  return index;
}

int GltfBuilder::add_animation(const std::string& name) {
  return add("animations", Json::object({{"name", name},
                                         {"channels", Json::array()},
                                         {"samplers", Json::array()}}));
}

int GltfBuilder::add_sampler(int animation, int input, int output, const std::string& interpolation) {
  Json sampler = Json::object({{"input", input}});
  sampler.set("interpolation", interpolation);
  sampler.set("output", output);
  return static_cast<int>(
      root_["animations"].at(static_cast<std::size_t>(animation))["samplers"].push(std::move(sampler)));
}

int GltfBuilder::add_channel(int animation, Json channel) {
  return static_cast<int>(
      root_["animations"].at(static_cast<std::size_t>(animation))["channels"].push(std::move(channel)));
}

int GltfBuilder::add_core_channel(int animation, int sampler, int node, const std::string& path) {
  return add_channel(animation, Json::object({{"sampler", sampler},
                                              {"target", Json::object({{"node", node}, {"path", path}})}}));
}

int GltfBuilder::add_pointer_channel(int animation, int sampler, const std::string& pointer) {
  use_extension("KHR_animation_pointer");
  return add_channel(
      animation,
      Json::object({{"sampler", sampler},
                    {"target", Json::object({{"path", "pointer"},
                                             {"extensions", Json::object({{"KHR_animation_pointer",
                                                                           Json::object({{"pointer", pointer}})}})}})}}));
}

std::vector<OutputFile> GltfBuilder::finish(const std::string& stem, Container container) const {
  std::vector<std::uint8_t> bin = bin_;
  while (bin.size() % 4 != 0) bin.push_back(0);
  Json root = root_;
  Json buffer = Json::object({{"byteLength", bin.size()}});
  if (container == Container::kDataUri) {
    buffer.set("uri", "data:application/octet-stream;base64," + text::base64_encode(bin));
  } else if (container == Container::kExternalBin) {
    buffer.set("uri", stem + ".bin");
  }
  root.set("buffers", Json::array({std::move(buffer)}));

  std::vector<OutputFile> files;
  if (container != Container::kGlb) {
    const std::string text = root.dump(2);
    files.push_back({stem + ".gltf", std::vector<std::uint8_t>(text.begin(), text.end())});
    if (container == Container::kExternalBin) files.push_back({stem + ".bin", bin});
    return files;
  }
  std::string text = root.dump(0);
  text.pop_back();  // no trailing newline inside the chunk
  while (text.size() % 4 != 0) text.push_back(' ');
  std::vector<std::uint8_t> glb;
  put_u32(glb, 0x46546C67u);  // "glTF"
  put_u32(glb, 2u);
  put_u32(glb, static_cast<std::uint32_t>(12 + 8 + text.size() + 8 + bin.size()));
  put_u32(glb, static_cast<std::uint32_t>(text.size()));
  put_u32(glb, 0x4E4F534Au);  // "JSON"
  glb.insert(glb.end(), text.begin(), text.end());
  put_u32(glb, static_cast<std::uint32_t>(bin.size()));
  put_u32(glb, 0x004E4942u);  // "BIN\0"
  glb.insert(glb.end(), bin.begin(), bin.end());
  files.push_back({stem + ".glb", std::move(glb)});
  return files;
}

}  // namespace gltf_anim::suite

// Names and sizes of the spec's accessor enums, and the asset's special members.
#include "load/internal.hpp"

#include <gltf_anim/gltf/json.hpp>
#include <rapidjson/document.h>

#include <type_traits>

namespace gltf_anim::gltf {

std::string_view mime_type_name(MimeType m) {
  switch (m) {
    case MimeType::kGltfJson: return "model/gltf+json";
    case MimeType::kGltfBinary: return "model/gltf-binary";
    case MimeType::kNone: break;
  }
  return "";
}

std::optional<ComponentType> component_type_from_gl(std::uint64_t value) {
  switch (value) {
    case 5120: return ComponentType::kByte;
    case 5121: return ComponentType::kUnsignedByte;
    case 5122: return ComponentType::kShort;
    case 5123: return ComponentType::kUnsignedShort;
    case 5125: return ComponentType::kUnsignedInt;
    case 5126: return ComponentType::kFloat;
    case 5130: return ComponentType::kDouble;
    case 5131: return ComponentType::kHalfFloat;
    default: return std::nullopt;
  }
}

std::string_view component_type_name(ComponentType c) {
  switch (c) {
    case ComponentType::kByte: return "BYTE";
    case ComponentType::kUnsignedByte: return "UNSIGNED_BYTE";
    case ComponentType::kShort: return "SHORT";
    case ComponentType::kUnsignedShort: return "UNSIGNED_SHORT";
    case ComponentType::kUnsignedInt: return "UNSIGNED_INT";
    case ComponentType::kFloat: return "FLOAT";
    case ComponentType::kDouble: return "DOUBLE";
    case ComponentType::kHalfFloat: return "HALF_FLOAT";
  }
  return "";
}

bool is_floating_point(ComponentType c) {
  return c == ComponentType::kFloat || c == ComponentType::kDouble ||
         c == ComponentType::kHalfFloat;
}

std::uint32_t component_size(ComponentType c) {
  switch (c) {
    case ComponentType::kByte:
    case ComponentType::kUnsignedByte: return 1;
    case ComponentType::kShort:
    case ComponentType::kUnsignedShort:
    case ComponentType::kHalfFloat: return 2;
    case ComponentType::kUnsignedInt:
    case ComponentType::kFloat: return 4;
    case ComponentType::kDouble: return 8;
  }
  return 0;
}

namespace {
struct ElementName {
  ElementType type;
  std::string_view name;
  std::uint32_t components;
};
constexpr ElementName kElementNames[] = {
    {ElementType::kScalar, "SCALAR", 1}, {ElementType::kVec2, "VEC2", 2},
    {ElementType::kVec3, "VEC3", 3},     {ElementType::kVec4, "VEC4", 4},
    {ElementType::kMat2, "MAT2", 4},     {ElementType::kMat3, "MAT3", 9},
    {ElementType::kMat4, "MAT4", 16},
};
}  // namespace

std::optional<ElementType> element_type_from_name(std::string_view name) {
  for (const ElementName& e : kElementNames) {
    if (e.name == name) return e.type;
  }
  return std::nullopt;
}

std::string_view element_type_name(ElementType t) {
  return kElementNames[static_cast<std::size_t>(t)].name;
}

std::uint32_t component_count(ElementType t) {
  return kElementNames[static_cast<std::size_t>(t)].components;
}

std::uint32_t element_size(ComponentType c, ElementType t) {
  const std::uint32_t size = component_size(c);
  std::uint32_t rows = 0;  // matrices only: column height
  if (t == ElementType::kMat2) rows = 2;
  if (t == ElementType::kMat3) rows = 3;
  if (t == ElementType::kMat4) rows = 4;
  if (rows == 0) return size * component_count(t);
  // Each column starts on a 4-byte boundary (3.6.2.4 "Data Alignment").
  const std::uint32_t column = (rows * size + 3u) / 4u * 4u;
  return column * rows;
}

std::string_view meshopt_mode_name(MeshoptMode m) {
  switch (m) {
    case MeshoptMode::kAttributes: return "ATTRIBUTES";
    case MeshoptMode::kTriangles: return "TRIANGLES";
    case MeshoptMode::kIndices: return "INDICES";
  }
  return "";
}

std::string_view meshopt_filter_name(MeshoptFilter f) {
  switch (f) {
    case MeshoptFilter::kNone: return "NONE";
    case MeshoptFilter::kOctahedral: return "OCTAHEDRAL";
    case MeshoptFilter::kQuaternion: return "QUATERNION";
    case MeshoptFilter::kExponential: return "EXPONENTIAL";
    case MeshoptFilter::kColor: return "COLOR";
  }
  return "";
}

std::uint32_t element_extent(ComponentType c, ElementType t) {
  const std::uint32_t size = component_size(c);
  const std::uint32_t element = element_size(c, t);
  if (t != ElementType::kMat2 && t != ElementType::kMat3 && t != ElementType::kMat4) return element;
  const std::uint32_t rows = t == ElementType::kMat2 ? 2 : t == ElementType::kMat3 ? 3 : 4;
  // The last column keeps its values and drops its padding.
  return element - element / rows + rows * size;
}

// asset.hpp declares the document type without rapidjson's headers: it must be
// the type rapidjson calls Document.
static_assert(std::is_same_v<JsonDocument, gltf_anim::json::Document>);

LoadedAsset::LoadedAsset() = default;
LoadedAsset::~LoadedAsset() = default;
LoadedAsset::LoadedAsset(LoadedAsset&&) noexcept = default;
LoadedAsset& LoadedAsset::operator=(LoadedAsset&&) noexcept = default;

}  // namespace gltf_anim::gltf

#pragma once
// The vocabulary of the glTF 2.0 Asset Object Model the animation model
// (animation_model.hpp) speaks: a property's type, its template, a pointer's
// match and whether it is defined in an asset. The table itself and its
// lookups (object_model.hpp: parse_pointer, match, resolve) are internal to
// the validator.
#include <cstdint>
#include <string_view>
#include <vector>

namespace gltf_anim::gltf::object_model {

enum class ValueType { kFloat, kFloat2, kFloat3, kFloat4, kFloatArray, kInt, kBool, kFloat4x4 };

// "float", "float2", ..., "float[]", "int", "bool", "float4x4".
std::string_view type_name(ValueType t);

struct Property {
  std::string_view pointer;  // template: "/nodes/{}/rotation"; {} is an array index
  ValueType type;
  bool has_default;  // defined when absent, if its enclosing object is present
  bool read_only;
  bool quaternion;  // unit quaternion values (node rotation, image-based light rotation)
};

struct Match {
  const Property* property = nullptr;
  std::vector<std::uint64_t> indices;  // one per {} of the template, in order
};

enum class Resolution {
  kDefined,         // present in the document, or a default inside a present object
  kUndefined,       // an index out of range, an enclosing object or a default-less property absent
  kNodeMatrix,      // /nodes/{}/rotation or /scale of a node with `matrix` (the adoc: undefined)
  kNoMorphTargets,  // /nodes/{}/weights[/{}] of a node without a mesh with morph targets
};

struct Resolved {
  Resolution status = Resolution::kUndefined;
  // For /nodes/{}/weights: the morph-target count (the float[] width); 1 otherwise.
  std::uint64_t width = 1;
};

}  // namespace gltf_anim::gltf::object_model

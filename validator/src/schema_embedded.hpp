#pragma once
// The schema files of validator/schemas/, embedded at build time
// (validator/embed_schemas.cmake writes the definitions).
#include <cstddef>
#include <string_view>

namespace gltf_anim::validator::detail {

struct EmbeddedSchema {
  std::string_view name;  // file name, e.g. "animation.schema.json"
  std::string_view text;  // file contents
};

extern const EmbeddedSchema kEmbeddedSchemas[];
extern const std::size_t kEmbeddedSchemaCount;

}  // namespace gltf_anim::validator::detail

// Meshes, as far as animation depends on them: a "weights" channel animates
// the morph targets of a node's mesh, so every reference of a primitive must
// resolve (its attributes, indices, material and morph targets' accessors:
// UNRESOLVED_REFERENCE, glTF-Validator's pointers) and the morph target counts
// must agree: all primitives alike (MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT), and
// mesh.weights as long as they are (MESH_INVALID_WEIGHTS_COUNT; node.weights is
// the scene graph module's). One pass over the primitives.
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/validator/rules.hpp>

#include <memory>
#include <optional>
#include <string>

#include "ext_common.hpp"

namespace gltf_anim::validator {

using gltf::JsonPointer;

namespace {

using namespace rules;  // json_access.hpp, ext_common.hpp

// Each member of `map` (semantic -> accessor index) that names no accessor.
void check_accessor_map(RuleContext& ctx, const gltf_anim::json::Value* map,
                        std::uint64_t accessor_count, const JsonPointer& at) {
  if (map == nullptr || !map->IsObject()) return;
  for (const auto& m : map->GetObject()) {
    const auto index = as_uint(m.value);
    if (index && *index >= accessor_count) {
      ctx.issues.add("UNRESOLVED_REFERENCE",
                     at / std::string_view(m.name.GetString(), m.name.GetStringLength()),
                     {std::to_string(*index)});
    }
  }
}

// A primitive's number of morph targets, or nullopt when a target is not a
// non-empty object (the schema phase reports that: one cause, one issue, so
// the counts are not compared then).
std::optional<std::uint64_t> morph_target_count(const gltf_anim::json::Value* targets) {
  if (targets == nullptr) return 0;
  for (const auto& t : targets->GetArray()) {
    if (!t.IsObject() || t.MemberCount() == 0) return std::nullopt;
  }
  return targets->Size();
}

class MeshRules final : public RuleModule {
 public:
  std::string_view name() const override { return "meshes"; }

  void link(RuleContext& ctx) override {
    const gltf_anim::json::Value* meshes = array_member(ctx.doc, "meshes");
    const std::uint64_t accessor_count = array_size(array_member(ctx.doc, "accessors"));
    const std::uint64_t material_count = array_size(array_member(ctx.doc, "materials"));
    for (std::uint64_t m = 0; m < array_size(meshes); ++m) {
      const gltf_anim::json::Value* mesh = object_at(meshes, m);
      if (mesh == nullptr) continue;
      const JsonPointer mesh_at = JsonPointer() / std::string_view("meshes") / m;
      const gltf_anim::json::Value* primitives = array_member(*mesh, "primitives");
      std::optional<std::uint64_t> first_targets;
      for (std::uint64_t p = 0; p < array_size(primitives); ++p) {
        const gltf_anim::json::Value* primitive = object_at(primitives, p);
        if (primitive == nullptr) continue;  // the schema phase's
        const JsonPointer at = mesh_at / std::string_view("primitives") / p;
        const gltf_anim::json::Value* targets = array_member(*primitive, "targets");
        const std::optional<std::uint64_t> morphs = morph_target_count(targets);
        if (p == 0) {
          first_targets = morphs;
        } else if (first_targets && morphs && *morphs != *first_targets) {
          ctx.issues.add("MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT",
                         *morphs > 0 ? at / std::string_view("targets") : at);
        }
        const std::uint64_t target_count = array_size(targets);
        check_accessor_map(ctx, member(*primitive, "attributes"), accessor_count,
                           at / std::string_view("attributes"));
        for (const auto& [name, count] :
             {std::pair<std::string_view, std::uint64_t>{"indices", accessor_count},
              {"material", material_count}}) {
          const auto index = index_member(*primitive, name);
          if (index && *index >= count) {
            ctx.issues.add("UNRESOLVED_REFERENCE", at / name, {std::to_string(*index)});
          }
        }
        for (std::uint64_t t = 0; t < target_count; ++t) {
          check_accessor_map(ctx, &(*targets)[static_cast<rapidjson::SizeType>(t)], accessor_count,
                             at / std::string_view("targets") / t);
        }
      }
      const gltf_anim::json::Value* weights = array_member(*mesh, "weights");
      if (weights != nullptr && first_targets && weights->Size() != *first_targets) {
        ctx.issues.add("MESH_INVALID_WEIGHTS_COUNT", mesh_at / std::string_view("weights"),
                       {std::to_string(weights->Size()), std::to_string(*first_targets)});
      }
    }
  }
};

}  // namespace

std::unique_ptr<RuleModule> make_mesh_rules() { return std::make_unique<MeshRules>(); }

}  // namespace gltf_anim::validator

// KHR_draco_mesh_compression: a primitive whose extension object holds Draco
// data names, in the extension's `attributes`, the attribute semantics the
// Draco stream decodes; the accessors the primitive's own `attributes` (and
// `indices`) give for them have no bufferView: their data comes from the
// decoded stream ("then the Draco geometry compression must be used"), not
// the zeros of the base spec's accessor without bufferView.
// We do not decode Draco, so the data phase skips exactly those accessors
// (KHR_DRACO_MESH_COMPRESSION_DATA_NOT_DECODED, an information) instead of
// reading them as the zeros an accessor without bufferView holds otherwise.
// An accessor with a bufferView, or one no Draco extension names, is checked
// as usual.
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/validator/rules.hpp>

#include <string>
#include <vector>

#include "ext_common.hpp"

namespace gltf_anim::validator {

using gltf::JsonPointer;

namespace {

using namespace rules;  // json_access.hpp, ext_common.hpp

constexpr std::string_view kDraco = "KHR_draco_mesh_compression";

class DracoRules final : public RuleModule {
 public:
  std::string_view name() const override { return kDraco; }

  void link(RuleContext& ctx) override {
    const gltf_anim::json::Value* meshes = array_member(ctx.doc, "meshes");
    const gltf_anim::json::Value* accessors = array_member(ctx.doc, "accessors");
    const std::size_t accessor_count = array_size(accessors);
    // Each accessor once, however many primitives name it.
    std::vector<bool> seen(accessor_count, false);
    const auto exempt = [&](const gltf_anim::json::Value* index, const JsonPointer& by) {
      const auto i = index != nullptr ? as_uint(*index) : std::nullopt;
      if (!i || *i >= accessor_count || seen[*i]) return;
      const gltf_anim::json::Value* accessor = object_at(accessors, *i);
      if (accessor == nullptr || has(*accessor, "bufferView")) return;
      seen[*i] = true;
      ctx.data.exempt(*i);
      ctx.issues.add("KHR_DRACO_MESH_COMPRESSION_DATA_NOT_DECODED",
                     JsonPointer() / std::string_view("accessors") / *i, {by.str()});
    };
    for (std::size_t m = 0; m < array_size(meshes); ++m) {
      const gltf_anim::json::Value* mesh = object_at(meshes, m);
      const gltf_anim::json::Value* primitives =
          mesh != nullptr ? array_member(*mesh, "primitives") : nullptr;
      for (std::size_t p = 0; p < array_size(primitives); ++p) {
        const gltf_anim::json::Value* primitive = object_at(primitives, p);
        if (primitive == nullptr) continue;
        const gltf_anim::json::Value* draco = extension_object(*primitive, kDraco);
        if (draco == nullptr) continue;
        const JsonPointer at =
            JsonPointer() / std::string_view("meshes") / m / std::string_view("primitives") / p;
        const JsonPointer ext_at = at / std::string_view("extensions") / kDraco;
        const gltf_anim::json::Value* decoded = member(*draco, "attributes");
        const gltf_anim::json::Value* attributes = member(*primitive, "attributes");
        if (decoded != nullptr && decoded->IsObject() && attributes != nullptr &&
            attributes->IsObject()) {
          for (const auto& d : decoded->GetObject()) {
            const std::string_view semantic(d.name.GetString(), d.name.GetStringLength());
            exempt(member(*attributes, semantic),
                   ext_at / std::string_view("attributes") / semantic);
          }
        }
        exempt(member(*primitive, "indices"), ext_at);
      }
    }
  }
};

}  // namespace

std::unique_ptr<RuleModule> make_khr_draco_mesh_compression_rules() {
  return std::make_unique<DracoRules>();
}

}  // namespace gltf_anim::validator

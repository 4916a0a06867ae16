// KHR_accessor_float64 and KHR_accessor_float16 (drafts, KhronosGroup/glTF
// pull request 2397): accessors of componentType 5130 (IEEE-754 binary64,
// "double") and 5131 (binary16, "half"), valid wherever FLOAT is, animation
// inputs and outputs included. The loader decodes both whatever the asset
// declares (their values are well defined), so the core and extension rules
// check them as floating-point data (is_floating_point); this module accepts
// the two values in the schema's componentType list and says when the asset
// does not declare the draft that defines them: in extensionsUsed, else each
// such accessor is KHR_ACCESSOR_FLOAT_UNDECLARED (one cause, one message: no
// VALUE_NOT_IN_LIST, no format error); and in extensionsRequired ("assets
// that use this extension MUST specify it in the extensionsRequired array").
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/validator/rules.hpp>

#include <optional>
#include <string>

#include "ext_common.hpp"

namespace gltf_anim::validator {

using gltf::component_type_from_gl;
using gltf::component_type_name;
using gltf::ComponentType;
using gltf::JsonPointer;

namespace {

using namespace rules;  // json_access.hpp, ext_common.hpp

constexpr std::string_view kAccessorSchema = "accessor.schema.json";

struct Draft {
  std::uint64_t component_type;
  std::string_view extension;
};
constexpr Draft kDrafts[] = {{5130, "KHR_accessor_float64"}, {5131, "KHR_accessor_float16"}};

const Draft* draft_of(const gltf_anim::json::Value& component_type) {
  const auto type = gltf::json_access::as_uint(component_type);
  if (!type) return nullptr;
  for (const Draft& d : kDrafts) {
    if (d.component_type == *type) return &d;
  }
  return nullptr;
}

class AccessorFloatRules final : public RuleModule {
 public:
  std::string_view name() const override { return "KHR_accessor_float64/float16"; }

  bool accepts_value(const RuleContext& /*ctx*/, const SchemaSite& site,
                     const gltf_anim::json::Value& value) const override {
    return site.schema == kAccessorSchema && site.member == "componentType" &&
           draft_of(value) != nullptr;
  }

  void link(RuleContext& ctx) override {
    const gltf_anim::json::Value* accessors = array_member(ctx.doc, "accessors");
    bool used[std::size(kDrafts)] = {};
    for (std::size_t i = 0; i < array_size(accessors); ++i) {
      const gltf_anim::json::Value* accessor = object_at(accessors, i);
      const gltf_anim::json::Value* component_type =
          accessor != nullptr ? member(*accessor, "componentType") : nullptr;
      const Draft* d = component_type != nullptr ? draft_of(*component_type) : nullptr;
      if (d == nullptr) continue;
      if (lists_extension(ctx.doc, "extensionsUsed", d->extension)) {
        used[d - kDrafts] = true;
        continue;
      }
      const ComponentType type = *component_type_from_gl(d->component_type);
      ctx.issues.add(
          "KHR_ACCESSOR_FLOAT_UNDECLARED",
          JsonPointer() / std::string_view("accessors") / i / std::string_view("componentType"),
          {std::to_string(d->component_type), std::string(component_type_name(type)),
           std::string(d->extension)});
    }
    const gltf_anim::json::Value* declared = array_member(ctx.doc, "extensionsUsed");
    for (std::size_t k = 0; k < array_size(declared); ++k) {
      const gltf_anim::json::Value& name = (*declared)[static_cast<rapidjson::SizeType>(k)];
      if (!name.IsString()) continue;
      const std::string_view text(name.GetString(), name.GetStringLength());
      for (std::size_t d = 0; d < std::size(kDrafts); ++d) {
        if (used[d] && text == kDrafts[d].extension &&
            !lists_extension(ctx.doc, "extensionsRequired", kDrafts[d].extension)) {
          ctx.issues.add("KHR_ACCESSOR_FLOAT_NOT_REQUIRED",
                         JsonPointer() / std::string_view("extensionsUsed") / k,
                         {std::string(text)});
          used[d] = false;  // once, at its first listing
        }
      }
    }
  }
};

}  // namespace

std::unique_ptr<RuleModule> make_khr_accessor_float_rules() {
  return std::make_unique<AccessorFloatRules>();
}

}  // namespace gltf_anim::validator

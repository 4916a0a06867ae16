// What each bufferView holds: vertex attributes, vertex indices, inverse bind
// matrices, image bytes or other data (animation keys, sparse substitutions).
// glTF 2.0 3.6.1: `target` is only for vertex attribute and index data, and a
// bufferView holds one kind of data: a renderer uploads a vertex buffer whole,
// so animation keys inside one are uploaded as vertices, and a tool that
// rewrites the keys rewrites vertex data. The first use (or the declared
// target) sets a bufferView's usage; a later, different one is
// BUFFER_VIEW_TARGET_OVERRIDE at the later use's pointer, with glTF-Validator's
// names ('VertexBuffer', 'IndexBuffer', 'IBM', 'Image', 'Other').
//
// Uses are visited in glTF-Validator's fixed link order (accessors' sparse
// data, images, meshes, skins, animations), so that "initial" and "new" name
// the same two uses it names. The same pass counts the vertex accessors of
// each bufferView without byteStride: a second one is
// MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE (3.6.2.1: the stride must be
// defined when two or more accessors use the same bufferView).
//
// Cost: one visit per reference, one set insertion per vertex accessor.
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/validator/rules.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ext_common.hpp"

namespace gltf_anim::validator {

using gltf::JsonPointer;

namespace {

using namespace rules;  // json_access.hpp, ext_common.hpp

enum class Usage { kNone, kVertexBuffer, kIndexBuffer, kIbm, kImage, kOther };

std::string_view usage_name(Usage u) {
  switch (u) {
    case Usage::kVertexBuffer: return "VertexBuffer";
    case Usage::kIndexBuffer: return "IndexBuffer";
    case Usage::kIbm: return "IBM";
    case Usage::kImage: return "Image";
    case Usage::kOther: return "Other";
    case Usage::kNone: break;
  }
  return "";
}

class Usages {
 public:
  explicit Usages(RuleContext& ctx) : ctx_(ctx), usage_(ctx.asset.buffer_views.size(), Usage::kNone) {
    for (std::size_t v = 0; v < usage_.size(); ++v) {
      const auto& target = ctx.asset.buffer_views[v].target;
      if (target == 34962u) usage_[v] = Usage::kVertexBuffer;
      if (target == 34963u) usage_[v] = Usage::kIndexBuffer;
    }
  }

  // bufferView `view` used as `usage` by the reference at `at`.
  void use_view(std::optional<std::uint64_t> view, Usage usage, const JsonPointer& at) {
    if (!view || *view >= usage_.size()) return;  // unresolved: another rule's
    Usage& u = usage_[*view];
    if (u == Usage::kNone) {
      u = usage;
    } else if (u != usage) {
      ctx_.issues.add("BUFFER_VIEW_TARGET_OVERRIDE", at,
                      {std::string(usage_name(u)), std::string(usage_name(usage))});
    }
  }

  // accessor `index` used as `usage` by the reference at `at`; a vertex
  // accessor is also counted against its bufferView's stride.
  void use_accessor(std::optional<std::uint64_t> index, Usage usage, const JsonPointer& at) {
    if (!index || *index >= ctx_.asset.accessors.size()) return;
    const auto& view = ctx_.asset.accessors[*index].buffer_view;
    use_view(view, usage, at);
    if (usage != Usage::kVertexBuffer || !view || *view >= usage_.size()) return;
    if (ctx_.asset.buffer_views[*view].byte_stride) return;
    auto& accessors = vertex_accessors_[*view];
    if (accessors.insert(*index).second && accessors.size() > 1) {
      ctx_.issues.add("MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE", at);
    }
  }

 private:
  RuleContext& ctx_;
  std::vector<Usage> usage_;
  std::map<std::uint64_t, std::set<std::uint64_t>> vertex_accessors_;
};

// Each accessor of a semantic -> accessor map, in the JSON's member order.
void use_attributes(Usages& usages, const gltf_anim::json::Value* map, const JsonPointer& at) {
  if (map == nullptr || !map->IsObject()) return;
  for (const auto& m : map->GetObject()) {
    usages.use_accessor(as_uint(m.value), Usage::kVertexBuffer,
                        at / std::string_view(m.name.GetString(), m.name.GetStringLength()));
  }
}

class BufferViewUsageRules final : public RuleModule {
 public:
  std::string_view name() const override { return "bufferView usage"; }

  void link(RuleContext& ctx) override {
    Usages usages(ctx);
    const JsonPointer root;
    // Sparse substitutions: their indices and values are neither vertices nor indices.
    const auto& accessors = ctx.asset.accessors;
    for (std::size_t i = 0; i < accessors.size(); ++i) {
      if (!accessors[i].sparse) continue;
      const JsonPointer sparse = root / std::string_view("accessors") / i / std::string_view("sparse");
      usages.use_view(accessors[i].sparse->indices_buffer_view, Usage::kOther,
                      sparse / std::string_view("indices") / std::string_view("bufferView"));
      usages.use_view(accessors[i].sparse->values_buffer_view, Usage::kOther,
                      sparse / std::string_view("values") / std::string_view("bufferView"));
    }
    const gltf_anim::json::Value* images = array_member(ctx.doc, "images");
    for (std::uint64_t i = 0; i < array_size(images); ++i) {
      const gltf_anim::json::Value* image = object_at(images, i);
      if (image == nullptr) continue;
      usages.use_view(index_member(*image, "bufferView"), Usage::kImage,
                      root / std::string_view("images") / i / std::string_view("bufferView"));
    }
    const gltf_anim::json::Value* meshes = array_member(ctx.doc, "meshes");
    for (std::uint64_t m = 0; m < array_size(meshes); ++m) {
      const gltf_anim::json::Value* mesh = object_at(meshes, m);
      if (mesh == nullptr) continue;
      const gltf_anim::json::Value* primitives = array_member(*mesh, "primitives");
      for (std::uint64_t p = 0; p < array_size(primitives); ++p) {
        const gltf_anim::json::Value* primitive = object_at(primitives, p);
        if (primitive == nullptr) continue;
        const JsonPointer at = root / std::string_view("meshes") / m / std::string_view("primitives") / p;
        use_attributes(usages, member(*primitive, "attributes"), at / std::string_view("attributes"));
        usages.use_accessor(index_member(*primitive, "indices"), Usage::kIndexBuffer,
                            at / std::string_view("indices"));
        const gltf_anim::json::Value* targets = array_member(*primitive, "targets");
        for (std::uint64_t t = 0; t < array_size(targets); ++t) {
          use_attributes(usages, object_at(targets, t), at / std::string_view("targets") / t);
        }
      }
    }
    const gltf_anim::json::Value* skins = array_member(ctx.doc, "skins");
    for (std::uint64_t s = 0; s < array_size(skins); ++s) {
      const gltf_anim::json::Value* skin = object_at(skins, s);
      if (skin == nullptr) continue;
      usages.use_accessor(index_member(*skin, "inverseBindMatrices"), Usage::kIbm,
                          root / std::string_view("skins") / s / std::string_view("inverseBindMatrices"));
    }
    for (const gltf::model::Animation& animation : ctx.model.animations) {
      const JsonPointer at = root / std::string_view("animations") / animation.index /
                             std::string_view("samplers");
      for (const gltf::model::Sampler& sampler : animation.samplers) {
        for (const auto& [link, name] : {std::pair{&sampler.input, std::string_view("input")},
                                         std::pair{&sampler.output, std::string_view("output")}}) {
          if (const gltf::model::AccessorRef* ref = gltf::model::linked(*link)) {
            usages.use_accessor(ref->index, Usage::kOther, at / sampler.index / name);
          }
        }
      }
    }
  }
};

}  // namespace

std::unique_ptr<RuleModule> make_buffer_view_usage_rules() {
  return std::make_unique<BufferViewUsageRules>();
}

}  // namespace gltf_anim::validator

// What the repair tools decide outside the animations comes from the animation model: the
// extension lists, a primitive's accessors and KHR_draco_mesh_compression bufferView, a
// node's EXT_mesh_gpu_instancing attributes, skins' and images' references; edit_source and
// accessor_uses read them there. Expected values are read off the JSON below by hand.
#include <gltf_anim/gltf/animation_model.hpp>
#include <gltf_anim/gltf/issue_collector.hpp>
#include <gltf_anim/gltf/load.hpp>
#include <gltf_anim/repair/tool.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace {

namespace model = gltf_anim::gltf::model;
namespace repair = gltf_anim::repair;

// Accessors 0 (times) and 1 (values) are a sampler's; 2 and 3 a primitive's attributes, 4 its
// indices, 5 its morph target, 6 a skin's inverseBindMatrices, 7 an instancing node's
// TRANSLATION; 8 is named by nothing. bufferView 0 is the Draco primitive's, 1 an image's, 2
// nobody's. extensionsUsed holds a number (not a name) and one extension compaction does not
// know (VENDOR_x); the second mesh primitive is not an object.
const std::string kJson = R"({"asset": {"version": "2.0"},
 "extensionsUsed": ["KHR_draco_mesh_compression", "EXT_mesh_gpu_instancing", 7, "VENDOR_x"],
 "extensionsRequired": ["KHR_draco_mesh_compression"],
 "buffers": [{"byteLength": 12}],
 "bufferViews": [{"buffer": 0, "byteLength": 4}, {"buffer": 0, "byteOffset": 4, "byteLength": 4},
   {"buffer": 0, "byteOffset": 8, "byteLength": 4}],
 "images": [{"bufferView": 1, "mimeType": "image/png"}, {"uri": "a.png"}],
 "meshes": [{"primitives": [{"attributes": {"POSITION": 2, "NORMAL": 3}, "indices": 4,
     "targets": [{"POSITION": 5}],
     "extensions": {"KHR_draco_mesh_compression": {"bufferView": 0, "attributes": {"POSITION": 0}}}},
   3]}],
 "skins": [{"joints": [0], "inverseBindMatrices": 6}],
 "nodes": [{"mesh": 0},
   {"extensions": {"EXT_mesh_gpu_instancing": {"attributes": {"TRANSLATION": 7}}}}],
 "accessors": [{"componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
   {"componentType": 5126, "count": 2, "type": "VEC3"},
   {"componentType": 5126, "count": 3, "type": "VEC3"},
   {"componentType": 5126, "count": 3, "type": "VEC3"},
   {"componentType": 5123, "count": 3, "type": "SCALAR"},
   {"componentType": 5126, "count": 3, "type": "VEC3"},
   {"componentType": 5126, "count": 1, "type": "MAT4"},
   {"componentType": 5126, "count": 2, "type": "VEC3"},
   {"componentType": 5126, "count": 2, "type": "VEC3"}],
 "animations": [{"samplers": [{"input": 0, "output": 1}],
   "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}]}]})";

struct Built {
  gltf_anim::gltf::LoadedAsset asset;
  model::AnimationModel model;
};
Built build() {
  gltf_anim::gltf::IssueCollector issues;
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(kJson.data());
  Built b{gltf_anim::gltf::load_bytes(std::span(bytes, kJson.size()), "t.gltf", {}, {}, issues),
          {}};
  b.model = model::build_animation_model(b.asset);
  return b;
}

TEST(ToolModel, TheModelHoldsWhatTheToolsDecideOutsideTheAnimations) {
  const Built b = build();
  const model::AnimationModel& m = b.model;
  ASSERT_TRUE(m.extensions_used.has_value());
  EXPECT_EQ(*m.extensions_used,
            (model::ExtensionList{"KHR_draco_mesh_compression", "EXT_mesh_gpu_instancing",
                                  std::nullopt, "VENDOR_x"}));
  EXPECT_TRUE(model::lists(m.extensions_used, "VENDOR_x"));
  EXPECT_TRUE(model::lists(m.extensions_required, "KHR_draco_mesh_compression"));
  EXPECT_FALSE(model::lists(m.extensions_required, "EXT_mesh_gpu_instancing"));
  EXPECT_FALSE(model::lists(std::nullopt, "VENDOR_x"));
  ASSERT_EQ(m.primitives.size(), 1u);  // the second is not an object
  EXPECT_EQ(m.primitives[0].accessors, (std::vector<std::uint64_t>{2, 3, 4, 5}));
  EXPECT_EQ(m.primitives[0].draco_buffer_view, std::optional<std::uint64_t>(0));
  ASSERT_EQ(m.instancing.size(), 1u);
  EXPECT_EQ(m.instancing[0].node, 1u);
  EXPECT_EQ(m.instancing[0].attributes, (std::vector<std::uint64_t>{7}));
  EXPECT_EQ(m.skin_matrices, (std::vector<std::uint64_t>{6}));
  EXPECT_EQ(m.image_buffer_views, (std::vector<std::uint64_t>{1}));
  ASSERT_EQ(m.animations.size(), 1u);
  EXPECT_TRUE(m.animations[0].channels.at(0).target_written);
}

TEST(ToolModel, EditSourceAndAccessorUsesReadTheModel) {
  const Built b = build();
  const std::vector<repair::AccessorUse> uses = repair::accessor_uses(b.asset, b.model);
  ASSERT_EQ(uses.size(), 9u);
  for (std::size_t i = 0; i < uses.size(); ++i) {
    EXPECT_EQ(uses[i].samplers, i <= 1 ? 1u : 0u) << i;
    EXPECT_EQ(uses[i].elsewhere, i >= 2 && i <= 7) << i;
  }
  const gltf_anim::gltf::Source s = repair::edit_source(b.asset, b.model);
  ASSERT_EQ(s.buffer_views.size(), 3u);
  EXPECT_TRUE(s.buffer_views[0].used_elsewhere);   // Draco
  EXPECT_TRUE(s.buffer_views[1].used_elsewhere);   // the image
  EXPECT_FALSE(s.buffer_views[2].used_elsewhere);  // nobody's
  EXPECT_EQ(s.compaction_blocked,
            std::optional<std::string>("the asset uses VENDOR_x, which may name buffer bytes "
                                       "directly: no byte was moved, unused bytes stay in the "
                                       "buffer"));
}

}  // namespace

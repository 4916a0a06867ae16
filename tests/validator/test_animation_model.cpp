// The animation model (animation_model.hpp): every reference linked once, a
// failed link holding its reason rather than a dangling index, every target
// read the way the extensions say. Expected values are read off the JSON of
// each case by hand.
#include <gltf_anim/gltf/animation_model.hpp>
#include <gltf_anim/gltf/issue_collector.hpp>
#include <gltf_anim/gltf/load.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string>

namespace gltf_anim::gltf::model {
namespace {

namespace om = object_model;

// Loads `json` (no buffers: accessors are typed views only) and builds its model.
struct Built {
  LoadedAsset asset;
  AnimationModel model;
};
Built build(const std::string& json) {
  IssueCollector issues;
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(json.data());
  Built b{load_bytes(std::span(bytes, json.size()), "t.gltf", {}, {}, issues), {}};
  b.model = build_animation_model(b.asset);
  return b;
}

// Two accessors (0: SCALAR times, 1: VEC4), nodes 0 (with matrix and skin) and
// 1 (a mesh with 3 morph targets), and `animations`.
std::string asset(const std::string& animations) {
  return R"({"asset":{"version":"2.0"},"nodes":[{"matrix":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1],"skin":0},{"mesh":0}],)"
         R"("meshes":[{"primitives":[{"attributes":{},"targets":[{},{},{}]}]}],)"
         R"("extensions":{"EXT_lights_image_based":{"lights":[{}]}},)"
         R"("accessors":[{"componentType":5126,"count":2,"type":"SCALAR"},{"componentType":5126,"count":2,"type":"VEC4"}],)"
         R"("animations":)" +
         animations + "}";
}

const Target& target_of(const Channel& c) { return std::get<Target>(c.target); }

TEST(AnimationModel, SamplersLinkTheirAccessorsOrSayWhyNot) {
  const Built b = build(asset(R"([{"samplers":[{"input":0,"output":1,"interpolation":"CUBICSPLINE"},)"
                              R"({"input":7},{"interpolation":"QUADRATIC"},5],"channels":[]}])"));
  const Animation& a = b.model.animations.at(0);
  ASSERT_EQ(a.samplers.size(), 3u);  // the fourth is not an object
  const Sampler& s0 = a.samplers[0];
  EXPECT_EQ(s0.interpolation, reference::Interpolation::kCubicSpline);
  EXPECT_EQ(s0.outputs_per_key(), 3u);
  ASSERT_NE(linked(s0.input), nullptr);
  EXPECT_EQ(linked(s0.input)->index, 0u);
  EXPECT_EQ(linked(s0.output)->accessor, &b.asset.accessors[1]);
  EXPECT_TRUE(linked(s0.output)->readable());  // no bufferView: all zeros (the spec), readable
  EXPECT_EQ(a.samplers[1].interpolation_name, "LINEAR");  // the spec's default
  EXPECT_EQ(std::get<Unresolved>(a.samplers[1].input).index, 7u);
  EXPECT_TRUE(std::holds_alternative<Absent>(a.samplers[1].output));
  EXPECT_EQ(a.samplers[2].interpolation, std::nullopt);
  EXPECT_EQ(a.samplers[2].interpolation_name, "QUADRATIC");
}

TEST(AnimationModel, ChannelsLinkSamplersIncludingTheSqlerpOne) {
  const Built b = build(asset(R"([{"samplers":[{"input":0,"output":1},7],"channels":[)"
                              R"({"sampler":0,"target":{"node":1,"path":"rotation"}},)"
                              R"({"sampler":1,"target":{"node":1,"path":"rotation"}},)"
                              R"({"extensions":{"EXT_animation_sqlerp":{"sampler":9}},"target":{"node":1,"path":"rotation"}},)"
                              R"(3]}])"));
  const Animation& a = b.model.animations.at(0);
  EXPECT_EQ(a.channel_count, 4u);
  ASSERT_EQ(a.channels.size(), 3u);  // channel 3 is not an object
  EXPECT_EQ(*linked(a.channels[0].sampler), &a.samplers[0]);
  EXPECT_FALSE(a.channels[0].sqlerp_sampler.has_value());
  EXPECT_EQ(std::get<Unresolved>(a.channels[1].sampler).index, 1u);  // sampler 1 is not an object
  EXPECT_TRUE(std::holds_alternative<Absent>(a.channels[2].sampler));
  ASSERT_TRUE(a.channels[2].sqlerp_sampler.has_value());
  EXPECT_EQ(std::get<Unresolved>(*a.channels[2].sqlerp_sampler).index, 9u);
}

// What the rules need beyond the links: how many samplers the JSON array holds
// (an index below it names a slot, not nothing), a channel.sampler written with
// a wrong type (Absent, yet written), an interpolation that is not a string.
TEST(AnimationModel, KeepsWhatTheRulesAskOfTheJsonAsWritten) {
  const Built b = build(asset(R"([{"samplers":[{"input":0,"output":1,"interpolation":5},7,)"
                              R"({"interpolation":""}],"channels":[)"
                              R"({"sampler":"0","target":{"node":1,"path":"rotation"}},)"
                              R"({"target":{"node":1,"path":"rotation"}},)"
                              R"({"sampler":2,"target":{"node":1,"path":"rotation"}}]}])"));
  const Animation& a = b.model.animations.at(0);
  EXPECT_EQ(a.sampler_count, 3u);  // the array's length, the non-object 7 included
  ASSERT_EQ(a.samplers.size(), 2u);
  EXPECT_TRUE(a.samplers[0].interpolation_mistyped);  // 5: the sampler refuses it
  EXPECT_EQ(a.samplers[0].interpolation_name, "");
  EXPECT_EQ(a.samplers[0].interpolation, std::nullopt);
  EXPECT_FALSE(a.samplers[1].interpolation_mistyped);  // "" is a string, an unknown mode
  EXPECT_EQ(a.samplers[1].interpolation_name, "");
  ASSERT_EQ(a.channels.size(), 3u);
  EXPECT_TRUE(std::holds_alternative<Absent>(a.channels[0].sampler));
  EXPECT_TRUE(a.channels[0].sampler_written);  // "0": written, of the wrong type
  EXPECT_FALSE(a.channels[1].sampler_written);
  EXPECT_TRUE(a.channels[2].sampler_written);
}

TEST(AnimationModel, CoreTargetsAreNodePathsWithTheObjectModelShape) {
  const Built b = build(asset(R"([{"samplers":[],"channels":[)"
                              R"({"target":{"node":0,"path":"rotation"}},)"
                              R"({"target":{"node":1,"path":"weights"}},)"
                              R"({"target":{"path":"translation"}},)"
                              R"({"target":{"node":4,"path":"scale"}},)"
                              R"({"target":{"node":0,"path":"pointer2"}},)"
                              R"({"target":{"node":0}}]}])"));
  const auto& c = b.model.animations.at(0).channels;
  const Target& rotation = target_of(c[0]);
  EXPECT_EQ(rotation.source, TargetSource::kCore);
  EXPECT_EQ(rotation.pointer, "/nodes/0/rotation");
  const auto& node = std::get<NodeTarget>(rotation.what);
  EXPECT_EQ(node.path, NodePath::kRotation);
  EXPECT_TRUE(linked(node.node)->matrix);
  EXPECT_TRUE(linked(node.node)->skin);
  EXPECT_TRUE(rotation.shape.quaternion);
  EXPECT_EQ(rotation.shape.width, std::optional<std::uint64_t>(4));

  const Target& weights = target_of(c[1]);
  EXPECT_EQ(weights.shape.type, om::ValueType::kFloatArray);
  EXPECT_EQ(weights.shape.width, std::optional<std::uint64_t>(3));  // the mesh's 3 morph targets

  // Without node the target is still a translation (its output is checked);
  // the sampler ignores it as the spec says.
  const Target& no_node = target_of(c[2]);
  EXPECT_TRUE(std::holds_alternative<Absent>(std::get<NodeTarget>(no_node.what).node));
  EXPECT_EQ(no_node.shape.width, std::optional<std::uint64_t>(3));
  EXPECT_EQ(std::get<Unresolved>(std::get<NodeTarget>(target_of(c[3]).what).node).index, 4u);

  EXPECT_EQ(std::get<Untargeted>(c[4].target).reason, NoTarget::kUnknownPath);
  EXPECT_EQ(std::get<Untargeted>(c[5].target).reason, NoTarget::kNoPath);
}

std::string pointer_channel(const std::string& pointer) {
  return R"({"target":{"path":"pointer","extensions":{"KHR_animation_pointer":{"pointer":")" + pointer + R"("}}}})";
}

TEST(AnimationModel, AnimationPointerTargetsAreObjectModelPropertiesOrExtras) {
  const Built b = build(asset(R"([{"samplers":[],"channels":[)" +
                              pointer_channel("/extensions/EXT_lights_image_based/lights/0/rotation") + "," +
                              pointer_channel("/nodes/1/weights/2") + "," + pointer_channel("/nodes/0/matrix") + "," +
                              pointer_channel("/nodes/0/rotation/1") + "," + pointer_channel("/nodes/0/extras/x") +
                              "," + pointer_channel("nodes") + "," +
                              R"({"target":{"path":"pointer","extensions":{"KHR_animation_pointer":{}}}},)"
                              R"({"target":{"path":"pointer"}}]}])"));
  const auto& c = b.model.animations.at(0).channels;
  const Target& light = target_of(c[0]);
  EXPECT_EQ(light.source, TargetSource::kAnimationPointer);
  EXPECT_TRUE(light.shape.quaternion);
  EXPECT_EQ(light.shape.extensions, (std::vector<std::string_view>{"EXT_lights_image_based"}));
  const auto& property = std::get<PropertyTarget>(light.what);
  EXPECT_EQ(property.match.property->pointer, "/extensions/EXT_lights_image_based/lights/{}/rotation");
  EXPECT_EQ(property.resolved.status, om::Resolution::kDefined);  // a default inside a present light

  const Target& weight = target_of(c[1]);
  EXPECT_EQ(weight.shape.type, om::ValueType::kFloat);
  EXPECT_EQ(std::get<PropertyTarget>(weight.what).match.indices, (std::vector<std::uint64_t>{1, 2}));

  EXPECT_EQ(std::get<Untargeted>(c[2].target).reason, NoTarget::kReadOnly);
  EXPECT_EQ(std::get<Untargeted>(c[3].target).reason, NoTarget::kUnknownProperty);  // components: KHR_animation2 only
  EXPECT_EQ(std::get<Untargeted>(c[4].target).reason, NoTarget::kUndefinedExtras);
  EXPECT_EQ(std::get<Untargeted>(c[5].target).reason, NoTarget::kInvalidPointer);
  EXPECT_EQ(std::get<Untargeted>(c[6].target).reason, NoTarget::kMissingPointer);
  // Path "pointer" with neither the extension's object nor its name in extensionsUsed (what
  // glTF-Transform writes back, not implementing it): a path the asset does not define, as
  // both validators read it (VALUE_NOT_IN_LIST), not a pointer that is missing.
  EXPECT_EQ(std::get<Untargeted>(c[7].target).reason, NoTarget::kUnknownPath);
  EXPECT_EQ(std::get<Untargeted>(c[7].target).source, TargetSource::kCore);
}

TEST(AnimationModel, Animation2ReadsTheDraftsPointerForms) {
  const Built b = build(asset(R"([{"samplers":[],"channels":[)"
                              R"({"targetpointer":"nodes/1/rotation"},)"
                              R"({"targetpointer":"/nodes/1/translation/2"},)"
                              R"({"targetpointer":"/nodes/1/translation/3"},)"
                              R"({"targetpointer":""},)"
                              R"({"targetpointer":5}]}])"));
  const auto& c = b.model.animations.at(0).channels;
  const Target& rotation = target_of(c[0]);
  EXPECT_EQ(rotation.source, TargetSource::kAnimation2);
  EXPECT_EQ(rotation.pointer, "/nodes/1/rotation");  // the leading '/' the draft's example omits
  EXPECT_TRUE(rotation.shape.quaternion);
  const Target& component = target_of(c[1]);
  EXPECT_EQ(std::get<PropertyTarget>(component.what).component, std::optional<std::uint64_t>(2));
  EXPECT_EQ(component.shape.width, std::optional<std::uint64_t>(1));
  EXPECT_FALSE(component.shape.quaternion);
  EXPECT_EQ(std::get<Untargeted>(c[2].target).reason, NoTarget::kUnknownProperty);  // float3 has 3 components
  EXPECT_EQ(std::get<Untargeted>(c[3].target).reason, NoTarget::kInvalidPointer);
  EXPECT_EQ(std::get<Untargeted>(c[4].target).reason, NoTarget::kMissingPointer);
}

TEST(AnimationModel, NoDocumentOrNoAnimationsGivesAnEmptyModel) {
  EXPECT_TRUE(build("[1]").model.animations.empty());
  const Built b = build(R"({"asset":{"version":"2.0"},"animations":[3,{"channels":"x"}]})");
  EXPECT_EQ(b.model.animation_count, 2u);
  ASSERT_EQ(b.model.animations.size(), 1u);
  EXPECT_EQ(b.model.animations[0].index, 1u);
  EXPECT_EQ(b.model.animations[0].channel_count, 0u);
  EXPECT_FALSE(b.model.animations[0].channels_array);
}

}  // namespace
}  // namespace gltf_anim::gltf::model

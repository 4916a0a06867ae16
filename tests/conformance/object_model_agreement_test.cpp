// Validation and sampling read every animatable property of the Object Model
// table the same way: for each mutable template, a tiny asset animates it
// through KHR_animation_pointer (every index 0); `validate` must accept an
// output of the property's width and refuse one wider, the animation model
// must give the width, quaternion-ness and STEP-only rule derived here from
// the template by hand, and `sample` must evaluate it as that: slerp on the
// shortest path for quaternions, STEP for bool, lerp otherwise.
//
// Expected values are derived independently of the code under test: the width
// from the type's name ("float3" -> 3), the quaternions from the specification
// (node rotation and EXT_lights_image_based rotation are "unit quaternion"),
// the sampled values from closed forms (a rotation of 90 degrees about z,
// stored with the opposite sign, is at 45 degrees halfway: (0, 0, sin pi/8,
// cos pi/8)).
#include <gltf_anim/sampler/sample.hpp>
#include <gltf_anim/gltf/animation_model.hpp>
#include <gltf_anim/gltf/load.hpp>
#include <gltf_anim/gltf/object_model.hpp>
#include <gltf_anim/validator/validate.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <gtest/gtest.h>
#include <rapidjson/pointer.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <numbers>
#include <set>
#include <string>
#include <vector>

#include "conformance_test_util.hpp"

namespace gltf_anim::suite::test {
namespace {

namespace om = gltf::object_model;
namespace vm = gltf::model;

constexpr std::uint64_t kMorphTargets = 2;

// What this test expects of a template, derived from its text and the spec.
struct Expected {
  std::string type;  // the table's type name
  std::uint64_t width = 1;
  bool quaternion = false;
  bool step_only = false;
  std::vector<std::string> extensions;  // the names after each "extensions" token
};

Expected expected_of(const om::Property& p) {
  Expected e;
  e.type = std::string(om::type_name(p.type));
  if (e.type == "float[]") {
    e.width = kMorphTargets;  // the test mesh's morph targets
  } else if (e.type == "float4x4") {
    e.width = 16;
  } else if (e.type.starts_with("float") && e.type.size() == 6) {
    e.width = static_cast<std::uint64_t>(e.type[5] - '0');  // "float2" .. "float4"
  }
  // glTF 2.0 "node.rotation ... unit quaternion"; EXT_lights_image_based
  // "rotation ... quaternion". No other animatable property is one.
  const std::string pointer(p.pointer);
  e.quaternion = pointer == "/nodes/{}/rotation" || pointer == "/extensions/EXT_lights_image_based/lights/{}/rotation";
  e.step_only = e.type == "bool" || e.type == "int";
  for (std::size_t at = pointer.find("/extensions/"); at != std::string::npos;
       at = pointer.find("/extensions/", at + 1)) {
    const std::size_t begin = at + std::strlen("/extensions/");
    e.extensions.push_back(pointer.substr(begin, pointer.find('/', begin) - begin));
  }
  return e;
}

std::string instantiate(std::string_view t) {
  std::string out(t);
  for (std::size_t at = out.find("{}"); at != std::string::npos; at = out.find("{}")) out.replace(at, 2, "0");
  return out;
}

void append_floats(std::string& bytes, const std::vector<float>& values) {
  for (const float v : values) {
    char b[4];
    std::memcpy(b, &v, 4);
    bytes.append(b, 4);
  }
}

using gltf_anim::json::Document;
using gltf_anim::json::Pointer;
using gltf_anim::json::Value;

// Writes <dir>/<name>.gltf + .bin animating `pointer` from key 0 to key 1
// (times 0 and 1) with `components` numbers per key of `output_type`.
std::filesystem::path write_asset(const std::filesystem::path& dir, const std::string& name, const Expected& e,
                                  const std::string& pointer, const std::string& output_type,
                                  std::uint64_t per_key, const std::string& interpolation) {
  // Keys: times 0, 1; values 0 then 1 per component, a quaternion from the
  // identity to 90 degrees about z stored negated (-q: the same rotation, so
  // the shortest path is 45 degrees halfway), a bool 0 then 1 (UNSIGNED_BYTE).
  std::string bytes;
  append_floats(bytes, {0.0f, 1.0f});
  const bool bytes_out = e.type == "bool";
  if (bytes_out) {
    bytes += '\0';
    bytes += '\1';
  } else if (e.quaternion && per_key == 4) {
    const float s = static_cast<float>(std::sqrt(0.5));
    append_floats(bytes, {0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, -s, -s});
  } else {
    append_floats(bytes, std::vector<float>(per_key, 0.0f));
    append_floats(bytes, std::vector<float>(per_key, 1.0f));
  }
  const std::uint64_t elements = output_type == "SCALAR" ? 2 * per_key : 2;
  std::ofstream(dir / (name + ".bin"), std::ios::binary) << bytes;
  const std::string json = R"({"buffers":[{"uri":")" + name + R"(.bin","byteLength":)" + std::to_string(bytes.size()) +
                           R"(}],"bufferViews":[{"buffer":0,"byteLength":8},{"buffer":0,"byteOffset":8,"byteLength":)" +
                           std::to_string(bytes.size() - 8) +
                           R"(}],"accessors":[{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR",)"
                           R"("min":[0],"max":[1]},{"bufferView":1,"componentType":)" +
                           std::string(bytes_out ? "5121" : "5126") + R"(,"count":)" + std::to_string(elements) +
                           R"(,"type":")" + output_type + R"("}],"animations":[{"channels":[{"sampler":0,"target":)"
                           R"({"path":"pointer","extensions":{"KHR_animation_pointer":{"pointer":")" +
                           pointer + R"("}}}}],"samplers":[{"input":0,"output":1,"interpolation":")" + interpolation +
                           R"("}]}]})";
  Document doc;
  doc.Parse(json.c_str());
  auto& a = doc.GetAllocator();
  // The animated property, present (some have no default), and what makes it defined.
  Value leaf;
  if (e.type == "bool") {
    leaf.SetBool(true);
  } else if (e.width == 1 && e.type != "float[]") {
    leaf.SetDouble(1.0);
  } else {
    leaf.SetArray();
    for (std::uint64_t i = 0; i < e.width; ++i) leaf.PushBack(0.0, a);
  }
  Pointer(pointer.c_str()).Set(doc, leaf, a);
  if (pointer.starts_with("/nodes/0/weights")) {
    Pointer("/nodes/0/mesh").Set(doc, 0, a);
    Value targets(rapidjson::kArrayType);
    for (std::uint64_t i = 0; i < kMorphTargets; ++i) targets.PushBack(Value(rapidjson::kObjectType), a);
    Pointer("/meshes/0/primitives/0/targets").Set(doc, targets, a);
  }
  Pointer("/asset/version").Set(doc, "2.0", a);
  Pointer("/extensionsUsed/0").Set(doc, "KHR_animation_pointer", a);
  for (std::size_t i = 0; i < e.extensions.size(); ++i) {
    Pointer(("/extensionsUsed/" + std::to_string(i + 1)).c_str()).Set(doc, Value(e.extensions[i].c_str(), a), a);
  }

  gltf_anim::json::StringBuffer text;
  gltf_anim::json::Writer<gltf_anim::json::StringBuffer> writer(text);
  doc.Accept(writer);
  const auto path = dir / (name + ".gltf");
  std::ofstream(path) << text.GetString();
  return path;
}

std::string element_type(std::uint64_t width, const std::string& type) {
  if (type == "float[]" || width == 1) return "SCALAR";
  return "VEC" + std::to_string(width);
}

// Issues about how the channel is read (not the schema's view of the tiny asset).
std::vector<std::string> animation_issues(const validator::ValidationReport& report) {
  std::vector<std::string> out;
  for (const auto& i : report.issues) {
    const std::string code(i.code);
    if (code.starts_with("KHR_ANIMATION_POINTER_") || code.starts_with("ANIMATION_") ||
        code.starts_with("ACCESSOR_ANIMATION_")) {
      out.push_back(code + " at " + i.pointer + ": " + i.message);
    }
  }
  return out;
}

TEST(ObjectModelAgreement, EveryAnimatableTemplateIsReadAlikeByValidateAndSample) {
  const auto dir = scratch("object_model_agreement");
  std::size_t walked = 0;
  std::set<std::string> quaternions;
  for (const om::Property& p : om::properties()) {
    if (p.read_only) continue;
    ++walked;
    const Expected e = expected_of(p);
    const std::string pointer = instantiate(p.pointer);
    SCOPED_TRACE(pointer);
    const std::string name = "t" + std::to_string(walked);
    const std::string interpolation = e.step_only ? "STEP" : "LINEAR";
    const auto path = write_asset(dir, name, e, pointer, element_type(e.width, e.type), e.width, interpolation);

    // validate: the property's width is accepted as it is.
    const validator::ValidationReport report = validator::validate_file(path, {});
    EXPECT_EQ(animation_issues(report), std::vector<std::string>{});

    // The model: the same reading, as this test derives it.
    gltf::IssueCollector issues;
    const gltf::LoadedAsset asset = gltf::load_file(path, {}, issues);
    const vm::AnimationModel model = vm::build_animation_model(asset);
    ASSERT_EQ(model.animations.size(), 1u);
    ASSERT_EQ(model.animations[0].channels.size(), 1u);
    const auto* target = std::get_if<vm::Target>(&model.animations[0].channels[0].target);
    ASSERT_NE(target, nullptr);
    EXPECT_EQ(target->pointer, pointer);
    ASSERT_TRUE(target->shape.type.has_value());
    EXPECT_EQ(om::type_name(*target->shape.type), e.type);
    EXPECT_EQ(target->shape.width, std::optional<std::uint64_t>(e.width));
    EXPECT_EQ(target->shape.quaternion, e.quaternion);
    EXPECT_EQ(target->shape.step_only, e.step_only);
    EXPECT_EQ(std::vector<std::string>(target->shape.extensions.begin(), target->shape.extensions.end()),
              e.extensions);

    // sample: the same width, evaluated as the type says, halfway between the keys.
    const samples::SamplesFile samples = sampler::sample_asset(path);
    ASSERT_EQ(samples.animations.at(0).channels.size(), 1u);
    const samples::SampledChannel& ch = samples.animations[0].channels[0];
    EXPECT_EQ(ch.width, e.width);
    const std::vector<double> half = at(ch, 0.5);
    if (e.quaternion) {
      quaternions.insert(pointer);
      const double s = std::sin(std::numbers::pi / 8);
      const double c = std::cos(std::numbers::pi / 8);
      ASSERT_EQ(half.size(), 4u);
      EXPECT_NEAR(half[0], 0.0, 1e-7);
      EXPECT_NEAR(half[1], 0.0, 1e-7);
      EXPECT_NEAR(half[2], s, 1e-7);
      EXPECT_NEAR(half[3], c, 1e-7);
    } else if (e.step_only) {
      EXPECT_EQ(half, std::vector<double>(e.width, 0.0));  // STEP holds key 0 until t = 1
      EXPECT_EQ(at(ch, 1.0), std::vector<double>(e.width, 1.0));
    } else {
      EXPECT_EQ(half, std::vector<double>(e.width, 0.5));
    }

    // One component more than the type has: validate refuses the format and
    // sample refuses the channel (no quiet disagreement on the width).
    if (e.type != "float[]" && e.type != "bool" && e.width < 4) {
      const auto wide = write_asset(dir, name + "_wide", e, pointer, "VEC" + std::to_string(e.width + 1),
                                    e.width + 1, interpolation);
      const auto wide_issues = animation_issues(validator::validate_file(wide, {}));
      ASSERT_EQ(wide_issues.size(), 1u);
      EXPECT_TRUE(wide_issues[0].starts_with("ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT")) << wide_issues[0];
      EXPECT_THROW(sampler::sample_asset(wide), sampler::SampleError);
    }
  }
  // The adoc's mutable rows plus KHR_node_visibility's: at least the core ones.
  EXPECT_GE(walked, 100u);
  EXPECT_EQ(quaternions, (std::set<std::string>{"/nodes/0/rotation", "/extensions/EXT_lights_image_based/lights/0/rotation"}));
}

// An asset with one channel animating `pointer` (VEC4 float output `values`,
// keys at t = 0 and 1) and the objects that define both rotations: node 0 and
// image-based light 0.
std::filesystem::path write_rotation_asset(const std::filesystem::path& dir, const std::string& name,
                                           const std::string& pointer, const std::string& interpolation,
                                           const std::vector<float>& values) {
  std::string bytes;
  append_floats(bytes, {0.0f, 1.0f});
  append_floats(bytes, values);
  std::ofstream(dir / (name + ".bin"), std::ios::binary) << bytes;
  const std::string json =
      R"({"asset":{"version":"2.0"},"extensionsUsed":["KHR_animation_pointer","EXT_lights_image_based"],)"
      R"("nodes":[{}],"extensions":{"EXT_lights_image_based":{"lights":[{"rotation":[0,0,0,1]}]}},)"
      R"("buffers":[{"uri":")" + name + R"(.bin","byteLength":)" + std::to_string(bytes.size()) +
      R"(}],"bufferViews":[{"buffer":0,"byteLength":8},{"buffer":0,"byteOffset":8,"byteLength":)" +
      std::to_string(bytes.size() - 8) +
      R"(}],"accessors":[{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},)"
      R"({"bufferView":1,"componentType":5126,"count":)" + std::to_string(values.size() / 4) +
      R"(,"type":"VEC4"}],"animations":[{"channels":[{"sampler":0,"target":{"path":"pointer",)"
      R"("extensions":{"KHR_animation_pointer":{"pointer":")" + pointer +
      R"("}}}}],"samplers":[{"input":0,"output":1,"interpolation":")" + interpolation + R"("}]}]})";
  const auto path = dir / (name + ".gltf");
  std::ofstream(path) << json;
  return path;
}

constexpr const char* kLightRotation = "/extensions/EXT_lights_image_based/lights/0/rotation";

// The disagreement this model removes: validate checks the image-based light's
// rotation as a unit quaternion, so sample slerps it (shortest path) rather
// than interpolating its components.
TEST(QuaternionPointers, ImageBasedLightRotationIsSlerpedOnTheShortestPath) {
  const auto dir = scratch("ibl_rotation_linear");
  const float s = static_cast<float>(std::sqrt(0.5));
  // Identity, then 90 degrees about z stored as -q (same rotation, opposite sign).
  const auto path = write_rotation_asset(dir, "ibl", kLightRotation, "LINEAR", {0, 0, 0, 1, 0, 0, -s, -s});
  EXPECT_EQ(validator::validate_file(path, {}).count(gltf::Severity::kError), 0u);
  const auto ch = channel(sampler::sample_asset(path), kLightRotation);
  ASSERT_EQ(ch.width, 4u);
  // Shortest path: the angle grows from 0 to 90 degrees about z, theta = 90 t
  // degrees, q = (0, 0, sin(theta / 2), cos(theta / 2)). Component-wise
  // interpolation would give (0, 0, -0.354, 0.146) at t = 0.5, not unit.
  for (const double t : {0.25, 0.5, 0.75}) {
    SCOPED_TRACE(t);
    const double half_angle = std::numbers::pi / 4 * t;
    const std::vector<double> q = at(ch, t);
    ASSERT_EQ(q.size(), 4u);
    EXPECT_NEAR(q[0], 0.0, 1e-7);
    EXPECT_NEAR(q[1], 0.0, 1e-7);
    EXPECT_NEAR(q[2], std::sin(half_angle), 1e-7);
    EXPECT_NEAR(q[3], std::cos(half_angle), 1e-7);
  }
}

// Every mode treats the light's rotation as it treats a node's (STEP holds,
// CUBICSPLINE normalizes): the same data on both targets samples the same.
TEST(QuaternionPointers, ImageBasedLightRotationSamplesAsANodeRotationInEveryMode) {
  const auto dir = scratch("ibl_rotation_modes");
  const float s = static_cast<float>(std::sqrt(0.5));
  const std::vector<float> keys = {0, 0, 0, 1, 0, 0, -s, -s};
  // CUBICSPLINE: in-tangent, value, out-tangent per key; nonzero tangents so
  // the unnormalized Hermite curve leaves the unit sphere between the keys.
  const std::vector<float> cubic = {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0.5f, 0,
                                    0, 0, 0.5f, 0, 0, 0, s, s, 0, 0, 0, 0};
  for (const auto& [mode, values] : {std::pair{std::string("LINEAR"), keys}, std::pair{std::string("STEP"), keys},
                                     std::pair{std::string("CUBICSPLINE"), cubic}}) {
    SCOPED_TRACE(mode);
    const auto light = channel(sampler::sample_asset(write_rotation_asset(dir, "light_" + mode, kLightRotation, mode, values)),
                               kLightRotation);
    const auto node =
        channel(sampler::sample_asset(write_rotation_asset(dir, "node_" + mode, "/nodes/0/rotation", mode, values)),
                "/nodes/0/rotation");
    EXPECT_EQ(light.times, node.times);
    EXPECT_EQ(light.values, node.values);
    if (mode == "CUBICSPLINE") {  // rotations are normalized after the spline
      const std::vector<double> q = at(light, 0.5);
      EXPECT_NEAR(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3], 1.0, 1e-12);
    }
  }
}

}  // namespace
}  // namespace gltf_anim::suite::test

// The valid cases of the conformance suite. Each case builds one small asset
// about one thing; README.md lists them by group. Key data are written as
// float32; quaternion keys are made with reference::from_axis_angle and then
// rounded to float32 (so stored keys are "float32 unit", as exporters write them).
#include <gltf_anim/suite/suite.hpp>
#include <gltf_anim/reference/interpolate.hpp>
#include <gltf_anim/reference/quaternion.hpp>
#include <gltf_anim/reference/track.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gltf_anim::suite {
namespace {

using reference::Quat;
using F = std::vector<float>;
using D = std::vector<double>;
using I = std::vector<std::int64_t>;
constexpr double kPi = std::numbers::pi;

// Spec clauses.
const char* const kAnimations = "glTF 2.0 3.11 Animations";
const char* const kStep = "glTF 2.0 Appendix C.2 Step Interpolation";
const char* const kLinear = "glTF 2.0 Appendix C.3 Linear Interpolation";
const char* const kSlerp = "glTF 2.0 Appendix C.4 Spherical Linear Interpolation";
const char* const kCubic = "glTF 2.0 Appendix C.5 Cubic Spline Interpolation";
const char* const kExactKey = "glTF 2.0 Appendix C.1 Overview (exact timestamp: value used as-is)";
const char* const kClamp = "glTF 2.0 3.11 Animations (clamp before/after the input range)";
const char* const kNormalizedInts = "glTF 2.0 3.11 Animations (normalized integer outputs)";
const char* const kSparse = "glTF 2.0 3.6.2.3 Sparse Accessors";
const char* const kBuffers = "glTF 2.0 3.6.1 Buffers and Buffer Views";
const char* const kGlb = "glTF 2.0 4 GLB File Format Specification";
const char* const kMorph = "glTF 2.0 3.7.2.2 Morph Targets";
const char* const kPointer = "KHR_animation_pointer";
const char* const kObjectModel = "glTF 2.0 Asset Object Model";
const char* const kAnimation2 = "KHR_animation2 (experimental)";
const char* const kSqlerp = "EXT_animation_sqlerp (draft)";

// A 1x1 white PNG, for the KHR_texture_transform cases.
const char* const kPng =
    "data:image/png;base64,"
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC";

F quat_f(const Quat& q) {
  return {static_cast<float>(q.x), static_cast<float>(q.y), static_cast<float>(q.z),
          static_cast<float>(q.w)};
}
Quat axis_angle(double x, double y, double z, double degrees) {
  const double n = std::sqrt(x * x + y * y + z * z);
  return reference::from_axis_angle({x / n, y / n, z / n}, degrees * kPi / 180.0);
}
// The float32-rounded quaternion, back in double (what the loader decodes).
Quat stored(const Quat& q) {
  const F f = quat_f(q);
  return {f[0], f[1], f[2], f[3]};
}
// The float32 dot of q with itself, summed in order as engines write it.
float float32_self_dot(const F& q) { return q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]; }
// The first rotation about (x, y, z), by a whole number of tenths of a degree from `from_degrees`,
// whose float32 components have a float32 self-dot above 1.
Quat first_with_float32_self_dot_above_one(double x, double y, double z, int from_degrees) {
  for (int tenths = from_degrees * 10; tenths < 3600; ++tenths) {
    const Quat q = axis_angle(x, y, z, tenths / 10.0);
    if (float32_self_dot(quat_f(q)) > 1.0f) return q;
  }
  throw std::logic_error("no rotation with a float32 self-dot above 1");
}
F cat(std::initializer_list<F> parts) {
  F out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}
D to_d(const Quat& q) { return {q.x, q.y, q.z, q.w}; }

int mesh_node(GltfBuilder& b, int morph_targets = 0, const char* name = "target") {
  const int mesh = b.add_triangle_mesh(morph_targets);
  return b.add_node(Json::object({{"name", name}, {"mesh", mesh}}));
}

// One sampler (input + float output accessors) in animation `anim`.
int sampler(GltfBuilder& b, int anim, const F& times, const F& values, const char* type,
            const std::string& interpolation) {
  const int input = b.accessor_float(times, "SCALAR", true);
  const int output = b.accessor_float(values, type, false);
  return b.add_sampler(anim, input, output, interpolation);
}

const char* path_type(const std::string& path) {
  if (path == "rotation") return "VEC4";
  if (path == "weights") return "SCALAR";
  return "VEC3";
}

// An animation with one core channel on a fresh node.
void core_track(GltfBuilder& b, const std::string& path, const std::string& interpolation,
                const F& times, const F& values, int morph_targets = 0) {
  const int node = mesh_node(b, morph_targets);
  const int anim = b.add_animation(path + "_" + interpolation);
  const int s = sampler(b, anim, times, values, path_type(path), interpolation);
  b.add_core_channel(anim, s, node, path);
}

Case make(std::string id, std::string group, std::vector<std::string> features,
          std::vector<std::string> clauses, std::string notes,
          std::function<void(GltfBuilder&)> build) {
  Case c;
  c.id = std::move(id);
  c.group = std::move(group);
  c.features = std::move(features);
  c.clauses = std::move(clauses);
  c.notes = std::move(notes);
  c.build = std::move(build);
  return c;
}

// An alternative computed by `f(t)`, at every golden time of one channel where it differs.
std::function<std::vector<compare::VariantSample>(const samples::SamplesFile&)> everywhere(
    std::size_t animation, std::size_t channel, std::function<D(double)> f) {
  return [=](const samples::SamplesFile& golden) { return differing_samples(golden, animation, channel, f); };
}

// ---------------------------------------------------------------------------
// Key data shared by several cases.

const F kTimes4 = {0.0f, 1.0f, 2.0f, 3.5f};
const F kTranslations = {0, 0, 0, 1, 2, -1, 1.5f, -0.5f, 2, 4, 1, 0.5f};
const F kScales = {1, 1, 1, 2, 0.5f, 1, 0.25f, 3, 1.5f, 1, 1, 1};
std::vector<Quat> rotation_keys() {
  return {Quat{0, 0, 0, 1}, axis_angle(0, 0, 1, 90), axis_angle(1, 0, 0, 60) * axis_angle(0, 0, 1, 90),
          axis_angle(0, 1, 0, -45)};
}

// CUBICSPLINE layout: per key in-tangent, value, out-tangent; a_1 = b_n = 0.
F cubic_layout(const F& values, const F& in_tangents, const F& out_tangents, std::size_t width) {
  const std::size_t n = values.size() / width;
  F out;
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t c = 0; c < width; ++c) out.push_back(k == 0 ? 0.0f : in_tangents[k * width + c]);
    for (std::size_t c = 0; c < width; ++c) out.push_back(values[k * width + c]);
    for (std::size_t c = 0; c < width; ++c) {
      out.push_back(k + 1 == n ? 0.0f : out_tangents[k * width + c]);
    }
  }
  return out;
}

// Deterministic, varied tangents for a track of `n` keys of `width`.
F tangents(std::size_t n, std::size_t width, float scale, int seed) {
  F out;
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t c = 0; c < width; ++c) {
      const int v = static_cast<int>((k * 7 + c * 3 + static_cast<std::size_t>(seed)) % 9) - 4;
      out.push_back(scale * static_cast<float>(v) / 4.0f);
    }
  }
  return out;
}

F weight_keys(std::size_t keys, std::size_t width) {
  F out;
  for (std::size_t k = 0; k < keys; ++k) {
    for (std::size_t j = 0; j < width; ++j) {
      out.push_back(static_cast<float>(std::fmod(0.25 * static_cast<double>((k + 1) * (j + 2)), 1.25)));
    }
  }
  return out;
}

F values_for(const std::string& path, const std::string& interpolation) {
  F v;
  std::size_t width = 3;
  if (path == "translation") v = kTranslations;
  if (path == "scale") v = kScales;
  if (path == "rotation") {
    width = 4;
    for (const auto& q : rotation_keys()) {
      const F f = quat_f(q);
      v.insert(v.end(), f.begin(), f.end());
    }
  }
  if (interpolation != "CUBICSPLINE") return v;
  const float scale = path == "rotation" ? 0.5f : 1.5f;
  return cubic_layout(v, tangents(4, width, scale, 1), tangents(4, width, scale, 5), width);
}

void add_core_matrix(std::vector<Case>& cases) {
  const char* interps[] = {"STEP", "LINEAR", "CUBICSPLINE"};
  const char* clause_of[] = {kStep, kLinear, kCubic};
  for (const char* path : {"translation", "rotation", "scale"}) {
    for (int i = 0; i < 3; ++i) {
      const std::string interp = interps[i];
      std::string lower = interp;
      for (char& ch : lower) ch = static_cast<char>(ch - 'A' + 'a');
      std::vector<std::string> clauses = {kAnimations, clause_of[i], kExactKey};
      if (std::string(path) == "rotation" && interp == "LINEAR") clauses[1] = kSlerp;
      Case c = make(std::string(path) + "_" + lower, "core", {interp, path}, clauses,
                    std::string("One ") + path + " channel, " + interp +
                        ", four keys at 0, 1, 2, 3.5 s (non-uniform last segment).",
                    [path = std::string(path), interp](GltfBuilder& b) {
                      core_track(b, path, interp, kTimes4, values_for(path, interp));
                    });
      if (std::string(path) == "rotation" && interp == "CUBICSPLINE") {
        c.notes += " Rotation tangents are not unit quaternions; the Hermite result is normalized.";
      }
      cases.push_back(std::move(c));
    }
  }
  // Morph target weights of several widths.
  for (std::size_t width : {std::size_t{1}, std::size_t{2}, std::size_t{5}}) {
    for (int i = 0; i < 3; ++i) {
      const std::string interp = interps[i];
      std::string lower = interp;
      for (char& ch : lower) ch = static_cast<char>(ch - 'A' + 'a');
      F v = weight_keys(4, width);
      if (interp == "CUBICSPLINE") v = cubic_layout(v, tangents(4, width, 1.0f, 2), tangents(4, width, 1.0f, 6), width);
      Case c = make("weights" + std::to_string(width) + "_" + lower, "core",
                    {interp, "weights", "morph targets"}, {kAnimations, clause_of[i], kMorph},
                    "Morph target weights of a mesh with " + std::to_string(width) +
                        " targets, " + interp +
                        (interp == "CUBICSPLINE" ? "; output layout per key a_1..a_n, v_1..v_n, b_1..b_n."
                                                 : "."),
                    [v, width, interp](GltfBuilder& b) {
                      core_track(b, "weights", interp, kTimes4, v, static_cast<int>(width));
                    });
      if (interp == "CUBICSPLINE") {
        c.notes += " Magnum's importer rejects morph-weight tracks (survey 2.15).";
      }
      cases.push_back(std::move(c));
    }
  }
}

F rotation_values() {
  F v;
  for (const auto& q : rotation_keys()) {
    const F f = quat_f(q);
    v.insert(v.end(), f.begin(), f.end());
  }
  return v;
}

// ---------------------------------------------------------------------------
// KHR_animation_pointer targets.

struct PointerKind {
  const char* id;
  const char* pointer;
  const char* type;
  std::size_t width;
  F values;  // 4 keys
};

void pointer_scene(GltfBuilder& b, const std::string& id) {
  if (id == "float") {
    b.add("cameras", Json::object({{"type", "perspective"},
                                   {"perspective", Json::object({{"aspectRatio", 1.5},
                                                                 {"yfov", 0.8},
                                                                 {"zfar", 100.0},
                                                                 {"znear", 0.01}})}}));
    b.add_node(Json::object({{"name", "camera"}, {"camera", 0}}));
    mesh_node(b);
    return;
  }
  Json material = Json::object({{"pbrMetallicRoughness", Json::object({{"baseColorFactor",
                                                                        Json::floats(D{1, 1, 1, 1})}})}});
  if (id == "float3") material.set("emissiveFactor", Json::floats(D{0, 0, 0}));
  if (id == "float2") {
    b.use_extension("KHR_texture_transform");
    b.add("images", Json::object({{"uri", kPng}}));
    b.add("samplers", Json::object({{"magFilter", 9728}, {"minFilter", 9728}}));
    b.add("textures", Json::object({{"sampler", 0}, {"source", 0}}));
    material["pbrMetallicRoughness"].set(
        "baseColorTexture",
        Json::object({{"index", 0},
                      {"extensions", Json::object({{"KHR_texture_transform",
                                                    Json::object({{"offset", Json::floats(D{0, 0})}})}})}}));
  }
  b.add("materials", std::move(material));
  mesh_node(b);
}

void add_pointer_matrix(std::vector<Case>& cases) {
  const std::vector<PointerKind> kinds = {
      {"float", "/cameras/0/perspective/yfov", "SCALAR", 1, {0.8f, 1.2f, 0.5f, 0.9f}},
      {"float2", "/materials/0/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/offset",
       "VEC2", 2, {0, 0, 0.5f, 0.25f, -0.25f, 1, 0.75f, 0.75f}},
      {"float3", "/materials/0/emissiveFactor", "VEC3", 3, {0, 0, 0, 1, 0.5f, 0, 0.25f, 1, 0.5f, 0, 0, 1}},
      {"float4", "/materials/0/pbrMetallicRoughness/baseColorFactor", "VEC4", 4,
       {1, 1, 1, 1, 1, 0, 0, 1, 0, 1, 0, 0.5f, 0.2f, 0.3f, 1, 1}},
  };
  const char* interps[] = {"STEP", "LINEAR", "CUBICSPLINE"};
  const char* clause_of[] = {kStep, kLinear, kCubic};
  for (const auto& kind : kinds) {
    for (int i = 0; i < 3; ++i) {
      const std::string interp = interps[i];
      std::string lower = interp;
      for (char& ch : lower) ch = static_cast<char>(ch - 'A' + 'a');
      F v = kind.values;
      if (interp == "CUBICSPLINE") {
        v = cubic_layout(v, tangents(4, kind.width, 0.5f, 3), tangents(4, kind.width, 0.5f, 7), kind.width);
      }
      cases.push_back(make(
          std::string("pointer_") + kind.id + "_" + lower, "pointer",
          {interp, "KHR_animation_pointer", kind.id},
          {kPointer, kObjectModel, clause_of[i]},
          std::string("KHR_animation_pointer to ") + kind.pointer + " (" + kind.id + "), " + interp + ".",
          [kind, v, interp](GltfBuilder& b) {
            pointer_scene(b, kind.id);
            const int anim = b.add_animation(std::string(kind.id) + "_" + interp);
            const int s = sampler(b, anim, kTimes4, v, kind.type, interp);
            b.add_pointer_channel(anim, s, kind.pointer);
          }));
    }
  }
  // Integer outputs converted to float before interpolation.
  cases.push_back(make(
      "pointer_float_ubyte_normalized_linear", "pointer",
      {"LINEAR", "KHR_animation_pointer", "float", "normalized UNSIGNED_BYTE"},
      {kPointer, kNormalizedInts},
      "metallicFactor from normalized UNSIGNED_BYTE outputs (0, 255, 51, 128): decoded c/255, then "
      "interpolated (\"interpolation MUST happen after type conversions\").",
      [](GltfBuilder& b) {
        pointer_scene(b, "float4");
        const int anim = b.add_animation("metallic");
        const int input = b.accessor_float(kTimes4, "SCALAR", true);
        const int output =
            b.accessor_int(gltf::ComponentType::kUnsignedByte, true, I{0, 255, 51, 128}, "SCALAR");
        const int s = b.add_sampler(anim, input, output, "LINEAR");
        b.add_pointer_channel(anim, s, "/materials/0/pbrMetallicRoughness/metallicFactor");
      }));
  cases.push_back(make(
      "pointer_bool_step", "pointer", {"STEP", "KHR_animation_pointer", "bool", "KHR_node_visibility"},
      {kPointer, "KHR_node_visibility"},
      "KHR_node_visibility visible (bool) from UNSIGNED_BYTE outputs 1, 0, 2, 0 with STEP; any non-zero "
      "value is true. Samples give booleans as 0 (false) and 1 (true).",
      [](GltfBuilder& b) {
        b.use_extension("KHR_node_visibility");
        const int node = mesh_node(b);
        b.root()["nodes"].at(static_cast<std::size_t>(node))
            .set("extensions", Json::object({{"KHR_node_visibility", Json::object({{"visible", true}})}}));
        const int anim = b.add_animation("blink");
        const int input = b.accessor_float(kTimes4, "SCALAR", true);
        const int output =
            b.accessor_int(gltf::ComponentType::kUnsignedByte, false, I{1, 0, 2, 0}, "SCALAR");
        const int s = b.add_sampler(anim, input, output, "STEP");
        b.add_pointer_channel(anim, s, "/nodes/0/extensions/KHR_node_visibility/visible");
      }));
  cases.push_back(make(
      "pointer_int_step", "pointer", {"STEP", "KHR_animation_pointer", "int", "extras"},
      {kPointer},
      "An int property in node extras (the Object Model has no mutable core int; pointers into "
      "extras are allowed, application-specific) from non-normalized SHORT outputs 0, 3, -2, 7, STEP: "
      "values used as-is.",
      [](GltfBuilder& b) {
        const int node = mesh_node(b);
        b.root()["nodes"].at(static_cast<std::size_t>(node)).set("extras", Json::object({{"level", 0}}));
        const int anim = b.add_animation("level");
        const int input = b.accessor_float(kTimes4, "SCALAR", true);
        const int output =
            b.accessor_int(gltf::ComponentType::kShort, false, I{0, 3, -2, 7}, "SCALAR");
        const int s = b.add_sampler(anim, input, output, "STEP");
        b.add_pointer_channel(anim, s, "/nodes/0/extras/level");
      }));
  // A node rotation through a pointer with STEP and CUBICSPLINE (LINEAR is
  // divergence_pointer_rotation): evaluated exactly as a core rotation channel.
  for (const char* interp : {"STEP", "CUBICSPLINE"}) {
    const std::string mode = interp;
    F v = rotation_values();
    if (mode == "CUBICSPLINE") v = cubic_layout(v, tangents(4, 4, 0.5f, 1), tangents(4, 4, 0.5f, 5), 4);
    cases.push_back(make(
        mode == "STEP" ? "pointer_rotation_step" : "pointer_rotation_cubicspline", "pointer",
        {mode, "KHR_animation_pointer", "rotation"}, {kPointer, kObjectModel, mode == "STEP" ? kStep : kCubic},
        "KHR_animation_pointer to /nodes/0/rotation with " + mode +
            ": the same values as a core rotation channel with the same data" +
            (mode == "CUBICSPLINE" ? " (Hermite, then normalized)." : "."),
        [v, mode](GltfBuilder& b) {
          mesh_node(b);
          const int anim = b.add_animation("rotation_" + mode);
          b.add_pointer_channel(anim, sampler(b, anim, kTimes4, v, "VEC4", mode), "/nodes/0/rotation");
        }));
  }
  cases.push_back(make(
      "pointer_texture_rotation_linear", "pointer",
      {"LINEAR", "KHR_animation_pointer", "float", "KHR_texture_transform"}, {kPointer, kObjectModel, kLinear},
      "KHR_texture_transform rotation: a float whose pointer ends in \"/rotation\", lerped as a scalar "
      "(not a quaternion), radians 0, 3.14159, -1.5, 0.25.",
      [](GltfBuilder& b) {
        pointer_scene(b, "float2");
        Json& transform = b.root()["materials"].at(0)["pbrMetallicRoughness"]["baseColorTexture"]["extensions"]
                              ["KHR_texture_transform"];
        transform.set("rotation", 0.0);
        const int anim = b.add_animation("uv_rotation");
        b.add_pointer_channel(anim, sampler(b, anim, kTimes4, {0, 3.14159f, -1.5f, 0.25f}, "SCALAR", "LINEAR"),
                              "/materials/0/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/"
                              "rotation");
      }));
  cases.push_back(make(
      "pointer_light_linear", "pointer", {"LINEAR", "STEP", "KHR_animation_pointer", "float", "float3", "KHR_lights_punctual"},
      {kPointer, kObjectModel, kLinear, kStep},
      "KHR_lights_punctual spot light: color (float3, LINEAR), intensity (float, LINEAR) and outerConeAngle "
      "(float, STEP), three channels on one light.",
      [](GltfBuilder& b) {
        b.use_extension("KHR_lights_punctual");
        b.root().set("extensions", Json::object({{"KHR_lights_punctual",
                                                  Json::object({{"lights", Json::array({Json::object(
                                                                               {{"type", "spot"},
                                                                                {"color", Json::floats(D{1, 1, 1})},
                                                                                {"intensity", 1.0},
                                                                                {"spot", Json::object({{"outerConeAngle", 0.7}})}})})}})}}));
        b.add_node(Json::object({{"name", "light"},
                                 {"extensions", Json::object({{"KHR_lights_punctual", Json::object({{"light", 0}})}})}}));
        mesh_node(b);
        const int anim = b.add_animation("light");
        const std::string light = "/extensions/KHR_lights_punctual/lights/0/";
        b.add_pointer_channel(anim, sampler(b, anim, kTimes4, {1, 1, 1, 1, 0, 0, 0, 1, 0, 0.5f, 0.5f, 1}, "VEC3", "LINEAR"),
                              light + "color");
        b.add_pointer_channel(anim, sampler(b, anim, kTimes4, {1, 10, 100, 0}, "SCALAR", "LINEAR"), light + "intensity");
        b.add_pointer_channel(anim, sampler(b, anim, kTimes4, {0.7f, 0.3f, 0.5f, 0.1f}, "SCALAR", "STEP"),
                              light + "spot/outerConeAngle");
      }));
  cases.push_back(make(
      "pointer_emissive_strength_cubicspline", "pointer",
      {"CUBICSPLINE", "KHR_animation_pointer", "float", "KHR_materials_emissive_strength"},
      {kPointer, kObjectModel, kCubic},
      "KHR_materials_emissive_strength emissiveStrength (float), CUBICSPLINE with non-zero tangents.",
      [](GltfBuilder& b) {
        b.use_extension("KHR_materials_emissive_strength");
        b.add("materials", Json::object({{"emissiveFactor", Json::floats(D{1, 1, 1})},
                                         {"extensions", Json::object({{"KHR_materials_emissive_strength",
                                                                       Json::object({{"emissiveStrength", 1.0}})}})}}));
        mesh_node(b);
        const int anim = b.add_animation("glow");
        const F v = cubic_layout({1, 4, 2, 8}, tangents(4, 1, 3, 2), tangents(4, 1, 3, 4), 1);
        b.add_pointer_channel(anim, sampler(b, anim, kTimes4, v, "SCALAR", "CUBICSPLINE"),
                              "/materials/0/extensions/KHR_materials_emissive_strength/emissiveStrength");
      }));
  cases.push_back(make(
      "pointer_single_weight_linear", "pointer", {"LINEAR", "KHR_animation_pointer", "float", "weights"},
      {kPointer, kObjectModel, kMorph},
      "KHR_animation_pointer to one morph weight, /nodes/0/weights/1 (float), of a mesh with 3 targets.",
      [](GltfBuilder& b) {
        mesh_node(b, 3);
        const int anim = b.add_animation("weight1");
        b.add_pointer_channel(anim, sampler(b, anim, kTimes4, {0, 1, 0.25f, 0.5f}, "SCALAR", "LINEAR"),
                              "/nodes/0/weights/1");
      }));
  for (const char* interp : {"STEP", "LINEAR", "CUBICSPLINE"}) {
    const std::string mode = interp;
    std::string lower = mode;
    for (char& ch : lower) ch = static_cast<char>(ch - 'A' + 'a');
    F v = weight_keys(4, 3);
    if (mode == "CUBICSPLINE") v = cubic_layout(v, tangents(4, 3, 1.0f, 3), tangents(4, 3, 1.0f, 8), 3);
    cases.push_back(make(
        "pointer_weights_" + lower, "pointer", {mode, "KHR_animation_pointer", "float[]", "weights"},
        {kPointer, kObjectModel, kMorph, mode == "STEP" ? kStep : mode == "LINEAR" ? kLinear : kCubic},
        "KHR_animation_pointer to /nodes/0/weights (float[], 3 morph targets), " + mode +
            (mode == "CUBICSPLINE" ? "; the core layout a_1..a_n, v_1..v_n, b_1..b_n per key (Godot drops "
                                     "CUBICSPLINE pointer channels whose output count is 3 x keys, survey 1b)."
                                   : "."),
        [v, mode](GltfBuilder& b) {
          mesh_node(b, 3);
          const int anim = b.add_animation("weights");
          const int s = sampler(b, anim, kTimes4, v, "SCALAR", mode);
          b.add_pointer_channel(anim, s, "/nodes/0/weights");
        }));
  }
}

// ---------------------------------------------------------------------------
// KHR_animation2 and EXT_animation_sqlerp.

void add_animation2_channel(GltfBuilder& b, int anim, int s, const std::string& pointer) {
  b.use_extension("KHR_animation2");
  b.add_channel(anim, Json::object({{"sampler", s}, {"targetpointer", pointer}}));
}

void add_extension_cases(std::vector<Case>& cases) {
  cases.push_back(make(
      "animation2_slerp", "animation2", {"SLERP", "KHR_animation2", "rotation"}, {kAnimation2, kSlerp},
      "KHR_animation2 channel {\"targetpointer\": \"nodes/0/rotation\"} (written without the leading "
      "slash, as in the draft's example) with interpolation SLERP, read as Appendix C's shortest-path "
      "slerp. The samples' target is the JSON pointer /nodes/0/rotation.",
      [](GltfBuilder& b) {
        mesh_node(b);
        const int anim = b.add_animation("slerp");
        const int s = sampler(b, anim, kTimes4, rotation_values(), "VEC4", "SLERP");
        add_animation2_channel(b, anim, s, "nodes/0/rotation");
      }));
  cases.push_back(make(
      "animation2_step_quat", "animation2", {"STEP", "KHR_animation2", "rotation"}, {kAnimation2, kStep},
      "KHR_animation2 targetpointer /nodes/0/rotation with STEP (quat allows STEP and SLERP).",
      [](GltfBuilder& b) {
        mesh_node(b);
        const int anim = b.add_animation("step");
        const int s = sampler(b, anim, kTimes4, rotation_values(), "VEC4", "STEP");
        add_animation2_channel(b, anim, s, "/nodes/0/rotation");
      }));
  cases.push_back(make(
      "animation2_linear_vec3", "animation2", {"LINEAR", "KHR_animation2", "translation"},
      {kAnimation2, kLinear},
      "KHR_animation2 targetpointer /nodes/0/translation (vec3) with LINEAR and "
      "/materials/0/pbrMetallicRoughness/baseColorFactor (vec4) with CUBICSPLINE.",
      [](GltfBuilder& b) {
        pointer_scene(b, "float4");
        const int anim = b.add_animation("vec");
        const int s0 = sampler(b, anim, kTimes4, kTranslations, "VEC3", "LINEAR");
        add_animation2_channel(b, anim, s0, "/nodes/0/translation");
        const F colors = {1, 1, 1, 1, 1, 0, 0, 1, 0, 1, 0, 0.5f, 0.2f, 0.3f, 1, 1};
        const int s1 = sampler(b, anim, kTimes4, cubic_layout(colors, tangents(4, 4, 0.5f, 1), tangents(4, 4, 0.5f, 2), 4),
                               "VEC4", "CUBICSPLINE");
        add_animation2_channel(b, anim, s1, "/materials/0/pbrMetallicRoughness/baseColorFactor");
      }));

  // sqlerp: keys 0, 90 deg about z, then 90 about x after that; tangent quaternions
  // are unit quaternions near the keys (squad-style control points).
  const std::vector<Quat> keys = {Quat{0, 0, 0, 1}, axis_angle(0, 0, 1, 90),
                                  axis_angle(1, 0, 0, 90) * axis_angle(0, 0, 1, 90)};
  struct SqlerpCase {
    const char* id;
    bool fallback;
    bool flipped;  // b_1 and a_3 stored in the hemisphere opposite their neighbours
    const char* notes;
  };
  const SqlerpCase sq_cases[] = {
      {"sqlerp_with_fallback", true, false,
       "EXT_animation_sqlerp channel with a LINEAR fallback sampler (channel.sampler 1, extension sampler 0). "
       "Golden: the CUBICSLERP sampler; `sample --no-extensions` gives the fallback. Control quaternions are "
       "stored in the same hemisphere as their neighbours, so the choice of inner slerp does not matter."},
      {"sqlerp_without_fallback", false, false,
       "EXT_animation_sqlerp without fallback (extensionsRequired, no channel.sampler, as the draft shows; the "
       "core schema's required channel.sampler is missing on purpose). `sample --no-extensions` has no "
       "channel for it."},
      {"sqlerp_control_hemisphere", true, true,
       "CUBICSLERP with the control quaternions b_1 and a_3 stored negated (the same rotations, opposite "
       "hemisphere): the result depends on the inner slerp, which the draft leaves open (see variants)."},
  };
  const F sq_times = {0.0f, 1.0f, 2.5f};
  for (const SqlerpCase& sc : sq_cases) {
    const double sign = sc.flipped ? -1.0 : 1.0;
    const std::vector<Quat> in_t = {Quat{0, 0, 0, 0}, axis_angle(0, 0.3, 1, 70),
                                    sign * axis_angle(1, 0.2, 0.4, 150)};
    const std::vector<Quat> out_t = {sign * axis_angle(0.2, 0, 1, 25), axis_angle(1, 0, 1, 110), Quat{0, 0, 0, 0}};
    F sq;
    for (std::size_t k = 0; k < keys.size(); ++k) {
      for (const Quat* q : {&in_t[k], &keys[k], &out_t[k]}) {
        const F f = quat_f(*q);
        sq.insert(sq.end(), f.begin(), f.end());
      }
    }
    F sq_keys;
    for (const auto& q : keys) {
      const F f = quat_f(q);
      sq_keys.insert(sq_keys.end(), f.begin(), f.end());
    }
    const bool fallback = sc.fallback;
    Case c = make(sc.id, "sqlerp", {"CUBICSLERP", "EXT_animation_sqlerp", "rotation"}, {kSqlerp, kSlerp}, sc.notes,
                  [=](GltfBuilder& b) {
                    b.use_extension("EXT_animation_sqlerp", !fallback);
                    mesh_node(b);
                    const int anim = b.add_animation("sqlerp");
                    const int s = sampler(b, anim, sq_times, sq, "VEC4", "CUBICSLERP");
                    Json channel = Json::object();
                    if (fallback) channel.set("sampler", sampler(b, anim, sq_times, sq_keys, "VEC4", "LINEAR"));
                    channel.set("target", Json::object({{"node", 0}, {"path", "rotation"}}));
                    channel.set("extensions",
                                Json::object({{"EXT_animation_sqlerp", Json::object({{"sampler", s}})}}));
                    b.add_channel(anim, std::move(channel));
                  });
    if (sc.fallback) {
      // The extension is not required, so a client without it conforms by
      // playing the fallback sampler (glTF 2.0 3.12 Extensions).
      Variant v{"no-extensions",
                "A client without EXT_animation_sqlerp plays the channel's LINEAR fallback sampler "
                "(the extension is not required): the samples of `gltf-anim sample --no-extensions`.",
                nullptr};
      v.core_only_view = true;
      c.variants.push_back(std::move(v));
    }
    if (sc.flipped) {
      // The golden uses the reference's default inner slerp; the variant is the other one.
      const auto golden_inner = reference::SampleOptions{}.sqlerp_inner;
      const auto other = golden_inner == reference::SlerpVariant::kPlain ? reference::SlerpVariant::kShortestPath
                                                                         : reference::SlerpVariant::kPlain;
      c.variants.push_back(
          {other == reference::SlerpVariant::kPlain ? "plain-inner-slerp" : "shortest-path-inner-slerp",
           "The draft says only \"slerp\" for the three inner slerps of sqlerp. The golden uses " +
               std::string(golden_inner == reference::SlerpVariant::kPlain ? "Shoemake's plain slerp"
                                                                           : "the shortest-path slerp") +
               " (the reference's default, docs/REFERENCE.md); this variant uses " +
               (other == reference::SlerpVariant::kPlain ? "the plain slerp." : "the shortest-path slerp."),
           everywhere(0, 0, [=](double t) {
             t = std::clamp(t, 0.0, 2.5);
             const std::size_t k = t < 1 ? 0 : 1;
             const double u = (t - sq_times[k]) / (static_cast<double>(sq_times[k + 1]) - sq_times[k]);
             return to_d(reference::cubic_slerp_segment(stored(keys[k]), stored(out_t[k]), stored(in_t[k + 1]),
                                                        stored(keys[k + 1]), u, other));
           })});
    }
    cases.push_back(std::move(c));
  }
}

// ---------------------------------------------------------------------------
// Edge cases.

void add_edge_cases(std::vector<Case>& cases) {
  cases.push_back(make(
      "edge_clamp", "edge", {"LINEAR", "translation", "rotation", "clamp"}, {kAnimations, kClamp},
      "Keys from 1 to 2 s: samples before the first and after the last key must hold the end values.",
      [](GltfBuilder& b) {
        const int node = mesh_node(b);
        const int anim = b.add_animation("clamp");
        const int s0 = sampler(b, anim, {1.0f, 2.0f}, {1, 2, 3, -1, 0, 4}, "VEC3", "LINEAR");
        b.add_core_channel(anim, s0, node, "translation");
        const int s1 = sampler(b, anim, {1.0f, 2.0f}, cat({quat_f(axis_angle(0, 1, 0, 30)), quat_f(axis_angle(0, 1, 0, 100))}),
                               "VEC4", "LINEAR");
        b.add_core_channel(anim, s1, node, "rotation");
      }));
  cases.push_back(make(
      "edge_exact_keys", "edge", {"LINEAR", "CUBICSPLINE", "translation", "exact key"}, {kExactKey, kLinear, kCubic},
      "Keys at 0.1, 0.3, 0.7 s (not representable in binary; float32 keys). At each key time the stored "
      "value must come back as-is.",
      [](GltfBuilder& b) {
        const int node = mesh_node(b);
        const int anim = b.add_animation("exact");
        const F times = {0.1f, 0.3f, 0.7f};
        const F v = {0.1f, 0.2f, 0.3f, 1.0f / 3.0f, 2.0f / 3.0f, 0.7f, -0.9f, 1e-3f, 123.456f};
        const int s0 = sampler(b, anim, times, v, "VEC3", "LINEAR");
        b.add_core_channel(anim, s0, node, "translation");
        const int s1 = sampler(b, anim, times, cubic_layout(v, tangents(3, 3, 2, 1), tangents(3, 3, 2, 4), 3),
                               "VEC3", "CUBICSPLINE");
        b.add_core_channel(anim, s1, node, "scale");
      }));
  cases.push_back(make(
      "edge_single_key", "edge", {"STEP", "LINEAR", "translation", "rotation", "weights", "one keyframe"},
      {kAnimations, kClamp},
      "Channels with one keyframe (LINEAR translation, STEP rotation, LINEAR weights): the key's value at "
      "every time.",
      [](GltfBuilder& b) {
        const int node = mesh_node(b, 2);
        const int anim = b.add_animation("single");
        const int input = b.accessor_float({0.5f}, "SCALAR", true);
        const int t = b.add_sampler(anim, input, b.accessor_float({1, 2, 3}, "VEC3", false), "LINEAR");
        const int r = b.add_sampler(anim, input, b.accessor_float(quat_f(axis_angle(1, 1, 0, 40)), "VEC4", false), "STEP");
        const int w = b.add_sampler(anim, input, b.accessor_float({0.25f, 0.75f}, "SCALAR", false), "LINEAR");
        b.add_core_channel(anim, t, node, "translation");
        b.add_core_channel(anim, r, node, "rotation");
        b.add_core_channel(anim, w, node, "weights");
      }));
  cases.push_back(make(
      "edge_late_start", "edge", {"LINEAR", "translation", "late start"}, {kAnimations, kClamp},
      "First key at 1/24 s (as in CesiumMan): playback starts at t = 0 and holds the first key until "
      "then (survey 2.12: Magnum's Player and Godot's trimming start the timeline at the first key "
      "instead). Samples include t = 0.",
      [](GltfBuilder& b) {
        core_track(b, "translation", "LINEAR", {1.0f / 24, 0.5f, 1.25f}, {0, 1, 0, 1, 0, 0, 2, 2, 2});
      }));
  cases.push_back(make(
      "edge_nonuniform", "edge", {"LINEAR", "CUBICSPLINE", "translation", "non-uniform segments"},
      {kLinear, kCubic},
      "Segments of 0.1, 0.15, 0.75, 0.05 and 1.95 s: CUBICSPLINE tangents scale with each segment's "
      "duration.",
      [](GltfBuilder& b) {
        const int node = mesh_node(b);
        const int anim = b.add_animation("nonuniform");
        const F times = {0.0f, 0.1f, 0.25f, 1.0f, 1.05f, 3.0f};
        const F v = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 1, 2, 0, 1, -1, -1, -1};
        b.add_core_channel(anim, sampler(b, anim, times, v, "VEC3", "LINEAR"), node, "translation");
        b.add_core_channel(anim,
                           sampler(b, anim, times, cubic_layout(v, tangents(6, 3, 1, 2), tangents(6, 3, 1, 3), 3),
                                   "VEC3", "CUBICSPLINE"),
                           node, "scale");
      }));
  cases.push_back(make(
      "edge_uneven", "edge", {"LINEAR", "CUBICSPLINE", "rotation", "translation", "very uneven segments"},
      {kLinear, kSlerp, kCubic},
      "A 1 ms segment next to a 10 s one (ratio 1e4), for translation (CUBICSPLINE) and rotation (LINEAR).",
      [](GltfBuilder& b) {
        const int node = mesh_node(b);
        const int anim = b.add_animation("uneven");
        const F times = {0.0f, 0.001f, 10.0f};
        const F v = {0, 0, 0, 1, 0, 0, 0, 5, 0};
        b.add_core_channel(anim,
                           sampler(b, anim, times, cubic_layout(v, F{0, 0, 0, 3, 3, 0, 1, 1, 1}, F{1, 1, 1, 0, 0, 2, 0, 0, 0}, 3),
                                   "VEC3", "CUBICSPLINE"),
                           node, "translation");
        b.add_core_channel(anim,
                           sampler(b, anim, times,
                                   cat({quat_f(Quat{0, 0, 0, 1}), quat_f(axis_angle(0, 0, 1, 20)), quat_f(axis_angle(0, 0, 1, 170))}),
                                   "VEC4", "LINEAR"),
                           node, "rotation");
      }));
  {
    Case c = make(
        "edge_tiny_segment", "edge", {"LINEAR", "STEP", "translation", "tiny segment"}, {kLinear, kStep},
        "A segment one float32 ulp long (1 to 1.00000012 s) carrying a jump from 0 to 10: its midpoint is "
        "5, and no division by the tiny duration may blow up. Times inside the segment are not float32 "
        "numbers: an engine with float32 time lands on a key (variant float32-time).",
        [](GltfBuilder& b) {
          const int node = mesh_node(b);
          const int anim = b.add_animation("tiny");
          const F times = {0.0f, 1.0f, std::nextafter(1.0f, 2.0f), 2.0f};
          const F v = {0, 0, 0, 0, 0, 0, 10, 0, 0, 10, 1, 0};
          b.add_core_channel(anim, sampler(b, anim, times, v, "VEC3", "LINEAR"), node, "translation");
          b.add_core_channel(anim, sampler(b, anim, times, {1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3}, "VEC3", "STEP"), node,
                             "scale");
        });
    c.variants.push_back(
        {"float32-time",
         "The requested time rounded to float32 first (engines keeping time in float): inside the one-ulp "
         "segment that is one of its two keys, whose value is then used as-is.",
         [](const samples::SamplesFile& golden) {
           const double t1 = 1.0;
           const double t2 = static_cast<double>(std::nextafter(1.0f, 2.0f));
           std::vector<compare::VariantSample> out;
           for (std::size_t ch : {std::size_t{0}, std::size_t{1}}) {
             for (double u : {0.25, 0.5, 0.75}) {
               const double t = t1 + u * (t2 - t1);
               const double rounded = static_cast<double>(static_cast<float>(t));
               for (const auto& channel : golden.animations.at(0).channels) {
                 if (channel.index != ch) continue;
                 for (std::size_t i = 0; i < channel.size(); ++i) {
                   if (channel.times[i] == rounded) {
                     const auto v = channel.value(i);
                     out.push_back({0, ch, t, D(v.begin(), v.end())});
                   }
                 }
               }
             }
           }
           return out;
         }});
    cases.push_back(std::move(c));
  }
  // Quaternion sign flips between consecutive keys: the rotations are 0, 40, 80,
  // 120 degrees about z, stored with alternating signs.
  {
    std::vector<Quat> q = {axis_angle(0, 0, 1, 0), -axis_angle(0, 0, 1, 40), axis_angle(0, 0, 1, 80),
                           -axis_angle(0, 0, 1, 120)};
    Case c = make(
        "edge_quat_sign_flip", "edge", {"LINEAR", "rotation", "quaternion sign flip", "shortest path"},
        {kSlerp},
        "Keys 0, 40, 80, 120 degrees about z stored as q, -q, q, -q: the shortest-path slerp turns "
        "forward by 40 degrees per segment; a slerp without the sign rule spins the long way.",
        [q](GltfBuilder& b) {
          core_track(b, "rotation", "LINEAR", {0, 1, 2, 3}, cat({quat_f(q[0]), quat_f(q[1]), quat_f(q[2]), quat_f(q[3])}));
        });
    cases.push_back(std::move(c));
  }
  {
    const std::vector<Quat> q = {axis_angle(1, 2, 3, 10), axis_angle(1, 2, 3, 10.0001),
                                 axis_angle(1, 2, 3, 10.01), axis_angle(1, 2, 3, 12)};
    cases.push_back(make(
        "edge_quat_near_parallel", "edge", {"LINEAR", "rotation", "near-parallel quaternions"}, {kSlerp},
        "Consecutive keys 1e-4, 1e-2 and 2 degrees apart (dot within 1e-13, 1e-8, 1.5e-4 of 1): the "
        "slerp's small-angle branch must stay accurate.",
        [q](GltfBuilder& b) {
          core_track(b, "rotation", "LINEAR", {0, 1, 2, 3}, cat({quat_f(q[0]), quat_f(q[1]), quat_f(q[2]), quat_f(q[3])}));
        }));
  }
  {
    const std::vector<Quat> q = {axis_angle(0, 1, 0, 30), -axis_angle(0, 1, 0, 30.01), axis_angle(0, 1, 0, 30),
                                 axis_angle(0, 1, 0, 209.9)};
    Case c = make(
        "edge_quat_near_opposite", "edge", {"LINEAR", "rotation", "near-opposite quaternions"}, {kSlerp},
        "Segment 1: q then nearly -q (dot ~ -1, the same rotation within 0.01 degrees): shortest path barely "
        "moves. Segment 3: rotations 179.9 degrees apart (dot ~ 0.0009).",
        [q](GltfBuilder& b) {
          core_track(b, "rotation", "LINEAR", {0, 1, 2, 3}, cat({quat_f(q[0]), quat_f(q[1]), quat_f(q[2]), quat_f(q[3])}));
        });
    cases.push_back(std::move(c));
  }
  // The 180-degree tie: consecutive keys exactly 180 degrees of rotation apart (dot = 0).
  {
    const std::vector<Quat> q = {Quat{0, 0, 0, 1}, Quat{0, 0, 1, 0}};
    Case c = make(
        "edge_quat_half_turn_tie", "edge", {"LINEAR", "rotation", "180-degree tie"}, {kSlerp},
        "Keys identity and 180 degrees about z, (0,0,0,1) then (0,0,1,0): the dot is exactly 0, Appendix C's "
        "sign s = d/|d| is 0/0, and the two great-circle paths are equally short. Golden: s = +1 (the turn "
        "goes through +90 degrees about z, (0,0,0.7071,0.7071) at 0.5 s); s = -1 turns the other way "
        "(through -90 degrees) and is the variant. Other cases keep their keys off this tie.",
        [q](GltfBuilder& b) {
          core_track(b, "rotation", "LINEAR", {0, 1}, cat({quat_f(q[0]), quat_f(q[1])}));
        });
    c.variants.push_back({"tie-negative-sign",
                          "s = -1 at dot = 0 (e.g. an engine testing dot > 0 rather than dot < 0 before "
                          "negating): the same end rotations, the other direction of turn inside the segment; "
                          "the spec's formula is undefined there, so both pass.",
                          everywhere(0, 0, [q](double t) {
                            t = std::clamp(t, 0.0, 1.0);
                            if (t == 1.0) return to_d(q[1]);
                            return to_d(reference::slerp(q[0], -q[1], t));
                          })});
    cases.push_back(std::move(c));
  }
  // Held rotation keys: equal consecutive keys (dot 1, angle 0). The float32 self-dot of some
  // unit quaternions rounds above 1 (1.0000001), and acos of it is NaN in an engine that
  // does not clamp the dot: the keys are the first ones found with that property.
  {
    const Quat a = stored(first_with_float32_self_dot_above_one(0, 0, 1, 10));
    const Quat b = stored(first_with_float32_self_dot_above_one(1, 1, 0, 100));
    Case c = make("edge_quat_held_key", "edge", {"LINEAR", "rotation", "held key"}, {kSlerp},
                  "Equal consecutive rotation keys (a hold): 0 to 1 s and 2 to 3 s hold one key "
                  "each; 3 to 4 s goes "
                  "from q to -q (the same rotation; the shortest path holds it). Both keys' "
                  "float32 self-dot is "
                  "1.0000001: an engine taking acos of the float32 dot without clamping it gets "
                  "NaN inside the holds.",
                  [a, b](GltfBuilder& b_) {
                    core_track(b_, "rotation", "LINEAR", {0, 1, 2, 3, 4},
                               cat({quat_f(a), quat_f(a), quat_f(b), quat_f(b), quat_f(-b)}));
                  });
    cases.push_back(std::move(c));
  }
  // A rotation output is a unit quaternion: keys 120 degrees of rotation apart, where a lerp
  // that is not normalized has |q| = 0.866 half way (and a Hermite spline with zero tangents
  // the same).
  {
    const Quat a{0, 0, 0, 1};
    const Quat b = axis_angle(0, 1, 0, 120);
    cases.push_back(make(
        "edge_quat_unit_length_linear", "edge", {"LINEAR", "rotation", "unit length"}, {kSlerp},
        "Two rotation keys 120 degrees apart (dot 0.5). Slerp and nlerp give unit quaternions; a "
        "lerp that is "
        "not normalized gives |q| = 0.866 at 0.5 s, which scales the object as well as turning it: "
        "compare "
        "judges a rotation's length as well as its angle.",
        [a, b](GltfBuilder& b_) {
          core_track(b_, "rotation", "LINEAR", {0, 1}, cat({quat_f(a), quat_f(b)}));
        }));
    const F zero(4, 0.0f);
    cases.push_back(make(
        "edge_quat_unit_length_cubicspline", "edge", {"CUBICSPLINE", "rotation", "unit length"},
        {kCubic},
        "Two CUBICSPLINE rotation keys 120 degrees apart with zero tangents: the Hermite spline at "
        "0.5 s is "
        "the keys' mean, |q| = 0.866, and Appendix C.5 MUST normalize it; an engine that skips the "
        "normalization has the right direction and the wrong length.",
        [a, b, zero](GltfBuilder& b_) {
          core_track(b_, "rotation", "CUBICSPLINE", {0, 1},
                     cat({zero, quat_f(a), zero, zero, quat_f(b), zero}));
        }));
  }
  // Normalized integer outputs.
  struct IntKind {
    const char* name;
    gltf::ComponentType component_type;
    double scale;
    bool is_signed;
  };
  const IntKind ints[] = {{"byte", gltf::ComponentType::kByte, 127, true},
                          {"ubyte", gltf::ComponentType::kUnsignedByte, 255, false},
                          {"short", gltf::ComponentType::kShort, 32767, true},
                          {"ushort", gltf::ComponentType::kUnsignedShort, 65535, false}};
  for (const auto& k : ints) {
    // Rotation: 0, 90, 180 degrees about z (+ a 60 degree x turn for signed types).
    std::vector<Quat> q = {Quat{0, 0, 0, 1}, axis_angle(0, 0, 1, 90), Quat{0, 0, 1, 0}};
    // The last key is 60 degrees about (1, 0, -1): not exactly 180 degrees of rotation from
    // (0, 0, 1, 0) (dot 0.35, not 0), so the sign tie of edge_quat_half_turn_tie stays out.
    if (k.is_signed) q.push_back(axis_angle(1, 0, -1, -60));
    I raw;
    for (const auto& r : q) {
      for (double c : {r.x, r.y, r.z, r.w}) raw.push_back(static_cast<std::int64_t>(std::lround(c * k.scale)));
    }
    F times = {0, 1, 2};
    if (k.is_signed) times.push_back(3);
    cases.push_back(make(
        std::string("normalized_rotation_") + k.name, "normalized",
        {"LINEAR", "rotation", std::string("normalized ") + k.name},
        {kNormalizedInts, kSlerp},
        std::string("Rotation outputs as normalized ") + k.name +
            " (0, 90, 180 degrees about z" + (k.is_signed ? ", -60 about x" : "") +
            "), decoded with the spec's formula before slerp. Decoded keys are not exactly unit length.",
        [k, raw, times](GltfBuilder& b) {
          const int node = mesh_node(b);
          const int anim = b.add_animation("rotation");
          const int input = b.accessor_float(times, "SCALAR", true);
          const int output = b.accessor_int(k.component_type, true, raw, "VEC4");
          b.add_core_channel(anim, b.add_sampler(anim, input, output, "LINEAR"), node, "rotation");
        }));
    I w;
    const std::int64_t max = static_cast<std::int64_t>(k.scale);
    if (k.is_signed) {
      w = {0, max, max / 2, -max, 1, -(max + 1)};
    } else {
      w = {0, max, max / 2, 1, max / 3, 0};
    }
    Case wc = make(
        std::string("normalized_weights_") + k.name, "normalized",
        {"LINEAR", "weights", std::string("normalized ") + k.name}, {kNormalizedInts, kLinear, kMorph},
        std::string("Morph weights (2 targets) as normalized ") + k.name +
            (k.is_signed ? "; includes the most negative value, which decodes to exactly -1." : "."),
        [k, w](GltfBuilder& b) {
          const int node = mesh_node(b, 2);
          const int anim = b.add_animation("weights");
          const int input = b.accessor_float({0, 1, 2}, "SCALAR", true);
          const int output = b.accessor_int(k.component_type, true, w, "SCALAR");
          b.add_core_channel(anim, b.add_sampler(anim, input, output, "LINEAR"), node, "weights");
        });
    if (k.is_signed) {
      D unclamped;
      for (std::int64_t c : w) unclamped.push_back(static_cast<double>(c) / k.scale);
      wc.variants.push_back(
          {"no-clamp",
           std::string("c / ") +
               (k.component_type == gltf::ComponentType::kByte ? "127" : "32767") +
               " without the max(..., -1) clamp (three.js): the most negative value decodes below "
               "-1; breaks "
               "glTF 2.0 3.11 Animations' decoding table for normalized signed integers, f = max(c "
               "/ (2^(n-1) - 1), "
               "-1.0).",
           everywhere(0, 0,
                      [unclamped](double t) {
                        return evaluate_track({0, 1, 2}, unclamped, 2,
                                              reference::Interpolation::kLinear,
                                              reference::ValueKind::kVector, t);
                      }),
           false});
    }
    cases.push_back(std::move(wc));
  }
  cases.push_back(make(
      "sparse_outputs", "edge", {"LINEAR", "translation", "weights", "sparse accessor"}, {kSparse, kLinear},
      "Translation output with a sparse substitution over a bufferView (keys 1 and 3 replaced), and "
      "weight outputs that are sparse over an implicit all-zero base (no bufferView).",
      [](GltfBuilder& b) {
        const int node = mesh_node(b, 2);
        const int anim = b.add_animation("sparse");
        const int input = b.accessor_float(kTimes4, "SCALAR", true);
        const int t_out = b.accessor_sparse_float({0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3}, true, {1, 3},
                                                  {5, -1, 0.5f, -2, 4, 8}, "VEC3");
        const int w_out = b.accessor_sparse_float(F(8, 0.0f), false, {1, 2, 5}, {1, 0.5f, 0.75f}, "SCALAR");
        b.add_core_channel(anim, b.add_sampler(anim, input, t_out, "LINEAR"), node, "translation");
        b.add_core_channel(anim, b.add_sampler(anim, input, w_out, "LINEAR"), node, "weights");
      }));
  cases.push_back(make(
      "shared_input", "edge", {"LINEAR", "STEP", "translation", "scale", "shared accessors"}, {kAnimations},
      "Two samplers share one input accessor; one sampler drives the translations of two nodes.",
      [](GltfBuilder& b) {
        const int mesh = b.add_triangle_mesh(0);
        const int n0 = b.add_node(Json::object({{"name", "a"}, {"mesh", mesh}}));
        const int n1 = b.add_node(Json::object({{"name", "b"}, {"mesh", mesh}}));
        const int anim = b.add_animation("shared");
        const int input = b.accessor_float({0, 0.5f, 2}, "SCALAR", true);
        const int s0 = b.add_sampler(anim, input, b.accessor_float({0, 0, 0, 1, 1, 0, 2, 0, 0}, "VEC3", false), "LINEAR");
        const int s1 = b.add_sampler(anim, input, b.accessor_float({1, 1, 1, 2, 2, 2, 0.5f, 0.5f, 0.5f}, "VEC3", false), "STEP");
        b.add_core_channel(anim, s0, n0, "translation");
        b.add_core_channel(anim, s0, n1, "translation");
        b.add_core_channel(anim, s1, n1, "scale");
      }));
  for (Container container : {Container::kDataUri, Container::kExternalBin, Container::kGlb}) {
    const char* name = container == Container::kDataUri ? "container_data_uri"
                       : container == Container::kExternalBin ? "container_external_bin"
                                                              : "container_glb";
    Case c = make(name, "container", {"LINEAR", "CUBICSPLINE", "translation", "rotation",
                                      container == Container::kDataUri       ? "data URI"
                                      : container == Container::kExternalBin ? "external .bin"
                                                                             : "GLB"},
                  {container == Container::kGlb ? kGlb : kBuffers},
                  "The same animation in every container (data URI, external .bin, GLB): identical samples.",
                  [](GltfBuilder& b) {
                    const int node = mesh_node(b);
                    const int anim = b.add_animation("container");
                    b.add_core_channel(anim, sampler(b, anim, kTimes4, kTranslations, "VEC3", "LINEAR"), node,
                                       "translation");
                    b.add_core_channel(anim, sampler(b, anim, kTimes4, values_for("rotation", "CUBICSPLINE"), "VEC4",
                                                     "CUBICSPLINE"),
                                       node, "rotation");
                  });
    c.container = container;
    cases.push_back(std::move(c));
  }
}

}  // namespace

void add_divergence_cases(std::vector<Case>& cases);  // divergences.cpp

const std::vector<Case>& suite_cases() {
  static const std::vector<Case> cases = [] {
    std::vector<Case> all;
    add_core_matrix(all);
    add_pointer_matrix(all);
    add_extension_cases(all);
    add_edge_cases(all);
    add_divergence_cases(all);
    return all;
  }();
  return cases;
}

}  // namespace gltf_anim::suite

// One case per divergence between real implementations recorded in
// shared/specs/implementations-survey.md section 2 (numbers in the notes refer to it).
// The golden samples follow the specs; `variants` say what the diverging engines
// return, computed with the reference maths on the same data.
#include <gltf_anim/suite/suite.hpp>
#include <gltf_anim/reference/interpolate.hpp>
#include <gltf_anim/reference/quaternion.hpp>
#include <gltf_anim/reference/shortest_path.hpp>
#include <gltf_anim/reference/track.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <vector>

namespace gltf_anim::suite {
namespace {

using reference::Quat;
using F = std::vector<float>;
using D = std::vector<double>;
using I = std::vector<std::int64_t>;
using Excerpt = std::vector<compare::VariantSample>;

const char* const kAnimations = "glTF 2.0 3.11 Animations";
const char* const kClamp = "glTF 2.0 3.11 Animations (clamp before/after the input range)";
const char* const kStep = "glTF 2.0 Appendix C.2 Step Interpolation";
const char* const kSlerp = "glTF 2.0 Appendix C.4 Spherical Linear Interpolation";
const char* const kCubic = "glTF 2.0 Appendix C.5 Cubic Spline Interpolation";
const char* const kExactKey = "glTF 2.0 Appendix C.1 Overview (exact timestamp: value used as-is)";
const char* const kNormalizedInts = "glTF 2.0 3.11 Animations (normalized integer outputs)";
const char* const kPointer = "KHR_animation_pointer";
const char* const kObjectModel = "glTF 2.0 Asset Object Model";

Quat z_rot(double degrees) {
  return reference::from_axis_angle({0, 0, 1}, degrees * std::numbers::pi / 180.0);
}
F qf(const Quat& q) {
  return {static_cast<float>(q.x), static_cast<float>(q.y), static_cast<float>(q.z), static_cast<float>(q.w)};
}
D dq(const Quat& q) { return {q.x, q.y, q.z, q.w}; }
F cat(std::initializer_list<F> parts) {
  F out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}
D as_d(const F& f) { return D(f.begin(), f.end()); }

int mesh_node(GltfBuilder& b, int morph_targets = 0) {
  const int mesh = b.add_triangle_mesh(morph_targets);
  return b.add_node(Json::object({{"name", "target"}, {"mesh", mesh}}));
}
int sampler(GltfBuilder& b, int anim, const F& times, const F& values, const char* type,
            const char* interpolation) {
  // The values' accessor first, then the times': the committed assets were written by GCC,
  // which evaluated the two arguments right to left (the order of function arguments is
  // unspecified, and clang's differs), so the order is spelled out.
  const int output = b.accessor_float(values, type, false);
  const int input = b.accessor_float(times, "SCALAR", true);
  return b.add_sampler(anim, input, output, interpolation);
}

D golden_at(const samples::SamplesFile& golden, std::size_t animation, std::size_t channel, double t) {
  for (const auto& a : golden.animations) {
    if (a.index != animation) continue;
    for (const auto& c : a.channels) {
      if (c.index != channel) continue;
      for (std::size_t i = 0; i < c.size(); ++i) {
        if (c.times[i] == t) {
          const auto v = c.value(i);
          return D(v.begin(), v.end());
        }
      }
    }
  }
  throw std::logic_error("variant excerpt: no golden sample at the requested time");
}

D eval(const D& times, const D& values, std::size_t components, reference::Interpolation interpolation,
       reference::ValueKind kind, double t, const reference::SampleOptions& options = {}) {
  return evaluate_track(times, values, components, interpolation, kind, t, options);
}
// An alternative computed by `f(t)`, at every golden time of one channel where it differs.
std::function<Excerpt(const samples::SamplesFile&)> everywhere(std::size_t animation, std::size_t channel,
                                                               std::function<D(double)> f) {
  return [=](const samples::SamplesFile& golden) { return differing_samples(golden, animation, channel, f); };
}

Case make(std::string id, std::vector<std::string> features, std::vector<std::string> clauses,
          std::string notes, std::function<void(GltfBuilder&)> build) {
  Case c;
  c.id = std::move(id);
  c.group = "divergence";
  c.features = std::move(features);
  c.clauses = std::move(clauses);
  c.notes = std::move(notes);
  c.build = std::move(build);
  return c;
}

}  // namespace

void add_divergence_cases(std::vector<Case>& cases) {
  // 2.1 STEP at an exact key.
  {
    Case c = make("divergence_step_exact_key", {"STEP", "translation", "exact key"}, {kStep, kExactKey},
                  "Survey 2.1: STEP keys at 0, 0.5, 1 s with x = 0, 1, 2. At t = 0.5 the spec gives x = 1 "
                  "(the key's own value); glTF Sample Viewer returns the previous key (x = 0).",
                  [](GltfBuilder& b) {
                    const int node = mesh_node(b);
                    const int anim = b.add_animation("step");
                    b.add_core_channel(anim, sampler(b, anim, {0, 0.5f, 1}, {0, 0, 0, 1, 0, 0, 2, 0, 0}, "VEC3", "STEP"),
                                       node, "translation");
                  });
    cases.push_back(std::move(c));
  }
  // 2.2 STEP edge off a 30 fps grid.
  {
    Case c = make("divergence_step_off_grid", {"STEP", "translation", "resampling"}, {kStep},
                  "Survey 2.2: a STEP key at 0.51 s, not on a 1/30 s grid. Godot bakes STEP at 30 fps, so its "
                  "switch moves to 0.5333 s; the golden switches at 0.51.",
                  [](GltfBuilder& b) {
                    const int node = mesh_node(b);
                    const int anim = b.add_animation("step");
                    b.add_core_channel(anim, sampler(b, anim, {0, 0.51f, 1}, {0, 0, 0, 1, 0, 0, 2, 0, 0}, "VEC3", "STEP"),
                                       node, "translation");
                  });
    c.variants.push_back({"bake-30fps",
                          "Godot's import bake: values sampled at k/30 s and held; at 0.51 s the value is still "
                          "the first key's; breaks glTF 2.0 Appendix C.1 (the key's value MUST be used as-is at "
                          "its timestamp) and C.2 (STEP: v_t = v_k for t_k < t_c < t_k+1).",
                          everywhere(0, 0, [](double t) {
                            const double baked = std::floor(t * 30) / 30;  // the bake sample held at t
                            return eval({0, static_cast<double>(0.51f), 1}, {0, 0, 0, 1, 0, 0, 2, 0, 0}, 3,
                                        reference::Interpolation::kStep, reference::ValueKind::kVector, baked);
                          }), false});
    cases.push_back(std::move(c));
  }
  // 2.3 and 2.5: CUBICSPLINE rotation before its first key inside a longer clip, and
  // tangents ignored by Godot. Keys 0.5 s (identity) and 1.5 s (90 deg about z),
  // out/in tangents (0, 0, 0.8, 0); a LINEAR translation channel spans the clip 0..2 s.
  {
    const Quat q0{0, 0, 0, 1};
    const Quat q1 = z_rot(90);
    const F tan = {0, 0, 0.8f, 0};
    const F zero = {0, 0, 0, 0};
    const F rot = cat({zero, qf(q0), tan, tan, qf(q1), zero});
    Case c = make(
        "divergence_cubic_before_first", {"CUBICSPLINE", "rotation", "clamp", "clip longer than channel"},
        {kCubic, kClamp},
        "Survey 2.3/2.5: CUBICSPLINE rotation keys at 0.5 and 1.5 s (identity, 90 degrees about z, tangents "
        "(0,0,0.8,0)) in a clip that starts at 0 (a LINEAR translation channel spans 0..2 s). Before 0.5 s "
        "the rotation is clamped to identity; at 0.75 s the Hermite gives z = 0.190809.",
        [rot](GltfBuilder& b) {
          const int node = mesh_node(b);
          const int anim = b.add_animation("clip");
          b.add_core_channel(anim, sampler(b, anim, {0, 2}, {0, 0, 0, 2, 0, 0}, "VEC3", "LINEAR"), node, "translation");
          b.add_core_channel(anim, sampler(b, anim, {0.5f, 1.5f}, rot, "VEC4", "CUBICSPLINE"), node, "rotation");
        });
    c.variants.push_back(
        {"babylon-inserted-start-key",
         "Babylon's loader inserts a key at the clip start copying the first key with its tangents, and "
         "one at the clip end copying the last; before 0.5 s and after 1.5 s it evaluates a Hermite "
         "between a key and its copy; breaks glTF 2.0 3.11 Animations: \"Before and after the provided "
         "input range, output MUST be clamped to the nearest end of the input range.\"",
         everywhere(0, 1, [rot](double t) {
           const F first(rot.begin(), rot.begin() + 12);
           const F last(rot.begin() + 12, rot.end());
           return eval({0, 0.5, 1.5, 2}, as_d(cat({first, rot, last})), 4, reference::Interpolation::kCubicSpline,
                       reference::ValueKind::kRotation, t);
         }), false});
    cases.push_back(std::move(c));
  }
  // 2.4 CUBICSPLINE weights after the channel's last key, inside a longer clip.
  {
    // keys 0 and 1 s; v = (0,0) and (1,0); b_1 = (1,1), a_2 = (0,1), b_2 = (2,0).
    const F w = {0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 2, 0};
    Case c = make(
        "divergence_cubic_after_last", {"CUBICSPLINE", "weights", "clamp", "clip longer than channel"},
        {kCubic, kClamp},
        "Survey 2.4: CUBICSPLINE weights (2 targets) with keys at 0 and 1 s in a clip that ends at 2 s (a "
        "LINEAR translation channel). After 1 s the weights hold (1, 0); the last out-tangent (2, 0) "
        "is not zero, which exposes engines that extrapolate with it.",
        [w](GltfBuilder& b) {
          const int node = mesh_node(b, 2);
          const int anim = b.add_animation("clip");
          b.add_core_channel(anim, sampler(b, anim, {0, 2}, {0, 0, 0, 2, 0, 0}, "VEC3", "LINEAR"), node, "translation");
          b.add_core_channel(anim, sampler(b, anim, {0, 1}, w, "SCALAR", "CUBICSPLINE"), node, "weights");
        });
    c.variants.push_back(
        {"babylon-inserted-end-key",
         "Babylon's loader appends a key at the clip end copying the last key with its tangents, then "
         "evaluates a Hermite between the two copies: (1.25, -0.125) at 1.5 s; breaks glTF 2.0 3.11 "
         "Animations: \"Before and after the provided input range, output MUST be clamped to the nearest "
         "end of the input range.\"",
         everywhere(0, 1, [w](double t) {
           const F last(w.begin() + 6, w.end());
           return eval({0, 1, 2}, as_d(cat({w, last})), 2, reference::Interpolation::kCubicSpline,
                       reference::ValueKind::kVector, t);
         }), false});
    cases.push_back(std::move(c));
  }
  // 2.6 / 2.8: shortest path and the sign at an exact key after a flip.
  {
    const F data = cat({qf(Quat{0, 0, 0, 1}), qf(-z_rot(90)), qf(-z_rot(135))});
    Case c = make(
        "divergence_quat_sign_exact_key", {"LINEAR", "rotation", "quaternion sign flip", "exact key"},
        {kSlerp, kExactKey},
        "Survey 2.6: keys identity, 90 and 135 degrees about z, the last two stored negated "
        "((0,0,-0.7071,-0.7071), ...). Between keys the shortest path turns forward; at the exact keys "
        "the stored (negative) quaternion is returned as-is. Compare rotations modulo sign: the sign is "
        "implementation-defined in practice.",
        [data](GltfBuilder& b) {
          const int node = mesh_node(b);
          const int anim = b.add_animation("flip");
          b.add_core_channel(anim, sampler(b, anim, {0, 1, 2}, data, "VEC4", "LINEAR"), node, "rotation");
        });
    c.variants.push_back({"slerp-at-key",
                          "glTF Sample Viewer evaluates slerp(..., 1) with the second key negated at an exact "
                          "key: the positive quaternion.",
                          [](const samples::SamplesFile& g) {
                            D v = golden_at(g, 0, 0, 1.0);
                            for (double& x : v) x = -x;
                            return Excerpt{{0, 0, 1.0, v}};
                          }});
    c.variants.push_back({"patched-keys",
                          "Magnum's importer flips keys so neighbours have dot >= 0 (then renormalizes): exact "
                          "keys come back with the patched sign.",
                          [data](const samples::SamplesFile&) {
                            D values = as_d(data);
                            reference::patch_shortest_path(values);
                            Excerpt out;
                            for (double t : {1.0, 2.0}) {
                              out.push_back({0, 0, t, eval({0, 1, 2}, values, 4, reference::Interpolation::kLinear,
                                                           reference::ValueKind::kRotation, t)});
                            }
                            return out;
                          }});
    cases.push_back(std::move(c));
  }
  // 2.7 Non-unit stored quaternions (AnimatedTriangle's 0.707 keys).
  {
    const F data = {0, 0, 0, 1, 0, 0, 0.707f, 0.707f, 0, 0, 1, 0, 0, 0, 0.707f, -0.707f, 0, 0, 0, 1};
    Case c = make(
        "divergence_non_unit_quat", {"LINEAR", "rotation", "non-unit quaternion"}, {kSlerp, kExactKey},
        "Survey 2.7: AnimatedTriangle's keys (0,0,0.707,0.707) etc. (|q|^2 = 0.99970). The golden "
        "interpolates the stored values without normalizing (exact keys as stored); engines that normalize "
        "inputs and output differ by up to 1.5e-4 in a component and, where consecutive keys differ in "
        "length, in the rotation too (a variant: the specs allow both readings).",
        [data](GltfBuilder& b) {
          const int node = mesh_node(b);
          const int anim = b.add_animation("spin");
          b.add_core_channel(anim, sampler(b, anim, {0, 0.25f, 0.5f, 0.75f, 1}, data, "VEC4", "LINEAR"), node,
                             "rotation");
        });
    cases.push_back(std::move(c));
  }
  // 2.8 "As-is" at an exact key inside a near-parallel segment.
  {
    const F data = cat({qf(-z_rot(89)), qf(-z_rot(90)), qf(-z_rot(90.5))});
    Case c = make(
        "divergence_exact_key_nlerp", {"LINEAR", "rotation", "exact key", "near-parallel quaternions"},
        {kExactKey, kSlerp},
        "Survey 2.8: keys 1 and 0.5 degrees apart (dot >= 0.9995, three.js' nlerp branch). At the exact key "
        "1 s the stored float32 value (-0.70710677...) must come back, not a renormalized one.",
        [data](GltfBuilder& b) {
          const int node = mesh_node(b);
          const int anim = b.add_animation("nlerp");
          b.add_core_channel(anim, sampler(b, anim, {0, 1, 2}, data, "VEC4", "LINEAR"), node, "rotation");
        });
    c.variants.push_back({"renormalized-key", "three.js: lerp + normalize at factor 1 gives the key normalized in double.",
                          [data](const samples::SamplesFile&) {
                            return Excerpt{{0, 0, 1.0, dq(reference::normalized(Quat{data[4], data[5], data[6], data[7]}))}};
                          }});
    cases.push_back(std::move(c));
  }
  // 2.9 Rotation through KHR_animation_pointer.
  {
    Case c = make(
        "divergence_pointer_rotation", {"LINEAR", "rotation", "KHR_animation_pointer"},
        {kPointer, kObjectModel, kSlerp},
        "Survey 2.9: /nodes/0/rotation through KHR_animation_pointer, identity to 120 degrees about z over 1 s: "
        "the same slerp as a core rotation channel, 60 degrees about z (0,0,0.5,0.866) at 0.5 s. glTF Sample "
        "Viewer lerps pointer channels without normalizing: as a rotation that is nlerp (a variant); the "
        "angle measure does not see the result's length (0.87 at 0.5 s).",
        [key = qf(z_rot(120))](GltfBuilder& b) {
          mesh_node(b);
          const int anim = b.add_animation("pointer");
          b.add_pointer_channel(anim, sampler(b, anim, {0, 1}, cat({F{0, 0, 0, 1}, key}), "VEC4", "LINEAR"),
                                "/nodes/0/rotation");
        });
    c.variants.push_back({"channel-skipped",
                          "three.js (core loader) and Magnum skip pointer channels: the node keeps its rest "
                          "rotation (0, 0, 0, 1); breaks KHR_animation_pointer for a client that claims it "
                          "(the channel targets the node's rotation).",
                          everywhere(0, 0, [](double) { return D{0, 0, 0, 1}; }), false});
    cases.push_back(std::move(c));
  }
  // 2.10 Babylon's metallic/roughness pointer mapping.
  cases.push_back(make(
      "divergence_pointer_metallic_roughness", {"LINEAR", "KHR_animation_pointer", "float"},
      {kPointer, kObjectModel},
      "Survey 2.10: metallicFactor 0 -> 1 and roughnessFactor 1 -> 0 animated separately. Babylon 9.28 maps "
      "metallicFactor onto roughness and rejects roughnessFactor.",
      [](GltfBuilder& b) {
        b.add("materials", Json::object({{"pbrMetallicRoughness",
                                          Json::object({{"metallicFactor", 0.0}, {"roughnessFactor", 1.0}})}}));
        mesh_node(b);
        const int anim = b.add_animation("pbr");
        b.add_pointer_channel(anim, sampler(b, anim, {0, 1}, {0, 1}, "SCALAR", "LINEAR"),
                              "/materials/0/pbrMetallicRoughness/metallicFactor");
        b.add_pointer_channel(anim, sampler(b, anim, {0, 2}, {1, 0}, "SCALAR", "LINEAR"),
                              "/materials/0/pbrMetallicRoughness/roughnessFactor");
      }));
  // 2.11 Loop boundary.
  {
    Case c = make(
        "divergence_loop_boundary", {"LINEAR", "STEP", "translation", "scale", "loop"},
        {kAnimations, kClamp},
        "Survey 2.11: a 2 s clip (x from 0 to 2, STEP scale). Sampled as one play-through, t = 2 "
        "gives the "
        "last key and t < 0 the first. Looping players differ at the boundary: t = duration wraps "
        "to the "
        "first key in three.js LoopRepeat, Babylon CYCLE and Sample Viewer 1.1.0 (variant "
        "loop-repeat), to "
        "the last key in Sample Viewer @7edd156a and in KHR_interactivity's normative wrap "
        "(variant "
        "loop-khr-interactivity); Filament gltfio wraps with fmod and clamps a time before the "
        "start (variant loop-fmod). The loop variants are listed on every case where they matter.",
        [](GltfBuilder& b) {
          const int node = mesh_node(b);
          const int anim = b.add_animation("loop");
          b.add_core_channel(anim, sampler(b, anim, {0, 1, 2}, {0, 0, 0, 1, 0, 0, 2, 0, 0}, "VEC3", "LINEAR"), node,
                             "translation");
          b.add_core_channel(anim, sampler(b, anim, {0, 1, 2}, {1, 1, 1, 2, 2, 2, 3, 3, 3}, "VEC3", "STEP"), node,
                             "scale");
        });
    cases.push_back(std::move(c));
  }
  // 2.13 Godot's 30 fps resampling of 24 fps keys.
  {
    F times;
    F values;
    for (int k = 0; k < 7; ++k) {
      times.push_back(static_cast<float>(k) / 24.0f);
      const F q = qf(reference::from_axis_angle({0, 1, 0}, 0.3 * k * k));
      values.insert(values.end(), q.begin(), q.end());
    }
    cases.push_back(make(
        "divergence_resample_24fps", {"LINEAR", "rotation", "resampling", "exact key"}, {kSlerp, kExactKey},
        "Survey 2.13: LINEAR rotation keys every 1/24 s with growing steps. Engines that resample at 30 fps "
        "(Godot's import bake) miss the exact keys (at 1/24 s they return a blend of the 1/30 and 2/30 bake "
        "samples).",
        [times, values](GltfBuilder& b) {
          const int node = mesh_node(b);
          const int anim = b.add_animation("baked");
          b.add_core_channel(anim, sampler(b, anim, times, values, "VEC4", "LINEAR"), node, "rotation");
        }));
  }
  // 2.14 Normalized SHORT -32768.
  {
    // Keys -60 degrees about x, 180 about x, 180 about (1, 1, 0): consecutive dots 0.5 and
    // 0.71, away from the 180-degree tie (edge_quat_half_turn_tie).
    const I raw = {-16384, 0, 0, 28378, -32768, 0, 0, 0, -23170, -23170, 0, 0};
    Case c = make(
        "divergence_short_min", {"LINEAR", "rotation", "weights", "normalized short"}, {kNormalizedInts, kSlerp},
        "Survey 2.14: rotation keys (-16384,0,0,28378), (-32768,0,0,0), (-23170,-23170,0,0) as normalized SHORT: -32768 "
        "decodes to exactly -1 (max(c/32767, -1)); plus weights with -32768. three.js decodes -1.0000305.",
        [raw](GltfBuilder& b) {
          const int node = mesh_node(b, 1);
          const int anim = b.add_animation("short");
          const int input = b.accessor_float({0, 1, 2}, "SCALAR", true);
          b.add_core_channel(
              anim,
              b.add_sampler(anim, input,
                            b.accessor_int(gltf::ComponentType::kShort, true, raw, "VEC4"),
                            "LINEAR"),
              node, "rotation");
          b.add_core_channel(anim,
                             b.add_sampler(anim, input,
                                           b.accessor_int(gltf::ComponentType::kShort, true,
                                                          I{32767, -32768, 0}, "SCALAR"),
                                           "LINEAR"),
                             node, "weights");
        });
    c.variants.push_back({"no-clamp",
                          "c / 32767 without the max(..., -1) clamp (three.js): -32768 decodes to -1.0000305; "
                          "breaks glTF 2.0 3.11 Animations' decoding table for normalized SHORT, "
                          "f = max(c / 32767.0, -1.0).",
                          [raw](const samples::SamplesFile& g) {
                            const auto unclamped = [](const I& ints) {
                              D out;
                              for (std::int64_t n : ints) out.push_back(static_cast<double>(n) / 32767.0);
                              return out;
                            };
                            const D times = {0, 1, 2};
                            Excerpt out = differing_samples(g, 0, 0, [&](double t) {
                              return eval(times, unclamped(raw), 4, reference::Interpolation::kLinear,
                                          reference::ValueKind::kRotation, t);
                            });
                            const Excerpt weights = differing_samples(g, 0, 1, [&](double t) {
                              return eval(times, unclamped(I{32767, -32768, 0}), 1, reference::Interpolation::kLinear,
                                          reference::ValueKind::kVector, t);
                            });
                            out.insert(out.end(), weights.begin(), weights.end());
                            return out;
                          }, false});
    cases.push_back(std::move(c));
  }
  // Near-parallel slerp fallback thresholds (survey table 1b).
  {
    const std::vector<Quat> q = {z_rot(0), z_rot(2.5), z_rot(2.65), z_rot(2.6500001)};
    const F data = cat({qf(q[0]), qf(q[1]), qf(q[2]), qf(q[3])});
    Case c = make(
        "divergence_near_parallel_fallback", {"LINEAR", "rotation", "near-parallel quaternions"}, {kSlerp},
        "Survey 1b: keys 2.5, 0.15 and 1e-7 degrees apart, i.e. dot between three.js' nlerp threshold (0.9995) and "
        "Babylon's lerp threshold (0.999999), above Babylon's, and at float32 resolution. The fallbacks "
        "(three.js' nlerp, Babylon's and Magnum's lerp without normalization) stay within the tolerance here, "
        "so they are not listed as variants; the case checks that no branch misbehaves.",
        [data](GltfBuilder& b) {
          const int node = mesh_node(b);
          const int anim = b.add_animation("near");
          b.add_core_channel(anim, sampler(b, anim, {0, 1, 2, 3}, data, "VEC4", "LINEAR"), node, "rotation");
        });
    cases.push_back(std::move(c));
  }
}

}  // namespace gltf_anim::suite

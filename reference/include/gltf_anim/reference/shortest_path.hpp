#pragma once
// Shortest-path data patching (Magnum's "let's fix the data instead", TinyGltfImporter
// option optimizeQuaternionShortestPath): walk the keys in order and negate every
// quaternion whose dot product with its (already patched) predecessor is negative.
// Afterwards every pair of neighbours has q_k . q_{k+1} >= 0, so the plain slerp and the
// shortest-path slerp agree on every segment, and the rotations are unchanged (q and -q
// are the same rotation). Patched data no longer returns the stored sign at exact keys,
// which is why the golden evaluator never patches implicitly: this is an explicit tool.
#include <gltf_anim/reference/interpolation.hpp>
#include <gltf_anim/reference/quaternion.hpp>

#include <cstddef>
#include <span>

namespace gltf_anim::reference {

// Patches quaternions in place; returns how many were negated.
std::size_t patch_shortest_path(std::span<Quat> quaternions);

// The same on accessor-style data: `values` holds keyframes of `interpolation`'s outputs
// per key, each a quaternion (x, y, z, w): 1 for LINEAR/STEP/SLERP, 3 for CUBICSPLINE
// and CUBICSLERP (in-tangent, value, out-tangent; interpolation.hpp). The test uses the
// value quaternions; a negated keyframe has all of its quaternions negated, so a Hermite
// or sqlerp segment yields the same rotation. values.size() must be a multiple of 4 x
// outputs per key (else std::invalid_argument). Returns how many keyframes were negated.
std::size_t patch_shortest_path(std::span<double> values,
                                Interpolation interpolation = Interpolation::kLinear);

}  // namespace gltf_anim::reference

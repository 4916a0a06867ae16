#pragma once
// Fitting a LINEAR track with a cubic one under a stated bound: LINEAR rotations to
// CUBICSLERP (EXT_animation_sqlerp, control points by the modified SQUAD for non-uniform
// times, reference/squad.hpp) and LINEAR tracks to CUBICSPLINE (glTF Appendix C Hermite).
// The cubic goes through a subset of the original keys, chosen greedily like a reducer:
// from each kept key a galloping search (1, 2, 4, ... keys ahead, then bisection) finds how
// far one cubic segment reaches within the bound, so the cost is O(n log n) segment
// evaluations, never quadratic.
//
// The bound: every component of a vector value within `max_error`, a rotation within
// `max_angle` radians of the original, measured as `gltf-anim reduce` measures its own
// results (reduction_error, reduce.hpp): with the reference evaluator on both tracks at
// every original key and at samples inside every original segment, plus the margin the
// curves can move between samples (certified for vector cubics; for CUBICSLERP estimated
// from the arcs its control points span). The final track is checked again segment by
// segment (a CUBICSLERP segment's control points depend on the keys kept beside it, which
// the greedy step only guesses): a segment that leaves the bound is split at its middle
// original key until every segment holds or a segment between two adjacent keys still
// leaves it, in which case the channel is not fitted and `why` says where. A cubic through
// every key still differs from the LINEAR track between keys (it rounds the corners), by
// about d^2 |f''| / 8 for keys d apart on a curve f: below that, nothing fits.
//
// Honesty about bytes: a float key of c components costs 4 + 4c bytes in LINEAR and
// 4 + 12c in a cubic mode (in-tangent, value, out-tangent): 20 B against 52 B for a
// rotation. A fit saves bytes only when it keeps at most (4 + 4c) / (4 + 12c) of the keys
// a bounded LINEAR reduction keeps (38.5% for rotations). FitResult reports that ratio,
// computed against bounded_linear_keys (what `reduce` keeps of the same track at the same
// bound), and the smoothness gained: the largest jump of the (angular) velocity at
// the keys, before (the LINEAR track) and after (the cubic).
#include <gltf_anim/reference/interpolation.hpp>
#include <gltf_anim/reference/track.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace gltf_anim::repair {

// What a fit may change: every component of a vector value by at most max_error, a
// rotation by at most max_angle radians.
struct FitBound {
  double max_error = 0.0;
  double max_angle = 0.0;
};

// The cubic mode a fit produces.
enum class FitMode {
  kCubicSlerp,  // EXT_animation_sqlerp CUBICSLERP, rotations only
  kCubicSpline  // glTF CUBICSPLINE
};

struct FitResult {
  // False when the track cannot be fitted (`why`: an invalid track, a mode the track
  // cannot take, or a segment between two adjacent keys that no cubic holds within the
  // bound); the numbers below the smoothness figures are then those of the attempt.
  bool fitted = false;
  std::string why;
  reference::Interpolation interpolation = reference::Interpolation::kCubicSpline;
  std::vector<double> times;      // the kept keys' times
  std::vector<double> values;     // per kept key: in-tangent, value, out-tangent
  std::vector<std::size_t> kept;  // indices of the kept keys in the original track
  std::size_t original_keys = 0;
  std::size_t linear_kept = 0;  // keys bounded_linear_keys keeps at the same bound
  // Largest error reached over all checked times: components (vectors) or radians.
  double max_error = 0.0;
  // Largest jump of the velocity at the inner keys (rad/s for rotations, the Euclidean
  // norm of the jump of d value/dt otherwise): the LINEAR track's, and the cubic's.
  double velocity_jump_before = 0.0;
  double velocity_jump_after = 0.0;
  std::size_t components = 1;

  // Bytes of one float key: 4 (time) + 4c (LINEAR) or 4 + 12c (cubic). With own_times
  // false, 4c or 12c: the channel's times are counted in another channel's bytes (a time
  // accessor several samplers share is counted once, TimeBytes), so a key costs this
  // channel its values alone.
  std::uint64_t linear_key_bytes(bool own_times = true) const {
    return (own_times ? 4 : 0) + 4 * components;
  }
  std::uint64_t cubic_key_bytes(bool own_times = true) const {
    return (own_times ? 4 : 0) + 12 * components;
  }
  // kept.size() / linear_kept, and the ratio at which the cubic costs as much as the
  // bounded LINEAR reduction ((4 + 4c) / (4 + 12c), or 1/3 without the time bytes).
  double keep_ratio() const;
  double break_even_ratio(bool own_times = true) const;
  // The fit's float key bytes are below the bounded LINEAR reduction's.
  bool saves_bytes() const {
    return kept.size() * cubic_key_bytes() < linear_kept * linear_key_bytes();
  }
};

// Fits `track`, a decoded LINEAR track: times strictly increasing, `components` values per
// key (a rotation: x, y, z, w unit quaternions, slerped on the shortest path). Never throws
// for bad data: a track that is not LINEAR, or an invalid one, is `fitted == false` with the
// reason (the reference evaluator's for an invalid track).
FitResult fit_track(const reference::TrackView& track, FitMode mode, const FitBound& bound);

// How many keys `gltf-anim reduce` keeps of the track as LINEAR at the same bound
// (reduce_track, reduce.hpp: float values, constant tracks collapsed): the figure a fit's
// key ratio is measured against.
std::size_t bounded_linear_keys(const reference::TrackView& track, const FitBound& bound);

// The largest jump of the one-sided velocities at the inner keys of a track sampled with
// the reference evaluator (any interpolation; values laid out as reference::TrackView
// says), by second-order one-sided differences at 1e-4 of the shorter neighbouring
// segment: rad/s for rotations (body angular velocity 2 log(q_k^-1 q(t)) / dt), the
// Euclidean norm of d value / dt otherwise. 0 for fewer than three keys.
double max_velocity_jump(std::span<const double> times, std::span<const double> values,
                         std::size_t components, bool rotation,
                         reference::Interpolation interpolation);

}  // namespace gltf_anim::repair

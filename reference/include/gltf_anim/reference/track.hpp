#pragma once
// Sampling an animation sampler's data: keyframe search and evaluation of one track.
//
// A track is what a glTF animation sampler holds once its accessors are decoded to
// doubles: keyframe times (the `input` accessor), values (the `output` accessor) and the
// interpolation. This header is what `gltf-anim sample` and the golden-sample generator
// call; it owns nothing and does no I/O.
//
// Rules (glTF 2.0 "Animations" and Appendix C; docs/REFERENCE.md):
//  * Exact key: a requested time equal to a keyframe time returns that keyframe's value
//    as stored, bit for bit, without interpolation (for CUBICSPLINE/CUBICSLERP the value
//    v_k, not a tangent). This holds for the first and last keys too.
//  * Clamping: before the first key the first value, after the last key the last value
//    ("output MUST be clamped to the nearest end of the input range"). Time 0 is not
//    special: a track whose first key is at 10 s returns v_1 for every t <= 10.
//  * A single-keyframe track returns its value for every time.
//  * Between keys t_k < t_c < t_{k+1}: t = (t_c - t_k) / (t_{k+1} - t_k) and the
//    interpolator of interpolate.hpp chosen by interpolation and value kind.
//  * A NaN time gives NaN in every output component.
#include <gltf_anim/reference/interpolate.hpp>
#include <gltf_anim/reference/interpolation.hpp>

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gltf_anim::reference {

enum class ValueKind {
  kVector,    // translation, scale, morph weights, any KHR_animation_pointer vector
  kRotation,  // unit quaternions (x, y, z, w); components must be 4
};

// A view of one track. `values` holds, per keyframe in order:
//   STEP, LINEAR, SLERP:       `components` numbers (the value);
//   CUBICSPLINE, CUBICSLERP:   3 x `components` numbers: in-tangent, value, out-tangent.
// For morph weights `components` is the number of morph targets, and the glTF layout
// "a_1..a_n, v_1..v_n, b_1..b_n" per keyframe (spec: "tangents and values are grouped
// within keyframes") is exactly the per-keyframe triple above.
struct TrackView {
  std::span<const double> times;
  std::span<const double> values;
  std::size_t components = 1;
  Interpolation interpolation = Interpolation::kLinear;
  ValueKind kind = ValueKind::kVector;

  std::size_t keyframe_count() const { return times.size(); }
  // Output elements per keyframe (interpolation.hpp: 3 for CUBICSPLINE and CUBICSLERP).
  std::size_t values_per_keyframe() const;
  // The stored value v_k (not a tangent) of keyframe k.
  std::span<const double> value(std::size_t k) const;
};

// One track that owns its keys: what the sampler decodes an accessor pair into, what the
// repair tools edit and write back. The same layout as TrackView's; view() is the track
// for this header's functions (valid while the track lives and its vectors keep their
// size).
struct Track {
  std::vector<double> times;
  std::vector<double> values;
  std::size_t components = 1;
  Interpolation interpolation = Interpolation::kLinear;
  ValueKind kind = ValueKind::kVector;

  TrackView view() const { return {times, values, components, interpolation, kind}; }
  std::size_t keyframe_count() const { return times.size(); }
  std::size_t values_per_keyframe() const { return view().values_per_keyframe(); }
  std::span<const double> value(std::size_t k) const { return view().value(k); }
};

// Options for the choices the drafts leave open (docs/REFERENCE.md). The defaults are the
// golden evaluator's.
struct SampleOptions {
  // LINEAR rotation. kShortestPath is Appendix C; kPlain reproduces engines without the
  // shortest-path rule (the "goes backwards" behaviour of Magnum's article).
  SlerpVariant linear_rotation = SlerpVariant::kShortestPath;
  // The three slerps inside sqlerp (CUBICSLERP); see sqlerp() for why kPlain.
  SlerpVariant sqlerp_inner = SlerpVariant::kPlain;
};

// Why the track cannot be sampled, or an empty string when it can. Checks, in order:
// components >= 1; at least the mode's minimum keyframes (interpolation.hpp: two for
// CUBICSPLINE and CUBICSLERP); rotation tracks have 4 components; a rotation-only mode
// (CUBICSLERP, SLERP) has a rotation track; value count equals keyframes x components x
// the mode's outputs per key; times finite and strictly increasing;
// values finite. Sampling functions assume a valid track (ozz's Validate()/Run() split).
std::string validate(const TrackView& track);

// KHR_interactivity's time wrap (Release Candidate, "Animation Control Operations"): the
// effective timestamp t in [0, T] of a requested timestamp r on a timeline infinite both
// ways, T the animation's latest key: s = ceil((r - T) / T) for r > 0, floor(r / T) for
// r <= 0, t = r - s T (0 when T = 0). A requested time equal to the duration (or to any
// positive multiple of it) gives the last key, not the first.
double interactivity_time(double r, double T);

// Binary search, O(log n): the largest k with times[k] <= t, or 0 when t < times[0]
// (or t is NaN). times must be sorted and non-empty. Branchless (conditional moves).
std::size_t find_keyframe(std::span<const double> times, double t);

// A cursor for sorted (or mostly sorted) batches of times: remembers the last segment.
// If t is in that segment or the next one, the search costs O(1); otherwise it falls back
// to find_keyframe's binary search, O(log n).
// A sorted batch of m times over n keys thus costs O(m + n) in total, amortized O(1) per
// sample when m >= n. Results are always identical to find_keyframe.
class KeyframeCursor {
 public:
  std::size_t find(std::span<const double> times, double t);
  std::size_t index() const { return k_; }
  void reset() { k_ = 0; }

 private:
  std::size_t k_ = 0;
};

// Samples `track` at time t into `out` (out.size() must equal track.components;
// otherwise std::invalid_argument). The first overload searches with find_keyframe, the
// second with the caller's cursor; both give bit-identical results.
void sample(const TrackView& track, double t, std::span<double> out,
            const SampleOptions& options = {});
void sample(const TrackView& track, double t, KeyframeCursor& cursor, std::span<double> out,
            const SampleOptions& options = {});

// Samples every time of `times` into `out` (times.size() x components doubles, row by
// row), using one cursor: amortized O(1) per sample for sorted times, O(log n) otherwise.
// Throws std::invalid_argument on a size mismatch.
void sample_batch(const TrackView& track, std::span<const double> times,
                  std::span<double> out, const SampleOptions& options = {});

}  // namespace gltf_anim::reference

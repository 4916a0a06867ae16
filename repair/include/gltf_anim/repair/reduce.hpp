#pragma once
// Keyframe reduction with a guaranteed error bound: the library behind `gltf-anim reduce`
// (docs/TOOLS.md, "reduce"). Pure maths on decoded tracks: no JSON, no I/O.
//
// The bound is checked against the ORIGINAL track with the reference evaluator
// (reference/track.hpp) over the whole time range:
//  * vectors (translation, scale, weights, pointer values): every component within E;
//  * rotations: the rotation angle between the reduced and the original value within A
//    (q and -q are the same rotation; values are normalized before they are compared).
// Where a reduced segment is checked (reduce.cpp, "Where the error is measured"):
//  * STEP and LINEAR vectors: at every original key. Both curves are piecewise constant
//    or piecewise linear with breaks only at original keys, so their difference reaches
//    its maximum at one of them: the keys are the exact maximum.
//  * CUBICSPLINE vectors: at every key and at uniform samples inside every original
//    segment, plus h^2/8 max|D''| (h the sample step, D the difference, whose second
//    derivative is linear inside an original segment and so bounded by its ends): a
//    certified upper bound. The step is chosen so that term is at most E/20.
//  * rotations (LINEAR slerp, CUBICSPLINE, the extensions' modes): at every key and at
//    uniform samples inside every original segment; the chord between two sampled curves
//    on the unit sphere grows between samples by at most (dR^2 + dO^2)/8, dR and dO the
//    arcs each curve travels in one step (exact for slerp, whose arcs have constant speed;
//    an estimate for normalized cubics). That margin is added, and the step is chosen so
//    it costs at most A/20.
// The reported error is that upper bound, so it is never below the true maximum.
//
// The greedy: from each kept key, the farthest key that can follow it is found by
// galloping (1, 2, 4, ... keys ahead until a check fails) then bisection, each check
// covering the whole run of removed keys; O(n log n) evaluations for n keys. The check
// is not monotone in the run's length, so the run found is the longest the search
// reaches, not always the longest possible, and the farthest reach is not always the
// fewest keys. Where it is affordable (n L^2 evaluations within a fixed budget, L twice
// the greedy's longest run), the fewest keys over runs of at most L are then searched
// exactly (reduce.cpp, fewest_keys); never more keys than the greedy's.
#include <gltf_anim/gltf/asset.hpp>
#include <gltf_anim/reference/track.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gltf_anim::repair {

// The error a reduced track may reach. Negative or not finite bounds are refused.
struct ReduceBounds {
  double max_error = 0.0;  // E: every component of a vector value
  double max_angle = 0.0;  // A: the rotation angle, radians
  // A defaults to 2E: for a small rotation by angle a, the quaternion components move by
  // about a/2, so a component error of E is a rotation of about 2E.
  static ReduceBounds from_max_error(double e, std::optional<double> angle = std::nullopt) {
    return {e, angle ? *angle : 2.0 * e};
  }
};

// glTF's normalized integer component types of animation outputs (glTF 2.0 3.11: rotation
// outputs may be BYTE or SHORT normalized, weights any of the four), decoded as
// reference/normalized.hpp says.
enum class Quantization : std::uint8_t {
  kNone,           // FLOAT (5126)
  kByte,           // BYTE (5120), normalized
  kUnsignedByte,   // UNSIGNED_BYTE (5121), normalized
  kShort,          // SHORT (5122), normalized
  kUnsignedShort,  // UNSIGNED_SHORT (5123), normalized
};
// glTF's componentType code (5126 for kNone) and the size of one component in bytes.
gltf::ComponentType component_type(Quantization q);
std::size_t component_size(Quantization q);
// The value `v` after encoding to `q` (round to nearest, clamped to the type's range)
// and decoding; `v` itself for kNone.
double quantized(double v, Quantization q);
// The integer that encodes `v` in `q` (what is written), for q != kNone.
std::int32_t encode_normalized(double v, Quantization q);

// One track to reduce. Tracks reduced together must have the same times.
struct TrackToReduce {
  reference::TrackView track;
  // glTF allows normalized integer outputs for this target (rotation, morph weights):
  // with ReduceOptions::quantize, the track may be quantized.
  bool may_quantize = false;
  // How the values are stored now: a value the reduction makes up (a collapsed track's)
  // is rounded to it, so what is checked is what will be written. Kept keys keep their
  // stored values exactly.
  Quantization stored = Quantization::kNone;
};

// What becomes of tracks that shared their times (reduce_tracks).
enum class SharedTimes : std::uint8_t {
  kKeep,      // reduced jointly: one key set, so they keep sharing one time accessor
  kSmallest,  // jointly, each alone, or some alone and the rest jointly: the fewest bytes
};

struct ReduceOptions {
  ReduceBounds bounds;
  SharedTimes shared_times = SharedTimes::kSmallest;
  // Collapse a track whose values stay within the bound of one value to that value.
  bool collapse_constant = true;
  // A collapsed LINEAR or STEP track keeps two keys (the first and the last time) rather
  // than one, so the track still ends where it did (an animation lasts until the latest
  // time of its channels). CUBICSPLINE always keeps two (its minimum).
  bool keep_time_range = false;
  // Quantize the outputs of tracks that may be (TrackToReduce::may_quantize): the smallest
  // normalized type whose rounding alone uses at most half the bound is chosen, then the
  // reduction checks the decoded quantized values against the original (the quantization
  // error is inside the bound). A track no type fits stays as it is stored.
  bool quantize = false;
};

// A reduced track: the same width, interpolation, kind and layout as the input
// (TrackView::values), every value decoded (a quantized track's values are the decoded
// integers).
struct ReducedTrack {
  reference::Track keys;
  // The original keys kept, increasing; empty for a collapsed track (its values are not
  // an original key's).
  std::vector<std::size_t> kept;
  bool collapsed = false;
  // The type chosen by ReduceOptions::quantize; kNone: the values stay as stored.
  Quantization quantization = Quantization::kNone;
  // The largest error reached over the whole time range (an upper bound, as above):
  // component units for vectors, radians for rotations.
  double max_error = 0.0;
};

struct ReduceResult {
  std::string error;  // why nothing was reduced (a bad bound, an invalid track); empty if ok
  // One per input track, in order.
  std::vector<ReducedTrack> tracks;
  // The tracks that are not collapsed have one key set (they can keep sharing their times).
  bool shared = true;
};

// Reduces tracks that share their times. Jointly, a key is removed only where every track
// that is not collapsed stays within its bound without it, so they keep one key set. With
// SharedTimes::kSmallest each track is also reduced alone, and three assignments are
// weighed by the bytes they store (each track's values at its keys plus each distinct key
// set's times once, 4 bytes a key): all jointly; each alone; and mixed, where a track whose
// values at its own keys plus their times take fewer bytes than its values at the joint
// keys goes alone and the others are reduced jointly again (a few rounds, as the joint set
// of fewer tracks can lose more keys). The smallest is kept; a tie keeps more sharing.
// Every track stays within its bound whichever is kept. Collapsed tracks (one value) are
// the same in all three.
ReduceResult reduce_tracks(std::span<const TrackToReduce> tracks, const ReduceOptions& options);

// One track alone.
ReduceResult reduce_track(const reference::TrackView& track, const ReduceOptions& options,
                          bool may_quantize = false);

// The largest error of `reduced` against `original` over the original's time range,
// measured as reduce() measures it (the certified bound above): component units for
// vectors, radians for rotations. Both must be valid tracks of the same kind and width.
double reduction_error(const reference::TrackView& original, const reference::TrackView& reduced);

// Whether `reduced` stays within `bound`, checked as reduce checks a candidate: the sample
// steps sized for `bound` (a few per original segment, where reduction_error takes the
// most every segment allows) and a stop as soon as the error passes it. A result at most
// `bound` is an upper bound of the error; one above it says only that the bound is left.
// The check for a search that tries many candidates (fit's greedy): linear in the
// original keys with a small factor.
double bounded_reduction_error(const reference::TrackView& original,
                               const reference::TrackView& reduced, double bound);

}  // namespace gltf_anim::repair

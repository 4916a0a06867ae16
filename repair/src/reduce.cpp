// Keyframe reduction with a guaranteed bound (reduce.hpp). The error of a candidate is
// always measured against the original track with the reference evaluator.
#include <gltf_anim/repair/reduce.hpp>

#include <gltf_anim/reference/interpolate.hpp>
#include <gltf_anim/reference/normalized.hpp>
#include <gltf_anim/reference/quaternion.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <set>

#include "greedy.hpp"

namespace gltf_anim::repair {
namespace {

using reference::Interpolation;
using reference::Quat;
using reference::TrackView;
using reference::ValueKind;

constexpr double kInf = std::numeric_limits<double>::infinity();

// Where the error is measured. The part of the bound that the sampling margin (the most
// the error can grow between two samples) may use: the sample step is chosen so the
// margin is at most this share of the bound; the margin is then added to what was
// measured, so the result stays an upper bound whatever the step.
constexpr double kMarginShare = 0.05;
// At most this many samples inside one original segment (a segment whose curves turn
// more than the step allows keeps a larger margin, which still counts in the error).
constexpr std::size_t kMaxSamplesPerSegment = 256;
// Normalized cubics do not travel at constant speed: at least this many samples inside
// every original segment of a cubic rotation.
constexpr std::size_t kMinCubicRotationSamples = 4;

bool is_cubic(Interpolation i) {
  return i == Interpolation::kCubicSpline || i == Interpolation::kCubicSlerp;
}

// The rotation angle (radians, [0, pi]) between two quaternions as rotations
// (reference::rotation_angle: stable for tiny angles, q and -q the same rotation). A zero
// or non-finite quaternion is no rotation here: pi, the largest error, whatever the other.
double rotation_error(const Quat& a, const Quat& b) {
  if (!(reference::length(a) > 0.0) || !(reference::length(b) > 0.0)) return std::numbers::pi;
  return std::min(reference::rotation_angle(a, b), std::numbers::pi);
}

// The arc (radians on the unit sphere of quaternions, half a rotation angle) between two
// nearby points of a curve.
double arc(const Quat& a, const Quat& b) { return 0.5 * rotation_error(a, b); }

Quat unit(const Quat& q) { return reference::normalized(q); }

// The second derivative in time of one component of a cubic Hermite segment (Appendix C;
// tangents per second, scaled by the duration d) at the segment's normalized time u.
double hermite_second(double v0, double b0, double v1, double a1, double u, double d) {
  return ((12.0 * u - 6.0) * v0 + d * (6.0 * u - 4.0) * b0 + (6.0 - 12.0 * u) * v1 +
          d * (6.0 * u - 2.0) * a1) /
         (d * d);
}

// The second derivative of component `i` of a vector track at time t, for t inside (or at
// an end of) the track's segment `s`; 0 outside the keys, for LINEAR and STEP pieces.
double second_derivative(const TrackView& track, std::size_t s, double t, std::size_t i) {
  if (track.interpolation != Interpolation::kCubicSpline || s + 1 >= track.times.size() ||
      t < track.times[s] || t > track.times[s + 1])
    return 0.0;
  const std::size_t c = track.components;
  const double* k0 = track.values.data() + 3 * c * s;  // a_s, v_s, b_s
  const double* k1 = k0 + 3 * c;                       // a_s+1, v_s+1, b_s+1
  const double d = track.times[s + 1] - track.times[s];
  const double u = (t - track.times[s]) / d;
  return hermite_second(k0[c + i], k0[2 * c + i], k1[c + i], k1[i], u, d);
}

// An estimate of the arc a rotation track's curve travels on segment s between times ta
// and tb: the arc between its ends, plus for cubics the tangents' reach (their curves
// can bulge beyond the chord of their ends).
double travelled_arc(const TrackView& track, std::size_t s, const Quat& at_a, const Quat& at_b,
                     double ta, double tb) {
  double result = arc(at_a, at_b);
  if (is_cubic(track.interpolation) && s + 1 < track.times.size()) {
    const double* k0 = track.values.data() + 12 * s;
    const double* k1 = k0 + 12;
    const Quat b = reference::load_quat(k0 + 8), a = reference::load_quat(k1);
    if (track.interpolation == Interpolation::kCubicSpline) {
      result += 0.5 * (tb - ta) * (reference::length(b) + reference::length(a));
    } else {  // CUBICSLERP: control quaternions
      const Quat v0 = reference::load_quat(k0 + 4), v1 = reference::load_quat(k1 + 4);
      result += arc(v0, b) + arc(a, v1);
    }
  }
  return result;
}

// An upper bound of |x''| over [ta, tb] (inside segment s) for the curve x = p / |p| a
// CUBICSPLINE rotation follows, p its component-wise Hermite; -1 for other tracks (their
// curves are slerps: constant-speed great circles, |x''| = (arc per second)^2).
// From x |p| = p: x'' = (p'' - 2 x' r' - x r'') / r with r = |p|, |x'| <= |p'| / r,
// |r'| <= |p'|, |r''| <= |p'|^2 / r + |p''|, so |x''| <= (2 |p''| + 3 |p'|^2 / r) / r.
// p'' is linear in t (its norm is largest at an end); |p'| <= |p'(ta)| + h max|p''|;
// r >= min(|p(ta)|, |p(tb)|) - h/2 max|p'|.
double normalized_cubic_curvature(const TrackView& track, std::size_t s, double ta, double tb) {
  if (track.interpolation != Interpolation::kCubicSpline || track.kind != ValueKind::kRotation ||
      s + 1 >= track.times.size() || ta < track.times[s] || tb > track.times[s + 1])
    return -1.0;
  const double* k0 = track.values.data() + 12 * s;
  const double* k1 = k0 + 12;
  const double d = track.times[s + 1] - track.times[s];
  struct Derivatives {
    double p = 0, p1 = 0, p2 = 0;  // |p|, |p'|, |p''|
  };
  auto at = [&](double t) {
    const double u = (t - track.times[s]) / d;
    const Quat p =
        reference::cubic_hermite(reference::load_quat(k0 + 4), reference::load_quat(k0 + 8),
                                 reference::load_quat(k1 + 4), reference::load_quat(k1), u, d);
    double p1 = 0, p2 = 0;
    for (std::size_t i = 0; i < 4; ++i) {
      const double v0 = k0[4 + i], b0 = k0[8 + i], v1 = k1[4 + i], a1 = k1[i];
      const double first = ((6 * u * u - 6 * u) * v0 + d * (3 * u * u - 4 * u + 1) * b0 +
                            (6 * u - 6 * u * u) * v1 + d * (3 * u * u - 2 * u) * a1) /
                           d;
      const double second = hermite_second(v0, b0, v1, a1, u, d);
      p1 += first * first;
      p2 += second * second;
    }
    return Derivatives{reference::length(p), std::sqrt(p1), std::sqrt(p2)};
  };
  const Derivatives a = at(ta), b = at(tb);
  const double h = tb - ta;
  const double p2 = std::max(a.p2, b.p2);
  const double p1 = std::min(a.p1, b.p1) + h * p2;
  const double r = std::min(a.p, b.p) - 0.5 * h * p1;
  if (!(r > 0.0)) return kInf;
  return (2.0 * p2 + 3.0 * p1 * p1 / r) / r;
}

// The readings of a LINEAR rotation the conformance suite allows (its "nlerp" variant):
// the reference's shortest-path slerp, and the normalized lerp (glTF 2.0 Appendix C.4:
// implementations MAY approximate), which follows the same great circle at another speed.
enum class Reading { kSlerp, kNlerp };

bool nlerp_applies(const TrackView& track) {
  return track.kind == ValueKind::kRotation && track.interpolation == Interpolation::kLinear &&
         track.components == 4;
}

// Samples `track` at t as `reading` plays it: nlerp (shortest path) for a LINEAR rotation
// read by nlerp, the reference evaluator otherwise.
void sample_as(const TrackView& track, double t, reference::KeyframeCursor& cursor,
               std::span<double> out, Reading reading) {
  if (reading != Reading::kNlerp || !nlerp_applies(track) || track.times.size() < 2 ||
      t <= track.times.front() || t >= track.times.back()) {
    reference::sample(track, t, cursor, out);
    return;
  }
  const std::size_t k = std::min(cursor.find(track.times, t), track.times.size() - 2);
  const double u = (t - track.times[k]) / (track.times[k + 1] - track.times[k]);
  const Quat q = reference::nlerp_shortest_path(unit(reference::load_quat(track.value(k).data())),
                                                unit(reference::load_quat(track.value(k + 1).data())), u);
  reference::store_quat(q, out.data());
}

// |x''| h^2 / (h / d)^2 bound of an nlerp segment (x = p / |p|, p the lerp of unit keys a
// and b, b on a's side, d the duration): p'' = 0, so (normalized_cubic_curvature's bound)
// |x''| <= 3 |p'|^2 / r^2 with |p'| = |b - a| / d and r >= |a + b| / 2 (the lerp's
// nearest point to 0 is its middle). Returns |b - a|^2 * 3 / r^2, to be scaled by
// (h / d)^2; infinity for opposite keys.
double nlerp_curvature_unit(const Quat& a, Quat b) {
  if (reference::dot(a, b) < 0.0) b = -b;
  const double chord = reference::length(b - a);
  const double r = 0.5 * reference::length(a + b);
  if (!(r > 0.0)) return kInf;
  return 3.0 * chord * chord / (r * r);
}

// Scratch buffers of one measurement, sized once per track.
struct Scratch {
  std::vector<double> r, o, r_prev, o_prev, bound;
  reference::KeyframeCursor original_cursor, candidate_cursor;
  explicit Scratch(std::size_t c) : r(c), o(c), r_prev(c), o_prev(c), bound(c) {}
};

// The largest error (an upper bound, reduce.hpp) of `candidate` against `original` over
// [t_first, t_last] of the original's keys. The candidate's keys must be original key
// times (or the candidate one constant key). Returns as soon as the error passes `limit`.
double measure_as(const TrackView& original, std::size_t first, std::size_t last,
                  const TrackView& candidate, double bound, double limit, Scratch& scratch,
                  Reading reading) {
  const std::size_t c = original.components;
  const bool rotation = original.kind == ValueKind::kRotation;
  const bool step = original.interpolation == Interpolation::kStep;
  double worst = 0.0;
  std::vector<double>& r = scratch.r;
  std::vector<double>& o = scratch.o;
  auto point_error = [&]() {
    if (rotation)
      return rotation_error(reference::load_quat(r.data()), reference::load_quat(o.data()));
    double e = 0.0;
    for (std::size_t i = 0; i < c; ++i) e = std::max(e, std::fabs(r[i] - o[i]));
    return e;
  };
  scratch.candidate_cursor.reset();
  scratch.original_cursor.reset();
  for (std::size_t k = first;; ++k) {
    const double t_k = original.times[k];
    sample_as(candidate, t_k, scratch.candidate_cursor, r, reading);
    const std::span<const double> v_k = original.value(k);
    std::copy(v_k.begin(), v_k.end(), o.begin());
    worst = std::max(worst, point_error());
    if (worst > limit || k == last) return worst;
    if (step) continue;  // both constant until the next original key
    const double t_k1 = original.times[k + 1];
    const std::size_t cs =
        std::min(reference::find_keyframe(candidate.times, t_k), candidate.times.size() - 1);
    std::size_t samples = 0;
    double margin_step = 0.0;         // rotations: margin computed per step below
    double arc_o = 0.0, arc_r = 0.0;  // rotations: the arcs each curve travels here
    if (rotation) {
      // Curves on the unit sphere: the chord between them grows between two samples by at
      // most (dR^2 + dO^2)/8, dR, dO the arcs each travels in the step; the angle is about
      // twice the chord, so steps of at most sqrt(2 share A) keep the margin under share A.
      std::vector<double>& r1 = scratch.r_prev;
      sample_as(candidate, t_k1, scratch.candidate_cursor, r1, reading);
      const Quat r_a = reference::load_quat(r.data()), r_b = reference::load_quat(r1.data());
      const Quat o_a = reference::load_quat(o.data());
      const Quat o_b = reference::load_quat(original.value(k + 1).data());
      arc_o = travelled_arc(original, k, o_a, o_b, t_k, t_k1);
      arc_r = travelled_arc(candidate, cs, r_a, r_b, t_k, t_k1);
      const double travel = std::max(arc_o, arc_r);
      const double max_step = std::sqrt(2.0 * kMarginShare * bound);
      samples =
          travel > 0.0
              ? static_cast<std::size_t>(std::min(std::ceil(travel / std::max(max_step, 1e-300)),
                                                  static_cast<double>(kMaxSamplesPerSegment)))
              : 0;
      if (is_cubic(original.interpolation) || is_cubic(candidate.interpolation))
        samples = std::max(samples, kMinCubicRotationSamples);
      samples = std::min(samples, kMaxSamplesPerSegment);
    } else if (original.interpolation == Interpolation::kLinear &&
               candidate.interpolation != Interpolation::kCubicSpline) {
      continue;  // linear against linear: the difference is largest at a key
    } else {
      // Vectors with a cubic: the difference D is a cubic on this segment, D'' linear, so
      // |D''| is largest at an end; |D| exceeds its samples by at most h^2/8 max|D''|.
      double m2 = 0.0;
      const double ends[2] = {t_k, t_k1};
      for (std::size_t i = 0; i < c; ++i) {
        double mi = 0.0;
        for (double t : ends)
          mi = std::max(mi, std::fabs(second_derivative(candidate, cs, t, i) -
                                      second_derivative(original, k, t, i)));
        scratch.bound[i] = mi;
        m2 = std::max(m2, mi);
      }
      if (m2 > 0.0) {
        const double d = t_k1 - t_k;
        const double want = d * std::sqrt(m2 / (8.0 * kMarginShare * std::max(bound, 1e-300)));
        samples = static_cast<std::size_t>(
            std::min(std::ceil(want), static_cast<double>(kMaxSamplesPerSegment + 1)));
        samples = samples > 0 ? samples - 1 : 0;  // interior samples: steps - 1
      }
      margin_step = 1.0;
    }
    // Samples at t_k + s h, s = 1 .. samples + 1 (the last is t_k1 itself, compared as a
    // key on the next round too), each step's bound from its two ends plus its margin.
    const double h = (t_k1 - t_k) / static_cast<double>(samples + 1);
    std::copy(r.begin(), r.end(), scratch.r_prev.begin());
    std::copy(o.begin(), o.end(), scratch.o_prev.begin());
    // Rotations: the previous step's normalized ends, each curve's sign kept continuous.
    Quat ra, oa;
    if (rotation) {
      ra = unit(reference::load_quat(r.data()));
      oa = unit(reference::load_quat(o.data()));
    }
    for (std::size_t s = 1; s <= samples + 1; ++s) {
      const double t = s == samples + 1 ? t_k1 : t_k + static_cast<double>(s) * h;
      sample_as(candidate, t, scratch.candidate_cursor, r, reading);
      sample_as(original, t, scratch.original_cursor, o, reading);
      double e;
      if (rotation) {
        Quat rb = unit(reference::load_quat(r.data()));
        Quat ob = unit(reference::load_quat(o.data()));
        // Each curve is continuous inside the segment, but a stored key may carry the other
        // sign (the same rotation): follow each curve's sign from the step's start.
        if (reference::dot(ra, rb) < 0.0) rb = -rb;
        if (reference::dot(oa, ob) < 0.0) ob = -ob;
        const double sign = reference::dot(ra, oa) < 0.0 ? -1.0 : 1.0;
        const double chord =
            std::max(reference::length(ra - sign * oa), reference::length(rb - sign * ob));
        // |x''| h^2 of each curve: a slerp's is the arc it travels per step squared (its
        // arc on this segment over the steps: constant speed); a cubic's from its
        // derivatives (normalized_cubic_curvature); CUBICSLERP's is estimated from the arc
        // between the step's ends, like a slerp's.
        const double t_a = t_k + static_cast<double>(s - 1) * h;
        const double steps = static_cast<double>(samples + 1);
        auto curvature_h2 = [&](const TrackView& track, std::size_t seg, double segment_arc,
                                const Quat& qa, const Quat& qb) {
          if (reading == Reading::kNlerp && nlerp_applies(track) &&
              seg + 1 < track.times.size()) {
            // Not constant speed: the bound of the segment's curvature (h / d)^2.
            const double d = track.times[seg + 1] - track.times[seg];
            const double x2 =
                nlerp_curvature_unit(unit(reference::load_quat(track.value(seg).data())),
                                     unit(reference::load_quat(track.value(seg + 1).data())));
            return x2 * (h / d) * (h / d);
          }
          if (track.interpolation == Interpolation::kLinear ||
              track.interpolation == Interpolation::kSlerp) {
            const double step_arc = segment_arc / steps;
            return step_arc * step_arc;
          }
          const double x2 = normalized_cubic_curvature(track, seg, t_a, t);
          if (x2 >= 0.0) return x2 * h * h;
          const double step_arc = arc(qa, qb);
          return step_arc * step_arc;
        };
        const double bound_chord = chord + (curvature_h2(candidate, cs, arc_r, ra, rb) +
                                            curvature_h2(original, k, arc_o, oa, ob)) /
                                               8.0;
        ra = rb;
        oa = ob;
        e = 4.0 * std::asin(std::min(1.0, 0.5 * bound_chord));
      } else {
        e = 0.0;
        for (std::size_t i = 0; i < c; ++i) {
          const double ends_max =
              std::max(std::fabs(r[i] - o[i]), std::fabs(scratch.r_prev[i] - scratch.o_prev[i]));
          e = std::max(e, ends_max + margin_step * h * h / 8.0 * scratch.bound[i]);
        }
      }
      worst = std::max(worst, e);
      if (worst > limit) return worst;
      std::copy(r.begin(), r.end(), scratch.r_prev.begin());
      std::copy(o.begin(), o.end(), scratch.o_prev.begin());
    }
  }
}

// The largest error under every reading the suite allows: slerp, and for LINEAR rotations
// nlerp too (both the original and the candidate played by it).
double measure(const TrackView& original, std::size_t first, std::size_t last,
               const TrackView& candidate, double bound, double limit, Scratch& scratch) {
  if (!nlerp_applies(original) || !nlerp_applies(candidate))
    return measure_as(original, first, last, candidate, bound, limit, scratch, Reading::kSlerp);
  // nlerp first: on long runs it is the reading that fails (it lags the slerp between keys
  // far apart), and its samples cost no trigonometry, so a failing candidate stops early.
  const double worst =
      measure_as(original, first, last, candidate, bound, limit, scratch, Reading::kNlerp);
  if (worst > limit) return worst;
  return std::max(worst,
                  measure_as(original, first, last, candidate, bound, limit, scratch, Reading::kSlerp));
}

double bound_of(const TrackView& track, const ReduceBounds& bounds) {
  return track.kind == ValueKind::kRotation ? bounds.max_angle : bounds.max_error;
}

// The types a track's outputs could be quantized to, smallest first (glTF 2.0 3.11:
// rotations BYTE or SHORT normalized; weights any of the four).
std::vector<Quantization> quantization_candidates(const TrackView& track) {
  bool unit_interval = true, signed_interval = true;
  for (double v : track.values) {
    unit_interval = unit_interval && v >= 0.0 && v <= 1.0;
    signed_interval = signed_interval && v >= -1.0 && v <= 1.0;
  }
  if (track.kind == ValueKind::kRotation) {
    if (!signed_interval) return {};
    return {Quantization::kByte, Quantization::kShort};
  }
  if (unit_interval) return {Quantization::kUnsignedByte, Quantization::kUnsignedShort};
  if (signed_interval) return {Quantization::kByte, Quantization::kShort};
  return {};
}

// A view of keys i and j of a track whose values are `values` (the track's layout).
TrackView pair_view(const TrackView& track, const std::vector<double>& values, std::size_t i,
                    std::size_t j, double (&times)[2], std::vector<double>& buffer) {
  const std::size_t stride = track.values_per_keyframe() * track.components;
  times[0] = track.times[i];
  times[1] = track.times[j];
  buffer.resize(2 * stride);
  std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(i * stride), stride, buffer.begin());
  std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(j * stride), stride,
              buffer.begin() + static_cast<std::ptrdiff_t>(stride));
  TrackView view = track;
  view.times = std::span<const double>(times, 2);
  view.values = buffer;
  return view;
}

// A reduced track of `original`'s width, interpolation and kind, with no keys yet.
ReducedTrack reduced_like(const TrackView& original) {
  ReducedTrack r;
  r.keys.components = original.components;
  r.keys.interpolation = original.interpolation;
  r.keys.kind = original.kind;
  return r;
}

// One track being reduced: its original, the values a kept key gets (quantized or not).
struct Work {
  TrackView original;
  double bound = 0.0;
  std::vector<double> values;  // the original's, or their quantized decoding
  Quantization quantization = Quantization::kNone;
  Quantization stored = Quantization::kNone;
  bool collapsed = false;
  ReducedTrack result;
  Scratch scratch;
  std::vector<double> buffer;
  Work(const TrackView& t, double b) : original(t), bound(b), scratch(t.components) {}

  // Bytes of the values of `keys` keys as they will be stored.
  std::size_t value_bytes(std::size_t keys) const {
    const Quantization as = quantization != Quantization::kNone ? quantization : stored;
    return keys * original.values_per_keyframe() * original.components * component_size(as);
  }

  // Whether keeping i and j with none between makes a segment whose direction the suite
  // leaves open: LINEAR rotation keys with a dot product of 0 (a half turn apart) are
  // played one way by a player that negates at dot < 0 and the other way by one that
  // negates at dot <= 0, pi rad apart between the two allowed players. |dot| up to
  // kOpenDot |a| |b| counts as 0 (float32 players may round the dot's sign either way).
  static constexpr double kOpenDot = 1e-6;
  bool direction_open(std::size_t i, std::size_t j) const {
    if (!nlerp_applies(original)) return false;
    const Quat a = reference::load_quat(values.data() + 4 * i);
    const Quat b = reference::load_quat(values.data() + 4 * j);
    return std::fabs(reference::dot(a, b)) <= kOpenDot * reference::length(a) * reference::length(b);
  }

  // The error of keeping i and j with none between (early exit past the bound).
  double run_error(std::size_t i, std::size_t j, double limit) {
    double times[2];
    const TrackView candidate = pair_view(original, values, i, j, times, buffer);
    return measure(original, i, j, candidate, bound, limit, scratch);
  }
};

// The greedy over the keys `tracks` share (n of them): from each kept key, the farthest
// key that can follow it for every track, found by galloping then bisection. Keeping i
// and i + 1 is the original segment (or its quantization, checked to fit by
// choose_quantization), so a run of one always fits and the search starts beyond it.
// The greedy's keys are not always the fewest: a run that fits need not contain runs that
// fit (between two other kept keys the curve is another one), so keeping the farthest key
// can cost keys later. Where affordable, the fewest keys are searched exactly among runs
// no longer than twice the greedy's longest: fewest[j], the fewest keys that cover keys
// 0..j, is 1 + the least fewest[i] over the i in that window whose run to j fits (a run
// of one always does, as in the greedy). That is n L^2 evaluations at most (L the window)
// per track, so it runs only while n L^2 times the tracks is within a fixed budget; it is
// never worse than the greedy, whose runs are all in the window, and a tie keeps the
// greedy's keys.
constexpr double kExactSearchBudget = 1 << 22;

template <class Fits>
std::vector<std::size_t> fewest_keys(std::size_t n, std::vector<std::size_t> greedy_kept,
                                     std::size_t tracks, Fits&& fits) {
  std::size_t longest = 1;
  for (std::size_t k = 0; k + 1 < greedy_kept.size(); ++k)
    longest = std::max(longest, greedy_kept[k + 1] - greedy_kept[k]);
  const std::size_t window = std::min(n - 1, 2 * longest);
  const double cost = static_cast<double>(n) * static_cast<double>(window) *
                      static_cast<double>(window) * static_cast<double>(tracks);
  if (greedy_kept.size() <= 2 || cost > kExactSearchBudget) return greedy_kept;
  constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  std::vector<std::size_t> fewest(n, kNone), from(n, 0);
  fewest[0] = 1;
  for (std::size_t j = 1; j < n; ++j) {
    for (std::size_t i = j > window ? j - window : 0; i < j; ++i) {
      if (fewest[i] == kNone || fewest[i] + 1 >= fewest[j]) continue;
      if (i + 1 == j || fits(i, j)) {
        fewest[j] = fewest[i] + 1;
        from[j] = i;
      }
    }
  }
  if (fewest[n - 1] >= greedy_kept.size()) return greedy_kept;
  std::vector<std::size_t> kept(fewest[n - 1]);
  for (std::size_t j = n - 1, k = kept.size(); k-- > 0; j = from[j]) kept[k] = j;
  return kept;
}

std::vector<std::size_t> greedy(std::span<Work* const> tracks, std::size_t n) {
  if (tracks.empty()) return {0};
  auto fits = [&](std::size_t i, std::size_t j) {
    for (Work* w : tracks)
      if (w->direction_open(i, j) || !(w->run_error(i, j, w->bound) <= w->bound)) return false;
    return true;
  };
  return fewest_keys(n,
                     greedy_keys(n, [&](std::size_t i, std::size_t j,
                                        const std::vector<std::size_t>&) { return fits(i, j); }),
                     tracks.size(), fits);
}

// The error of the whole track rebuilt from `values` (no key removed): whether a
// quantization alone fits.
double unreduced_error(Work& w, double limit) {
  double worst = 0.0;
  for (std::size_t k = 0; k + 1 < w.original.times.size(); ++k) {
    worst = std::max(worst, w.run_error(k, k + 1, limit));
    if (worst > limit) break;
  }
  if (w.original.times.size() == 1) {
    TrackView single = w.original;
    single.values = w.values;
    worst = measure(w.original, 0, 0, single, w.bound, limit, w.scratch);
  }
  return worst;
}

void choose_quantization(Work& w) {
  for (Quantization q : quantization_candidates(w.original)) {
    w.values.resize(w.original.values.size());
    std::transform(w.original.values.begin(), w.original.values.end(), w.values.begin(),
                   [q](double v) { return quantized(v, q); });
    // Half the bound at most for the rounding, so the reduction keeps the other half.
    if (unreduced_error(w, 0.5 * w.bound) <= 0.5 * w.bound) {
      w.quantization = q;
      return;
    }
  }
  w.values.assign(w.original.values.begin(), w.original.values.end());
  w.quantization = Quantization::kNone;
}

// The one value a constant track could collapse to: per component the middle of the
// values' range (a rotation: the mean of the keys aligned to the first's sign,
// normalized), rounded as it will be written (float32, or the normalized type chosen or
// already stored).
std::vector<double> collapse_value(const Work& w) {
  const TrackView& t = w.original;
  const std::size_t c = t.components, n = t.times.size();
  std::vector<double> value(c);
  if (t.kind == ValueKind::kRotation) {
    const Quat q0 = reference::load_quat(t.value(0).data());
    Quat sum{0, 0, 0, 0};
    for (std::size_t k = 0; k < n; ++k) {
      const Quat q = reference::load_quat(t.value(k).data());
      sum = sum + (reference::dot(q0, q) < 0.0 ? -q : q);
    }
    reference::store_quat(unit(sum), value.data());
  } else {
    // A cubic can leave the range of its keys between them: its samples count too (the
    // check below decides; this only picks the value to try).
    std::vector<double> lo(c, kInf), hi(c, -kInf), at(c);
    auto widen = [&](std::span<const double> v) {
      for (std::size_t i = 0; i < c; ++i) {
        lo[i] = std::min(lo[i], v[i]);
        hi[i] = std::max(hi[i], v[i]);
      }
    };
    reference::KeyframeCursor cursor;
    for (std::size_t k = 0; k < n; ++k) {
      widen(t.value(k));
      if (!is_cubic(t.interpolation) || k + 1 == n) continue;
      constexpr int kSamples = 9;
      for (int s = 1; s <= kSamples; ++s) {
        reference::sample(t, t.times[k] + (t.times[k + 1] - t.times[k]) * s / (kSamples + 1),
                          cursor, at);
        widen(at);
      }
    }
    for (std::size_t i = 0; i < c; ++i) value[i] = 0.5 * lo[i] + 0.5 * hi[i];
  }
  const Quantization as = w.quantization != Quantization::kNone ? w.quantization : w.stored;
  for (double& v : value)
    v = as == Quantization::kNone ? static_cast<double>(static_cast<float>(v)) : quantized(v, as);
  return value;
}

// Collapses the track to one value when that stays within the bound everywhere.
void try_collapse(Work& w, bool keep_time_range) {
  const TrackView& t = w.original;
  const std::size_t n = t.times.size(), c = t.components;
  if (n < 2) return;
  const std::vector<double> value = collapse_value(w);
  const bool cubic = is_cubic(t.interpolation);
  if (cubic && t.interpolation == Interpolation::kCubicSlerp) return;  // tangents are rotations
  ReducedTrack r = reduced_like(t);
  if (cubic || keep_time_range) {
    r.keys.times = {t.times.front(), t.times.back()};
  } else {
    r.keys.times = {t.times.front()};
  }
  for (std::size_t k = 0; k < r.keys.times.size(); ++k) {
    if (cubic) r.keys.values.insert(r.keys.values.end(), c, 0.0);  // in-tangent
    r.keys.values.insert(r.keys.values.end(), value.begin(), value.end());
    if (cubic) r.keys.values.insert(r.keys.values.end(), c, 0.0);  // out-tangent
  }
  const double e = measure(t, 0, n - 1, r.keys.view(), w.bound, w.bound, w.scratch);
  if (!(e <= w.bound)) return;
  r.collapsed = true;
  r.quantization = w.quantization;
  r.max_error = e;
  w.collapsed = true;
  w.result = std::move(r);
}

std::string check_bound(double b, const char* name) {
  if (!std::isfinite(b) || b < 0.0)
    return std::string(name) + " must be a finite number >= 0, got " + std::to_string(b);
  return {};
}

}  // namespace

gltf::ComponentType component_type(Quantization q) {
  switch (q) {
    case Quantization::kByte: return gltf::ComponentType::kByte;
    case Quantization::kUnsignedByte: return gltf::ComponentType::kUnsignedByte;
    case Quantization::kShort: return gltf::ComponentType::kShort;
    case Quantization::kUnsignedShort: return gltf::ComponentType::kUnsignedShort;
    case Quantization::kNone: break;
  }
  return gltf::ComponentType::kFloat;
}

std::size_t component_size(Quantization q) { return gltf::component_size(component_type(q)); }

std::int32_t encode_normalized(double v, Quantization q) {
  auto encode = [v](double scale, double lo, double hi) {
    return static_cast<std::int32_t>(std::clamp(std::round(v * scale), lo, hi));
  };
  switch (q) {
    case Quantization::kByte: return encode(127.0, -127.0, 127.0);
    case Quantization::kUnsignedByte: return encode(255.0, 0.0, 255.0);
    case Quantization::kShort: return encode(32767.0, -32767.0, 32767.0);
    case Quantization::kUnsignedShort: return encode(65535.0, 0.0, 65535.0);
    case Quantization::kNone: break;
  }
  return 0;
}

double quantized(double v, Quantization q) {
  const std::int32_t c = encode_normalized(v, q);
  switch (q) {
    case Quantization::kByte: return reference::decode_normalized(static_cast<std::int8_t>(c));
    case Quantization::kUnsignedByte:
      return reference::decode_normalized(static_cast<std::uint8_t>(c));
    case Quantization::kShort: return reference::decode_normalized(static_cast<std::int16_t>(c));
    case Quantization::kUnsignedShort:
      return reference::decode_normalized(static_cast<std::uint16_t>(c));
    case Quantization::kNone: break;
  }
  return v;
}

ReduceResult reduce_tracks(std::span<const TrackToReduce> tracks, const ReduceOptions& options) {
  ReduceResult result;
  if (std::string e = check_bound(options.bounds.max_error, "max error"); !e.empty()) {
    result.error = e;
    return result;
  }
  if (std::string e = check_bound(options.bounds.max_angle, "max angle"); !e.empty()) {
    result.error = e;
    return result;
  }
  if (tracks.empty()) return result;
  const std::span<const double> times = tracks.front().track.times;
  for (std::size_t i = 0; i < tracks.size(); ++i) {
    if (std::string e = reference::validate(tracks[i].track); !e.empty()) {
      result.error = "track " + std::to_string(i) + ": " + e;
      return result;
    }
    const std::span<const double> other = tracks[i].track.times;
    if (!std::equal(times.begin(), times.end(), other.begin(), other.end())) {
      result.error = "track " + std::to_string(i) + " does not have the times of track 0";
      return result;
    }
  }
  const std::size_t n = times.size();
  std::vector<Work> work;
  work.reserve(tracks.size());
  for (const TrackToReduce& t : tracks) {
    Work& w = work.emplace_back(t.track, bound_of(t.track, options.bounds));
    w.stored = t.stored;
    if (options.quantize && t.may_quantize) {
      choose_quantization(w);
    } else {
      w.values.assign(t.track.values.begin(), t.track.values.end());
    }
    if (options.collapse_constant) try_collapse(w, options.keep_time_range);
  }
  std::vector<Work*> active;
  for (Work& w : work)
    if (!w.collapsed) active.push_back(&w);

  // Jointly: one key set for every active track, their times stored once.
  const std::vector<std::size_t> joint = greedy(active, n);
  std::vector<const std::vector<std::size_t>*> kept(work.size(), &joint);
  // With SharedTimes::kSmallest, the key sets that store fewest bytes (reduce.hpp): all
  // jointly, each alone, or each alone that gains by it and the rest jointly.
  std::vector<std::vector<std::size_t>> alone, rest;
  result.shared = true;
  if (active.size() > 1 && options.shared_times == SharedTimes::kSmallest) {
    alone.reserve(active.size());
    for (Work* w : active) alone.push_back(greedy(std::span<Work* const>(&w, 1), n));
    // Bytes of an assignment: each track's values at its keys, each distinct key set's
    // times once (4 bytes a key).
    auto bytes = [&](const std::vector<const std::vector<std::size_t>*>& sets) {
      std::size_t total = 0;
      std::set<const std::vector<std::size_t>*,
               bool (*)(const std::vector<std::size_t>*, const std::vector<std::size_t>*)>
          distinct([](const std::vector<std::size_t>* x, const std::vector<std::size_t>* y) {
            return *x < *y;
          });
      for (std::size_t a = 0; a < active.size(); ++a) {
        total += active[a]->value_bytes(sets[a]->size());
        if (distinct.insert(sets[a]).second) total += 4 * sets[a]->size();
      }
      return std::pair{total, distinct.size()};
    };
    // A track leaves the joint set when its values at its own keys plus their times take
    // fewer bytes than its values at the joint keys; the rest are reduced jointly again
    // (a smaller set may let them lose more keys), a few rounds.
    constexpr int kRounds = 4;
    rest.reserve(kRounds);
    std::vector<bool> leaves(active.size(), false);
    const std::vector<std::size_t>* mixed_joint = &joint;
    for (int round = 0; round < kRounds; ++round) {
      bool moved = false;
      for (std::size_t a = 0; a < active.size(); ++a) {
        const Work& w = *active[a];
        if (leaves[a]) continue;
        const std::size_t own = w.value_bytes(alone[a].size()) + 4 * alone[a].size();
        if (own < w.value_bytes(mixed_joint->size())) leaves[a] = moved = true;
      }
      if (!moved) break;
      std::vector<Work*> staying;
      for (std::size_t a = 0; a < active.size(); ++a)
        if (!leaves[a]) staying.push_back(active[a]);
      if (staying.empty()) break;
      rest.push_back(greedy(staying, n));
      mixed_joint = &rest.back();
    }
    std::vector<const std::vector<std::size_t>*> all_joint(active.size(), &joint), each_alone,
        mixed;
    for (std::size_t a = 0; a < active.size(); ++a) {
      each_alone.push_back(&alone[a]);
      mixed.push_back(leaves[a] ? &alone[a] : mixed_joint);
    }
    // In this order, a later one only when it is strictly smaller (a tie keeps sharing).
    std::vector<const std::vector<std::size_t>*>* best = &all_joint;
    std::pair<std::size_t, std::size_t> best_bytes = bytes(all_joint);
    for (auto* candidate : {&mixed, &each_alone}) {
      const auto b = bytes(*candidate);
      if (b.first < best_bytes.first) {
        best = candidate;
        best_bytes = b;
      }
    }
    result.shared = best_bytes.second == 1;
    std::size_t a = 0;
    for (std::size_t t = 0; t < work.size(); ++t)
      if (!work[t].collapsed) kept[t] = (*best)[a++];
  }

  result.tracks.reserve(work.size());
  for (std::size_t t = 0; t < work.size(); ++t) {
    Work& w = work[t];
    if (w.collapsed) {
      result.tracks.push_back(std::move(w.result));
      continue;
    }
    const std::vector<std::size_t>& keys = *kept[t];
    ReducedTrack r = reduced_like(w.original);
    const std::size_t stride = w.original.values_per_keyframe() * w.original.components;
    r.kept = keys;
    r.quantization = w.quantization;
    r.keys.times.reserve(keys.size());
    r.keys.values.reserve(keys.size() * stride);
    for (std::size_t k : keys) {
      r.keys.times.push_back(times[k]);
      const auto from = w.values.begin() + static_cast<std::ptrdiff_t>(k * stride);
      r.keys.values.insert(r.keys.values.end(), from, from + static_cast<std::ptrdiff_t>(stride));
    }
    // Kept LINEAR rotation keys that were far apart may face opposite hemispheres;
    // negating such a key (q and -q are one rotation) changes nothing for the spec's
    // shortest-path slerp, which negates there itself, and keeps the output free of
    // LINT_ROTATION_NEGATIVE_DOT, which the input may not have had (the same rule as
    // fix's shortest-path repair: flip only where the dot is negative).
    if (w.original.kind == ValueKind::kRotation &&
        w.original.interpolation == Interpolation::kLinear && w.original.components == 4) {
      for (std::size_t k = 1; k < keys.size(); ++k) {
        double* q = r.keys.values.data() + 4 * k;
        const double* p = q - 4;
        if (p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3] < 0.0)
          for (std::size_t i = 0; i < 4; ++i) q[i] = -q[i];
      }
    }
    // The error reached, measured once more on the final key set (no early exit).
    for (std::size_t s = 0; s + 1 < keys.size(); ++s) {
      const bool exact = keys[s + 1] == keys[s] + 1 && w.quantization == Quantization::kNone;
      if (!exact) r.max_error = std::max(r.max_error, w.run_error(keys[s], keys[s + 1], kInf));
    }
    if (keys.size() == 1 && w.quantization != Quantization::kNone)
      r.max_error = unreduced_error(w, kInf);
    result.tracks.push_back(std::move(r));
  }
  return result;
}

ReduceResult reduce_track(const TrackView& track, const ReduceOptions& options, bool may_quantize) {
  const TrackToReduce one{track, may_quantize};
  return reduce_tracks(std::span<const TrackToReduce>(&one, 1), options);
}

namespace {

// reduction_error's body: the sample steps sized for `bound`, stopping past `limit`.
double checked_error(const TrackView& original, const TrackView& reduced, double bound,
                     double limit) {
  if (!reference::validate(original).empty() || !reference::validate(reduced).empty() ||
      original.components != reduced.components || original.kind != reduced.kind)
    return kInf;
  // The reduced keys must be original key times (what reduce() produces).
  std::size_t k = 0;
  for (double t : reduced.times) {
    while (k < original.times.size() && original.times[k] < t) ++k;
    if (k == original.times.size() || original.times[k] != t) return kInf;
  }
  Scratch scratch(original.components);
  return measure(original, 0, original.times.size() - 1, reduced, bound, limit, scratch);
}

}  // namespace

double reduction_error(const TrackView& original, const TrackView& reduced) {
  // No early exit; margins sized for the tightest bound.
  return checked_error(original, reduced, 0.0, kInf);
}

double bounded_reduction_error(const TrackView& original, const TrackView& reduced, double bound) {
  if (!(bound >= 0.0)) return kInf;
  return checked_error(original, reduced, bound, bound);
}

}  // namespace gltf_anim::repair

// Named divergences computed from a channel's keys (readings.hpp).
#include <gltf_anim/compare/readings.hpp>

#include <gltf_anim/reference/interpolate.hpp>
#include <gltf_anim/reference/quaternion.hpp>
#include <gltf_anim/reference/track.hpp>

#include <algorithm>
#include <array>
#include <cmath>

namespace gltf_anim::compare {
namespace {

using reference::Interpolation;
using reference::TrackView;
using reference::ValueKind;

bool is_rotation(const TrackView& k) { return k.kind == ValueKind::kRotation; }

// Three outputs per key for CUBICSPLINE only: a CUBICSLERP track (three too) is then never well
// formed here, so no reading applies to it (none is defined for sqlerp).
std::size_t per_key(const TrackView& k) { return k.interpolation == Interpolation::kCubicSpline ? 3 : 1; }

// Element e (0 in-tangent, 1 value, 2 out-tangent; 0 without tangents) of key i, component c.
double at(const TrackView& k, std::size_t i, std::size_t e, std::size_t c) {
  return k.values[(i * per_key(k) + e) * k.components + c];
}

bool well_formed(const TrackView& k) {
  return !k.times.empty() && k.components > 0 &&
         k.values.size() == k.times.size() * per_key(k) * k.components;
}

// The segment holding t: k with t_k <= t < t_k+1 and the fraction s; clamped
// before the first key (k = 0, s = 0) and after the last (k = n - 2, s = 1).
struct Segment {
  std::size_t k = 0;
  double s = 0;
};
Segment segment_of(std::span<const double> times, double t) {
  const std::size_t n = times.size();
  if (n < 2 || !(t > times.front())) return {0, 0};
  if (t >= times.back()) return {n - 2, 1};
  const std::size_t k = reference::find_keyframe(times, t);
  const double d = times[k + 1] - times[k];
  return {k, d > 0 ? (t - times[k]) / d : 0};
}

// The cubic Hermite of glTF's Appendix C.5 basis with the slopes m0, m1 given
// per unit of s (so already multiplied by whatever duration the reading uses).
double hermite(double p0, double m0, double p1, double m1, double s) {
  const double s2 = s * s, s3 = s2 * s;
  return (2 * s3 - 3 * s2 + 1) * p0 + (s3 - 2 * s2 + s) * m0 + (-2 * s3 + 3 * s2) * p1 +
         (s3 - s2) * m1;
}

void normalize_if_rotation(const TrackView& k, std::vector<double>& v) {
  if (!is_rotation(k) || v.size() != 4) return;
  const double len = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]);
  if (len > 0)
    for (double& x : v) x /= len;
}

// The spec's value (the reference evaluator) at t.
std::vector<double> spec_value(const TrackView& k, double t) {
  std::vector<double> out(k.components);
  reference::sample(k, t, out);
  return out;
}

// ---- cubic-bezier-unscaled-tangents
bool cubic_vector(const TrackView& k, bool /*weights*/) {
  return well_formed(k) && k.interpolation == Interpolation::kCubicSpline && !is_rotation(k) && k.times.size() >= 2;
}
std::vector<double> bezier_unscaled(const TrackView& k, double t) {
  const Segment g = segment_of(k.times, t);
  std::vector<double> out(k.components);
  for (std::size_t c = 0; c < k.components; ++c) {
    // Bezier P0 = v_k, P1 = v_k + b_k / 3, P2 = v_k+1 - a_k+1 / 3, P3 = v_k+1 is the
    // Hermite with slopes 3 (P1 - P0) = b_k and 3 (P3 - P2) = a_k+1: no t_d.
    out[c] = hermite(at(k, g.k, 1, c), at(k, g.k, 2, c), at(k, g.k + 1, 1, c), at(k, g.k + 1, 0, c), g.s);
  }
  return out;
}

// ---- weights-clamped-0-1
bool weights_any(const TrackView& k, bool weights) { return well_formed(k) && weights; }
std::vector<double> weights_clamped(const TrackView& k, double t) {
  auto v = spec_value(k, t);
  for (double& x : v) x = std::clamp(x, 0.0, 1.0);
  return v;
}

// ---- blender-auto-handles: per component, the C2 cubic spline through the
// values with slope 0 at the first and last key and at every local extreme
// (those split the keys into runs solved on their own, tridiagonal).
bool cubic_any(const TrackView& k, bool /*weights*/) {
  return well_formed(k) && k.interpolation == Interpolation::kCubicSpline && k.times.size() >= 2 &&
         (!is_rotation(k) || k.components == 4);
}
std::vector<double> auto_handle_slopes(const TrackView& k, std::size_t c) {
  const std::size_t n = k.times.size();
  std::vector<double> v(n), m(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) v[i] = at(k, i, 1, c);
  std::vector<bool> fixed(n, false);
  fixed[0] = fixed[n - 1] = true;
  for (std::size_t i = 1; i + 1 < n; ++i) fixed[i] = (v[i] - v[i - 1]) * (v[i + 1] - v[i]) <= 0;
  std::size_t i = 0;
  while (i + 1 < n) {
    std::size_t j = i + 1;  // the run of free keys i+1 .. j-1 between fixed keys i and j
    while (!fixed[j]) ++j;
    const std::size_t free = j - i - 1;
    if (free > 0) {
      // Row r (key q = i + 1 + r): D_q m_{q-1} + 2 (D_{q-1} + D_q) m_q + D_{q-1} m_{q+1}
      //   = 3 (D_q d_{q-1} + D_{q-1} d_q), D the durations, d the chord slopes; m = 0 at i, j.
      std::vector<double> a(free), b(free), cc(free), r(free);
      for (std::size_t row = 0; row < free; ++row) {
        const std::size_t q = i + 1 + row;
        const double d0 = k.times[q] - k.times[q - 1], d1 = k.times[q + 1] - k.times[q];
        const double s0 = (v[q] - v[q - 1]) / d0, s1 = (v[q + 1] - v[q]) / d1;
        a[row] = d1;
        b[row] = 2 * (d0 + d1);
        cc[row] = d0;
        r[row] = 3 * (d1 * s0 + d0 * s1);
      }
      for (std::size_t row = 1; row < free; ++row) {  // Thomas algorithm
        const double w = a[row] / b[row - 1];
        b[row] -= w * cc[row - 1];
        r[row] -= w * r[row - 1];
      }
      std::vector<double> x(free);
      x[free - 1] = r[free - 1] / b[free - 1];
      for (std::size_t row = free - 1; row-- > 0;) x[row] = (r[row] - cc[row] * x[row + 1]) / b[row];
      for (std::size_t row = 0; row < free; ++row) m[i + 1 + row] = x[row];
    }
    i = j;
  }
  return m;
}
std::vector<double> auto_handles(const TrackView& k, double t) {
  const Segment g = segment_of(k.times, t);
  const double d = k.times.size() >= 2 ? k.times[g.k + 1] - k.times[g.k] : 0;
  std::vector<double> out(k.components);
  for (std::size_t c = 0; c < k.components; ++c) {
    const auto m = auto_handle_slopes(k, c);
    out[c] = hermite(at(k, g.k, 1, c), d * m[g.k], at(k, g.k + 1, 1, c), d * m[g.k + 1], g.s);
  }
  normalize_if_rotation(k, out);
  return out;
}

// ---- bake-15fps-linear: the spec's values at k / 15 s, joined by lerp (slerp
// for rotations); held before 0 and after the last bake sample past the end.
bool bakeable(const TrackView& k, bool /*weights*/) {
  return well_formed(k) && (!is_rotation(k) || k.components == 4);
}
std::vector<double> bake_15fps(const TrackView& k, double t) {
  constexpr double kFps = 15;
  const double end = std::ceil(k.times.back() * kFps - 1e-9) / kFps;  // the last bake sample
  const double tc = std::clamp(t, 0.0, std::max(0.0, end));
  const double f = std::floor(tc * kFps);
  const double t0 = f / kFps, t1 = std::min((f + 1) / kFps, std::max(0.0, end));
  const auto v0 = spec_value(k, t0);
  if (!(t1 > t0)) return v0;
  const auto v1 = spec_value(k, t1);
  const double s = (tc - t0) / (t1 - t0);
  if (is_rotation(k)) {
    const auto q = reference::slerp_shortest_path(reference::load_quat(v0.data()),
                                                  reference::load_quat(v1.data()), s);
    std::vector<double> out(4);
    reference::store_quat(q, out.data());
    return out;
  }
  std::vector<double> out(k.components);
  for (std::size_t c = 0; c < k.components; ++c) out[c] = reference::lerp(v0[c], v1[c], s);
  return out;
}

// ---- no-extensions + nlerp: the core LINEAR fallback of a channel whose extension sampler the
// engine does not implement (allowed: the fallback is there for such an engine), played by
// nlerp on the shortest path instead of slerp (allowed: glTF 2.0 Appendix C.4 "Implementations
// MAY approximate these equations"). Held before the first and after the last key.
bool linear_rotation(const TrackView& k, bool /*weights*/) {
  return well_formed(k) && k.interpolation == Interpolation::kLinear && is_rotation(k) && k.components == 4;
}
std::vector<double> fallback_nlerp(const TrackView& k, double t) {
  const Segment g = segment_of(k.times, t);
  std::vector<double> out(4);
  if (k.times.size() < 2) {
    for (std::size_t c = 0; c < 4; ++c) out[c] = at(k, 0, 0, c);
    normalize_if_rotation(k, out);
    return out;
  }
  const auto q =
      reference::nlerp_shortest_path(reference::load_quat(&k.values[g.k * 4]),
                                     reference::load_quat(&k.values[(g.k + 1) * 4]), g.s);
  reference::store_quat(q, out.data());
  return out;
}

constexpr std::array<NamedReading, 5> kReadings{{
    {"cubic-bezier-unscaled-tangents",
     "vector CUBICSPLINE played as a Bezier segment with control points v_k, v_k + b_k/3, "
     "v_k+1 - a_k+1/3, v_k+1: the Hermite p(s) = h00 v_k + h10 b_k + h01 v_k+1 + h11 a_k+1 "
     "without the segment duration t_d on the tangents; breaks glTF 2.0 Appendix C.5 (the "
     "tangents are scaled by t_d = t_k+1 - t_k)",
     "an importer converting glTF tangents to Bezier handles as per-segment slopes (reported by "
     "review of engine importers; not reproduced by an adapter of this suite)",
     cubic_vector, bezier_unscaled, false, ReadingView::kChannel},
    {"weights-clamped-0-1",
     "morph weights played as clamp(w, 0, 1) of the spec's value; breaks glTF 2.0 3.7.2.2 "
     "(morph weights are not limited to [0, 1]; the spec decodes signed normalized weights to "
     "[-1, 1])",
     "Blender 3.4 importer (shape key slider range 0..1, widened from a weight's first key w_0 "
     "only: clamp(w, min(0, w_0), max(1, w_0)), this reading where w_0 is in [0, 1]; "
     "docs/conformance/blender-notes.md)",
     weights_any, weights_clamped, false, ReadingView::kChannel},
    {"blender-auto-handles",
     "CUBICSPLINE tangents dropped: per component the C2 cubic spline through the key values, "
     "handles a third of the way to each neighbouring key, slope 0 at the first and last key and "
     "at every local extreme, the other slopes solved for continuous acceleration (tridiagonal, "
     "per run between such keys); rotations normalized after; breaks glTF 2.0 Appendix C.5 (the "
     "curve is defined by the stored tangents)",
     "Blender 3.4 importer (Bezier F-curves with AUTO_CLAMPED handles, auto smoothing CONT_ACCEL; "
     "docs/conformance/blender-notes.md)",
     cubic_any, auto_handles, false, ReadingView::kChannel},
    {"bake-15fps-linear",
     "the channel baked at 15 fps (the spec's value at k/15 s, k = 0, 1, ...) and played "
     "linearly between bake samples (slerp for rotations), held before 0 and after the last "
     "bake sample; breaks glTF 2.0 Appendix C.1 (a key's value MUST be used as-is at its "
     "timestamp) and the interpolation of each mode",
     "Godot 3 scene importer (animation bake at the import option animation/fps, default 15, "
     "LINEAR tracks; the survey's Godot 4 bakes at 30 fps, divergence bake-30fps)",
     bakeable, bake_15fps, false, ReadingView::kChannel},
    {"no-extensions + nlerp",
     "the core LINEAR fallback sampler played in place of the extension's sampler (variant "
     "no-extensions, an engine without the extension) and by nlerp on the shortest path in "
     "place of slerp (variant nlerp, glTF 2.0 Appendix C.4 lets implementations approximate "
     "slerp): two readings the specs allow, stacked on the same samples",
     "Blender 3.4 importer on EXT_animation_sqlerp channels with a fallback (the importer reads "
     "the core sampler, and LINEAR quaternion F-curves play as nlerp; "
     "docs/conformance/blender-notes.md), and PlayCanvas 2.23.3 (no EXT_animation_sqlerp, "
     "nlerp rotations; docs/conformance/playcanvas-notes.md)",
     linear_rotation, fallback_nlerp, true, ReadingView::kCoreFallback},
}};

}  // namespace

std::span<const NamedReading> named_readings() { return kReadings; }

const NamedReading* find_named_reading(std::string_view name) {
  for (const auto& r : kReadings)
    if (r.name == name) return &r;
  return nullptr;
}

}  // namespace gltf_anim::compare

// Cubic fits of LINEAR tracks under a bound (fit.hpp).
#include <gltf_anim/reference/quaternion.hpp>
#include <gltf_anim/reference/shortest_path.hpp>
#include <gltf_anim/reference/squad.hpp>
#include <gltf_anim/reference/track.hpp>
#include <gltf_anim/repair/fit.hpp>

#include <gltf_anim/repair/reduce.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>

#include "greedy.hpp"

namespace gltf_anim::repair {
namespace {

using reference::Interpolation;
using reference::Quat;
using reference::TrackView;
using reference::ValueKind;

bool is_rotation(const TrackView& track) { return track.kind == ValueKind::kRotation; }

// The error of a cubic segment (a two-key track over the original keys i..j) against the
// original over [t_i, t_j], as `reduce` checks a candidate (bounded_reduction_error,
// reduce.hpp: every key, samples inside every original segment and the margin between
// them, the steps sized for `limit`, stopping once past it). reduction_error's densest
// sampling would cost every check 256 samples an original segment: minutes on 10^5 keys.
double segment_error(const TrackView& track, std::size_t i, std::size_t j,
                     const TrackView& candidate, double limit) {
  const std::size_t c = track.components;
  const TrackView original{track.times.subspan(i, j - i + 1),
                           track.values.subspan(i * c, (j - i + 1) * c), c, Interpolation::kLinear,
                           track.kind};
  return bounded_reduction_error(original, candidate, limit);
}

// The original values with every rotation key in the hemisphere of the previous one
// (the same rotations; the sign a slerp on the shortest path would take anyway).
std::vector<double> patched_values(const TrackView& track) {
  std::vector<double> v(track.values.begin(), track.values.end());
  if (is_rotation(track)) reference::patch_shortest_path(std::span<double>(v));
  return v;
}

// d value / dt at each original key: the derivative of the parabola through the key and
// its two neighbours (the first and last key: through the two keys after or before).
std::vector<double> parabola_slopes(const TrackView& track, std::span<const double> v) {
  const std::size_t n = track.times.size(), c = track.components;
  std::vector<double> m(n * c, 0.0);
  auto slope = [&](std::size_t k, std::size_t comp) {  // secant k -> k + 1
    return (v[(k + 1) * c + comp] - v[k * c + comp]) / (track.times[k + 1] - track.times[k]);
  };
  for (std::size_t comp = 0; comp < c; ++comp) {
    if (n == 2) {
      m[comp] = m[c + comp] = slope(0, comp);
      continue;
    }
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t a = k == 0 ? 0 : (k == n - 1 ? n - 3 : k - 1);  // parabola a, a+1, a+2
      const double d0 = track.times[a + 1] - track.times[a];
      const double d1 = track.times[a + 2] - track.times[a + 1];
      const double s0 = slope(a, comp), s1 = slope(a + 1, comp);
      const double curvature = (s1 - s0) / (d0 + d1);
      // p'(t_a) = s0 - c d0, p'(t_a+1) = s0 + c d0, p'(t_a+2) = s1 + c d1.
      const double at =
          k == a ? s0 - curvature * d0 : (k == a + 1 ? s0 + curvature * d0 : s1 + curvature * d1);
      m[k * c + comp] = at;
    }
  }
  return m;
}

// The modified SQUAD with extrapolated ends: the first and last segments take the
// acceleration of their inner neighbour, where the seed's rule (zero velocity beyond the
// ends) would bend a track that is still moving at its ends away from it.
const reference::SquadOptions kSquadOptions{reference::SquadControls::kNonUniform,
                                            reference::SquadEnds::kExtrapolate, true};

// The values as they are written: float32. Every check measures the rounded values, so
// the bound holds for the file, not only for the doubles the fit computed (a float32
// rounding moves a control quaternion by up to about 1e-7 rad, enough to cross a bound a
// segment met in double by less).
void round_to_float(std::span<double> values) {
  for (double& x : values) x = static_cast<double>(static_cast<float>(x));
}

// The cubic data (in-tangent, value, out-tangent per kept key) of the chosen keys.
using Builder = std::function<std::vector<double>(const std::vector<std::size_t>&)>;

double ratio(std::size_t a, std::size_t b) {
  return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b);
}

std::string at_time(double t) {
  std::array<char, 64> buf{};
  std::snprintf(buf.data(), buf.size(), "%.9g", t);
  return buf.data();
}

}  // namespace

double FitResult::keep_ratio() const { return ratio(kept.size(), linear_kept); }

double FitResult::break_even_ratio(bool own_times) const {
  return static_cast<double>(linear_key_bytes(own_times)) /
         static_cast<double>(cubic_key_bytes(own_times));
}

std::size_t bounded_linear_keys(const TrackView& track, const FitBound& bound) {
  ReduceOptions options;
  options.bounds = {bound.max_error, bound.max_angle};
  TrackView linear = track;
  linear.interpolation = Interpolation::kLinear;
  const ReduceResult reduced = reduce_track(linear, options);
  return reduced.tracks.empty() ? track.times.size() : reduced.tracks.front().keys.times.size();
}

FitResult fit_track(const TrackView& track, FitMode mode, const FitBound& bound) {
  FitResult r;
  const std::size_t n = track.times.size(), c = track.components;
  r.components = c;
  r.original_keys = n;
  r.interpolation =
      mode == FitMode::kCubicSlerp ? Interpolation::kCubicSlerp : Interpolation::kCubicSpline;
  if (track.interpolation != Interpolation::kLinear) {
    r.why = "not a LINEAR track";
    return r;
  }
  const TrackView& original = track;
  if (std::string why = reference::validate(original); !why.empty()) {
    r.why = why;
    return r;
  }
  if (n < 2) {
    r.why = "a single key: nothing to fit";
    return r;
  }
  if (mode == FitMode::kCubicSlerp && !is_rotation(track)) {
    r.why = "CUBICSLERP animates rotations only";
    return r;
  }
  if (!(bound.max_error >= 0.0) || !(bound.max_angle >= 0.0)) {
    r.why = "the bound must be a non-negative number";
    return r;
  }
  r.velocity_jump_before =
      max_velocity_jump(track.times, track.values, c, is_rotation(track), Interpolation::kLinear);
  r.linear_kept = bounded_linear_keys(track, bound);

  const std::vector<double> v = patched_values(track);
  const auto key = [&](std::size_t k) { return reference::load_quat(&v[k * 4]); };
  const ValueKind kind = track.kind;
  const double limit = is_rotation(track) ? bound.max_angle : bound.max_error;

  // One segment i..j of the cubic, as a two-key track of the fit's mode.
  std::array<double, 2> seg_times{};
  std::vector<double> seg_values(6 * c);
  std::function<void(std::size_t, std::size_t, const std::vector<std::size_t>&)> segment;
  Builder build;
  const std::vector<double> m =
      mode == FitMode::kCubicSpline ? parabola_slopes(track, v) : std::vector<double>{};
  if (mode == FitMode::kCubicSpline) {
    // a_k = b_k = the parabola's slope: one velocity on both sides of every key.
    const auto put = [&](std::vector<double>& out, std::size_t slot, std::size_t k) {
      for (std::size_t comp = 0; comp < c; ++comp) {
        out[slot * 3 * c + comp] = m[k * c + comp];
        out[slot * 3 * c + c + comp] = v[k * c + comp];
        out[slot * 3 * c + 2 * c + comp] = m[k * c + comp];
      }
    };
    segment = [&, put](std::size_t i, std::size_t j, const std::vector<std::size_t>&) {
      put(seg_values, 0, i);
      put(seg_values, 1, j);
      round_to_float(seg_values);
    };
    build = [&, put](const std::vector<std::size_t>& kept) {
      std::vector<double> out(kept.size() * 3 * c);
      for (std::size_t s = 0; s < kept.size(); ++s) put(out, s, kept[s]);
      round_to_float(out);
      return out;
    };
  } else {
    // The modified SQUAD over the keys around the segment: the key kept before i (when
    // there is one) and, as a guess at the next kept key, the original key after j.
    segment = [&](std::size_t i, std::size_t j, const std::vector<std::size_t>& kept) {
      std::vector<double> t;
      std::vector<Quat> q;
      std::size_t at_i = 0;
      if (kept.size() >= 2) {
        t.push_back(track.times[kept[kept.size() - 2]]);
        q.push_back(key(kept[kept.size() - 2]));
        at_i = 1;
      }
      for (std::size_t k : {i, j}) {
        t.push_back(track.times[k]);
        q.push_back(key(k));
      }
      if (j + 1 < n) {
        t.push_back(track.times[j + 1]);
        q.push_back(key(j + 1));
      }
      const std::vector<Quat> controls = reference::squad_control_points(t, q, kSquadOptions);
      for (std::size_t e = 0; e < 6; ++e) {
        reference::store_quat(controls[at_i * 3 + e], &seg_values[e * 4]);
      }
      round_to_float(seg_values);
    };
    build = [&](const std::vector<std::size_t>& kept) {
      std::vector<double> t;
      std::vector<Quat> q;
      for (std::size_t k : kept) {
        t.push_back(track.times[k]);
        q.push_back(key(k));
      }
      std::vector<double> out(kept.size() * 12);
      const std::vector<Quat> controls = reference::squad_control_points(t, q, kSquadOptions);
      for (std::size_t e = 0; e < controls.size(); ++e) {
        reference::store_quat(controls[e], &out[e * 4]);
      }
      round_to_float(out);
      return out;
    };
  }
  const auto fits = [&](std::size_t i, std::size_t j, const std::vector<std::size_t>& kept) {
    segment(i, j, kept);
    seg_times = {track.times[i], track.times[j]};
    const TrackView seg{seg_times, seg_values, c, r.interpolation, kind};
    return segment_error(track, i, j, seg, limit) <= limit;
  };
  std::vector<std::size_t> kept = greedy_keys(n, fits);

  // The whole cubic checked segment by segment; leaving segments split at their middle
  // original key, until all hold or one between adjacent keys does not. Each round is
  // linear in the keys; a split moves the control points of the neighbours only, so the
  // rounds settle in about log2 of the longest segment. They are capped, so that no input
  // makes the work quadratic: a track that has not settled by then is not fitted.
  constexpr int kMaxRounds = 64;
  for (int round = 1;; ++round) {
    std::vector<double> values = build(kept);
    std::vector<double> times(kept.size());
    for (std::size_t s = 0; s < kept.size(); ++s) times[s] = track.times[kept[s]];
    std::vector<std::size_t> next;
    next.reserve(kept.size());
    double worst = 0.0;
    std::optional<std::size_t> stuck;  // a failing segment between adjacent keys
    for (std::size_t s = 0; s + 1 < kept.size(); ++s) {
      next.push_back(kept[s]);
      const TrackView piece{std::span<const double>(times).subspan(s, 2),
                            std::span<const double>(values).subspan(s * 3 * c, 6 * c), c,
                            r.interpolation, kind};
      const double e = segment_error(track, kept[s], kept[s + 1], piece, limit);
      worst = std::max(worst, e);
      if (e <= limit) continue;
      if (kept[s + 1] - kept[s] > 1) {
        next.push_back(kept[s] + (kept[s + 1] - kept[s]) / 2);
      } else if (!stuck) {
        stuck = s;
      }
    }
    next.push_back(kept.back());
    if (next.size() == kept.size() || round == kMaxRounds) {
      // An upper bound, as reduce reports it: what was measured plus the sampling margin
      // (at most 5% of the bound).
      r.max_error = worst;
      r.kept = std::move(kept);
      r.times = std::move(times);
      r.values = std::move(values);
      if (stuck) {
        r.why = "no " + std::string(reference::interpolation_name(r.interpolation)) +
                " segment between the keys at " + at_time(r.times[*stuck]) + " s and " +
                at_time(r.times[*stuck + 1]) + " s stays within the bound";
      } else if (next.size() != r.kept.size()) {
        r.why = "the choice of keys did not settle within " + std::to_string(kMaxRounds) +
                " rounds of splitting the segments that leave the bound";
      }
      break;
    }
    kept = std::move(next);
  }
  r.fitted = r.why.empty();
  r.velocity_jump_after =
      max_velocity_jump(r.times, r.values, c, is_rotation(track), r.interpolation);
  return r;
}

double max_velocity_jump(std::span<const double> times, std::span<const double> values,
                         std::size_t components, bool rotation, Interpolation interpolation) {
  const std::size_t n = times.size();
  if (n < 3) return 0.0;
  const TrackView track{times, values, components, interpolation,
                        rotation ? ValueKind::kRotation : ValueKind::kVector};
  std::vector<double> at(components), here(components);
  // x(s): the displacement from the key's value at t_k + s (the body-frame rotation vector
  // 2 log(q_k^-1 q) for rotations), so x(0) = 0 and x'(0) is the velocity.
  const std::size_t dims = rotation ? 3 : components;
  std::vector<double> x(4 * dims);  // x(h), x(2h), x(-h), x(-2h)
  const auto displacement = [&](double t_k, double s, double* out) {
    reference::sample(track, t_k + s, at);
    if (rotation) {
      Quat rel = reference::conjugate(reference::normalized(reference::load_quat(here.data()))) *
                 reference::normalized(reference::load_quat(at.data()));
      if (rel.w < 0.0) rel = -rel;
      const reference::Vec3 l = reference::quat_log(rel);
      out[0] = 2.0 * l.x;
      out[1] = 2.0 * l.y;
      out[2] = 2.0 * l.z;
    } else {
      for (std::size_t c = 0; c < components; ++c) out[c] = at[c] - here[c];
    }
  };
  double worst = 0.0;
  for (std::size_t k = 1; k + 1 < n; ++k) {
    const double h = 1e-4 * std::min(times[k] - times[k - 1], times[k + 1] - times[k]);
    reference::sample(track, times[k], here);
    displacement(times[k], h, &x[0]);
    displacement(times[k], 2 * h, &x[dims]);
    displacement(times[k], -h, &x[2 * dims]);
    displacement(times[k], -2 * h, &x[3 * dims]);
    double jump2 = 0.0;
    for (std::size_t c = 0; c < dims; ++c) {
      // f'(0+) = (4 f(h) - f(2h)) / 2h, f'(0-) = (f(-2h) - 4 f(-h)) / 2h, with f(0) = 0.
      const double right = (4.0 * x[c] - x[dims + c]) / (2.0 * h);
      const double left = (x[3 * dims + c] - 4.0 * x[2 * dims + c]) / (2.0 * h);
      jump2 += (right - left) * (right - left);
    }
    worst = std::max(worst, std::sqrt(jump2));
  }
  return worst;
}

}  // namespace gltf_anim::repair

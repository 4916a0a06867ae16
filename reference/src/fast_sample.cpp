// Fast bulk sampling of LINEAR / SLERP rotation tracks; see fast_sample.hpp for the
// method and its error bound. Not used for golden samples.
#include <gltf_anim/reference/fast_sample.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace gltf_anim::reference {
namespace {

// sin(x) / x = P(x^2), Taylor to x^12 (terms (-u)^j / (2j+1)!, j = 0..6). For
// u <= (pi/2)^2 the series alternates with decreasing terms, so the truncation error is
// below the first omitted term u^7 / 15! <= 4.3e-10 (P >= 2/pi there: relative < 7e-10).
constexpr double kP1 = -1.0 / 6.0;
constexpr double kP2 = 1.0 / 120.0;
constexpr double kP3 = -1.0 / 5040.0;
constexpr double kP4 = 1.0 / 362880.0;
constexpr double kP5 = -1.0 / 39916800.0;
constexpr double kP6 = 1.0 / 6227020800.0;

inline double sinc_poly(double u) {
  return 1.0 + u * (kP1 + u * (kP2 + u * (kP3 + u * (kP4 + u * (kP5 + u * kP6)))));
}

// The samples t[0..m) all lie in segment s (t_k <= t < t_{k+1}). Segment constants are
// copied to locals so the loop has no aliasing between them and `out`; GCC vectorises it.
inline void eval_run(const FastRotationTrack::Segment& s, const double* __restrict t,
                     std::size_t m, double* __restrict out) {
  const double t0 = s.t0, inv_dt = s.inv_dt, asq = s.angle_sq, inv_p = s.inv_p;
  const double a0 = s.a[0], a1 = s.a[1], a2 = s.a[2], a3 = s.a[3];
  const double b0 = s.b[0], b1 = s.b[1], b2 = s.b[2], b3 = s.b[3];
  for (std::size_t j = 0; j < m; ++j) {
    const double u = (t[j] - t0) * inv_dt;
    const double v = 1.0 - u;
    const double w0 = v * sinc_poly(asq * (v * v)) * inv_p;
    const double w1 = u * sinc_poly(asq * (u * u)) * inv_p;
    out[4 * j + 0] = w0 * a0 + w1 * b0;
    out[4 * j + 1] = w0 * a1 + w1 * b1;
    out[4 * j + 2] = w0 * a2 + w1 * b2;
    out[4 * j + 3] = w0 * a3 + w1 * b3;
  }
}

}  // namespace

FastRotationTrack::FastRotationTrack(const TrackView& track) {
  if (track.kind != ValueKind::kRotation || track.components != 4 ||
      (track.interpolation != Interpolation::kLinear &&
       track.interpolation != Interpolation::kSlerp) ||
      track.times.empty() || track.values.size() != 4 * track.times.size())
    throw std::invalid_argument(
        "gltf_anim::reference::FastRotationTrack: needs a valid LINEAR or SLERP rotation track");
  times_.assign(track.times.begin(), track.times.end());
  const double* v = track.values.data();
  std::copy_n(v, 4, first_.begin());
  std::copy_n(v + 4 * (times_.size() - 1), 4, last_.begin());
  segments_.resize(times_.size() - 1);
  for (std::size_t k = 0; k + 1 < times_.size(); ++k) {
    Segment& s = segments_[k];
    const Quat q_a = load_quat(v + 4 * k);
    Quat q_b = load_quat(v + 4 * k + 4);
    const double d = dot(q_a, q_b);
    if (d < 0.0) q_b = -q_b;  // Appendix C: the sign goes on v_{k+1}
    const double c = std::abs(d);
    s.a = {q_a.x, q_a.y, q_a.z, q_a.w};
    s.b = {q_b.x, q_b.y, q_b.z, q_b.w};
    s.t0 = times_[k];
    s.inv_dt = 1.0 / (times_[k + 1] - times_[k]);
    // The exact path's near-parallel branch (lerp weights) is a = 0 here: P(0) = 1.
    const double angle = 1.0 - c < kSlerpLinearThreshold ? 0.0 : std::acos(c);
    s.angle_sq = angle * angle;
    // 1 / P(a^2) with the same polynomial as the numerators, so t = 0 and t = 1 give
    // weights 1 and 0 up to one rounding.
    s.inv_p = 1.0 / sinc_poly(s.angle_sq);
  }
}

void FastRotationTrack::clamped(double t, double* out) const {
  if (std::isnan(t)) {
    std::fill_n(out, 4, std::numeric_limits<double>::quiet_NaN());
    return;
  }
  const std::array<double, 4>& q = t <= times_.front() ? first_ : last_;
  std::copy_n(q.begin(), 4, out);
}

void FastRotationTrack::sample_batch(std::span<const double> times,
                                     std::span<double> out) const {
  if (out.size() != 4 * times.size())
    throw std::invalid_argument("gltf_anim::reference::FastRotationTrack::sample_batch: output size " +
                                std::to_string(out.size()) + " != 4 x times " +
                                std::to_string(times.size()));
  const std::size_t n = times.size();
  const double t_first = times_.front(), t_last = times_.back();
  const double* tp = times.data();
  double* op = out.data();
  if (std::is_sorted(times.begin(), times.end())) {
    // Runs of consecutive times inside one segment, each evaluated in one loop. The run
    // test re-checks both segment ends, so any order is still correct, just slower.
    KeyframeCursor cursor;
    std::size_t i = 0;
    while (i < n) {
      const double t = tp[i];
      if (!(t > t_first) || !(t < t_last)) {  // clamped, the last key, or NaN
        clamped(t, op + 4 * i);
        ++i;
        continue;
      }
      const std::size_t k = cursor.find(times_, t);
      const double lo = times_[k], hi = times_[k + 1];
      std::size_t j = i + 1;
      while (j < n && tp[j] >= lo && tp[j] < hi) ++j;
      eval_run(segments_[k], tp + i, j - i, op + 4 * i);
      i = j;
    }
    return;
  }
  // Unsorted: a block of independent binary searches (the CPU overlaps them), then the
  // evaluations.
  constexpr std::size_t kBlock = 64;
  std::array<std::size_t, kBlock> keys{};
  for (std::size_t first = 0; first < n; first += kBlock) {
    const std::size_t count = std::min(kBlock, n - first);
    for (std::size_t j = 0; j < count; ++j) keys[j] = find_keyframe(times_, tp[first + j]);
    for (std::size_t j = 0; j < count; ++j) {
      const std::size_t i = first + j;
      const double t = tp[i];
      if (!(t > t_first) || !(t < t_last)) clamped(t, op + 4 * i);
      else eval_run(segments_[keys[j]], tp + i, 1, op + 4 * i);
    }
  }
}

void sample_batch_fast(const TrackView& track, std::span<const double> times,
                       std::span<double> out) {
  FastRotationTrack(track).sample_batch(times, out);
}

}  // namespace gltf_anim::reference

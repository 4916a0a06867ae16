#pragma once
// A fast path for bulk sampling of LINEAR / SLERP rotation tracks (Appendix C
// shortest-path slerp). NOT the golden path: golden samples come from track.hpp's
// `sample` / `sample_batch` (libm sin/acos, bit-for-bit reproducible). This path is for
// bulk work (previews, engines comparing millions of samples) and is held by
// tests/reference/test_fast_sample.cpp within 1e-6 rad (angle between the rotations) and
// 1e-6 relative (|fast - exact| / |exact|) of the exact path; its measured error is
// about 1e-9 (docs/PERFORMANCE.md, "Reference evaluator").
//
// How: per segment, the shortest-path sign is folded into v_{k+1} and the angle
// a = acos(|d|) (in [0, pi/2]) is computed once with libm. Per sample, with
// sin(x) = x P(x^2) and P(u) = sum_{j=0..6} (-u)^j / (2j+1)! (Taylor; the truncation
// error is below u^7/15! <= (pi/2)^14/15! = 4.3e-10 relative for x in [0, pi/2]):
//   w_0 = (1 - t) P(a^2 (1 - t)^2) / P(a^2),  w_1 = t P(a^2 t^2) / P(a^2),
//   v = w_0 v_k + w_1 (s v_{k+1}).
// No libm call and no division per sample; near-parallel keys (a -> 0) give lerp's
// weights (1 - t, t) without a branch. Samples of one segment are evaluated in one loop
// the compiler vectorises (SSE2 on generic x86-64).
//
// Conventions shared with the exact path: clamping to the first / last value (copied
// as stored), a single key returns its value, a NaN time gives NaN components. Not
// shared: a time equal to an inner key time returns that key within the error bound
// above, not necessarily bit for bit; plain (non-shortest-path) slerp is not offered.
#include <gltf_anim/reference/track.hpp>

#include <array>
#include <cstddef>
#include <span>
#include <vector>

namespace gltf_anim::reference {

class FastRotationTrack {
 public:
  // `track` must be valid (validate(track) empty), ValueKind::kRotation and
  // Interpolation::kLinear or kSlerp; throws std::invalid_argument otherwise (shape only:
  // values are not re-checked). Copies the key times and prepares every segment
  // (one acos and one dot product per segment).
  explicit FastRotationTrack(const TrackView& track);

  // Samples every time of `times` into `out` (4 doubles per time, x y z w). Sorted
  // batches walk the segments in order and evaluate each segment's run of samples in one
  // vectorised loop; unsorted batches binary-search each time. Throws
  // std::invalid_argument if out.size() != 4 x times.size().
  void sample_batch(std::span<const double> times, std::span<double> out) const;

  std::size_t keyframe_count() const { return times_.size(); }

  // Per-segment constants, 96 bytes.
  struct Segment {
    std::array<double, 4> a;  // v_k
    std::array<double, 4> b;  // s v_{k+1}, s the shortest-path sign
    double t0 = 0.0;          // t_k
    double inv_dt = 0.0;      // 1 / (t_{k+1} - t_k)
    double angle_sq = 0.0;    // a^2 (0 on the near-parallel branch)
    double inv_p = 1.0;       // 1 / P(a^2)
  };

 private:
  void clamped(double t, double* out) const;
  std::vector<double> times_;
  std::vector<Segment> segments_;
  std::array<double, 4> first_{}, last_{};
};

// FastRotationTrack(track).sample_batch(times, out): set-up included, for one-off use.
void sample_batch_fast(const TrackView& track, std::span<const double> times,
                       std::span<double> out);

}  // namespace gltf_anim::reference

// fit's bound holds for the values as written (float32): the fit's output is float32
// exactly, and its CUBICSPLINE playback, evaluated here again (Appendix C's Hermite,
// normalized, against the slerp of the original keys) at dense times, stays within the
// bound and within the maximum the fit reports.
#include <gltf_anim/repair/fit.hpp>

#include "fit_test_util.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <numbers>
#include <vector>

namespace {

using gltf_anim::repair::fit_track;
using gltf_anim::repair::FitBound;
using gltf_anim::repair::FitMode;
using fit_test::linear_track;
using Q4 = std::array<double, 4>;

double dot4(const Q4& a, const Q4& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]; }
Q4 unit(Q4 q) {
  const double l = std::sqrt(dot4(q, q));
  for (double& x : q) x /= l;
  return q;
}
double angle(Q4 a, Q4 b) {
  a = unit(a);
  b = unit(b);
  return 2 * std::acos(std::min(1.0, std::fabs(dot4(a, b))));
}
Q4 slerp(Q4 a, Q4 b, double u) {
  a = unit(a);
  b = unit(b);
  if (dot4(a, b) < 0)
    for (double& x : b) x = -x;
  const double th = std::acos(std::min(1.0, dot4(a, b)));
  Q4 r;
  for (int i = 0; i < 4; ++i)
    r[i] = th < 1e-9 ? (1 - u) * a[i] + u * b[i]
                     : (std::sin((1 - u) * th) * a[i] + std::sin(u * th) * b[i]) / std::sin(th);
  return unit(r);
}

// A 120 Hz skinned-joint track (float32 keys): a swing of 0.3 rad about a wandering axis.
struct Track120 {
  std::vector<double> times, values;
  Track120() {
    for (int k = 0; k <= 120; ++k) {
      const double t = k / 120.0;
      times.push_back(static_cast<float>(t));
      const double a = 0.3 * std::sin(2 * std::numbers::pi * t);
      const double x = 1, y = 0.1 * std::cos(3 * t), z = 0.2;
      const double l = std::sqrt(x * x + y * y + z * z), s = std::sin(a / 2) / l;
      for (double v : {x * s, y * s, z * s, std::cos(a / 2)}) values.push_back(static_cast<float>(v));
    }
  }
  Q4 key(std::size_t k) const { return {values[4 * k], values[4 * k + 1], values[4 * k + 2], values[4 * k + 3]}; }
};

TEST(FitWritten, OutputIsFloat32AndItsPlaybackStaysWithinTheBound) {
  const Track120 tr;
  const gltf_anim::reference::TrackView track = linear_track(tr.times, tr.values, 4, true);
  // CUBICSLERP at the bound it went over (2e-4 rad); CUBICSPLINE's tangents (one slope
  // on both sides of a key) need more room at the track's 120 Hz kinks.
  for (FitMode mode : {FitMode::kCubicSpline, FitMode::kCubicSlerp}) {
    const double bound = mode == FitMode::kCubicSlerp ? 2e-4 : 2e-3;
    const auto r = fit_track(track, mode, FitBound{bound / 2, bound});
    ASSERT_TRUE(r.fitted) << r.why;
    for (double v : r.values) ASSERT_EQ(v, static_cast<double>(static_cast<float>(v)));
    EXPECT_LE(r.max_error, bound);
    if (mode != FitMode::kCubicSpline) continue;
    // Dense check of the CUBICSPLINE as written.
    double worst = 0;
    for (std::size_t k = 0; k + 1 < tr.times.size(); ++k) {
      for (int s = 0; s <= 32; ++s) {
        const double t = tr.times[k] + (tr.times[k + 1] - tr.times[k]) * s / 33.0;
        const Q4 o = slerp(tr.key(k), tr.key(k + 1), (t - tr.times[k]) / (tr.times[k + 1] - tr.times[k]));
        std::size_t j = 0;
        while (j + 2 < r.times.size() && r.times[j + 1] <= t) ++j;
        const double d = r.times[j + 1] - r.times[j], u = (t - r.times[j]) / d;
        const double* k0 = r.values.data() + 12 * j;
        const double* k1 = k0 + 12;
        Q4 p;
        for (int i = 0; i < 4; ++i)
          p[i] = (2 * u * u * u - 3 * u * u + 1) * k0[4 + i] + d * (u * u * u - 2 * u * u + u) * k0[8 + i] +
                 (-2 * u * u * u + 3 * u * u) * k1[4 + i] + d * (u * u * u - u * u) * k1[i];
        worst = std::max(worst, angle(o, p));
      }
    }
    EXPECT_LE(worst, bound);
    EXPECT_LE(worst, r.max_error * (1 + 1e-9));
  }
}

}  // namespace

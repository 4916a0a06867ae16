// fit_track and its figures, checked against an evaluator written here from the spec
// formulas (glTF 2.0 Appendix C slerp and Hermite, EXT_animation_sqlerp's sqlerp), never
// the reference evaluator the tool uses, and against hand-computed small cases.
#include <gltf_anim/repair/fit.hpp>

#include "fit_test_util.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace {

using gltf_anim::repair::bounded_linear_keys;
using gltf_anim::repair::fit_track;
using gltf_anim::repair::FitBound;
using gltf_anim::repair::FitMode;
using gltf_anim::repair::FitResult;
using fit_test::linear_track;
using gltf_anim::repair::max_velocity_jump;

using Q = std::array<double, 4>;  // x, y, z, w

double qdot(const Q& a, const Q& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}
Q qscale(double s, const Q& a) { return {s * a[0], s * a[1], s * a[2], s * a[3]}; }
Q qadd(const Q& a, const Q& b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]}; }
Q qnorm(const Q& a) { return qscale(1.0 / std::sqrt(qdot(a, a)), a); }

// Appendix C: a = arccos(|d|), s = d / |d|,
// v = sin(a (1 - t)) / sin(a) q_a + s sin(a t) / sin(a) q_b. `shortest` false: the plain
// Shoemake slerp (a = arccos(d), s = 1), what sqlerp's inner slerps are.
Q spec_slerp(const Q& qa, const Q& qb, double t, bool shortest) {
  const double d = qdot(qa, qb);
  const double s = shortest && d < 0 ? -1.0 : 1.0;
  const double a = std::acos(std::clamp(s * d, -1.0, 1.0));
  if (std::sin(a) < 1e-9) return qadd(qscale(1 - t, qa), qscale(s * t, qb));
  return qadd(qscale(std::sin(a * (1 - t)) / std::sin(a), qa),
              qscale(s * std::sin(a * t) / std::sin(a), qb));
}

// EXT_animation_sqlerp: sqlerp(A, B, C, D, t) = slerp(slerp(A, D, t), slerp(B, C, t), 2t - 2t^2).
Q spec_sqlerp(const Q& a, const Q& b, const Q& c, const Q& d, double t) {
  return spec_slerp(spec_slerp(a, d, t, false), spec_slerp(b, c, t, false), 2 * t - 2 * t * t,
                    false);
}

// Appendix C Hermite: (2t^3 - 3t^2 + 1) v_k + t_d (t^3 - 2t^2 + t) b_k + (-2t^3 + 3t^2) v_k+1
// + t_d (t^3 - t^2) a_k+1.
double spec_hermite(double vk, double bk, double vk1, double ak1, double td, double t) {
  const double t2 = t * t, t3 = t2 * t;
  return (2 * t3 - 3 * t2 + 1) * vk + td * (t3 - 2 * t2 + t) * bk + (-2 * t3 + 3 * t2) * vk1 +
         td * (t3 - t2) * ak1;
}

// Evaluates a track laid out as glTF stores it (1 or 3 elements of c per key) at t.
std::vector<double> spec_sample(const std::vector<double>& times, const std::vector<double>& values,
                                std::size_t c, bool rotation,
                                int mode /*0 LINEAR, 1 CUBICSPLINE, 2 CUBICSLERP*/, double tc) {
  const std::size_t n = times.size();
  const std::size_t per = mode == 0 ? c : 3 * c, off = mode == 0 ? 0 : c;
  auto val = [&](std::size_t k, std::size_t e) {
    return std::vector<double>(values.begin() + k * per + e, values.begin() + k * per + e + c);
  };
  if (tc <= times[0]) return val(0, off);
  if (tc >= times[n - 1]) return val(n - 1, off);
  std::size_t k = 0;
  while (times[k + 1] <= tc) ++k;
  const double td = times[k + 1] - times[k], t = (tc - times[k]) / td;
  std::vector<double> out(c);
  if (mode == 0 && rotation) {
    const Q a{values.at(k * c), values.at(k * c + 1), values.at(k * c + 2), values.at(k * c + 3)};
    const std::size_t k1 = (k + 1) * c;
    const Q b{values.at(k1), values.at(k1 + 1), values.at(k1 + 2), values.at(k1 + 3)};
    const Q q = spec_slerp(a, b, t, true);
    return {q[0], q[1], q[2], q[3]};
  }
  if (mode == 0) {
    for (std::size_t i = 0; i < c; ++i) out[i] = (1 - t) * val(k, 0)[i] + t * val(k + 1, 0)[i];
    return out;
  }
  if (mode == 1) {
    for (std::size_t i = 0; i < c; ++i) {
      out[i] =
          spec_hermite(val(k, c)[i], val(k, 2 * c)[i], val(k + 1, c)[i], val(k + 1, 0)[i], td, t);
    }
    if (rotation) {
      const Q q = qnorm({out.at(0), out.at(1), out.at(2), out.at(3)});
      return {q[0], q[1], q[2], q[3]};
    }
    return out;
  }
  auto q = [&](std::size_t kk, std::size_t e) {
    const std::size_t at = kk * per + e;
    return Q{values.at(at), values.at(at + 1), values.at(at + 2), values.at(at + 3)};
  };
  const Q r = spec_sqlerp(q(k, 4), q(k, 8), q(k + 1, 0), q(k + 1, 4), t);
  return {r[0], r[1], r[2], r[3]};
}

double spec_error(const std::vector<double>& a, const std::vector<double>& b, bool rotation) {
  if (rotation) {
    const Q qa = qnorm({a.at(0), a.at(1), a.at(2), a.at(3)}),
            qb = qnorm({b.at(0), b.at(1), b.at(2), b.at(3)});
    return 2 * std::acos(std::min(1.0, std::abs(qdot(qa, qb))));
  }
  double e = 0;
  for (std::size_t i = 0; i < a.size(); ++i) e = std::max(e, std::abs(a[i] - b[i]));
  return e;
}

// The largest error of a fit against its LINEAR original, 400 times per original segment.
double independent_max_error(const std::vector<double>& times, const std::vector<double>& values,
                             std::size_t c, bool rotation, const FitResult& fit) {
  const int mode = fit.interpolation == gltf_anim::reference::Interpolation::kCubicSlerp ? 2 : 1;
  double worst = 0;
  for (std::size_t k = 0; k + 1 < times.size(); ++k) {
    for (int q = 0; q <= 400; ++q) {
      const double t = times[k] + (times[k + 1] - times[k]) * q / 400.0;
      worst = std::max(worst, spec_error(spec_sample(fit.times, fit.values, c, rotation, mode, t),
                                         spec_sample(times, values, c, rotation, 0, t), rotation));
    }
  }
  return worst;
}

struct Random {
  std::mt19937_64 rng;
  double uniform(double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); }
};

// A random smooth rotation track as an exporter samples one: the body angular velocity
// is a sum of slow sinusoids (at most 0.3 Hz, amplitude up to 1 rad/s), integrated finely,
// keyed at uneven times 20-60 ms apart, some keys stored in the other hemisphere.
void random_rotation_track(Random& r, std::size_t n, std::vector<double>& times,
                           std::vector<double>& values) {
  times.clear();
  values.clear();
  std::array<std::array<double, 3>, 3> amp{}, freq{}, phase{};
  for (auto* p : {&amp, &freq, &phase}) {
    for (auto& row : *p) {
      for (double& x : row) x = r.uniform(0, 1);
    }
  }
  const auto omega = [&](double t, int i) {
    double w = 0;
    for (int j = 0; j < 3; ++j)
      w += amp[j][i] / 3 * std::sin(2 * M_PI * (0.3 * freq[j][i] * t + phase[j][i]));
    return w;
  };
  double t = 0;
  Q q{0, 0, 0, 1};
  for (std::size_t k = 0; k < n; ++k) {
    times.push_back(t);
    const Q stored = k % 7 == 3 ? qscale(-1, q) : q;
    values.insert(values.end(), stored.begin(), stored.end());
    const double dt = r.uniform(0.02, 0.06);
    for (int sub = 0; sub < 20; ++sub) {
      const double h = dt / 20, tm = t + (sub + 0.5) * h;
      const std::array<double, 3> w{omega(tm, 0), omega(tm, 1), omega(tm, 2)};
      const double len = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
      const double half = 0.5 * len * h;
      const double s = len == 0 ? 0 : std::sin(half) / len;
      const Q dq{s * w[0], s * w[1], s * w[2], std::cos(half)};
      q = qnorm({q[3] * dq[0] + dq[3] * q[0] + q[1] * dq[2] - q[2] * dq[1],
                 q[3] * dq[1] + dq[3] * q[1] + q[2] * dq[0] - q[0] * dq[2],
                 q[3] * dq[2] + dq[3] * q[2] + q[0] * dq[1] - q[1] * dq[0],
                 q[3] * dq[3] - q[0] * dq[0] - q[1] * dq[1] - q[2] * dq[2]});
    }
    t += dt;
  }
}

TEST(Fit, RandomRotationsStayWithinTheAngleBoundInBothCubicModes) {
  Random r{std::mt19937_64(20261126)};
  for (int trial = 0; trial < 12; ++trial) {
    std::vector<double> times, values;
    random_rotation_track(r, 80, times, values);
    const FitBound bound{1e-3, 3e-3 * (1 + trial % 3)};
    for (FitMode mode : {FitMode::kCubicSlerp, FitMode::kCubicSpline}) {
      const FitResult fit = fit_track(linear_track(times, values, 4, true), mode, bound);
      ASSERT_TRUE(fit.fitted) << fit.why;
      EXPECT_LT(fit.kept.size(), times.size());
      EXPECT_EQ(fit.kept.front(), 0u);
      EXPECT_EQ(fit.kept.back(), times.size() - 1);
      // Relative slack for what lies between the tool's 32 inner samples and these 400.
      EXPECT_LE(independent_max_error(times, values, 4, true, fit), bound.max_angle * 1.001)
          << "trial " << trial << " mode " << static_cast<int>(mode);
    }
  }
}

// A random smooth vector track: per component a sum of three sinusoids (at most 0.5 Hz,
// amplitude up to 1), keyed at uneven times 10-40 ms apart.
TEST(Fit, RandomVectorTracksStayWithinTheComponentBound) {
  Random r{std::mt19937_64(7)};
  for (int trial = 0; trial < 12; ++trial) {
    std::array<double, 9> amp{}, freq{}, phase{};
    for (int i = 0; i < 9; ++i) {
      amp[i] = r.uniform(0, 1);
      freq[i] = r.uniform(0, 0.5);
      phase[i] = r.uniform(0, 1);
    }
    std::vector<double> times, values;
    double t = 0;
    for (int k = 0; k < 80; ++k) {
      times.push_back(t);
      for (int c = 0; c < 3; ++c) {
        double v = 0;
        for (int j = 0; j < 3; ++j)
          v += amp[3 * c + j] * std::sin(2 * M_PI * (freq[3 * c + j] * t + phase[3 * c + j]));
        values.push_back(v);
      }
      t += r.uniform(0.01, 0.04);
    }
    const FitBound bound{5e-3 * (1 + trial % 4), 1.0};
    const FitResult fit =
        fit_track(linear_track(times, values, 3, false), FitMode::kCubicSpline, bound);
    ASSERT_TRUE(fit.fitted) << fit.why;
    EXPECT_LT(fit.kept.size(), times.size());
    // The tool finds the exact extremes of a vector cubic minus a line: no slack.
    EXPECT_LE(independent_max_error(times, values, 3, false, fit), bound.max_error * (1 + 1e-9));
  }
}

// p(t) = 3t^2 - 2t^3 (the Hermite of v0 = 0, v1 = 1, zero tangents) at 101 even keys on
// [0, 1]. The LINEAR track's chords are within h^2/8 max|p''| = 1e-4 / 8 * 6 = 7.5e-5 of p;
// the parabola slopes at the ends err by h0 (h0 + h1) / 6 |p'''| = 2e-4 / 6 * 12 = 4e-4,
// which moves the Hermite by at most 4e-4 * max t (1 - t)^2 = 4e-4 * 4/27 < 6e-5 per end.
// So one segment 0..1 is within 7.5e-5 + 1.2e-4 < 1e-3 of the track: the fit keeps the two
// ends, and the values there are p's.
TEST(Fit, ATrackSampledFromOneCubicHermiteKeepsItsTwoEnds) {
  std::vector<double> times, values;
  for (int k = 0; k <= 100; ++k) {
    const double t = k / 100.0;
    times.push_back(t);
    values.push_back(3 * t * t - 2 * t * t * t);
  }
  const FitResult fit =
      fit_track(linear_track(times, values, 1, false), FitMode::kCubicSpline, {1e-3, 2e-3});
  ASSERT_TRUE(fit.fitted) << fit.why;
  EXPECT_EQ(fit.kept, (std::vector<std::size_t>{0, 100}));
  EXPECT_EQ(fit.values[1], 0.0);
  EXPECT_EQ(fit.values[4], 1.0);
  EXPECT_NEAR(fit.values[2], 0.0, 5e-4);  // out-tangent at 0: p'(0) = 0 within 4e-4
  EXPECT_LE(fit.max_error, 1e-3);
}

// Values 0, 1, 3 at times 0, 1, 2. By hand: LINEAR velocities 1 and 2, a jump of 1 at t = 1.
// Parabola slopes: p(t) = t^2/2 + t/2 through the three keys, p' = 0.5, 1.5, 2.5. The
// Hermite 0..2 with slopes 0.5 and 2.5 is p itself, whose largest distance from the LINEAR
// track is 1/8 (at t = 1/2 and 3/2: line t vs p = 0.375); so at E = 0.2 the fit keeps
// keys 0 and 2 (error 0.125), while LINEAR 0..2 misses key 1 by 0.5: the LINEAR reduction
// keeps 3. Ratio 2/3; break-even for one component (4 + 4) / (4 + 12) = 0.5; 2 * 16 B
// > 3 * 8 B: no bytes saved. Velocity jump after: no inner key, 0.
TEST(Fit, RatioAndSmoothnessOfAHandComputedScalarTrack) {
  const std::vector<double> times{0, 1, 2}, values{0, 1, 3};
  const gltf_anim::reference::TrackView track = linear_track(times, values, 1, false);
  EXPECT_EQ(bounded_linear_keys(track, {0.2, 0.4}), 3u);
  const FitResult fit = fit_track(track, FitMode::kCubicSpline, {0.2, 0.4});
  ASSERT_TRUE(fit.fitted) << fit.why;
  EXPECT_EQ(fit.kept, (std::vector<std::size_t>{0, 2}));
  EXPECT_EQ(fit.linear_kept, 3u);
  // An upper bound: the true 0.125 plus at most the sampling margin, 5% of the bound.
  EXPECT_GE(fit.max_error, 0.125 - 1e-12);
  EXPECT_LE(fit.max_error, 0.125 + 0.05 * 0.2);
  EXPECT_DOUBLE_EQ(fit.keep_ratio(), 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(fit.break_even_ratio(), 0.5);
  EXPECT_FALSE(fit.saves_bytes());
  EXPECT_NEAR(fit.velocity_jump_before, 1.0, 1e-6);
  EXPECT_EQ(fit.velocity_jump_after, 0.0);
  const std::vector<double> tangents{0.5, 0, 0.5, 2.5, 3, 2.5};
  for (std::size_t i = 0; i < tangents.size(); ++i)
    EXPECT_NEAR(fit.values[i], tangents[i], 1e-12) << i;
}

// The same track at E = 0.1: even the segment 0..1 (the parabola's piece, 0.125 from the
// chord) leaves the bound, and nothing lies between keys 0 and 1 to keep: not fitted, said.
TEST(Fit, ATrackNoCubicHoldsIsNotFittedAndSaysWhere) {
  const std::vector<double> times{0, 1, 2}, values{0, 1, 3};
  const FitResult fit =
      fit_track(linear_track(times, values, 1, false), FitMode::kCubicSpline, {0.1, 0.2});
  EXPECT_FALSE(fit.fitted);
  EXPECT_NE(fit.why.find("between the keys at 0 s and 1 s"), std::string::npos) << fit.why;
}

// Rotations about z by 0, 0.2 and 0.6 rad at 0, 1, 2 s: angular velocity 0.2 then
// 0.4 rad/s, a jump of 0.2 rad/s at t = 1 (LINEAR). At 0.05 rad every key stays (one
// cubic 0..2 would miss key 1 by about the chord's 0.1 rad; two stay within about 0.025 rad,
// the distance of the parabola through the keys from the chords);
// the modified SQUAD makes the velocity continuous at the inner key (single axis: the
// seed's derivation holds exactly), so the jump after is 0 within the difference quotient.
TEST(Fit, AngularVelocityJumpOfAHandComputedRotationTrack) {
  const std::vector<double> times{0, 1, 2};
  std::vector<double> values;
  for (double a : {0.0, 0.2, 0.6}) {
    values.insert(values.end(), {0, 0, std::sin(a / 2), std::cos(a / 2)});
  }
  EXPECT_NEAR(
      max_velocity_jump(times, values, 4, true, gltf_anim::reference::Interpolation::kLinear), 0.2,
      1e-6);
  const FitResult fit =
      fit_track(linear_track(times, values, 4, true), FitMode::kCubicSlerp, {0.05, 0.05});
  ASSERT_TRUE(fit.fitted) << fit.why;
  EXPECT_EQ(fit.kept.size(), 3u);
  EXPECT_NEAR(fit.velocity_jump_before, 0.2, 1e-6);
  EXPECT_NEAR(fit.velocity_jump_after, 0.0, 1e-6);
  EXPECT_DOUBLE_EQ(fit.break_even_ratio(), 20.0 / 52.0);
}

TEST(Fit, RefusesWhatItCannotFit) {
  const std::vector<double> times{0, 1}, values{0, 1}, bad_times{1, 0};
  EXPECT_FALSE(
      fit_track(linear_track(times, values, 1, false), FitMode::kCubicSlerp, {1, 1}).fitted);
  const FitResult r =
      fit_track(linear_track(bad_times, values, 1, false), FitMode::kCubicSpline, {1, 1});
  EXPECT_FALSE(r.fitted);
  EXPECT_FALSE(r.why.empty());
  // A track that is not LINEAR: the fit replaces LINEAR keys only.
  gltf_anim::reference::TrackView step = linear_track(times, values, 1, false);
  step.interpolation = gltf_anim::reference::Interpolation::kStep;
  const FitResult s = fit_track(step, FitMode::kCubicSpline, {1, 1});
  EXPECT_FALSE(s.fitted);
  EXPECT_EQ(s.why, "not a LINEAR track");
}

}  // namespace

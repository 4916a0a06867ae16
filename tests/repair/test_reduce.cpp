// Keyframe reduction (repair/reduce.hpp): hand-made tracks whose optimal reduction is known,
// and random tracks whose reduction is checked by this file's own evaluator (Appendix C's
// lerp, slerp and Hermite written again here, sampled densely), never by the code under test.
#include <gltf_anim/repair/reduce.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <vector>

namespace {

using gltf_anim::reference::Interpolation;
using gltf_anim::reference::TrackView;
using gltf_anim::reference::ValueKind;
using gltf_anim::repair::Quantization;
using gltf_anim::repair::ReduceBounds;
using gltf_anim::repair::ReduceOptions;
using gltf_anim::repair::ReduceResult;
using gltf_anim::repair::TrackToReduce;

// ---- The independent evaluator (glTF 2.0 Appendix C) ----------------------------------

using Q4 = std::array<double, 4>;

double dot4(const Q4& a, const Q4& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}
Q4 normalize4(Q4 q) {
  const double l = std::sqrt(dot4(q, q));
  for (double& x : q) x /= l;
  return q;
}

// Appendix C's slerp: a = acos(|d|), s = sign(d); near-parallel falls back to lerp weights.
Q4 spec_slerp(const Q4& a, const Q4& b, double t) {
  const double d = dot4(a, b);
  const double s = d < 0 ? -1.0 : 1.0;
  const double ad = std::min(1.0, std::fabs(d));
  const double angle = std::acos(ad);
  double wa = 1 - t, wb = t;
  if (angle > 1e-7) {
    wa = std::sin(angle * (1 - t)) / std::sin(angle);
    wb = std::sin(angle * t) / std::sin(angle);
  }
  Q4 r;
  for (int i = 0; i < 4; ++i) r[i] = wa * a[i] + s * wb * b[i];
  return r;
}

// The rotation angle between two quaternions as rotations (q and -q the same).
double spec_angle(Q4 a, Q4 b) {
  a = normalize4(a);
  b = normalize4(b);
  if (dot4(a, b) < 0)
    for (double& x : b) x = -x;
  double dm = 0, dp = 0;
  for (int i = 0; i < 4; ++i) {
    dm += (a[i] - b[i]) * (a[i] - b[i]);
    dp += (a[i] + b[i]) * (a[i] + b[i]);
  }
  return 4 * std::atan2(std::sqrt(dm), std::sqrt(dp));
}

struct Track {
  std::vector<double> times, values;
  std::size_t c = 1;
  Interpolation interp = Interpolation::kLinear;
  ValueKind kind = ValueKind::kVector;
  TrackView view() const { return {times, values, c, interp, kind}; }
  std::size_t stride() const { return interp == Interpolation::kCubicSpline ? 3 * c : c; }
  const double* val(std::size_t k) const {
    return values.data() + k * stride() + (interp == Interpolation::kCubicSpline ? c : 0);
  }
};

// The track's value at time t, from the spec's formulas.
std::vector<double> spec_eval(const Track& tr, double t) {
  const std::size_t n = tr.times.size(), c = tr.c;
  if (t <= tr.times.front() || n == 1) return {tr.val(0), tr.val(0) + c};
  if (t >= tr.times.back()) return {tr.val(n - 1), tr.val(n - 1) + c};
  std::size_t k = 0;
  while (tr.times[k + 1] <= t) ++k;
  if (t == tr.times[k]) return {tr.val(k), tr.val(k) + c};
  const double td = tr.times[k + 1] - tr.times[k], u = (t - tr.times[k]) / td;
  std::vector<double> out(c);
  if (tr.interp == Interpolation::kStep) return {tr.val(k), tr.val(k) + c};
  if (tr.interp == Interpolation::kLinear) {
    if (tr.kind == ValueKind::kRotation) {
      Q4 a, b;
      std::copy_n(tr.val(k), 4, a.begin());
      std::copy_n(tr.val(k + 1), 4, b.begin());
      const Q4 r = spec_slerp(a, b, u);
      return {r.begin(), r.end()};
    }
    for (std::size_t i = 0; i < c; ++i) out[i] = (1 - u) * tr.val(k)[i] + u * tr.val(k + 1)[i];
    return out;
  }
  // CUBICSPLINE: v, b (out-tangent of k), v1, a1 (in-tangent of k+1), tangents times td.
  const double* b = tr.val(k) + c;
  const double* a1 = tr.val(k + 1) - c;
  const double u2 = u * u, u3 = u2 * u;
  for (std::size_t i = 0; i < c; ++i)
    out[i] = (2 * u3 - 3 * u2 + 1) * tr.val(k)[i] + td * (u3 - 2 * u2 + u) * b[i] +
             (-2 * u3 + 3 * u2) * tr.val(k + 1)[i] + td * (u3 - u2) * a1[i];
  if (tr.kind == ValueKind::kRotation) {
    Q4 q;
    std::copy_n(out.begin(), 4, q.begin());
    q = normalize4(q);
    return {q.begin(), q.end()};
  }
  return out;
}

// The largest error of `reduced` against `original`, sampled at every original key and at
// `dense` points inside every original segment (and just before each key, for STEP).
double spec_error(const Track& original, const Track& reduced, int dense = 64) {
  double worst = 0;
  auto at = [&](double t) {
    const std::vector<double> o = spec_eval(original, t), r = spec_eval(reduced, t);
    double e = 0;
    if (original.kind == ValueKind::kRotation) {
      e = spec_angle({o[0], o[1], o[2], o[3]}, {r[0], r[1], r[2], r[3]});
    } else {
      for (std::size_t i = 0; i < o.size(); ++i) e = std::max(e, std::fabs(o[i] - r[i]));
    }
    worst = std::max(worst, e);
  };
  for (std::size_t k = 0; k < original.times.size(); ++k) {
    at(original.times[k]);
    if (k + 1 == original.times.size()) break;
    const double t0 = original.times[k], t1 = original.times[k + 1];
    for (int s = 1; s <= dense; ++s) at(t0 + (t1 - t0) * s / (dense + 1));
    at(std::nextafter(t1, t0));
  }
  return worst;
}

Track reduced_of(const Track& original, const gltf_anim::repair::ReducedTrack& r) {
  Track t = original;
  t.times = r.keys.times;
  t.values = r.keys.values;
  return t;
}

ReduceOptions options_for(double e) {
  ReduceOptions o;
  o.bounds = ReduceBounds::from_max_error(e);
  return o;
}

// ---- Tracks with a known optimal reduction ---------------------------------------------

TEST(Reduce, CollinearKeysBecomeTheirTwoEnds) {
  // v(t) = (1 + 2t, -3t, 0.5) at uneven times: every interior key lies on the chord.
  Track tr;
  tr.c = 3;
  tr.times = {0, 0.25, 0.5, 1.75, 2, 3.5};
  for (double t : tr.times) tr.values.insert(tr.values.end(), {1 + 2 * t, -3 * t, 0.5});
  const ReduceResult r = gltf_anim::repair::reduce_track(tr.view(), options_for(1e-9));
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.tracks.size(), 1u);
  EXPECT_EQ(r.tracks[0].kept, (std::vector<std::size_t>{0, 5}));
  EXPECT_EQ(r.tracks[0].keys.times, (std::vector<double>{0, 3.5}));
  EXPECT_EQ(r.tracks[0].keys.values, (std::vector<double>{1, 0, 0.5, 8, -10.5, 0.5}));
}

TEST(Reduce, ABumpAboveTheBoundStays) {
  // 0 0 0 1 0 0 0 at t = 0..6, E = 0.1. Dropping key 2 puts the chord from key 0 to key 3
  // at 1/3 above key 2; dropping key 4 likewise; key 3 is the bump itself; keys 1 and 5
  // lie on flat chords. Optimal: {0, 2, 3, 4, 6}.
  Track tr;
  tr.times = {0, 1, 2, 3, 4, 5, 6};
  tr.values = {0, 0, 0, 1, 0, 0, 0};
  const ReduceResult r = gltf_anim::repair::reduce_track(tr.view(), options_for(0.1));
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.tracks[0].kept, (std::vector<std::size_t>{0, 2, 3, 4, 6}));
  EXPECT_EQ(r.tracks[0].max_error, 0.0);
}

TEST(Reduce, StepDuplicatesGoTheLastKeyStays) {
  // STEP 1 1 1 2 2 5 5 5: a key equal to the previous kept one changes nothing; the last
  // key keeps the track's time range.
  Track tr;
  tr.interp = Interpolation::kStep;
  tr.times = {0, 1, 2, 3, 4, 5, 6, 7};
  tr.values = {1, 1, 1, 2, 2, 5, 5, 5};
  const ReduceResult r = gltf_anim::repair::reduce_track(tr.view(), options_for(1e-6));
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.tracks[0].kept, (std::vector<std::size_t>{0, 3, 5, 7}));
  EXPECT_EQ(r.tracks[0].keys.values, (std::vector<double>{1, 2, 5, 5}));
  // Within the bound of the previous kept key: STEP 1 1.05 0.97 1.02 with E = 0.1 keeps
  // only its ends.
  Track near;
  near.interp = Interpolation::kStep;
  near.times = {0, 1, 2, 3, 4};
  near.values = {1, 1.05, 0.97, 1.02, 3};
  const ReduceResult n = gltf_anim::repair::reduce_track(near.view(), options_for(0.1));
  EXPECT_EQ(n.tracks[0].kept, (std::vector<std::size_t>{0, 4}));
}

Q4 axis_angle(double ax, double ay, double az, double angle) {
  const double l = std::sqrt(ax * ax + ay * ay + az * az);
  const double s = std::sin(angle / 2) / l;
  return {ax * s, ay * s, az * s, std::cos(angle / 2)};
}
Q4 mul(const Q4& a, const Q4& b) {  // Hamilton product, (x, y, z, w)
  return {a[3] * b[0] + b[3] * a[0] + a[1] * b[2] - a[2] * b[1],
          a[3] * b[1] + b[3] * a[1] + a[2] * b[0] - a[0] * b[2],
          a[3] * b[2] + b[3] * a[2] + a[0] * b[1] - a[1] * b[0],
          a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]};
}

TEST(Reduce, SlerpArcAtUnevenTimesBecomesItsTwoEnds) {
  // q(t) = q0 * rot(n, w t): one great circle of S^3 at constant angular speed, keyed at
  // uneven times, some keys stored as -q (the same rotation). Slerp between the ends is
  // the same curve; nlerp of the ends (a reading the suite allows) follows it at another
  // speed, lagging by up to 2 max_u |atan2(u sin 1, 1 - u + u cos 1) - u| = 0.0338 rad
  // (the ends 1 rad apart on S^3, the maximum near u = 0.23): at 0.05 rad the ends
  // suffice under both readings, at 2e-6 rad every key stays.
  const Q4 q0 = axis_angle(0.3, -1, 0.2, 0.7);
  Track tr;
  tr.c = 4;
  tr.kind = ValueKind::kRotation;
  tr.times = {0, 0.1, 0.35, 0.4, 1.0, 1.3, 2.2, 2.5};
  for (std::size_t k = 0; k < tr.times.size(); ++k) {
    Q4 q = mul(q0, axis_angle(1, 2, -0.5, 0.8 * tr.times[k]));
    if (k % 3 == 1)
      for (double& x : q) x = -x;
    tr.values.insert(tr.values.end(), q.begin(), q.end());
  }
  const ReduceResult r = gltf_anim::repair::reduce_track(tr.view(), options_for(0.025));  // angle 0.05 rad
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.tracks[0].kept, (std::vector<std::size_t>{0, 7}));
  EXPECT_LE(spec_error(tr, reduced_of(tr, r.tracks[0])), 2e-6);
  EXPECT_EQ(gltf_anim::repair::reduce_track(tr.view(), options_for(1e-6)).tracks[0].kept.size(),
            tr.times.size());
  // The same keys bent off the circle by 0.01 rad at key 4: that key must stay.
  Track bent = tr;
  const Q4 kick = axis_angle(0, 0, 1, 0.01);
  Q4 q4;
  std::copy_n(bent.values.begin() + 16, 4, q4.begin());
  q4 = mul(q4, kick);
  std::copy(q4.begin(), q4.end(), bent.values.begin() + 16);
  const ReduceResult b = gltf_anim::repair::reduce_track(bent.view(), options_for(1e-4));
  EXPECT_NE(std::find(b.tracks[0].kept.begin(), b.tracks[0].kept.end(), 4u),
            b.tracks[0].kept.end());
  EXPECT_LE(spec_error(bent, reduced_of(bent, b.tracks[0])), 2e-4);
}

TEST(Reduce, KeptLinearRotationKeysFaceOneHemisphere) {
  // A quarter turn about z keyed every 10 degrees, the last five keys stored as -q:
  // the reduction keeps the two ends, q(0) = (0, 0, 0, 1) and -q(90 deg) =
  // (0, 0, -sin 45, -cos 45), whose dot is -cos 45. The second is written as +q(90 deg),
  // the same rotation, so the output has no negative dot between consecutive keys.
  // The bound, 0.03 rad, is above what nlerp of the ends lags the slerp by (keys pi/4
  // apart on S^3: 2 max_u |atan2(u sin(pi/4), 1 - u + u cos(pi/4)) - u pi/4| = 0.0160 rad).
  Track tr;
  tr.c = 4;
  tr.kind = ValueKind::kRotation;
  for (int k = 0; k < 10; ++k) {
    const double half = 0.5 * (std::numbers::pi / 2) * k / 9.0;
    const double sign = k >= 5 ? -1.0 : 1.0;
    tr.times.push_back(k * 0.1);
    for (double x : {0.0, 0.0, sign * std::sin(half), sign * std::cos(half)})
      tr.values.push_back(x);
  }
  const ReduceResult r = gltf_anim::repair::reduce_track(tr.view(), options_for(0.015));  // angle 0.03 rad
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.tracks[0].kept, (std::vector<std::size_t>{0, 9}));
  const std::vector<double>& v = r.tracks[0].keys.values;
  ASSERT_EQ(v.size(), 8u);
  const double c45 = std::sqrt(0.5);
  EXPECT_EQ(v[4], 0.0);
  EXPECT_EQ(v[5], 0.0);
  EXPECT_NEAR(v[6], c45, 1e-15);
  EXPECT_NEAR(v[7], c45, 1e-15);
  EXPECT_LE(spec_error(tr, reduced_of(tr, r.tracks[0])), 2e-6);
}

TEST(Reduce, CubicKeysOfOnePolynomialKeepTheirEndsAndOwnTangents) {
  // p(t) = 1 - t + 0.5 t^2 - 0.2 t^3, keyed with p'(t) as both tangents: the Hermite
  // segment between any two keys with their own tangents is p itself.
  Track tr;
  tr.interp = Interpolation::kCubicSpline;
  tr.times = {0, 0.5, 0.8, 1.9, 2.4, 3};
  for (double t : tr.times) {
    const double p = 1 - t + 0.5 * t * t - 0.2 * t * t * t, dp = -1 + t - 0.6 * t * t;
    tr.values.insert(tr.values.end(), {dp, p, dp});
  }
  const ReduceResult r = gltf_anim::repair::reduce_track(tr.view(), options_for(1e-9));
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.tracks[0].kept, (std::vector<std::size_t>{0, 5}));
  const std::vector<double> ends{tr.values[0],  tr.values[1],  tr.values[2],
                                 tr.values[15], tr.values[16], tr.values[17]};
  EXPECT_EQ(r.tracks[0].keys.values, ends);
  // A key whose tangent disagrees with p by 0.3/s bends the curve: it stays at E = 1e-3.
  Track bent = tr;
  bent.values[3 * 3 + 2] += 0.3;  // out-tangent of key 3
  const ReduceResult b = gltf_anim::repair::reduce_track(bent.view(), options_for(1e-3));
  const auto& kept = b.tracks[0].kept;
  EXPECT_NE(std::find(kept.begin(), kept.end(), 3u), kept.end());
  EXPECT_LE(spec_error(bent, reduced_of(bent, b.tracks[0])), 1e-3);
}

TEST(Reduce, ConstantChannelsCollapse) {
  Track tr;
  tr.c = 2;
  tr.times = {0, 1, 2, 3};
  tr.values = {5, 1, 5.0004, 1.0003, 4.9998, 1, 5.0001, 0.9999};
  ReduceOptions o = options_for(1e-3);
  ReduceResult r = gltf_anim::repair::reduce_track(tr.view(), o);
  ASSERT_EQ(r.error, "");
  EXPECT_TRUE(r.tracks[0].collapsed);
  EXPECT_EQ(r.tracks[0].keys.times, (std::vector<double>{0}));
  // The middle of each component's range, as float32: (4.9998 + 5.0004) / 2, (0.9999 +
  // 1.0003) / 2.
  EXPECT_EQ(r.tracks[0].keys.values,
            (std::vector<double>{static_cast<float>(5.0001), static_cast<float>(1.0001)}));
  o.keep_time_range = true;
  r = gltf_anim::repair::reduce_track(tr.view(), o);
  EXPECT_EQ(r.tracks[0].keys.times, (std::vector<double>{0, 3}));
  // Not within E = 2e-4 of one value (the range of x is 6e-4 wide).
  r = gltf_anim::repair::reduce_track(tr.view(), options_for(2e-4));
  EXPECT_FALSE(r.tracks[0].collapsed);
  // A cubic whose keys are constant but whose tangents bulge 0.5 between them is not.
  Track cubic;
  cubic.interp = Interpolation::kCubicSpline;
  cubic.times = {0, 1};
  cubic.values = {0, 2, 2, -2, 2, 0};  // p(t) = 2 + 2t - 2t^2: 2.5 at t = 0.5
  r = gltf_anim::repair::reduce_track(cubic.view(), options_for(0.1));
  EXPECT_FALSE(r.tracks[0].collapsed);
  r = gltf_anim::repair::reduce_track(cubic.view(), options_for(0.3));
  ASSERT_TRUE(r.tracks[0].collapsed);
  // Two keys (CUBICSPLINE's minimum), flat tangents, a value near the middle of [2, 2.5].
  ASSERT_EQ(r.tracks[0].keys.values.size(), 6u);
  EXPECT_NEAR(r.tracks[0].keys.values[1], 2.25, 0.05);
  EXPECT_EQ(r.tracks[0].keys.values[1], r.tracks[0].keys.values[4]);
  EXPECT_EQ(r.tracks[0].keys.values[0], 0.0);
  EXPECT_EQ(r.tracks[0].keys.values[5], 0.0);
  EXPECT_LE(spec_error(cubic, reduced_of(cubic, r.tracks[0])), 0.3);
}

TEST(Reduce, TracksSharingTimesKeepOneKeySetOrSplitWhenSmaller) {
  // A collinear track and a bump share their times. Jointly the key set is the bump's,
  // {0, 2, 3, 4, 6}; alone the line needs only {0, 6}.
  Track line, bump;
  line.times = bump.times = {0, 1, 2, 3, 4, 5, 6};
  line.values = {0, 1, 2, 3, 4, 5, 6};
  bump.values = {0, 0, 0, 1, 0, 0, 0};
  const std::vector<TrackToReduce> tracks{{line.view()}, {bump.view()}};
  ReduceOptions keep = options_for(0.1);
  keep.shared_times = gltf_anim::repair::SharedTimes::kKeep;
  ReduceResult r = gltf_anim::repair::reduce_tracks(tracks, keep);
  ASSERT_EQ(r.error, "");
  const std::vector<std::size_t> bumps{0, 2, 3, 4, 6};
  EXPECT_TRUE(r.shared);
  EXPECT_EQ(r.tracks[0].kept, bumps);
  EXPECT_EQ(r.tracks[1].kept, bumps);
  // Bytes (float32): jointly 5 times + 5 + 5 values = 60; alone 2 + 2 (line) and 5 + 5
  // (bump) = 56. Alone is smaller: split.
  r = gltf_anim::repair::reduce_tracks(tracks, options_for(0.1));
  EXPECT_FALSE(r.shared);
  EXPECT_EQ(r.tracks[0].kept, (std::vector<std::size_t>{0, 6}));
  EXPECT_EQ(r.tracks[1].kept, bumps);
  // Two bumps: alone they get the same keys, 5 times + 5 + 5 = 60 either way; ties share.
  Track twice = bump;
  for (double& v : twice.values) v *= 2;
  const std::vector<TrackToReduce> bumps2{{bump.view()}, {twice.view()}};
  r = gltf_anim::repair::reduce_tracks(bumps2, options_for(0.1));
  EXPECT_TRUE(r.shared);
  EXPECT_EQ(r.tracks[0].kept, bumps);
  EXPECT_EQ(r.tracks[1].kept, bumps);
}

TEST(Reduce, TheFewestKeysAreFoundWhereTheFarthestReachMissesThem) {
  // LINEAR 0, 0, 0, 0, 1, 1, 1 at times 0..6, E = 0.6. The line from key 0 to key 6 is t/6:
  // off by 0, 1/6, 1/3, 1/2, 1/3, 1/6, 0 at the keys, at most 0.5: the two ends are enough.
  // A search by farthest reach from key 0 meets the run to key 4 first, whose line t/4 is
  // off by 3/4 at key 3, and stops short (keys 0, 3, 5, 6). Not collapsed here: the middle
  // value 0.5 would also be within 0.6.
  Track step;
  step.times = {0, 1, 2, 3, 4, 5, 6};
  step.values = {0, 0, 0, 0, 1, 1, 1};
  ReduceOptions options = options_for(0.6);
  options.collapse_constant = false;
  const ReduceResult r = gltf_anim::repair::reduce_track(step.view(), options);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.tracks[0].kept, (std::vector<std::size_t>{0, 6}));
  EXPECT_NEAR(r.tracks[0].max_error, 0.5, 1e-12);
  EXPECT_LE(spec_error(step, reduced_of(step, r.tracks[0])), 0.6);
}

TEST(Reduce, TracksSharingTimesTakeTheByteSmallestMixOfJointAndAlone) {
  // Times 0..8. A bump at 3 and a bump at 4 (alone {0, 2, 3, 4, 8} and {0, 3, 4, 5, 8},
  // jointly {0, 2, 3, 4, 5, 8}) and a line (alone {0, 8}), float32 scalars at E = 0.1.
  // Bytes of every assignment, values and each distinct key set's times at 4 a key:
  //   all jointly: 6 x 3 values + 6 times = 96; each alone: (5 + 5 + 2) + (5 + 5 + 2) = 96;
  //   line alone, bumps jointly: (6 + 6 + 2) + (6 + 2) = 88; bump at 3 with the line
  //   ({0, 2, 3, 4, 8}) and the other alone: (5 + 5 + 5) + (5 + 5) = 100, and so its mirror.
  // The smallest: the two bumps share one key set, the line goes alone.
  Track a, b, line;
  a.times = b.times = line.times = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  a.values = {0, 0, 0, 1, 0, 0, 0, 0, 0};
  b.values = {0, 0, 0, 0, 1, 0, 0, 0, 0};
  line.values = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<TrackToReduce> tracks{{a.view()}, {b.view()}, {line.view()}};
  const ReduceResult r = gltf_anim::repair::reduce_tracks(tracks, options_for(0.1));
  ASSERT_EQ(r.error, "");
  const std::vector<std::size_t> both{0, 2, 3, 4, 5, 8};
  EXPECT_EQ(r.tracks[0].kept, both);
  EXPECT_EQ(r.tracks[1].kept, both);
  EXPECT_EQ(r.tracks[2].kept, (std::vector<std::size_t>{0, 8}));
  EXPECT_FALSE(r.shared);
  for (std::size_t t = 0; t < 3; ++t) {
    const Track& original = t == 0 ? a : t == 1 ? b : line;
    EXPECT_LE(spec_error(original, reduced_of(original, r.tracks[t])), 0.1) << t;
  }
}

TEST(Reduce, RefusesBadBoundsAndTracks) {
  Track tr;
  tr.times = {0, 1};
  tr.values = {0, 1};
  EXPECT_NE(gltf_anim::repair::reduce_track(tr.view(), options_for(-1)).error, "");
  EXPECT_NE(gltf_anim::repair::reduce_track(tr.view(), options_for(std::nan(""))).error, "");
  Track bad = tr;
  bad.times = {1, 0};
  EXPECT_NE(gltf_anim::repair::reduce_track(bad.view(), options_for(0.1)).error, "");
  Track other = tr;
  other.times = {0, 2};
  const std::vector<TrackToReduce> two{{tr.view()}, {other.view()}};
  EXPECT_NE(gltf_anim::repair::reduce_tracks(two, options_for(0.1)).error, "");
}

// ---- Quantization -----------------------------------------------------------------------

TEST(Reduce, QuantizationPicksTheSmallestTypeWithinHalfTheBound) {
  // Weights in [0, 1], LINEAR: UNSIGNED_BYTE rounds by at most 1/510 < E/2 = 0.005.
  Track w;
  w.times = {0, 1, 2, 3};
  w.values = {0, 0.2, 0.8, 0.25};
  ReduceOptions o = options_for(0.01);
  o.quantize = true;
  ReduceResult r = gltf_anim::repair::reduce_track(w.view(), o, true);
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.tracks[0].quantization, Quantization::kUnsignedByte);
  // Decoded as c / 255 with c = round(v * 255): 0, 51, 204, 64 (63.75). No key can go:
  // each chord misses its middle key by 0.2 or more.
  EXPECT_EQ(r.tracks[0].keys.values, (std::vector<double>{0, 51 / 255.0, 204 / 255.0, 64 / 255.0}));
  // E = 1e-3: 1/510 > E/2, but 1/131070 fits: UNSIGNED_SHORT.
  o.bounds = ReduceBounds::from_max_error(1e-3);
  r = gltf_anim::repair::reduce_track(w.view(), o, true);
  EXPECT_EQ(r.tracks[0].quantization, Quantization::kUnsignedShort);
  // Not allowed for this target: stays float.
  r = gltf_anim::repair::reduce_track(w.view(), o, false);
  EXPECT_EQ(r.tracks[0].quantization, Quantization::kNone);
  // Outside [-1, 1]: no normalized type can hold it.
  Track big = w;
  big.values[2] = 1.5;
  r = gltf_anim::repair::reduce_track(big.view(), o, true);
  EXPECT_EQ(r.tracks[0].quantization, Quantization::kNone);
}

TEST(Reduce, ACollapsedValueIsRoundedToTheStoredType) {
  // Weights stored as UNSIGNED_SHORT: 10000, 10002, 10001 (/ 65535). The middle of their
  // range, 10001 / 65535, is itself a stored value; float32 rounding would not be.
  Track w;
  w.times = {0, 1, 2};
  w.values = {10000 / 65535.0, 10002 / 65535.0, 10001 / 65535.0};
  TrackToReduce t{w.view(), true, Quantization::kUnsignedShort};
  const ReduceResult r =
      gltf_anim::repair::reduce_tracks(std::span<const TrackToReduce>(&t, 1), options_for(1e-4));
  ASSERT_EQ(r.error, "");
  ASSERT_TRUE(r.tracks[0].collapsed);
  EXPECT_EQ(r.tracks[0].quantization, Quantization::kNone);  // not asked to quantize
  EXPECT_EQ(r.tracks[0].keys.values, (std::vector<double>{10001 / 65535.0}));
}

TEST(Reduce, EncodingIsGltfNormalizedIntegers) {
  using gltf_anim::repair::encode_normalized;
  EXPECT_EQ(encode_normalized(1.0, Quantization::kShort), 32767);
  EXPECT_EQ(encode_normalized(-1.0, Quantization::kShort), -32767);
  EXPECT_EQ(encode_normalized(0.5, Quantization::kByte), 64);  // 63.5 rounds away from 0
  EXPECT_EQ(encode_normalized(1.0, Quantization::kUnsignedShort), 65535);
  EXPECT_EQ(gltf_anim::repair::quantized(-1.0, Quantization::kByte), -1.0);
  EXPECT_EQ(static_cast<std::uint32_t>(gltf_anim::repair::component_type(Quantization::kShort)),
            5122u);
  EXPECT_EQ(gltf_anim::repair::component_size(Quantization::kNone), 4u);
}

// ---- Random tracks, the bound checked by the independent evaluator ----------------------

Track random_track(std::mt19937& rng, Interpolation interp, ValueKind kind, std::size_t n) {
  std::uniform_real_distribution<double> step(0.01, 0.06), jitter(-1, 1);
  Track tr;
  tr.interp = interp;
  tr.kind = kind;
  tr.c = kind == ValueKind::kRotation ? 4 : 3;
  double t = 0;
  Q4 q = axis_angle(0.2, 1, -0.4, 0.5);
  std::array<double, 3> v{0, 0, 0}, vel{0.5, -0.2, 0.1};
  for (std::size_t k = 0; k < n; ++k) {
    tr.times.push_back(t);
    const double dt = step(rng);
    t += dt;
    std::vector<double> value(tr.c), tangent(tr.c);
    if (kind == ValueKind::kRotation) {
      // A smooth wobble with an occasional sharp turn, stored as float32 like glTF data.
      const double turn = (k % 17 == 5) ? 0.4 : 0.05;
      q = mul(q, axis_angle(1 + 0.3 * jitter(rng), 0.5 * jitter(rng), 0.2, turn * jitter(rng)));
      q = normalize4(q);
      for (std::size_t i = 0; i < 4; ++i) value[i] = static_cast<float>(q[i]);
      for (std::size_t i = 0; i < 4; ++i) tangent[i] = 0.3 * jitter(rng);
    } else {
      for (std::size_t i = 0; i < 3; ++i) {
        vel[i] += 0.8 * jitter(rng);
        v[i] += vel[i] * dt;
        value[i] = static_cast<float>(v[i]);
        tangent[i] = static_cast<float>(vel[i] + 0.1 * jitter(rng));
      }
    }
    if (interp == Interpolation::kCubicSpline)
      tr.values.insert(tr.values.end(), tangent.begin(), tangent.end());
    tr.values.insert(tr.values.end(), value.begin(), value.end());
    if (interp == Interpolation::kCubicSpline)
      tr.values.insert(tr.values.end(), tangent.begin(), tangent.end());
  }
  return tr;
}

struct RandomCase {
  Interpolation interp;
  ValueKind kind;
  bool quantize;
};

TEST(Reduce, RandomTracksStayWithinTheBoundByAnIndependentCheck) {
  const RandomCase cases[] = {
      {Interpolation::kLinear, ValueKind::kVector, false},
      {Interpolation::kStep, ValueKind::kVector, false},
      {Interpolation::kCubicSpline, ValueKind::kVector, false},
      {Interpolation::kLinear, ValueKind::kRotation, false},
      {Interpolation::kStep, ValueKind::kRotation, false},
      {Interpolation::kCubicSpline, ValueKind::kRotation, false},
      {Interpolation::kLinear, ValueKind::kRotation, true},
  };
  std::mt19937 rng(20261126);
  for (const RandomCase& rc : cases) {
    for (double e : {1e-5, 1e-4, 1e-3, 1e-2, 1e-1}) {
      const Track tr = random_track(rng, rc.interp, rc.kind, 120);
      ReduceOptions o = options_for(e);
      o.quantize = rc.quantize;
      const ReduceResult r = gltf_anim::repair::reduce_track(tr.view(), o, rc.quantize);
      ASSERT_EQ(r.error, "");
      const double bound = rc.kind == ValueKind::kRotation ? 2 * e : e;
      const Track red = reduced_of(tr, r.tracks[0]);
      const double measured = spec_error(tr, red);
      SCOPED_TRACE(testing::Message()
                   << "interpolation " << static_cast<int>(rc.interp) << " kind "
                   << static_cast<int>(rc.kind) << " E " << e << " keys " << red.times.size());
      // Rounding of the two evaluators differs by far less than 1e-12.
      EXPECT_LE(measured, bound + 1e-12);
      // What the reducer reports is an upper bound of the true error.
      EXPECT_GE(r.tracks[0].max_error + 1e-12, measured);
      EXPECT_LE(r.tracks[0].max_error, bound);
      // And it did reduce at the loose bounds.
      if (e >= 1e-2) { EXPECT_LT(red.times.size(), tr.times.size()); }
    }
  }
}

}  // namespace

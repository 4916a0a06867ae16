// reduce's bound under every reading of a LINEAR rotation the conformance suite allows:
// slerp (Appendix C) and nlerp (C.4's allowed approximation, the suite's "nlerp"
// variant). The outputs are checked by this file's own evaluator (slerp and nlerp written
// again here), sampled densely inside every original segment, never by the code under test.
#include <gltf_anim/gltf/animation_model.hpp>
#include <gltf_anim/gltf/load.hpp>
#include <gltf_anim/repair/reduce.hpp>
#include <gltf_anim/repair/tool.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using gltf_anim::reference::Interpolation;
using gltf_anim::reference::TrackView;
using gltf_anim::reference::ValueKind;
using gltf_anim::repair::ReduceBounds;
using gltf_anim::repair::ReduceOptions;

using Q4 = std::array<double, 4>;

double dot4(const Q4& a, const Q4& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
}
Q4 normalize4(Q4 q) {
  const double l = std::sqrt(dot4(q, q));
  for (double& x : q) x /= l;
  return q;
}

enum class Reading { kSlerp, kNlerp };

// Appendix C's slerp (shortest path), or the normalized lerp (shortest path).
Q4 interpolate(Q4 a, Q4 b, double u, Reading reading) {
  a = normalize4(a);
  b = normalize4(b);
  if (dot4(a, b) < 0)
    for (double& x : b) x = -x;
  double wa = 1 - u, wb = u;
  if (reading == Reading::kSlerp) {
    const double angle = std::acos(std::min(1.0, dot4(a, b)));
    if (angle > 1e-7) {
      wa = std::sin(angle * (1 - u)) / std::sin(angle);
      wb = std::sin(angle * u) / std::sin(angle);
    }
  }
  Q4 r;
  for (int i = 0; i < 4; ++i) r[i] = wa * a[i] + wb * b[i];
  return normalize4(r);
}

// The rotation angle between two quaternions as rotations (q and -q the same).
double angle(Q4 a, Q4 b) {
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

Q4 at(const std::vector<double>& times, const std::vector<double>& values, double t,
      Reading reading) {
  auto key = [&](std::size_t k) {
    return Q4{values[4 * k], values[4 * k + 1], values[4 * k + 2], values[4 * k + 3]};
  };
  const std::size_t n = times.size();
  if (n == 1 || t <= times.front()) return normalize4(key(0));
  if (t >= times.back()) return normalize4(key(n - 1));
  std::size_t k = 0;
  while (times[k + 1] <= t) ++k;
  return interpolate(key(k), key(k + 1), (t - times[k]) / (times[k + 1] - times[k]), reading);
}

// The largest angle between the original's and the reduced track's playback under
// `reading`, at every original key and `dense` points inside every original segment.
double dense_error(const std::vector<double>& times, const std::vector<double>& values,
                   const gltf_anim::repair::ReducedTrack& reduced, Reading reading,
                   int dense = 200) {
  double worst = 0;
  for (std::size_t k = 0; k + 1 < times.size(); ++k)
    for (int s = 0; s <= dense; ++s) {
      const double t = times[k] + (times[k + 1] - times[k]) * s / (dense + 1);
      worst = std::max(worst, angle(at(times, values, t, reading),
                                    at(reduced.keys.times, reduced.keys.values, t, reading)));
    }
  return worst;
}

// Reduces a LINEAR rotation track at `bound` and checks the bound under both readings.
void expect_within_under_both(const std::vector<double>& times, const std::vector<double>& values,
                              double bound, const std::string& what) {
  const TrackView view{times, values, 4, Interpolation::kLinear, ValueKind::kRotation};
  ReduceOptions options;
  options.bounds = ReduceBounds{bound, bound};
  const auto result = gltf_anim::repair::reduce_track(view, options);
  ASSERT_TRUE(result.error.empty()) << what << ": " << result.error;
  ASSERT_EQ(result.tracks.size(), 1u);
  for (Reading r : {Reading::kSlerp, Reading::kNlerp}) {
    const double e = dense_error(times, values, result.tracks[0], r);
    EXPECT_LE(e, bound * (1 + 1e-9))
        << what << " at " << bound << " rad, read by " << (r == Reading::kSlerp ? "slerp" : "nlerp")
        << ": " << result.tracks[0].keys.times.size() << " of " << times.size() << " keys kept";
    EXPECT_LE(e, result.tracks[0].max_error * (1 + 1e-9) + 1e-15) << what << ": over its own report";
  }
}

Q4 axis_angle(double x, double y, double z, double a) {
  const double l = std::sqrt(x * x + y * y + z * z), s = std::sin(a / 2) / l;
  return {x * s, y * s, z * s, std::cos(a / 2)};
}

// A constant-speed turn: slerp of its first and last keys plays it exactly (by hand: every
// key lies on that great circle at its time's share), so under slerp alone two keys
// suffice; nlerp of keys 120 degrees apart lags the turn by several degrees between them,
// nlerp of keys 4 degrees apart by about 1e-5 rad.
TEST(ReduceReadings, ConstantTurnKeepsKeysForNlerp) {
  std::vector<double> times, values;
  for (int k = 0; k <= 30; ++k) {
    times.push_back(k / 30.0);
    const Q4 q = axis_angle(0, 0, 1, 2 * std::numbers::pi / 3 * k / 30.0);
    values.insert(values.end(), q.begin(), q.end());
  }
  for (double bound : {1e-3, 1e-4}) expect_within_under_both(times, values, bound, "constant turn");
}

// A Fox-like track: 30 Hz keys of a joint turning steadily (1.2 rad/s, the Fox's head
// looking round) with a small wobble of its axis and speed: long stretches slerp plays
// almost exactly from far-apart keys, where nlerp lags.
TEST(ReduceReadings, FoxLikeTrackWithinUnderSlerpAndNlerp) {
  std::vector<double> times, values;
  for (int k = 0; k <= 60; ++k) {
    const double t = k / 30.0;
    times.push_back(t);
    const double w = 2 * std::numbers::pi / 2.0;
    const double a = 1.2 * t + 0.002 * std::sin(3 * w * t + 0.4);
    const Q4 q = axis_angle(1, 0.3 + 0.001 * std::cos(w * t), 0.2, a);
    values.insert(values.end(), q.begin(), q.end());
  }
  for (double bound : {1e-2, 1e-3, 1e-4}) expect_within_under_both(times, values, bound, "fox-like");
}

// Keys 0 and 2 a half turn apart (dot exactly 0), key 1 half way on the great circle:
// slerp and nlerp of keys 0 and 2 both play key 1's rotation at its time, but a player
// negating at dot <= 0 turns the other way (pi rad from it there), so reduce must keep key 1.
TEST(ReduceReadings, NeverMakesASegmentWithDotZero) {
  const double h = std::sqrt(0.5);
  const std::vector<double> times{0, 1, 2};
  const std::vector<double> values{0, 0, 0, 1, 0, 0, h, h, 0, 0, 1, 0};
  const TrackView view{times, values, 4, Interpolation::kLinear, ValueKind::kRotation};
  ReduceOptions options;
  options.bounds = ReduceBounds{1e-3, 1e-3};
  const auto result = gltf_anim::repair::reduce_track(view, options);
  ASSERT_EQ(result.tracks.size(), 1u);
  EXPECT_EQ(result.tracks[0].keys.times, times);
}

// Every LINEAR rotation track of the shipped valid conformance assets, at two bounds.
TEST(ReduceReadings, ConformanceRotationsWithinUnderSlerpAndNlerp) {
  std::size_t checked = 0;
  for (const auto& entry :
       fs::directory_iterator(fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets" / "valid")) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".gltf" && ext != ".glb") continue;
    gltf_anim::gltf::IssueCollector issues;
    const auto asset = gltf_anim::gltf::load_file(entry.path(), {}, issues);
    if (!asset.document) continue;
    const auto model = gltf_anim::gltf::model::build_animation_model(asset);
    for (const auto& track : gltf_anim::repair::editable_tracks(asset, model)) {
      if (track.keys.kind != ValueKind::kRotation ||
          track.keys.interpolation != Interpolation::kLinear || track.keys.times.size() < 3)
        continue;
      bool finite_unit = true;
      for (std::size_t k = 0; k < track.keys.times.size(); ++k) {
        const Q4 q{track.keys.values[4 * k], track.keys.values[4 * k + 1],
                   track.keys.values[4 * k + 2], track.keys.values[4 * k + 3]};
        finite_unit = finite_unit && std::fabs(std::sqrt(dot4(q, q)) - 1) < 1e-3;
      }
      if (!finite_unit) continue;
      for (double bound : {1e-2, 1e-3})
        expect_within_under_both(track.keys.times, track.keys.values, bound,
                                 entry.path().filename().string() + " " + track.channel_pointer);
      ++checked;
    }
  }
  EXPECT_GE(checked, 3u);
}

}  // namespace

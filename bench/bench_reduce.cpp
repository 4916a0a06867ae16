// Google Benchmark for keyframe reduction (repair/reduce.hpp). Figures and the command
// that produced them: docs/PERFORMANCE.md, section "Keyframe reduction".
//
// Each benchmark reduces one track of 1,000,000 keys at 30 keys/s (about 9 hours of
// animation), stored as float32 like glTF data, at E = 1e-4 (A = 2e-4 rad):
//  * LinearTranslation: a smooth 3-vector, x = 0.5 sin(0.3 t) + 0.05 sin(1.1 t) and two
//    phase-shifted copies;
//  * LinearRotation: a rotation whose angle and axis drift smoothly (slerp, sampled
//    inside every segment);
//  * CubicTranslation: the translation as CUBICSPLINE with its derivative as tangents;
//  * LinearCollinear: a straight line, every interior key removable (one run of 1M keys:
//    the galloping search's longest checks).
// items = keys of the input. After timing, each checks that the reported error is within
// the bound and that keys were removed (SkipWithError otherwise).
//
// Beside them, `gltf-anim fit` (repair/fit.hpp) on the same LINEAR tracks at E = 1e-2
// (A = 2e-2 rad; at 1e-4 a cubic through keys 1/30 s apart rounds their corners by more
// than the bound, and nothing fits): FitCubicSpline on the translation, FitCubicSlerp on the
// rotation; kept_keys beside linear_kept, what reduce keeps of the track at that bound.
#include <gltf_anim/repair/fit.hpp>
#include <gltf_anim/repair/reduce.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <string>
#include <vector>

namespace {

using gltf_anim::reference::Interpolation;
using gltf_anim::reference::TrackView;
using gltf_anim::reference::ValueKind;

constexpr std::size_t kKeys = 1'000'000;
constexpr double kRate = 30.0;
constexpr double kMaxError = 1e-4;

using gltf_anim::reference::Track;

double f32(double v) { return static_cast<double>(static_cast<float>(v)); }

Track translation(bool cubic) {
  Track t;
  t.components = 3;
  t.interpolation = cubic ? Interpolation::kCubicSpline : Interpolation::kLinear;
  for (std::size_t k = 0; k < kKeys; ++k) {
    const double s = static_cast<double>(k) / kRate;
    t.times.push_back(s);
    double value[3], slope[3];
    for (int i = 0; i < 3; ++i) {
      const double p = s + i;
      value[i] = 0.5 * std::sin(0.3 * p) + 0.05 * std::sin(1.1 * p);
      slope[i] = 0.15 * std::cos(0.3 * p) + 0.055 * std::cos(1.1 * p);
    }
    if (cubic)
      for (double d : slope) t.values.push_back(f32(d));
    for (double v : value) t.values.push_back(f32(v));
    if (cubic)
      for (double d : slope) t.values.push_back(f32(d));
  }
  return t;
}

Track rotation() {
  Track t;
  t.components = 4;
  t.kind = ValueKind::kRotation;
  for (std::size_t k = 0; k < kKeys; ++k) {
    const double s = static_cast<double>(k) / kRate;
    t.times.push_back(s);
    const double angle = 1.2 * std::sin(0.5 * s), tilt = 0.4 * std::sin(0.13 * s);
    const double ax = std::sin(tilt), ay = std::cos(tilt), az = 0.0;
    const double h = 0.5 * angle;
    for (double v : {ax * std::sin(h), ay * std::sin(h), az, std::cos(h)})
      t.values.push_back(f32(v));
  }
  return t;
}

Track collinear() {
  Track t;
  t.components = 3;
  for (std::size_t k = 0; k < kKeys; ++k) {
    const double s = static_cast<double>(k) / kRate;
    t.times.push_back(s);
    for (double v : {2.0 * s, -s, 0.5}) t.values.push_back(v);
  }
  return t;
}

void run(benchmark::State& state, const Track& track) {
  gltf_anim::repair::ReduceOptions options;
  options.bounds = gltf_anim::repair::ReduceBounds::from_max_error(kMaxError);
  gltf_anim::repair::ReduceResult result;
  for (auto _ : state) {
    result = gltf_anim::repair::reduce_track(track.view(), options);
    benchmark::DoNotOptimize(result.tracks.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kKeys));
  const double bound = track.kind == ValueKind::kRotation ? 2 * kMaxError : kMaxError;
  if (!result.error.empty() || result.tracks.size() != 1 ||
      !(result.tracks[0].max_error <= bound) || result.tracks[0].keys.times.size() >= kKeys) {
    state.SkipWithError("reduction failed, exceeded its bound or removed nothing");
    return;
  }
  state.counters["kept_keys"] = static_cast<double>(result.tracks[0].keys.times.size());
}

void BM_LinearTranslation(benchmark::State& state) {
  static const Track track = translation(false);
  run(state, track);
}
void BM_LinearRotation(benchmark::State& state) {
  static const Track track = rotation();
  run(state, track);
}
void BM_CubicTranslation(benchmark::State& state) {
  static const Track track = translation(true);
  run(state, track);
}
void BM_LinearCollinear(benchmark::State& state) {
  static const Track track = collinear();
  run(state, track);
}

constexpr double kFitError = 1e-2;

void fit(benchmark::State& state, const Track& track, gltf_anim::repair::FitMode mode) {
  const bool rotation = track.kind == ValueKind::kRotation;
  const TrackView linear = track.view();
  const gltf_anim::repair::FitBound bound{kFitError, 2 * kFitError};
  gltf_anim::repair::FitResult result;
  for (auto _ : state) {
    result = gltf_anim::repair::fit_track(linear, mode, bound);
    benchmark::DoNotOptimize(result.kept.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kKeys));
  if (!result.fitted || !(result.max_error <= (rotation ? bound.max_angle : bound.max_error)) ||
      result.kept.size() >= kKeys) {
    state.SkipWithError(
        ("fit failed, exceeded its bound or removed nothing: " + result.why).c_str());
    return;
  }
  state.counters["kept_keys"] = static_cast<double>(result.kept.size());
  state.counters["linear_kept"] = static_cast<double>(result.linear_kept);
}

void BM_FitCubicSpline(benchmark::State& state) {
  static const Track track = translation(false);
  fit(state, track, gltf_anim::repair::FitMode::kCubicSpline);
}
void BM_FitCubicSlerp(benchmark::State& state) {
  static const Track track = rotation();
  fit(state, track, gltf_anim::repair::FitMode::kCubicSlerp);
}

BENCHMARK(BM_LinearTranslation)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LinearRotation)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CubicTranslation)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LinearCollinear)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FitCubicSpline)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FitCubicSlerp)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();

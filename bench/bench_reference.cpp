// Google Benchmark for the reference evaluator (reference/). Figures and the command
// that produced them: docs/PERFORMANCE.md, section "Reference evaluator".
//
// Interpolator benchmarks time one call on 1,024 prepared inputs per iteration
// (items = calls). Track benchmarks sample a 10,000-key LINEAR quaternion track (a
// constant-speed rotation about a fixed axis, 6 degrees per key at 30 keys/s, so every
// segment takes the acos/sin branch of slerp) at 1,000,000 times, sorted (evenly spaced)
// or random (uniform, std::mt19937_64 seed 1); items = samples. Every benchmark checks
// its result against a closed form after timing and fails (SkipWithError) if it is off.
// BM_TrackFast times the fast bulk path (fast_sample.hpp) on the same track and times.
#include <gltf_anim/reference/fast_sample.hpp>
#include <gltf_anim/reference/interpolate.hpp>
#include <gltf_anim/reference/track.hpp>

#include <benchmark/benchmark.h>

#include <array>
#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

namespace {

using namespace gltf_anim::reference;

constexpr std::size_t kInputs = 1024;
constexpr double kCheckTolerance = 1e-12;
constexpr Vec3 kAxis{0.36, 0.48, 0.8};  // unit

// Pairs of rotations about kAxis at angles alpha_i and alpha_i + delta_i, with
// |delta_i| < 180 degrees, and factors t_i: slerp's closed form is the rotation by
// alpha_i + t_i delta_i, for either variant.
struct PairInputs {
  std::vector<Quat> a, b;
  std::vector<double> t, alpha, delta;
};

const PairInputs& pair_inputs() {
  static const PairInputs inputs = [] {
    PairInputs in;
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> angle(-3.0, 3.0), step(-3.0, 3.0), factor(0.0, 1.0);
    for (std::size_t i = 0; i < kInputs; ++i) {
      in.alpha.push_back(angle(rng));
      in.delta.push_back(step(rng));
      in.t.push_back(factor(rng));
      in.a.push_back(from_axis_angle(kAxis, in.alpha.back()));
      in.b.push_back(from_axis_angle(kAxis, in.alpha.back() + in.delta.back()));
    }
    return in;
  }();
  return inputs;
}

double max_abs_diff(const Quat& p, const Quat& q) {
  return std::max({std::abs(p.x - q.x), std::abs(p.y - q.y), std::abs(p.z - q.z),
                   std::abs(p.w - q.w)});
}

// Times f(a_i, b_i, t_i) over the inputs; then checks every result with `expected`.
template <class F, class E>
void run_pairs(benchmark::State& state, F f, E expected) {
  const PairInputs& in = pair_inputs();
  for (auto _ : state) {
    for (std::size_t i = 0; i < kInputs; ++i) {
      Quat r = f(in.a[i], in.b[i], in.t[i]);
      benchmark::DoNotOptimize(r);
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kInputs));
  for (std::size_t i = 0; i < kInputs; ++i) {
    const double err = max_abs_diff(f(in.a[i], in.b[i], in.t[i]), expected(in, i));
    if (!(err < kCheckTolerance)) {
      state.SkipWithError(("wrong result at input " + std::to_string(i)).c_str());
      return;
    }
  }
}

Quat slerp_expected(const PairInputs& in, std::size_t i) {
  return from_axis_angle(kAxis, in.alpha[i] + in.t[i] * in.delta[i]);
}
// nlerp about one axis: half-angle h0 + atan2(t sin(dh), (1 - t) + t cos(dh)).
Quat nlerp_expected(const PairInputs& in, std::size_t i) {
  const double dh = 0.5 * in.delta[i];
  const double t = in.t[i];
  const double h = 0.5 * in.alpha[i] + std::atan2(t * std::sin(dh), (1 - t) + t * std::cos(dh));
  return from_axis_angle(kAxis, 2 * h);
}

void BM_Lerp(benchmark::State& state) {
  run_pairs(state, [](const Quat& a, const Quat& b, double t) { return lerp(a, b, t); },
            [](const PairInputs& in, std::size_t i) {
              return (1 - in.t[i]) * in.a[i] + in.t[i] * in.b[i];
            });
}
void BM_Nlerp(benchmark::State& state) {
  run_pairs(state, [](const Quat& a, const Quat& b, double t) { return nlerp(a, b, t); },
            nlerp_expected);
}
void BM_NlerpShortestPath(benchmark::State& state) {
  run_pairs(state,
            [](const Quat& a, const Quat& b, double t) { return nlerp_shortest_path(a, b, t); },
            nlerp_expected);
}
void BM_Slerp(benchmark::State& state) {
  run_pairs(state, [](const Quat& a, const Quat& b, double t) { return slerp(a, b, t); },
            slerp_expected);
}
void BM_SlerpShortestPath(benchmark::State& state) {
  run_pairs(state,
            [](const Quat& a, const Quat& b, double t) { return slerp_shortest_path(a, b, t); },
            slerp_expected);
}
// sqlerp(A, B, C, D) about one axis with B = A + delta/3, C = A + 2 delta/3 (angles):
// lerp of angles, w = 2t - 2t^2. Inner pairs stay within 180 degrees, so both variants
// follow the closed form.
template <SlerpVariant V>
void BM_Sqlerp(benchmark::State& state) {
  const PairInputs& in = pair_inputs();
  std::vector<Quat> b, c;
  for (std::size_t i = 0; i < kInputs; ++i) {
    b.push_back(from_axis_angle(kAxis, in.alpha[i] + in.delta[i] / 3));
    c.push_back(from_axis_angle(kAxis, in.alpha[i] + 2 * in.delta[i] / 3));
  }
  for (auto _ : state) {
    for (std::size_t i = 0; i < kInputs; ++i) {
      Quat r = sqlerp(in.a[i], b[i], c[i], in.b[i], in.t[i], V);
      benchmark::DoNotOptimize(r);
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kInputs));
  for (std::size_t i = 0; i < kInputs; ++i) {
    const double t = in.t[i], w = 2 * t - 2 * t * t;
    const double angle = in.alpha[i] + ((1 - w) * t + w * (1 + t) / 3) * in.delta[i];
    if (!(max_abs_diff(sqlerp(in.a[i], b[i], c[i], in.b[i], t, V), from_axis_angle(kAxis, angle)) <
          kCheckTolerance)) {
      state.SkipWithError(("wrong sqlerp at input " + std::to_string(i)).c_str());
      return;
    }
  }
}
// Hermite on rotations: tangents are the exact angular derivative of the constant-speed
// rotation q(T) = exp(T delta/2 n) a over one second: q'(T) = (delta/2) (n, 0) q(T). The
// Hermite sum is then close to but not on the arc; the check uses the scalar Hermite of
// each component instead (a second evaluation path, component by component).
void BM_HermiteRotation(benchmark::State& state) {
  const PairInputs& in = pair_inputs();
  std::vector<Quat> ta, tb;
  for (std::size_t i = 0; i < kInputs; ++i) {
    const Quat n{kAxis.x, kAxis.y, kAxis.z, 0.0};
    ta.push_back((0.5 * in.delta[i]) * (n * in.a[i]));
    tb.push_back((0.5 * in.delta[i]) * (n * in.b[i]));
  }
  for (auto _ : state) {
    for (std::size_t i = 0; i < kInputs; ++i) {
      Quat r = cubic_hermite_rotation(in.a[i], ta[i], in.b[i], tb[i], in.t[i], 1.0);
      benchmark::DoNotOptimize(r);
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kInputs));
  for (std::size_t i = 0; i < kInputs; ++i) {
    const double t = in.t[i];
    const double t2 = t * t, t3 = t2 * t;
    const double h00 = 2 * t3 - 3 * t2 + 1, h10 = t3 - 2 * t2 + t, h01 = -2 * t3 + 3 * t2,
                 h11 = t3 - t2;
    const Quat sum = h00 * in.a[i] + h10 * ta[i] + h01 * in.b[i] + h11 * tb[i];
    const Quat r = cubic_hermite_rotation(in.a[i], ta[i], in.b[i], tb[i], t, 1.0);
    // Same rotation as the normalized sum, and within 1e-3 of the arc (Hermite of a
    // circle with exact tangents is close to it for steps below 180 degrees).
    if (!(max_abs_diff(r, (1.0 / length(sum)) * sum) < kCheckTolerance) ||
        !(std::abs(dot(r, slerp_expected(in, i))) > 0.99)) {
      state.SkipWithError(("wrong Hermite at input " + std::to_string(i)).c_str());
      return;
    }
  }
}

// --- Track sampling -------------------------------------------------------------------

constexpr std::size_t kKeys = 10000;
constexpr std::size_t kSamples = 1000000;
constexpr double kKeyRate = 30.0;                          // keys per second
constexpr double kOmega = 6.0 * std::numbers::pi / 180.0 * kKeyRate;  // 6 degrees per key

struct TrackData {
  std::vector<double> times, values, sorted, random;
  TrackView view() const {
    return {times, values, 4, Interpolation::kLinear, ValueKind::kRotation};
  }
};

const TrackData& track_data() {
  static const TrackData data = [] {
    TrackData d;
    for (std::size_t k = 0; k < kKeys; ++k) {
      const double t = static_cast<double>(k) / kKeyRate;
      d.times.push_back(t);
      const Quat q = from_axis_angle(kAxis, kOmega * t);
      d.values.insert(d.values.end(), {q.x, q.y, q.z, q.w});
    }
    const double end = d.times.back();
    for (std::size_t i = 0; i < kSamples; ++i)
      d.sorted.push_back(end * static_cast<double>(i) / static_cast<double>(kSamples - 1));
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> when(0.0, end);
    for (std::size_t i = 0; i < kSamples; ++i) d.random.push_back(when(rng));
    return d;
  }();
  return data;
}

// Checks every sample against the closed form; keys are float-free doubles here, so the
// only error is slerp's rounding plus the angle growing to 6e4 degrees.
void check_track(benchmark::State& state, const std::vector<double>& times,
                 const std::vector<double>& out, double tolerance = 1e-9) {
  for (std::size_t i = 0; i < times.size(); i += 997) {
    const Quat expected = from_axis_angle(kAxis, kOmega * times[i]);
    const Quat got{out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3]};
    if (!(max_abs_diff(got, expected) < tolerance)) {
      state.SkipWithError(("wrong track sample at time " + std::to_string(times[i])).c_str());
      return;
    }
  }
}

void finish_track(benchmark::State& state) {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kSamples));
  state.counters["ns_per_sample"] = benchmark::Counter(
      static_cast<double>(kSamples) * 1e-9,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// sample_batch: one cursor over the whole batch.
void BM_TrackBatch(benchmark::State& state, bool sorted) {
  const TrackData& d = track_data();
  const std::vector<double>& times = sorted ? d.sorted : d.random;
  std::vector<double> out(4 * kSamples);
  for (auto _ : state) {
    sample_batch(d.view(), times, out);
    benchmark::ClobberMemory();
  }
  finish_track(state);
  check_track(state, times, out);
}

// The fast bulk path (fast_sample.hpp, not for goldens). `prepared`: FastRotationTrack
// built once outside the timing; otherwise sample_batch_fast, set-up (one acos per
// segment) included. Checked against the closed form within 1e-7 (its bound is 1e-6 rad).
void BM_TrackFast(benchmark::State& state, bool sorted, bool prepared) {
  const TrackData& d = track_data();
  const std::vector<double>& times = sorted ? d.sorted : d.random;
  std::vector<double> out(4 * kSamples);
  const FastRotationTrack fast(d.view());
  for (auto _ : state) {
    if (prepared) fast.sample_batch(times, out);
    else sample_batch_fast(d.view(), times, out);
    benchmark::ClobberMemory();
  }
  finish_track(state);
  check_track(state, times, out, 1e-7);
}

// One sample() call per time: binary search (find_keyframe) every time.
void BM_TrackBinarySearch(benchmark::State& state, bool sorted) {
  const TrackData& d = track_data();
  const std::vector<double>& times = sorted ? d.sorted : d.random;
  std::vector<double> out(4 * kSamples);
  const TrackView view = d.view();
  for (auto _ : state) {
    for (std::size_t i = 0; i < kSamples; ++i)
      sample(view, times[i], std::span<double>(out.data() + 4 * i, 4));
    benchmark::ClobberMemory();
  }
  finish_track(state);
  check_track(state, times, out);
}

// Key search alone (no interpolation), to split the cost.
void BM_SearchOnly(benchmark::State& state, bool sorted, bool cursor) {
  const TrackData& d = track_data();
  const std::vector<double>& times = sorted ? d.sorted : d.random;
  std::size_t sum = 0;
  for (auto _ : state) {
    KeyframeCursor c;
    for (std::size_t i = 0; i < kSamples; ++i)
      sum += cursor ? c.find(d.times, times[i]) : find_keyframe(d.times, times[i]);
    benchmark::DoNotOptimize(sum);
  }
  finish_track(state);
  // Keys are k / 30: the segment of time t is floor(30 t) (away from rounding at keys).
  for (std::size_t i = 0; i < kSamples; i += 997) {
    const std::size_t k = find_keyframe(d.times, times[i]);
    const double expected = std::floor(times[i] * kKeyRate);
    if (std::abs(static_cast<double>(k) - expected) > 1.0) {
      state.SkipWithError("wrong key index");
      return;
    }
  }
}

}  // namespace

BENCHMARK(BM_Lerp);
BENCHMARK(BM_Nlerp);
BENCHMARK(BM_NlerpShortestPath);
BENCHMARK(BM_Slerp);
BENCHMARK(BM_SlerpShortestPath);
BENCHMARK(BM_Sqlerp<SlerpVariant::kPlain>)->Name("BM_Sqlerp/plain");
BENCHMARK(BM_Sqlerp<SlerpVariant::kShortestPath>)->Name("BM_Sqlerp/shortest_path");
BENCHMARK(BM_HermiteRotation);
BENCHMARK_CAPTURE(BM_TrackBatch, sorted, true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_TrackBatch, random, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_TrackFast, sorted, true, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_TrackFast, random, false, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_TrackFast, sorted_prepared, true, true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_TrackFast, random_prepared, false, true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_TrackBinarySearch, sorted, true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_TrackBinarySearch, random, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SearchOnly, sorted_cursor, true, true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SearchOnly, random_cursor, false, true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SearchOnly, random_binary, false, false)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();

// Shortest round-trip double formatting, ns per number: libstdc++'s std::to_chars
// (Ryu) against samples/src/shortest_double (fmt's Dragonbox digits, the same bytes).
// Inputs: values like a sample command's ([-2, 2] interpolation results of float32
// keys, times t/30) and any bit pattern (all exponents).
#include <gltf_anim/text/shortest_double.hpp>

#include <benchmark/benchmark.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace {

constexpr std::size_t kCount = 1 << 16;

std::vector<double> animation_values() {
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<float> key(-2.0f, 2.0f);
  std::vector<double> v(kCount);
  for (std::size_t i = 0; i < kCount; ++i) {
    const double a = key(rng);
    const double b = key(rng);
    const double s = static_cast<double>(i % 30) / 30.0;
    v[i] = i % 4 == 3 ? static_cast<double>(i) / 30.0 : a + (b - a) * s;
  }
  return v;
}

std::vector<double> any_bits() {
  std::mt19937_64 rng(2);
  std::vector<double> v;
  v.reserve(kCount);
  while (v.size() < kCount) {
    const double d = std::bit_cast<double>(rng());
    if (std::isfinite(d)) v.push_back(d);
  }
  return v;
}

const std::vector<double>& values(int which) {
  static const std::vector<double> anim = animation_values();
  static const std::vector<double> bits = any_bits();
  return which == 0 ? anim : bits;
}

void BM_ToChars(benchmark::State& state) {
  const auto& v = values(static_cast<int>(state.range(0)));
  char buf[64];
  std::size_t i = 0;
  for (auto _ : state) {
    char* end = std::to_chars(buf, buf + sizeof buf, v[i]).ptr;
    benchmark::DoNotOptimize(end);
    benchmark::ClobberMemory();
    i = (i + 1) & (kCount - 1);
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_ShortestDouble(benchmark::State& state) {
  const auto& v = values(static_cast<int>(state.range(0)));
  char buf[64];
  std::size_t i = 0;
  for (auto _ : state) {
    char* end = gltf_anim::text::write_shortest_double(buf, v[i]);
    benchmark::DoNotOptimize(end);
    benchmark::ClobberMemory();
    i = (i + 1) & (kCount - 1);
  }
  state.SetItemsProcessed(state.iterations());
}

// Argument 0: animation-like values, 1: any bit pattern.
BENCHMARK(BM_ToChars)->Arg(0)->Arg(1);
BENCHMARK(BM_ShortestDouble)->Arg(0)->Arg(1);

}  // namespace

BENCHMARK_MAIN();

// Google Benchmark for `gltf-anim compare` (reports/compare.hpp, samples.hpp).
// Figures and the command that produced them: docs/PERFORMANCE.md, section "compare".
//
// Data: 10,000,000 samples = 100 channels x 100,000 samples, half of them
// rotations (4 wide, a constant-speed turn about a fixed axis) and half
// translations (3 wide). The actual file is the golden one with every
// quaternion negated (q and -q: angle error 0) and 1/1024 added to every
// translation x (exact in binary, so the absolute error is exactly
// 0.0009765625). Every benchmark checks that result after timing and fails
// (SkipWithError) if it is off.
//  - CompareInMemory: compare_samples on the two models (matching + errors).
//  - ReadJson: read_samples_json of the golden file's text (bytes/s).
//  - CompareFiles: compare_paths on the two JSON files on disk (read, parse,
//    match, compare), the whole `gltf-anim compare` minus report writing; CPU
//    time is the whole process (files are read on all cores).
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/reports/compare_report.hpp>
#include <gltf_anim/samples/samples.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <filesystem>
#include <string>

namespace {

namespace gs = gltf_anim::samples;
namespace gc = gltf_anim::compare;

constexpr std::size_t kChannels = 100;
constexpr std::size_t kPerChannel = 100'000;
constexpr double kOffset = 1.0 / 1024;

gs::SamplesFile make(bool actual) {
  gs::SamplesFile f;
  f.asset = "bench.gltf";
  auto& a = f.animations.emplace_back();
  for (std::size_t c = 0; c < kChannels; ++c) {
    auto& ch = a.channels.emplace_back();
    ch.index = c;
    const bool rotation = c % 2 == 0;
    ch.target = "/nodes/" + std::to_string(c / 2) + (rotation ? "/rotation" : "/translation");
    ch.times.reserve(kPerChannel);
    ch.values.reserve(kPerChannel * (rotation ? 4 : 3));
    for (std::size_t i = 0; i < kPerChannel; ++i) {
      const double t = static_cast<double>(i) / 30.0;
      if (rotation) {
        const double h = 0.05 * t + 0.01 * static_cast<double>(c);
        const double s = actual ? -1.0 : 1.0;
        ch.add_sample(t, {s * 0.48 * std::sin(h), s * 0.6 * std::sin(h), s * 0.64 * std::sin(h),
                          s * std::cos(h)});
      } else {
        ch.add_sample(t, {std::sin(t) + (actual ? kOffset : 0.0), std::cos(t), 0.25 * t});
      }
    }
  }
  return f;
}

bool expected(const gc::CaseResult& r, bool should_pass, benchmark::State& state) {
  const bool ok = r.passed() == should_pass && r.absolute.samples == kChannels / 2 * kPerChannel &&
                  r.angle.samples == kChannels / 2 * kPerChannel && r.angle.max == 0 &&
                  std::fabs(r.absolute.max - kOffset) < 1e-15;
  if (!ok) state.SkipWithError("unexpected comparison result");
  return ok;
}

void CompareInMemory(benchmark::State& state) {
  const gs::SamplesFile golden = make(false);
  const gs::SamplesFile actual = make(true);
  gc::CaseResult r;
  for (auto _ : state) {
    // Tolerance above the translation error: passing channels keep no plot data.
    r = gc::compare_samples(golden, actual, {1e-3, 1e-5});
    benchmark::DoNotOptimize(r);
  }
  expected(r, true, state);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kChannels * kPerChannel));
}
BENCHMARK(CompareInMemory)->Unit(benchmark::kMillisecond)->Iterations(3);

void ReadJson(benchmark::State& state) {
  gs::SamplesFile golden = make(false);
  golden.animations[0].channels.resize(10);  // 1,000,000 samples
  const std::string text = gs::write_samples_json(golden);
  std::size_t samples = 0;
  for (auto _ : state) {
    const gs::SamplesFile f = gs::read_samples_json(text);
    samples = 0;
    for (const auto& c : f.animations[0].channels) samples += c.size();
    benchmark::DoNotOptimize(samples);
  }
  if (samples != 10 * kPerChannel) state.SkipWithError("wrong sample count");
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * samples));
}
BENCHMARK(ReadJson)->Unit(benchmark::kMillisecond)->Iterations(3);

void CompareFiles(benchmark::State& state) {
  const auto dir = std::filesystem::temp_directory_path() / "gltf_anim_bench_compare";
  std::filesystem::create_directories(dir);
  gs::write_samples_file(dir / "golden.samples.json", make(false));
  gs::write_samples_file(dir / "actual.samples.json", make(true));
  const auto bytes = std::filesystem::file_size(dir / "golden.samples.json") +
                     std::filesystem::file_size(dir / "actual.samples.json");
  gc::CompareReport report;
  for (auto _ : state) {
    report = gc::compare_paths(dir / "golden.samples.json", dir / "actual.samples.json", {});
    benchmark::DoNotOptimize(report);
  }
  if (report.cases.size() == 1) expected(report.cases[0], false, state);
  else state.SkipWithError("expected one case");
  state.counters["file_MB"] = static_cast<double>(bytes) / 1e6;
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kChannels * kPerChannel));
  std::filesystem::remove_all(dir);
}
BENCHMARK(CompareFiles)->Unit(benchmark::kSecond)->Iterations(1)->MeasureProcessCPUTime()->UseRealTime();

}  // namespace

BENCHMARK_MAIN();

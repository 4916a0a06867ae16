// Accessor decoding throughput (the loader's part of the data pass): a 64 MiB
// GLB built in memory, read through float_view (zero-copy) and AccessorReader
// (4,096-element chunks to doubles, as rules/data_phase.cpp does). Bytes per
// second count buffer bytes consumed.
#include <gltf_anim/gltf/accessor.hpp>
#include <gltf_anim/gltf/load.hpp>

#include <benchmark/benchmark.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace gltf_anim::gltf;

constexpr std::size_t kBytes = std::size_t{64} << 20;
constexpr std::size_t kChunk = 4096;

std::vector<std::uint8_t> make_glb() {
  std::vector<std::uint8_t> bin(kBytes);
  for (std::size_t i = 0; i < kBytes / 4; ++i) {
    const float f = static_cast<float>(i % 1000) * 0.001f;
    std::memcpy(&bin[i * 4], &f, 4);
  }
  const std::string n = std::to_string(kBytes);
  std::string json = R"({"asset":{"version":"2.0"},"buffers":[{"byteLength":)" + n + "}],";
  json += R"("bufferViews":[{"buffer":0,"byteLength":)" + n + R"(},{"buffer":0,"byteLength":)" + n +
          R"(,"byteStride":16}],"accessors":[)";
  json += R"({"bufferView":0,"componentType":5126,"count":)" + std::to_string(kBytes / 12) + R"(,"type":"VEC3"},)";
  json += R"({"bufferView":0,"componentType":5123,"normalized":true,"count":)" + std::to_string(kBytes / 8) +
          R"(,"type":"VEC4"},)";
  json += R"({"bufferView":1,"componentType":5126,"count":)" + std::to_string(kBytes / 16) + R"(,"type":"VEC3"}]})";
  while (json.size() % 4 != 0) json += ' ';
  std::vector<std::uint8_t> glb;
  auto put = [&glb](std::uint32_t v) {
    std::uint8_t b[4];
    std::memcpy(b, &v, 4);
    glb.insert(glb.end(), b, b + 4);
  };
  put(0x46546C67);
  put(2);
  put(static_cast<std::uint32_t>(12 + 8 + json.size() + 8 + bin.size()));
  put(static_cast<std::uint32_t>(json.size()));
  put(0x4E4F534A);
  glb.insert(glb.end(), json.begin(), json.end());
  put(static_cast<std::uint32_t>(bin.size()));
  put(0x004E4942);
  glb.insert(glb.end(), bin.begin(), bin.end());
  return glb;
}

const LoadedAsset& asset() {
  static const LoadedAsset a = [] {
    IssueCollector issues;
    const std::vector<std::uint8_t> glb = make_glb();
    return load_bytes(glb, "bench.glb", {}, {}, issues);
  }();
  return a;
}

void BM_FloatViewScan(benchmark::State& state) {
  const FloatView view = *float_view(asset(), 0);
  for (auto _ : state) {
    float sum = 0;
    for (std::size_t k = 0; k < view.size(); ++k) sum += view[k];
    benchmark::DoNotOptimize(sum);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * view.bytes().size()));
}
BENCHMARK(BM_FloatViewScan)->Unit(benchmark::kMillisecond);

// Accessor 0: packed VEC3 FLOAT; 1: normalized VEC4 UNSIGNED_SHORT; 2: VEC3 FLOAT, stride 16.
void BM_ReaderChunks(benchmark::State& state) {
  const auto index = static_cast<std::size_t>(state.range(0));
  const AccessorReader reader = *AccessorReader::open(asset(), index);
  std::vector<double> chunk(kChunk * reader.components());
  for (auto _ : state) {
    double sum = 0;
    for (std::uint64_t first = 0; first < reader.count(); first += kChunk) {
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, reader.count() - first));
      reader.read(first, n, chunk.data());
      sum += chunk[0];
    }
    benchmark::DoNotOptimize(sum);
  }
  const std::uint64_t stride = index == 2 ? 16 : (index == 0 ? 12 : 8);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * reader.count() * stride));
}
BENCHMARK(BM_ReaderChunks)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_LoadGlb(benchmark::State& state) {
  const std::vector<std::uint8_t> glb = make_glb();
  for (auto _ : state) {
    IssueCollector issues;
    LoadedAsset a = load_bytes(glb, "bench.glb", {}, {}, issues);
    check_buffers_and_accessors(a, issues);
    benchmark::DoNotOptimize(a.accessor_status.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * glb.size()));
}
BENCHMARK(BM_LoadGlb)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();

// Validator performance on the assets of issue 3:
//  - large.gltf + large.bin and large.glb: 2,000 nodes x 3 channels x 2,500 keys
//    (translation LINEAR, rotation LINEAR, scale CUBICSPLINE; one time accessor
//    per node shared by its three samplers), about 342 MB of buffer data;
//  - channels.gltf: one animation with 100,000 channels (2 keys each) over
//    100,000 nodes, for the linear-in-channels check.
// The data is valid (increasing times, unit quaternions, exact min/max), so the
// benchmarks measure the full pass with no issue output.
//
//   bench_validate --generate DIR     write the assets into DIR and exit
//   GLTF_ANIM_BENCH_DIR=DIR bench_validate [--benchmark_filter=...]
// Without GLTF_ANIM_BENCH_DIR the assets are generated under /tmp/gltf_anim_bench.
#include <gltf_anim/gltf/load.hpp>
#include <gltf_anim/validator/rules.hpp>
#include <gltf_anim/validator/validate.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using gltf_anim::gltf::Severity;
using gltf_anim::validator::validate_file;
using gltf_anim::validator::ValidateOptions;

constexpr std::size_t kNodes = 2000;
constexpr std::size_t kKeys = 2500;
constexpr std::size_t kManyChannels = 100000;

void put_floats(std::string& bin, const std::vector<float>& v) {
  const std::size_t at = bin.size();
  bin.resize(at + v.size() * 4);
  std::memcpy(bin.data() + at, v.data(), v.size() * 4);
}

// JSON and binary of the large asset. `uri` empty: GLB (buffer without uri).
void large_asset(std::string& json, std::string& bin, const std::string& uri) {
  std::string views, accessors, channels, samplers, nodes;
  std::size_t view = 0;
  auto add_view = [&](std::size_t offset, std::size_t length) {
    views += (view ? "," : "") + std::string("{\"buffer\":0,\"byteOffset\":") +
             std::to_string(offset) + ",\"byteLength\":" + std::to_string(length) + "}";
    return view++;
  };
  const float dt = 1.0f / 30.0f;
  std::vector<float> times(kKeys), translation(kKeys * 3), rotation(kKeys * 4), scale(kKeys * 9);
  for (std::size_t k = 0; k < kKeys; ++k) times[k] = static_cast<float>(k) * dt;
  for (std::size_t n = 0; n < kNodes; ++n) {
    for (std::size_t k = 0; k < kKeys; ++k) {
      const float t = times[k];
      translation[k * 3 + 0] = static_cast<float>(n);
      translation[k * 3 + 1] = std::sin(t);
      translation[k * 3 + 2] = std::cos(t);
      const float half = 0.5f * t;
      rotation[k * 4 + 0] = 0;
      rotation[k * 4 + 1] = std::sin(half);
      rotation[k * 4 + 2] = 0;
      rotation[k * 4 + 3] = std::cos(half);
      for (std::size_t c = 0; c < 9; ++c) scale[k * 9 + c] = (c / 3 == 1) ? 1.0f + 0.1f * std::sin(t) : 0.0f;
    }
    const std::size_t base = n * 4;  // accessor index of this node's times
    for (const auto* data : {&times, &translation, &rotation, &scale}) {
      const std::size_t offset = bin.size();
      put_floats(bin, *data);
      add_view(offset, data->size() * 4);
    }
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "%s{\"bufferView\":%zu,\"componentType\":5126,\"count\":%zu,\"type\":\"SCALAR\","
                  "\"min\":[0],\"max\":[%.9g]},"
                  "{\"bufferView\":%zu,\"componentType\":5126,\"count\":%zu,\"type\":\"VEC3\"},"
                  "{\"bufferView\":%zu,\"componentType\":5126,\"count\":%zu,\"type\":\"VEC4\"},"
                  "{\"bufferView\":%zu,\"componentType\":5126,\"count\":%zu,\"type\":\"VEC3\"}",
                  n ? "," : "", base, kKeys, static_cast<double>(times.back()), base + 1, kKeys,
                  base + 2, kKeys, base + 3, kKeys * 3);
    accessors += buf;
    std::snprintf(buf, sizeof buf,
                  "%s{\"input\":%zu,\"output\":%zu},{\"input\":%zu,\"output\":%zu},"
                  "{\"input\":%zu,\"output\":%zu,\"interpolation\":\"CUBICSPLINE\"}",
                  n ? "," : "", base, base + 1, base, base + 2, base, base + 3);
    samplers += buf;
    std::snprintf(buf, sizeof buf,
                  "%s{\"sampler\":%zu,\"target\":{\"node\":%zu,\"path\":\"translation\"}},"
                  "{\"sampler\":%zu,\"target\":{\"node\":%zu,\"path\":\"rotation\"}},"
                  "{\"sampler\":%zu,\"target\":{\"node\":%zu,\"path\":\"scale\"}}",
                  n ? "," : "", n * 3, n, n * 3 + 1, n, n * 3 + 2, n);
    channels += buf;
    nodes += n ? ",{}" : "{}";
  }
  json = "{\"asset\":{\"version\":\"2.0\",\"generator\":\"bench_validate\"},\"nodes\":[" + nodes +
         "],\"buffers\":[{\"byteLength\":" + std::to_string(bin.size()) +
         (uri.empty() ? std::string() : ",\"uri\":\"" + uri + "\"") + "}],\"bufferViews\":[" +
         views + "],\"accessors\":[" + accessors + "],\"animations\":[{\"channels\":[" + channels +
         "],\"samplers\":[" + samplers + "]}]}";
}

// One animation with kManyChannels channels, each with its own sampler and
// node, all sharing one 2-key time accessor and one 2-key VEC3 output.
void many_channels_asset(std::string& json, std::string& bin, std::size_t n_channels = kManyChannels,
                         const std::string& buffer_uri = "channels.bin") {
  put_floats(bin, {0.0f, 1.0f});
  put_floats(bin, {0, 0, 0, 1, 1, 1});
  std::string channels, samplers, nodes;
  channels.reserve(n_channels * 64);
  for (std::size_t c = 0; c < n_channels; ++c) {
    const std::string i = std::to_string(c);
    channels += (c ? ",{\"sampler\":" : "{\"sampler\":") + i + ",\"target\":{\"node\":" + i +
                ",\"path\":\"translation\"}}";
    samplers += c ? ",{\"input\":0,\"output\":1}" : "{\"input\":0,\"output\":1}";
    nodes += c ? ",{}" : "{}";
  }
  json = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[" + nodes +
         "],\"buffers\":[{\"byteLength\":32,\"uri\":\"" + buffer_uri + "\"}],"
         "\"bufferViews\":[{\"buffer\":0,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":8,\"byteLength\":24}],"
         "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],\"max\":[1]},"
         "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],"
         "\"animations\":[{\"channels\":[" + channels + "],\"samplers\":[" + samplers + "]}]}";
}

void write(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

void put_u32(std::string& s, std::uint32_t v) {
  char b[4];
  std::memcpy(b, &v, 4);
  s.append(b, 4);
}

void generate(const fs::path& dir) {
  fs::create_directories(dir);
  std::string json, bin;
  large_asset(json, bin, "large.bin");
  write(dir / "large.gltf", json);
  write(dir / "large.bin", bin);
  std::string glb_json;
  std::string unused;
  large_asset(glb_json, unused, "");
  while (glb_json.size() % 4 != 0) glb_json += ' ';
  std::string glb = "glTF";
  put_u32(glb, 2);
  put_u32(glb, static_cast<std::uint32_t>(12 + 8 + glb_json.size() + 8 + bin.size()));
  put_u32(glb, static_cast<std::uint32_t>(glb_json.size()));
  put_u32(glb, 0x4E4F534Au);
  glb += glb_json;
  put_u32(glb, static_cast<std::uint32_t>(bin.size()));
  put_u32(glb, 0x004E4942u);
  glb += bin;
  write(dir / "large.glb", glb);
  std::string cjson, cbin;
  many_channels_asset(cjson, cbin);
  write(dir / "channels.gltf", cjson);
  write(dir / "channels.bin", cbin);
}

fs::path bench_dir() {
  const char* env = std::getenv("GLTF_ANIM_BENCH_DIR");
  const fs::path dir = env != nullptr ? fs::path(env) : fs::path("/tmp/gltf_anim_bench");
  if (!fs::exists(dir / "large.glb") || !fs::exists(dir / "channels.gltf")) generate(dir);
  return dir;
}

void run_validate(benchmark::State& state, const char* file) {
  const fs::path path = bench_dir() / file;
  const fs::path bin = fs::path(path).replace_extension(".bin");
  const auto bytes =
      fs::file_size(path) + (path.extension() == ".gltf" && fs::exists(bin) ? fs::file_size(bin) : 0);
  for (auto _ : state) {
    const auto report = validate_file(path, ValidateOptions{});
    if (report.count(Severity::kError) != 0 || report.count(Severity::kWarning) != 0) {
      state.SkipWithError("the benchmark asset is expected to be valid");
      for (const auto& i : report.issues) std::cerr << i.code << " " << i.pointer << "\n";
      return;
    }
    benchmark::DoNotOptimize(report.issues.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(bytes));
}

void BM_ValidateLargeGltfBin(benchmark::State& state) { run_validate(state, "large.gltf"); }
void BM_ValidateLargeGlb(benchmark::State& state) { run_validate(state, "large.glb"); }
void BM_Validate100kChannels(benchmark::State& state) { run_validate(state, "channels.gltf"); }

// Linear in channels: the same asset shape in memory with N channels (the
// 2-key buffer as a data URI). Time per channel should stay flat.
void BM_ValidateChannels(benchmark::State& state) {
  std::string json, bin;
  // base64 of float32 [0, 1] then [0,0,0, 1,1,1].
  many_channels_asset(json, bin, static_cast<std::size_t>(state.range(0)),
                      "data:application/octet-stream;base64,AAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AACAPwAAgD8=");
  const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(json.data()),
                                            json.size());
  for (auto _ : state) {
    const auto report = gltf_anim::validator::validate_bytes(bytes, "channels", {}, ValidateOptions{});
    if (!report.issues.empty()) {
      state.SkipWithError("the benchmark asset is expected to be valid");
      return;
    }
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_ValidateChannels)->Unit(benchmark::kMillisecond)->Arg(12500)->Arg(25000)->Arg(50000)->Arg(100000);

// The data pass alone (link + one decode of every accessor with its checks),
// on the large asset loaded once: the "1 GB/s on the data pass" figure.
void BM_DataPassLarge(benchmark::State& state) {
  namespace v = gltf_anim::validator;
  namespace gltf = gltf_anim::gltf;
  gltf::IssueCollector load_issues;
  const gltf::LoadedAsset asset =
      gltf::load_file(bench_dir() / "large.gltf", gltf::LoadOptions{}, load_issues);
  if (!asset.document) {
    state.SkipWithError("large.gltf did not load");
    return;
  }
  for (auto _ : state) {
    gltf::IssueCollector issues;
    v::DataChecks data;
    const auto modules = v::rule_modules();
    const gltf::model::AnimationModel model = gltf::model::build_animation_model(asset);
    v::RuleContext ctx{asset, *asset.document, issues, data, {}, modules, model};
    for (const auto& m : modules) m->link(ctx);
    v::run_data_phase(ctx);
    if (!issues.issues().empty()) {
      state.SkipWithError("the benchmark asset is expected to be valid");
      return;
    }
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 340000000);
}
BENCHMARK(BM_DataPassLarge)->Unit(benchmark::kMillisecond)->Iterations(3);

BENCHMARK(BM_ValidateLargeGltfBin)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_ValidateLargeGlb)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_Validate100kChannels)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--generate") {
      generate(argv[i + 1]);
      std::cout << "wrote large.gltf, large.bin, large.glb, channels.gltf, channels.bin into "
                << argv[i + 1] << "\n";
      return 0;
    }
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

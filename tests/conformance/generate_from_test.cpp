// gltf-anim generate --from (suite::generate_from): a suite built from the user's own assets.
// Expected values are derived by hand from the assets written here (Appendix C.3: the linear
// midpoint; §3.11: clamped after the last key), not from the sampler.
#include "scratch.hpp"
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/samples/samples.hpp>
#include <gltf_anim/suite/gltf_builder.hpp>
#include <gltf_anim/suite/suite.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace gltf_anim;

namespace {

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& tag)
      : path(gltf_anim_test::scratch_root() /
             ("gltf_anim_from_" + tag + "_" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name())) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// One node, translation LINEAR: (0,0,0) at 0 s, (2,0,0) at 1 s.
void write_moving_asset(const fs::path& folder, const std::string& stem,
                        suite::Container container) {
  suite::GltfBuilder b;
  const int node = b.add_node(suite::Json::object({{"name", "mover"}}));
  const int anim = b.add_animation("move");
  const int input = b.accessor_float({0.0f, 1.0f}, "SCALAR", true);
  const int output = b.accessor_float({0, 0, 0, 2, 0, 0}, "VEC3", false);
  b.add_core_channel(anim, b.add_sampler(anim, input, output, "LINEAR"), node, "translation");
  fs::create_directories(folder);
  for (const auto& f : b.finish(stem, container)) {
    std::ofstream(folder / f.name, std::ios::binary)
        .write(reinterpret_cast<const char*>(f.bytes.data()),
               static_cast<std::streamsize>(f.bytes.size()));
  }
}

std::vector<double> value_at(const samples::SamplesFile& f, double t) {
  for (const auto& a : f.animations) {
    for (const auto& c : a.channels) {
      for (std::size_t i = 0; i < c.size(); ++i) {
        if (c.times[i] == t) {
          const auto v = c.value(i);
          return {v.begin(), v.end()};
        }
      }
    }
  }
  return {};
}

}  // namespace

TEST(GenerateFrom, CopiesEachAssetWithItsBuffersAndWritesGoldenSamplesAndAManifest) {
  TempDir in("in"), out("out");
  write_moving_asset(in.path / "sub", "mover", suite::Container::kExternalBin);
  std::ofstream(in.path / "still.gltf") << R"({"asset":{"version":"2.0"}})";
  const suite::FromResult r = suite::generate_from({in.path}, out.path / "suite");
  EXPECT_EQ(r.written, 1u);
  ASSERT_EQ(r.skipped.size(), 1u);
  EXPECT_NE(r.skipped[0].find("still.gltf: no animation channel"), std::string::npos)
      << r.skipped[0];

  const auto manifest = compare::read_manifest(out.path / "suite" / "manifest.json");
  ASSERT_EQ(manifest.entries.size(), 1u);
  const auto& e = manifest.entries[0];
  EXPECT_EQ(e.id, "mover");
  EXPECT_EQ(e.file, "valid/mover/mover.gltf");
  // The asset and its .bin, byte for byte.
  EXPECT_EQ(read(out.path / "suite" / "valid" / "mover" / "mover.gltf"),
            read(in.path / "sub" / "mover.gltf"));
  EXPECT_EQ(read(out.path / "suite" / "valid" / "mover" / "mover.bin"),
            read(in.path / "sub" / "mover.bin"));
  // Golden samples: the midpoint of the segment and the last key held after the end.
  const auto golden = samples::read_samples_file(out.path / "suite" / e.samples);
  EXPECT_EQ(value_at(golden, 0.5), (std::vector<double>{1, 0, 0}));
  EXPECT_EQ(value_at(golden, 1.5), (std::vector<double>{2, 0, 0}));
  // The suite-wide loop variant applies (t = 1 s wraps to the first key).
  bool loop = false;
  for (const auto& v : e.variants) loop |= v.name == "loop-repeat";
  EXPECT_TRUE(loop);
}

TEST(GenerateFrom, SameStemsGetDistinctIdsAndAGlbIsTakenAsIs) {
  TempDir in("in"), out("out");
  write_moving_asset(in.path / "a", "walk", suite::Container::kGlb);
  write_moving_asset(in.path / "b", "walk", suite::Container::kDataUri);
  const suite::FromResult r =
      suite::generate_from({in.path / "a" / "walk.glb", in.path / "b"}, out.path);
  EXPECT_EQ(r.written, 2u);
  EXPECT_TRUE(r.skipped.empty());
  const auto manifest = compare::read_manifest(out.path / "manifest.json");
  ASSERT_EQ(manifest.entries.size(), 2u);
  EXPECT_EQ(manifest.entries[0].id, "walk");
  EXPECT_EQ(manifest.entries[1].id, "walk-2");
  EXPECT_EQ(read(out.path / "valid" / "walk" / "walk.glb"), read(in.path / "a" / "walk.glb"));
}

TEST(GenerateFrom, AFileOutsideTheAssetsFolderIsSkippedAndTheOutputMayNotLieInAnInput) {
  TempDir in("in"), out("out");
  write_moving_asset(in.path / "x", "mover", suite::Container::kExternalBin);
  std::string json = read(in.path / "x" / "mover.gltf");
  const auto at = json.find("\"mover.bin\"");
  ASSERT_NE(at, std::string::npos);
  json.replace(at, 11, "\"../mover.bin\"");
  std::ofstream(in.path / "x" / "mover.gltf", std::ios::trunc) << json;
  const suite::FromResult r = suite::generate_from({in.path / "x" / "mover.gltf"}, out.path);
  EXPECT_EQ(r.written, 0u);
  ASSERT_EQ(r.skipped.size(), 1u);
  EXPECT_NE(r.skipped[0].find("outside its folder"), std::string::npos) << r.skipped[0];
  EXPECT_THROW(suite::generate_from({in.path}, in.path / "suite"), std::runtime_error);
  EXPECT_THROW(suite::generate_from({}, out.path), std::runtime_error);
}

// A float32 engine whose playhead is normalized by the clip's duration (p = t / T, then
// p * T, both in float) lands one float32 step before some key times. The shipped suite's
// STEP keys (0, 1, 2, 3.5 s) survive that arithmetic exactly, so it passes every shipped STEP
// case; a user's keys at 1/24 s do not, and at such a key a STEP channel then jumps by the
// whole step (0.745 here). generate --from leaves those samples out of a STEP channel's
// golden samples (every other time, the keys where the value does not change included, is
// kept), so the same engine passes the suite built from the user's asset too.
TEST(GenerateFrom, AFloat32EngineWithANormalizedPlayheadPassesAStepAssetAtItsKeys) {
  TempDir in("in"), out("out");
  std::vector<float> keys, values;
  for (int k = 0; k <= 37; ++k) {
    keys.push_back(static_cast<float>(k) / 24.0f);
    const float x = k % 2 == 0 ? 0.0f : 0.745f;
    values.insert(values.end(), {x, 0.0f, 0.0f});
  }
  const float T = keys.back();
  // The playhead p * T as the engine computes it, and the STEP value it then holds.
  const auto local = [T](double t) { return (static_cast<float>(t) / T) * T; };
  const auto engine = [&](double t) {
    const float l = std::clamp(local(t), keys.front(), keys.back());
    std::size_t k = 0;
    while (k + 1 < keys.size() && keys[k + 1] <= l) ++k;
    return std::vector<double>{values[3 * k], values[3 * k + 1], values[3 * k + 2]};
  };
  int early = 0;
  for (const float key : keys) early += local(key) < key ? 1 : 0;
  ASSERT_GT(early, 0) << "the keys must expose the normalized playhead";
  {
    suite::GltfBuilder b;
    const int node = b.add_node(suite::Json::object({{"name", "blink"}}));
    const int anim = b.add_animation("blink");
    const int input = b.accessor_float(keys, "SCALAR", true);
    const int output = b.accessor_float(values, "VEC3", false);
    b.add_core_channel(anim, b.add_sampler(anim, input, output, "STEP"), node, "translation");
    for (const auto& f : b.finish("blink", suite::Container::kDataUri)) {
      std::ofstream(in.path / f.name, std::ios::binary)
          .write(reinterpret_cast<const char*>(f.bytes.data()),
                 static_cast<std::streamsize>(f.bytes.size()));
    }
  }
  const suite::FromResult r = suite::generate_from({in.path / "blink.gltf"}, out.path / "suite");
  ASSERT_EQ(r.written, 1u);
  const auto manifest = compare::read_manifest(out.path / "suite" / "manifest.json");
  ASSERT_EQ(manifest.entries.size(), 1u);
  samples::SamplesFile actual = samples::read_samples_file(out.path / "suite" / manifest.entries[0].samples);
  // Every time that survives is still the spec's answer, and the mid-segment times are all there.
  std::size_t mid_segment = 0;
  for (auto& a : actual.animations) {
    for (auto& c : a.channels) {
      for (std::size_t i = 0; i < c.size(); ++i) {
        const double t = c.times[i];
        if (std::find(keys.begin(), keys.end(), static_cast<float>(t)) == keys.end()) ++mid_segment;
        const auto v = engine(t);
        std::copy(v.begin(), v.end(), c.values.begin() + static_cast<std::ptrdiff_t>(i * c.width));
      }
    }
  }
  EXPECT_GE(mid_segment, 3u * 37u);
  actual.generator = "float32 engine, normalized playhead";
  fs::create_directories(out.path / "actual");
  std::ofstream(out.path / "actual" / "blink.samples.json") << samples::write_samples_json(actual);
  const auto report = compare::compare_paths(out.path / "suite", out.path / "actual", {});
  ASSERT_EQ(report.cases.size(), 1u);
  EXPECT_TRUE(report.cases[0].passed()) << report.cases[0].problem;
}

// A buffer URI with a "." component resolves, for the loader as for any engine, beside the
// asset: it is copied there (its lexically normal path), byte for byte as it was read.
TEST(GenerateFrom, ABufferUriWithADotComponentIsCopiedWhereTheUriFindsIt) {
  TempDir in("in"), out("out");
  write_moving_asset(in.path, "mover", suite::Container::kExternalBin);
  std::string json = read(in.path / "mover.gltf");
  const auto at = json.find("\"mover.bin\"");
  ASSERT_NE(at, std::string::npos);
  json.replace(at, 11, "\"./mover.bin\"");
  std::ofstream(in.path / "mover.gltf", std::ios::trunc) << json;
  const suite::FromResult r = suite::generate_from({in.path / "mover.gltf"}, out.path);
  EXPECT_EQ(r.written, 1u);
  EXPECT_TRUE(r.skipped.empty()) << (r.skipped.empty() ? "" : r.skipped[0]);
  EXPECT_EQ(read(out.path / "valid" / "mover" / "mover.bin"), read(in.path / "mover.bin"));
  EXPECT_EQ(read(out.path / "valid" / "mover" / "mover.gltf"), json);
}

// What docs/CONFORMANCE.md says of the shipped suite ("STEP at key times"): every STEP key of
// every case is a time a float32 engine with a normalized playhead (t / T, then times T, T the
// animation's latest key) lands on exactly, so the suite keeps its exact-key STEP samples; a
// user's keys are not (the test above), so generate --from leaves those samples out.
TEST(GenerateFrom, TheShippedSuitesStepKeysSurviveANormalizedFloat32Playhead) {
  const fs::path suite_dir = fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets";
  const auto manifest = compare::read_manifest(suite_dir / "manifest.json");
  std::size_t keys = 0;
  for (const auto& e : manifest.entries) {
    const auto golden = samples::read_samples_file(suite_dir / e.samples);
    for (const auto& a : golden.animations) {
      float T = 0;
      for (const auto& c : a.channels) {
        for (double k : c.keyframes) T = std::max(T, static_cast<float>(k));
      }
      if (T == 0) continue;
      for (const auto& c : a.channels) {
        if (c.interpolation != "STEP") continue;
        for (double k : c.keyframes) {
          const float key = static_cast<float>(k);
          EXPECT_EQ((key / T) * T, key) << e.id << " animation " << a.index << " key " << k;
          ++keys;
        }
      }
    }
  }
  EXPECT_GT(keys, 50u);
}

// gltfpack's EXT_meshopt_compression / KHR_meshopt_compression outputs through the CLI. The
// fixtures (tests/validator/meshopt/, README there) are gltfpack 1.3.0's outputs of four
// conformance assets, compressed (-c, -cc, -c -ce khr) and not (no -c): what `sample` gives
// for a compressed file must be what it gives for the same data stored uncompressed, which
// another program wrote, so the expectation does not come from our decoder.
#include "cli/cli_process.hpp"
#include "scratch.hpp"

#include <gtest/gtest.h>
#include <gltf_anim/gltf/json.hpp>
#include <rapidjson/document.h>

#include <cmath>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path kFixtures = fs::path(GLTF_ANIM_SOURCE_DIR) / "tests/validator/meshopt";
const fs::path kValid = fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets/valid";
const fs::path kTmp = gltf_anim_test::scratch_root() / "meshopt";
const std::vector<std::string> kAssets = {"rotation_linear", "translation_cubicspline",
                                          "scale_step", "weights2_linear"};

cli_process::Run cli(std::vector<std::string> args) {
  args.insert(args.begin(), GLTF_ANIM_CLI);
  return cli_process::run_program(std::move(args), kTmp);
}

gltf_anim::json::Document parse(const std::string& text) {
  gltf_anim::json::Document d;
  d.Parse(text.c_str());
  EXPECT_FALSE(d.HasParseError()) << text.substr(0, 200);
  return d;
}

// Every sampled value, in order (animations, channels, samples, components).
std::vector<double> values(const gltf_anim::json::Document& d) {
  std::vector<double> out;
  for (const auto& animation : d["animations"].GetArray()) {
    for (const auto& channel : animation["channels"].GetArray()) {
      for (const auto& sample : channel["samples"].GetArray()) {
        for (const auto& v : sample["value"].GetArray()) out.push_back(v.GetDouble());
      }
    }
  }
  return out;
}

TEST(CliMeshopt, GltfpackOutputsValidateWithoutErrors) {
  for (const std::string& name : kAssets) {
    for (const char* variant : {".c.glb", ".cc.glb", ".ckhr.glb", ".glb"}) {
      const cli_process::Run r =
          cli({"validate", "--format", "json", (kFixtures / (name + variant)).string()});
      EXPECT_EQ(r.exit_code, 0) << name << variant << "\n" << r.out;
      const auto d = parse(r.out);
      ASSERT_TRUE(d["summary"].HasMember("numErrors")) << r.out;
      EXPECT_EQ(d["summary"]["numErrors"].GetUint64(), 0u) << name << variant << "\n" << r.out;
      EXPECT_EQ(d["summary"]["numWarnings"].GetUint64(), 0u) << name << variant << "\n" << r.out;
    }
  }
}

// -c stores the quantized keys losslessly (as EXT_meshopt_compression, or with -ce khr as
// KHR_meshopt_compression's version 1 streams): its samples are those of the uncompressed file
// gltfpack writes from the same keys, to the last digit.
TEST(CliMeshopt, SamplesOfCompressedEqualThoseOfUncompressed) {
  for (const std::string& name : kAssets) {
    const cli_process::Run plain =
        cli({"sample", "--asset-name", "x", (kFixtures / (name + ".glb")).string()});
    ASSERT_EQ(plain.exit_code, 0) << plain.err;
    for (const char* variant : {".c.glb", ".ckhr.glb"}) {  // version 0 and version 1 streams
      const cli_process::Run compressed =
          cli({"sample", "--asset-name", "x", (kFixtures / (name + variant)).string()});
      ASSERT_EQ(compressed.exit_code, 0) << compressed.err;
      EXPECT_EQ(compressed.out, plain.out) << name << variant;
    }
    EXPECT_FALSE(values(parse(plain.out)).empty());
  }
}

// -cc adds the QUATERNION and EXPONENTIAL filters (rotation at 12 bits, translation and
// scale at 16): sampled on gltfpack's 30 Hz grid, the values stay within the quantization of
// the original conformance asset's (weights: 8 bits).
TEST(CliMeshopt, FilteredOutputsSampleCloseToTheOriginal) {
  std::string times;
  for (int k = 0; k < 100; k += 7) times += (times.empty() ? "" : ",") + std::to_string(k / 30.0);
  for (const std::string& name : kAssets) {
    const cli_process::Run original = cli(
        {"sample", "--times", times, "--asset-name", "x", (kValid / (name + ".gltf")).string()});
    ASSERT_EQ(original.exit_code, 0) << original.err;
    const cli_process::Run filtered = cli({"sample", "--times", times, "--asset-name", "x",
                                           (kFixtures / (name + ".cc.glb")).string()});
    ASSERT_EQ(filtered.exit_code, 0) << filtered.err;
    const std::vector<double> a = values(parse(original.out));
    const std::vector<double> b = values(parse(filtered.out));
    ASSERT_EQ(a.size(), b.size()) << name;
    ASSERT_FALSE(a.empty());
    for (std::size_t k = 0; k < a.size(); ++k)
      EXPECT_NEAR(a[k], b[k], 1.0 / 255 + 1e-6) << name << " value " << k;
  }
}

// The repair tools read compressed keys decoded and write their new keys to new, plain
// bufferViews (never into the fallback buffer): reducing the compressed file plays exactly as
// reducing the uncompressed one.
TEST(CliMeshopt, ReduceOfCompressedPlaysAsReduceOfUncompressed) {
  fs::create_directories(kTmp);
  for (const std::string& name : {std::string("rotation_linear"), std::string("weights2_linear")}) {
    std::string samples[2];
    for (int c = 0; c < 2; ++c) {
      const fs::path in = kFixtures / (name + (c == 0 ? ".glb" : ".c.glb"));
      const fs::path out = kTmp / (name + (c == 0 ? ".reduced.glb" : ".c.reduced.glb"));
      const cli_process::Run reduce =
          cli({"reduce", "--max-error", "0.001", in.string(), "--output", out.string()});
      ASSERT_EQ(reduce.exit_code, 0) << reduce.err;
      const cli_process::Run check = cli({"validate", "--format", "json", out.string()});
      EXPECT_EQ(parse(check.out)["summary"]["numErrors"].GetUint64(), 0u) << check.out;
      const cli_process::Run sample = cli({"sample", "--asset-name", "x", out.string()});
      ASSERT_EQ(sample.exit_code, 0) << sample.err;
      samples[c] = sample.out;
    }
    EXPECT_EQ(samples[1], samples[0]) << name;
  }
}

}  // namespace

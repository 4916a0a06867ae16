// The keys as stored (sampler::channel_keys, `gltf-anim sample --keys`) of a small asset
// written here byte by byte: every expected number is the one written into the buffer, or
// the spec's decoding of a normalized integer (UNSIGNED_BYTE c / 255, SHORT
// max(c / 32767, -1)), never what the code under test computes.
#include <gltf_anim/gltf/issue_collector.hpp>
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/gltf/load.hpp>
#include <gltf_anim/sampler/sample.hpp>
#include <gltf_anim/samples/samples.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_process.hpp"
#include "scratch.hpp"

namespace gltf_anim::sampler {
namespace {

// Little-endian bytes of the buffer, appended piece by piece.
struct Bytes {
  std::vector<std::uint8_t> data;
  void floats(std::initializer_list<float> values) {
    for (const float v : values) {
      std::uint8_t b[4];
      std::memcpy(b, &v, 4);
      data.insert(data.end(), b, b + 4);
    }
  }
  void shorts(std::initializer_list<std::int16_t> values) {
    for (const std::int16_t v : values) {
      const auto u = static_cast<std::uint16_t>(v);
      data.push_back(static_cast<std::uint8_t>(u & 0xFF));
      data.push_back(static_cast<std::uint8_t>(u >> 8));
    }
  }
  void ubytes(std::initializer_list<std::uint8_t> values) { data.insert(data.end(), values); }
};

// Four channels:
//  0 translation of node 0, CUBICSPLINE, times 0, 0.5, 2 (float);
//  1 weights of node 1 (no mesh: two weights a value from the count), CUBICSPLINE,
//    times 0, 1, normalized UNSIGNED_BYTE;
//  2 rotation of node 0, LINEAR, times 0, 1, normalized SHORT;
//  3 translation of node 2, LINEAR, times 0, 1, 1: not increasing, so `sample` refuses it.
std::filesystem::path write_asset() {
  Bytes b;
  b.floats({0.0f, 0.5f, 2.0f});                               // accessor 0 at 0
  b.floats({0, 0, 0,  1,    2,    3,      0.5f,   -1, 0.25f,  // key 0: in, value, out
            4, 0, -2, 1.5f, 2.5f, -3,     -0.75f, 8,  1,      // key 1
            1, 1, 1,  0,    0,    0.125f, 0,      0,  0});    // key 2; accessor 1 at 12
  b.floats({0.0f, 1.0f});                                     // accessor 2 at 120
  b.ubytes({0, 255, 51, 102, 255, 0,                     // key 0: in, value, out (2 weights each)
            128, 1, 204, 153, 0, 0});                    // key 1; accessor 3 at 128
  b.shorts({0, 0, 0, 32767, -32768, -32767, 16384, 0});  // accessor 4 at 140
  b.floats({0.0f, 1.0f, 1.0f});                          // accessor 5 at 156
  b.floats({0, 0, 0, 1, 1, 1, 2, 2, 2});                 // accessor 6 at 168
  EXPECT_EQ(b.data.size(), 204u);
  const std::filesystem::path dir = gltf_anim_test::scratch_root() / "keys";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "keys.bin", std::ios::binary)
      .write(reinterpret_cast<const char*>(b.data.data()),
             static_cast<std::streamsize>(b.data.size()));
  std::ofstream(dir / "keys.gltf") << R"({
  "asset": {"version": "2.0"},
  "nodes": [{}, {}, {}],
  "buffers": [{"byteLength": 204, "uri": "keys.bin"}],
  "bufferViews": [
    {"buffer": 0, "byteOffset": 0, "byteLength": 12},
    {"buffer": 0, "byteOffset": 12, "byteLength": 108},
    {"buffer": 0, "byteOffset": 120, "byteLength": 8},
    {"buffer": 0, "byteOffset": 128, "byteLength": 12},
    {"buffer": 0, "byteOffset": 140, "byteLength": 16},
    {"buffer": 0, "byteOffset": 156, "byteLength": 12},
    {"buffer": 0, "byteOffset": 168, "byteLength": 36}],
  "accessors": [
    {"bufferView": 0, "componentType": 5126, "count": 3, "type": "SCALAR", "min": [0], "max": [2]},
    {"bufferView": 1, "componentType": 5126, "count": 9, "type": "VEC3"},
    {"bufferView": 2, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0], "max": [1]},
    {"bufferView": 3, "componentType": 5121, "normalized": true, "count": 12, "type": "SCALAR"},
    {"bufferView": 4, "componentType": 5122, "normalized": true, "count": 2, "type": "VEC4"},
    {"bufferView": 5, "componentType": 5126, "count": 3, "type": "SCALAR", "min": [0], "max": [1]},
    {"bufferView": 6, "componentType": 5126, "count": 3, "type": "VEC3"}],
  "animations": [{
    "channels": [
      {"sampler": 0, "target": {"node": 0, "path": "translation"}},
      {"sampler": 1, "target": {"node": 1, "path": "weights"}},
      {"sampler": 2, "target": {"node": 0, "path": "rotation"}},
      {"sampler": 3, "target": {"node": 2, "path": "translation"}}],
    "samplers": [
      {"input": 0, "output": 1, "interpolation": "CUBICSPLINE"},
      {"input": 2, "output": 3, "interpolation": "CUBICSPLINE"},
      {"input": 2, "output": 4},
      {"input": 5, "output": 6}]
  }]
})";
  return dir / "keys.gltf";
}

TEST(ChannelKeys, CubicsplineKeysAreTheStoredInValueOutTriples) {
  const auto keys = channel_keys(write_asset());
  ASSERT_EQ(keys.size(), 4u);
  const ChannelKeys& t = keys[0];
  EXPECT_EQ(t.target, "/nodes/0/translation");
  EXPECT_EQ(t.sampler, 0u);
  EXPECT_EQ(t.interpolation, "CUBICSPLINE");
  EXPECT_EQ(t.measure, samples::Measure::kAbsolute);
  EXPECT_TRUE(t.decoded);
  EXPECT_EQ(t.problem, "");
  EXPECT_EQ(t.keys.components, 3u);
  EXPECT_EQ(t.keys.values_per_keyframe(), 3u);
  EXPECT_EQ(t.keys.times, (std::vector<double>{0, 0.5, 2}));
  EXPECT_EQ(t.keys.values, (std::vector<double>{0, 0, 0,  1,   2,   3,     0.5,   -1, 0.25,  //
                                                4, 0, -2, 1.5, 2.5, -3,    -0.75, 8,  1,     //
                                                1, 1, 1,  0,   0,   0.125, 0,     0,  0}));
}

TEST(ChannelKeys, NormalizedIntegersAreDecodedByTheSpecFormula) {
  const auto keys = channel_keys(write_asset());
  ASSERT_EQ(keys.size(), 4u);
  const ChannelKeys& w = keys[1];
  EXPECT_EQ(w.target, "/nodes/1/weights");
  EXPECT_EQ(w.keys.components, 2u);  // 12 outputs / (2 keys x 3)
  EXPECT_EQ(w.keys.values_per_keyframe(), 3u);
  EXPECT_EQ(w.keys.times, (std::vector<double>{0, 1}));
  EXPECT_EQ(w.keys.values,
            (std::vector<double>{0.0, 1.0, 51.0 / 255, 102.0 / 255, 1.0, 0.0,  //
                                 128.0 / 255, 1.0 / 255, 204.0 / 255, 153.0 / 255, 0.0, 0.0}));
  const ChannelKeys& r = keys[2];
  EXPECT_EQ(r.target, "/nodes/0/rotation");
  EXPECT_EQ(r.measure, samples::Measure::kAngle);
  EXPECT_EQ(r.interpolation, "LINEAR");
  EXPECT_EQ(r.keys.values_per_keyframe(), 1u);
  EXPECT_EQ(r.keys.components, 4u);
  // -32768 / 32767 is below -1: max(c / 32767, -1) = -1, as is -32767.
  EXPECT_EQ(r.keys.values, (std::vector<double>{0, 0, 0, 1, -1, -1, 16384.0 / 32767, 0}));
}

TEST(ChannelKeys, ChannelSampleRefusesKeepsItsKeysAndSaysWhy) {
  const std::filesystem::path asset = write_asset();
  EXPECT_THROW(sample_asset(asset), SampleError);  // the times 0, 1, 1
  const auto keys = channel_keys(asset);
  ASSERT_EQ(keys.size(), 4u);
  const ChannelKeys& bad = keys[3];
  EXPECT_EQ(bad.channel, 3u);
  EXPECT_TRUE(bad.decoded);
  EXPECT_NE(bad.problem.find("/animations/0/channels/3"), std::string::npos) << bad.problem;
  EXPECT_NE(bad.problem.find("not strictly increasing"), std::string::npos) << bad.problem;
  EXPECT_EQ(bad.keys.times, (std::vector<double>{0, 1, 1}));
  EXPECT_EQ(bad.keys.values, (std::vector<double>{0, 0, 0, 1, 1, 1, 2, 2, 2}));
  for (std::size_t c = 0; c < 3; ++c) EXPECT_EQ(keys[c].problem, "") << c;
}

TEST(ChannelKeys, WrittenAsJsonKeyByKey) {
  const KeysStream stream(write_asset(), {});
  EXPECT_EQ(stream.problems(), 1u);
  std::ostringstream out;
  stream.write(out);
  json::Document d;
  d.Parse(out.str().c_str());
  ASSERT_FALSE(d.HasParseError()) << out.str();
  EXPECT_STREQ(d["asset"].GetString(), "keys.gltf");
  const auto& channels = d["channels"];
  ASSERT_EQ(channels.Size(), 4u);
  const auto& key1 = channels[0]["keys"][1];
  EXPECT_EQ(key1["t"].GetDouble(), 0.5);
  const auto triple = [](const json::Value& a) {
    return std::vector<double>{a[0].GetDouble(), a[1].GetDouble(), a[2].GetDouble()};
  };
  EXPECT_EQ(triple(key1["in"]), (std::vector<double>{4, 0, -2}));
  EXPECT_EQ(triple(key1["value"]), (std::vector<double>{1.5, 2.5, -3}));
  EXPECT_EQ(triple(key1["out"]), (std::vector<double>{-0.75, 8, 1}));
  EXPECT_STREQ(channels[2]["measure"].GetString(), "angle");
  EXPECT_FALSE(channels[2]["keys"][0].HasMember("in"));  // LINEAR: values only
  EXPECT_TRUE(channels[3].HasMember("problem"));
  EXPECT_EQ(channels[3]["keys"].Size(), 3u);
  EXPECT_FALSE(channels[0].HasMember("problem"));
}

// The page's verdict module lists the keys of the asset its validation loaded: a stream over an
// asset the caller holds writes what the stream that loads the file itself writes, and the
// asset stays the caller's (read again after the stream is gone).
TEST(ChannelKeys, AStreamOverALoadedAssetWritesWhatTheFileStreamWrites) {
  const std::filesystem::path path = write_asset();
  std::ostringstream from_file;
  KeysStream(path, {}).write(from_file);
  gltf::IssueCollector issues;
  const gltf::LoadedAsset asset = gltf::load_file(path, {}, issues);
  SampleRequest request;
  request.asset_name = "keys.gltf";
  for (int round = 0; round < 2; ++round) {
    const KeysStream held(asset, path.string(), request);
    EXPECT_EQ(held.problems(), 1u);
    std::ostringstream out;
    held.write(out);
    EXPECT_EQ(out.str(), from_file.str()) << round;
  }
  gltf::LoadedAsset not_gltf;
  EXPECT_THROW(KeysStream(not_gltf, "nothing.gltf", request), SampleError);
}

TEST(ChannelKeys, CliWritesTheKeysAndExitsOneWhenAChannelCannotBeSampled) {
  const std::filesystem::path asset = write_asset();
  const std::filesystem::path out = asset.parent_path() / "keys.json";
  const auto run = cli_process::run({"sample", asset.string(), "--keys", "--output", out.string()},
                                    asset.parent_path());
  EXPECT_EQ(run.exit_code, 1) << run.err;  // channel 3's times: written all the same
  json::Document d;
  d.Parse(cli_process::slurp(out).c_str());
  ASSERT_FALSE(d.HasParseError());
  EXPECT_EQ(d["channels"].Size(), 4u);
  // Keys are not sampled: the options that choose sample times do not apply.
  for (const char* option : {"--rate", "--times"}) {
    const auto refused =
        cli_process::run({"sample", asset.string(), "--keys", option, "1"}, asset.parent_path());
    EXPECT_EQ(refused.exit_code, 2) << option;
    EXPECT_NE(refused.err.find("--keys"), std::string::npos) << refused.err;
  }
}

}  // namespace
}  // namespace gltf_anim::sampler

// `gltf-anim reduce` end to end: a hand-made asset whose reduction is known (node and
// KHR_animation_pointer targets, a shared time accessor, a constant channel, an
// animation whose only channel is constant), run through the CLI; the output read back
// with the sampler's decoder and checked with this file's own Appendix C evaluator.
#include "scratch.hpp"
#include <gltf_anim/sampler/sample.hpp>
#include <gltf_anim/gltf/accessor.hpp>
#include <gltf_anim/gltf/load.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli/cli_process.hpp"

namespace {

namespace fs = std::filesystem;

std::string base64(const std::vector<std::uint8_t>& bytes) {
  static const char* kTable = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::uint32_t n = (std::uint32_t{bytes[i]} << 16) |
                            (i + 1 < bytes.size() ? std::uint32_t{bytes[i + 1]} << 8 : 0) |
                            (i + 2 < bytes.size() ? std::uint32_t{bytes[i + 2]} : 0);
    out += kTable[(n >> 18) & 63];
    out += kTable[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? kTable[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kTable[n & 63] : '=';
  }
  return out;
}

// A glTF whose accessors are float arrays appended to one data-URI buffer.
struct AssetBuilder {
  std::vector<std::uint8_t> bytes;
  std::string views, accessors;
  int count = 0;
  int add(const std::vector<float>& data, const char* type, bool bounds) {
    const std::size_t offset = bytes.size();
    for (float f : data) {
      std::uint8_t b[4];
      std::memcpy(b, &f, 4);
      bytes.insert(bytes.end(), b, b + 4);
    }
    const int width = std::strcmp(type, "SCALAR") == 0 ? 1 : type[3] - '0';
    if (count) {
      views += ",";
      accessors += ",";
    }
    views += "{\"buffer\":0,\"byteOffset\":" + std::to_string(offset) +
             ",\"byteLength\":" + std::to_string(data.size() * 4) + "}";
    accessors += "{\"bufferView\":" + std::to_string(count) +
                 ",\"componentType\":5126,\"count\":" + std::to_string(data.size() / width) +
                 ",\"type\":\"" + type + "\"";
    if (bounds) {
      accessors += ",\"min\":[" + std::to_string(data.front()) + "],\"max\":[" +
                   std::to_string(data.back()) + "]";
    }
    accessors += "}";
    return count++;
  }
};

std::vector<float> kick(const std::vector<float>& times) {
  // The identity but at t = 3, a turn of 0.2 rad about z: alone it keeps the keys the
  // translation's bump keeps, {0, 2, 3, 4, 6}, so the two keep sharing their times.
  std::vector<float> q;
  for (float t : times)
    q.insert(q.end(), {0, 0, t == 3 ? std::sin(0.1f) : 0, t == 3 ? std::cos(0.1f) : 1});
  return q;
}

// Appendix C LINEAR: lerp for vectors, shortest-path slerp for rotations.
std::vector<double> eval(const gltf_anim::sampler::DecodedChannel& c, double t) {
  const std::size_t n = c.keys.times.size(), w = c.keys.components;
  auto at = [&](std::size_t k) {
    return std::vector<double>(c.keys.values.begin() + static_cast<long>(k * w),
                               c.keys.values.begin() + static_cast<long>((k + 1) * w));
  };
  if (n == 1 || t <= c.keys.times.front()) return at(0);
  if (t >= c.keys.times.back()) return at(n - 1);
  std::size_t k = 0;
  while (c.keys.times[k + 1] <= t) ++k;
  const double u = (t - c.keys.times[k]) / (c.keys.times[k + 1] - c.keys.times[k]);
  std::vector<double> a = at(k), b = at(k + 1), out(w);
  if (c.keys.kind == gltf_anim::reference::ValueKind::kRotation) {
    double d = 0;
    for (std::size_t i = 0; i < 4; ++i) d += a[i] * b[i];
    const double s = d < 0 ? -1 : 1, angle = std::acos(std::min(1.0, std::fabs(d)));
    const double wa = angle > 1e-9 ? std::sin(angle * (1 - u)) / std::sin(angle) : 1 - u;
    const double wb = angle > 1e-9 ? std::sin(angle * u) / std::sin(angle) : u;
    for (std::size_t i = 0; i < 4; ++i) out[i] = wa * a[i] + s * wb * b[i];
    return out;
  }
  for (std::size_t i = 0; i < w; ++i) out[i] = (1 - u) * a[i] + u * b[i];
  return out;
}

double error(const gltf_anim::sampler::DecodedChannel& original,
             const gltf_anim::sampler::DecodedChannel& reduced) {
  double worst = 0;
  const bool rotation = original.keys.kind == gltf_anim::reference::ValueKind::kRotation;
  for (std::size_t k = 0; k + 1 < original.keys.times.size(); ++k) {
    for (int s = 0; s <= 32; ++s) {
      const double t =
          original.keys.times[k] + (original.keys.times[k + 1] - original.keys.times[k]) * s / 32;
      const std::vector<double> o = eval(original, t), r = eval(reduced, t);
      if (rotation) {
        double d = 0;
        for (std::size_t i = 0; i < 4; ++i) d += o[i] * r[i];
        worst = std::max(worst, 2 * std::acos(std::min(1.0, std::fabs(d))));
      } else {
        for (std::size_t i = 0; i < o.size(); ++i) worst = std::max(worst, std::fabs(o[i] - r[i]));
      }
    }
  }
  return worst;
}

class ReduceCli : public ::testing::Test {
 protected:
  fs::path dir_ = gltf_anim_test::scratch_root() / "reduce_cli";
  fs::path input_ = dir_ / "in.gltf";
  void SetUp() override {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    AssetBuilder b;
    const std::vector<float> times{0, 1, 2, 3, 4, 5, 6};
    const int shared = b.add(times, "SCALAR", true);
    // Translation: a bump at t = 3 (0.5 high); with E = 0.01 keys {0, 2, 3, 4, 6} stay.
    std::vector<float> bump;
    for (float t : times) bump.insert(bump.end(), {0, t == 3 ? 0.5f : 0.0f, 1});
    const int t_out = b.add(bump, "VEC3", false);
    const int r_out = b.add(kick(times), "VEC4", false);
    // Scale: constant within 0.004 of (1, 1, 1).
    std::vector<float> scale;
    for (float t : times) scale.insert(scale.end(), {1.0f + 0.002f * std::sin(t), 1, 1});
    const int s_out = b.add(scale, "VEC3", false);
    // A pointer channel on node 1's translation, collinear at its own times: 2 keys.
    const std::vector<float> ptimes{0, 0.5, 1.5, 4};
    const int p_in = b.add(ptimes, "SCALAR", true);
    std::vector<float> line;
    for (float t : ptimes) line.insert(line.end(), {2 * t, -t, 0.25});
    const int p_out = b.add(line, "VEC3", false);
    // Animation 1: one constant channel over [0, 4]: one value, but still ending at 4.
    const std::vector<float> ctimes{0, 2, 4};
    const int c_in = b.add(ctimes, "SCALAR", true);
    const int c_out = b.add({3, 3, 3, 3, 3, 3, 3, 3, 3}, "VEC3", false);
    auto sampler = [](int in, int out) {
      return "{\"input\":" + std::to_string(in) + ",\"output\":" + std::to_string(out) + "}";
    };
    auto channel = [](int s, const std::string& target) {
      return "{\"sampler\":" + std::to_string(s) + ",\"target\":" + target + "}";
    };
    const std::string json =
        "{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"KHR_animation_pointer\"],"
        "\"scene\":0,\"scenes\":[{\"nodes\":[0,1]}],\"nodes\":[{\"name\":\"a\"},{\"name\":\"b\"}],"
        "\"animations\":[{\"samplers\":[" +
        sampler(shared, t_out) + "," + sampler(shared, r_out) + "," + sampler(shared, s_out) + "," +
        sampler(p_in, p_out) + "],\"channels\":[" +
        channel(0, "{\"node\":0,\"path\":\"translation\"}") + "," +
        channel(1, "{\"node\":0,\"path\":\"rotation\"}") + "," +
        channel(2, "{\"node\":0,\"path\":\"scale\"}") + "," +
        channel(3,
                "{\"path\":\"pointer\",\"extensions\":{\"KHR_animation_pointer\":{\"pointer\":"
                "\"/nodes/1/translation\"}}}") +
        "]},{\"samplers\":[" + sampler(c_in, c_out) + "],\"channels\":[" +
        channel(0, "{\"node\":1,\"path\":\"scale\"}") +
        "]}],\"buffers\":[{\"byteLength\":" + std::to_string(b.bytes.size()) +
        ",\"uri\":\"data:application/octet-stream;base64," + base64(b.bytes) +
        "\"}],\"bufferViews\":[" + b.views + "],\"accessors\":[" + b.accessors + "]}";
    std::ofstream(input_, std::ios::binary) << json;
  }
};

TEST_F(ReduceCli, ReducesWithinTheBoundAndKeepsSharedTimesShared) {
  const auto before_validate = cli_process::run({"validate", input_.string()}, dir_);
  ASSERT_EQ(before_validate.exit_code, 0) << before_validate.out << before_validate.err;
  const fs::path output = dir_ / "out.gltf";
  const auto run = cli_process::run(
      {"reduce", input_.string(), "-o", output.string(), "--max-error", "0.01", "--format", "json"},
      dir_);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  const auto after_validate = cli_process::run({"validate", output.string()}, dir_);
  EXPECT_EQ(after_validate.exit_code, 0) << after_validate.out;

  const auto in = gltf_anim::sampler::decoded_channels(input_);
  const auto out = gltf_anim::sampler::decoded_channels(output);
  ASSERT_EQ(in.size(), 5u);
  ASSERT_EQ(out.size(), 5u);
  // Keys: {0, 2, 3, 4, 6} for the bump and the kick, which share their times; the constant
  // scale one; the pointer line its 2 ends; the constant channel of animation 1 two (it
  // alone sets that animation's end, 4 s).
  EXPECT_EQ(out[0].keys.times, (std::vector<double>{0, 2, 3, 4, 6}));
  EXPECT_EQ(out[1].keys.times, out[0].keys.times);
  EXPECT_EQ(out[2].keys.times, (std::vector<double>{0}));
  EXPECT_EQ(out[3].keys.times, (std::vector<double>{0, 4}));
  EXPECT_EQ(out[4].keys.times, (std::vector<double>{0, 4}));
  for (std::size_t c = 0; c < in.size(); ++c) {
    const double bound =
        in[c].keys.kind == gltf_anim::reference::ValueKind::kRotation ? 0.02 : 0.01;
    EXPECT_LE(error(in[c], out[c]), bound + 1e-9) << "channel " << c;
  }
  // The translation and rotation samplers still share one time accessor.
  std::ifstream file(output, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  gltf_anim::json::Document doc;
  doc.Parse(text.c_str());
  ASSERT_FALSE(doc.HasParseError());
  const auto& samplers = doc["animations"][0]["samplers"];
  EXPECT_EQ(samplers[0]["input"].GetInt(), samplers[1]["input"].GetInt());
  EXPECT_NE(samplers[0]["input"].GetInt(), samplers[2]["input"].GetInt());
  // The JSON summary names every channel with its keys and error.
  EXPECT_NE(run.out.find("\"keysBefore\":7,\"keysAfter\":5"), std::string::npos) << run.out;
  // The pointer line and animation 1's constant channel both end up on the times {0, 4}:
  // one time accessor for both, across the two animations.
  EXPECT_EQ(samplers[3]["input"].GetInt(), doc["animations"][1]["samplers"][0]["input"].GetInt());
  // The buffer holds only the reduced data: removed keys' bytes are dropped (the shared
  // time accessor's old bytes too, although its users changed it differently). Times
  // 5 + 1 + 2 floats ({0, 4} once); values 5 x 3 + 5 x 4 + 1 x 3 + 2 x 3 + 2 x 3 floats:
  // 232 bytes.
  EXPECT_EQ(doc["buffers"][0]["byteLength"].GetInt(), 232);
  // The channels' bytes count each time accessor once, before and after: summed they are
  // the animation data. Before: times 7 + 4 + 3 floats (the 7 shared by three samplers),
  // values 7 x 3 + 7 x 4 + 7 x 3 + 4 x 3 + 3 x 3 floats = 420 bytes; after, the 232 above.
  gltf_anim::json::Document summary;
  summary.Parse(run.out.c_str());
  ASSERT_FALSE(summary.HasParseError()) << run.out;
  std::uint64_t before = 0, after = 0;
  for (const auto& c : summary["channels"].GetArray()) {
    before += c["bytesBefore"].GetUint64();
    after += c["bytesAfter"].GetUint64();
  }
  EXPECT_EQ(before, 420u) << run.out;
  EXPECT_EQ(after, 232u) << run.out;
}

TEST_F(ReduceCli, DryRunWritesNothingAndBadArgumentsAreUsageErrors) {
  const auto snapshot = cli_process::snapshot(dir_);
  const auto dry = cli_process::run({"reduce", input_.string(), "-o", (dir_ / "x.gltf").string(),
                                     "--max-error", "0.01", "--dry-run"},
                                    dir_);
  EXPECT_EQ(dry.exit_code, 0) << dry.out << dry.err;
  // Scratch files of the runner aside, the folder is as it was.
  auto now = cli_process::snapshot(dir_);
  EXPECT_EQ(now.count("x.gltf"), 0u);
  EXPECT_EQ(now["in.gltf"], snapshot.at("in.gltf"));
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{"reduce", input_.string(), "-o", "y.gltf"},
        {"reduce", input_.string(), "-o", "y.gltf", "--max-error", "-1"},
        {"reduce", input_.string(), "-o", "y.gltf", "--max-error", "nan"},
        {"reduce", input_.string(), "-o", "y.gltf", "--max-error", "0.1", "--format", "xml"},
        {"reduce", (dir_ / "missing.gltf").string(), "-o", "y.gltf", "--max-error", "0.1"},
        {"reduce", input_.string(), "-o", input_.string(), "--max-error", "0.1"}}) {
    const auto r = cli_process::run(bad, dir_);
    EXPECT_EQ(r.exit_code, 2) << bad.back() << r.out << r.err;
  }
  EXPECT_EQ(cli_process::snapshot(dir_)["in.gltf"], snapshot.at("in.gltf"));
}

}  // namespace

namespace {

// Two samplers' outputs packed in one bufferView (as exporters do): one channel reduces,
// the other cannot. Its accessor moves out unchanged so the packed view's bytes go.
TEST(ReduceCliPacked, AViewSharedWithAnUnchangedAccessorIsStillCompacted) {
  const fs::path dir = gltf_anim_test::scratch_root() / "reduce_cli_packed";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::vector<float> data{0, 1, 2, 3};                                          // times, view 0
  for (float t : {0.f, 1.f, 2.f, 3.f}) data.insert(data.end(), {t, 2 * t, 0});  // A: a line
  for (float x : {0.f, 1.f, 0.f, 1.f}) data.insert(data.end(), {x, 0, 0});      // B: zigzag
  std::vector<std::uint8_t> bytes(data.size() * 4);
  std::memcpy(bytes.data(), data.data(), bytes.size());
  const std::string json =
      "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{},{}],"
      "\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1},{\"input\":0,\"output\":2}],"
      "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"translation\"}},"
      "{\"sampler\":1,\"target\":{\"node\":1,\"path\":\"translation\"}}]}],"
      "\"buffers\":[{\"byteLength\":112,\"uri\":\"data:application/octet-stream;base64," +
      base64(bytes) +
      "\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":16},"
      "{\"buffer\":0,\"byteOffset\":16,\"byteLength\":96}],"
      "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"SCALAR\","
      "\"min\":[0],\"max\":[3]},"
      "{\"bufferView\":1,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
      "{\"bufferView\":1,\"byteOffset\":48,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"}]}";
  std::ofstream(dir / "in.gltf", std::ios::binary) << json;
  const auto run = cli_process::run({"reduce", (dir / "in.gltf").string(), "-o",
                                     (dir / "out.gltf").string(), "--max-error", "0.01"},
                                    dir);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  std::ifstream file(dir / "out.gltf", std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  gltf_anim::json::Document doc;
  doc.Parse(text.c_str());
  ASSERT_FALSE(doc.HasParseError());
  // Alone is smaller than together (A: 2 times + 2 values, B: 4 + 4 = 8 + 24 + 16 + 48 =
  // 96 bytes, against 16 + 48 + 48 = 112): A gets its own 2 times; B keeps the original
  // times. Left in the buffer: B's times (16), A's new times and values (8 + 24), B's
  // values moved out of the packed view (48): 96 bytes. Had B's values stayed, the whole
  // packed view (96) would stay with them: 144.
  EXPECT_EQ(doc["buffers"][0]["byteLength"].GetInt(), 96);
  const auto out = gltf_anim::sampler::decoded_channels(dir / "out.gltf");
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].keys.times, (std::vector<double>{0, 3}));
  EXPECT_EQ(out[1].keys.values, (std::vector<double>{0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0}));
}

// Two channels, each with a time accessor of its own holding the same times, neither
// reducible, beside a mesh: the reduction writes the times once and nothing else moves.
TEST(ReduceCliMerge, EqualTimeAccessorsAreWrittenOnceAndTheRestIsUntouched) {
  const fs::path dir = gltf_anim_test::scratch_root() / "reduce_cli_merge";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::vector<float> data{0, 0, 0, 1, 0, 0, 0, 1, 0};  // POSITION, bytes 0-35
  for (int copy = 0; copy < 2; ++copy)
    for (float t : {0.f, 1.f, 2.f, 3.f}) data.push_back(t);  // times, 36-51 and 52-67
  for (float x : {0.f, 1.f, 0.f, 1.f}) data.insert(data.end(), {x, 0, 0});  // 68-115
  for (float x : {0.f, 2.f, 0.f, 2.f}) data.insert(data.end(), {x, 0, 0});  // 116-163
  std::vector<std::uint8_t> bytes(data.size() * 4);
  std::memcpy(bytes.data(), data.data(), bytes.size());
  const std::string meshes =
      "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}],"
      "\"extras\":{\"keep\":[1,2.50]}}]";
  const std::string json =
      "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0,1,2]}],"
      "\"nodes\":[{\"mesh\":0},{},{}]," +
      meshes +
      ",\"animations\":[{\"samplers\":[{\"input\":1,\"output\":3},{\"input\":2,\"output\":4}],"
      "\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}},"
      "{\"sampler\":1,\"target\":{\"node\":2,\"path\":\"translation\"}}]}],"
      "\"buffers\":[{\"byteLength\":164,\"uri\":\"data:application/octet-stream;base64," +
      base64(bytes) +
      "\"}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":36},"
      "{\"buffer\":0,\"byteOffset\":36,\"byteLength\":16},"
      "{\"buffer\":0,\"byteOffset\":52,\"byteLength\":16},"
      "{\"buffer\":0,\"byteOffset\":68,\"byteLength\":48},"
      "{\"buffer\":0,\"byteOffset\":116,\"byteLength\":48}],"
      "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\","
      "\"min\":[0,0,0],\"max\":[1,1,0]},"
      "{\"bufferView\":1,\"componentType\":5126,\"count\":4,\"type\":\"SCALAR\","
      "\"min\":[0],\"max\":[3]},"
      "{\"bufferView\":2,\"componentType\":5126,\"count\":4,\"type\":\"SCALAR\","
      "\"min\":[0],\"max\":[3]},"
      "{\"bufferView\":3,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
      "{\"bufferView\":4,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"}]}";
  std::ofstream(dir / "in.gltf", std::ios::binary) << json;
  const auto before = cli_process::run({"validate", (dir / "in.gltf").string()}, dir);
  ASSERT_EQ(before.exit_code, 0) << before.out;
  const auto run = cli_process::run({"reduce", (dir / "in.gltf").string(), "-o",
                                     (dir / "out.gltf").string(), "--max-error", "0.01"},
                                    dir);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  const auto after = cli_process::run({"validate", (dir / "out.gltf").string()}, dir);
  EXPECT_EQ(after.exit_code, 0) << after.out;
  std::ifstream file(dir / "out.gltf", std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  // The mesh's JSON, as written, and its data.
  EXPECT_NE(text.find(meshes), std::string::npos) << text;
  gltf_anim::json::Document doc;
  doc.Parse(text.c_str());
  ASSERT_FALSE(doc.HasParseError());
  const auto& samplers = doc["animations"][0]["samplers"];
  EXPECT_EQ(samplers[0]["input"].GetInt(), 1);
  EXPECT_EQ(samplers[1]["input"].GetInt(), 1);
  EXPECT_EQ(samplers[1]["output"].GetInt(), 4);
  EXPECT_EQ(doc["accessors"][0]["bufferView"].GetInt(), 0);
  // Bytes: the positions (36) at 0; the two outputs (96), 4 mod 8 at 68 in the input, at
  // 36 after; the times once, in a new view 4-aligned at 132 (16): 148, one copy of the
  // times (16) fewer than 164.
  EXPECT_EQ(doc["buffers"][0]["byteLength"].GetInt(), 148);
  const auto in = gltf_anim::sampler::decoded_channels(dir / "in.gltf");
  const auto out = gltf_anim::sampler::decoded_channels(dir / "out.gltf");
  ASSERT_EQ(out.size(), 2u);
  for (std::size_t c = 0; c < 2; ++c) {
    EXPECT_EQ(out[c].keys.times, in[c].keys.times);
    EXPECT_EQ(out[c].keys.values, in[c].keys.values);
    EXPECT_EQ(error(in[c], out[c]), 0.0);
  }
  gltf_anim::gltf::IssueCollector issues;
  const auto asset = gltf_anim::gltf::load_file(dir / "out.gltf", {}, issues);
  std::vector<double> positions;
  ASSERT_TRUE(gltf_anim::gltf::read_accessor(asset, 0, positions));
  EXPECT_EQ(positions, (std::vector<double>{0, 0, 0, 1, 0, 0, 0, 1, 0}));
}

}  // namespace

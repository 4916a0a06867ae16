// sampler::sample_asset on broken assets: a sampler::SampleError with the documented exit code and
// the channel's JSON pointer, never a crash or a silent partial result.
#include <gltf_anim/sampler/sample.hpp>

#include <gtest/gtest.h>

#include <fstream>

#include "conformance_test_util.hpp"

namespace gltf_anim::suite::test {
namespace {

// A minimal asset: node 0; accessor 0 = times (0, 1), accessor 1 = 2 x VEC3, accessor 2 = 2 x VEC4.
// Buffer: 8 + 24 + 32 bytes of float zeros and ones, as a data URI.
std::string asset_with(const std::string& animations, const std::string& accessors_extra = "") {
  // times 0, 1 then zeros: 64 bytes; base64 of the bytes below.
  // 0.0f = 00000000, 1.0f = 0000803f.
  std::string bytes(64, '\0');
  bytes[4 + 2] = static_cast<char>(0x80);
  bytes[4 + 3] = 0x3f;
  static const char* kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string b64;
  for (std::size_t i = 0; i + 2 < bytes.size() || i < bytes.size(); i += 3) {
    const auto byte = [&](std::size_t k) -> unsigned { return k < bytes.size() ? static_cast<unsigned char>(bytes[k]) : 0u; };
    const unsigned v = (byte(i) << 16) | (byte(i + 1) << 8) | byte(i + 2);
    b64 += kAlphabet[(v >> 18) & 63];
    b64 += kAlphabet[(v >> 12) & 63];
    b64 += i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=';
    b64 += i + 2 < bytes.size() ? kAlphabet[v & 63] : '=';
  }
  std::string json = R"({"asset":{"version":"2.0"},"nodes":[{}],)";
  json += R"("buffers":[{"byteLength":64,"uri":"data:application/octet-stream;base64,)" + b64 + R"("}],)";
  json += R"("bufferViews":[{"buffer":0,"byteLength":8},{"buffer":0,"byteOffset":8,"byteLength":24},)";
  json += R"({"buffer":0,"byteOffset":32,"byteLength":32}],)";
  json += R"("accessors":[{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},)";
  json += R"({"bufferView":1,"componentType":5126,"count":2,"type":"VEC3"},)";
  json += R"({"bufferView":2,"componentType":5126,"count":2,"type":"VEC4"})" + accessors_extra + "],";
  json += R"("animations":)" + animations + "}";
  return json;
}

int exit_code_of(const std::string& name, const std::string& json) {
  const auto path = scratch("robust_" + name) / "asset.gltf";
  std::ofstream(path) << json;
  try {
    sampler::sample_asset(path);
  } catch (const sampler::SampleError& e) {
    return e.exit_code();
  }
  return 0;
}

TEST(SampleRobustness, TheMinimalAssetSamples) {
  EXPECT_EQ(exit_code_of("ok", asset_with(R"([{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}],)"
                                          R"("samplers":[{"input":0,"output":1}]}])")),
            0);
}

TEST(SampleRobustness, BrokenChannelsAreErrorsWithExitCode1) {
  const char* cases[][2] = {
      {"rotation_vec3", R"([{"channels":[{"sampler":0,"target":{"node":0,"path":"rotation"}}],"samplers":[{"input":0,"output":1}]}])"},
      {"translation_vec4", R"([{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}],"samplers":[{"input":0,"output":2}]}])"},
      {"input_vec3", R"([{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}],"samplers":[{"input":1,"output":1}]}])"},
      {"no_accessor", R"([{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}],"samplers":[{"input":9,"output":1}]}])"},
      {"bad_interp", R"([{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}],"samplers":[{"input":0,"output":1,"interpolation":"QUADRATIC"}]}])"},
      {"cubic_count", R"([{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}],"samplers":[{"input":0,"output":1,"interpolation":"CUBICSPLINE"}]}])"},
      {"no_sampler", R"([{"channels":[{"target":{"node":0,"path":"translation"}}],"samplers":[]}])"},
      // (Without the extension's object or its name in extensionsUsed, path "pointer" is a path
      // the asset does not define and the channel is ignored: tests/sampler/pipeline_outputs_test.cpp.)
      {"pointer_missing", R"([{"channels":[{"sampler":0,"target":{"path":"pointer","extensions":{"KHR_animation_pointer":{}}}}],"samplers":[{"input":0,"output":1}]}])"},
      {"channel_not_object", R"([{"channels":[7],"samplers":[]}])"},
      {"channels_missing", R"([{"samplers":[]}])"},
      {"animation_not_object", R"([7])"},
      // What the validator refuses as a target, sample refuses too (the animation model's reading):
      {"unresolved_node", R"([{"channels":[{"sampler":0,"target":{"node":5,"path":"translation"}}],"samplers":[{"input":0,"output":1}]}])"},
      {"unknown_pointer", R"([{"channels":[{"sampler":0,"target":{"path":"pointer","extensions":{"KHR_animation_pointer":{"pointer":"/nodes/0/speed"}}}}],"samplers":[{"input":0,"output":1}]}])"},
      {"read_only_pointer", R"([{"channels":[{"sampler":0,"target":{"path":"pointer","extensions":{"KHR_animation_pointer":{"pointer":"/nodes/0/mesh"}}}}],"samplers":[{"input":0,"output":1}]}])"},
      {"pointer_float3_vec4", R"([{"channels":[{"sampler":0,"target":{"path":"pointer","extensions":{"KHR_animation_pointer":{"pointer":"/nodes/0/translation"}}}}],"samplers":[{"input":0,"output":2}]}])"},
      {"linear_int", R"([{"channels":[{"sampler":0,"target":{"path":"pointer","extensions":{"KHR_animation_pointer":{"pointer":"/nodes/0/extras/x"}}}}],"samplers":[{"input":0,"output":3}]}])"},
  };
  for (const auto& c : cases) {
    std::string extra;
    if (std::string(c[0]) == "linear_int") extra = R"(,{"bufferView":0,"componentType":5121,"count":2,"type":"SCALAR"})";
    EXPECT_EQ(exit_code_of(c[0], asset_with(c[1], extra)), 1) << c[0];
  }
}

// A refused pointer is quoted cut (256 bytes and a mark), not whole: a 100 kB
// pointer gives a one-line reason, not a 100 kB one.
TEST(SampleRobustness, ALongRefusedPointerIsQuotedCut) {
  const auto path = scratch("robust_long_pointer") / "asset.gltf";
  const std::string pointer = "/nodes/0/" + std::string(100000, 'x');
  std::ofstream(path) << asset_with(R"([{"channels":[{"sampler":0,"target":{"path":"pointer","extensions":)"
                                    R"({"KHR_animation_pointer":{"pointer":")" + pointer + R"("}}}}],)"
                                    R"("samplers":[{"input":0,"output":1}]}])");
  try {
    sampler::sample_asset(path);
    ADD_FAILURE() << "an unknown pointer was sampled";
  } catch (const sampler::SampleError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.exit_code(), 1);
    EXPECT_NE(what.find("is not a property of the glTF Object Model"), std::string::npos) << what.substr(0, 400);
    EXPECT_LT(what.size(), path.string().size() + 512);
  }
}

TEST(SampleRobustness, ChannelsWithoutNodeAreIgnoredAsTheSpecSays) {
  const auto path = scratch("robust_nonode") / "asset.gltf";
  std::ofstream(path) << asset_with(R"([{"channels":[{"sampler":0,"target":{"path":"translation"}}],)"
                                    R"("samplers":[{"input":0,"output":1}]}])");
  const auto f = sampler::sample_asset(path);
  ASSERT_EQ(f.animations.size(), 1u);
  EXPECT_TRUE(f.animations[0].channels.empty());
}

TEST(SampleRobustness, NotGltfIsExitCode2) {
  EXPECT_EQ(exit_code_of("text", "hello"), 2);
  EXPECT_EQ(exit_code_of("array", "[1,2]"), 2);
  EXPECT_EQ(exit_code_of("glb_garbage", std::string("glTF\x02\0\0\0\xff\xff", 10)), 2);
}

}  // namespace
}  // namespace gltf_anim::suite::test

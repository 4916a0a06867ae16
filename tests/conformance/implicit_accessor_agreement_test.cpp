// validate and sample agree on assets whose accessors have no bufferView
// (implicit zeros, possibly with sparse substitutions): validate reports an
// error exactly when sample refuses the asset. The expected verdict of each
// asset is written beside it, from the spec (times strictly increasing,
// rotation keys unit quaternions, output count = keys x outputs per key).
#include <gltf_anim/sampler/sample.hpp>
#include <gltf_anim/validator/validate.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "conformance_test_util.hpp"

namespace gltf_anim::suite::test {
namespace {

// Buffer: floats 0, 1 (bufferView 0); UNSIGNED_BYTEs 0, 1 + padding
// (bufferView 1); two identity quaternions (bufferView 2).
constexpr const char* kBuffer =
    R"("buffers":[{"byteLength":44,"uri":"data:application/octet-stream;base64,AAAAAAAAgD8AAQAAAAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8="}],
       "bufferViews":[{"buffer":0,"byteLength":8},{"buffer":0,"byteOffset":8,"byteLength":4},
                      {"buffer":0,"byteOffset":12,"byteLength":32}],)";

std::string asset(const std::string& accessors, const std::string& path,
                  const std::string& interpolation = "LINEAR") {
  return std::string(R"({"asset":{"version":"2.0"},"nodes":[{}],)") + kBuffer + R"("accessors":)" + accessors +
         R"(,"animations":[{"channels":[{"sampler":0,"target":{"node":0,"path":")" + path +
         R"("}}],"samplers":[{"input":0,"output":1,"interpolation":")" + interpolation + R"("}]}]})";
}

constexpr const char* kStoredTimes =
    R"({"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]})";

// Translations (zeros) over `count` times without bufferView: zeros, or with
// `sparse` time 1 set to 1.0 (index byte 1 of bufferView 1, float 1 of view 0).
std::string translations(int count, bool sparse) {
  const std::string n = std::to_string(count);
  std::string times = R"({"componentType":5126,"count":)" + n + R"(,"type":"SCALAR","min":[0],"max":[)" +
                      (sparse ? "1" : "0") + "]";
  if (sparse) {
    times += R"(,"sparse":{"count":1,"indices":{"bufferView":1,"byteOffset":1,"componentType":5121},)"
             R"("values":{"bufferView":0,"byteOffset":4}})";
  }
  return asset("[" + times + R"(},{"componentType":5126,"count":)" + n + R"(,"type":"VEC3"}])", "translation");
}

// Rotations over the stored times [0, 1]: `count` VEC4 without bufferView, the
// first `identities` of them (0, 1 or 2) replaced by identity quaternions.
std::string rotations(int count, int identities, const std::string& interpolation = "LINEAR") {
  std::string output = R"({"componentType":5126,"count":)" + std::to_string(count) + R"(,"type":"VEC4")";
  if (identities > 0) {
    output += R"(,"sparse":{"count":)" + std::to_string(identities) +
              R"(,"indices":{"bufferView":1,"componentType":5121},"values":{"bufferView":2}})";
  }
  return asset(std::string("[") + kStoredTimes + "," + output + "}]", "rotation", interpolation);
}

struct Case {
  const char* name;
  std::string json;
  bool invalid;  // by the spec
};

std::vector<Case> cases() {
  return {
      {"zero_translations", asset(std::string("[") + kStoredTimes +
                                      R"(,{"componentType":5126,"count":2,"type":"VEC3"}])",
                                  "translation"),
       false},
      {"one_zero_time", translations(1, false), false},
      {"zero_times", translations(2, false), true},
      {"sparse_times_increasing", translations(2, true), false},
      {"sparse_times_not_increasing", translations(3, true), true},
      {"zero_rotations", rotations(2, 0), true},
      {"sparse_unit_rotations", rotations(2, 2), false},
      {"sparse_rotation_then_zero", rotations(2, 1), true},
      // Indices 0, 1 set a0 and v0; v1 (element 4) stays zero.
      {"cubic_rotation_zero_tangents", rotations(6, 2, "CUBICSPLINE"), true},
      {"wrong_count", asset(std::string("[") + kStoredTimes +
                                R"(,{"componentType":5126,"count":3,"type":"VEC3"}])",
                            "translation"),
       true},
  };
}

TEST(ImplicitAccessorAgreement, ValidateErrsExactlyWhenSampleRefuses) {
  const auto dir = scratch("implicit_agreement");
  std::vector<std::filesystem::path> files;
  std::vector<bool> invalid;
  for (const Case& c : cases()) {
    const auto file = dir / (std::string(c.name) + ".gltf");
    std::ofstream(file, std::ios::binary) << c.json;
    files.push_back(file);
    invalid.push_back(c.invalid);
  }
  // The committed assets of the same kind and the hostile huge counts.
  for (const char* name : {"invalid/accessor/input_without_buffer_view.gltf",
                           "invalid/accessor/input_sparse_without_buffer_view.gltf",
                           "invalid/accessor/rotation_without_buffer_view.gltf",
                           "invalid/sampler/cubicspline_count_wraps.gltf"}) {
    files.push_back(suite_dir() / name);
    invalid.push_back(true);
  }
  for (const char* name : {"implicit_sparse_count_2_50.gltf", "implicit_rotation_count_2_64_minus_1.gltf"}) {
    files.push_back(std::filesystem::path(GLTF_ANIM_SOURCE_DIR) / "tests/hostile/cases" / name);
    invalid.push_back(true);
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    SCOPED_TRACE(files[i].filename().string());
    const auto report = validator::validate_file(files[i], {});
    const bool errs = report.count(gltf::Severity::kError) > 0;
    bool refused = false;
    std::string why;
    try {
      sampler::sample_asset(files[i]);
    } catch (const sampler::SampleError& e) {
      refused = true;
      why = e.what();
    }
    std::string codes;
    for (const auto& issue : report.issues) codes += std::string(issue.code) + " ";
    EXPECT_EQ(errs, invalid[i]) << codes;
    EXPECT_EQ(refused, errs) << "validate: " << codes << "\nsample: " << why;
  }
}

}  // namespace
}  // namespace gltf_anim::suite::test

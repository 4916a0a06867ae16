// Output counts at their 64-bit wrap points, and the data checks of accessors
// without bufferView (implicit zeros, possibly sparse). Expected counts are
// products worked out by hand below; expected issues follow the rules'
// definitions (one issue per run of implicit zeros, at its first element).
#include <gltf_anim/validator/validate.hpp>

#include <gtest/gtest.h>

#include "validate_json.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace {

using gltf_anim::gltf::Issue;
using gltf_anim::validator::ValidationReport;

ValidationReport run(const std::string& json) { return rules_test::validate_json(json, "counts.gltf"); }

std::vector<const Issue*> with_code(const ValidationReport& r, std::string_view code) {
  std::vector<const Issue*> out;
  for (const Issue& i : r.issues) {
    if (i.code == code) out.push_back(&i);
  }
  return out;
}

// (2^62 + 2^61) keys x 3 (CUBICSPLINE) x 2 (morph targets) = 18 x 2^61
// = 2^65 + 2^62, which wraps to 2^62 in 64 bits.
constexpr const char* kWrapKeys = "6917529027641081856";     // 2^62 + 2^61
constexpr const char* kWrappedCount = "4611686018427387904";  // 2^62

// Weights of a node with 2 morph targets, animated three ways; times and
// outputs have no bufferView (zeros, nothing stored).
std::string weights_asset(const std::string& channel, const std::string& keys,
                          const std::string& outputs, const std::string& extension) {
  std::string s = R"({"asset":{"version":"2.0"},"nodes":[{"mesh":0}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":2},"targets":[{"POSITION":2},{"POSITION":2}]}]}],
    "accessors":[{"componentType":5126,"count":)";
  s += keys;
  s += R"(,"type":"SCALAR","min":[0],"max":[0]},{"componentType":5126,"count":)";
  s += outputs;
  s += R"(,"type":"SCALAR"},{"componentType":5126,"count":1,"type":"VEC3","min":[0,0,0],"max":[0,0,0]}],
    "animations":[{"channels":[)";
  s += channel;
  s += R"(],"samplers":[{"input":0,"output":1,"interpolation":"CUBICSPLINE"}]}])";
  if (!extension.empty()) s += R"(,"extensionsUsed":[")" + extension + R"("])";
  return s + "}";
}

struct Route {
  const char* name;
  const char* channel;
  const char* extension;
};
const Route kRoutes[] = {
    {"core", R"({"sampler":0,"target":{"node":0,"path":"weights"}})", ""},
    {"KHR_animation_pointer",
     R"({"sampler":0,"target":{"path":"pointer","extensions":{"KHR_animation_pointer":{"pointer":"/nodes/0/weights"}}}})",
     "KHR_animation_pointer"},
    {"KHR_animation2", R"({"sampler":0,"targetpointer":"/nodes/0/weights"})", "KHR_animation2"},
};

TEST(OutputCounts, AWrappingProductMatchesNoCount) {
  for (const Route& route : kRoutes) {
    SCOPED_TRACE(route.name);
    const auto r = run(weights_asset(route.channel, kWrapKeys, kWrappedCount, route.extension));
    const auto count = with_code(r, "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT");
    ASSERT_EQ(count.size(), 1u);
    EXPECT_EQ(count[0]->pointer, "/animations/0/channels/0/sampler");
    EXPECT_EQ(count[0]->message, std::string("Animation sampler output accessor of count more than 2^64-1 "
                                             "expected. Found ") + kWrappedCount + ".");
  }
}

TEST(OutputCounts, ExactProductsStillPassAndFail) {
  for (const Route& route : kRoutes) {
    SCOPED_TRACE(route.name);
    // 3 keys x 3 x 2 targets = 18.
    EXPECT_TRUE(with_code(run(weights_asset(route.channel, "3", "18", route.extension)),
                          "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT")
                    .empty());
    const auto r = run(weights_asset(route.channel, "3", "17", route.extension));
    const auto count = with_code(r, "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT");
    ASSERT_EQ(count.size(), 1u);
    EXPECT_EQ(count[0]->message, "Animation sampler output accessor of count 18 expected. Found 17.");
  }
}

// EXT_animation_sqlerp: 3 x (2^62 + 2^61) = 2^64 + 2^61 wraps to 2^61.
TEST(OutputCounts, SqlerpCountDoesNotWrap) {
  const std::string json = R"({"asset":{"version":"2.0"},"nodes":[{}],"extensionsUsed":["EXT_animation_sqlerp"],
    "accessors":[{"componentType":5126,"count":6917529027641081856,"type":"SCALAR","min":[0],"max":[0]},
                 {"componentType":5126,"count":2305843009213693952,"type":"VEC4"}],
    "animations":[{"channels":[{"target":{"node":0,"path":"rotation"},"extensions":{"EXT_animation_sqlerp":{"sampler":0}}}],
                   "samplers":[{"input":0,"output":1,"interpolation":"CUBICSLERP"}]}]})";
  const auto r = run(json);
  const auto count = with_code(r, "EXT_ANIMATION_SQLERP_INVALID_OUTPUT_COUNT");
  ASSERT_EQ(count.size(), 1u);
  EXPECT_EQ(count[0]->message,
            "CUBICSLERP output accessor must have more than 2^64-1 elements (3 per keyframe), not "
            "2305843009213693952.");
}

// A translation animation whose accessors are given in full by the caller;
// times [0, 1] are stored in buffer 0 (bufferView 0) when used.
std::string translation_asset(const std::string& accessors, const std::string& interpolation = "LINEAR",
                              const std::string& path = "translation", const std::string& extra = "") {
  return R"({"asset":{"version":"2.0"},"nodes":[{}],
    "buffers":[{"byteLength":16,"uri":"data:application/octet-stream;base64,AAAAAAAAgD8CAAAAAAAAQA=="}],
    "bufferViews":[{"buffer":0,"byteLength":8},{"buffer":0,"byteOffset":8,"byteLength":4},
                   {"buffer":0,"byteOffset":12,"byteLength":4}],
    "accessors":)" +
         accessors + R"(,"animations":[{"channels":[{"sampler":0,"target":{"node":0,"path":")" + path +
         R"("}}],"samplers":[{"input":0,"output":1,"interpolation":")" + interpolation + R"("}]}])" + extra +
         "}";
}

// Times [0, 0, 0] (no bufferView): element 1 is the first not above its
// previous one; the run is reported once, not once per element.
TEST(ImplicitZeros, ARunOfZeroTimesIsOneIssue) {
  const auto r = run(translation_asset(
      R"([{"componentType":5126,"count":3,"type":"SCALAR","min":[0],"max":[0]},
          {"componentType":5126,"count":3,"type":"VEC3"}])"));
  const auto found = with_code(r, "ACCESSOR_ANIMATION_INPUT_NON_INCREASING");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->pointer, "/animations/0/samplers/0/input");
  EXPECT_EQ(found[0]->message,
            "Animation input accessor element at index 1 is less than or equal to previous: 0 <= 0.");
  EXPECT_EQ(r.issues.size(), 1u);
}

// Sparse over zeros. The buffer's bytes: floats 0, 1 (bufferView 0), then
// 02 00 00 00 (bufferView 1: one UNSIGNED_BYTE index, 2), then float 2.0
// (bufferView 2: its value). Times [0, 0, 2, 0, 0]: element 1 in the run
// [0, 2), element 3 in the run [3, 5) after the substitution (0 <= 2).
TEST(ImplicitZeros, SparseSubstitutionsSplitTheRuns) {
  const auto r = run(translation_asset(
      R"([{"componentType":5126,"count":5,"type":"SCALAR","min":[0],"max":[2],
           "sparse":{"count":1,"indices":{"bufferView":1,"componentType":5121},"values":{"bufferView":2}}},
          {"componentType":5126,"count":5,"type":"VEC3"}])"));
  const auto found = with_code(r, "ACCESSOR_ANIMATION_INPUT_NON_INCREASING");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0]->message,
            "Animation input accessor element at index 1 is less than or equal to previous: 0 <= 0.");
  EXPECT_EQ(found[1]->message,
            "Animation input accessor element at index 3 is less than or equal to previous: 0 <= 2.");
  EXPECT_EQ(r.issues.size(), 2u);
}

// min/max over zeros: 2 implicit VEC3 elements, declared min [1, 0, 0] and
// max [0, 0, -1]: every element is below min[0] and above max[2].
TEST(ImplicitZeros, BoundsCountEveryImplicitElement) {
  const auto r = run(translation_asset(
      R"([{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},
          {"componentType":5126,"count":2,"type":"VEC3","min":[1,0,0],"max":[0,0,-1]}])"));
  ASSERT_EQ(with_code(r, "ACCESSOR_MIN_MISMATCH").size(), 1u);
  EXPECT_EQ(with_code(r, "ACCESSOR_MIN_MISMATCH")[0]->pointer, "/accessors/1/min/0");
  ASSERT_EQ(with_code(r, "ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND").size(), 1u);
  EXPECT_EQ(with_code(r, "ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND")[0]->message,
            "Accessor contains 2 element(s) less than declared minimum value 1.");
  ASSERT_EQ(with_code(r, "ACCESSOR_MAX_MISMATCH").size(), 1u);
  EXPECT_EQ(with_code(r, "ACCESSOR_MAX_MISMATCH")[0]->pointer, "/accessors/1/max/2");
  ASSERT_EQ(with_code(r, "ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND").size(), 1u);
  EXPECT_EQ(with_code(r, "ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND")[0]->message,
            "Accessor contains 2 element(s) greater than declared maximum value -1.");
}

// CUBICSPLINE rotation of 2 keys without bufferView: elements a0 v0 b0 a1 v1 b1
// all zero; only keyframe values are checked, the first is element 1, so one
// issue naming components 4..7.
TEST(ImplicitZeros, CubicRotationValuesAreOneIssueAtTheFirstValue) {
  const auto r = run(translation_asset(
      R"([{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},
          {"componentType":5126,"count":6,"type":"VEC4"}])",
      "CUBICSPLINE", "rotation"));
  const auto found = with_code(r, "ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->pointer, "/animations/0/channels/0/sampler");
  EXPECT_EQ(found[0]->message, "Animation sampler output accessor element at indices 4..7 is not of unit length: 0.");
}

// CUBICSLERP: the end tangents (elements 0 and 5) may be zero; element 1 is the
// first zero that must be unit.
TEST(ImplicitZeros, SqlerpZerosSkipTheEndTangents) {
  const std::string json = translation_asset(
      R"([{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},
          {"componentType":5126,"count":6,"type":"VEC4"}])",
      "CUBICSLERP", "rotation", R"(,"extensionsUsed":["EXT_animation_sqlerp"],"extensionsRequired":["EXT_animation_sqlerp"])");
  // The channel reaches the CUBICSLERP sampler through the extension only.
  std::string doc = json;
  const std::string core = R"({"sampler":0,"target")";
  doc.replace(doc.find(core), core.size(),
              R"({"extensions":{"EXT_animation_sqlerp":{"sampler":0}},"target")");
  const auto r = run(doc);
  const auto found = with_code(r, "ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION");
  ASSERT_EQ(found.size(), 1u) << r.issues.size();
  EXPECT_EQ(found[0]->pointer, "/animations/0/samplers/0/output");
  EXPECT_EQ(found[0]->message, "Animation sampler output accessor element at indices 4..7 is not of unit length: 0.");
  EXPECT_TRUE(with_code(r, "EXT_ANIMATION_SQLERP_NONZERO_END_TANGENT").empty());
}

// An animation accessor whose componentType or type is outside the spec's lists: the schema
// warns (VALUE_NOT_IN_LIST, glTF-Validator's severity), and no player can decode the data, so
// the sampler reading it has a format error, as glTF-Validator reports it ("Invalid Animation
// sampler input accessor format ... Must be one of ('{SCALAR, FLOAT}')") and as `sample`
// refuses the channel. Before, validate passed such an asset with a warning.
std::string scale_animation(const std::string& input_format, const std::string& output_format) {
  // Times 0, 1 and scales (1,1,1), (2,2,2), all float32, base64 of the 32 bytes.
  return R"({"asset":{"version":"2.0"},"nodes":[{}],)"
         R"("buffers":[{"byteLength":32,"uri":"data:application/octet-stream;base64,)"
         R"(AAAAAAAAgD8AAIA/AACAPwAAgD8AAABAAAAAQAAAAEA="}],)"
         R"("bufferViews":[{"buffer":0,"byteLength":8},{"buffer":0,"byteOffset":8,"byteLength":24}],)"
         R"("accessors":[{"bufferView":0,)" + input_format + R"(,"count":2,"min":[0],"max":[1]},)"
         R"({"bufferView":1,)" + output_format + R"(,"count":2}],)"
         R"("animations":[{"channels":[{"sampler":0,"target":{"node":0,"path":"scale"}}],)"
         R"("samplers":[{"input":0,"output":1}]}]})";
}

TEST(SamplerFormats, ValuesOutsideTheListsAreTheSamplersFormatError) {
  const std::string float_scalar = R"("componentType":5126,"type":"SCALAR")";
  const std::string float_vec3 = R"("componentType":5126,"type":"VEC3")";
  const ValidationReport ok = run(scale_animation(float_scalar, float_vec3));
  EXPECT_TRUE(ok.issues.empty());
  struct Row {
    std::string input, output;
    const char* code;
    const char* pointer;
    const char* format;  // as the message names it
  } rows[] = {
      {R"("componentType":5127,"type":"SCALAR")", float_vec3,
       "ANIMATION_SAMPLER_INPUT_ACCESSOR_INVALID_FORMAT", "/animations/0/samplers/0/input", "{SCALAR, 5127}"},
      {R"("componentType":5126,"type":"SCALAR9")", float_vec3,
       "ANIMATION_SAMPLER_INPUT_ACCESSOR_INVALID_FORMAT", "/animations/0/samplers/0/input", "{SCALAR9, FLOAT}"},
      {float_scalar, R"("componentType":5127,"type":"VEC3")",
       "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT", "/animations/0/channels/0/sampler", "{VEC3, 5127}"},
      {float_scalar, R"("componentType":5126,"type":"VEC7")",
       "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_FORMAT", "/animations/0/channels/0/sampler", "{VEC7, FLOAT}"},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.format);
    const ValidationReport r = run(scale_animation(row.input, row.output));
    EXPECT_EQ(rules_test::count_code(r, "VALUE_NOT_IN_LIST"), 1u);
    ASSERT_EQ(rules_test::count(r, row.code, row.pointer), 1u);
    EXPECT_EQ(r.count(gltf_anim::gltf::Severity::kError), 1u);
    for (const Issue& i : r.issues) {
      if (i.code == row.code) {
        EXPECT_NE(i.message.find(row.format), std::string::npos) << i.message;
      }
    }
  }
}

}  // namespace

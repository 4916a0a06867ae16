// EXT_animation_sqlerp, KHR_animation2 and lint rules beyond the one-asset-per-
// code suite (conformance_assets/invalid/ext, invalid/lint): tolerance
// boundaries of the lints, the message arguments, and hostile values in every
// member the extension modules read (no crash, no exception, every issue a
// registered code). Expected values are hand-computed from the rules.
#include <gltf_anim/gltf/issue.hpp>
#include <gltf_anim/validator/validate.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace {

using gltf_anim::gltf::Severity;
using gltf_anim::validator::ValidateOptions;
using gltf_anim::validator::ValidationReport;

std::string base64(const std::vector<std::uint8_t>& in) {
  static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < in.size(); i += 3) {
    const std::uint32_t n = (std::uint32_t{in[i]} << 16) |
                            (i + 1 < in.size() ? std::uint32_t{in[i + 1]} << 8 : 0u) |
                            (i + 2 < in.size() ? std::uint32_t{in[i + 2]} : 0u);
    out += k[(n >> 18) & 63];
    out += k[(n >> 12) & 63];
    out += i + 1 < in.size() ? k[(n >> 6) & 63] : '=';
    out += i + 2 < in.size() ? k[n & 63] : '=';
  }
  return out;
}

// A one-animation asset: accessor 0 the times, accessor 1 the values (type
// `type`), one sampler, one channel with `channel_json` (the sampler is 0).
std::string track_asset(const std::vector<float>& times, const std::vector<float>& values,
                        const std::string& type, const std::string& interpolation,
                        const std::string& channel_json, const std::string& root_extra = "") {
  std::vector<std::uint8_t> bytes(4 * (times.size() + values.size()));
  std::memcpy(bytes.data(), times.data(), 4 * times.size());
  std::memcpy(bytes.data() + 4 * times.size(), values.data(), 4 * values.size());
  const std::size_t per = type == "VEC4" ? 4 : type == "VEC3" ? 3 : 1;
  std::string j = R"({"asset":{"version":"2.0"},"nodes":[{}],)" + root_extra;
  j += R"("buffers":[{"byteLength":)" + std::to_string(bytes.size()) +
       R"(,"uri":"data:application/octet-stream;base64,)" + base64(bytes) + "\"}],";
  j += R"("bufferViews":[{"buffer":0,"byteLength":)" + std::to_string(4 * times.size()) +
       R"(},{"buffer":0,"byteOffset":)" + std::to_string(4 * times.size()) +
       R"(,"byteLength":)" + std::to_string(4 * values.size()) + "}],";
  j += R"("accessors":[{"bufferView":0,"componentType":5126,"type":"SCALAR","count":)" +
       std::to_string(times.size()) + R"(,"min":[)" + std::to_string(times.front()) +
       R"(],"max":[)" + std::to_string(times.back()) + "]},";
  j += R"({"bufferView":1,"componentType":5126,"type":")" + type + R"(","count":)" +
       std::to_string(values.size() / per) + "}],";
  j += R"("animations":[{"samplers":[{"input":0,"output":1,"interpolation":")" + interpolation +
       R"("}],"channels":[)" + channel_json + "]}]}";
  return j;
}

ValidationReport validate(const std::string& json) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(json.data());
  // The lint rules at their registry severities, opt-in ones included (the
  // run's lint policy has its own tests).
  ValidateOptions options;
  options.issues.lints = gltf_anim::gltf::LintPolicy::every_lint();
  return gltf_anim::validator::validate_bytes({p, json.size()}, "t.gltf", {}, options);
}

// code -> number of messages
std::map<std::string, int> codes(const ValidationReport& r) {
  std::map<std::string, int> out;
  for (const auto& i : r.issues) ++out[std::string(i.code)];
  return out;
}

const std::string kTranslation = R"({"sampler":0,"target":{"node":0,"path":"translation"}})";
const std::string kRotation = R"({"sampler":0,"target":{"node":0,"path":"rotation"}})";

// The middle key of (0,0,0) @0, (1+d,0,0) @1, (2,0,0) @2 is redundant when
// |d| <= 1e-6 x max(1, |1+d|).
TEST(LintRedundantKeyframe, ToleranceBoundary) {
  // float32(1 + 5e-7) = 1 + 4 ulp (4.77e-7): within 1e-6.
  EXPECT_EQ(codes(validate(track_asset({0, 1, 2}, {0, 0, 0, 1.0000005f, 0, 0, 2, 0, 0}, "VEC3",
                                       "LINEAR", kTranslation)))["LINT_REDUNDANT_KEYFRAME"],
            1);
  // 1 + 4e-6: outside.
  EXPECT_EQ(codes(validate(track_asset({0, 1, 2}, {0, 0, 0, 1.000004f, 0, 0, 2, 0, 0}, "VEC3",
                                       "LINEAR", kTranslation)))
                .count("LINT_REDUNDANT_KEYFRAME"),
            0u);
  // STEP: a key equal to the previous one is redundant, one equal to the next is not.
  EXPECT_EQ(codes(validate(track_asset({0, 1, 2}, {5, 0, 0, 5, 0, 0, 7, 0, 0}, "VEC3", "STEP",
                                       kTranslation)))["LINT_REDUNDANT_KEYFRAME"],
            1);
  EXPECT_EQ(codes(validate(track_asset({0, 1, 2}, {5, 0, 0, 7, 0, 0, 7, 0, 0}, "VEC3", "STEP",
                                       kTranslation)))
                .count("LINT_REDUNDANT_KEYFRAME"),
            0u);
}

// A rotation key reproduced as -q (same rotation) is redundant too: slerp of
// 0 and 180 degrees about z at the middle is 90 degrees; stored negated.
TEST(LintRedundantKeyframe, RotationSignIgnored) {
  const float r = 0.70710678f;
  const auto rep = validate(track_asset({0, 1, 2}, {0, 0, 0, 1, 0, 0, -r, -r, 0, 0, 1, 0}, "VEC4",
                                        "LINEAR", kRotation));
  // keys 0 and 1 now have dot -0.707: the negative-dot lint fires as well.
  EXPECT_EQ(codes(rep)["LINT_REDUNDANT_KEYFRAME"], 1);
  EXPECT_EQ(codes(rep)["LINT_ROTATION_NEGATIVE_DOT"], 1);
}

TEST(LintRotationNegativeDot, ZeroDotIsNotNegativeAndPairsAreCounted) {
  // (0,0,0,1) . (1,0,0,0) = 0: not negative.
  EXPECT_EQ(codes(validate(track_asset({0, 1}, {0, 0, 0, 1, 1, 0, 0, 0}, "VEC4", "LINEAR",
                                       kRotation)))
                .count("LINT_ROTATION_NEGATIVE_DOT"),
            0u);
  // Alternating signs of the identity: 3 negative pairs in 4 keys, one message.
  const auto rep = validate(track_asset({0, 1, 2, 3}, {0, 0, 0, 1, 0, 0, 0, -1, 0, 0, 0, 1, 0, 0, 0, -1},
                                        "VEC4", "LINEAR", kRotation));
  ASSERT_EQ(codes(rep)["LINT_ROTATION_NEGATIVE_DOT"], 1);
  for (const auto& i : rep.issues) {
    if (i.code == "LINT_ROTATION_NEGATIVE_DOT") {
      EXPECT_EQ(i.pointer, "/animations/0/channels/0/sampler");
      EXPECT_NE(i.message.find("keys 0 and 1"), std::string::npos) << i.message;
      EXPECT_NE(i.message.find("3 such pair(s)"), std::string::npos) << i.message;
    }
  }
  // STEP does not interpolate: no lint.
  EXPECT_EQ(codes(validate(track_asset({0, 1}, {0, 0, 0, 1, 0, 0, 0, -1}, "VEC4", "STEP",
                                       kRotation)))
                .count("LINT_ROTATION_NEGATIVE_DOT"),
            0u);
}

// The rotation lints read the model's "quaternion", not target.path: the keys
// identity and its negation (dot -1) are linted on a node's rotation however the
// channel names it, and not on one component of it (a float, lerped).
TEST(LintRotationNegativeDot, AppliesWhereTheModelSaysQuaternion) {
  const std::vector<float> keys = {0, 0, 0, 1, 0, 0, 0, -1};
  const auto negative_dots = [](const ValidationReport& r) {
    std::vector<std::string> at;
    for (const auto& i : r.issues) {
      if (i.code == "LINT_ROTATION_NEGATIVE_DOT") at.push_back(i.pointer);
    }
    return at;
  };
  const std::vector<std::string> on_channel_0 = {"/animations/0/channels/0/sampler"};
  EXPECT_EQ(negative_dots(validate(track_asset(
                {0, 1}, keys, "VEC4", "LINEAR",
                R"({"sampler":0,"target":{"path":"pointer","extensions":{"KHR_animation_pointer":{"pointer":"/nodes/0/rotation"}}}})",
                R"("extensionsUsed":["KHR_animation_pointer"],)"))),
            on_channel_0);
  EXPECT_EQ(negative_dots(validate(track_asset({0, 1}, keys, "VEC4", "LINEAR",
                                               R"({"sampler":0,"targetpointer":"/nodes/0/rotation"})",
                                               R"("extensionsUsed":["KHR_animation2"],)"))),
            on_channel_0);
  // /nodes/0/rotation/3 (KHR_animation2: one component, w) from 1 to -1: a float.
  EXPECT_EQ(negative_dots(validate(track_asset({0, 1}, {1, -1}, "SCALAR", "LINEAR",
                                               R"({"sampler":0,"targetpointer":"/nodes/0/rotation/3"})",
                                               R"("extensionsUsed":["KHR_animation2"],)"))),
            std::vector<std::string>{});
}

// LINT_CHANNEL_WITHOUT_NODE is about a node not written: one of the wrong JSON
// type is the schema's TYPE_MISMATCH, not also a lint.
TEST(LintChannelWithoutNode, OnlyWhenNodeIsNotWritten) {
  const std::vector<float> keys = {0, 0, 0, 1, 1, 1};
  EXPECT_EQ(codes(validate(track_asset({0, 1}, keys, "VEC3", "LINEAR",
                                       R"({"sampler":0,"target":{"path":"translation"}})")))["LINT_CHANNEL_WITHOUT_NODE"],
            1);
  const auto typed = codes(validate(
      track_asset({0, 1}, keys, "VEC3", "LINEAR", R"({"sampler":0,"target":{"node":"0","path":"translation"}})")));
  EXPECT_EQ(typed.count("LINT_CHANNEL_WITHOUT_NODE"), 0u);
  EXPECT_EQ(typed.count("TYPE_MISMATCH"), 1u);
}

TEST(LintAnimationStartsAfterZero, OnlyWhenEveryInputStartsLate) {
  EXPECT_EQ(codes(validate(track_asset({0.25f, 1}, {0, 0, 0, 1, 1, 1}, "VEC3", "LINEAR",
                                       kTranslation)))["LINT_ANIMATION_STARTS_AFTER_ZERO"],
            1);
  EXPECT_EQ(codes(validate(track_asset({0, 1}, {0, 0, 0, 1, 1, 1}, "VEC3", "LINEAR",
                                       kTranslation)))
                .count("LINT_ANIMATION_STARTS_AFTER_ZERO"),
            0u);
}

// Every member the extension modules read, with hostile values: no exception,
// every issue registered (IssueCollector throws on an unknown code), and the
// base assets have no error.
TEST(ExtensionRulesHostile, SqlerpAndAnimation2Members) {
  const std::vector<float> times = {0, 1};
  const std::vector<float> quats = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1,
                                    0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0};
  const std::string sq_used = R"("extensionsUsed":["EXT_animation_sqlerp"],)";
  const std::string k2_used = R"("extensionsUsed":["KHR_animation2"],)";
  const auto sq = [&](const std::string& ext_value, const std::string& more = "") {
    return track_asset(times, quats, "VEC4", "CUBICSLERP",
                       R"({"target":{"node":0,"path":"rotation"})" + more +
                           R"(,"extensions":{"EXT_animation_sqlerp":)" + ext_value + "}}",
                       sq_used + R"("extensionsRequired":["EXT_animation_sqlerp"],)");
  };
  const auto k2 = [&](const std::string& pointer) {
    return track_asset(times, {0, 0, 0, 1, 0, 0, 0, 1}, "VEC4", "SLERP",
                       R"({"sampler":0,"targetpointer":)" + pointer + "}", k2_used);
  };
  EXPECT_EQ(validate(sq(R"({"sampler":0})")).count(Severity::kError), 0u);
  EXPECT_EQ(validate(k2(R"("/nodes/0/rotation")")).count(Severity::kError), 0u);
  const char* values[] = {"null", "true", "-1", "1e300", "18446744073709551616", "\"0\"", "[]",
                          "{}", "[0]", "0.5", "2"};
  for (const char* v : values) {
    EXPECT_NO_THROW(validate(sq(std::string(R"({"sampler":)") + v + "}"))) << v;
    EXPECT_NO_THROW(validate(sq(v))) << v;
    EXPECT_NO_THROW(validate(sq(R"({"sampler":0})", std::string(R"(,"sampler":)") + v))) << v;
    EXPECT_NO_THROW(validate(k2(v))) << v;
  }
  std::string deep = "\"";
  for (int i = 0; i < 20000; ++i) deep += "/0";
  deep += "\"";
  const char* pointers[] = {"\"\"", "\"/\"", "\"~\"", "\"/~\"", "\"//\"", "\"/nodes/~1/rotation\"",
                            "\"/nodes/18446744073709551616/rotation\"", "\"/nodes/00/rotation\"",
                            "\"/nodes/0/rotation/4\"", "\"/nodes/0/weights/0\"",
                            "\"/materials/0/pbrMetallicRoughness/baseColorFactor/7\""};
  for (const char* p : pointers) {
    const auto rep = validate(k2(p));
    EXPECT_GT(rep.count(Severity::kError), 0u) << p;
  }
  EXPECT_GT(validate(k2(deep)).count(Severity::kError), 0u);
}


// EXT_animation_sqlerp: "only valid when targeting a rotation". A rotation named
// through KHR_animation_pointer is one (the animation model reads the pointer's
// Object Model type, a quaternion); a float3 through the pointer is not, and is
// reported at the pointer, naming it.
TEST(SqlerpTarget, AQuaternionThroughKhrAnimationPointerIsARotation) {
  const std::string root = R"("extensionsUsed":["EXT_animation_sqlerp","KHR_animation_pointer"],)"
                           R"("extensionsRequired":["EXT_animation_sqlerp"],)";
  // Two keys of (in-tangent, value, out-tangent); the unused end tangents are zero.
  const std::vector<float> keys = {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0};
  const auto channel = [](const std::string& pointer) {
    return R"({"extensions":{"EXT_animation_sqlerp":{"sampler":0}},"target":{"path":"pointer",)"
           R"("extensions":{"KHR_animation_pointer":{"pointer":")" + pointer + R"("}}}})";
  };
  const auto rotation = validate(track_asset({0, 1}, keys, "VEC4", "CUBICSLERP", channel("/nodes/0/rotation"), root));
  EXPECT_EQ(rotation.count(Severity::kError), 0u) << (rotation.issues.empty() ? "" : rotation.issues[0].message);
  const auto translation =
      validate(track_asset({0, 1}, keys, "VEC4", "CUBICSLERP", channel("/nodes/0/translation"), root));
  bool found = false;
  for (const auto& i : translation.issues) {
    if (i.code != "EXT_ANIMATION_SQLERP_INVALID_TARGET_PATH") continue;
    found = true;
    EXPECT_EQ(i.pointer, "/animations/0/channels/0/target/extensions/KHR_animation_pointer/pointer");
    EXPECT_EQ(i.message, "CUBICSLERP can only animate rotation, not '/nodes/0/translation'.");
  }
  EXPECT_TRUE(found);
}

}  // namespace

// Each issue carries its template's arguments ({0}, {1}, ...) so that a reader
// (the page's markers at keys) takes a key's index without parsing the message.
// The key indices below are derived by hand from the assets' data.
TEST(IssueArguments, NameTheKeysTheTemplatesName) {
  // The arguments of each issue with this code.
  const auto with = [](const ValidationReport& r, const std::string& code) {
    std::vector<std::optional<std::vector<std::string>>> out;
    for (const auto& i : r.issues)
      if (i.code == code) out.push_back(gltf_anim::gltf::issue_arguments(i));
    return out;
  };
  // Times 0, 1, 2, 2: element 3 is not greater than element 2.
  const auto times = validate(track_asset({0, 1, 2, 2}, {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3}, "VEC3",
                                          "LINEAR", kTranslation));
  const auto non_increasing = with(times, "ACCESSOR_ANIMATION_INPUT_NON_INCREASING");
  ASSERT_EQ(non_increasing.size(), 1u);
  ASSERT_TRUE(non_increasing[0].has_value());
  ASSERT_EQ(non_increasing[0]->size(), 3u);
  EXPECT_EQ((*non_increasing[0])[0], "3");

  // LINEAR rotation: keys 1 and 2 are the identity and its negation (dot -1).
  const auto flip = validate(track_asset({0, 1, 2}, {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, -1}, "VEC4",
                                         "LINEAR", kRotation));
  const auto dot = with(flip, "LINT_ROTATION_NEGATIVE_DOT");
  ASSERT_EQ(dot.size(), 1u);
  ASSERT_TRUE(dot[0].has_value());
  ASSERT_EQ(dot[0]->size(), 4u);
  EXPECT_EQ((*dot[0])[0], "1");
  EXPECT_EQ((*dot[0])[1], "2");
  EXPECT_EQ((*dot[0])[3], "1");  // one such pair

  // CUBICSLERP, 3 keys of (in-tangent, value, out-tangent): 9 output elements;
  // the last out-tangent, element 8 (key 2), is not the zero quaternion.
  const std::vector<float> cubic = {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0,  // key 0
                                    0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0,  // key 1
                                    0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1}; // key 2
  const auto sqlerp = validate(track_asset(
      {0, 1, 2}, cubic, "VEC4", "CUBICSLERP",
      R"({"target":{"node":0,"path":"rotation"},"extensions":{"EXT_animation_sqlerp":{"sampler":0}}})",
      R"("extensionsUsed":["EXT_animation_sqlerp"],"extensionsRequired":["EXT_animation_sqlerp"],)"));
  const auto tangent = with(sqlerp, "EXT_ANIMATION_SQLERP_NONZERO_END_TANGENT");
  ASSERT_EQ(tangent.size(), 1u);
  ASSERT_TRUE(tangent[0].has_value());
  EXPECT_EQ(*tangent[0], (std::vector<std::string>{"out-tangent", "8"}));

  // Every issue of ours has its arguments, and its message is its template filled with them.
  for (const ValidationReport* r : {&times, &flip, &sqlerp}) {
    for (const auto& i : r->issues) {
      const auto arguments = gltf_anim::gltf::issue_arguments(i);
      ASSERT_TRUE(arguments.has_value()) << i.code;
      std::string filled;
      const std::string_view t = gltf_anim::gltf::find_issue_type(i.code)->message;
      for (std::size_t c = 0; c < t.size(); ++c) {
        if (t[c] == '{' && c + 2 < t.size() && t[c + 1] >= '0' && t[c + 1] <= '9' && t[c + 2] == '}') {
          const std::size_t n = static_cast<std::size_t>(t[c + 1] - '0');
          if (n < arguments->size()) filled += (*arguments)[n];
          c += 2;
        } else {
          filled += t[c];
        }
      }
      EXPECT_EQ(filled, i.message) << i.code;
    }
  }
}

// Bad input never crashes the rules: every member the rules read, given every
// wrong JSON type and out-of-range value, gives coded issues (at least one
// error with a pointer into the document), never an exception or a crash.
#include <gltf_anim/validator/validate.hpp>

#include <gtest/gtest.h>

#include "validate_json.hpp"

#include <string>
#include <vector>

namespace {

using gltf_anim::gltf::Severity;
using gltf_anim::validator::ValidationReport;

ValidationReport run(const std::string& json) { return rules_test::validate_json(json, "hostile.gltf"); }

// A valid asset with one animation (buffer of 32 bytes: times [0, 1], two VEC3).
std::string asset_with(const std::string& animation, const std::string& nodes = "[{}]",
                       const std::string& accessors = "") {
  const std::string acc = accessors.empty()
                              ? R"([{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},
                                   {"bufferView":1,"componentType":5126,"count":2,"type":"VEC3"}])"
                              : accessors;
  return R"({"asset":{"version":"2.0"},"nodes":)" + nodes +
         R"(,"buffers":[{"byteLength":32,"uri":"data:application/octet-stream;base64,AAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAQAAAQEA="}],
            "bufferViews":[{"buffer":0,"byteLength":8},{"buffer":0,"byteOffset":8,"byteLength":24}],
            "accessors":)" + acc + R"(,"animations":)" + animation + "}";
}

const std::vector<std::string> kWrongValues = {
    "null", "true", "-1", "1.5", "1e300", "18446744073709551616", "\"0\"", "[]", "[0]", "{}",
    "{\"a\":1}", "4294967296", "-9223372036854775808"};

TEST(HostileInput, ValidBaseHasNoErrors) {
  const ValidationReport r = run(asset_with(R"([{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}],
                                               "samplers":[{"input":0,"output":1}]}])"));
  EXPECT_EQ(r.count(Severity::kError), 0u);
  for (const auto& i : r.issues) ADD_FAILURE() << i.code << " " << i.pointer;
}

TEST(HostileInput, EveryAnimationMemberWithEveryWrongValue) {
  const std::vector<std::pair<std::string, std::string>> templates = {
      {"animations", "$"},
      {"channels", R"([{"channels":$,"samplers":[{"input":0,"output":1}]}])"},
      {"samplers", R"([{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}],"samplers":$}])"},
      {"channel", R"([{"channels":[$],"samplers":[{"input":0,"output":1}]}])"},
      {"sampler", R"([{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}],"samplers":[$]}])"},
      {"channel.sampler", R"([{"channels":[{"sampler":$,"target":{"node":0,"path":"translation"}}],"samplers":[{"input":0,"output":1}]}])"},
      {"target", R"([{"channels":[{"sampler":0,"target":$}],"samplers":[{"input":0,"output":1}]}])"},
      {"target.node", R"([{"channels":[{"sampler":0,"target":{"node":$,"path":"rotation"}}],"samplers":[{"input":0,"output":1}]}])"},
      {"target.path", R"([{"channels":[{"sampler":0,"target":{"node":0,"path":$}}],"samplers":[{"input":0,"output":1}]}])"},
      {"input", R"([{"channels":[{"sampler":0,"target":{"node":0,"path":"weights"}}],"samplers":[{"input":$,"output":1}]}])"},
      {"output", R"([{"channels":[{"sampler":0,"target":{"node":0,"path":"scale"}}],"samplers":[{"input":0,"output":$}]}])"},
      {"interpolation", R"([{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}],"samplers":[{"input":0,"output":1,"interpolation":$}]}])"},
  };
  for (const auto& [what, tmpl] : templates) {
    for (const std::string& value : kWrongValues) {
      std::string anim = tmpl;
      anim.replace(anim.find('$'), 1, value);
      SCOPED_TRACE(what + " = " + value);
      ValidationReport r;
      ASSERT_NO_THROW(r = run(asset_with(anim)));
      EXPECT_EQ(r.mime_type, "model/gltf+json");
      for (const auto& i : r.issues) {
        EXPECT_TRUE(i.pointer.empty() || i.pointer[0] == '/') << i.code << " " << i.pointer;
      }
    }
  }
}

TEST(HostileInput, NodesMeshesAndAccessorsOfWrongShape) {
  const std::string anim = R"([{"channels":[{"sampler":0,"target":{"node":0,"path":"weights"}},
                                            {"sampler":0,"target":{"node":0,"path":"rotation"}}],
                               "samplers":[{"input":0,"output":1,"interpolation":"CUBICSPLINE"}]}])";
  for (const std::string& nodes :
       {std::string("[]"), std::string("[5]"), std::string("{}"), std::string(R"([{"mesh":"x"}])"),
        std::string(R"([{"mesh":0}])"), std::string(R"([{"mesh":0,"matrix":7,"skin":[]}])")}) {
    for (const std::string& extra : {std::string(""), std::string(R"(,"meshes":[{"primitives":[{"attributes":{},"targets":5}]}])"),
                                     std::string(R"(,"meshes":[{"primitives":7}])"), std::string(R"(,"meshes":[3])")}) {
      SCOPED_TRACE(nodes + extra);
      ASSERT_NO_THROW(run(asset_with(anim, nodes + extra)));
    }
  }
  for (const std::string& accessors :
       {std::string("[]"), std::string("7"), std::string("[1,2]"),
        std::string(R"([{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR","min":"x","max":[1,2,3]},
                        {"bufferView":9,"componentType":5126,"count":99,"type":"VEC4","sparse":{"count":1}}])"),
        std::string(R"([{"bufferView":0,"componentType":5121,"normalized":true,"count":8,"type":"SCALAR","min":[0],"max":[1]},
                        {"bufferView":1,"componentType":5120,"normalized":true,"count":6,"type":"VEC4","min":[-128,0,0,0],"max":[127,1,1,1]}])")}) {
    SCOPED_TRACE(accessors);
    ValidationReport r;
    ASSERT_NO_THROW(r = run(asset_with(anim, "[{}]", accessors)));
    EXPECT_GT(r.count(Severity::kError), 0u);
  }
}

TEST(HostileInput, DocumentsThatAreNotObjects) {
  for (const std::string& doc : {std::string("[]"), std::string("5"), std::string("\"x\""), std::string("null"),
                                 std::string("{}"), std::string(R"({"asset":5})")}) {
    SCOPED_TRACE(doc);
    ValidationReport r;
    ASSERT_NO_THROW(r = run(doc));
    EXPECT_GT(r.count(Severity::kError), 0u);
  }
}

}  // namespace

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

// The scene graph and mesh rules (rules/scene_graph.cpp, meshes.cpp): every
// member they read, with every wrong value.
TEST(HostileInput, SceneGraphAndMeshMembersWithEveryWrongValue) {
  const std::string anim = R"([{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}],
                               "samplers":[{"input":0,"output":1}]}])";
  const std::vector<std::pair<std::string, std::string>> templates = {
      {"node.children", R"([{"children":$},{}])"},
      {"node.children[0]", R"([{"children":[$]},{}])"},
      {"node.camera", R"([{"camera":$}])"},
      {"node.skin", R"([{"mesh":0,"skin":$}],"meshes":[{"primitives":[{"attributes":{}}]}])"},
      {"node.mesh", R"([{"mesh":$,"weights":[1]}],"meshes":[{"primitives":[{"attributes":{}}]}])"},
      {"node.matrix", R"([{},{"matrix":$}])"},
      {"node.rotation", R"([{"rotation":$}])"},
      {"node.weights",
       R"([{"mesh":0,"weights":$}],"meshes":[{"primitives":[{"attributes":{},"targets":[{"POSITION":0}]}]}])"},
      {"scene", R"([{}],"scenes":[{"nodes":[0]}],"scene":$)"},
      {"scenes", R"([{}],"scenes":$)"},
      {"scene.nodes", R"([{}],"scenes":[{"nodes":$}])"},
      {"scene.nodes[0]", R"([{}],"scenes":[{"nodes":[$]}])"},
      {"skins", R"([{}],"skins":$)"},
      {"skin.joints", R"([{}],"skins":[{"joints":$}])"},
      {"skin.joints[0]", R"([{}],"skins":[{"joints":[$]}])"},
      {"skin.skeleton", R"([{}],"skins":[{"joints":[0],"skeleton":$}])"},
      {"skin.inverseBindMatrices", R"([{}],"skins":[{"joints":[0],"inverseBindMatrices":$}])"},
      {"mesh.primitives", R"([{}],"meshes":[{"primitives":$,"weights":[1]}])"},
      {"primitive", R"([{}],"meshes":[{"primitives":[{"attributes":{}},$]}])"},
      {"primitive.attributes", R"([{}],"meshes":[{"primitives":[{"attributes":$}]}])"},
      {"primitive.attributes.POSITION",
       R"([{}],"meshes":[{"primitives":[{"attributes":{"POSITION":$}}]}])"},
      {"primitive.indices", R"([{}],"meshes":[{"primitives":[{"attributes":{},"indices":$}]}])"},
      {"primitive.material", R"([{}],"meshes":[{"primitives":[{"attributes":{},"material":$}]}])"},
      {"primitive.targets", R"([{}],"meshes":[{"primitives":[{"attributes":{},"targets":$}]}])"},
      {"primitive.targets[0]",
       R"([{}],"meshes":[{"primitives":[{"attributes":{},"targets":[$]}]}])"},
      {"mesh.weights", R"([{}],"meshes":[{"primitives":[{"attributes":{}}],"weights":$}])"},
  };
  for (const auto& [what, tmpl] : templates) {
    for (const std::string& value : kWrongValues) {
      std::string nodes = tmpl;
      nodes.replace(nodes.find('$'), 1, value);
      SCOPED_TRACE(what + " = " + value);
      ValidationReport r;
      ASSERT_NO_THROW(r = run(asset_with(anim, nodes)));
      EXPECT_EQ(r.mime_type, "model/gltf+json");
      for (const auto& i : r.issues) {
        EXPECT_TRUE(i.pointer.empty() || i.pointer[0] == '/') << i.code << " " << i.pointer;
      }
    }
  }
}

// No recursion and linear passes: a chain of 200,000 nodes (each the child of
// the one before) whose last node is a joint of a skin with the first as its
// skeleton, and a loop through 50,000 (below the default cap of 100,000
// issues). By hand: the chain has no issue; closing it into a loop gives
// NODE_LOOP at every node, and the skin's checks are left to that (no root).
TEST(HostileInput, DeepNodeChainAndLoopAreLinear) {
  const auto chain = [](int count, bool loop) {
    std::string nodes = "[";
    for (int i = 0; i < count; ++i) {
      if (i != 0) nodes += ',';
      const int child = i + 1 < count ? i + 1 : (loop ? 0 : -1);
      nodes += child < 0 ? std::string("{}") : "{\"children\":[" + std::to_string(child) + "]}";
    }
    return nodes + "],\"skins\":[{\"joints\":[" + std::to_string(count - 1) +
           ",1],\"skeleton\":0}]";
  };
  const ValidationReport ok =
      run(asset_with(R"([{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}],
                                              "samplers":[{"input":0,"output":1}]}])",
                     chain(200000, false)));
  EXPECT_EQ(ok.count(Severity::kError), 0u);
  for (const auto& i : ok.issues) {
    if (i.severity == Severity::kError) ADD_FAILURE() << i.code << " " << i.pointer;
  }
  const ValidationReport looped =
      run(asset_with(R"([{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}],
                                                  "samplers":[{"input":0,"output":1}]}])",
                     chain(50000, true)));
  std::size_t loops = 0;
  for (const auto& i : looped.issues) {
    if (i.code == "NODE_LOOP") {
      ++loops;
    } else if (i.severity == Severity::kError) {
      ADD_FAILURE() << i.code << " " << i.pointer;
    }
  }
  EXPECT_EQ(loops, 50000u);
}

// Skinned vertices are read as stored: JOINTS_0 / WEIGHTS_0 of 2^50 implicit
// zeros (no bufferView) are not read vertex by vertex (that would not end).
TEST(HostileInput, SkinnedVerticesWithoutStoredDataAreNotRead) {
  const std::string anim = R"([{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}],
                               "samplers":[{"input":0,"output":1}]}])";
  const std::string accessors =
      R"([{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},
      {"bufferView":1,"componentType":5126,"count":2,"type":"VEC3"},
      {"componentType":5121,"count":1125899906842624,"type":"VEC4"},
      {"componentType":5126,"count":1125899906842624,"type":"VEC4"}])";
  const std::string nodes = R"([{"children":[1]},{"mesh":0,"skin":0}],
      "meshes":[{"primitives":[{"attributes":{"JOINTS_0":2,"WEIGHTS_0":3}}]}],
      "skins":[{"joints":[0]}])";
  ValidationReport r;
  ASSERT_NO_THROW(r = run(asset_with(anim, nodes, accessors)));
  for (const auto& i : r.issues) {
    EXPECT_EQ(i.code.rfind("ACCESSOR_WEIGHTS_", 0), std::string_view::npos)
        << i.code << " " << i.pointer;
  }
}

// A skinned node whose mesh is not an object, or has primitives of every wrong shape.
TEST(HostileInput, SkinnedMeshesOfWrongShape) {
  const std::string anim = R"([{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}],
                               "samplers":[{"input":0,"output":1}]}])";
  for (const std::string& meshes :
       {std::string("[3]"), std::string("[[]]"), std::string(R"([{"primitives":3}])"),
        std::string(R"([{"primitives":[3,{"attributes":3},{"attributes":{"JOINTS_0":2}}]}])"),
        std::string(R"([{"primitives":[{"attributes":{"JOINTS_0":"2","WEIGHTS_0":3}}]}])"),
        std::string(R"([{"primitives":[{"attributes":{"JOINTS_0":0,"WEIGHTS_0":1}}]}])")}) {
    SCOPED_TRACE(meshes);
    ValidationReport r;
    ASSERT_NO_THROW(r = run(asset_with(
        anim, R"([{"children":[1]},{"mesh":0,"skin":0}],"skins":[{"joints":[0]}],"meshes":)" + meshes)));
    EXPECT_EQ(r.mime_type, "model/gltf+json");
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

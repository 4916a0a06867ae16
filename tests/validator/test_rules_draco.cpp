// KHR_draco_mesh_compression: the accessors a Draco primitive decodes (those
// of the semantics in the extension's `attributes`, and the primitive's
// indices) have no bufferView, yet they are not the zeros an accessor without
// bufferView holds in the base spec: "if a primitive ... defines its
// KHR_draco_mesh_compression property, then the Draco geometry compression
// must be used". We do not decode Draco, so their data is not checked (an
// information says why); every other accessor is, zeros included.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "validate_json.hpp"

namespace {

using gltf_anim::validator::ValidationReport;

using rules_test::count;
using rules_test::count_code;

// POSITION (accessor 0) and the indices (accessor 2) come from the Draco
// stream; NORMAL (accessor 1) is not in the extension's attributes, so it is
// the base spec's zeros, and its max of 1 is wrong (the actual max is 0).
std::string draco_asset(const std::string& position) {
  return R"({"asset":{"version":"2.0"},
  "extensionsUsed":["KHR_draco_mesh_compression"],
  "extensionsRequired":["KHR_draco_mesh_compression"],
  "buffers":[{"uri":"data:application/octet-stream;base64,AAAAAA==","byteLength":4}],
  "bufferViews":[{"buffer":0,"byteLength":4}],
  "accessors":[
    )" + position +
         R"(,
    {"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,1]},
    {"componentType":5123,"count":3,"type":"SCALAR","min":[0],"max":[2]}],
  "meshes":[{"primitives":[{"attributes":{"POSITION":0,"NORMAL":1},"indices":2,
    "extensions":{"KHR_draco_mesh_compression":{"bufferView":0,"attributes":{"POSITION":0}}}}]}],
  "nodes":[{"mesh":0}],"scenes":[{"nodes":[0]}],"scene":0})";
}
const std::string kDracoAsset =
    draco_asset(R"({"componentType":5126,"count":3,"type":"VEC3","min":[-1,-1,-1],"max":[1,1,1]})");

TEST(DracoMeshCompression, AccessorsTheExtensionSuppliesAreNotCheckedAsZeros) {
  const ValidationReport r = rules_test::validate_json(kDracoAsset);
  // No min/max finding for the decoded accessors: their data is not zeros.
  for (const auto& i : r.issues) {
    EXPECT_FALSE(i.pointer.rfind("/accessors/0/", 0) == 0) << i.code << " at " << i.pointer;
    EXPECT_FALSE(i.pointer.rfind("/accessors/2/", 0) == 0) << i.code << " at " << i.pointer;
  }
  EXPECT_EQ(count(r, "KHR_DRACO_MESH_COMPRESSION_DATA_NOT_DECODED", "/accessors/0"), 1u);
  EXPECT_EQ(count(r, "KHR_DRACO_MESH_COMPRESSION_DATA_NOT_DECODED", "/accessors/2"), 1u);
  EXPECT_EQ(count_code(r, "KHR_DRACO_MESH_COMPRESSION_DATA_NOT_DECODED"), 2u);
  for (const auto& i : r.issues) {
    if (i.code == "KHR_DRACO_MESH_COMPRESSION_DATA_NOT_DECODED") {
      EXPECT_EQ(i.severity, gltf_anim::gltf::Severity::kInfo);
    }
  }
  // NORMAL is named by no Draco extension: zeros, so max 1 mismatches 0.
  EXPECT_EQ(count(r, "ACCESSOR_MAX_MISMATCH", "/accessors/1/max/0"), 1u);
  EXPECT_EQ(count(r, "ACCESSOR_MAX_MISMATCH", "/accessors/1/max/1"), 1u);
  EXPECT_EQ(count(r, "ACCESSOR_MAX_MISMATCH", "/accessors/1/max/2"), 1u);
  EXPECT_EQ(count(r, "KHR_DRACO_MESH_COMPRESSION_DATA_NOT_DECODED", "/accessors/1"), 0u);
}

TEST(DracoMeshCompression, WithoutTheExtensionTheSameAccessorsAreZeros) {
  // The control: the same asset without the extension object; accessor 0's
  // min of -1 and max of 1 then mismatch its zeros, and accessor 2's max of 2.
  std::string plain = kDracoAsset;
  const std::string ext =
      R"(,
    "extensions":{"KHR_draco_mesh_compression":{"bufferView":0,"attributes":{"POSITION":0}}})";
  const auto at = plain.find(ext);
  ASSERT_NE(at, std::string::npos);
  plain.erase(at, ext.size());
  const ValidationReport r = rules_test::validate_json(plain);
  EXPECT_EQ(count_code(r, "KHR_DRACO_MESH_COMPRESSION_DATA_NOT_DECODED"), 0u);
  EXPECT_EQ(count(r, "ACCESSOR_MIN_MISMATCH", "/accessors/0/min/0"), 1u);
  EXPECT_EQ(count(r, "ACCESSOR_MAX_MISMATCH", "/accessors/0/max/0"), 1u);
  EXPECT_EQ(count(r, "ACCESSOR_MAX_MISMATCH", "/accessors/2/max/0"), 1u);
}

TEST(DracoMeshCompression, AnAccessorWithABufferViewIsCheckedAsUsual) {
  // POSITION with its own (fallback) data: 4 zero bytes cannot hold 3 VEC3s,
  // so it is read as stored and reported, not exempted.
  const std::string with_view = draco_asset(
      R"({"bufferView":0,"componentType":5126,"count":1,"type":"SCALAR","min":[-1],"max":[1]})");
  const ValidationReport r = rules_test::validate_json(with_view);
  EXPECT_EQ(count(r, "KHR_DRACO_MESH_COMPRESSION_DATA_NOT_DECODED", "/accessors/0"), 0u);
  // The stored float is 0: min -1 and max 1 both mismatch.
  EXPECT_EQ(count(r, "ACCESSOR_MIN_MISMATCH", "/accessors/0/min/0"), 1u);
  EXPECT_EQ(count(r, "ACCESSOR_MAX_MISMATCH", "/accessors/0/max/0"), 1u);
}

}  // namespace

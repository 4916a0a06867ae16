// The edit session's data edits on hand-made assets (.gltf with a data URI,
// .gltf with an external .bin, .glb), each checked by loading the output
// again and reading the values back through the loader's accessor reader,
// independent of the session's encoder; layouts derived by hand.
#include <gltf_anim/gltf/edit.hpp>
#include <gltf_anim/repair/tool.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/pointer.h>

#include <string>
#include <vector>

#include "edit_test_util.hpp"

namespace {

using namespace edit_test;
using gltf_anim::gltf::ComponentType;
using gltf_anim::gltf::Edit;
using gltf_anim::gltf::EditOutput;
using gltf_anim::gltf::ElementFormat;
using gltf_anim::gltf::ElementType;
using gltf_anim::gltf::OutputNames;
using gltf_anim::repair::edit_source;

const ElementFormat kVec3{ComponentType::kFloat, ElementType::kVec3, false};
const ElementFormat kVec4{ComponentType::kFloat, ElementType::kVec4, false};

gltf_anim::json::Document json_of(const gltf_anim::gltf::LoadedAsset& asset) {
  gltf_anim::json::Document d;
  d.Parse(std::string(asset.json_text).c_str());
  EXPECT_FALSE(d.HasParseError());
  return d;
}

std::uint64_t uint_at(const gltf_anim::json::Document& d, const char* pointer) {
  const gltf_anim::json::Value* v = gltf_anim::json::Pointer(pointer).Get(d);
  return v != nullptr && v->IsUint64() ? v->GetUint64() : ~std::uint64_t{0};
}

EditOutput build(const Edit& edit, OutputNames names = {"out", {}}) {
  std::string why;
  auto out = edit.build(names, why);
  EXPECT_TRUE(out) << why;
  return out ? std::move(*out) : EditOutput{};
}

const std::vector<double> kRotations = {0, 0, 0, 1, 0, 0, 0.70710678f, 0.70710678f, 0, 0, 1, 0};

TEST(EditData, OverwriteInPlaceKeepsTheStrideGapsAndEverythingElse) {
  const Bytes buffer = anim_buffer();
  const Bytes in = bytes_of(anim_json(data_uri(buffer), buffer.size()));
  const auto asset = load(in);
  ASSERT_EQ(read(asset, 1), (std::vector<double>{0, 10, 20, 1, 11, 21, 2, 12, 22}));
  Edit edit(edit_source(asset));
  std::string why;
  ASSERT_TRUE(edit.overwrite_accessor(1, std::vector<double>{5, 6, 7, -1, -2, -3, 0.5, 0, 9}, why))
      << why;
  const EditOutput out = build(edit);
  const auto again = load(out.main);
  EXPECT_EQ(read(again, 1), (std::vector<double>{5, 6, 7, -1, -2, -3, 0.5, 0, 9}));
  EXPECT_EQ(read(again, 0), (std::vector<double>{0, 1, 2}));
  EXPECT_EQ(read(again, 2), kRotations);
  // The buffer is the same length and its bytes outside the elements (the
  // stride gaps, the other accessors) are the input's.
  const auto& data = *again.buffer_data[0];
  ASSERT_EQ(data.size(), buffer.size());
  for (std::size_t k : {24, 25, 26, 27, 40, 41, 42, 43}) EXPECT_EQ(data[k], 0xEE) << k;
  EXPECT_TRUE(std::equal(buffer.begin(), buffer.begin() + 12, data.begin()));
  EXPECT_TRUE(std::equal(buffer.begin() + 56, buffer.end(), data.begin() + 56));
  // Accessor 1 had no min/max: none added by an overwrite in place...
  EXPECT_EQ(gltf_anim::json::Pointer("/accessors/1/min").Get(json_of(again)), nullptr);
  // ...unless asked for; bounds per component: x in {5,-1,0.5}, y in {6,-2,0}, z in {7,-3,9}.
  edit.require_bounds(1);
  const auto bounded = load(build(edit).main);
  const gltf_anim::json::Document d = json_of(bounded);
  const gltf_anim::json::Value* min = gltf_anim::json::Pointer("/accessors/1/min").Get(d);
  const gltf_anim::json::Value* max = gltf_anim::json::Pointer("/accessors/1/max").Get(d);
  ASSERT_TRUE(min && max);
  EXPECT_EQ(min->GetArray()[0].GetDouble(), -1);
  EXPECT_EQ(min->GetArray()[1].GetDouble(), -2);
  EXPECT_EQ(min->GetArray()[2].GetDouble(), -3);
  EXPECT_EQ(max->GetArray()[0].GetDouble(), 5);
  EXPECT_EQ(max->GetArray()[1].GetDouble(), 6);
  EXPECT_EQ(max->GetArray()[2].GetDouble(), 9);
  // A different count is not an overwrite.
  Edit other(edit_source(asset));
  EXPECT_FALSE(other.overwrite_accessor(1, std::vector<double>{1, 2, 3}, why));
}

TEST(EditData, NewContentsGoToANewViewAndTheOldBytesAreCompacted) {
  const Bytes buffer = anim_buffer();
  const Bytes in = bytes_of(anim_json(data_uri(buffer), buffer.size()));
  const auto asset = load(in);
  Edit edit(edit_source(asset));
  std::string why;
  ASSERT_TRUE(edit.replace_accessor(1, std::vector<double>{1, 2, 3, 4, 5, 6}, kVec3, why)) << why;
  const EditOutput out = build(edit);
  const auto again = load(out.main);
  const gltf_anim::json::Document d = json_of(again);
  EXPECT_EQ(read(again, 1), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(read(again, 0), (std::vector<double>{0, 1, 2}));
  EXPECT_EQ(read(again, 2), kRotations);
  // Nothing renumbered: three bufferViews plus the new one (index 3).
  EXPECT_EQ(uint_at(d, "/accessors/1/bufferView"), 3u);
  EXPECT_EQ(uint_at(d, "/accessors/1/count"), 2u);
  EXPECT_EQ(gltf_anim::json::Pointer("/bufferViews").Get(d)->Size(), 4u);
  // Kept: times [0, 12) and rotations [56, 104) -> [0, 12) and [16, 64)
  // (56 mod 8 = 0: the next multiple of 8 after 12 is 16); the new view at
  // 64 (4-aligned) with 24 bytes: byteLength 88, 104 - 64 = 40 bytes dropped.
  EXPECT_EQ(uint_at(d, "/bufferViews/2/byteOffset"), 16u);
  EXPECT_EQ(uint_at(d, "/bufferViews/3/byteOffset"), 64u);
  EXPECT_EQ(uint_at(d, "/bufferViews/3/byteLength"), 24u);
  EXPECT_EQ(uint_at(d, "/buffers/0/byteLength"), 88u);
  EXPECT_EQ(out.dropped_bytes.at(0), 40u);
  // The bufferView nothing uses keeps its index, at the buffer's start, no stride.
  EXPECT_EQ(uint_at(d, "/bufferViews/1/byteOffset"), 0u);
  EXPECT_EQ(gltf_anim::json::Pointer("/bufferViews/1/byteStride").Get(d), nullptr);
  EXPECT_EQ(again.buffer_view_status[1], gltf_anim::gltf::DataStatus::kReadable);
  // The data URI keeps its media type.
  const std::string uri = gltf_anim::json::Pointer("/buffers/0/uri").Get(d)->GetString();
  EXPECT_EQ(uri.rfind("data:application/octet-stream;base64,", 0), 0u);
}

// The bytes bufferView v addresses, as the loader reads the layout.
Bytes view_bytes(const gltf_anim::gltf::LoadedAsset& asset, std::size_t v) {
  const auto& view = asset.buffer_views.at(v);
  const auto& data = asset.buffer_data.at(view.buffer.value_or(0));
  if (!data || view.byte_offset + view.byte_length.value_or(0) > data->size()) return {};
  return Bytes(data->begin() + static_cast<std::ptrdiff_t>(view.byte_offset),
               data->begin() + static_cast<std::ptrdiff_t>(view.byte_offset + *view.byte_length));
}

// Compaction drops only the bytes of the bufferView the edits emptied: a bufferView nothing
// used to begin with (before or after the animation data) and every other untouched one
// still address exactly their bytes. Before, the unused one before the data kept its old
// byteOffset and read the moved rotations; the one after pointed past the buffer's end.
TEST(EditData, CompactionKeepsEveryBufferViewItDidNotEmpty) {
  Bytes buffer;
  for (int k = 0; k < 16; ++k) buffer.push_back(static_cast<std::uint8_t>(0xA0 + k));
  const Bytes anim = anim_buffer();  // times 16-27, translations 28-71, rotations 72-119
  buffer.insert(buffer.end(), anim.begin(), anim.end());
  for (int k = 0; k < 16; ++k) buffer.push_back(static_cast<std::uint8_t>(0xB0 + k));
  for (const bool glb_container : {false, true}) {
    SCOPED_TRACE(glb_container ? "glb" : "gltf");
    const std::string json =
        std::string("{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"name\":\"n\"}],\"buffers\":[{") +
        (glb_container ? "" : "\"uri\":\"" + data_uri(buffer) + "\",") +
        "\"byteLength\":" + std::to_string(buffer.size()) +
        "}],\"bufferViews\":[{\"buffer\":0,\"byteLength\":16},"
        "{\"buffer\":0,\"byteOffset\":16,\"byteLength\":12},"
        "{\"buffer\":0,\"byteOffset\":28,\"byteLength\":44,\"byteStride\":16},"
        "{\"buffer\":0,\"byteOffset\":72,\"byteLength\":48},"
        "{\"buffer\":0,\"byteOffset\":120,\"byteLength\":16}],"
        "\"accessors\":[{\"bufferView\":1,\"componentType\":5126,\"count\":3,\"type\":"
        "\"SCALAR\",\"min\":[0],\"max\":[2]},"
        "{\"bufferView\":2,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
        "{\"bufferView\":3,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"}],"
        "\"animations\":[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":"
        "\"translation\"}},{\"sampler\":1,\"target\":{\"node\":0,\"path\":\"rotation\"}}],"
        "\"samplers\":[{\"input\":0,\"output\":1},{\"input\":0,\"output\":2}]}]}";
    const auto asset = load(glb_container ? glb(json, buffer) : bytes_of(json));
    ASSERT_EQ(asset.buffer_views.size(), 5u);
    Edit edit(edit_source(asset));
    std::string why;
    ASSERT_TRUE(edit.replace_accessor(1, std::vector<double>{1, 2, 3, 4, 5, 6}, kVec3, why))
        << why;
    const EditOutput out = build(edit);
    const auto again = load(out.main);
    ASSERT_EQ(again.buffer_view_status.size(), 6u);
    for (const std::size_t v : {0u, 1u, 3u, 4u}) {
      SCOPED_TRACE(v);
      EXPECT_EQ(again.buffer_view_status[v], gltf_anim::gltf::DataStatus::kReadable);
      EXPECT_EQ(view_bytes(again, v), view_bytes(asset, v));
    }
    // Only the 44 bytes of the emptied translations went (28 to 72: the rotations at 72
    // keep 72 mod 8 = 0 from 28, so they land at 32: 40 dropped).
    EXPECT_EQ(out.dropped_bytes.at(0), 40u);
    EXPECT_EQ(read(again, 1), (std::vector<double>{1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(read(again, 2), kRotations);
  }
}

TEST(EditData, ASharedAccessorReadsTheOthersBytesAndItsOwnAreDropped) {
  const Bytes buffer = anim_buffer();
  const auto asset = load(bytes_of(anim_json(data_uri(buffer), buffer.size())));
  const ElementFormat kScalar{ComponentType::kFloat, ElementType::kScalar, false};
  Edit edit(edit_source(asset));
  std::string why;
  // Only data of this session can be shared, and not over data of this session.
  EXPECT_FALSE(edit.share_accessor(1, 0, why));
  EXPECT_FALSE(edit.share_accessor(0, 0, why));
  ASSERT_TRUE(edit.replace_accessor(0, std::vector<double>{0, 1, 2}, kScalar, why)) << why;
  ASSERT_TRUE(edit.replace_accessor(2, std::vector<double>{0, 0, 0, 1}, kVec4, why)) << why;
  EXPECT_FALSE(edit.share_accessor(2, 0, why));
  // Accessor 1 (the translations, bytes 12-55) reads accessor 0's new times instead.
  ASSERT_TRUE(edit.share_accessor(1, 0, why)) << why;
  // Accessor 0 overwritten now would change both: refused; new contents are its own.
  EXPECT_FALSE(edit.overwrite_accessor(0, std::vector<double>{0, 1, 5}, why));
  const EditOutput out = build(edit);
  const auto again = load(out.main);
  const gltf_anim::json::Document d = json_of(again);
  EXPECT_EQ(read(again, 1), (std::vector<double>{0, 1, 2}));
  EXPECT_EQ(uint_at(d, "/accessors/1/bufferView"), uint_at(d, "/accessors/0/bufferView"));
  EXPECT_EQ(gltf_anim::json::Pointer("/accessors/1/type").Get(d)->GetString(),
            std::string("SCALAR"));
  EXPECT_EQ(gltf_anim::json::Pointer("/accessors/1/max/0").Get(d)->GetDouble(), 2.0);
  // Every source view lost its users: the buffer holds the two new views, 12 bytes of
  // times then 16 of the rotation at 12 (4-aligned): 28.
  EXPECT_EQ(uint_at(d, "/buffers/0/byteLength"), 28u);
  ASSERT_TRUE(edit.replace_accessor(0, std::vector<double>{0, 1, 5}, kScalar, why)) << why;
  const auto third = load(build(edit).main);
  EXPECT_EQ(read(third, 0), (std::vector<double>{0, 1, 5}));
  EXPECT_EQ(read(third, 1), (std::vector<double>{0, 1, 2}));
}

TEST(EditData, AnUnknownExtensionKeepsEveryByteInPlace) {
  const Bytes buffer = anim_buffer();
  const Bytes in = bytes_of(
      anim_json(data_uri(buffer), buffer.size(), "\"extensionsUsed\":[\"EXT_someone_elses\"],"));
  const auto asset = load(in);
  Edit edit(edit_source(asset));
  std::string why;
  ASSERT_TRUE(edit.replace_accessor(1, std::vector<double>{1, 2, 3, 4, 5, 6}, kVec3, why)) << why;
  const EditOutput out = build(edit);
  ASSERT_TRUE(out.compaction_skipped);
  EXPECT_NE(out.compaction_skipped->find("EXT_someone_elses"), std::string::npos);
  const auto again = load(out.main);
  const gltf_anim::json::Document d = json_of(again);
  EXPECT_EQ(uint_at(d, "/bufferViews/2/byteOffset"), 56u);
  EXPECT_EQ(uint_at(d, "/bufferViews/1/byteOffset"), 12u);
  EXPECT_EQ(uint_at(d, "/bufferViews/3/byteOffset"), 104u);
  EXPECT_EQ(uint_at(d, "/buffers/0/byteLength"), 128u);
  EXPECT_EQ(read(again, 1), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(read(again, 2), kRotations);
}

TEST(EditData, AddedAccessorsAreAppendedAndNormalizedDataReadsBack) {
  const Bytes buffer = anim_buffer();
  const auto asset = load(bytes_of(anim_json(data_uri(buffer), buffer.size())));
  Edit edit(edit_source(asset));
  std::string why;
  const auto index = edit.add_accessor(std::vector<double>{0, 0, 0, 1, 0, 0, -1, 0},
                                       ElementFormat{ComponentType::kShort, ElementType::kVec4, true}, why);
  ASSERT_TRUE(index) << why;
  EXPECT_EQ(*index, 3u);
  const auto again = load(build(edit).main);
  // Decoded by the spec's formula max(c / 32767, -1).
  EXPECT_EQ(read(again, 3), (std::vector<double>{0, 0, 0, 1, 0, 0, -1, 0}));
  EXPECT_EQ(again.accessors[3].normalized, true);
  EXPECT_EQ(read(again, 1), (std::vector<double>{0, 10, 20, 1, 11, 21, 2, 12, 22}));
}

TEST(EditData, GlbGetsANewBinChunk) {
  const Bytes buffer = anim_buffer();
  const Bytes in = glb(anim_json("", buffer.size()), buffer);
  const auto asset = load(in);
  ASSERT_EQ(read(asset, 2), kRotations);
  {
    const Edit nothing(edit_source(asset));
    EXPECT_EQ(build(nothing).main, in);
  }
  Edit edit(edit_source(asset));
  std::string why;
  ASSERT_TRUE(edit.replace_accessor(0, std::vector<double>{0, 0.5}, {ComponentType::kFloat, ElementType::kScalar, false}, why));
  const EditOutput out = build(edit);
  EXPECT_TRUE(out.buffers.empty());
  const auto again = load(out.main);
  EXPECT_EQ(again.mime_type, gltf_anim::gltf::MimeType::kGltfBinary);
  EXPECT_EQ(read(again, 0), (std::vector<double>{0, 0.5}));
  EXPECT_EQ(read(again, 1), (std::vector<double>{0, 10, 20, 1, 11, 21, 2, 12, 22}));
  EXPECT_EQ(read(again, 2), kRotations);
}

TEST(EditData, ExternalBuffersAreWrittenUnderTheOutputsStemNeverOverAnInput) {
  const Bytes buffer = anim_buffer();
  gltf_anim::io::MemoryReader files;
  files.add("anim.bin", buffer);
  const Bytes in = bytes_of(anim_json("anim.bin", buffer.size()));
  const auto asset = load(in, &files);
  ASSERT_EQ(read(asset, 0), (std::vector<double>{0, 1, 2}));
  Edit edit(edit_source(asset));
  std::string why;
  ASSERT_TRUE(edit.overwrite_accessor(0, std::vector<double>{0, 1, 3}, why)) << why;
  {
    const EditOutput out = build(edit, OutputNames{"my out", {}});
    ASSERT_EQ(out.buffers.count("my out.bin"), 1u);
    EXPECT_FALSE(out.keeps_input_buffers);
    gltf_anim::io::MemoryReader written;
    written.add("my out.bin", out.buffers.at("my out.bin"));
    const auto again = load(out.main, &written);
    EXPECT_EQ(read(again, 0), (std::vector<double>{0, 1, 3}));
    EXPECT_EQ(gltf_anim::json::Pointer("/buffers/0/uri").Get(json_of(again))->GetString(),
              std::string("my%20out.bin"));
  }
  // The output named like the input: its .bin is taken, the next name is used.
  const EditOutput out =
      build(edit, OutputNames{"anim", [](std::string_view n) { return n == "anim.bin"; }});
  EXPECT_EQ(out.buffers.count("anim.bin"), 0u);
  EXPECT_EQ(out.buffers.count("anim_0_1.bin"), 1u);
}

TEST(EditData, AnUneditedExternalBufferIsKeptByItsUri) {
  const Bytes buffer = anim_buffer();
  gltf_anim::io::MemoryReader files;
  files.add("anim.bin", buffer);
  const auto asset = load(bytes_of(anim_json("anim.bin", buffer.size())), &files);
  Edit edit(edit_source(asset));
  edit.put_member("/nodes/0", "name", "\"m\"");
  const EditOutput out = build(edit);
  EXPECT_TRUE(out.buffers.empty());
  EXPECT_TRUE(out.keeps_input_buffers);
}

}  // namespace

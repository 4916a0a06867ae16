// The loader keeps the input and the JSON text it parsed, so the locator can
// find a pointer's value without reading the file again: in a .gltf the text
// is the file, in a GLB the JSON chunk, 20 bytes into the file.
#include <gltf_anim/gltf/locator.hpp>
#include <gltf_anim/gltf/load.hpp>

#include <gtest/gtest.h>

#include "load_test_util.hpp"

namespace {

using namespace load_test;
using gltf_anim::gltf::IssueCollector;
using gltf_anim::gltf::load_bytes;

TEST(LoadJsonText, GltfTextIsTheFile) {
  const std::string text = "{\"asset\": {\"version\": \"2.0\"}}";
  IssueCollector issues;
  const auto asset = load_bytes(bytes_of(text), "a.gltf", {}, {}, issues);
  ASSERT_TRUE(asset.document);
  EXPECT_EQ(asset.json_text, text);
  EXPECT_EQ(asset.json_offset, 0u);
  EXPECT_EQ(asset.file_bytes.size(), text.size());
  // `{"asset": {"version": "2.0"}}`: "2.0" is bytes 22-26.
  const auto at = gltf_anim::gltf::locate(asset.json_text, "/asset/version");
  ASSERT_TRUE(at);
  EXPECT_EQ(at->value.begin.byte, 22u);
  EXPECT_EQ(at->value.end.byte, 27u);
}

// The repair tools hold their input and output in memory already: with borrow_bytes the
// asset views those bytes (a GLB's chunks too) instead of a copy of them; by default it
// owns a copy, and the caller's bytes may go.
TEST(LoadJsonText, BorrowedBytesAreViewedNotCopied) {
  const std::string json = "{\"asset\":{\"version\":\"2.0\"}}  ";
  const Bytes file = glb({Chunk{kJson, bytes_of(json), {}}});
  IssueCollector issues;
  gltf_anim::gltf::LoadOptions options;
  const auto copied = load_bytes(file, "a.glb", {}, options, issues);
  EXPECT_NE(copied.file_bytes.data(), file.data());
  options.borrow_bytes = true;
  const auto viewed = load_bytes(file, "a.glb", {}, options, issues);
  ASSERT_TRUE(viewed.document);
  EXPECT_EQ(viewed.file_bytes.data(), file.data());
  EXPECT_EQ(viewed.file_bytes.size(), file.size());
  EXPECT_EQ(viewed.json_text.data(), reinterpret_cast<const char*>(file.data()) + 20);
  EXPECT_EQ(viewed.json_text, json);
}

TEST(LoadJsonText, GlbTextIsTheJsonChunk) {
  const std::string json = "{\"asset\":{\"version\":\"2.0\"}}  ";  // padded to 28 bytes
  const Bytes file = glb({Chunk{kJson, bytes_of(json), {}}});
  IssueCollector issues;
  const auto asset = load_bytes(file, "a.glb", {}, {}, issues);
  ASSERT_TRUE(asset.document);
  EXPECT_EQ(asset.json_text, json);
  EXPECT_EQ(asset.json_offset, 20u);  // 12-byte header, 8-byte chunk header
  EXPECT_EQ(asset.file_bytes.size(), file.size());
  // `{"asset":{"version":"2.0"}}`: "2.0" is bytes 20-24 of the chunk, 40-44 of the file.
  const auto at = gltf_anim::gltf::locate(asset.json_text, "/asset/version");
  ASSERT_TRUE(at);
  EXPECT_EQ(at->value.begin.byte + asset.json_offset, 40u);
  EXPECT_EQ(std::string(file.begin() + 40, file.begin() + 45), "\"2.0\"");
}

TEST(LoadJsonText, NoDocumentNoText) {
  IssueCollector issues;
  const auto asset = load_bytes(bytes_of("{\"asset\":"), "a.gltf", {}, {}, issues);
  EXPECT_FALSE(asset.document);
  EXPECT_TRUE(asset.json_text.empty());
}

}  // namespace

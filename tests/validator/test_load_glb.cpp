// The GLB container: each header or chunk defect gives its glTF-Validator code
// at the byte offset where it is (header fields at 0/4/8, the first chunk
// header at 12, its data at 20).
#include <gtest/gtest.h>

#include "validator/load_test_util.hpp"

namespace {

using namespace gltf_anim::gltf;
using namespace load_test;

constexpr std::string_view kJsonBuffer8 =
    R"({"asset":{"version":"2.0"},"buffers":[{"byteLength":8}]})";

struct Result {
  IssueCollector issues;
  LoadedAsset asset;
};

Result load_glb(const Bytes& b) {
  Result r;
  r.asset = load_bytes(b, "test.glb", {}, {}, r.issues);
  return r;
}

// (code, offset) pairs in report order.
std::vector<std::pair<std::string, std::uint64_t>> offsets(const IssueCollector& issues) {
  std::vector<std::pair<std::string, std::uint64_t>> out;
  for (const Issue& i : issues.issues()) {
    EXPECT_TRUE(i.offset.has_value()) << i.code;
    EXPECT_EQ(i.pointer, "") << i.code;
    out.emplace_back(std::string(i.code), i.offset.value_or(~0ull));
  }
  return out;
}
using Offsets = std::vector<std::pair<std::string, std::uint64_t>>;

const Bytes kBin8 = {1, 2, 3, 4, 5, 6, 7, 8};

TEST(LoadGlb, ValidGlbWithBinChunk) {
  Result r = load_glb(valid_glb(kJsonBuffer8, kBin8));
  EXPECT_TRUE(r.issues.issues().empty());
  ASSERT_NE(r.asset.document, nullptr);
  EXPECT_EQ(r.asset.mime_type, MimeType::kGltfBinary);
  EXPECT_EQ(mime_type_name(r.asset.mime_type), "model/gltf-binary");
  ASSERT_EQ(r.asset.buffer_data.size(), 1u);
  ASSERT_TRUE(r.asset.buffer_data[0].has_value());
  EXPECT_EQ(Bytes(r.asset.buffer_data[0]->begin(), r.asset.buffer_data[0]->end()), kBin8);
  ASSERT_EQ(r.asset.resources.size(), 1u);
  EXPECT_EQ(r.asset.resources[0].pointer, "/buffers/0");
  EXPECT_EQ(r.asset.resources[0].storage, "glb");
  EXPECT_EQ(r.asset.resources[0].byte_length, 8u);
}

TEST(LoadGlb, LoadFileGivesTheSameBytes) {
  const fs::path dir = scratch("glb_file");
  write_file(dir / "a.glb", valid_glb(kJsonBuffer8, kBin8));
  IssueCollector issues;
  const LoadedAsset a = load_file(dir / "a.glb", {}, issues);
  EXPECT_TRUE(issues.issues().empty());
  ASSERT_TRUE(a.buffer_data.at(0).has_value());
  EXPECT_EQ(Bytes(a.buffer_data[0]->begin(), a.buffer_data[0]->end()), kBin8);
  EXPECT_EQ(a.mime_type, MimeType::kGltfBinary);
}

TEST(LoadGlb, TruncatedHeader) {
  Bytes b = valid_glb(kJsonBuffer8, kBin8);
  b.resize(11);
  Result r = load_glb(b);
  EXPECT_EQ(offsets(r.issues), (Offsets{{"GLB_UNEXPECTED_END_OF_HEADER", 11}}));
  EXPECT_EQ(r.asset.document, nullptr);
  EXPECT_EQ(r.asset.mime_type, MimeType::kNone);
}

TEST(LoadGlb, MagicOnly) {
  Result r = load_glb(bytes_of("glTF"));
  EXPECT_EQ(offsets(r.issues), (Offsets{{"GLB_UNEXPECTED_END_OF_HEADER", 4}}));
}

TEST(LoadGlb, WrongVersionStopsReading) {
  Result r = load_glb(glb({{kJson, padded(bytes_of(kJsonBuffer8), ' '), {}}}, {}, 1));
  EXPECT_EQ(offsets(r.issues), (Offsets{{"GLB_INVALID_VERSION", 4}}));
  EXPECT_EQ(r.issues.issues()[0].message, "Invalid GLB version value 1.");
  EXPECT_EQ(r.asset.document, nullptr);
}

TEST(LoadGlb, DeclaredLengthLargerThanFile) {
  const Bytes good = valid_glb(kJsonBuffer8, kBin8);
  Bytes b = good;
  const std::uint32_t declared = static_cast<std::uint32_t>(good.size() + 4);
  std::memcpy(b.data() + 8, &declared, 4);
  Result r = load_glb(b);
  EXPECT_EQ(offsets(r.issues), (Offsets{{"GLB_LENGTH_MISMATCH", 8}}));
  EXPECT_EQ(r.issues.issues()[0].message, "Declared length (" + std::to_string(good.size() + 4) +
                                              ") does not match GLB length (" +
                                              std::to_string(good.size()) + ").");
  EXPECT_NE(r.asset.document, nullptr);  // every chunk is whole
}

TEST(LoadGlb, DeclaredLengthSmallerCutsTheBinChunk) {
  const Bytes json = padded(bytes_of(kJsonBuffer8), ' ');
  Bytes b = glb({{kJson, json, {}}, {kBin, kBin8, {}}});
  const std::uint32_t declared = static_cast<std::uint32_t>(b.size() - 4);
  std::memcpy(b.data() + 8, &declared, 4);
  Result r = load_glb(b);
  const std::uint64_t bin_header = 12 + 8 + json.size();
  ASSERT_EQ(r.issues.issues().size(), 3u);
  EXPECT_EQ(r.issues.issues()[0].code, "GLB_CHUNK_TOO_BIG");
  EXPECT_EQ(r.issues.issues()[0].offset, bin_header);
  EXPECT_EQ(r.issues.issues()[0].message, "Chunk (0x004E4942) length (8) is too big.");
  // The 4 bytes past the declared end are not the GLB's.
  EXPECT_EQ(r.issues.issues()[1].code, "GLB_EXTRA_DATA");
  EXPECT_EQ(r.issues.issues()[1].offset, declared);
  // The BIN chunk was refused, so buffer 0 has no data.
  const Issue* missing = find(r.issues, "BUFFER_MISSING_GLB_DATA");
  ASSERT_NE(missing, nullptr);
  EXPECT_EQ(missing->pointer, "/buffers/0");
}

// "length: the total length of the Binary glTF, including header and all
// chunks, in bytes": a file that goes on after it holds a whole GLB and bytes
// that are not part of it. glTF-Validator: GLB_EXTRA_DATA, a warning, at the
// declared end (test/base/data/glb/extra_data.glb: length 48, 49 bytes).
TEST(LoadGlb, BytesAfterTheDeclaredLengthAreExtraData) {
  const Bytes good = valid_glb(kJsonBuffer8, kBin8);
  Bytes b = good;
  b.push_back(0);
  Result r = load_glb(b);
  EXPECT_EQ(offsets(r.issues), (Offsets{{"GLB_EXTRA_DATA", good.size()}}));
  EXPECT_EQ(r.issues.issues()[0].severity, Severity::kWarning);
  EXPECT_EQ(r.issues.issues()[0].message, "Extra data after the end of GLB stream.");
  ASSERT_TRUE(r.asset.buffer_data.at(0).has_value());
  EXPECT_EQ(Bytes(r.asset.buffer_data[0]->begin(), r.asset.buffer_data[0]->end()), kBin8);
}

// A buffer of a GLB may have a uri; glTF-Validator says so (URI_GLB, an
// information) and warns about a data URI there (DATA_URI_GLB), and reads it
// (test/base/data/buffer/data_uri.glb: a non-base64 data URI, no error).
TEST(LoadGlb, DataUriInAGlbIsReadWithAWarning) {
  Result r = load_glb(valid_glb(
      R"({"asset":{"version":"2.0"},"buffers":[{"byteLength":1,"uri":"data:application/gltf-buffer,0"}]})",
      {}));
  ASSERT_EQ(codes(r.issues), (std::vector<std::string>{"URI_GLB", "DATA_URI_GLB"}));
  EXPECT_EQ(r.issues.issues()[0].severity, Severity::kInfo);
  EXPECT_EQ(r.issues.issues()[1].severity, Severity::kWarning);
  EXPECT_EQ(r.issues.issues()[0].pointer, "/buffers/0/uri");
  EXPECT_EQ(r.issues.issues()[1].pointer, "/buffers/0/uri");
  ASSERT_TRUE(r.asset.buffer_data.at(0).has_value());
  EXPECT_EQ(Bytes(r.asset.buffer_data[0]->begin(), r.asset.buffer_data[0]->end()), Bytes{'0'});
}

TEST(LoadGlb, DeclaredLengthTooSmall) {
  Bytes b = valid_glb(kJsonBuffer8, kBin8);
  std::memset(b.data() + 8, 0, 4);
  Result r = load_glb(b);
  EXPECT_EQ(offsets(r.issues), (Offsets{{"GLB_LENGTH_TOO_SMALL", 8}}));
  EXPECT_NE(r.asset.document, nullptr);  // chunks are still read within the file
}

TEST(LoadGlb, HeaderWithoutChunks) {
  Result r = load_glb(glb({}));
  EXPECT_EQ(offsets(r.issues),
            (Offsets{{"GLB_LENGTH_TOO_SMALL", 8}, {"GLB_UNEXPECTED_END_OF_CHUNK_HEADER", 12}}));
  EXPECT_EQ(r.asset.document, nullptr);
}

TEST(LoadGlb, PartialChunkHeader) {
  Bytes b = valid_glb(R"({"asset":{"version":"2.0"}})", {});
  b.insert(b.end(), {1, 2, 3, 4});  // 4 bytes where an 8-byte chunk header would start
  const std::uint32_t declared = static_cast<std::uint32_t>(b.size());
  std::memcpy(b.data() + 8, &declared, 4);
  Result r = load_glb(b);
  EXPECT_EQ(offsets(r.issues),
            (Offsets{{"GLB_UNEXPECTED_END_OF_CHUNK_HEADER", b.size() - 4}}));
}

TEST(LoadGlb, ChunkLengthOverflowingTheFile) {
  // A JSON chunk claiming 0xFFFFFFFF bytes: compared against what remains,
  // never added to the offset.
  Bytes b = glb({{kJson, padded(bytes_of(kJsonBuffer8), ' '), 0xFFFFFFFFu}});
  Result r = load_glb(b);
  EXPECT_EQ(offsets(r.issues), (Offsets{{"GLB_CHUNK_TOO_BIG", 12}}));
  EXPECT_EQ(r.issues.issues()[0].message, "Chunk (0x4E4F534A) length (4294967295) is too big.");
  EXPECT_EQ(r.asset.document, nullptr);
}

TEST(LoadGlb, HeaderLengthOverflowAndChunkLengthOverflow) {
  // Header length 0xFFFFFFFF and a BIN length 0xFFFFFFF0: the file ends first.
  Bytes b = glb({{kJson, padded(bytes_of(kJsonBuffer8), ' '), {}}, {kBin, kBin8, 0xFFFFFFF0u}},
                0xFFFFFFFFu);
  Result r = load_glb(b);
  ASSERT_GE(r.issues.issues().size(), 2u);
  EXPECT_EQ(r.issues.issues()[0].code, "GLB_LENGTH_MISMATCH");
  EXPECT_EQ(r.issues.issues()[1].code, "GLB_UNEXPECTED_END_OF_CHUNK_DATA");
  EXPECT_EQ(r.issues.issues()[1].offset, b.size());
}

TEST(LoadGlb, TruncatedInsideBinChunk) {
  const Bytes good = valid_glb(kJsonBuffer8, kBin8);
  Bytes b(good.begin(), good.end() - 3);  // the header still declares the full length
  Result r = load_glb(b);
  EXPECT_EQ(r.issues.issues().at(0).code, "GLB_LENGTH_MISMATCH");
  EXPECT_EQ(r.issues.issues().at(1).code, "GLB_UNEXPECTED_END_OF_CHUNK_DATA");
  EXPECT_EQ(r.issues.issues().at(1).offset, b.size());
  EXPECT_TRUE(r.issues.has("BUFFER_MISSING_GLB_DATA"));
}

TEST(LoadGlb, UnalignedJsonChunkIsStillParsed) {
  const Bytes json = bytes_of(std::string(kJsonBuffer8) + " ");
  ASSERT_NE(json.size() % 4, 0u) << "test premise: the JSON text is not a multiple of 4";
  Result r = load_glb(glb({{kJson, json, {}}, {kBin, kBin8, {}}}));
  EXPECT_EQ(offsets(r.issues), (Offsets{{"GLB_CHUNK_LENGTH_UNALIGNED", 12}}));
  EXPECT_NE(r.asset.document, nullptr);
  // The BIN data is read in place even when it starts misaligned.
  ASSERT_TRUE(r.asset.buffer_data.at(0).has_value());
  EXPECT_EQ(Bytes(r.asset.buffer_data[0]->begin(), r.asset.buffer_data[0]->end()), kBin8);
}

TEST(LoadGlb, BinChunkFirst) {
  const Bytes json = padded(bytes_of(kJsonBuffer8), ' ');
  Result r = load_glb(glb({{kBin, kBin8, {}}, {kJson, json, {}}}));
  EXPECT_EQ(offsets(r.issues), (Offsets{{"GLB_UNEXPECTED_FIRST_CHUNK", 12}}));
  EXPECT_EQ(r.issues.issues()[0].message, "First chunk must be of JSON type. Found 0x004E4942 instead.");
}

TEST(LoadGlb, DuplicateChunks) {
  const Bytes json = padded(bytes_of(kJsonBuffer8), ' ');
  Result r = load_glb(glb({{kJson, json, {}}, {kBin, kBin8, {}}, {kBin, kBin8, {}}, {kJson, json, {}}}));
  const std::uint64_t second_bin = 12 + 8 + json.size() + 8 + 8;
  const std::uint64_t second_json = second_bin + 8 + 8;
  EXPECT_EQ(offsets(r.issues),
            (Offsets{{"GLB_DUPLICATE_CHUNK", second_bin}, {"GLB_DUPLICATE_CHUNK", second_json}}));
}

TEST(LoadGlb, UnknownChunksAreSkipped) {
  const Bytes json = padded(bytes_of(kJsonBuffer8), ' ');
  const std::uint32_t kXyz = 0x5A595800;
  Result r = load_glb(glb({{kJson, json, {}}, {kXyz, {9, 9, 9, 9}, {}}, {kBin, kBin8, {}}}));
  const std::uint64_t unknown_at = 12 + 8 + json.size();
  const std::uint64_t bin_at = unknown_at + 8 + 4;
  EXPECT_EQ(offsets(r.issues), (Offsets{{"GLB_UNKNOWN_CHUNK_TYPE", unknown_at},
                                        {"GLB_UNEXPECTED_BIN_CHUNK", bin_at}}));
  EXPECT_EQ(r.issues.issues()[0].severity, Severity::kWarning);
  ASSERT_TRUE(r.asset.buffer_data.at(0).has_value());
  EXPECT_EQ(Bytes(r.asset.buffer_data[0]->begin(), r.asset.buffer_data[0]->end()), kBin8);

  IssueCollector after;
  load_bytes(glb({{kJson, json, {}}, {kBin, kBin8, {}}, {kXyz, {}, {}}}), "t.glb", {}, {}, after);
  EXPECT_EQ(codes(after), std::vector<std::string>{"GLB_UNKNOWN_CHUNK_TYPE"});
}

TEST(LoadGlb, EmptyChunks) {
  Result r = load_glb(glb({{kJson, {}, {}}}));
  ASSERT_GE(r.issues.issues().size(), 1u);
  EXPECT_EQ(r.issues.issues()[0].code, "GLB_EMPTY_CHUNK");
  EXPECT_EQ(r.issues.issues()[0].offset, 12u);
  EXPECT_TRUE(r.issues.has("INVALID_JSON"));  // and the empty text is no JSON
}

TEST(LoadGlb, InvalidJsonChunk) {
  Result r = load_glb(glb({{kJson, padded(bytes_of("{\"asset\":"), ' '), {}}}));
  EXPECT_EQ(codes(r.issues), std::vector<std::string>{"INVALID_JSON"});
  EXPECT_EQ(r.asset.mime_type, MimeType::kNone);
  // RapidJSON finds the unterminated string at the end of the 5-byte chunk:
  // offsets are in the file, so 20 (header + chunk header) + 5 = 25.
  Result s = load_glb(glb({{kJson, bytes_of("{\"ass"), {}}}));
  ASSERT_EQ(codes(s.issues), (std::vector<std::string>{"GLB_CHUNK_LENGTH_UNALIGNED", "INVALID_JSON"}));
  EXPECT_NE(s.issues.issues()[1].message.find("; byte offset 25)"), std::string::npos)
      << s.issues.issues()[1].message;
}

TEST(LoadGlb, LargeGlbFromDiskIsMappedAndExact) {
  // Above the 1 MiB mapping threshold: the BIN chunk is read in place from the mapping.
  Bytes bin(2u << 20);
  for (std::size_t i = 0; i < bin.size(); ++i) bin[i] = static_cast<std::uint8_t>(i * 31u + (i >> 9));
  const fs::path dir = scratch("glb_large");
  write_file(dir / "big.glb",
             valid_glb(R"({"buffers":[{"byteLength":)" + std::to_string(bin.size()) + "}]}", bin));
  IssueCollector issues;
  const LoadedAsset a = load_file(dir / "big.glb", {}, issues);
  EXPECT_TRUE(issues.issues().empty());
  ASSERT_TRUE(a.buffer_data.at(0).has_value());
  EXPECT_TRUE(Bytes(a.buffer_data[0]->begin(), a.buffer_data[0]->end()) == bin);
}

TEST(LoadGlb, MissingBinChunk) {
  Result r = load_glb(valid_glb(kJsonBuffer8, {}));
  EXPECT_EQ(codes(r.issues), std::vector<std::string>{"BUFFER_MISSING_GLB_DATA"});
  EXPECT_EQ(r.issues.issues()[0].pointer, "/buffers/0");
  EXPECT_FALSE(r.asset.buffer_data.at(0).has_value());
}

TEST(LoadGlb, BinChunkPaddingUpTo3BytesIsFine) {
  // byteLength 5, chunk 8 (5 + 3 bytes of padding).
  Result r = load_glb(valid_glb(R"({"buffers":[{"byteLength":5}]})", Bytes{1, 2, 3, 4, 5}));
  EXPECT_TRUE(r.issues.issues().empty());
  ASSERT_TRUE(r.asset.buffer_data.at(0).has_value());
  EXPECT_EQ(r.asset.buffer_data[0]->size(), 5u);  // cut to byteLength
}

TEST(LoadGlb, BinChunkTooBig) {
  Result r = load_glb(valid_glb(R"({"buffers":[{"byteLength":4}]})", Bytes(16, 7)));
  EXPECT_EQ(codes(r.issues), std::vector<std::string>{"BUFFER_GLB_CHUNK_TOO_BIG"});
  EXPECT_EQ(r.issues.issues()[0].message, "GLB-stored BIN chunk contains 12 extra padding byte(s).");
  EXPECT_EQ(r.issues.issues()[0].severity, Severity::kWarning);
  ASSERT_TRUE(r.asset.buffer_data.at(0).has_value());
  EXPECT_EQ(r.asset.buffer_data[0]->size(), 4u);
}

TEST(LoadGlb, BinChunkShorterThanByteLength) {
  Result r = load_glb(valid_glb(R"({"buffers":[{"byteLength":12}]})", kBin8));
  EXPECT_EQ(codes(r.issues), std::vector<std::string>{"BUFFER_BYTE_LENGTH_MISMATCH"});
  EXPECT_EQ(r.issues.issues()[0].pointer, "/buffers/0");
  EXPECT_FALSE(r.asset.buffer_data.at(0).has_value());
}

// Spec (GLB-stored Buffer): only the first buffer refers to the BIN chunk; "any glTF buffer
// with undefined buffer.uri property that is not the first element of buffers array does not
// refer to the GLB-stored BIN chunk, and the behavior of such buffers is left undefined to
// accommodate future extensions" (a meshopt fallback buffer, say). glTF-Validator reports
// nothing for it (its valid_placeholder.glb); reading data from it is
// BUFFER_VIEW_PLACEHOLDER_DATA (test_load_meshopt.cpp).
TEST(LoadGlb, OnlyBufferZeroUsesTheBinChunk) {
  Result r = load_glb(valid_glb(R"({"buffers":[{"byteLength":8},{"byteLength":8}]})", kBin8));
  EXPECT_TRUE(r.issues.issues().empty());
  EXPECT_TRUE(r.asset.buffer_data.at(0).has_value());
  EXPECT_FALSE(r.asset.buffer_data.at(1).has_value());
}

TEST(LoadGlb, ByteLength2To53IsNotAllocated) {
  // The spec's upper bound for byteLength; the BIN chunk is 8 bytes.
  Result r = load_glb(valid_glb(R"({"buffers":[{"byteLength":9007199254740992}]})", kBin8));
  EXPECT_EQ(codes(r.issues), std::vector<std::string>{"BUFFER_BYTE_LENGTH_MISMATCH"});
  EXPECT_EQ(r.issues.issues()[0].message,
            "Actual data length 8 does not match the declared buffer byteLength 9007199254740992.");
}

}  // namespace

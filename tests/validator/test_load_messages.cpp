// What the loader says about input that is not a glTF: JSON syntax errors name
// the mistake and give its line and column (counted here by hand from the test
// text), binary data is "not a glTF file", and a file that cannot be read says
// why in the system's words.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include "validator/load_test_util.hpp"

namespace {

using namespace gltf_anim::gltf;
using namespace load_test;

struct Where {
  std::uint64_t line, column, byte_offset;
};

// One INVALID_JSON at "" carrying `where` both as a structure and in words,
// with `words` in the message.
void expect_syntax_error(std::string_view text, std::string_view words, Where where) {
  SCOPED_TRACE(std::string(text.substr(0, 60)));
  IssueCollector issues;
  const LoadedAsset a = load_text(text, issues);
  EXPECT_EQ(a.document, nullptr);
  ASSERT_EQ(issues.issues().size(), 1u);
  const Issue& i = issues.issues()[0];
  EXPECT_EQ(i.code, "INVALID_JSON");
  EXPECT_EQ(i.pointer, "");
  EXPECT_FALSE(i.offset.has_value());  // the JSON report keeps glTF-Validator's shape
  EXPECT_NE(i.message.find(words), std::string::npos) << i.message;
  const std::string at = "(at line " + std::to_string(where.line) + ", column " + std::to_string(where.column) +
                         "; byte offset " + std::to_string(where.byte_offset) + ")";
  EXPECT_NE(i.message.find(at), std::string::npos) << i.message << "\nwanted " << at;
  ASSERT_TRUE(i.position.has_value());
  EXPECT_EQ(i.position->line, where.line);
  EXPECT_EQ(i.position->column, where.column);
  EXPECT_EQ(i.position->byte_offset, where.byte_offset);
  EXPECT_FALSE(i.position->in_glb_chunk);
}

TEST(LoadMessages, TrailingCommaInObjectIsNamed) {
  // Line 2 is `  "asset": {"version": "2.0",},`: the '}' after the comma is
  // its 30th character; byte 2 (line 1) + 29 = 31.
  expect_syntax_error("{\n  \"asset\": {\"version\": \"2.0\",},\n}",
                      "Trailing comma before '}'", {2, 30, 31});
}

TEST(LoadMessages, TrailingCommaInArrayIsNamedAcrossLines) {
  // "[1,2,\n ]": the ']' is the 2nd character of line 2, byte 7.
  expect_syntax_error("[1,2,\n ]", "Trailing comma before ']'", {2, 2, 7});
}

TEST(LoadMessages, CommentsAreNamed) {
  expect_syntax_error("{\n // exported by hand\n \"asset\":{}}", "Comments ('//' or '/* */') are not allowed",
                      {2, 2, 3});
  expect_syntax_error("{\"asset\":{} /* x */}", "Comments", {1, 13, 12});
  // At the very start RapidJSON calls it an empty document: it is a comment.
  expect_syntax_error("// c\n{}", "Comments", {1, 1, 0});
}

TEST(LoadMessages, SingleQuotesAreNamed) {
  expect_syntax_error("{'asset':{}}", "Single quotes are not allowed", {1, 2, 1});
  expect_syntax_error("{\"a\":'x'}", "Single quotes", {1, 6, 5});
}

TEST(LoadMessages, NanAndInfinityAreNamed) {
  expect_syntax_error("{\"a\":NaN}", "NaN and Infinity are not JSON numbers", {1, 6, 5});
  // RapidJSON stops after the sign, at the 'I' (byte 6).
  expect_syntax_error("{\"a\":-Infinity}", "NaN and Infinity", {1, 7, 6});
  expect_syntax_error("{\"a\":Infinity}", "NaN and Infinity", {1, 6, 5});
  // "nan" starts like null: RapidJSON stops at the 'a' (byte 6).
  expect_syntax_error("{\"a\":nan}", "NaN and Infinity", {1, 7, 6});
}

TEST(LoadMessages, UnquotedNameAndRawControlCharacterAreNamed) {
  expect_syntax_error("{asset:{}}", "Member names must be strings in double quotes", {1, 2, 1});
  expect_syntax_error("{\"a\":\"x\ny\"}", "Raw control character U+000A in a string", {1, 8, 7});
  expect_syntax_error("{\"a\":\"x\ty\"}", "Raw control character U+0009", {1, 8, 7});
}

TEST(LoadMessages, TextThatEndsEarlyIsNamed) {
  expect_syntax_error("{\"asset\":{\"ver", "ends before the document is complete", {1, 15, 14});
  expect_syntax_error("{\"asset\":{}", "ends before the document is complete", {1, 12, 11});
}

TEST(LoadMessages, EmptyFileAndByteOrderMark) {
  expect_syntax_error("", "The file is empty", {1, 1, 0});
  expect_syntax_error("  \n", "The document is empty", {2, 1, 3});
  expect_syntax_error("\xEF\xBB\xBF{}", "UTF-8 byte order mark", {1, 1, 0});
}

TEST(LoadMessages, ColumnsCountCodePointsNotBytes) {
  // "é" is 2 bytes, "😀" 4 bytes, each one column: the 'x' is byte 13 but
  // column 9 ({ " é é 😀 " : space x).
  expect_syntax_error("{\"\xC3\xA9\xC3\xA9\xF0\x9F\x98\x80\": x}", "Invalid value", {1, 9, 13});
  // CRLF ends a line as LF does; the CR is not a column of the next line.
  expect_syntax_error("{\r\n\"a\":1,\r\n}", "Trailing comma", {3, 1, 11});
}

TEST(LoadMessages, OtherSyntaxErrorsKeepTheParsersWordsWithAPlace) {
  expect_syntax_error("{\"a\":1 \"b\":2}", "Missing a comma or '}' after an object member", {1, 8, 7});
  expect_syntax_error("{\"asset\":{}} x", "The document root must not be followed by other values", {1, 14, 13});
}

TEST(LoadMessages, ErrorsInAGlbJsonChunkCountWithinTheChunkAndGiveTheFileOffset) {
  // Chunk data starts at byte 20 (12-byte header, 8-byte chunk header).
  IssueCollector issues;
  const Bytes file = glb({{kJson, padded(bytes_of("{\"asset\":{},}"), ' '), {}}});
  (void)load_bytes(file, "t.glb", {}, {}, issues);
  ASSERT_EQ(codes(issues), std::vector<std::string>{"INVALID_JSON"});
  const Issue& i = issues.issues()[0];
  EXPECT_NE(i.message.find("Trailing comma before '}'"), std::string::npos) << i.message;
  EXPECT_NE(i.message.find("(at line 1, column 13 of the JSON chunk; byte offset 32)"), std::string::npos)
      << i.message;
  ASSERT_TRUE(i.position.has_value());
  EXPECT_TRUE(i.position->in_glb_chunk);
  EXPECT_EQ(i.position->byte_offset, 32u);
}

TEST(LoadMessages, TooManyValuesGivesItsPlace) {
  LoadOptions options;
  options.max_json_values = 3;
  IssueCollector issues;
  // Values: the array, 1, 2, then the 4th, "3", at the start of line 2 (byte 6).
  (void)load_text("[1,2,\n3]", issues, options);
  ASSERT_EQ(codes(issues), std::vector<std::string>{"JSON_TOO_MANY_VALUES"});
  EXPECT_NE(issues.issues()[0].message.find("line 2, column 1"), std::string::npos)
      << issues.issues()[0].message;
}

// ---- not a glTF file --------------------------------------------------------

const Issue& only_issue(const IssueCollector& issues) {
  EXPECT_EQ(issues.issues().size(), 1u);
  return issues.issues().at(0);
}

TEST(LoadMessages, BinaryBufferPassedByMistakeIsNotAGltfFile) {
  // A .bin of two floats (1.0f, 0.0f) passed as the asset.
  const Bytes bin = le<float>({1.0f, 0.0f});
  IssueCollector issues;
  const LoadedAsset a = load_bytes(bin, "model.bin", {}, {}, issues);
  EXPECT_EQ(a.document, nullptr);
  EXPECT_EQ(a.mime_type, MimeType::kNone);
  const Issue& i = only_issue(issues);
  EXPECT_EQ(i.code, "NOT_GLTF");
  EXPECT_EQ(i.pointer, "");
  // 1.0f is 0x3F800000, little-endian 00 00 80 3F.
  EXPECT_EQ(i.message,
            "Not a glTF file: binary data (first bytes 00 00 80 3F), neither JSON text nor a GLB "
            "(no 'glTF' magic).");
}

TEST(LoadMessages, GitLfsPointerAssetIsNamed) {
  // The asset itself as Git LFS left it in a clone without the content, named .glb or .gltf.
  const std::string pointer =
      "version https://git-lfs.github.com/spec/v1\n"
      "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
      "size 2483\n";
  for (const char* name : {"Fox.glb", "Fox.gltf"}) {
    IssueCollector issues;
    const LoadedAsset a = load_bytes(bytes_of(pointer), name, {}, {}, issues);
    EXPECT_EQ(a.document, nullptr);
    const Issue& i = only_issue(issues);
    EXPECT_EQ(i.code, "GIT_LFS_POINTER") << name;
    EXPECT_EQ(i.pointer, "");
    EXPECT_EQ(i.message, "The asset is a Git LFS pointer file, not its content (an object of 2483 bytes): "
                         "fetch the content (git lfs pull) or download the file itself.");
  }
}

TEST(LoadMessages, KnownBinaryFormatsAreNamed) {
  const std::pair<std::string, std::string> cases[] = {
      {std::string("\x89PNG\r\n\x1A\n\0\0\0\rIHDR", 16), "a PNG image"},
      {std::string("\xFF\xD8\xFF\xE0\0\x10JFIF", 10), "a JPEG image"},
      {std::string("PK\x03\x04\x14\0\0\0", 8), "a ZIP archive"},
      {std::string("\x1F\x8B\x08\0\0\0\0\0", 8), "gzip-compressed data"},
      {std::string("\xABKTX 20\xBB\r\n\x1A\n", 12), "a KTX2 texture"},
  };
  for (const auto& [bytes, name] : cases) {
    IssueCollector issues;
    (void)load_bytes(bytes_of(bytes), "image.gltf", {}, {}, issues);
    const Issue& i = only_issue(issues);
    EXPECT_EQ(i.code, "NOT_GLTF") << name;
    EXPECT_NE(i.message.find("Not a glTF file: " + name + ","), std::string::npos) << i.message;
  }
}

TEST(LoadMessages, GlbNamedFileWithWrongMagicIsOneInvalidMagic) {
  // "glTf" (a typo in the magic) then version 2: one issue, no cascade.
  Bytes file = bytes_of("glTf");
  put_u32(file, 2);
  put_u32(file, 20);
  put_u32(file, 0);
  put_u32(file, kJson);
  IssueCollector issues;
  (void)load_bytes(file, "model.GLB", {}, {}, issues);
  const Issue& i = only_issue(issues);
  EXPECT_EQ(i.code, "GLB_INVALID_MAGIC");
  ASSERT_TRUE(i.offset.has_value());
  EXPECT_EQ(*i.offset, 0u);
  // "glTf" little-endian: 0x66546C67.
  EXPECT_NE(i.message.find("Invalid GLB magic value (0x66546C67): not a glTF file but binary data"),
            std::string::npos)
      << i.message;

  IssueCollector png;
  (void)load_bytes(bytes_of(std::string("\x89PNG\r\n\x1A\n\0\0\0\r", 12)), "x.glb", {}, {}, png);
  EXPECT_EQ(only_issue(png).code, "GLB_INVALID_MAGIC");
  EXPECT_NE(only_issue(png).message.find("not a glTF file but a PNG image"), std::string::npos);

  IssueCollector tiny;  // shorter than the magic itself
  (void)load_bytes(Bytes{0x00, 0x01}, "x.glb", {}, {}, tiny);
  EXPECT_EQ(only_issue(tiny).code, "GLB_UNEXPECTED_END_OF_HEADER");
}

TEST(LoadMessages, JsonTextInAGlbNamedFileIsStillReadAsJson) {
  // Content decides, as in glTF-Validator: a renamed .gltf is JSON.
  IssueCollector issues;
  const LoadedAsset a = load_bytes(bytes_of(R"({"asset":{"version":"2.0"}})"), "renamed.glb", {}, {}, issues);
  ASSERT_NE(a.document, nullptr);
  EXPECT_EQ(a.mime_type, MimeType::kGltfJson);
  EXPECT_TRUE(issues.issues().empty());
}

TEST(LoadMessages, JsonStartThenAStrayControlByteIsAJsonErrorNotBinary) {
  IssueCollector issues;
  (void)load_text(std::string("{\"a\":1,\x01}", 9), issues);
  EXPECT_EQ(only_issue(issues).code, "INVALID_JSON");
}

TEST(LoadMessages, Utf16TextIsNamed) {
  // "{}" in UTF-16 LE with a BOM, in UTF-16 BE without one.
  const std::pair<Bytes, std::string> cases[] = {
      {Bytes{0xFF, 0xFE, '{', 0, '}', 0}, "UTF-16 (little-endian)"},
      {Bytes{0, '{', 0, '}'}, "UTF-16 (big-endian)"},
      {Bytes{'{', 0, '}', 0}, "UTF-16 (little-endian)"},
  };
  for (const auto& [bytes, name] : cases) {
    IssueCollector issues;
    (void)load_bytes(bytes, "wide.gltf", {}, {}, issues);
    const Issue& i = only_issue(issues);
    EXPECT_EQ(i.code, "INVALID_JSON");
    EXPECT_NE(i.message.find("The text is " + name + "; glTF JSON must be UTF-8"), std::string::npos)
        << i.message;
  }
}

// ---- file errors carry the reason --------------------------------------------

TEST(LoadMessages, UnreadableInputsSayWhy) {
  const fs::path dir = scratch("messages_io");
  IssueCollector missing;
  (void)load_file(dir / "nope.gltf", {}, missing);
  EXPECT_EQ(only_issue(missing).code, "IO_ERROR");
  EXPECT_NE(only_issue(missing).message.find("nope.gltf: No such file or directory"), std::string::npos)
      << only_issue(missing).message;

  fs::create_directory(dir / "folder.gltf");
  IssueCollector folder;
  (void)load_file(dir / "folder.gltf", {}, folder);
  EXPECT_NE(only_issue(folder).message.find("folder.gltf: Is a directory"), std::string::npos)
      << only_issue(folder).message;

  ASSERT_EQ(::mkfifo((dir / "pipe.gltf").c_str(), 0600), 0);
  IssueCollector fifo;
  (void)load_file(dir / "pipe.gltf", {}, fifo);
  EXPECT_NE(only_issue(fifo).message.find("pipe.gltf: Is a FIFO (named pipe), not a regular file"),
            std::string::npos)
      << only_issue(fifo).message;
}

TEST(LoadMessages, UnreadableExternalBuffersSayWhy) {
  const fs::path dir = scratch("messages_buffers");
  fs::create_directory(dir / "data.bin");
  fs::create_symlink("data.bin", dir / "link.bin");
  write_file(dir / "a.gltf", R"({"asset":{"version":"2.0"},"buffers":[{"byteLength":4,"uri":"missing.bin"},
      {"byteLength":4,"uri":"data.bin"}]})");
  IssueCollector issues;
  (void)load_file(dir / "a.gltf", {}, issues);
  ASSERT_EQ(codes(issues), (std::vector<std::string>{"IO_ERROR", "RESOURCE_NOT_REGULAR_FILE"}));
  EXPECT_EQ(issues.issues()[0].pointer, "/buffers/0/uri");
  EXPECT_NE(issues.issues()[0].message.find("missing.bin: No such file or directory"), std::string::npos)
      << issues.issues()[0].message;
  EXPECT_EQ(issues.issues()[1].message, "'data.bin' is not a regular file and was not opened (Is a directory).");
}

}  // namespace

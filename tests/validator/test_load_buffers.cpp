// Buffers: data URIs with strict base64, external files resolved safely, and
// every refusal as an issue with a code and the pointer /buffers/i/uri.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/types.h>

#include <chrono>
#include <thread>

#include "validator/load_test_util.hpp"

namespace {

using namespace gltf_anim::gltf;
using namespace load_test;

std::string one_buffer(std::string_view uri, std::uint64_t byte_length) {
  return R"({"asset":{"version":"2.0"},"buffers":[{"uri":")" + std::string(uri) +
         R"(","byteLength":)" + std::to_string(byte_length) + "}]}";
}

struct Loaded {
  IssueCollector issues;
  LoadedAsset asset;
};

// Writes `json` as <dir>/asset.gltf and loads it from disk.
Loaded load_in(const fs::path& dir, const std::string& json, LoadOptions options = {}) {
  write_file(dir / "asset.gltf", json);
  Loaded l;
  l.asset = load_file(dir / "asset.gltf", options, l.issues);
  return l;
}

void expect_refused(const Loaded& l, std::string_view code) {
  ASSERT_EQ(codes(l.issues), std::vector<std::string>{std::string(code)});
  EXPECT_EQ(l.issues.issues()[0].pointer, "/buffers/0/uri");
  ASSERT_EQ(l.asset.buffer_data.size(), 1u);
  EXPECT_FALSE(l.asset.buffer_data[0].has_value());
}

Bytes data_of(const LoadedAsset& a, std::size_t i) {
  const auto& d = a.buffer_data.at(i);
  return d ? Bytes(d->begin(), d->end()) : Bytes{};
}

TEST(LoadBuffers, DataUriKnownVector) {
  // RFC 4648 section 10: BASE64("foobar") = "Zm9vYmFy", BASE64("fo") = "Zm8=".
  IssueCollector issues;
  LoadedAsset a = load_text(
      R"({"buffers":[{"uri":"data:application/octet-stream;base64,Zm9vYmFy","byteLength":6},
                     {"uri":"data:application/gltf-buffer;base64,Zm8=","byteLength":2}]})",
      issues);
  EXPECT_TRUE(issues.issues().empty());
  EXPECT_EQ(data_of(a, 0), bytes_of("foobar"));
  EXPECT_EQ(data_of(a, 1), bytes_of("fo"));
  ASSERT_EQ(a.resources.size(), 2u);
  EXPECT_EQ(a.resources[0].storage, "data-uri");
  EXPECT_FALSE(a.resources[0].uri.has_value());
  EXPECT_EQ(a.resources[1].byte_length, 2u);
}

TEST(LoadBuffers, DataUriEveryByteValue) {
  Bytes all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<std::uint8_t>(i));
  for (std::size_t cut : {256u, 255u, 254u}) {  // no, two and one '=' of padding
    const Bytes b(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(cut));
    IssueCollector issues;
    LoadedAsset a = load_text(one_buffer(data_uri(b), cut), issues);
    EXPECT_TRUE(issues.issues().empty()) << cut;
    EXPECT_EQ(data_of(a, 0), b);
  }
}

TEST(LoadBuffers, BadBase64) {
  struct Case {
    std::string payload;
    std::size_t at;  // offending character, counted in the whole URI
  };
  const std::size_t p = std::string_view("data:application/octet-stream;base64,").size();
  const Case cases[] = {
      {"Zm9v!mFy", p + 4},   // outside the alphabet
      {"Zm9vYmF", p + 7},    // length not a multiple of 4: reported at the end
      {"Zm=vYmFy", p + 2},   // '=' inside
      {"Zm9=YmFy", p + 3},   // '=' before the last quad
      {"Zm8=Zm8=", p + 3},   // padding then more data
      {"Zm9v YmFy", p + 9},  // whitespace makes the length 9
      {"Zm9vYm=y", p + 6},   // "=y": '=' must be trailing
  };
  for (const Case& c : cases) {
    IssueCollector issues;
    LoadedAsset a = load_text(one_buffer("data:application/octet-stream;base64," + c.payload, 6), issues);
    ASSERT_EQ(codes(issues), std::vector<std::string>{"DATA_URI_INVALID_BASE64"}) << c.payload;
    EXPECT_EQ(issues.issues()[0].pointer, "/buffers/0/uri");
    EXPECT_EQ(issues.issues()[0].message,
              "Data URI holds invalid base64 at character " + std::to_string(c.at) + ".")
        << c.payload;
    EXPECT_FALSE(a.buffer_data[0].has_value());
  }
}

TEST(LoadBuffers, DataUriMediaTypeAndEncoding) {
  IssueCollector wrong_type;
  LoadedAsset a = load_text(one_buffer("data:image/png;base64,Zm9vYmFy", 6), wrong_type);
  EXPECT_EQ(codes(wrong_type), std::vector<std::string>{"BUFFER_DATA_URI_MIME_TYPE_INVALID"});
  EXPECT_EQ(wrong_type.issues()[0].pointer, "/buffers/0/uri");
  EXPECT_EQ(data_of(a, 0), bytes_of("foobar"));  // still decoded: the bytes are fine

  // RFC 2397: without ";base64" the data is the URI's octets, "%xx" for the
  // ones outside the safe URL characters. glTF-Validator reads them so
  // (test/base/data/buffer/data_uri.glb expects no error).
  IssueCollector not_base64;
  LoadedAsset b = load_text(one_buffer("data:application/octet-stream,foobar", 6), not_base64);
  EXPECT_TRUE(not_base64.issues().empty());
  EXPECT_EQ(data_of(b, 0), bytes_of("foobar"));
  IssueCollector percent;
  LoadedAsset c = load_text(one_buffer("data:application/gltf-buffer,%00%ffA%2C", 4), percent);
  EXPECT_TRUE(percent.issues().empty());
  EXPECT_EQ(data_of(c, 0), (Bytes{0x00, 0xFF, 'A', ','}));
  // A '%' without two hex digits is no octet: the character index is 29 + 2.
  IssueCollector bad_percent;
  LoadedAsset d = load_text(one_buffer("data:application/gltf-buffer,ab%4", 3), bad_percent);
  EXPECT_EQ(codes(bad_percent), std::vector<std::string>{"INVALID_URI"});
  EXPECT_NE(bad_percent.issues()[0].message.find("at character 31"), std::string::npos)
      << bad_percent.issues()[0].message;
  EXPECT_FALSE(d.buffer_data[0].has_value());

  IssueCollector no_comma;
  load_text(one_buffer("data:application/octet-stream;base64", 6), no_comma);
  EXPECT_EQ(codes(no_comma), std::vector<std::string>{"INVALID_URI"});
}

TEST(LoadBuffers, DataUriLengthMismatch) {
  IssueCollector shorter;
  LoadedAsset a = load_text(one_buffer("data:application/octet-stream;base64,Zm9vYmFy", 7), shorter);
  EXPECT_EQ(codes(shorter), std::vector<std::string>{"BUFFER_BYTE_LENGTH_MISMATCH"});
  EXPECT_EQ(shorter.issues()[0].message, "Actual data length 6 does not match the declared buffer byteLength 7.");
  EXPECT_FALSE(a.buffer_data[0].has_value());

  // Longer: an error for data URIs (exact), but the first byteLength bytes are usable.
  IssueCollector longer;
  LoadedAsset b = load_text(one_buffer("data:application/octet-stream;base64,Zm9vYmFy", 4), longer);
  EXPECT_EQ(codes(longer), std::vector<std::string>{"BUFFER_BYTE_LENGTH_MISMATCH"});
  EXPECT_EQ(data_of(b, 0), bytes_of("foob"));
}

TEST(LoadBuffers, ExternalFileAndPercentDecoding) {
  const fs::path dir = scratch("external");
  fs::create_directories(dir / "sub dir");
  write_file(dir / "sub dir" / "d\xC3\xA9j\xC3\xA0.bin", bytes_of("12345678"));
  Loaded l = load_in(dir, one_buffer("sub%20dir/d%C3%A9j%C3%A0.bin?v=1#frag", 8));
  EXPECT_TRUE(l.issues.issues().empty());
  EXPECT_EQ(data_of(l.asset, 0), bytes_of("12345678"));
  ASSERT_EQ(l.asset.resources.size(), 1u);
  EXPECT_EQ(l.asset.resources[0].storage, "external");
  EXPECT_EQ(l.asset.resources[0].uri, "sub%20dir/d%C3%A9j%C3%A0.bin?v=1#frag");
  EXPECT_EQ(l.asset.resources[0].byte_length, 8u);

  // Non-ASCII written as-is in the JSON is the same file.
  Loaded raw = load_in(dir, one_buffer("sub dir/d\xC3\xA9j\xC3\xA0.bin", 8));
  EXPECT_TRUE(raw.issues.issues().empty());
  EXPECT_EQ(data_of(raw.asset, 0), bytes_of("12345678"));
}

TEST(LoadBuffers, ExternalLengths) {
  const fs::path dir = scratch("external_lengths");
  write_file(dir / "b.bin", bytes_of("0123456789ABCDEF"));
  Loaded padding = load_in(dir, one_buffer("b.bin", 13));  // 3 extra bytes: fine
  EXPECT_TRUE(padding.issues.issues().empty());
  EXPECT_EQ(data_of(padding.asset, 0), bytes_of("0123456789ABC"));

  Loaded longer = load_in(dir, one_buffer("b.bin", 8));
  EXPECT_EQ(codes(longer.issues), std::vector<std::string>{"BUFFER_EXTERNAL_DATA_TOO_LONG"});
  EXPECT_EQ(longer.issues.issues()[0].severity, Severity::kWarning);
  EXPECT_EQ(data_of(longer.asset, 0), bytes_of("01234567"));

  Loaded shorter = load_in(dir, one_buffer("b.bin", 17));
  EXPECT_EQ(codes(shorter.issues), std::vector<std::string>{"BUFFER_BYTE_LENGTH_MISMATCH"});
  EXPECT_EQ(shorter.issues.issues()[0].pointer, "/buffers/0/uri");
  EXPECT_FALSE(shorter.asset.buffer_data[0].has_value());

  // byteLength 2^53 against a 16-byte file: an issue, no allocation.
  Loaded huge = load_in(dir, one_buffer("b.bin", 9007199254740992ull));
  EXPECT_EQ(codes(huge.issues), std::vector<std::string>{"BUFFER_BYTE_LENGTH_MISMATCH"});
}

TEST(LoadBuffers, LargeExternalFileIsMappedAndExact) {
  // Above the mapping threshold (1 MiB): the mapped path must give the same bytes.
  const fs::path dir = scratch("external_large");
  Bytes big(3u << 20);
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<std::uint8_t>((i * 7919u) >> 3);
  write_file(dir / "big.bin", big);
  Loaded l = load_in(dir, one_buffer("big.bin", big.size()));
  EXPECT_TRUE(l.issues.issues().empty());
  EXPECT_TRUE(data_of(l.asset, 0) == big);
}

TEST(LoadBuffers, MissingFileIsIoError) {
  Loaded l = load_in(scratch("external_missing"), one_buffer("nope.bin", 4));
  expect_refused(l, "IO_ERROR");
  EXPECT_NE(l.issues.issues()[0].message.find("nope.bin"), std::string::npos);
}

TEST(LoadBuffers, GitLfsPointerIsNamedNotMeasured) {
  // A clone without the LFS content: the .bin is the pointer, not a short buffer.
  const fs::path dir = scratch("external_lfs");
  write_file(dir / "scene.bin",
             "version https://git-lfs.github.com/spec/v1\n"
             "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
             "size 12345\n");
  Loaded l = load_in(dir, one_buffer("scene.bin", 12345));
  expect_refused(l, "GIT_LFS_POINTER");
  EXPECT_EQ(l.issues.issues()[0].message,
            "'scene.bin' is a Git LFS pointer file, not its content (an object of 12345 bytes): "
            "fetch the content (git lfs pull) or download the file itself.");
}

TEST(LoadBuffers, DotDotEscapeIsRefused) {
  const fs::path dir = scratch("escape");
  fs::create_directories(dir / "asset");
  write_file(dir / "secret.bin", bytes_of("SECRET!!"));
  Loaded l = load_in(dir / "asset", one_buffer("../secret.bin", 8));
  expect_refused(l, "URI_OUTSIDE_ROOT");
  // Percent-encoded dots and slashes decode to the same escape.
  Loaded encoded = load_in(dir / "asset", one_buffer("%2E%2E%2Fsecret.bin", 8));
  expect_refused(encoded, "URI_OUTSIDE_ROOT");
  // Going out and back in stays inside.
  write_file(dir / "asset" / "ok.bin", bytes_of("12345678"));
  Loaded back = load_in(dir / "asset", one_buffer("../asset/ok.bin", 8));
  EXPECT_TRUE(back.issues.issues().empty());
  // --root widens the allowed folder.
  LoadOptions wide;
  wide.root = dir;
  Loaded widened = load_in(dir / "asset", one_buffer("../secret.bin", 8), wide);
  EXPECT_TRUE(widened.issues.issues().empty());
  EXPECT_EQ(data_of(widened.asset, 0), bytes_of("SECRET!!"));
}

TEST(LoadBuffers, SiblingFolderWithCommonPrefixIsOutside) {
  // Root "/x/asset" must not admit "/x/asset2/...".
  const fs::path dir = scratch("prefix");
  fs::create_directories(dir / "asset");
  fs::create_directories(dir / "asset2");
  write_file(dir / "asset2" / "b.bin", bytes_of("12345678"));
  Loaded l = load_in(dir / "asset", one_buffer("../asset2/b.bin", 8));
  expect_refused(l, "URI_OUTSIDE_ROOT");
}

TEST(LoadBuffers, SymlinkEscapeIsRefused) {
  const fs::path dir = scratch("symlink");
  fs::create_directories(dir / "asset");
  write_file(dir / "secret.bin", bytes_of("SECRET!!"));
  fs::create_symlink(dir / "secret.bin", dir / "asset" / "link.bin");
  fs::create_directory_symlink(dir, dir / "asset" / "up");
  expect_refused(load_in(dir / "asset", one_buffer("link.bin", 8)), "URI_OUTSIDE_ROOT");
  expect_refused(load_in(dir / "asset", one_buffer("up/secret.bin", 8)), "URI_OUTSIDE_ROOT");
  // A symlink that stays inside the root is fine.
  write_file(dir / "asset" / "real.bin", bytes_of("12345678"));
  fs::create_symlink("real.bin", dir / "asset" / "alias.bin");
  Loaded inside = load_in(dir / "asset", one_buffer("alias.bin", 8));
  EXPECT_TRUE(inside.issues.issues().empty());
}

TEST(LoadBuffers, AbsolutePathsAndSchemesAreRefused) {
  const fs::path dir = scratch("schemes");
  const std::string target = (dir / "b.bin").string();
  write_file(dir / "b.bin", bytes_of("12345678"));
  expect_refused(load_in(dir, one_buffer(target, 8)), "URI_ABSOLUTE_PATH");
  expect_refused(load_in(dir, one_buffer("/etc/passwd", 8)), "URI_ABSOLUTE_PATH");
  expect_refused(load_in(dir, one_buffer("//example.com/b.bin", 8)), "URI_ABSOLUTE_PATH");
  expect_refused(load_in(dir, one_buffer("%2Fetc%2Fpasswd", 8)), "URI_ABSOLUTE_PATH");
}

// The spec: "Assets MAY contain at least these two URI types" (data URIs and
// relative paths): an absolute URI is allowed, so not loading it is no error.
// glTF-Validator warns NON_RELATIVE_URI (test/base/data/buffer/
// non_relative_uri.gltf); we add that nothing was fetched, as an information.
TEST(LoadBuffers, UrisWithASchemeAreNotLoadedAndNoError) {
  const fs::path dir = scratch("schemes_allowed");
  const std::string target = (dir / "b.bin").string();
  write_file(dir / "b.bin", bytes_of("12345678"));
  for (const std::string& uri :
       {"file://" + target, std::string("http://127.0.0.1:9/b.bin"),
        std::string("https://example.com/b.bin"), std::string("C:/b.bin")}) {
    Loaded l = load_in(dir, one_buffer(uri, 8));
    ASSERT_EQ(codes(l.issues),
              (std::vector<std::string>{"NON_RELATIVE_URI", "URI_SCHEME_NOT_ALLOWED"}))
        << uri;
    EXPECT_EQ(l.issues.issues()[0].severity, Severity::kWarning) << uri;
    EXPECT_EQ(l.issues.issues()[1].severity, Severity::kInfo) << uri;
    for (const Issue& i : l.issues.issues()) EXPECT_EQ(i.pointer, "/buffers/0/uri") << uri;
    ASSERT_EQ(l.asset.buffer_data.size(), 1u);
    EXPECT_FALSE(l.asset.buffer_data[0].has_value()) << uri;
  }
  Loaded http = load_in(dir, one_buffer("HTTP://x/b.bin", 8));
  EXPECT_EQ(http.issues.issues().at(0).message, "Non-relative URI found: 'HTTP://x/b.bin'.");
  EXPECT_EQ(http.issues.issues().at(1).message,
            "URI scheme 'HTTP:' is not loaded ('HTTP://x/b.bin'); only data: URIs and relative "
            "paths are.");
}

TEST(LoadBuffers, MalformedRelativeUris) {
  const fs::path dir = scratch("bad_uris");
  expect_refused(load_in(dir, one_buffer("b%2.bin", 8)), "INVALID_URI");
  expect_refused(load_in(dir, one_buffer("b%zz.bin", 8)), "INVALID_URI");
  expect_refused(load_in(dir, one_buffer("b.bin%00.png", 8)), "INVALID_URI");
  expect_refused(load_in(dir, one_buffer("", 8)), "INVALID_URI");
  expect_refused(load_in(dir, one_buffer("?query", 8)), "INVALID_URI");
}

TEST(LoadBuffers, FifoIsNotOpenedForReading) {
  const fs::path dir = scratch("fifo");
  ASSERT_EQ(::mkfifo((dir / "pipe.bin").c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  // A blocking open() would wait for a writer forever; the test would time out.
  Loaded l = load_in(dir, one_buffer("pipe.bin", 8));
  expect_refused(l, "RESOURCE_NOT_REGULAR_FILE");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(LoadBuffers, FolderAndDeviceAreNotRegularFiles) {
  const fs::path dir = scratch("not_regular");
  fs::create_directories(dir / "folder.bin");
  expect_refused(load_in(dir, one_buffer("folder.bin", 8)), "RESOURCE_NOT_REGULAR_FILE");
  // /dev/zero would be an endless read; reached through a symlink it is
  // outside the root anyway, and with the root widened it is not regular.
  fs::create_symlink("/dev/zero", dir / "zero.bin");
  expect_refused(load_in(dir, one_buffer("zero.bin", 8)), "URI_OUTSIDE_ROOT");
  LoadOptions everything;
  everything.root = "/";
  expect_refused(load_in(dir, one_buffer("zero.bin", 8), everything), "RESOURCE_NOT_REGULAR_FILE");
}

TEST(LoadBuffers, ExternalFileAboveLimit) {
  const fs::path dir = scratch("external_limit");
  write_file(dir / "b.bin", Bytes(64, 1));
  LoadOptions small;
  small.max_file_bytes = 1000;  // the .gltf fits, the .bin does not after we grow it
  write_file(dir / "b.bin", Bytes(2000, 1));
  Loaded l = load_in(dir, one_buffer("b.bin", 2000), small);
  expect_refused(l, "FILE_TOO_LARGE");
  EXPECT_EQ(l.issues.issues()[0].message, "File is 2000 bytes, more than the limit of 1000 bytes.");
}

TEST(LoadBuffers, StdinHasNoFolderForRelativeUris) {
  IssueCollector issues;
  LoadedAsset a = load_text(one_buffer("b.bin", 8), issues);
  EXPECT_EQ(codes(issues), std::vector<std::string>{"IO_ERROR"});
  EXPECT_EQ(issues.issues()[0].pointer, "/buffers/0/uri");
  EXPECT_FALSE(a.buffer_data[0].has_value());
}

TEST(LoadBuffers, LoadBuffersOffReadsNothing) {
  const fs::path dir = scratch("no_buffers");
  LoadOptions off;
  off.load_buffers = false;
  Loaded l = load_in(dir, one_buffer("missing.bin", 8), off);
  EXPECT_TRUE(l.issues.issues().empty());
  EXPECT_FALSE(l.asset.buffer_data.at(0).has_value());
}

TEST(LoadBuffers, MalformedBufferIsSkippedSilently) {
  IssueCollector issues;
  LoadedAsset a = load_text(R"({"buffers":[{"uri":5,"byteLength":8},{"uri":"data:application/octet-stream;base64,Zm9vYmFy"}]})",
                            issues);
  EXPECT_TRUE(issues.issues().empty());  // the schema check reports the types
  EXPECT_FALSE(a.buffer_data.at(0).has_value());
  EXPECT_FALSE(a.buffer_data.at(1).has_value());
}

}  // namespace

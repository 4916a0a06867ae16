// The resource reader seam: an asset whose buffer is handed over in memory
// validates exactly as the same files on disk, every refusal keeps its kind and
// reason, and the folder reader keeps its confinement.
#include <gtest/gtest.h>
#include <gltf_anim/io/resource_reader.hpp>
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/validator/validate.hpp>

#include <sys/stat.h>

#include <sstream>

#include "validator/load_test_util.hpp"

namespace {

namespace io = gltf_anim::io;
namespace v = gltf_anim::validator;
using namespace load_test;

// One animated node; the buffer holds 3 times (0, 1, 0.5: not increasing, so
// the data checks have something to say) and 3 translations.
Bytes animation_bin() {
  Bytes b = le<float>({0.0f, 1.0f, 0.5f});
  const Bytes values = le<float>({0, 0, 0, 1, 2, 3, 4, 5, 6});
  b.insert(b.end(), values.begin(), values.end());
  return b;
}

std::string animation_gltf(const std::string& uri, std::size_t byte_length) {
  return R"({"asset":{"version":"2.0"},"nodes":[{}],"scenes":[{"nodes":[0]}],"scene":0,
"buffers":[{"uri":")" +
         uri + R"(","byteLength":)" + std::to_string(byte_length) + R"(}],
"bufferViews":[{"buffer":0,"byteLength":12},{"buffer":0,"byteOffset":12,"byteLength":36}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"SCALAR","min":[0],"max":[1]},
             {"bufferView":1,"componentType":5126,"count":3,"type":"VEC3"}],
"animations":[{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}],
               "samplers":[{"input":0,"output":1}]}]})";
}

std::string json_of(const v::ValidationReport& report) {
  std::ostringstream out;
  gltf_anim::reports::write_validation_json(out, std::span(&report, 1));
  return out.str();
}

struct Pair {
  v::ValidationReport disk;
  v::ValidationReport memory;
};

// Writes `files` into a scratch folder and into a MemoryReader, then validates
// "scene.gltf" both ways under the same report uri.
Pair validate_both(const std::string& name, const std::vector<std::pair<std::string, Bytes>>& files,
                   v::ValidateOptions options = {}) {
  const fs::path dir = scratch("resource_reader_" + name);
  io::MemoryReader memory;
  Bytes gltf;
  for (const auto& [file, bytes] : files) {
    write_file(dir / file, bytes);
    memory.add(file, bytes);
    if (file == "scene.gltf") gltf = bytes;
  }
  Pair p;
  p.disk = v::validate_file(dir / "scene.gltf", options);
  options.load.resources = &memory;
  p.memory = v::validate_bytes(gltf, (dir / "scene.gltf").string(), {}, options);
  return p;
}

std::vector<std::string> codes_of(const v::ValidationReport& r) {
  std::vector<std::string> out;
  for (const auto& i : r.issues) out.emplace_back(i.code);
  return out;
}

TEST(ResourceReader, AGltfWithItsBinInMemoryValidatesAsOnDisk) {
  const Bytes bin = animation_bin();
  const Pair p = validate_both(
      "valid", {{"scene.gltf", bytes_of(animation_gltf("scene.bin", 48))}, {"scene.bin", bin}});
  // The data was read (the resource carries its 48 bytes) and checked.
  ASSERT_TRUE(p.disk.info);
  ASSERT_EQ(p.disk.info->resources.size(), 1u);
  EXPECT_EQ(p.disk.info->resources[0].byte_length, std::optional<std::uint64_t>(48));
  EXPECT_FALSE(p.disk.issues.empty());
  EXPECT_EQ(json_of(p.memory), json_of(p.disk));
}

TEST(ResourceReader, RefusalsReadTheSameFromMemoryAndDisk) {
  const Bytes bin = animation_bin();
  // Absent: IO_ERROR with the system's words for a missing file.
  const Pair missing = validate_both(
      "missing", {{"scene.gltf", bytes_of(animation_gltf("other.bin", 48))}, {"scene.bin", bin}});
  EXPECT_EQ(codes_of(missing.disk)[0], "IO_ERROR");
  EXPECT_EQ(json_of(missing.memory), json_of(missing.disk));
  // Larger than the limit: FILE_TOO_LARGE with both sizes, nothing read.
  v::ValidateOptions small;
  small.load.max_file_bytes = 2000;
  const Bytes big(4000, 7);
  const Pair too_large = validate_both(
      "too_large", {{"scene.gltf", bytes_of(animation_gltf("big.bin", 4000))}, {"big.bin", big}},
      small);
  ASSERT_FALSE(too_large.disk.issues.empty());
  EXPECT_EQ(too_large.disk.issues[0].code, "FILE_TOO_LARGE");
  EXPECT_EQ(json_of(too_large.memory), json_of(too_large.disk));
  // Shorter than byteLength, and a percent-encoded name: the same checks run on the bytes.
  const Pair short_bin = validate_both(
      "short",
      {{"scene.gltf", bytes_of(animation_gltf("my%20scene.bin", 64))}, {"my scene.bin", bin}});
  EXPECT_EQ(codes_of(short_bin.disk)[0], "BUFFER_BYTE_LENGTH_MISMATCH");
  EXPECT_EQ(json_of(short_bin.memory), json_of(short_bin.disk));
}

TEST(ResourceReader, MemoryReaderNames) {
  io::MemoryReader m;
  m.add("a/b.bin", bytes_of("abc"));
  // Lexically normal names find the same bytes.
  for (const char* name : {"a/b.bin", "a/./b.bin", "a/c/../b.bin"}) {
    const io::ReadResult r = m.read(name, 10);
    ASSERT_EQ(r.failure, io::ReadResult::Failure::kNone) << name;
    EXPECT_EQ(Bytes(r.storage->bytes().begin(), r.storage->bytes().end()), bytes_of("abc"));
    EXPECT_FALSE(r.identity);
  }
  for (const char* name : {"../b.bin", "a/../../b.bin", "/a/b.bin"}) {
    EXPECT_EQ(m.read(name, 10).failure, io::ReadResult::Failure::kOutsideRoot) << name;
  }
  const io::ReadResult absent = m.read("a/x.bin", 10);
  EXPECT_EQ(absent.failure, io::ReadResult::Failure::kOpen);
  EXPECT_EQ(absent.detail, "No such file or directory");
  const io::ReadResult large = m.read("a/b.bin", 2);
  EXPECT_EQ(large.failure, io::ReadResult::Failure::kTooLarge);
  EXPECT_EQ(large.size, 3u);
  EXPECT_EQ(large.storage, nullptr);
}

TEST(ResourceReader, ReadFileConfinedSaysWhy) {
  io::MemoryReader m;
  m.add("s.json", bytes_of("{}"));
  std::string why;
  EXPECT_EQ(io::read_file_confined(m, "s.json", 10, why), std::optional<std::string>("{}"));
  EXPECT_FALSE(io::read_file_confined(m, "../s.json", 10, why));
  EXPECT_EQ(why,
            "not a relative path inside (in-memory resources) (absolute, empty or with \"..\")");
  EXPECT_FALSE(io::read_file_confined(m, "s.json", 1, why));
  EXPECT_EQ(why, "file is 2 bytes, more than the limit of 1");
  EXPECT_FALSE(io::read_file_confined(m, "t.json", 10, why));
  EXPECT_EQ(why, "cannot read: No such file or directory");
}

TEST(ResourceReader, FolderReaderKeepsItsConfinement) {
  const fs::path dir = scratch("folder_reader");
  fs::create_directories(dir / "root" / "sub");
  write_file(dir / "outside.bin", bytes_of("secret"));
  write_file(dir / "root" / "in.bin", bytes_of("12345"));
  fs::create_symlink(dir / "outside.bin", dir / "root" / "link.bin");
  ASSERT_EQ(::mkfifo((dir / "root" / "pipe.bin").c_str(), 0600), 0);
  const auto watched = io::file_identity(dir / "root" / "in.bin");
  io::InputFiles inputs(watched);
  const io::FolderReader reader(dir / "root" / "sub", dir / "root", &inputs);

  // "../in.bin" from sub/ is still inside the root: read, and recorded.
  const io::ReadResult in = reader.read("../in.bin", 100);
  ASSERT_EQ(in.failure, io::ReadResult::Failure::kNone);
  EXPECT_EQ(in.storage->bytes().size(), 5u);
  EXPECT_EQ(in.identity, watched);
  ASSERT_TRUE(inputs.clash());
  EXPECT_EQ(fs::path(*inputs.clash()).filename(), "in.bin");
  // Out through "..", and through a symlink: refused, naming the root.
  const io::ReadResult up = reader.read("../../outside.bin", 100);
  EXPECT_EQ(up.failure, io::ReadResult::Failure::kOutsideRoot);
  EXPECT_EQ(up.detail, fs::canonical(dir / "root").string());
  EXPECT_EQ(reader.read("../link.bin", 100).failure, io::ReadResult::Failure::kOutsideRoot);
  // A FIFO is refused at once (no writer: a blocking open would hang here).
  const io::ReadResult pipe = reader.read("../pipe.bin", 100);
  EXPECT_EQ(pipe.failure, io::ReadResult::Failure::kNotRegular);
  EXPECT_EQ(pipe.detail, "Is a FIFO (named pipe), not a regular file");
  // Above the limit: refused with the size, before reading.
  const io::ReadResult large = reader.read("../in.bin", 4);
  EXPECT_EQ(large.failure, io::ReadResult::Failure::kTooLarge);
  EXPECT_EQ(large.size, 5u);
  EXPECT_EQ(large.storage, nullptr);
  EXPECT_EQ(reader.where(), (dir / "root").string());
}

}  // namespace

// What the samples and manifest readers say: a syntax error with its line and
// column (code points, counted by hand here) and the mistake named, in memory
// and when streamed from a file; a file that cannot be read with the
// system's reason.
#include "scratch.hpp"
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/samples/samples.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using gltf_anim::samples::SamplesFormatError;

fs::path scratch(const std::string& name) {
  const fs::path dir = gltf_anim_test::scratch_root() / "read_messages" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

template <typename F>
SamplesFormatError error_of(F&& read) {
  try {
    read();
  } catch (const SamplesFormatError& e) {
    return e;
  }
  ADD_FAILURE() << "no SamplesFormatError";
  return SamplesFormatError("", "", "");
}

// `{"asset": "é",\n}`: the '}' after the comma is column 1 of line 2.
constexpr std::string_view kTrailingComma = "{\"asset\": \"\xC3\xA9\",\n}";
// `{"asset":"a", // x`: the comment starts at column 15 (the é counts once).
constexpr std::string_view kComment = "{\"asset\":\"\xC3\xA9\", // x\n}";

TEST(ReadMessages, SamplesSyntaxErrorsNameTheMistakeWithLineAndColumn) {
  const auto e = error_of([] { gltf_anim::samples::read_samples_json(kTrailingComma, {}, "s.json"); });
  EXPECT_EQ(e.location(), "line 2, column 1");
  EXPECT_EQ(e.message(),
            "invalid JSON: Trailing comma before '}': JSON allows no comma after the last member of an object.");
  const auto c = error_of([] { gltf_anim::samples::read_samples_json(kComment, {}, "s.json"); });
  EXPECT_EQ(c.location(), "line 1, column 15");
  EXPECT_EQ(c.message(), "invalid JSON: Comments ('//' or '/* */') are not allowed in JSON.");
}

TEST(ReadMessages, StreamedSamplesFileGivesTheSameWords) {
  const fs::path dir = scratch("stream");
  std::ofstream(dir / "a.samples.json", std::ios::binary) << kComment;
  const auto c = error_of([&] { gltf_anim::samples::read_samples_file(dir / "a.samples.json"); });
  EXPECT_EQ(c.location(), "line 1, column 15");
  EXPECT_EQ(c.message(), "invalid JSON: Comments ('//' or '/* */') are not allowed in JSON.");
  // A byte order mark is accepted and not counted as a column.
  std::ofstream(dir / "b.samples.json", std::ios::binary) << "\xEF\xBB\xBF" << kTrailingComma;
  const auto t = error_of([&] { gltf_anim::samples::read_samples_file(dir / "b.samples.json"); });
  EXPECT_EQ(t.location(), "line 2, column 1");
}

TEST(ReadMessages, UnreadableSamplesAndManifestSayWhy) {
  const fs::path dir = scratch("io");
  fs::create_directory(dir / "folder.samples.json");
  fs::create_directory(dir / "manifest.json");
  EXPECT_EQ(error_of([&] { gltf_anim::samples::read_samples_file(dir / "missing.samples.json"); }).message(),
            "cannot read: No such file or directory");
  EXPECT_EQ(error_of([&] { gltf_anim::samples::read_samples_file(dir / "folder.samples.json"); }).message(),
            "cannot read: Is a directory");
  EXPECT_NE(error_of([&] { gltf_anim::compare::read_manifest(dir / "missing.json"); })
                .message()
                .find("No such file or directory"),
            std::string::npos);
  EXPECT_NE(error_of([&] { gltf_anim::compare::read_manifest(dir / "manifest.json"); })
                .message()
                .find("Is a directory"),
            std::string::npos);
}

// A lone low surrogate escape decodes to bytes that are not UTF-8: the manifest
// is refused (as the loader and the samples reader refuse it), not repaired
// into a tolerance key or note that differs from what was written. The
// position is where RapidJSON stops: just after the string's closing quote,
// byte 28 of the line below, so column 29.
TEST(ReadMessages, ManifestWithALoneSurrogateEscapeIsRefused) {
  const fs::path dir = scratch("surrogate");
  std::ofstream(dir / "manifest.json", std::ios::binary) << R"({"assets": [], "x": "\udc00"})";
  const auto e = error_of([&] { gltf_anim::compare::read_manifest(dir / "manifest.json"); });
  EXPECT_EQ(e.location(), "line 1, column 29");
  EXPECT_EQ(e.message(), "string is not valid UTF-8 (an unpaired UTF-16 surrogate escape)");
  // In a key as well.
  std::ofstream(dir / "manifest.json", std::ios::binary) << R"({"assets": [], "\udfff": 1})";
  EXPECT_EQ(error_of([&] { gltf_anim::compare::read_manifest(dir / "manifest.json"); }).message(),
            "string is not valid UTF-8 (an unpaired UTF-16 surrogate escape)");
  // A well-formed pair is text like any other.
  std::ofstream(dir / "manifest.json", std::ios::binary) << R"({"assets": [], "x": "\ud83d\ude00"})";
  EXPECT_NO_THROW(gltf_anim::compare::read_manifest(dir / "manifest.json"));
}

}  // namespace

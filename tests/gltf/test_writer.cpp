// The faithful writer: write(load(a)) == a byte for byte on every committed
// asset (and the real corpus when it is there), an edit of one value changes
// only that value's bytes (checked with rapidjson's own DOM and pointers, a
// second method), and GLB chunks with lengths and padding counted by hand.
#include "optional_data.hpp"
#include <gltf_anim/gltf/writer.hpp>
#include <gltf_anim/gltf/load.hpp>
#include <gltf_anim/validator/validate.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/pointer.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using gltf_anim::gltf::apply_splices;
using gltf_anim::gltf::Splice;
using gltf_anim::gltf::splices_for;
using gltf_anim::gltf::ValueEdit;
using gltf_anim::gltf::write_glb;
using Bytes = std::vector<std::uint8_t>;

Bytes bytes_of(std::string_view s) { return Bytes(s.begin(), s.end()); }

void put32(Bytes& out, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) out.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
}

TEST(Writer, SplicesReplaceOnlyTheirBytes) {
  std::string why;
  const std::vector<Splice> splices = {{1, 2, "xyz"}, {4, 4, "+"}};
  EXPECT_EQ(apply_splices("abcdef", splices, why), "axyzcd+ef");
  EXPECT_EQ(apply_splices("abcdef", {}, why), "abcdef");
  const std::vector<Splice> overlapping = {{1, 3, "x"}, {2, 4, "y"}};
  EXPECT_FALSE(apply_splices("abcdef", overlapping, why));
  EXPECT_NE(why.find("overlap"), std::string::npos);
  const std::vector<Splice> outside = {{5, 9, "x"}};
  EXPECT_FALSE(apply_splices("abcdef", outside, why));
}

TEST(Writer, EditsAreLocatedAndKeepEverythingElse) {
  // Odd spacing, an unknown extension and extras before and after the edits.
  const std::string text =
      "{ \"asset\" :{\"version\":\"2.0\",\"extras\":{\"k\":[1,2]}},\n"
      "  \"extensions\": {\"EXT_unknown\": {\"z\": 1e0}}, \"nodes\":[{\"translation\":[0,0,0]}]}";
  std::string why;
  const std::vector<ValueEdit> edits = {
      {"/nodes/0/translation/1", "2.5"}, {"/asset/version", "\"2.0\""}, {"/asset/extras/k", "[]"}};
  const auto splices = splices_for(text, edits, why);
  ASSERT_TRUE(splices) << why;
  const auto out = apply_splices(text, *splices, why);
  ASSERT_TRUE(out) << why;
  EXPECT_EQ(*out,
            "{ \"asset\" :{\"version\":\"2.0\",\"extras\":{\"k\":[]}},\n"
            "  \"extensions\": {\"EXT_unknown\": {\"z\": 1e0}}, "
            "\"nodes\":[{\"translation\":[0,2.5,0]}]}");
  const std::vector<ValueEdit> missing = {{"/nodes/1", "{}"}};
  EXPECT_FALSE(splices_for(text, missing, why));
  EXPECT_NE(why.find("/nodes/1"), std::string::npos);
  const std::vector<ValueEdit> nested = {{"/asset", "{}"}, {"/asset/version", "\"1\""}};
  EXPECT_FALSE(splices_for(text, nested, why));
}

// header (12) + JSON chunk header (8) + `{"a":1}` padded to 8 + BIN chunk
// header (8) + 4 bytes + an unknown chunk "XTRA" of 4 bytes.
Bytes hand_glb() {
  Bytes f;
  put32(f, 0x46546C67);
  put32(f, 2);
  put32(f, 12 + 8 + 8 + 8 + 4 + 8 + 4);  // 52
  put32(f, 8);
  put32(f, 0x4E4F534A);
  for (char c : std::string("{\"a\":1} ")) f.push_back(static_cast<std::uint8_t>(c));
  put32(f, 4);
  put32(f, 0x004E4942);
  put32(f, 0x04030201);
  put32(f, 4);
  put32(f, 0x41525458);
  put32(f, 0xDDCCBBAA);
  return f;
}

TEST(Writer, GlbKeepsWhatItDoesNotReplace) {
  const Bytes file = hand_glb();
  ASSERT_EQ(file.size(), 52u);
  std::string why;
  const auto same = write_glb(file, "{\"a\":1} ", std::nullopt, why);
  ASSERT_TRUE(same) << why;
  EXPECT_EQ(*same, file);
  // A 9-byte JSON is padded with 3 spaces to 12: the file grows by 4 to 56;
  // the BIN chunk and the unknown one follow unchanged.
  const auto longer = write_glb(file, "{\"a\":10} ", std::nullopt, why);
  ASSERT_TRUE(longer) << why;
  ASSERT_EQ(longer->size(), 56u);
  EXPECT_EQ((*longer)[8], 56);
  EXPECT_EQ((*longer)[12], 12);
  EXPECT_EQ(std::string(longer->begin() + 20, longer->begin() + 32), "{\"a\":10}    ");
  EXPECT_TRUE(std::equal(longer->begin() + 32, longer->end(), file.begin() + 28));
  // A new BIN of 5 bytes is padded with 3 zeros to 8.
  const Bytes bin = {9, 8, 7, 6, 5};
  const auto rebinned = write_glb(file, "{\"a\":1} ", std::span<const std::uint8_t>(bin), why);
  ASSERT_TRUE(rebinned) << why;
  ASSERT_EQ(rebinned->size(), 56u);
  EXPECT_EQ((*rebinned)[28], 8);
  EXPECT_EQ(Bytes(rebinned->begin() + 36, rebinned->begin() + 44), (Bytes{9, 8, 7, 6, 5, 0, 0, 0}));
  EXPECT_TRUE(std::equal(rebinned->begin() + 44, rebinned->end(), file.begin() + 40));
  EXPECT_FALSE(write_glb(bytes_of("{}"), "{}", std::nullopt, why));
}

// Every .gltf and .glb below `root`, sorted.
std::vector<fs::path> assets_under(const fs::path& root) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    const auto ext = e.path().extension();
    if (e.is_regular_file() && (ext == ".gltf" || ext == ".glb")) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The written bytes of an asset loaded with no edit.
std::optional<Bytes> write_unchanged(const gltf_anim::gltf::LoadedAsset& asset, std::string& why) {
  if (asset.mime_type == gltf_anim::gltf::MimeType::kGltfBinary) {
    return write_glb(asset.file_bytes, asset.json_text, std::nullopt, why);
  }
  const auto text = apply_splices(asset.json_text, {}, why);
  if (!text) return std::nullopt;
  return bytes_of(*text);
}

// Loads every asset under `root`; each one with a document must write back as
// its own bytes, and an edit of asset.version must change only that value.
void round_trip_all(const fs::path& root, std::size_t at_least) {
  std::size_t written = 0;
  for (const fs::path& path : assets_under(root)) {
    SCOPED_TRACE(path.string());
    gltf_anim::gltf::IssueCollector issues;
    gltf_anim::gltf::LoadOptions options;
    options.load_buffers = false;
    const auto asset = gltf_anim::gltf::load_file(path, options, issues);
    if (!asset.document) continue;  // nothing a writer could start from
    std::string why;
    const auto out = write_unchanged(asset, why);
    ASSERT_TRUE(out) << why;
    EXPECT_TRUE(*out == Bytes(asset.file_bytes.begin(), asset.file_bytes.end()));
    ++written;

    // One value changed: rapidjson reads the new text as the old document
    // with that value replaced, and nothing else differs.
    gltf_anim::json::Document before;
    before.Parse(asset.json_text.data(), asset.json_text.size());
    if (before.HasParseError() || !gltf_anim::json::Pointer("/asset/version").Get(before)) continue;
    const std::vector<ValueEdit> edit = {{"/asset/version", "\"edited\""}};
    const auto splices = splices_for(asset.json_text, edit, why);
    ASSERT_TRUE(splices) << why;
    const auto text = apply_splices(asset.json_text, *splices, why);
    ASSERT_TRUE(text) << why;
    gltf_anim::json::Document after;
    after.Parse(text->data(), text->size());
    ASSERT_FALSE(after.HasParseError());
    gltf_anim::json::Pointer("/asset/version").Set(before, "edited");
    EXPECT_TRUE(before == after);
    // Outside the value's bytes, the text is the old one.
    const Splice& s = splices->front();
    EXPECT_EQ(text->substr(0, s.begin), asset.json_text.substr(0, s.begin));
    EXPECT_EQ(text->substr(s.begin + s.text.size()), asset.json_text.substr(s.end));
  }
  EXPECT_GE(written, at_least);
}

TEST(Writer, EveryCommittedAssetWritesBackByteForByte) {
  round_trip_all(fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets", 150);
}

// The corpus of exporters' assets (../shared/corpus beside the checkout): registered
// only where it exists (tests/optional_data.hpp), so it never passes having read nothing.
const bool kCorpusWritesBack = gltf_anim::test::register_if_exists(
    "Writer", "EveryCorpusAssetWritesBackByteForByte",
    fs::path(GLTF_ANIM_SOURCE_DIR) / "../shared/corpus",
    [] { round_trip_all(fs::path(GLTF_ANIM_SOURCE_DIR) / "../shared/corpus", 1); }, __FILE__,
    __LINE__);

TEST(Writer, ValidationIsTheSameAfterANoOpWrite) {
  // The written bytes validate as the file did (same codes at the same
  // pointers and places), for the GLB and some .gltf of the suite.
  const fs::path root = fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets";
  std::size_t checked = 0;
  for (const fs::path& path : assets_under(root)) {
    if (checked >= 40 && path.extension() != ".glb") continue;
    SCOPED_TRACE(path.string());
    gltf_anim::gltf::IssueCollector issues;
    const auto asset = gltf_anim::gltf::load_file(path, {}, issues);
    if (!asset.document) continue;
    std::string why;
    const auto out = write_unchanged(asset, why);
    ASSERT_TRUE(out) << why;
    const auto original = gltf_anim::validator::validate_file(path, {});
    const auto rewritten =
        gltf_anim::validator::validate_bytes(*out, path.string(), path.parent_path(), {});
    ASSERT_EQ(original.issues.size(), rewritten.issues.size());
    for (std::size_t k = 0; k < original.issues.size(); ++k) {
      EXPECT_EQ(original.issues[k].code, rewritten.issues[k].code);
      EXPECT_EQ(original.issues[k].pointer, rewritten.issues[k].pointer);
      EXPECT_EQ(original.issues[k].message, rewritten.issues[k].message);
      EXPECT_EQ(original.issues[k].position.has_value(), rewritten.issues[k].position.has_value());
    }
    ++checked;
  }
  EXPECT_GE(checked, 40u);
}

}  // namespace

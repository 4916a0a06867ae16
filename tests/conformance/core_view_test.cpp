// The core-only view of the suite: each manifest entry's "extensions" are the
// extensions its asset uses (read here from the asset itself), except where
// an allowed variant is what a client without them plays; `compare
// --extensions none` excludes exactly the cases needing one.
#include <gtest/gtest.h>
#include <gltf_anim/gltf/json.hpp>
#include <rapidjson/document.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "conformance_test_util.hpp"

namespace gltf_anim::suite::test {
namespace {

namespace fs = std::filesystem;

// extensionsUsed of a .gltf, or of a .glb's JSON chunk (after the 12-byte
// header and the chunk's 8-byte header), sorted.
std::vector<std::string> extensions_used(const fs::path& asset) {
  std::string text = read_file(asset);
  if (asset.extension() == ".glb") {
    std::uint32_t length = 0;
    std::memcpy(&length, text.data() + 12, 4);
    text = text.substr(20, length);
  }
  gltf_anim::json::Document doc;
  doc.Parse(text.c_str(), text.size());
  EXPECT_FALSE(doc.HasParseError()) << asset;
  std::vector<std::string> out;
  if (doc.IsObject() && doc.HasMember("extensionsUsed")) {
    for (const auto& e : doc["extensionsUsed"].GetArray()) out.emplace_back(e.GetString());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(CoreView, ManifestExtensionsAreWhatEachAssetUses) {
  gltf_anim::json::Document m;
  const std::string text = read_file(suite_dir() / "manifest.json");
  m.Parse(text.c_str(), text.size());
  ASSERT_FALSE(m.HasParseError());
  for (const auto& e : m["assets"].GetArray()) {
    const std::string id = e["id"].GetString();
    ASSERT_TRUE(e.HasMember("extensions")) << id;
    std::vector<std::string> listed;
    for (const auto& x : e["extensions"].GetArray()) listed.emplace_back(x.GetString());
    std::vector<std::string> expected = extensions_used(suite_dir() / e["file"].GetString());
    // EXT_animation_sqlerp with a LINEAR fallback: a client without it plays
    // the fallback, the variant "no-extensions".
    if (e.HasMember("variants") && e["variants"].HasMember("no-extensions")) expected.clear();
    EXPECT_EQ(listed, expected) << id;
  }
}

// The golden samples compared with themselves as a core-only engine: the
// cases whose assets use an extension (and have no core variant) are
// excluded, the others pass.
TEST(CoreView, CompareExtensionsNoneExcludesTheExtensionCases) {
  gltf_anim::json::Document m;
  const std::string text = read_file(suite_dir() / "manifest.json");
  m.Parse(text.c_str(), text.size());
  ASSERT_FALSE(m.HasParseError());
  std::size_t excluded = 0, compared = 0;
  std::set<std::string> excluded_ids;
  for (const auto& e : m["assets"].GetArray()) {
    const bool core_variant = e.HasMember("variants") && e["variants"].HasMember("no-extensions");
    if (!extensions_used(suite_dir() / e["file"].GetString()).empty() && !core_variant) {
      ++excluded;
      excluded_ids.insert(e["id"].GetString());
    } else {
      ++compared;
    }
  }
  ASSERT_GT(excluded, 0u);
  ASSERT_GT(compared, 0u);
  const fs::path out = scratch("core_view") / "report.json";
  const int code =
      run_cli("compare --golden '" + suite_dir().string() + "' --actual '" +
                  (suite_dir() / "valid").string() + "' --extensions none --format json",
              out);
  EXPECT_EQ(code, 0) << read_file(out.string() + ".err");
  gltf_anim::json::Document r;
  const std::string report = read_file(out);
  r.Parse(report.c_str(), report.size());
  ASSERT_FALSE(r.HasParseError()) << report;
  EXPECT_EQ(r["summary"]["excluded"].GetUint64(), excluded);
  EXPECT_EQ(r["summary"]["passed"].GetUint64(), compared);
  EXPECT_EQ(r["summary"]["failed"].GetUint64(), 0u);
  for (const auto& c : r["cases"].GetArray()) {
    EXPECT_EQ(std::string(c["outcome"].GetString()) == "excluded",
              excluded_ids.count(c["id"].GetString()) == 1)
        << c["id"].GetString();
  }
}

}  // namespace
}  // namespace gltf_anim::suite::test

// generate --from on memory (suite::generate_from_assets): assets loaded from bytes, the
// files they name through a reader that counts what it is asked for, no file opened. The
// expected values are derived by hand from the asset built here (Appendix C.3: the linear
// midpoint; §3.11: the last key held after the end).
#include <gltf_anim/gltf/issue_collector.hpp>
#include <gltf_anim/gltf/load.hpp>
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/io/resource_reader.hpp>
#include <gltf_anim/samples/samples.hpp>
#include <gltf_anim/suite/gltf_builder.hpp>
#include <gltf_anim/suite/suite.hpp>

#include <gtest/gtest.h>

#include "counting_reader.hpp"

#include <map>
#include <mutex>
#include <string>
#include <vector>

using namespace gltf_anim;

namespace {

using gltf_anim::test_support::CountingReader;

// One node, translation LINEAR: (0,0,0) at 0 s, (2,0,0) at 1 s; with an external .bin, and an
// image "skin.png" that the reader does not hold.
std::vector<suite::OutputFile> moving_asset() {
  suite::GltfBuilder b;
  const int node = b.add_node(suite::Json::object({{"name", "mover"}}));
  const int anim = b.add_animation("move");
  const int input = b.accessor_float({0.0f, 1.0f}, "SCALAR", true);
  const int output = b.accessor_float({0, 0, 0, 2, 0, 0}, "VEC3", false);
  b.add_core_channel(anim, b.add_sampler(anim, input, output, "LINEAR"), node, "translation");
  suite::Json images = suite::Json::array();
  images.push(suite::Json::object({{"uri", "skin.png"}}));
  b.root().set("images", std::move(images));
  return b.finish("mover", suite::Container::kExternalBin);
}

std::vector<double> value_at(const samples::SamplesFile& f, double t) {
  for (const auto& a : f.animations) {
    for (const auto& c : a.channels) {
      for (std::size_t i = 0; i < c.size(); ++i) {
        if (c.times[i] == t) {
          const auto v = c.value(i);
          return {v.begin(), v.end()};
        }
      }
    }
  }
  return {};
}

}  // namespace

TEST(GenerateFromMemory, ASuiteOfLoadedAssetsWithNoFileOpened) {
  CountingReader reader;
  std::vector<std::uint8_t> gltf_bytes, bin_bytes;
  for (auto& f : moving_asset()) {
    if (f.name == "mover.gltf") gltf_bytes = f.bytes;
    else if (f.name == "mover.bin") bin_bytes = f.bytes;
  }
  ASSERT_FALSE(gltf_bytes.empty());
  ASSERT_FALSE(bin_bytes.empty());
  reader.add("mover.bin", bin_bytes);

  gltf::IssueCollector issues;
  gltf::LoadOptions options;
  options.resources = &reader;
  const gltf::LoadedAsset mover = gltf::load_bytes(gltf_bytes, "mover.gltf", {}, options, issues);
  gltf::IssueCollector still_issues;
  const std::string still_text = R"({"asset":{"version":"2.0"}})";
  const gltf::LoadedAsset still = gltf::load_bytes(
      std::span(reinterpret_cast<const std::uint8_t*>(still_text.data()), still_text.size()),
      "still.gltf", {}, {}, still_issues);

  std::vector<suite::FromAsset> assets(2);
  assets[0].asset = &mover;
  assets[0].load_issues = &issues.issues();
  assets[0].resources = &reader;
  assets[0].path = "scenes/mover.gltf";
  assets[1].asset = &still;
  assets[1].path = "still.gltf";
  const suite::FromSuiteFiles s = suite::generate_from_assets(assets);

  EXPECT_EQ(s.result.written, 1u);
  ASSERT_EQ(s.result.skipped.size(), 1u);
  EXPECT_EQ(s.result.skipped[0], "still.gltf: no animation channel to play");
  // The image the reader does not hold is a note, not copied; the case is written.
  ASSERT_EQ(s.result.notes.size(), 1u);
  EXPECT_NE(s.result.notes[0].find("scenes/mover.gltf: /images/0 (skin.png) is not copied"),
            std::string::npos)
      << s.result.notes[0];

  ASSERT_EQ(s.cases.size(), 1u);
  const suite::FromCase& c = s.cases[0];
  EXPECT_EQ(c.id, "mover");
  EXPECT_EQ(c.copy, "mover.gltf");
  EXPECT_EQ(std::vector<std::uint8_t>(c.asset_bytes.begin(), c.asset_bytes.end()), gltf_bytes);
  ASSERT_EQ(c.named.size(), 1u);
  EXPECT_EQ(c.named[0].first, "mover.bin");
  const auto copied = c.named[0].second->bytes();
  EXPECT_EQ(std::vector<std::uint8_t>(copied.begin(), copied.end()), bin_bytes);

  // Golden samples: the midpoint of the segment, and the last key held after the end.
  ASSERT_FALSE(c.texts.empty());
  EXPECT_EQ(c.texts[0].first, "mover.samples.json");
  const samples::SamplesFile golden = samples::read_samples_json(c.texts[0].second, {}, "golden");
  EXPECT_EQ(golden.asset, "mover.gltf");
  EXPECT_EQ(value_at(golden, 0.5), (std::vector<double>{1, 0, 0}));
  EXPECT_EQ(value_at(golden, 1.5), (std::vector<double>{2, 0, 0}));

  // The manifest names the case where the shell writes it.
  const compare::Manifest manifest = compare::parse_manifest(s.manifest, "manifest.json");
  ASSERT_EQ(manifest.entries.size(), 1u);
  EXPECT_EQ(manifest.entries[0].id, "mover");
  EXPECT_EQ(manifest.entries[0].file, "valid/mover/mover.gltf");
  EXPECT_EQ(manifest.entries[0].samples, "valid/mover.samples.json");

  // Only the files the asset names were asked for: the .bin by the loader and again for the
  // copy (a MemoryReader hands the same bytes), the image once.
  const std::map<std::string, int> expected{{"mover.bin", 2}, {"skin.png", 1}};
  EXPECT_EQ(reader.reads(), expected);
}

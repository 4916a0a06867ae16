// Editable tracks and handing them back: a time accessor shared with a
// sampler the edit does not change stays as it was (the edited sampler gets a
// new accessor), one shared by samplers all edited alike is rewritten once;
// and every committed asset written back with no edit is its own bytes.
#include <gltf_anim/gltf/edit.hpp>
#include <gltf_anim/repair/tool.hpp>
#include <gltf_anim/gltf/animation_model.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/pointer.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "edit_test_util.hpp"

namespace {

using namespace edit_test;
namespace fs = std::filesystem;
namespace repair = gltf_anim::repair;
using gltf_anim::gltf::Edit;
using gltf_anim::gltf::OutputNames;

struct Loaded {
  gltf_anim::gltf::LoadedAsset asset;
  gltf_anim::gltf::model::AnimationModel model;
  std::vector<repair::EditableTrack> tracks;
};

Loaded open_anim() {
  const Bytes buffer = anim_buffer();
  Loaded l{load(bytes_of(anim_json(data_uri(buffer), buffer.size()))), {}, {}};
  l.model = gltf_anim::gltf::model::build_animation_model(l.asset);
  l.tracks = repair::editable_tracks(l.asset, l.model);
  return l;
}

TEST(EditTracks, ChannelsAreDecodedWithTheirKindAndWidth) {
  const Loaded l = open_anim();
  ASSERT_EQ(l.tracks.size(), 2u);
  EXPECT_EQ(l.tracks[0].target, "/nodes/0/translation");
  EXPECT_EQ(l.tracks[0].components, 3u);
  EXPECT_EQ(l.tracks[0].kind, gltf_anim::reference::ValueKind::kVector);
  EXPECT_EQ(l.tracks[1].kind, gltf_anim::reference::ValueKind::kRotation);
  EXPECT_EQ(l.tracks[1].components, 4u);
  EXPECT_EQ(l.tracks[1].times, (std::vector<double>{0, 1, 2}));
  EXPECT_EQ(l.tracks[1].sampler_pointer, "/animations/0/samplers/1");
  EXPECT_EQ(l.tracks[0].interpolation, "LINEAR");
}

TEST(EditTracks, ASharedTimeAccessorIsNotChangedForOneSampler) {
  const Loaded l = open_anim();
  std::vector<repair::EditableTrack> after = l.tracks;
  after[0].times = {0, 1, 4};
  Edit edit(repair::edit_source(l.asset));
  std::string why;
  ASSERT_TRUE(repair::write_tracks(edit, repair::accessor_uses(l.asset), l.tracks, after, why))
      << why;
  const auto out = edit.build(OutputNames{"out", {}}, why);
  ASSERT_TRUE(out) << why;
  const auto again = load(out->main);
  gltf_anim::json::Document d;
  d.Parse(std::string(again.json_text).c_str());
  EXPECT_EQ(read(again, 0), (std::vector<double>{0, 1, 2}));  // sampler 1's, untouched
  EXPECT_EQ(gltf_anim::json::Pointer("/animations/0/samplers/1/input").Get(d)->GetUint(), 0u);
  const unsigned input =
      gltf_anim::json::Pointer("/animations/0/samplers/0/input").Get(d)->GetUint();
  EXPECT_EQ(input, 3u);
  EXPECT_EQ(read(again, input), (std::vector<double>{0, 1, 4}));
  EXPECT_EQ(read(again, 1), (std::vector<double>{0, 10, 20, 1, 11, 21, 2, 12, 22}));
}

TEST(EditTracks, ASharedTimeAccessorEditedAlikeIsRewrittenOnce) {
  const Loaded l = open_anim();
  std::vector<repair::EditableTrack> after = l.tracks;
  after[0].times = {0, 1, 4};
  after[1].times = {0, 1, 4};
  after[1].interpolation = "STEP";
  Edit edit(repair::edit_source(l.asset));
  std::string why;
  ASSERT_TRUE(repair::write_tracks(edit, repair::accessor_uses(l.asset), l.tracks, after, why))
      << why;
  EXPECT_EQ(edit.accessor_count(), 3u);  // no new accessor
  const auto out = edit.build(OutputNames{"out", {}}, why);
  ASSERT_TRUE(out) << why;
  const auto again = load(out->main);
  gltf_anim::json::Document d;
  d.Parse(std::string(again.json_text).c_str());
  EXPECT_EQ(read(again, 0), (std::vector<double>{0, 1, 4}));
  EXPECT_EQ(gltf_anim::json::Pointer("/animations/0/samplers/1/interpolation").Get(d)->GetString(),
            std::string("STEP"));
  EXPECT_EQ(gltf_anim::json::Pointer("/accessors/0/max/0").Get(d)->GetDouble(), 4.0);
  // Two channels of one sampler edited differently are refused.
  std::vector<repair::EditableTrack> twice = {l.tracks[0], l.tracks[0]};
  std::vector<repair::EditableTrack> differ = twice;
  differ[1].values[0] = 99;
  Edit other(repair::edit_source(l.asset));
  EXPECT_FALSE(repair::write_tracks(other, repair::accessor_uses(l.asset), twice, differ, why));
}

TEST(EditTracks, EveryCommittedAssetWrittenBackUneditedIsItsOwnBytes) {
  std::size_t checked = 0;
  for (const auto& entry :
       fs::recursive_directory_iterator(GLTF_ANIM_SOURCE_DIR "/conformance_assets")) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".gltf" && ext != ".glb")) continue;
    std::ifstream file(entry.path(), std::ios::binary);
    const Bytes bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    gltf_anim::gltf::IssueCollector issues;
    const auto asset = gltf_anim::gltf::load_file(entry.path(), {}, issues);
    if (asset.file_bytes.empty() || !asset.document) continue;  // not JSON: nothing to edit
    const Edit edit(repair::edit_source(asset));
    std::string why;
    const auto out = edit.build(OutputNames{"out", {}}, why);
    ASSERT_TRUE(out) << entry.path() << ": " << why;
    EXPECT_EQ(out->main, bytes) << entry.path();
    EXPECT_TRUE(out->buffers.empty()) << entry.path();
    ++checked;
  }
  EXPECT_GT(checked, 200u);
}

}  // namespace

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
  EXPECT_EQ(l.tracks[0].keys.components, 3u);
  EXPECT_EQ(l.tracks[0].keys.kind, gltf_anim::reference::ValueKind::kVector);
  EXPECT_EQ(l.tracks[1].keys.kind, gltf_anim::reference::ValueKind::kRotation);
  EXPECT_EQ(l.tracks[1].keys.components, 4u);
  EXPECT_EQ(l.tracks[1].keys.times, (std::vector<double>{0, 1, 2}));
  EXPECT_EQ(l.tracks[1].sampler_pointer, "/animations/0/samplers/1");
  EXPECT_EQ(l.tracks[0].interpolation, "LINEAR");
}

// Channels of one sampler whose targets read it alike are one track: the first channel's,
// the others listed in `shared` (decoded once, edited once). Sampler 0 (VEC3) animates node
// 0's translation, node 1's translation and node 0's scale; sampler 1 the rotations of
// nodes 0 and 1.
TEST(EditTracks, ChannelsOfOneSamplerShareItsTrack) {
  const Bytes buffer = anim_buffer();
  std::string json = anim_json(data_uri(buffer), buffer.size());
  const std::string nodes = "\"nodes\":[{\"name\":\"n\"}]";
  json.replace(json.find(nodes), nodes.size(), "\"nodes\":[{\"name\":\"n\"},{\"name\":\"m\"}]");
  const std::string more =
      ",{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}},"
      "{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"scale\"}},"
      "{\"sampler\":1,\"target\":{\"node\":1,\"path\":\"rotation\"}}";
  json.insert(json.find("],\"samplers\""), more);
  Loaded l{load(bytes_of(json)), {}, {}};
  l.model = gltf_anim::gltf::model::build_animation_model(l.asset);
  l.tracks = repair::editable_tracks(l.asset, l.model);
  ASSERT_EQ(l.tracks.size(), 2u);
  EXPECT_EQ(l.tracks[0].channel_pointer, "/animations/0/channels/0");
  ASSERT_EQ(l.tracks[0].shared.size(), 2u);
  EXPECT_EQ(l.tracks[0].shared[0].channel_pointer, "/animations/0/channels/2");
  EXPECT_EQ(l.tracks[0].shared[0].target, "/nodes/1/translation");
  EXPECT_EQ(l.tracks[0].shared[1].channel, 3u);
  EXPECT_EQ(l.tracks[0].shared[1].target, "/nodes/0/scale");
  ASSERT_EQ(l.tracks[1].shared.size(), 1u);
  EXPECT_EQ(l.tracks[1].shared[0].target, "/nodes/1/rotation");
  // The report lists every channel, the track's first.
  std::vector<repair::ChannelSummary> summaries;
  repair::ChannelSummary s;
  s.channel = l.tracks[0].channel_pointer;
  s.target = l.tracks[0].target;
  repair::add_summaries(summaries, l.tracks[0], s);
  ASSERT_EQ(summaries.size(), 3u);
  EXPECT_EQ(summaries[0].channel, "/animations/0/channels/0");
  EXPECT_EQ(summaries[2].target, "/nodes/0/scale");
}

TEST(EditTracks, ASharedTimeAccessorIsNotChangedForOneSampler) {
  const Loaded l = open_anim();
  std::vector<repair::EditableTrack> after = l.tracks;
  after[0].keys.times = {0, 1, 4};
  Edit edit(repair::edit_source(l.asset));
  std::string why;
  ASSERT_TRUE(repair::write_tracks(edit, repair::accessor_uses(l.asset, l.model), l.tracks, after, why))
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

// A tool that reads the tracks one sampler group at a time gets them without keys, decodes
// each when it reaches it and drops the keys once done: write_tracks reads what
// release_keys recorded of the difference. The same edit as above (sampler 0's times to
// 0, 1, 4; sampler 1 left as it was) gives the same output.
TEST(EditTracks, TracksReleasedOneAtATimeAreWrittenBackAsHeldOnes) {
  Loaded l = open_anim();
  ASSERT_TRUE(repair::editable_tracks(l.asset, l.model).size() == 2u);
  l.tracks = repair::editable_tracks(l.asset, l.model, nullptr, nullptr, /*keep_keys=*/false);
  ASSERT_EQ(l.tracks.size(), 2u);
  for (const repair::EditableTrack& t : l.tracks) {
    EXPECT_FALSE(t.keys_held);
    EXPECT_TRUE(t.keys.times.empty());
    EXPECT_EQ(t.key_count, 3u);
  }
  std::vector<repair::EditableTrack> edited(1);
  std::vector<const repair::EditableTrack*> after(2);
  for (std::size_t k = 0; k < 2; ++k) {
    ASSERT_TRUE(repair::decode_keys(l.asset, l.tracks[k]));
    EXPECT_EQ(l.tracks[k].keys.times, (std::vector<double>{0, 1, 2}));
    if (k == 0) {
      EXPECT_EQ(l.tracks[0].keys.values, (std::vector<double>{0, 10, 20, 1, 11, 21, 2, 12, 22}));
      edited[0] = l.tracks[0];
      edited[0].keys.times = {0, 1, 4};
      after[0] = &edited[0];
    } else {
      after[1] = &l.tracks[1];
    }
    repair::release_keys(l.tracks[k], after[k]);
    EXPECT_TRUE(l.tracks[k].keys.times.empty());
  }
  ASSERT_TRUE(l.tracks[0].released.has_value());
  EXPECT_TRUE(l.tracks[0].released->times_changed);
  EXPECT_FALSE(l.tracks[0].released->values_changed);
  Edit edit(repair::edit_source(l.asset));
  std::string why;
  ASSERT_TRUE(repair::write_tracks(edit, repair::accessor_uses(l.asset, l.model), l.tracks,
                                   after, why))
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
  after[0].keys.times = {0, 1, 4};
  after[1].keys.times = {0, 1, 4};
  after[1].interpolation = "STEP";
  Edit edit(repair::edit_source(l.asset));
  std::string why;
  ASSERT_TRUE(repair::write_tracks(edit, repair::accessor_uses(l.asset, l.model), l.tracks, after, why))
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
  differ[1].keys.values[0] = 99;
  Edit other(repair::edit_source(l.asset));
  EXPECT_FALSE(repair::write_tracks(other, repair::accessor_uses(l.asset, l.model), twice, differ, why));
}

// Three samplers, each with a time accessor of its own holding the same times [0, 1, 2,
// 3]: accessor 0 at bytes 16-31, 1 at 32-47, 2 at 0-15; translations 3, 4, 5 (4 VEC3 each)
// at 48-191.
Loaded open_three() {
  Bytes b;
  for (int k = 0; k < 3; ++k) put_floats(b, {0, 1, 2, 3});
  for (int s = 0; s < 3; ++s)
    for (int k = 0; k < 4; ++k) put_floats(b, {float(s), float(k), 0});
  std::string json =
      "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{},{},{}],\"buffers\":[{\"uri\":\"" +
      data_uri(b) + "\",\"byteLength\":192}],\"bufferViews\":[";
  for (int v : {16, 32, 0, 48, 96, 144}) {
    json += (v == 16 ? "" : ",") + std::string("{\"buffer\":0,\"byteOffset\":") +
            std::to_string(v) + ",\"byteLength\":" + (v < 48 ? "16" : "48") + "}";
  }
  json += "],\"accessors\":[";
  for (int a = 0; a < 6; ++a) {
    json += (a == 0 ? "" : ",") + std::string("{\"bufferView\":") + std::to_string(a) +
            ",\"componentType\":5126,\"count\":4," +
            (a < 3 ? "\"type\":\"SCALAR\",\"min\":[0],\"max\":[3]}" : "\"type\":\"VEC3\"}");
  }
  json += "],\"animations\":[{\"channels\":[";
  for (int s = 0; s < 3; ++s) {
    json += (s == 0 ? "" : ",") + std::string("{\"sampler\":") + std::to_string(s) +
            ",\"target\":{\"node\":" + std::to_string(s) + ",\"path\":\"translation\"}}";
  }
  json +=
      "],\"samplers\":[{\"input\":0,\"output\":3},{\"input\":1,\"output\":4},"
      "{\"input\":2,\"output\":5}]}]}";
  Loaded l{load(bytes_of(json)), {}, {}};
  l.model = gltf_anim::gltf::model::build_animation_model(l.asset);
  l.tracks = repair::editable_tracks(l.asset, l.model);
  return l;
}

unsigned input_of(const gltf_anim::json::Document& d, int sampler) {
  const std::string at = "/animations/0/samplers/" + std::to_string(sampler) + "/input";
  return gltf_anim::json::Pointer(at.c_str()).Get(d)->GetUint();
}

TEST(EditTracks, EqualTimeAccessorsAreMergedAndTheOthersBytesDropped) {
  const Loaded l = open_three();
  ASSERT_EQ(l.tracks.size(), 3u);
  std::vector<repair::AccessorUse> uses = repair::accessor_uses(l.asset, l.model);
  uses[2].elsewhere = true;  // as if a mesh read accessor 2: it is never merged
  std::string why;
  {  // Not asked: nothing changes.
    Edit edit(repair::edit_source(l.asset));
    ASSERT_TRUE(repair::write_tracks(edit, uses, l.tracks, l.tracks, why)) << why;
    EXPECT_TRUE(edit.empty());
  }
  Edit edit(repair::edit_source(l.asset));
  ASSERT_TRUE(
      repair::write_tracks(edit, uses, l.tracks, l.tracks, why, repair::EqualAccessors::kMerge))
      << why;
  EXPECT_EQ(edit.accessor_count(), 6u);  // none added
  const auto out = edit.build(OutputNames{"out", {}}, why);
  ASSERT_TRUE(out) << why;
  const auto again = load(out->main);
  gltf_anim::json::Document d;
  d.Parse(std::string(again.json_text).c_str());
  // Samplers 0 and 1 name accessor 0; sampler 2 keeps the accessor a mesh reads.
  EXPECT_EQ(input_of(d, 0), 0u);
  EXPECT_EQ(input_of(d, 1), 0u);
  EXPECT_EQ(input_of(d, 2), 2u);
  for (std::size_t a : {0u, 1u, 2u}) EXPECT_EQ(read(again, a), (std::vector<double>{0, 1, 2, 3}));
  EXPECT_EQ(read(again, 4), (std::vector<double>{1, 0, 0, 1, 1, 0, 1, 2, 0, 1, 3, 0}));
  // Bytes: accessor 2's times (16), the three outputs (144) and accessor 0's times once
  // more (16; accessor 1 reads the same bytes): 176 of 192.
  EXPECT_EQ(gltf_anim::json::Pointer("/buffers/0/byteLength").Get(d)->GetUint(), 176u);
  EXPECT_EQ(gltf_anim::json::Pointer("/accessors/1/bufferView").Get(d)->GetUint(),
            gltf_anim::json::Pointer("/accessors/0/bufferView").Get(d)->GetUint());
}

TEST(EditTracks, EqualReducedTimesShareOneAccessorAndOtherContentIsNotChanged) {
  const Loaded l = open_three();
  std::vector<repair::AccessorUse> uses = repair::accessor_uses(l.asset, l.model);
  uses[2].elsewhere = true;
  std::vector<repair::EditableTrack> after = l.tracks;
  for (std::size_t k = 0; k < 3; ++k) {
    after[k].keys.times = {0, 3};
    after[k].keys.values = {double(k), 0, 0, double(k), 3, 0};
  }
  Edit edit(repair::edit_source(l.asset));
  std::string why;
  ASSERT_TRUE(
      repair::write_tracks(edit, uses, l.tracks, after, why, repair::EqualAccessors::kMerge))
      << why;
  EXPECT_EQ(edit.accessor_count(), 6u);  // sampler 2's new times are accessor 0's
  const auto out = edit.build(OutputNames{"out", {}}, why);
  ASSERT_TRUE(out) << why;
  const auto again = load(out->main);
  gltf_anim::json::Document d;
  d.Parse(std::string(again.json_text).c_str());
  for (int s = 0; s < 3; ++s) EXPECT_EQ(input_of(d, s), 0u) << s;
  EXPECT_EQ(read(again, 0), (std::vector<double>{0, 3}));
  EXPECT_EQ(read(again, 2), (std::vector<double>{0, 1, 2, 3}));  // the mesh's, as it was
  EXPECT_EQ(read(again, 5), (std::vector<double>{2, 0, 0, 2, 3, 0}));
  // Accessor 2 (16), times {0, 3} once (8) and three outputs of 2 VEC3 (72), each new
  // bufferView 4-aligned: 96.
  EXPECT_EQ(gltf_anim::json::Pointer("/buffers/0/byteLength").Get(d)->GetUint(), 96u);
  // Without merging, sampler 2 gets a time accessor of its own.
  Edit keep(repair::edit_source(l.asset));
  ASSERT_TRUE(repair::write_tracks(keep, uses, l.tracks, after, why)) << why;
  EXPECT_EQ(keep.accessor_count(), 7u);
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

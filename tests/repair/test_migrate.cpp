// migrate_channels: the text it writes (checked against hand-written expectations), every
// byte it does not change kept, and `sample` equal before and after (every channel, the
// same times) on hand-made assets and every committed conformance asset using either
// extension, whose validation may not get worse.
#include "scratch.hpp"
#include <gltf_anim/gltf/edit.hpp>
#include <gltf_anim/repair/migrate.hpp>
#include <gltf_anim/repair/tool.hpp>
#include <gltf_anim/sampler/sample.hpp>
#include <gltf_anim/gltf/animation_model.hpp>
#include <gltf_anim/gltf/load.hpp>
#include <gltf_anim/validator/validate.hpp>

#include <gtest/gtest.h>

#include "cli/cli_process.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using gltf_anim::repair::migrate_channels;
using gltf_anim::repair::Migration;
using gltf_anim::repair::PointerExtension;

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

struct Migrated {
  Migration plan;
  std::string json;
};

// Loads the asset, migrates it in an edit session and builds the output's text.
Migrated migrate(const fs::path& path, PointerExtension to) {
  gltf_anim::gltf::IssueCollector issues;
  const gltf_anim::gltf::LoadedAsset asset =
      gltf_anim::gltf::load_file(path, gltf_anim::gltf::LoadOptions{}, issues);
  const auto model = gltf_anim::gltf::model::build_animation_model(asset);
  gltf_anim::gltf::Edit edit(gltf_anim::repair::edit_source(asset));
  Migrated m{migrate_channels(asset, model, to, edit), ""};
  std::string why;
  const auto out = edit.build({path.stem().string(), [](std::string_view) { return false; }}, why);
  EXPECT_TRUE(out.has_value()) << why;
  if (out) m.json.assign(out->main.begin(), out->main.end());
  return m;
}

void expect_same_samples(const fs::path& before, const fs::path& after) {
  const auto a = gltf_anim::sampler::sample_asset(before);
  const auto b = gltf_anim::sampler::sample_asset(after);
  ASSERT_EQ(a.animations.size(), b.animations.size()) << after;
  for (std::size_t i = 0; i < a.animations.size(); ++i) {
    const auto& ca = a.animations[i].channels;
    const auto& cb = b.animations[i].channels;
    ASSERT_EQ(ca.size(), cb.size()) << after;
    for (std::size_t c = 0; c < ca.size(); ++c) {
      EXPECT_EQ(ca[c].index, cb[c].index);
      EXPECT_EQ(ca[c].target, cb[c].target) << after;
      EXPECT_EQ(ca[c].times, cb[c].times) << after << " channel " << c;
      EXPECT_EQ(ca[c].values, cb[c].values) << after << " channel " << c;
    }
  }
}

std::size_t errors(const fs::path& p) {
  return gltf_anim::validator::validate_file(p, {}).count(gltf_anim::gltf::Severity::kError);
}

fs::path tmp(const std::string& name) { return gltf_anim_test::scratch_root() / "migrate" / name; }

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

const fs::path kValid = fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets" / "valid";

// The draft's own form (no leading '/', SLERP) becomes KHR_animation_pointer: the
// targetpointer member goes (with its comma), the target member is added at the end of the
// channel (as the edit session adds members: no blanks), the interpolation and the
// extension's name are replaced; every other byte as it was (the expectation is the input
// with exactly those replacements, written out here by hand).
TEST(Migrate, Animation2SlerpBecomesAPointerChannelWithLinear) {
  const fs::path in = kValid / "animation2_slerp.gltf";
  const Migrated m = migrate(in, PointerExtension::kAnimationPointer);
  std::string expected = read(in);
  expected = replaced(
      expected, ",\n          \"targetpointer\": \"nodes/0/rotation\"",
      R"(,"target":{"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "/nodes/0/rotation"}}})");
  expected = replaced(expected, R"("interpolation": "SLERP")", R"("interpolation": "LINEAR")");
  expected = replaced(expected, R"("extensionsUsed": ["KHR_animation2"])",
                      R"("extensionsUsed": ["KHR_animation_pointer"])");
  EXPECT_EQ(m.json, expected);
  ASSERT_EQ(m.plan.channels.size(), 1u);
  EXPECT_TRUE(m.plan.channels[0].migrated);
  EXPECT_EQ(m.plan.channels[0].channel, "/animations/0/channels/0");
  EXPECT_EQ(m.plan.channels[0].target, "/nodes/0/rotation");
  EXPECT_NE(m.plan.channels[0].change.find("sampler 0 SLERP -> LINEAR"), std::string::npos);
  const fs::path out = tmp("animation2_slerp.gltf");
  write(out, m.json);
  expect_same_samples(in, out);
  EXPECT_EQ(errors(out), 0u);
}

// And back: the pointer channel becomes a targetpointer, LINEAR on a quaternion SLERP.
TEST(Migrate, PointerRotationBecomesAnAnimation2SlerpChannel) {
  const fs::path in = kValid / "animation2_slerp.gltf";
  const fs::path mid = tmp("animation2_slerp_pointer.gltf");
  write(mid, migrate(in, PointerExtension::kAnimationPointer).json);
  const Migrated back = migrate(mid, PointerExtension::kAnimation2);
  ASSERT_EQ(back.plan.migrated(), 1u);
  // The round trip gives the input with the leading '/' the draft's example lacks.
  EXPECT_EQ(back.json, replaced(read(in), ",\n          \"targetpointer\": \"nodes/0/rotation\"",
                                ",\"targetpointer\":\"/nodes/0/rotation\""));
}

// A LINEAR sampler shared with a core channel cannot become SLERP (the core channel would
// break): the pointer channel stays, says why, and nothing is written.
TEST(Migrate, ASamplerSharedWithAChannelThatStaysIsNotChanged) {
  const fs::path in = kValid / "animation2_slerp.gltf";
  std::string text = migrate(in, PointerExtension::kAnimationPointer).json;
  text = replaced(text, R"("channels": [{)",
                  R"("channels": [{"sampler": 0, "target": {"node": 0, "path": "rotation"}}, {)");
  const fs::path mid = tmp("shared_sampler.gltf");
  write(mid, text);
  const Migrated m = migrate(mid, PointerExtension::kAnimation2);
  ASSERT_EQ(m.plan.channels.size(), 1u);
  EXPECT_FALSE(m.plan.channels[0].migrated);
  EXPECT_EQ(m.plan.channels[0].channel, "/animations/0/channels/1");
  EXPECT_NE(m.plan.channels[0].why.find("sampler 0 is also used"), std::string::npos)
      << m.plan.channels[0].why;
  EXPECT_EQ(m.json, text);
}

// A hand-made asset: a whole-vector channel migrates, a one-component channel cannot
// (KHR_animation_pointer has no component pointers), so KHR_animation2 stays listed
// beside the new extension, and extensionsRequired, which had it, gains the new one too.
TEST(Migrate, AComponentPointerStaysAndKeepsItsExtension) {
  std::string text = read(kValid / "animation2_linear_vec3.gltf");
  // A third channel: one component of the node's scale, driven by the input times.
  text = replaced(text, R"("targetpointer": "/materials/0/pbrMetallicRoughness/baseColorFactor"
        }],)",
                  R"("targetpointer": "/materials/0/pbrMetallicRoughness/baseColorFactor"
        }, {"sampler": 2, "targetpointer": "/nodes/0/scale/1", "extras": {"keep": [1, 2]}}],)");
  text = replaced(text, R"("output": 4
        }])",
                  R"("output": 4
        }, {"input": 3, "output": 3}])");
  text =
      replaced(text, R"("extensionsUsed": ["KHR_animation2"])",
               R"("extensionsUsed": ["KHR_animation2"], "extensionsRequired": ["KHR_animation2"])");
  const fs::path in = tmp("component_in.gltf");
  write(in, text);
  const Migrated m = migrate(in, PointerExtension::kAnimationPointer);
  ASSERT_EQ(m.plan.channels.size(), 3u);
  EXPECT_TRUE(m.plan.channels[0].migrated);
  EXPECT_TRUE(m.plan.channels[1].migrated);
  EXPECT_FALSE(m.plan.channels[2].migrated);
  EXPECT_NE(m.plan.channels[2].why.find("one component"), std::string::npos)
      << m.plan.channels[2].why;
  std::string expected = replaced(
      text, ",\n          \"targetpointer\": \"/nodes/0/translation\"",
      R"(,"target":{"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "/nodes/0/translation"}}})");
  expected = replaced(
      expected,
      ",\n          \"targetpointer\": \"/materials/0/pbrMetallicRoughness/baseColorFactor\"",
      R"(,"target":{"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": "/materials/0/pbrMetallicRoughness/baseColorFactor"}}})");
  expected = replaced(
      expected, R"("extensionsUsed": ["KHR_animation2"], "extensionsRequired": ["KHR_animation2"])",
      R"("extensionsUsed": ["KHR_animation2","KHR_animation_pointer"], "extensionsRequired": ["KHR_animation2","KHR_animation_pointer"])");
  EXPECT_EQ(m.json, expected);
  const fs::path out = tmp("component_out.gltf");
  write(out, m.json);
  expect_same_samples(in, out);
  EXPECT_LE(errors(out), errors(in));
}

// The whole extension goes: a required KHR_animation2 becomes a required
// KHR_animation_pointer, and a list that had both loses the old name with its comma.
TEST(Migrate, ExtensionListsLoseTheOldNameWhenNoUseRemains) {
  std::string text = read(kValid / "animation2_linear_vec3.gltf");
  text = replaced(text, R"("extensionsUsed": ["KHR_animation2"])",
                  R"("extensionsRequired": ["KHR_animation2"],
  "extensionsUsed": ["KHR_animation_pointer", "KHR_animation2"])");
  const fs::path in = tmp("required_in.gltf");
  write(in, text);
  const Migrated m = migrate(in, PointerExtension::kAnimationPointer);
  ASSERT_EQ(m.plan.migrated(), 2u);
  EXPECT_NE(m.json.find(R"("extensionsRequired": ["KHR_animation_pointer"],
  "extensionsUsed": ["KHR_animation_pointer"])"),
            std::string::npos);
  EXPECT_EQ(m.json.find("KHR_animation2"), std::string::npos);
}

// Every committed valid conformance asset using either extension, to the other one:
// what migrates samples the same, the rest is left and said why, and validation gets no
// worse.
TEST(Migrate, EveryConformanceAssetSamplesTheSameMigrated) {
  std::size_t assets = 0, migrated = 0, kept = 0;
  for (const auto& entry : fs::directory_iterator(kValid)) {
    if (entry.path().extension() != ".gltf") continue;
    const std::string text = read(entry.path());
    const bool a2 = text.find("\"KHR_animation2\"") != std::string::npos;
    const bool ptr = text.find("\"KHR_animation_pointer\"") != std::string::npos;
    if (!a2 && !ptr) continue;
    ++assets;
    const PointerExtension to =
        a2 ? PointerExtension::kAnimationPointer : PointerExtension::kAnimation2;
    const Migrated m = migrate(entry.path(), to);
    for (const auto& c : m.plan.channels) {
      (c.migrated ? migrated : kept) += 1;
      if (!c.migrated) {
        EXPECT_FALSE(c.why.empty()) << entry.path() << c.channel;
        std::printf("%s %s: %s\n", entry.path().filename().c_str(), c.channel.c_str(),
                    c.why.c_str());
      }
    }
    // Relative buffer URIs: the output sits beside the input's copies.
    const fs::path out = tmp("conformance") / entry.path().filename();
    write(out, m.json);
    for (const auto& other : fs::directory_iterator(kValid)) {
      if (other.path().extension() == ".bin" &&
          !fs::exists(out.parent_path() / other.path().filename())) {
        fs::copy_file(other.path(), out.parent_path() / other.path().filename());
      }
    }
    expect_same_samples(entry.path(), out);
    EXPECT_LE(errors(out), errors(entry.path())) << entry.path();
  }
  EXPECT_GE(assets, 20u);
  EXPECT_GT(migrated, 20u);
  std::printf("%zu assets: %zu channels migrated, %zu kept with a reason\n", assets, migrated,
              kept);
}

// The command: writes what the library writes, refuses a bad --to before touching
// anything, and with --dry-run reports (JSON) and writes nothing.
TEST(MigrateCli, WritesTheMigratedAssetAndRefusesABadTarget) {
  const fs::path scratch = tmp("cli");
  fs::create_directories(scratch);
  const fs::path in = scratch / "in.gltf";
  fs::copy_file(kValid / "animation2_slerp.gltf", in, fs::copy_options::overwrite_existing);
  const fs::path out = scratch / "out.gltf";
  fs::remove(out);
  const auto bad = cli_process::run(
      {"migrate", in.string(), "-o", out.string(), "--to", "khr_animation3"}, scratch);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_FALSE(fs::exists(out));
  const auto dry = cli_process::run(
      {"migrate", in.string(), "--dry-run", "--format", "json", "--to", "khr_animation_pointer"},
      scratch);
  EXPECT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_NE(dry.out.find("\"dryRun\":true"), std::string::npos) << dry.out;
  EXPECT_NE(dry.out.find("migrated: targetpointer"), std::string::npos) << dry.out;
  EXPECT_FALSE(fs::exists(out));
  const auto ok = cli_process::run(
      {"migrate", in.string(), "-o", out.string(), "--to", "khr_animation_pointer"}, scratch);
  ASSERT_EQ(ok.exit_code, 0) << ok.err << ok.out;
  EXPECT_EQ(read(out), migrate(in, PointerExtension::kAnimationPointer).json);
  expect_same_samples(in, out);
}

}  // namespace

// gltf-anim generate --from on hostile and awkward inputs: every file is read through the
// loader and io/'s bounded readers (no recursion on nested JSON, no blocking on a FIFO, no
// read of a folder or of a file above the limit), a file an animation does not need is a
// note and the suite is still built, nothing that is not UTF-8 reaches the manifest, and a
// folder without assets is a usage error. The CLI runs as a child (tests/cli/cli_process.hpp)
// under a wall-clock kill, so a regression that blocks or crashes fails the test, never CI.
#include "cli/cli_process.hpp"
#include "sanitizers.hpp"
#include "scratch.hpp"

#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/samples/samples.hpp>
#include <gltf_anim/suite/gltf_builder.hpp>
#include <gltf_anim/suite/suite.hpp>
#include <gltf_anim/text/utf8.hpp>

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace gltf_anim;

namespace {

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& tag)
      : path(gltf_anim_test::scratch_root() /
             ("gltf_anim_fromh_" + tag + "_" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name())) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void write(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary | std::ios::trunc)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// One node, translation LINEAR 0 -> 2 over 1 s, buffers as data: URIs; `extra` JSON members
// (e.g. "images") spliced in after the opening brace.
std::string moving_asset(const std::string& extra = {}, bool named = true) {
  suite::GltfBuilder b;
  const int node = b.add_node(suite::Json::object({{"name", "mover"}}));
  const int anim = b.add_animation(named ? "move" : "");
  const int input = b.accessor_float({0.0f, 1.0f}, "SCALAR", true);
  const int output = b.accessor_float({0, 0, 0, 2, 0, 0}, "VEC3", false);
  b.add_core_channel(anim, b.add_sampler(anim, input, output, "LINEAR"), node, "translation");
  const auto files = b.finish("mover", suite::Container::kDataUri);
  std::string json(files.at(0).bytes.begin(), files.at(0).bytes.end());
  if (!named) json = std::regex_replace(json, std::regex("\"name\"\\s*:\\s*\"\"\\s*,?"), "");
  if (!extra.empty()) json.insert(json.find('{') + 1, extra + ",");
  return json;
}

const std::string kImage = R"("images":[{"uri":"textures/skin.png"}])";

cli_process::Run generate(const std::vector<std::string>& inputs, const fs::path& out,
                          const fs::path& scratch) {
  std::vector<std::string> argv{GLTF_ANIM_CLI, "generate", "--out", out.string(), "--from"};
  argv.insert(argv.end(), inputs.begin(), inputs.end());
  cli_process::Options o;
  o.kill_after = std::chrono::seconds(60);
  o.cpu_seconds = 60;
  return cli_process::run_program(argv, scratch, o);
}

std::string describe(const cli_process::Run& r) {
  return "exit " + std::to_string(r.exit_code) + " signal " + std::to_string(r.signal) +
         (r.killed ? " (killed: blocked)" : "") + "\nstderr: " + r.err;
}

}  // namespace

// 300,000 nested arrays: the loader's iterative parser with its depth limit refuses the file
// (as validate does); it is skipped with the reason and the other asset is still written.
TEST(GenerateFromHostile, DeeplyNestedJsonIsSkippedWithTheLoadersReasonNotACrash) {
  TempDir in("in"), out("out");
  write(in.path / "deep.gltf", std::string(300000, '[') + std::string(300000, ']'));
  write(in.path / "mover.gltf", moving_asset());
  const auto r = generate({in.path.string()}, out.path / "suite", out.path);
  ASSERT_TRUE(r.exited) << describe(r);
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("deep.gltf"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("INVALID_JSON"), std::string::npos) << r.err;
  const auto manifest = compare::read_manifest(out.path / "suite" / "manifest.json");
  ASSERT_EQ(manifest.entries.size(), 1u);
  EXPECT_EQ(manifest.entries[0].id, "mover");
}

// An image URI naming a FIFO: io/ opens it without blocking and refuses it (not a regular
// file); the animation needs no image, so the case is written with a note.
TEST(GenerateFromHostile, AnImageNamingAFifoIsANoteAndNeverBlocks) {
  TempDir in("in"), out("out");
  write(in.path / "mover.gltf", moving_asset(kImage));
  fs::create_directories(in.path / "textures");
  ASSERT_EQ(::mkfifo((in.path / "textures" / "skin.png").c_str(), 0600), 0);
  const auto r = generate({(in.path / "mover.gltf").string()}, out.path / "suite", out.path);
  ASSERT_TRUE(r.exited) << describe(r);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.err.find("textures/skin.png"), std::string::npos) << r.err;
  const auto manifest = compare::read_manifest(out.path / "suite" / "manifest.json");
  ASSERT_EQ(manifest.entries.size(), 1u);
  EXPECT_NE(manifest.entries[0].notes.find("textures/skin.png"), std::string::npos);
  EXPECT_FALSE(fs::exists(fs::symlink_status(out.path / "suite/valid/mover/textures/skin.png")));
}

// An image URI naming a folder: a note, the suite complete (the old copy ended the run with a
// libstdc++ message and no manifest).
TEST(GenerateFromHostile, AnImageNamingAFolderIsANoteAndTheSuiteIsComplete) {
  TempDir in("in"), out("out");
  write(in.path / "mover.gltf", moving_asset(kImage));
  fs::create_directories(in.path / "textures" / "skin.png");
  const auto r = generate({(in.path / "mover.gltf").string()}, out.path / "suite", out.path);
  ASSERT_TRUE(r.exited) << describe(r);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.err.find("filesystem error"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("textures/skin.png"), std::string::npos) << r.err;
  ASSERT_TRUE(fs::exists(out.path / "suite" / "manifest.json"));
  const auto manifest = compare::read_manifest(out.path / "suite" / "manifest.json");
  ASSERT_EQ(manifest.entries.size(), 1u);
  EXPECT_TRUE(fs::exists(out.path / "suite" / manifest.entries[0].samples));
}

// A 1.1 GB image (a sparse file: no disk used) is refused by its size before a byte is read:
// a note, the case written, and the command's memory stays far below the file's size.
TEST(GenerateFromHostile, AnImageAboveTheSizeLimitIsANoteAndIsNeverRead) {
  TempDir in("in"), out("out");
  write(in.path / "mover.gltf", moving_asset(kImage));
  fs::create_directories(in.path / "textures");
  fs::resize_file((write(in.path / "textures" / "skin.png", ""), in.path / "textures" / "skin.png"),
                  std::uintmax_t{1100} * 1000 * 1000);
  const auto r = generate({(in.path / "mover.gltf").string()}, out.path / "suite", out.path);
  ASSERT_TRUE(r.exited) << describe(r);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.err.find("textures/skin.png"), std::string::npos) << r.err;
  EXPECT_LT(r.max_rss_kib, 400L * 1024) << "the image was read";
  EXPECT_FALSE(fs::exists(out.path / "suite/valid/mover/textures/skin.png"));
  EXPECT_EQ(compare::read_manifest(out.path / "suite" / "manifest.json").entries.size(), 1u);
}

// A missing texture: an animation suite needs none. The case is written, the note says which
// file is missing (on stderr and in the manifest's notes), and the exit code is 0.
TEST(GenerateFromHostile, AMissingTextureIsANoteAndTheCaseIsWritten) {
  TempDir in("in"), out("out");
  write(in.path / "mover.gltf", moving_asset(kImage));
  const auto r = generate({(in.path / "mover.gltf").string()}, out.path / "suite", out.path);
  ASSERT_TRUE(r.exited) << describe(r);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.err.find("canonical"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("textures/skin.png"), std::string::npos) << r.err;
  const auto manifest = compare::read_manifest(out.path / "suite" / "manifest.json");
  ASSERT_EQ(manifest.entries.size(), 1u);
  EXPECT_NE(manifest.entries[0].notes.find("textures/skin.png"), std::string::npos)
      << manifest.entries[0].notes;
  EXPECT_EQ(read(out.path / "suite/valid/mover/mover.gltf"), read(in.path / "mover.gltf"));
}

// A folder without a .gltf or .glb: exit 2, as `validate DIR` exits, and nothing written.
TEST(GenerateFromHostile, AFolderWithoutAssetsIsAUsageError) {
  TempDir in("in"), out("out");
  write(in.path / "readme.txt", "no asset here");
  const auto r = generate({in.path.string()}, out.path / "suite", out.path);
  ASSERT_TRUE(r.exited) << describe(r);
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_NE(r.err.find("no .gltf or .glb file"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out.path / "suite" / "manifest.json"));
}

// A file name that is not UTF-8: the manifest stays UTF-8 (compare reads it) and names files
// that exist.
TEST(GenerateFromHostile, AFileNameThatIsNotUtf8KeepsTheManifestReadable) {
  TempDir in("in"), out("out");
  const fs::path odd = in.path / std::string("caf\xe9-\xff.gltf");
  write(odd, moving_asset());
  const auto r = generate({in.path.string()}, out.path / "suite", out.path);
  ASSERT_TRUE(r.exited) << describe(r);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  const std::string text = read(out.path / "suite" / "manifest.json");
  EXPECT_TRUE(text::is_valid_utf8(text));
  compare::Manifest manifest;
  ASSERT_NO_THROW(manifest = compare::read_manifest(out.path / "suite" / "manifest.json"));
  ASSERT_EQ(manifest.entries.size(), 1u);
  EXPECT_TRUE(fs::exists(out.path / "suite" / manifest.entries[0].file));
  const auto golden = samples::read_samples_file(out.path / "suite" / manifest.entries[0].samples);
  EXPECT_TRUE(text::is_valid_utf8(golden.asset));
  // The suite compares against itself.
  const auto report = compare::compare_paths(out.path / "suite",
                                             out.path / "suite" / manifest.entries[0].samples, {});
  ASSERT_EQ(report.cases.size(), 1u);
  EXPECT_TRUE(report.cases[0].passed()) << report.cases[0].problem;
}

// An animation without a name is named by its index, as compare and the reports name
// animations ("animation 0"), never "".
TEST(GenerateFromHostile, AnUnnamedAnimationIsNamedByItsIndex) {
  TempDir in("in"), out("out");
  write(in.path / "mover.gltf", moving_asset({}, /*named=*/false));
  ASSERT_EQ(read(in.path / "mover.gltf").find("\"move\""), std::string::npos);
  const auto r = generate({(in.path / "mover.gltf").string()}, out.path / "suite", out.path);
  ASSERT_TRUE(r.exited) << describe(r);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  const auto golden = samples::read_samples_file(out.path / "suite/valid/mover.samples.json");
  ASSERT_EQ(golden.animations.size(), 1u);
  EXPECT_EQ(golden.animations[0].name, "animation 0");
}

// Two channels of one animation on the same target (an asset validate reports): sample
// writes both, and compare refuses such golden samples ("duplicate target"). The asset is
// skipped with compare's reason, so the suite stays one compare reads (found by the
// fuzz_generate_from target on the first seed of this kind).
TEST(GenerateFromHostile, GoldenSamplesThatCompareWouldRefuseSkipTheAsset) {
  TempDir in("in"), out("out");
  const fs::path asset = fs::path(GLTF_ANIM_SOURCE_DIR) /
                         "conformance_assets/invalid/ext/KHR_animation2/duplicate_pointer.gltf";
  write(in.path / "twice.gltf", read(asset));
  write(in.path / "mover.gltf", moving_asset());
  const auto r = generate({in.path.string()}, out.path / "suite", out.path);
  ASSERT_TRUE(r.exited) << describe(r);
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("twice.gltf"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("duplicate target"), std::string::npos) << r.err;
  const auto manifest = compare::read_manifest(out.path / "suite" / "manifest.json");
  ASSERT_EQ(manifest.entries.size(), 1u);
  EXPECT_EQ(manifest.entries[0].id, "mover");
  for (const auto& e : manifest.entries) {
    EXPECT_NO_THROW(samples::read_samples_file(out.path / "suite" / e.samples)) << e.id;
  }
}

// A CUBICSPLINE rotation between opposite keys passes through a zero-length interpolant: the
// tolerance model's bound there is NaN, which no JSON holds. The whole run used to end at the
// manifest ("Json: non-finite number", exit 2, no manifest, after the case's files were
// written); now that asset is skipped with the reason and the others make the suite (found by
// the fuzz_generate_from target on the lint corpus' seed).
TEST(GenerateFromHostile, AnAssetWhoseToleranceIsNotFiniteIsSkippedNotTheRun) {
  TempDir in("in"), out("out");
  const fs::path asset = fs::path(GLTF_ANIM_SOURCE_DIR) /
                         "conformance_assets/invalid/lint/cubic_rotation_opposite_keys.gltf";
  write(in.path / "opposite.gltf", read(asset));
  write(in.path / "mover.gltf", moving_asset());
  const auto r = generate({in.path.string()}, out.path / "suite", out.path);
  ASSERT_TRUE(r.exited) << describe(r);
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("opposite.gltf"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("not finite"), std::string::npos) << r.err;
  const auto manifest = compare::read_manifest(out.path / "suite" / "manifest.json");
  ASSERT_EQ(manifest.entries.size(), 1u);
  EXPECT_EQ(manifest.entries[0].id, "mover");
  EXPECT_FALSE(fs::exists(out.path / "suite/valid/opposite"));
}

// A write that fails half-way through a case (a file size limit the texture exceeds): exit 2
// with the reason, no manifest, and none of that case's files left behind. The old copy wrote
// the asset first and its files after it, so the asset stayed without its texture.
TEST(GenerateFromHostile, AWriteThatFailsMidCaseLeavesNoneOfItsFilesAndNoManifest) {
  TempDir in("in"), out("out");
  write(in.path / "mover.gltf", moving_asset(kImage));
  fs::create_directories(in.path / "textures");
  write(in.path / "textures" / "skin.png", std::string(300 * 1024, 'x'));
  std::vector<std::string> argv{GLTF_ANIM_CLI, "generate",
                                "--out",       (out.path / "suite").string(),
                                "--from",      (in.path / "mover.gltf").string()};
  cli_process::Options o;
  o.kill_after = std::chrono::seconds(60);
  o.file_size_limit = 100 * 1024;
  const auto r = cli_process::run_program(argv, out.path, o);
  ASSERT_TRUE(r.exited) << describe(r);
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_NE(r.err.find("File too large"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out.path / "suite" / "manifest.json"));
  EXPECT_FALSE(fs::exists(out.path / "suite/valid/mover/mover.gltf"));
  EXPECT_FALSE(fs::exists(out.path / "suite/valid/mover.samples.json"));
  EXPECT_FALSE(fs::exists(out.path / "suite/valid/mover/textures/skin.png"));
}

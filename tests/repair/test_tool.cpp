// The repair tools' common pipeline on committed assets copied to a scratch
// folder: an unedited rewrite is the input's bytes, --dry-run writes nothing,
// an output that validates worse is refused naming the new codes, an input
// with errors stops unless --force, outputs never replace inputs, and the
// JSON report parses with its documented members.
#include "scratch.hpp"
#include <gltf_anim/repair/tool.hpp>
#include <gltf_anim/repair/tools.hpp>
#include <gltf_anim/gltf/json.hpp>

#include "tool_files.hpp"  // cli/: run_tool
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;
namespace repair = gltf_anim::repair;
namespace cli = gltf_anim::cli;

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// A fresh scratch folder with the external-buffer asset and its .bin.
fs::path scratch(const std::string& name) {
  const fs::path dir = gltf_anim_test::scratch_root() / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path valid = fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets/valid";
  fs::copy_file(valid / "container_external_bin.gltf", dir / "container_external_bin.gltf");
  fs::copy_file(valid / "container_external_bin.bin", dir / "container_external_bin.bin");
  return dir;
}

repair::Tool tool(std::function<bool(repair::ToolInput&, gltf_anim::gltf::Edit&)> body) {
  return repair::Tool{"test",
                      {},
                      [body](repair::ToolInput& in, gltf_anim::gltf::Edit& e, repair::ToolReport&,
                             std::string&) { return body(in, e); }};
}

TEST(Tool, AnUneditedRewriteIsTheInputsBytes) {
  const fs::path dir = scratch("unedited");
  repair::ToolOptions o;
  o.input = dir / "container_external_bin.gltf";
  o.output = dir / "out.gltf";
  const auto r = cli::run_tool(tool([](auto&, auto&) { return true; }), o);
  EXPECT_EQ(r.exit_code, 0) << r.message;
  EXPECT_TRUE(r.written);
  EXPECT_EQ(slurp(dir / "out.gltf"), slurp(o.input));
  EXPECT_FALSE(fs::exists(dir / "out.bin"));
}

TEST(Tool, DataEditsWriteANewBinBesideTheOutputAndDryRunWritesNothing) {
  const fs::path dir = scratch("data");
  repair::ToolOptions o;
  o.input = dir / "container_external_bin.gltf";
  o.output = dir / "out.gltf";
  o.dry_run = true;
  const auto edit_times = tool([](repair::ToolInput& in, gltf_anim::gltf::Edit& e) {
    std::string why;
    // Accessor 1: the times [0, ..., 3.5]; scaled by 2, still increasing.
    std::vector<double> times = in.tracks.at(0).keys.times;
    for (double& t : times) t *= 2;
    return e.overwrite_accessor(in.tracks.at(0).input, times, why);
  });
  auto r = cli::run_tool(edit_times, o);
  EXPECT_EQ(r.exit_code, 0) << r.message;
  EXPECT_FALSE(r.written);
  EXPECT_FALSE(fs::exists(dir / "out.gltf"));
  EXPECT_FALSE(fs::exists(dir / "out.bin"));
  o.dry_run = false;
  r = cli::run_tool(edit_times, o);
  EXPECT_EQ(r.exit_code, 0) << r.message;
  EXPECT_TRUE(fs::exists(dir / "out.bin"));
  EXPECT_NE(slurp(dir / "out.gltf").find("\"out.bin\""), std::string::npos);
  // The input's .bin is untouched.
  EXPECT_EQ(slurp(dir / "container_external_bin.bin"),
            slurp(fs::path(GLTF_ANIM_SOURCE_DIR) /
                  "conformance_assets/valid/container_external_bin.bin"));
  // Elsewhere than beside the input's buffers: an unchanged buffer goes with the output, a
  // copy of its bytes beside it (before, the output was refused: it named the input's .bin).
  fs::create_directories(dir / "sub");
  o.output = dir / "sub/out.gltf";
  r = cli::run_tool(tool([](auto&, gltf_anim::gltf::Edit& e) {
                         e.put_member("/asset", "generator", "\"x\"");
                         return true;
                       }),
                       o);
  EXPECT_EQ(r.exit_code, 0) << r.message;
  EXPECT_NE(slurp(dir / "sub/out.gltf").find("\"out.bin\""), std::string::npos);
  EXPECT_EQ(slurp(dir / "sub/out.bin"), slurp(dir / "container_external_bin.bin"));
  EXPECT_EQ(r.errors_after, r.errors_before);
}

TEST(Tool, AnOutputThatValidatesWorseIsRefusedWithTheNewCodes) {
  const fs::path dir = scratch("worse");
  repair::ToolOptions o;
  o.input = dir / "container_external_bin.gltf";
  o.output = dir / "out.gltf";
  const auto r = cli::run_tool(tool([](auto&, gltf_anim::gltf::Edit& e) {
                                    e.set("/accessors/1/count", "400");
                                    return true;
                                  }),
                                  o);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.message.find("ACCESSOR_TOO_LONG"), std::string::npos) << r.message;
  EXPECT_FALSE(fs::exists(dir / "out.gltf"));
}

TEST(Tool, InputsWithErrorsStopUnlessForcedAndInputsAreNeverOutputs) {
  const fs::path dir = scratch("errors");
  const fs::path bad =
      fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets/invalid/accessor/max_mismatch.gltf";
  fs::copy_file(bad, dir / "bad.gltf");
  repair::ToolOptions o;
  o.input = dir / "bad.gltf";
  o.output = dir / "out.gltf";
  const auto nothing = tool([](auto&, auto&) { return true; });
  auto r = cli::run_tool(nothing, o);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.message.find("ACCESSOR_MAX_MISMATCH"), std::string::npos) << r.message;
  o.force = true;
  r = cli::run_tool(nothing, o);
  EXPECT_EQ(r.exit_code, 0) << r.message;
  // The input as output, or its .bin, without --in-place: refused.
  o.input = dir / "container_external_bin.gltf";
  o.output = dir / "container_external_bin.bin";
  r = cli::run_tool(nothing, o);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(slurp(dir / "container_external_bin.bin"),
            slurp(fs::path(GLTF_ANIM_SOURCE_DIR) /
                  "conformance_assets/valid/container_external_bin.bin"));
  o.output.reset();
  o.in_place = true;
  r = cli::run_tool(nothing, o);
  EXPECT_EQ(r.exit_code, 0) << r.message;
}

TEST(Tool, TheJsonReportHasItsDocumentedMembers) {
  const fs::path dir = scratch("json");
  repair::ToolOptions o;
  o.input = dir / "container_external_bin.gltf";
  o.dry_run = true;
  auto r = cli::run_tool(tool([](auto&, auto&) { return true; }), o);
  r.channels.push_back({"/animations/0/channels/0",
                        "/nodes/0/translation",
                        "LINEAR",
                        "STEP",
                        4,
                        2,
                        64,
                        32,
                        0.5,
                        std::nullopt,
                        {"a \"note\""}});
  r.repairs.push_back({"ACCESSOR_MIN_MISMATCH", "/p", "did", "changes", false});
  std::ostringstream out;
  repair::write_report(r, repair::ReportFormat::kJson, out);
  gltf_anim::json::Document d;
  d.Parse(out.str().c_str());
  ASSERT_FALSE(d.HasParseError()) << out.str();
  for (const char* m : {"tool", "input", "output", "dryRun", "written", "exitCode", "message",
                        "bytesBefore", "bytesAfter", "errorsBefore", "errorsAfter", "newErrorCodes",
                        "repairs", "channels", "notes"}) {
    EXPECT_TRUE(d.HasMember(m)) << m;
  }
  EXPECT_TRUE(d["output"].IsNull());
  EXPECT_EQ(d["channels"][0]["keysAfter"].GetInt(), 2);
  EXPECT_EQ(d["channels"][0]["maxError"].GetDouble(), 0.5);
  EXPECT_TRUE(d["channels"][0]["maxAngle"].IsNull());
  EXPECT_EQ(d["repairs"][0]["fixed"].GetBool(), false);
  EXPECT_EQ(std::string(d["repairs"][0]["code"].GetString()), "ACCESSOR_MIN_MISMATCH");
  EXPECT_EQ(std::string(d["channels"][0]["notes"][0].GetString()), "a \"note\"");
}

}  // namespace

namespace {

std::vector<std::uint8_t> bytes_of(const fs::path& p) {
  const std::string s = slurp(p);
  return {s.begin(), s.end()};
}

std::string report_json(const repair::ToolReport& r) {
  std::ostringstream out;
  repair::write_report(r, repair::ReportFormat::kJson, out);
  return out.str();
}

}  // namespace

// A tool runs with no file: the asset's bytes and an io::MemoryReader for its buffer give
// the same files and the same report (but for the notes naming written files) as run_tool
// on disk.
TEST(Tool, EditAssetInMemoryGivesWhatRunToolWrites) {
  const fs::path dir = scratch("memory");
  const fs::path input = dir / "container_external_bin.gltf";
  gltf_anim::repair::ReduceOptions reduce;
  reduce.bounds = gltf_anim::repair::ReduceBounds::from_max_error(1.0, std::nullopt);
  gltf_anim::repair::FitToolOptions fit;
  fit.bound = {1e-2, 2e-2};
  const repair::Tool tools[] = {repair::fix_tool({}), repair::reduce_tool(reduce),
                                repair::fit_tool(fit),
                                repair::migrate_tool(repair::PointerExtension::kAnimation2)};
  for (const repair::Tool& t : tools) {
    SCOPED_TRACE(t.name);
    repair::ToolOptions o;
    o.input = input;
    o.output = dir / ("disk_" + t.name + ".gltf");
    o.force = true;
    repair::ToolReport on_disk = cli::run_tool(t, o);
    ASSERT_EQ(on_disk.exit_code, 0) << on_disk.message;

    const std::vector<std::uint8_t> bytes = bytes_of(input);
    gltf_anim::io::MemoryReader files;
    files.add("container_external_bin.bin", bytes_of(dir / "container_external_bin.bin"));
    repair::ToolAsset in;
    in.bytes = bytes;
    in.name = input.string();
    in.folder = dir.string();
    in.resources = &files;
    repair::ToolTarget target;
    target.name = o.output->string();
    target.file_name = o.output->filename().string();
    target.stem = o.output->stem().string();
    target.taken = [&](std::string_view name) {
      return name == "container_external_bin.bin" || name == target.file_name;
    };
    repair::EditOptions e;
    e.force = true;
    const repair::ToolRun run = repair::edit_asset(t, in, target, e);
    ASSERT_TRUE(run.output) << run.report.message;
    EXPECT_EQ(run.output->main, bytes_of(*o.output));
    for (const auto& [name, data] : run.output->buffers) EXPECT_EQ(data, bytes_of(dir / name));
    // run_tool adds "wrote <file>" for each buffer it wrote, and marks the report written.
    on_disk.notes.erase(
        std::remove_if(on_disk.notes.begin(), on_disk.notes.end(),
                       [](const std::string& n) { return n.rfind("wrote ", 0) == 0; }),
        on_disk.notes.end());
    on_disk.written = false;
    EXPECT_EQ(report_json(run.report), report_json(on_disk));
  }
}

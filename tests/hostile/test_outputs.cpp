// The output contract of every command (docs/RELIABILITY.md "Outputs and I/O
// failures"), run as processes:
//  - an output that is one of the command's inputs (by path, hard link or
//    symlink; the asset, an external buffer, a samples file, the manifest,
//    standard input) is refused with exit 2, naming both, and every input stays
//    byte-identical;
//  - a write that fails (RLIMIT_FSIZE with the default SIGXFSZ disposition,
//    /dev/full, standard output on /dev/full or on a pipe without reader) is
//    exit 2 with the reason, never a signal, and leaves the previous target untouched and no temporary behind;
//  - `generate` never writes through a symlink planted in its output folder;
//  - folder mode follows no symlink, and an empty, asset-less or unreadable
//    folder is exit 2.
#include "scratch.hpp"
#include <gtest/gtest.h>

#include <cstdlib>

#include <sys/stat.h>

#include <string>
#include <vector>

#include "cli/cli_process.hpp"

namespace {

namespace fs = std::filesystem;
using CliRun = cli_process::Run;
using cli_process::snapshot;

const fs::path kValid = fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets/valid";
const fs::path kTmp = gltf_anim_test::scratch_root() / "outputs";

fs::path fresh(const std::string& name) {
  const fs::path dir = kTmp / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

CliRun cli(const std::vector<std::string>& args, cli_process::Options o = {}) {
  return cli_process::run(args, kTmp / "runs", o);
}

// A folder with every kind of input: an asset with an external buffer, a
// 1.5 MiB asset (large files used to be mapped), samples files, and a golden
// folder with a manifest. Files are named by path relative to the folder.
fs::path inputs_folder(const std::string& name) {
  const fs::path dir = fresh(name);
  fs::copy_file(kValid / "container_external_bin.gltf", dir / "asset.gltf");
  fs::copy_file(kValid / "container_external_bin.bin", dir / "container_external_bin.bin");
  // JSON allows trailing whitespace: the same asset, 1.5 MiB long.
  write(dir / "big.gltf", cli_process::slurp(kValid / "rotation_linear.gltf") + std::string(3 << 19, ' '));
  fs::create_directories(dir / "golden");
  fs::copy_file(kValid / "rotation_linear.samples.json", dir / "golden/rotation_linear.samples.json");
  write(dir / "golden/manifest.json", R"({"assets": []})");
  fs::copy_file(kValid / "rotation_linear.samples.json", dir / "actual.samples.json");
  return dir;
}

struct Case {
  std::string what;
  std::vector<std::string> args;  // with OUT where the output goes
  std::string input;              // the input (relative) the output is made to be
  bool from_stdin = false;
};

std::vector<Case> same_file_cases(const fs::path& d) {
  const std::string asset = (d / "asset.gltf").string(), big = (d / "big.gltf").string();
  const std::string golden = (d / "golden/rotation_linear.samples.json").string();
  const std::string actual = (d / "actual.samples.json").string();
  return {
      {"validate asset", {"validate", asset, "-o", "OUT"}, "asset.gltf"},
      {"validate buffer", {"validate", "--format", "json", asset, "-o", "OUT"}, "container_external_bin.bin"},
      {"validate big", {"validate", big, "--output", "OUT"}, "big.gltf"},
      {"validate stdin", {"validate", "-", "-o", "OUT"}, "asset.gltf", true},
      {"sample asset", {"sample", asset, "-o", "OUT"}, "asset.gltf"},
      {"sample buffer", {"sample", asset, "-o", "OUT"}, "container_external_bin.bin"},
      {"sample big", {"sample", big, "-o", "OUT"}, "big.gltf"},
      {"compare golden", {"compare", "--golden", golden, "--actual", actual, "-o", "OUT"},
       "golden/rotation_linear.samples.json"},
      {"compare actual", {"compare", "--golden", golden, "--actual", actual, "-o", "OUT"}, "actual.samples.json"},
      {"compare golden in folder",
       {"compare", "--golden", (d / "golden").string(), "--actual", actual, "-o", "OUT"},
       "golden/rotation_linear.samples.json"},
      {"compare manifest",
       {"compare", "--golden", (d / "golden").string(), "--actual", actual, "-o", "OUT"}, "golden/manifest.json"},
  };
}

TEST(OutputContract, AnOutputThatIsAnInputIsRefusedByPathHardLinkAndSymlink) {
  for (const char* form : {"path", "hard link", "symlink"}) {
    const fs::path d = inputs_folder(std::string("same_") + (form[0] == 'p' ? "path" : form[0] == 'h' ? "hard" : "sym"));
    for (const Case& c : same_file_cases(d)) {
      SCOPED_TRACE(c.what + " via " + form);
      fs::path out = d / c.input;
      fs::remove(d / "alias.out");
      if (form[0] == 'h') fs::create_hard_link(d / c.input, out = d / "alias.out");
      if (form[0] == 's') fs::create_symlink(d / c.input, out = d / "alias.out");
      const auto before = snapshot(d);
      std::vector<std::string> args = c.args;
      for (auto& a : args) if (a == "OUT") a = out.string();
      cli_process::Options o;
      if (c.from_stdin) o.stdin_path = d / c.input;
      const CliRun r = cli(args, o);
      ASSERT_TRUE(r.exited) << "signal " << r.signal;
      EXPECT_EQ(r.exit_code, 2) << r.err;
      EXPECT_NE(r.err.find("refusing to write '" + out.string() + "'"), std::string::npos) << r.err;
      EXPECT_NE(r.err.find(c.from_stdin ? "standard input" : fs::path(c.input).filename().string()),
                std::string::npos) << r.err;
      EXPECT_EQ(snapshot(d), before);  // every input byte-identical, no temporary left
    }
  }
}

TEST(OutputContract, EveryCommandLeavesItsInputsByteIdentical) {
  const fs::path d = inputs_folder("inputs_unchanged");
  fs::create_directories(kTmp / "inputs_unchanged_out");
  const auto before = snapshot(d);
  const fs::path out = kTmp / "inputs_unchanged_out" / "out";
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"validate", "--format", "json", d.string()},
           {"validate", (d / "asset.gltf").string(), (d / "big.gltf").string(), "-o", out.string()},
           {"sample", (d / "asset.gltf").string(), "-o", out.string()},
           {"sample", (d / "big.gltf").string(), "--format", "csv"},
           {"compare", "--golden", (d / "golden").string(), "--actual", (d / "actual.samples.json").string(),
            "--format", "html", "-o", out.string()}}) {
    SCOPED_TRACE(args[0] + " " + args[1]);
    const CliRun r = cli(args);
    ASSERT_TRUE(r.exited);
    EXPECT_LE(r.exit_code, 1) << r.err;
    EXPECT_EQ(snapshot(d), before);
  }
}

// The outputs of these runs are far above 4 KiB; the limit makes the write fail.
std::vector<std::vector<std::string>> large_output_runs(const fs::path& out) {
  return {{"validate", "--format", "json", kValid.string(), "-o", out.string()},
          {"sample", (kValid / "rotation_linear.gltf").string(), "--rate", "1000", "-o", out.string()},
          {"compare", "--golden", kValid.string(), "--actual", kValid.string(), "--format", "html", "-o",
           out.string()}};
}

TEST(OutputContract, AFileSizeLimitIsEfbigWithNoPartialOutput) {
  const fs::path d = fresh("fsize");
  for (const auto& args : large_output_runs(d / "out.txt")) {
    SCOPED_TRACE(args[0]);
    write(d / "out.txt", "previous report");
    cli_process::Options o;
    o.file_size_limit = 4096;
    const CliRun r = cli(args, o);
    ASSERT_TRUE(r.exited) << "signal " << r.signal;  // not SIGXFSZ
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("File too large"), std::string::npos) << r.err;
    EXPECT_EQ(snapshot(d), (std::map<std::string, std::string>{{"out.txt", "previous report"}}));
  }
  // Standard output into a file under the same limit: exit 2 with the reason.
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"codes"}, {"squad-report", "--all"}, {"validate", "--format", "json", kValid.string()}}) {
    SCOPED_TRACE(args[0]);
    cli_process::Options o;
    o.file_size_limit = 2048;
    const CliRun r = cli(args, o);
    ASSERT_TRUE(r.exited) << "signal " << r.signal;
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("cannot write standard output: File too large"), std::string::npos) << r.err;
  }
}

TEST(OutputContract, GenerateUnderAFileSizeLimitFailsWithoutLeavingTemporaries) {
  const fs::path d = fresh("fsize_generate");
  cli_process::Options o;
  o.file_size_limit = 8192;  // manifest.json is larger
  const CliRun r = cli({"generate", "--out", d.string()}, o);
  ASSERT_TRUE(r.exited) << "signal " << r.signal;
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("File too large"), std::string::npos) << r.err;
  for (const auto& [name, bytes] : snapshot(d)) {
    EXPECT_EQ(name.find(".gltf-anim-"), std::string::npos) << "temporary left: " << name;
  }
}

TEST(OutputContract, AFullDeviceIsExit2WithTheReason) {
  const fs::path asset = kValid / "rotation_linear.gltf";
  const std::string golden = (kValid / "rotation_linear.samples.json").string();
  const std::vector<std::vector<std::string>> runs = {
      {"validate", asset.string()},
      {"validate", "--format", "sarif", asset.string()},
      {"sample", asset.string()},
      {"compare", "--golden", golden, "--actual", golden},
      {"codes", "--format", "md"},
      {"squad-report"},
      {"validate", "--help"},
      {"--help"},
  };
  for (const auto& args : runs) {
    SCOPED_TRACE(args[0] + (args.size() > 1 ? " " + args[1] : ""));
    cli_process::Options o;
    o.stdout_path = "/dev/full";
    const CliRun r = cli(args, o);
    ASSERT_TRUE(r.exited) << "signal " << r.signal;
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("cannot write standard output: No space left on device"), std::string::npos) << r.err;
  }
  // A reader that went away: EPIPE, exit 2 with the reason, not death by SIGPIPE.
  for (const auto& args : runs) {
    SCOPED_TRACE(args[0] + (args.size() > 1 ? " " + args[1] : "") + " | (closed)");
    cli_process::Options o;
    o.stdout_closed_pipe = true;
    const CliRun r = cli(args, o);
    ASSERT_TRUE(r.exited) << "signal " << r.signal;
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("cannot write standard output: Broken pipe"), std::string::npos) << r.err;
  }
  // --output /dev/full: written in place (the device is not replaced), fails with the reason.
  for (const auto& args : large_output_runs("/dev/full")) {
    SCOPED_TRACE(args[0] + " -o /dev/full");
    const CliRun r = cli(args);
    ASSERT_TRUE(r.exited);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("cannot write '/dev/full': No space left on device"), std::string::npos) << r.err;
    struct stat st {};
    ASSERT_EQ(::stat("/dev/full", &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode));
  }
}

TEST(OutputContract, AFailedSpoolIsAnIoErrorNotAnInternalOne) {
  // A SARIF report held back for its header past the spool's 1 MiB of memory goes to a
  // temporary file: for standard output in $TMPDIR. When that file cannot grow (a full
  // /tmp; here the file size limit), the run is exit 2 with the folder and the reason,
  // as any failed write, not an "internal error".
  const fs::path d = fresh("spool_fsize");
  std::string nodes;
  for (int i = 0; i < 20000; ++i) nodes += std::string(i ? "," : "") + "{\"unknown\": 1}";
  write(d / "many.gltf", "{\"asset\": {\"version\": \"2.0\"}, \"nodes\": [" + nodes + "]}");
  const char* old = std::getenv("TMPDIR");
  const std::string saved = old != nullptr ? old : "";
  ::setenv("TMPDIR", d.c_str(), 1);
  cli_process::Options o;
  o.stdout_path = "/dev/null";
  o.file_size_limit = 65536;
  const CliRun r = cli({"validate", "--format", "sarif", (d / "many.gltf").string()}, o);
  if (old != nullptr) ::setenv("TMPDIR", saved.c_str(), 1);
  else ::unsetenv("TMPDIR");
  ASSERT_TRUE(r.exited) << "signal " << r.signal;
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("cannot write the report's temporary file in '" + d.string() + "': File too large"),
            std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
}

TEST(OutputContract, GenerateNeverWritesThroughAPlantedSymlink) {
  const fs::path d = fresh("generate_planted");
  const fs::path outside = d / "outside";
  fs::create_directories(outside);
  write(outside / "victim.txt", "victim");
  const fs::path out = d / "suite";
  fs::create_directories(out / "valid");
  fs::create_symlink(outside / "victim.txt", out / "manifest.json");
  fs::create_symlink(outside / "victim.txt", out / "valid/rotation_linear.gltf");
  fs::create_symlink(outside / "victim.txt", out / "valid/rotation_linear.samples.json");
  const CliRun r = cli({"generate", "--out", out.string()});
  ASSERT_TRUE(r.exited);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(snapshot(outside), (std::map<std::string, std::string>{{"victim.txt", "victim"}}));
  for (const char* f : {"manifest.json", "valid/rotation_linear.gltf", "valid/rotation_linear.samples.json"}) {
    EXPECT_FALSE(fs::is_symlink(fs::symlink_status(out / f))) << f;
    EXPECT_EQ(cli_process::slurp(out / f), cli_process::slurp(fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets" / f))
        << f;
  }

  // valid/ itself a link to a folder elsewhere: refused, nothing written there.
  const fs::path out2 = d / "suite2";
  fs::create_directories(out2);
  fs::create_symlink(outside, out2 / "valid");
  const CliRun r2 = cli({"generate", "--out", out2.string()});
  ASSERT_TRUE(r2.exited);
  EXPECT_EQ(r2.exit_code, 2);
  EXPECT_NE(r2.err.find("valid"), std::string::npos) << r2.err;
  EXPECT_EQ(snapshot(outside), (std::map<std::string, std::string>{{"victim.txt", "victim"}}));
}

TEST(FolderMode, SymlinksInsideTheFolderAreNotFollowed) {
  const fs::path d = fresh("folder_links");
  fs::create_directories(d / "outside/deep");
  fs::create_directories(d / "scan");
  fs::copy_file(kValid / "rotation_linear.gltf", d / "scan/inside.gltf");
  fs::copy_file(kValid / "rotation_linear.gltf", d / "outside/secret_file.gltf");
  fs::copy_file(kValid / "rotation_linear.gltf", d / "outside/deep/secret_sub.gltf");
  fs::create_symlink(d / "outside/secret_file.gltf", d / "scan/link.gltf");
  fs::create_symlink(d / "outside/deep", d / "scan/linked_folder");
  const CliRun r = cli({"validate", "--format", "json", (d / "scan").string()});
  ASSERT_TRUE(r.exited);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("inside.gltf"), std::string::npos);
  EXPECT_EQ(r.out.find("secret"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("link.gltf"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("linked_folder"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("skipping symbolic link"), std::string::npos) << r.err;
}

TEST(FolderMode, AnEmptyAssetlessOrUnreadableFolderIsExit2) {
  const fs::path d = fresh("folder_empty");
  fs::create_directories(d / "empty");
  fs::create_directories(d / "no_asset/sub");
  write(d / "no_asset/sub/readme.txt", "not an asset");
  for (const char* f : {"empty", "no_asset"}) {
    const CliRun r = cli({"validate", (d / f).string()});
    ASSERT_TRUE(r.exited);
    EXPECT_EQ(r.exit_code, 2) << f;
    EXPECT_NE(r.err.find("no .gltf or .glb file in folder"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
  // Unreadable: the folder itself, or a subfolder of it (one asset readable).
  // Run as user nobody, so that it holds when the tests run as root, from a folder
  // (and a copy of the CLI) nobody can reach wherever the checkout is.
  const cli_process::NobodyArea area;
  ASSERT_TRUE(area.ok()) << area.why();
  const fs::path n = area.dir();
  fs::create_directories(n / "locked/inner");
  fs::create_directories(n / "partly/locked");
  fs::copy_file(kValid / "rotation_linear.gltf", n / "locked/inner/a.gltf");
  fs::copy_file(kValid / "rotation_linear.gltf", n / "partly/a.gltf");
  fs::copy_file(kValid / "rotation_linear.gltf", n / "partly/locked/b.gltf");
  fs::permissions(n / "locked", fs::perms::none);
  fs::permissions(n / "partly/locked", fs::perms::none);
  for (const char* f : {"locked", "partly"}) {
    cli_process::Options o;
    o.as_nobody = true;
    o.cwd = n;
    const CliRun r = cli_process::run_program({area.cli().string(), "validate", (n / f).string()},
                                              kTmp / "runs", o);
    ASSERT_TRUE(r.exited);
    EXPECT_EQ(r.exit_code, 2) << f << ": " << r.err;
    // The folder that cannot be read is named, not the one given (it was, for "partly").
    const fs::path unreadable = std::string(f) == "locked" ? n / "locked" : n / "partly/locked";
    EXPECT_NE(r.err.find("cannot read folder '" + unreadable.string() + "'"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("Permission denied"), std::string::npos) << r.err;
  }
}

}  // namespace

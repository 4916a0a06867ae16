// `-` as standard input for `sample` (the asset) and `compare --actual=-` (one
// actual samples file): the same bytes give the same output as the file does,
// the byte limit of files applies to standard input, and what standard input
// cannot be (an asset with a folder, an empty file) is refused with exit 2.
#include "sanitizers.hpp"
#include "scratch.hpp"
#include <gtest/gtest.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli/cli_process.hpp"

namespace {

namespace fs = std::filesystem;
const fs::path kSource = GLTF_ANIM_SOURCE_DIR;
const fs::path kValid = kSource / "conformance_assets/valid";
const fs::path kTmp = gltf_anim_test::scratch_root() / "stdin";

cli_process::Run cli(const std::vector<std::string>& args, const std::string& tag,
                     const std::optional<fs::path>& stdin_path = std::nullopt) {
  cli_process::Options o;
  o.stdin_path = stdin_path;
  return cli_process::run(args, kTmp / tag, o);
}

fs::path write_file(const std::string& name, const std::string& bytes) {
  fs::create_directories(kTmp);
  const fs::path p = kTmp / name;
  std::ofstream(p, std::ios::binary) << bytes;
  return p;
}

// Every occurrence of `from` in `text` replaced by `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// The samples of an asset piped in are the samples of the file, byte for byte,
// once the asset is given the file's name; JSON and GLB (told apart by the magic,
// not by a name) alike, and CSV output too.
TEST(Stdin, SampleOfStandardInputIsSampleOfTheFile) {
  for (const char* name :
       {"container_data_uri.gltf", "container_glb.glb", "rotation_linear.gltf"}) {
    const fs::path asset = kValid / name;
    for (const char* format : {"json", "csv"}) {
      const auto file = cli({"sample", "--format", format, asset.string()}, "file");
      ASSERT_EQ(file.exit_code, 0) << name << file.err;
      const auto piped =
          cli({"sample", "--format", format, "--asset-name", name, "-"}, "piped", asset);
      EXPECT_EQ(piped.exit_code, 0) << name << piped.err;
      EXPECT_EQ(piped.out, file.out) << name << " " << format;
    }
  }
}

// Without --asset-name the samples file says where it came from as validate's
// reports do: "-". The golden file of the suite says "container_glb.glb".
TEST(Stdin, SampleOfStandardInputIsNamedDash) {
  const auto piped = cli({"sample", "-"}, "dash", kValid / "container_glb.glb");
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_NE(piped.out.find("\"asset\": \"-\""), std::string::npos) << piped.out.substr(0, 200);
  EXPECT_EQ(piped.out.find("container_glb"), std::string::npos);
}

// A .gltf on standard input has no folder: its external buffer cannot be read,
// and the asset is refused with the loader's code, the buffer's pointer and why.
TEST(Stdin, SampleRefusesARelativeBufferUri) {
  const auto piped = cli({"sample", "-"}, "external", kValid / "container_external_bin.gltf");
  EXPECT_EQ(piped.exit_code, 2) << piped.err;
  EXPECT_TRUE(piped.out.empty());
  EXPECT_NE(piped.err.find("standard input: at /buffers/0/uri: IO_ERROR"), std::string::npos)
      << piped.err;
  EXPECT_NE(piped.err.find("no folder"), std::string::npos) << piped.err;
  // The same file by its path is sampled (its folder holds the buffer).
  const auto file = cli({"sample", (kValid / "container_external_bin.gltf").string()}, "external");
  EXPECT_EQ(file.exit_code, 0) << file.err;
}

// --max-file-mb bounds standard input as it bounds a file: one byte over is
// refused (exit 2) without sampling; exactly at the limit is read.
TEST(Stdin, SampleRefusesStandardInputOverTheLimit) {
  const fs::path asset = kValid / "rotation_linear.gltf";
  std::ifstream in(asset, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_LT(text.size(), std::size_t{1} << 20);
  // The asset padded with trailing white space (still the same JSON) to 1 MiB, then 1 MiB + 1.
  const fs::path at_limit =
      write_file("at_limit.gltf", text + std::string((1u << 20) - text.size(), ' '));
  const fs::path over =
      write_file("over.gltf", text + std::string((1u << 20) + 1 - text.size(), ' '));
  const auto ok = cli({"sample", "--max-file-mb", "1", "-"}, "limit", at_limit);
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  const auto refused = cli({"sample", "--max-file-mb", "1", "-"}, "limit", over);
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_TRUE(refused.out.empty());
  EXPECT_NE(refused.err.find("larger than --max-file-mb"), std::string::npos) << refused.err;
  // The file itself, by its path, is refused by the same option.
  const auto file = cli({"sample", "--max-file-mb", "1", over.string()}, "limit");
  EXPECT_EQ(file.exit_code, 2) << file.err;
}

TEST(Stdin, EmptyStandardInputIsAnError) {
  const fs::path empty = write_file("empty.input", "");
  const auto sample = cli({"sample", "-"}, "empty", empty);
  EXPECT_EQ(sample.exit_code, 2);
  EXPECT_NE(sample.err.find("standard input is empty"), std::string::npos) << sample.err;
  const auto compare =
      cli({"compare", "--golden", (kValid / "container_glb.samples.json").string(), "--actual=-"},
          "empty", empty);
  EXPECT_EQ(compare.exit_code, 2);
  EXPECT_NE(compare.err.find("standard input is empty"), std::string::npos) << compare.err;
}

// A --files-from list without a newline (/dev/zero) is refused at its first line's 64 KiB, a
// length no path reaches, under an address space far below what the unbounded line took (15.7
// GB before); a last line without a newline and a '\r' before the '\n' are still read.
TEST(Stdin, FilesFromStandardInputIsReadWithinItsLimits) {
  cli_process::Options o;
  o.stdin_path = "/dev/zero";
#ifndef GLTF_ANIM_TEST_ASAN  // ASan's shadow memory needs terabytes of address space
  o.address_space = rlim_t{512} << 20;
#endif
  const auto endless = cli_process::run({"validate", "--no-config", "--files-from", "-"},
                                        kTmp / "files_from", o);
  EXPECT_EQ(endless.exit_code, 2) << endless.err;
  EXPECT_NE(endless.err.find("--files-from '-': line 1 is longer than 65536 bytes"),
            std::string::npos)
      << endless.err;
  const fs::path list = write_file(
      "list.txt", (kValid / "rotation_linear.gltf").string() + "\r\n\n" +
                      (kValid / "translation_linear.gltf").string());
  const auto two = cli({"validate", "--no-config", "--no-timings", "--files-from", "-"},
                       "files_from", list);
  EXPECT_EQ(two.exit_code, 0) << two.err;
  EXPECT_NE(two.out.find("2 assets, 0 failed"), std::string::npos) << two.out;
}

// The output may not replace what standard input reads, for either command.
TEST(Stdin, OutputThatIsStandardInputIsRefused) {
  fs::create_directories(kTmp);
  const fs::path asset = kTmp / "self.gltf";
  fs::copy_file(kValid / "rotation_linear.gltf", asset, fs::copy_options::overwrite_existing);
  const fs::path samples = kTmp / "self.samples.json";
  fs::copy_file(kValid / "rotation_linear.samples.json", samples,
                fs::copy_options::overwrite_existing);
  const std::string refusal = "it is the input 'standard input' (same file); nothing written";
  const std::string asset_before = cli_process::slurp(asset);
  const auto sample = cli({"sample", "-o", asset.string(), "-"}, "self", asset);
  EXPECT_EQ(sample.exit_code, 2) << sample.err;
  EXPECT_NE(sample.err.find(refusal), std::string::npos) << sample.err;
  EXPECT_EQ(cli_process::slurp(asset), asset_before);
  const std::string samples_before = cli_process::slurp(samples);
  const auto compare =
      cli({"compare", "--golden", (kValid / "rotation_linear.samples.json").string(), "--actual=-",
           "-o", samples.string()},
          "self", samples);
  EXPECT_EQ(compare.exit_code, 2) << compare.err;
  EXPECT_NE(compare.err.find(refusal), std::string::npos) << compare.err;
  EXPECT_EQ(cli_process::slurp(samples), samples_before);
}

// compare --actual=- judges the samples piped in as it judges the file: the
// same report but for the name of the actual input, JSON and CSV alike.
TEST(Stdin, CompareOfStandardInputIsCompareOfTheFile) {
  const fs::path golden = kValid / "rotation_linear.samples.json";
  const auto csv =
      cli({"sample", "--format", "csv", (kValid / "rotation_linear.gltf").string()}, "csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  const fs::path actual_csv = write_file("rotation_linear.csv", csv.out);
  // A copy, so that the report's golden path is not the actual one.
  const fs::path actual_json = write_file("actual.samples.json", cli_process::slurp(golden));
  for (const fs::path& actual : {actual_json, actual_csv}) {
    for (const char* format : {"text", "json"}) {
      const auto file = cli(
          {"compare", "--format", format, "--golden", golden.string(), "--actual", actual.string()},
          "compare");
      ASSERT_EQ(file.exit_code, 0) << file.err;
      const auto piped =
          cli({"compare", "--format", format, "--golden", golden.string(), "--actual=-"}, "compare",
              actual);
      EXPECT_EQ(piped.exit_code, 0) << piped.err;
      EXPECT_EQ(piped.out, replaced(file.out, actual.string(), "-")) << actual << " " << format;
    }
  }
}

// In a golden folder the piped file pairs by its "asset"; a wrong value fails
// its case (exit 1) as the same file would.
TEST(Stdin, CompareOfStandardInputInAGoldenFolder) {
  const fs::path golden = kValid / "rotation_linear.samples.json";
  const auto ok = cli({"compare", "--golden", kValid.string(), "--actual=-"}, "folder", golden);
  EXPECT_EQ(ok.exit_code, 0) << ok.err << ok.out;
  EXPECT_NE(ok.out.find("rotation_linear"), std::string::npos) << ok.out;

  std::string text = cli_process::slurp(golden);
  const std::size_t value = text.find("\"value\": [");
  ASSERT_NE(value, std::string::npos);
  const std::size_t digit = text.find_first_of("0123456789", value);
  text.insert(digit, "1");  // one component of the first sample off by 1 or more
  const fs::path wrong = write_file("wrong.samples.json", text);
  const auto piped = cli({"compare", "--golden", kValid.string(), "--actual=-"}, "folder", wrong);
  const auto file =
      cli({"compare", "--golden", kValid.string(), "--actual", wrong.string()}, "folder");
  EXPECT_EQ(file.exit_code, 1) << file.err;
  EXPECT_EQ(piped.exit_code, 1) << piped.err;
  EXPECT_EQ(piped.out, replaced(file.out, wrong.string(), "-"));
}

// compare's --max-file-mb bounds standard input; a malformed file is exit 2
// naming standard input as "-" and the place, as a file's error names the file.
TEST(Stdin, CompareRefusesOverLimitAndMalformedStandardInput) {
  const fs::path golden = kValid / "rotation_linear.samples.json";
  std::string text = cli_process::slurp(golden);
  const fs::path over =
      write_file("over.samples.json", text + std::string((1u << 20) + 1 - text.size(), ' '));
  const auto refused =
      cli({"compare", "--max-file-mb", "1", "--golden", golden.string(), "--actual=-"},
          "compare_limit", over);
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find("larger than --max-file-mb"), std::string::npos) << refused.err;
  const fs::path bad = write_file("bad.samples.json", "{\"asset\": 1}");
  const auto malformed = cli({"compare", "--golden", golden.string(), "--actual=-"}, "bad", bad);
  EXPECT_EQ(malformed.exit_code, 2) << malformed.err;
  EXPECT_EQ(malformed.err.rfind("gltf-anim compare: -: ", 0), 0u) << malformed.err;
}

}  // namespace

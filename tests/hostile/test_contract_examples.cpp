// Black-box regressions for the examples of the reliability review (defect
// classes 1-8 of docs/RELIABILITY.md's contract): each test builds a tiny input,
// runs one `gltf-anim` command in a child process under CPU, memory and wall
// limits, and checks the contract: it ends by exit() (never a signal, never
// killed) with the right code, the right issue code, its inputs byte-identical,
// and every report valid UTF-8. Each test names the class it covers.
#include "scratch.hpp"
#include <gtest/gtest.h>
#include <gltf_anim/gltf/json.hpp>
#include <rapidjson/document.h>

#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "../sanitizers.hpp"
#include "cli/cli_process.hpp"
#include "strict_text.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path kTmp = gltf_anim_test::scratch_root() / "contract_examples";
constexpr rlim_t kMemory = rlim_t{1} << 30;  // address space per run
#ifdef GLTF_ANIM_TEST_ASAN
constexpr rlim_t kCpuSeconds = 60;
#else
constexpr rlim_t kCpuSeconds = 10;  // a ceiling against hangs, not a speed test
#endif
constexpr auto kKillAfter = std::chrono::seconds(90);

struct Limits {
  std::optional<rlim_t> file_size;  // RLIMIT_FSIZE in bytes
};

using CliRun = cli_process::Run;
using cli_process::slurp;

void spit(const fs::path& p, std::string_view bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

fs::path scratch(const std::string& name) {
  const fs::path dir = kTmp / name;
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir);
  return dir;
}

// Runs `gltf-anim args...` with stdout to `stdout_path` (default: a file read
// back into out), stderr captured, stdin from /dev/null, under the CPU, memory
// (not under ASan, whose shadow memory needs terabytes of address space),
// file-size and wall-clock limits.
CliRun cli(const std::vector<std::string>& args, const std::string& tag, Limits limits = {},
           std::optional<fs::path> stdout_path = std::nullopt) {
  cli_process::Options o;
  o.stdout_path = std::move(stdout_path);
  o.cpu_seconds = kCpuSeconds;
#ifndef GLTF_ANIM_TEST_ASAN
  o.address_space = kMemory;
#endif
  if (limits.file_size) o.file_size_limit = *limits.file_size;
  o.kill_after = kKillAfter;
  return cli_process::run(args, kTmp / "runs" / tag, o);
}

// Ended by exit() with `code` (SIGXCPU, SIGBUS, SIGXFSZ, SIGABRT, a kill all fail).
void expect_exit(const CliRun& r, int code) {
  EXPECT_FALSE(r.killed) << "killed after " << kKillAfter.count() << " s";
  EXPECT_EQ(r.signal, 0) << "terminated by signal " << r.signal << "\n" << r.err;
  EXPECT_TRUE(r.exited);
  EXPECT_EQ(r.exit_code, code) << r.err;
}


// Codes of a single-asset JSON report.
std::vector<std::string> codes_of(const std::string& report) {
  gltf_anim::json::Document d;
  d.Parse(report.c_str(), report.size());
  std::vector<std::string> out;
  if (d.HasParseError() || !d.IsObject() || !d.HasMember("reports") || d["reports"].Size() != 1)
    return out;
  for (const auto& m : d["reports"][0]["issues"]["messages"].GetArray())
    out.emplace_back(m["code"].GetString());
  return out;
}

bool has_code(const std::string& report, const std::string& code) {
  const auto c = codes_of(report);
  return std::find(c.begin(), c.end(), code) != c.end();
}

// ---- small assets -------------------------------------------------------------

std::string base64(std::string_view in) {
  static const char* a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 3 <= in.size(); i += 3) {
    const std::uint32_t n = (std::uint32_t{static_cast<unsigned char>(in[i])} << 16) |
                            (std::uint32_t{static_cast<unsigned char>(in[i + 1])} << 8) |
                            static_cast<unsigned char>(in[i + 2]);
    for (int s = 18; s >= 0; s -= 6) out += a[(n >> s) & 63];
  }
  if (const std::size_t rest = in.size() - i; rest != 0) {
    std::uint32_t n = std::uint32_t{static_cast<unsigned char>(in[i])} << 16;
    if (rest == 2) n |= std::uint32_t{static_cast<unsigned char>(in[i + 1])} << 8;
    out += a[(n >> 18) & 63];
    out += a[(n >> 12) & 63];
    out += rest == 2 ? a[(n >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string floats(std::initializer_list<float> v) {
  std::string out;
  for (float f : v) out.append(reinterpret_cast<const char*>(&f), 4);
  return out;
}

// Node 0 translated LINEAR over t = 0, 1 (values 0 then 1,2,3); `buffer` is the
// buffers[0] object's text (byteLength 32).
std::string translation_asset(const std::string& buffer) {
  return R"({"asset":{"version":"2.0"},"nodes":[{}],"buffers":[)" + buffer +
         R"(],"bufferViews":[{"buffer":0,"byteLength":8},{"buffer":0,"byteOffset":8,"byteLength":24}],)"
         R"("accessors":[{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},)"
         R"({"bufferView":1,"componentType":5126,"count":2,"type":"VEC3"}],)"
         R"("animations":[{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}],)"
         R"("samplers":[{"input":0,"output":1}]}]})";
}
const std::string kData = floats({0, 1, 0, 0, 0, 1, 2, 3});
std::string data_uri_asset() {
  return translation_asset(R"({"byteLength":32,"uri":"data:application/octet-stream;base64,)" + base64(kData) +
                           "\"}");
}

std::string u32(std::uint32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); }

// A GLB: JSON chunk (space-padded) and BIN chunk (zero-padded).
std::string glb(std::string json, std::string bin) {
  while (json.size() % 4 != 0) json += ' ';
  while (bin.size() % 4 != 0) bin += '\0';
  std::string body = u32(static_cast<std::uint32_t>(json.size())) + u32(0x4E4F534A) + json;
  if (!bin.empty()) body += u32(static_cast<std::uint32_t>(bin.size())) + u32(0x004E4942) + bin;
  return "glTF" + u32(2) + u32(static_cast<std::uint32_t>(12 + body.size())) + body;
}

// A samples file with one channel: `target` sampled at t = 0 with `value`.
std::string samples_file(const std::string& target, const std::string& value) {
  return R"({"asset":"a.gltf","generator":"test","animations":[{"index":0,"channels":[{"target":")" + target +
         R"(","samples":[{"t":0,"value":)" + value + "}]}]}]}";
}

// An asset whose "extras" nests `inner` under `depth` objects with one member of
// `key_length` characters each: JSON pointers of depth x key_length bytes.
std::string deep_extras(std::size_t key_length, int depth, const std::string& inner, const std::string& after = "") {
  const std::string key(key_length, 'k');
  std::string json = R"({"asset":{"version":"2.0"},"extras":)";
  for (int i = 0; i < depth; ++i) json += "{\"" + key + "\":";
  json += inner;
  for (int i = 0; i < depth; ++i) json += "}";
  return json + after + "}";
}

// The report parses as JSON.
void expect_parses(const std::string& text) {
  gltf_anim::json::Document d;
  d.Parse(text.c_str(), text.size());
  EXPECT_FALSE(d.HasParseError());
}

// ---- 1. An output can destroy an input -----------------------------------------

// Defect class 1: `sample big.glb -o big.glb` (>= 1 MiB, memory-mapped) died with
// SIGBUS and left the input at 0 bytes.
TEST(ContractExamples, SampleOutputOntoItsOwnMappedGlbIsRefused) {
  const fs::path dir = scratch("own_glb");
  std::string bin = kData;
  bin.resize((std::size_t{1} << 20) + 64, '\0');
  const std::string json = translation_asset(R"({"byteLength":)" + std::to_string(bin.size()) + "}");
  spit(dir / "big.glb", glb(json, bin));
  const std::string before = slurp(dir / "big.glb");
  const CliRun r = cli({"sample", (dir / "big.glb").string(), "--output", (dir / "big.glb").string()}, "own_glb");
  expect_exit(r, 2);
  EXPECT_TRUE(slurp(dir / "big.glb") == before) << "the input changed";
}

// Defect class 1: `sample model.gltf -o model.bin` on the asset's own buffer.
TEST(ContractExamples, SampleOutputOntoTheAssetsBufferIsRefused) {
  const fs::path dir = scratch("own_bin");
  spit(dir / "model.bin", kData);
  spit(dir / "model.gltf", translation_asset(R"({"byteLength":32,"uri":"model.bin"})"));
  const CliRun r = cli({"sample", (dir / "model.gltf").string(), "--output", (dir / "model.bin").string()}, "own_bin");
  expect_exit(r, 2);
  EXPECT_TRUE(slurp(dir / "model.bin") == kData) << "the buffer changed";
}

// Defect class 1: `validate -o model.gltf model.gltf` replaced the input.
TEST(ContractExamples, ValidateOutputOntoItsInputIsRefused) {
  const fs::path dir = scratch("own_gltf");
  spit(dir / "model.gltf", data_uri_asset());
  const CliRun r = cli({"validate", "--output", (dir / "model.gltf").string(), (dir / "model.gltf").string()},
                    "own_gltf");
  expect_exit(r, 2);
  EXPECT_TRUE(slurp(dir / "model.gltf") == data_uri_asset()) << "the input changed";
}

// Defect class 1: `compare -o golden.samples.json` replaced the golden file.
TEST(ContractExamples, CompareOutputOntoTheGoldenIsRefused) {
  const fs::path dir = scratch("own_golden");
  const std::string golden = samples_file("/nodes/0/translation", "[0,0,0]");
  spit(dir / "golden.samples.json", golden);
  spit(dir / "actual" / "golden.samples.json", golden);
  const CliRun r = cli({"compare", "--golden", (dir / "golden.samples.json").string(), "--actual",
                     (dir / "actual" / "golden.samples.json").string(), "--output",
                     (dir / "golden.samples.json").string()},
                    "own_golden");
  expect_exit(r, 2);
  EXPECT_TRUE(slurp(dir / "golden.samples.json") == golden) << "the golden file changed";
}

// Defect class 1: `generate --out` wrote through a symlink planted in the folder.
TEST(ContractExamples, GenerateDoesNotWriteThroughAPlantedSymlink) {
  const fs::path dir = scratch("generate_link");
  spit(dir / "victim.txt", "precious");
  fs::create_directories(dir / "out");
  fs::create_symlink(dir / "victim.txt", dir / "out" / "manifest.json");
  const CliRun r = cli({"generate", "--out", (dir / "out").string()}, "generate_link");
  EXPECT_EQ(r.signal, 0);
  EXPECT_TRUE(r.exited);
  EXPECT_EQ(slurp(dir / "victim.txt"), "precious");
}

// Defect class 1: a file-size limit (SIGXFSZ) must be a write error (EFBIG, exit
// 2 with the reason), never a signal, and leave no partial output.
TEST(ContractExamples, FileSizeLimitIsAWriteErrorNotASignal) {
  const fs::path dir = scratch("fsize");
  spit(dir / "model.gltf", data_uri_asset());
  Limits l;
  // Stderr goes to a file under the same limit: the limit must leave room for
  // the message, and the SARIF report (its rules list every code: tens of KiB)
  // must not fit.
  l.file_size = 16 * 1024;
  const CliRun r = cli({"validate", "--format", "sarif", "--output", (dir / "report.json").string(),
                     (dir / "model.gltf").string()},
                    "fsize", l);
  expect_exit(r, 2);
  EXPECT_NE(r.err.find("File too large"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir / "report.json"));
}

// ---- 2. Unbounded time from a tiny file -------------------------------------------

// Defect class 2: a sparse accessor with no bufferView and count 2^50 walked every
// implicit zero (weeks). Bound: the CPU limit.
TEST(ContractExamples, SparseAccessorWithHugeCountAndNoBufferViewIsQuick) {
  const fs::path dir = scratch("sparse_huge");
  const std::string indices = u32(0), values = floats({0.5f});
  const std::string json =
      R"({"asset":{"version":"2.0"},"nodes":[{}],"buffers":[{"byteLength":8,"uri":"data:application/octet-stream;base64,)" +
      base64(indices + values) +
      R"("}],"bufferViews":[{"buffer":0,"byteLength":4},{"buffer":0,"byteOffset":4,"byteLength":4}],)"
      R"("accessors":[{"componentType":5126,"count":1125899906842624,"type":"SCALAR","min":[0],"max":[0.5],)"
      R"("sparse":{"count":1,"indices":{"bufferView":0,"componentType":5125},"values":{"bufferView":1}}}]})";
  spit(dir / "sparse.gltf", json);
  const CliRun r = cli({"validate", "--format", "json", (dir / "sparse.gltf").string()}, "sparse_huge");
  EXPECT_EQ(r.signal, 0) << "SIGXCPU is " << SIGXCPU;
  EXPECT_TRUE(r.exited);
  EXPECT_LE(r.exit_code, 1);
}

// Defect class 2: --format sarif rebuilt the whole JSON pointer for every value
// (3 MB: 94 s against 0.12 s in JSON). 50 levels of 4000-character keys above
// 1.4 million values, and an issue at a member after them (3 MB; rebuilding a
// 200 KB pointer per value is 280 GB of copying, far over the CPU limit).
TEST(ContractExamples, SarifOfAFewMegabytesIsLinear) {
  const fs::path dir = scratch("sarif_linear");
  std::string values = "[0";
  for (int i = 0; i < 1400000; ++i) values += ",0";
  values += "]";
  // TYPE_MISMATCH at /animations, found after the values.
  spit(dir / "big.gltf", deep_extras(4000, 50, values, R"(,"animations":{})"));
  const CliRun r = cli({"validate", "--format", "sarif", (dir / "big.gltf").string()}, "sarif_linear");
  expect_exit(r, 1);
  expect_parses(r.out);
}

// Defect class 2: Boost accepted -1 for unsigned options and wrapped it:
// `squad-report --samples -1` looped forever, `--max-issues -1` meant no limit.
TEST(ContractExamples, NegativeNumericOptionsAreUsageErrors) {
  const fs::path dir = scratch("negative");
  spit(dir / "model.gltf", data_uri_asset());
  expect_exit(cli({"squad-report", "--samples", "-1"}, "squad_negative"), 2);
  expect_exit(cli({"validate", "--max-issues", "-1", (dir / "model.gltf").string()}, "max_issues_negative"), 2);
}

// ---- 3. Unbounded memory ------------------------------------------------------------

// Defect class 3: 100,000 duplicate-key issues each storing a 20 KB pointer took
// 4 GB from a 1.4 MB file (bad_alloc, no report; SIGABRT with --threads 2).
TEST(ContractExamples, ManyLongDuplicateKeyPointersStayBounded) {
  const fs::path dir = scratch("dup_keys");
  std::string members = "{";
  for (int i = 0; i < 100000; ++i) {
    const std::string name = "\"" + std::to_string(i) + "\":0";
    members += (i ? "," : "") + name + "," + name;
  }
  members += "}";
  const std::string json = deep_extras(1000, 20, members);
  spit(dir / "dup.gltf", json);
  spit(dir / "dup2.gltf", json);
  for (const char* threads : {"1", "2"}) {
    SCOPED_TRACE(threads);
    const CliRun r = cli({"validate", "--format", "json", "--threads", threads, (dir / "dup.gltf").string(),
                          (dir / "dup2.gltf").string()},
                         std::string("dup_keys_") + threads);
    expect_exit(r, 0);  // duplicate keys are warnings
    expect_parses(r.out);
  }
}

// Defect class 3: `sample --rate 2e8` on a 600-byte asset allocated 2 GB before
// its own --max-values check.
TEST(ContractExamples, SampleRateIsCheckedBeforeAllocating) {
  const fs::path dir = scratch("rate");
  spit(dir / "model.gltf", data_uri_asset());
  const CliRun r = cli({"sample", (dir / "model.gltf").string(), "--rate", "2e8"}, "rate");
  expect_exit(r, 2);
  // Refused by the limit check, not by running out of memory first.
  EXPECT_EQ(r.err.find("bad_alloc"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
}

// ---- 4. Reports that are not valid UTF-8 / safe text ---------------------------------

// Defect class 4: a lone \udc00 escape was echoed as invalid UTF-8 into reports.
TEST(ContractExamples, LoneSurrogateNeverReachesAReport) {
  const fs::path dir = scratch("surrogate");
  spit(dir / "model.gltf", R"({"asset":{"version":"2.0","generator":"\udc00"},"animations":[{"name":"\udc00",)"
                           R"("channels":[],"samplers":[],"x\udc00":1}]})");
  for (const char* format : {"json", "text", "junit", "sarif"}) {
    SCOPED_TRACE(format);
    const CliRun r = cli({"validate", "--format", format, (dir / "model.gltf").string()},
                      std::string("surrogate_") + format);
    expect_exit(r, 1);
    EXPECT_TRUE(strict_text::utf8(r.out));
  }
}

// Defect class 4: non-UTF-8 file names went raw into JSON and JUnit; control
// characters (terminal escapes) raw into the text report.
TEST(ContractExamples, FileNamesAndValuesAreSafeInEveryFormat) {
  const fs::path dir = scratch("names");
  const fs::path bad = dir / "bad\xFF\x1B[2Jname.gltf";
  std::string asset = data_uri_asset();
  // An unknown interpolation is quoted in VALUE_NOT_IN_LIST's message.
  asset.replace(asset.find(R"("output":1})"), 11, R"("output":1,"interpolation":"\u001b[31mX"})");
  spit(bad, asset);
  for (const char* format : {"json", "text", "junit", "sarif"}) {
    SCOPED_TRACE(format);
    const CliRun r = cli({"validate", "--format", format, bad.string()}, std::string("names_") + format);
    EXPECT_EQ(r.signal, 0);
    EXPECT_TRUE(r.exited);
    EXPECT_TRUE(strict_text::utf8(r.out));
    EXPECT_EQ(r.out.find('\x1B'), std::string::npos) << "raw ESC in the " << format << " report";
  }
}

// ---- 5. Write errors ignored ------------------------------------------------------------

// Defect class 5: `validate ... > out.json` on a full disk exited 0 with an
// empty report (also compare, codes, squad-report); sample failed without
// saying why. /dev/full fails every write with ENOSPC.
TEST(ContractExamples, WritingToAFullDiskIsExit2WithTheReason) {
  const fs::path dir = scratch("full");
  spit(dir / "model.gltf", data_uri_asset());
  const std::string golden = samples_file("/nodes/0/translation", "[0,0,0]");
  spit(dir / "g.samples.json", golden);
  spit(dir / "a" / "g.samples.json", golden);
  const std::vector<std::vector<std::string>> commands{
      {"validate", (dir / "model.gltf").string()},
      {"codes"},
      {"squad-report", "--samples", "10"},
      {"compare", "--golden", (dir / "g.samples.json").string(), "--actual", (dir / "a" / "g.samples.json").string()},
      {"sample", (dir / "model.gltf").string()},
  };
  for (const auto& c : commands) {
    SCOPED_TRACE(c[0]);
    const CliRun r = cli(c, "full_" + c[0], {}, fs::path("/dev/full"));
    expect_exit(r, 2);
    EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
  }
}

// ---- 6. Reads outside what the user pointed at --------------------------------------------

// Defect class 6: folder mode followed a symlinked .gltf out of the folder and
// copied its content into the report.
TEST(ContractExamples, FolderModeDoesNotFollowALinkOutOfTheFolder) {
  const fs::path dir = scratch("folder_link");
  std::string secret = data_uri_asset();
  secret.replace(secret.find(R"("version":"2.0")"), 15, R"("version":"2.0","generator":"SECRET-OUTSIDE")");
  spit(dir / "outside" / "secret.gltf", secret);
  spit(dir / "inside" / "ok.gltf", data_uri_asset());
  fs::create_symlink(dir / "outside" / "secret.gltf", dir / "inside" / "link.gltf");
  const CliRun r = cli({"validate", "--format", "json", (dir / "inside").string()}, "folder_link");
  EXPECT_EQ(r.signal, 0);
  EXPECT_TRUE(r.exited);
  EXPECT_EQ(r.out.find("SECRET-OUTSIDE"), std::string::npos) << "the outside file was read";
}

// A golden folder of one samples file (value [0,0,0]) and an actual one 1000
// units off, for the manifest examples.
void golden_and_actual(const fs::path& golden, const fs::path& actual) {
  spit(golden / "a.samples.json", samples_file("/nodes/0/translation", "[0,0,0]"));
  spit(actual / "a.samples.json", samples_file("/nodes/0/translation", "[1000,0,0]"));
}

// Defect class 6: a manifest.json variant path `../../x` (or absolute) was opened
// by compare. Here the outside file would make the failing case pass.
TEST(ContractExamples, ManifestVariantPathsOutsideTheSuiteAreNotRead) {
  const fs::path dir = scratch("variant_path");
  golden_and_actual(dir / "suite" / "golden", dir / "actual");
  spit(dir / "outside.samples.json", samples_file("/nodes/0/translation", "[1000,0,0]"));
  for (const std::string& path : {std::string("../outside.samples.json"), (dir / "outside.samples.json").string()}) {
    SCOPED_TRACE(path);
    spit(dir / "suite" / "golden" / "manifest.json",
         R"({"assets":[{"id":"a","file":"a.gltf","samples":"a.samples.json","variants":{"v":{"samples":")" + path +
             R"("}}}]})");
    const CliRun r = cli({"compare", "--golden", (dir / "suite" / "golden").string(), "--actual",
                       (dir / "actual").string()},
                      "variant_path");
    EXPECT_EQ(r.signal, 0);
    EXPECT_TRUE(r.exited);
    EXPECT_NE(r.exit_code, 0) << "the variant outside the suite was used\n" << r.out;
  }
}

// Defect class 6: compare looked for manifest.json in every ancestor folder up to
// '/': a stray one far above could set the tolerance to 1e9.
TEST(ContractExamples, ManifestFarAboveTheGoldenFilesIsNotUsed) {
  const fs::path dir = scratch("ancestor_manifest");
  spit(dir / "manifest.json", R"({"tolerance":1e9,"angleTolerance":1e9,"assets":[]})");
  golden_and_actual(dir / "x" / "y" / "golden", dir / "x" / "y" / "actual");
  const CliRun r = cli({"compare", "--golden", (dir / "x" / "y" / "golden").string(), "--actual",
                     (dir / "x" / "y" / "actual").string()},
                    "ancestor_manifest");
  expect_exit(r, 1);
}

// ---- 7. Wrong verdicts ---------------------------------------------------------------------

// Defect class 7: 3 x count wrapped, so an invalid CUBICSPLINE passed. Input count
// 6148914691236517206 = (2^64 + 2) / 3, so 3 x count wraps to 2 = the output count.
TEST(ContractExamples, CubicSplineOutputCountOverflowIsFound) {
  const fs::path dir = scratch("cubic_wrap");
  const std::string json =
      R"({"asset":{"version":"2.0"},"nodes":[{}],"accessors":[)"
      R"({"componentType":5126,"count":6148914691236517206,"type":"SCALAR","min":[0],"max":[0]},)"
      R"({"componentType":5126,"count":2,"type":"VEC3"}],)"
      R"("animations":[{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}],)"
      R"("samplers":[{"input":0,"output":1,"interpolation":"CUBICSPLINE"}]}]})";
  spit(dir / "wrap.gltf", json);
  const CliRun r = cli({"validate", "--format", "json", (dir / "wrap.gltf").string()}, "cubic_wrap");
  expect_exit(r, 1);
  EXPECT_TRUE(has_code(r.out, "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT")) << r.out;
}

// Defect class 7: accessors without a bufferView were never checked: implicit
// times [0, 0] and implicit zero quaternions passed validate while sample
// refused the same asset.
TEST(ContractExamples, ImplicitZeroTimesAndQuaternionsAreFound) {
  const fs::path dir = scratch("implicit_zeros");
  const std::string json =
      R"({"asset":{"version":"2.0"},"nodes":[{}],"accessors":[)"
      R"({"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[0]},)"
      R"({"componentType":5126,"count":2,"type":"VEC4"}],)"
      R"("animations":[{"channels":[{"sampler":0,"target":{"node":0,"path":"rotation"}}],)"
      R"("samplers":[{"input":0,"output":1}]}]})";
  spit(dir / "zeros.gltf", json);
  const CliRun r = cli({"validate", "--format", "json", (dir / "zeros.gltf").string()}, "implicit_zeros");
  expect_exit(r, 1);
  EXPECT_TRUE(has_code(r.out, "ACCESSOR_ANIMATION_INPUT_NON_INCREASING")) << r.out;
  EXPECT_TRUE(has_code(r.out, "ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION")) << r.out;
}

// A GLB buffers[1] without uri is a placeholder the spec leaves to extensions (a meshopt
// fallback buffer): glTF-Validator reports nothing for it, and neither do we while no data is
// read from it (earlier versions gave it an error, BUFFER_NON_FIRST_GLB, which every gltfpack
// -c output got).
TEST(ContractExamples, GlbSecondBufferWithoutUriIsNotAnErrorUntilRead) {
  const fs::path dir = scratch("glb_buffer1");
  std::string json = translation_asset(R"({"byteLength":32},{"byteLength":4})");
  spit(dir / "two.glb", glb(json, kData));
  const CliRun r = cli({"validate", "--format", "json", (dir / "two.glb").string()}, "glb_buffer1");
  expect_exit(r, 0);
  EXPECT_FALSE(has_code(r.out, "BUFFER_VIEW_PLACEHOLDER_DATA")) << r.out;
}

// Defect class 7: an EXT_animation_sqlerp `sampler` naming a sampler that is not
// CUBICSLERP gave nothing (the draft requires CUBICSLERP there).
TEST(ContractExamples, SqlerpSamplerThatIsNotCubicSlerpIsAnError) {
  const fs::path dir = scratch("sqlerp_not_cubicslerp");
  const std::string data = floats({0, 1, 0, 0, 0, 1, 0, 0, 0, 1});
  const std::string json =
      R"({"asset":{"version":"2.0"},"extensionsUsed":["EXT_animation_sqlerp"],"nodes":[{}],)"
      R"("buffers":[{"byteLength":40,"uri":"data:application/octet-stream;base64,)" +
      base64(data) +
      R"("}],"bufferViews":[{"buffer":0,"byteLength":8},{"buffer":0,"byteOffset":8,"byteLength":32}],)"
      R"("accessors":[{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},)"
      R"({"bufferView":1,"componentType":5126,"count":2,"type":"VEC4"}],)"
      R"("animations":[{"channels":[{"sampler":0,"target":{"node":0,"path":"rotation"},)"
      R"("extensions":{"EXT_animation_sqlerp":{"sampler":0}}}],"samplers":[{"input":0,"output":1}]}]})";
  spit(dir / "sqlerp.gltf", json);
  const CliRun r = cli({"validate", "--format", "json", (dir / "sqlerp.gltf").string()}, "sqlerp_not_cubicslerp");
  expect_exit(r, 1);
}

// Defect class 7: compare read manifest.json with RapidJSON's full-precision
// parser, so "tolerance": 0e200 let a sample 1000 units off pass.
TEST(ContractExamples, ManifestToleranceZeroWithHugeExponentIsZero) {
  const fs::path dir = scratch("tolerance_0e200");
  golden_and_actual(dir / "golden", dir / "actual");
  spit(dir / "golden" / "manifest.json", R"({"tolerance":0e200,"angleTolerance":0e200,"assets":[]})");
  const CliRun r = cli({"compare", "--golden", (dir / "golden").string(), "--actual", (dir / "actual").string()},
                    "tolerance_0e200");
  expect_exit(r, 1);
}

// Defect class 7: comparing a samples file with itself failed when it held zero
// quaternions.
TEST(ContractExamples, SamplesFileWithZeroQuaternionsMatchesItself) {
  const fs::path dir = scratch("zero_quaternion");
  spit(dir / "golden" / "a.samples.json", samples_file("/nodes/0/rotation", "[0,0,0,0]"));
  spit(dir / "actual" / "a.samples.json", samples_file("/nodes/0/rotation", "[0,0,0,0]"));
  const CliRun r = cli({"compare", "--golden", (dir / "golden" / "a.samples.json").string(), "--actual",
                     (dir / "actual" / "a.samples.json").string()},
                    "zero_quaternion");
  expect_exit(r, 0);
}

// Defect class 7: a 5,000-character buffer file name was reported as
// URI_OUTSIDE_ROOT instead of IO_ERROR (the name is too long, not outside).
TEST(ContractExamples, VeryLongBufferFileNameIsIoError) {
  const fs::path dir = scratch("long_name");
  spit(dir / "model.gltf", translation_asset(R"({"byteLength":32,"uri":")" + std::string(5000, 'a') + R"(.bin"})"));
  const CliRun r = cli({"validate", "--format", "json", (dir / "model.gltf").string()}, "long_name");
  expect_exit(r, 1);
  EXPECT_TRUE(has_code(r.out, "IO_ERROR")) << r.out;
  EXPECT_FALSE(has_code(r.out, "URI_OUTSIDE_ROOT")) << r.out;
}

// Defect class 7: an empty folder, or a folder with no asset, exited 0.
TEST(ContractExamples, FolderWithoutAssetsIsNotSuccess) {
  const fs::path dir = scratch("no_assets");
  fs::create_directories(dir / "empty");
  spit(dir / "other" / "notes.txt", "no asset here");
  for (const char* sub : {"empty", "other"}) {
    SCOPED_TRACE(sub);
    const CliRun r = cli({"validate", (dir / sub).string()}, std::string("no_assets_") + sub);
    EXPECT_EQ(r.signal, 0);
    EXPECT_TRUE(r.exited);
    EXPECT_NE(r.exit_code, 0);
  }
}

// ---- 8. Messages ------------------------------------------------------------------------------

// Defect class 8 (fixed with these tests): a .bin passed by mistake is "not a
// glTF file"; a syntax error gives its line and column.
TEST(ContractExamples, BinPassedByMistakeAndTrailingCommaAreNamed) {
  const fs::path dir = scratch("messages");
  spit(dir / "model.bin", kData);
  spit(dir / "comma.gltf", "{\"asset\":{\"version\":\"2.0\"},\n}");
  const CliRun bin = cli({"validate", "--format", "json", (dir / "model.bin").string()}, "messages_bin");
  expect_exit(bin, 1);
  EXPECT_EQ(codes_of(bin.out), std::vector<std::string>{"NOT_GLTF"});
  const CliRun comma = cli({"validate", (dir / "comma.gltf").string()}, "messages_comma");
  expect_exit(comma, 1);
  EXPECT_NE(comma.out.find("Trailing comma before '}'"), std::string::npos) << comma.out;
  EXPECT_NE(comma.out.find("(at line 2, column 1; byte offset 28)"), std::string::npos) << comma.out;
}

}  // namespace

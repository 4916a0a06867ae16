// The hostile-input corpus, end to end through the CLI (docs/RELIABILITY.md).
// Every input of tests/hostile/cases/ (written by generate.py, expectations in
// expected.json) and the large ones generated here are run through
// `gltf-anim validate --format json` in a child process that has an address
// space limit (RLIMIT_AS, kMemoryLimit; not under AddressSanitizer, whose
// shadow memory needs terabytes of address space) and a wall-clock limit
// (killed after kKillAfter). Each run must: end by exit() with 0, 1 or 2 (never
// a signal, never killed), print a JSON report that parses, contain the
// expected (code, pointer) pairs, and use less than kCpuCeiling seconds of CPU
// (a sanity ceiling, not a performance test; CPU rather than wall time because
// the test machines are shared, and the wall clock is bounded by kKillAfter). Further: FIFOs inside and outside the root
// are never opened, no socket is created (strace), determinism across thread
// counts, and `sample` on every hostile input.
#include "scratch.hpp"
#include <gtest/gtest.h>
#include <gltf_anim/gltf/json.hpp>
#include <rapidjson/document.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli/cli_process.hpp"
#include "strict_text.hpp"

#include "../sanitizers.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path kHostile = fs::path(GLTF_ANIM_SOURCE_DIR) / "tests/hostile";
const fs::path kTmp = gltf_anim_test::scratch_root() / "hostile";
constexpr rlim_t kMemoryLimit = rlim_t{1} << 30;  // 1 GiB of address space per run
constexpr auto kKillAfter = std::chrono::seconds(60);
#ifdef GLTF_ANIM_TEST_ASAN
constexpr double kCpuCeiling = 20.0;  // sanitizers slow everything 2-5x
#else
constexpr double kCpuCeiling = 5.0;
#endif

using ChildRun = cli_process::Run;

// Runs argv (argv[0] is a path) under RLIMIT_AS (not under ASan, whose shadow
// memory needs the address space), killed after kill_after; `tag` names its
// scratch folder.
ChildRun run(const std::vector<std::string>& argv, const std::string& tag,
             const std::optional<fs::path>& stdin_file = std::nullopt,
             std::chrono::seconds kill_after = kKillAfter) {
  cli_process::Options o;
  o.stdin_path = stdin_file;
  o.kill_after = kill_after;
  o.cpu_seconds = static_cast<rlim_t>(kill_after.count());
#ifndef GLTF_ANIM_TEST_ASAN
  o.address_space = kMemoryLimit;
#endif
  return cli_process::run_program(argv, kTmp / tag, o);
}

ChildRun validate(const std::vector<std::string>& args, const std::string& tag,
             const std::optional<fs::path>& stdin_file = std::nullopt) {
  std::vector<std::string> argv{GLTF_ANIM_CLI, "validate", "--format", "json"};
  argv.insert(argv.end(), args.begin(), args.end());
  return run(argv, tag, stdin_file);
}

// The process contract every hostile run must keep. `cpu_ceiling` is a sanity
// bound against runaway work, not a speed test; a run that must fill 1 GiB of
// memory on purpose needs more than the default.
void expect_contract(const ChildRun& r, double cpu_ceiling = kCpuCeiling) {
  EXPECT_FALSE(r.killed) << "killed after " << kKillAfter.count() << " s";
  EXPECT_EQ(r.signal, 0) << "terminated by signal " << r.signal;
  ASSERT_TRUE(r.exited);
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 2) << r.exit_code;
  EXPECT_LT(r.cpu_seconds, cpu_ceiling) << "wall " << r.seconds << " s";
#ifndef GLTF_ANIM_TEST_ASAN
  EXPECT_LT(r.max_rss_kib, static_cast<long>(kMemoryLimit / 1024));
#endif
}

// (code, pointer) pairs of a single-asset JSON report; pointer "@offset" for
// messages with a byte offset.
std::multiset<std::pair<std::string, std::string>> messages(const std::string& report, bool* parsed,
                                                            bool* truncated = nullptr) {
  gltf_anim::json::Document d;
  d.Parse(report.c_str(), report.size());
  std::multiset<std::pair<std::string, std::string>> out;
  *parsed = !d.HasParseError() && d.IsObject() && d.HasMember("reports") &&
            d["reports"].IsArray() && d["reports"].Size() == 1 &&
            d["reports"][0].HasMember("issues") && d["reports"][0]["issues"].IsObject() &&
            d["reports"][0]["issues"].HasMember("messages") &&
            d["reports"][0]["issues"]["messages"].IsArray();
  if (!*parsed) return out;
  const auto& report_issues = d["reports"][0]["issues"];
  if (truncated) *truncated = report_issues["truncated"].IsTrue();
  for (const auto& m : report_issues["messages"].GetArray()) {
    std::string where = m.HasMember("pointer") ? m["pointer"].GetString() : "@offset";
    out.emplace(m["code"].GetString(), std::move(where));
  }
  return out;
}

bool has(const std::multiset<std::pair<std::string, std::string>>& m, const std::string& code,
         const std::string& pointer) {
  return m.count({code, pointer}) > 0;
}

// The message of the first issue with `code` in a single-asset JSON report.
std::string first_message(const std::string& report, const std::string& code) {
  gltf_anim::json::Document d;
  d.Parse(report.c_str(), report.size());
  if (d.HasParseError() || !d.IsObject() || !d.HasMember("reports")) return {};
  for (const auto& m : d["reports"][0]["issues"]["messages"].GetArray()) {
    if (code == m["code"].GetString()) return m["message"].GetString();
  }
  return {};
}

std::string q_pointer(const gltf_anim::json::Value& v) {
  return v.IsNull() ? "@offset" : v.GetString();
}

TEST(HostileCorpus, EveryCaseKeepsTheContractAndReportsItsCode) {
  const std::string manifest_text = cli_process::slurp(kHostile / "expected.json");
  gltf_anim::json::Document manifest;
  manifest.Parse(manifest_text.c_str());
  ASSERT_FALSE(manifest.HasParseError());
  ASSERT_TRUE(manifest.IsObject());
  std::size_t n = 0;
  for (const auto& entry : manifest.GetObject()) {
    const std::string name = entry.name.GetString();
    SCOPED_TRACE(name);
    const fs::path file = kHostile / "cases" / name;
    ASSERT_TRUE(fs::exists(file));
    const ChildRun r = validate({file.string()}, "case_" + name);
    expect_contract(r);
    if (entry.value["exit"].IsInt()) {
      EXPECT_EQ(r.exit_code, entry.value["exit"].GetInt());
    } else {
      EXPECT_LE(r.exit_code, 1);  // a report, whatever the extension rules decide
    }
    bool parsed = false;
    const auto m = messages(r.out, &parsed);
    ASSERT_TRUE(parsed) << r.out;
    for (const auto& c : entry.value["codes"].GetArray()) {
      EXPECT_TRUE(has(m, c[0].GetString(), q_pointer(c[1])))
          << "missing " << c[0].GetString() << " at " << q_pointer(c[1]) << "\n" << r.out;
    }
    // "exactly": one clear issue per listed code, no cascade after it.
    if (entry.value.HasMember("exactly")) {
      EXPECT_EQ(m.size(), entry.value["codes"].Size()) << r.out;
    }
    // "messages": words the first message of a code must contain.
    if (entry.value.HasMember("messages")) {
      for (const auto& want : entry.value["messages"].GetObject()) {
        const std::string text = first_message(r.out, want.name.GetString());
        for (const auto& part : want.value.GetArray()) {
          EXPECT_NE(text.find(part.GetString()), std::string::npos)
              << want.name.GetString() << " message lacks '" << part.GetString() << "': " << text;
        }
      }
    }
    ++n;
  }
  // Every committed case has an expectation and the other way round.
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(kHostile / "cases")) files += e.is_regular_file() ? 1 : 0;
  EXPECT_EQ(files, n);
  EXPECT_GE(n, 60u);
}

// Every case in one folder-mode run per format, plus a copy of the escapes
// case under a file name that is not UTF-8: each report parses strictly.
TEST(HostileCorpus, EveryReportFormatParsesStrictly) {
  const fs::path dir = kTmp / "strict_formats";
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy(kHostile / "cases", dir / "cases");
  fs::copy_file(kHostile / "cases/terminal_escapes.gltf", dir / "cases" / "escapes \xFF\x1B[2J.gltf");
  for (const std::string format : {"json", "sarif", "junit", "text"}) {
    SCOPED_TRACE(format);
    const ChildRun r = run({GLTF_ANIM_CLI, "validate", "--format", format, (dir / "cases").string()},
                           "strict_" + format);
    expect_contract(r);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(strict_text::format_problem(format, r.out), "") << r.out.substr(0, 2000);
  }
}

// ---- large inputs, generated here ----

fs::path write_file(const std::string& name, const std::string& content) {
  fs::create_directories(kTmp / "large");
  const fs::path p = kTmp / "large" / name;
  std::ofstream(p, std::ios::binary) << content;
  return p;
}

TEST(HostileLarge, Nesting200000Deep) {
  for (const auto& [name, open, close] :
       {std::tuple<const char*, const char*, const char*>{"arrays", "[", "]"}, {"objects", "{\"a\":", "}"}}) {
    SCOPED_TRACE(name);
    std::string text = "{\"asset\":{\"version\":\"2.0\"},\"extras\":";
    for (int i = 0; i < 200000; ++i) text += open;
    text += "0";
    for (int i = 0; i < 200000; ++i) text += close;
    text += "}";
    const ChildRun r = validate({write_file(std::string("deep_") + name + ".gltf", text).string()},
                           std::string("deep_") + name);
    expect_contract(r);
    EXPECT_EQ(r.exit_code, 1);
    bool parsed = false;
    EXPECT_TRUE(has(messages(r.out, &parsed), "INVALID_JSON", ""));
    EXPECT_TRUE(parsed);
  }
}

TEST(HostileLarge, TwoHundredThousandEmptyAnimations) {
  std::string text = "{\"asset\":{\"version\":\"2.0\"},\"animations\":[";
  for (int i = 0; i < 200000; ++i) text += i ? ",{}" : "{}";
  text += "]}";
  const fs::path file = write_file("empty_animations.gltf", text);
  // Every animation lacks its two required members ('channels', 'samplers'):
  // an UNDEFINED_PROPERTY each, all 400,000 reported without issue limits.
  const ChildRun all =
      validate({"--max-issues", "0", "--max-issue-mb", "0", file.string()}, "empty_animations");
  expect_contract(all);
  EXPECT_EQ(all.exit_code, 1);
  bool parsed = false, truncated = true;
  const auto m = messages(all.out, &parsed, &truncated);
  ASSERT_TRUE(parsed);
  EXPECT_FALSE(truncated);
  EXPECT_EQ(m.size(), 400000u);
  EXPECT_EQ(m.count({"UNDEFINED_PROPERTY", "/animations/0"}), 2u);
  EXPECT_TRUE(has(m, "UNDEFINED_PROPERTY", "/animations/199999"));
  // The default limit (100,000) and --max-issues bound the report.
  const ChildRun capped = validate({file.string()}, "empty_animations_default");
  expect_contract(capped);
  EXPECT_EQ(messages(capped.out, &parsed, &truncated).size(), 100000u);
  EXPECT_TRUE(truncated);
  const ChildRun some = validate({"--max-issues", "100", file.string()}, "empty_animations_100");
  expect_contract(some);
  const auto m100 = messages(some.out, &parsed, &truncated);
  ASSERT_TRUE(parsed);
  EXPECT_TRUE(truncated);
  EXPECT_EQ(m100.size(), 100u);
}

TEST(HostileLarge, MillionNaNsAreCappedByTheDefaultIssueLimit) {
  // One issue per bad value: 2^20 NaN key times would be 2^20 issues (hundreds
  // of MB of report) without the default --max-issues of 100,000.
  constexpr std::uint32_t n = 1u << 20;
  std::string bin(std::size_t{4} * n, '\0');
  for (std::uint32_t i = 0; i < n; ++i) {
    const char nan_bits[4] = {0, 0, static_cast<char>(0xC0), 0x7F};  // 0x7FC00000
    bin.replace(std::size_t{4} * i, 4, nan_bits, 4);
  }
  write_file("nan.bin", bin);
  const std::string count = std::to_string(n);
  const fs::path file = write_file(
      "nan.gltf", R"({"asset":{"version":"2.0"},"nodes":[{}],"buffers":[{"byteLength":)" +
                      std::to_string(4 * n) + R"(,"uri":"nan.bin"}],"bufferViews":[{"buffer":0,"byteLength":)" +
                      std::to_string(4 * n) + R"(}],"accessors":[{"bufferView":0,"componentType":5126,"count":)" +
                      count + R"(,"type":"SCALAR","min":[0],"max":[1]}],"animations":[{"channels":[{"sampler":0,)" +
                      R"("target":{"node":0,"path":"weights"}}],"samplers":[{"input":0,"output":0}]}]})");
  const ChildRun r = validate({file.string()}, "nan_mass");
  expect_contract(r);
  EXPECT_EQ(r.exit_code, 1);
  bool parsed = false, truncated = false;
  const auto m = messages(r.out, &parsed, &truncated);
  ASSERT_TRUE(parsed);
  EXPECT_TRUE(truncated);
  EXPECT_EQ(m.size(), 100000u);
  EXPECT_TRUE(has(m, "ACCESSOR_INVALID_FLOAT", "/accessors/0"));
}

TEST(HostileLarge, FileOverTheSizeLimitIsRefusedBeforeReading) {
  // 3 MiB of JSON text with --max-file-mb 2: FILE_TOO_LARGE, from a file and from stdin.
  std::string text = "{\"asset\":{\"version\":\"2.0\"},\"extras\":{\"pad\":\"";
  text += std::string(3u << 20, 'x');
  text += "\"}}";
  const fs::path file = write_file("three_mib.gltf", text);
  for (const bool from_stdin : {false, true}) {
    SCOPED_TRACE(from_stdin ? "stdin" : "file");
    const ChildRun r = from_stdin ? validate({"--max-file-mb", "2", "-"}, "too_large_stdin", file)
                             : validate({"--max-file-mb", "2", file.string()}, "too_large_file");
    expect_contract(r);
    EXPECT_EQ(r.exit_code, 1);
    bool parsed = false;
    EXPECT_TRUE(has(messages(r.out, &parsed), "FILE_TOO_LARGE", ""));
    EXPECT_TRUE(parsed);
  }
  // The default limit (1 GiB) accepts it.
  const ChildRun ok = validate({file.string()}, "three_mib_default");
  expect_contract(ok);
  EXPECT_EQ(ok.exit_code, 0);
}

TEST(HostileLarge, EndlessStdinStopsAtTheLimit) {
  // /dev/zero on standard input never ends: the read stops at --max-file-mb + 1 byte.
  const ChildRun r = validate({"--max-file-mb", "1", "-"}, "dev_zero_stdin", fs::path("/dev/zero"));
  expect_contract(r);
  EXPECT_EQ(r.exit_code, 1);
  bool parsed = false;
  EXPECT_TRUE(has(messages(r.out, &parsed), "FILE_TOO_LARGE", ""));
  EXPECT_TRUE(parsed);
}

TEST(HostileLarge, SampleRefusesQuadraticBlowUp) {
  // 600 channels share one sampler whose input has 2^15 keys (a 512 KiB
  // buffer): sampling would decode 600 x 2^17 values and produce 600 x 2^17 x 4
  // more (about 3 GB); `sample` refuses once 2^26 values are held.
  constexpr std::uint32_t keys = 1u << 15;
  std::string bin(std::size_t{16} * keys, '\0');
  for (std::uint32_t i = 0; i < keys; ++i) {
    const float t = static_cast<float>(i) * 0.01f;
    std::memcpy(bin.data() + std::size_t{4} * i, &t, 4);
  }
  write_file("blowup.bin", bin);
  std::string nodes, channels;
  for (int i = 0; i < 600; ++i) {
    nodes += i ? ",{}" : "{}";
    channels += (i ? "," : "") + std::string(R"({"sampler":0,"target":{"node":)") + std::to_string(i) +
                R"(,"path":"translation"}})";
  }
  const fs::path file = write_file(
      "blowup.gltf", R"({"asset":{"version":"2.0"},"nodes":[)" + nodes + R"(],"buffers":[{"byteLength":)" +
                         std::to_string(bin.size()) + R"(,"uri":"blowup.bin"}],"bufferViews":[{"buffer":0,"byteLength":)" +
                         std::to_string(4 * keys) + R"(},{"buffer":0,"byteOffset":)" + std::to_string(4 * keys) +
                         R"(,"byteLength":)" + std::to_string(12 * keys) +
                         R"(}],"accessors":[{"bufferView":0,"componentType":5126,"count":)" + std::to_string(keys) +
                         R"(,"type":"SCALAR"},{"bufferView":1,"componentType":5126,"count":)" + std::to_string(keys) +
                         R"(,"type":"VEC3"}],"animations":[{"channels":[)" + channels +
                         R"(],"samplers":[{"input":0,"output":1}]}]})");
  const ChildRun r = run({GLTF_ANIM_CLI, "sample", file.string()}, "sample_blowup");
  expect_contract(r);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("more than 67108864 values"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

// ---- files outside the root, FIFOs ----

std::string asset_with_uri(const std::string& uri) {
  return R"({"asset":{"version":"2.0"},"buffers":[{"byteLength":4,"uri":")" + uri + R"("}]})";
}

TEST(HostileFiles, FifosInsideAndOutsideTheRootAreNeverOpened) {
  // Opening a FIFO for reading blocks until a writer appears: a loader that
  // opened one would hang, and the child would be killed after kKillAfter.
  const fs::path dir = kTmp / "fifo";
  fs::remove_all(dir);
  fs::create_directories(dir / "root");
  ASSERT_EQ(mkfifo((dir / "outside.bin").c_str(), 0600), 0);
  ASSERT_EQ(mkfifo((dir / "root/inside.bin").c_str(), 0600), 0);
  fs::create_symlink(dir / "outside.bin", dir / "root/link_out.bin");
  fs::create_symlink("inside.bin", dir / "root/link_in.bin");
  std::ofstream(dir / "root/a.gltf") << asset_with_uri("inside.bin");
  std::ofstream(dir / "root/b.gltf") << asset_with_uri("../outside.bin");
  std::ofstream(dir / "root/c.gltf") << asset_with_uri("link_out.bin");
  std::ofstream(dir / "root/d.gltf") << asset_with_uri("link_in.bin");
  const struct {
    const char* file;
    const char* code;
  } cases[] = {{"a.gltf", "RESOURCE_NOT_REGULAR_FILE"},
               {"b.gltf", "URI_OUTSIDE_ROOT"},
               {"c.gltf", "URI_OUTSIDE_ROOT"},
               {"d.gltf", "RESOURCE_NOT_REGULAR_FILE"}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.file);
    const ChildRun r = validate({(dir / "root" / c.file).string()}, std::string("fifo_") + c.file);
    expect_contract(r);
    EXPECT_EQ(r.exit_code, 1);
    bool parsed = false;
    EXPECT_TRUE(has(messages(r.out, &parsed), c.code, "/buffers/0/uri")) << r.out;
    EXPECT_TRUE(parsed);
  }
}

// ---- no socket, no file outside the root (strace) ----

// strace -f of a validate run: the syscalls it made, one per line, or nullopt
// when strace is missing or may not trace here (e.g. ptrace forbidden).
std::optional<std::string> strace_validate(const std::vector<std::string>& args, const std::string& tag) {
  if (std::system("strace -V >/dev/null 2>&1") != 0) return std::nullopt;
  const fs::path log = kTmp / (tag + ".strace");
  fs::remove(log);
  // LeakSanitizer cannot run under ptrace: off for the traced child (sanitizer builds).
  std::vector<std::string> argv{"/usr/bin/strace", "-f", "-qq", "-E", "ASAN_OPTIONS=detect_leaks=0",
                                "-o", log.string(), "-e",
                                "trace=%network,open,openat,openat2,creat", GLTF_ANIM_CLI, "validate",
                                "--format", "json"};
  if (!fs::exists(argv[0])) return std::nullopt;
  argv.insert(argv.end(), args.begin(), args.end());
  const ChildRun r = run(argv, tag);
  if (!r.exited || r.exit_code > 2) return std::nullopt;
  std::string text = cli_process::slurp(log);
  // Proof that tracing worked: the dynamic loader and the asset were opened.
  if (text.find("openat(") == std::string::npos && text.find("open(") == std::string::npos) {
    return std::nullopt;
  }
  return text;
}

TEST(HostileFiles, NoSocketAndNoFileOutsideTheRoot) {
  const std::optional<std::string> trace =
      strace_validate({"--threads", "2", (kHostile / "cases").string()}, "strace_cases");
  // strace is a test dependency (scripts/run-tests.sh installs it): without a
  // trace nothing would be checked, so that is a failure, not a pass.
  ASSERT_TRUE(trace.has_value()) << "strace is missing or may not trace here (apt-get install strace; "
                                    "ptrace must be allowed): the no-socket / no-file-outside-the-root "
                                    "check needs it";
  for (const char* call : {"socket(", "connect(", "socketpair(", "bind(", "sendto(", "sendmsg("}) {
    EXPECT_EQ(trace->find(call), std::string::npos) << call << " in\n" << *trace;
  }
  // uri_*.gltf point at /etc/passwd (absolute, file:, ../, %2e%2e/): never opened.
  EXPECT_EQ(trace->find("/etc/passwd"), std::string::npos) << *trace;
  EXPECT_EQ(trace->find("buffer.bin"), std::string::npos) << *trace;
  // The inputs themselves were opened (the trace is not empty for a wrong reason).
  EXPECT_NE(trace->find("uri_http.gltf"), std::string::npos) << *trace;
}

// ---- determinism ----

TEST(HostileDeterminism, FolderModeIsByteIdenticalForAnyThreadCount) {
  for (const fs::path& folder :
       {fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets", kHostile / "cases"}) {
    SCOPED_TRACE(folder.string());
    const std::string tag = folder.filename().string();
    // --no-timings: without the validation times the report is byte-reproducible.
    const ChildRun one = validate({"--no-timings", "--threads", "1", folder.string()}, tag + "_t1");
    const ChildRun two = validate({"--no-timings", "--threads", "2", folder.string()}, tag + "_t2");
    const ChildRun four =
        validate({"--no-timings", "--threads", "4", folder.string()}, tag + "_t4");
    expect_contract(one);
    EXPECT_GT(one.out.size(), 1000u);
    EXPECT_EQ(one.out, two.out);
    EXPECT_EQ(one.out, four.out);
    EXPECT_EQ(one.exit_code, two.exit_code);
    EXPECT_EQ(one.exit_code, four.exit_code);
    // And the same as the previous run: nothing depends on time.
    EXPECT_EQ(one.out,
              validate({"--no-timings", "--threads", "1", folder.string()}, tag + "_t1_again").out);
  }
}

TEST(HostileDeterminism, SampleTwiceIsByteIdentical) {
  std::size_t n = 0;
  for (const auto& e : fs::directory_iterator(fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets/valid")) {
    const auto ext = e.path().extension();
    if (ext != ".gltf" && ext != ".glb") continue;
    SCOPED_TRACE(e.path().string());
    for (const char* format : {"json", "csv"}) {
      const ChildRun a = run({GLTF_ANIM_CLI, "sample", e.path().string(), "--format", format}, "sample_a");
      const ChildRun b = run({GLTF_ANIM_CLI, "sample", e.path().string(), "--format", format}, "sample_b");
      expect_contract(a);
      EXPECT_EQ(a.exit_code, 0);
      EXPECT_FALSE(a.out.empty());
      EXPECT_EQ(a.out, b.out);
    }
    ++n;
  }
  EXPECT_GE(n, 50u);
}

// ---- sample on every hostile input ----

TEST(HostileCorpus, SampleKeepsTheContractOnEveryCase) {
  for (const auto& e : fs::directory_iterator(kHostile / "cases")) {
    SCOPED_TRACE(e.path().filename().string());
    const ChildRun r = run({GLTF_ANIM_CLI, "sample", e.path().string()}, "sample_case");
    expect_contract(r);
  }
}

// Accessors without bufferView hold zeros that are not stored: every pass is
// O(stored), never O(declared count). Count 2^50 (and 2^64 - 1) takes a step
// per run of zeros, so validate and sample end well inside one second of CPU
// (RLIMIT_CPU: SIGXCPU would fail the contract); walking every implicit zero
// would take weeks.
TEST(HostileLarge, ImplicitAccessorsOfHugeCountsEndUnderOneCpuSecond) {
  for (const char* name : {"implicit_sparse_count_2_50.gltf", "implicit_rotation_count_2_64_minus_1.gltf"}) {
    SCOPED_TRACE(name);
    const std::string file = (kHostile / "cases" / name).string();
    for (const char* command : {"validate", "sample"}) {
      SCOPED_TRACE(command);
      // prlimit(1) sets the CPU limit on the child only; no shell.
      const ChildRun r = run({"/usr/bin/prlimit", "--cpu=1", GLTF_ANIM_CLI, command, file}, "implicit");
      expect_contract(r);
      EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
      EXPECT_LT(r.cpu_seconds, 1.0);
    }
  }
}

// ---- bounds in time and bytes: writers, issue storage, sample, stdin, folders ----

TEST(HostileBounds, SarifLocatesPointersInLinearTime) {
  // 1.4 M array elements under one 40 KB key, after 5,000 objects with a
  // duplicate key (5,000 issue pointers through that key): a line finder that
  // rebuilds the pointer of every value and compares it with the wanted ones
  // copies and compares hundreds of GB; one that extends the pointer and its
  // hash by the last token reads the 3 MB once. UNEXPECTED_PROPERTY at /bogus,
  // after the array, must still get its line.
  std::string text = "{\"asset\":{\"version\":\"2.0\"},\"extras\":{\"";
  text += std::string(40000, 'k');
  text += "\":[";
  for (int i = 0; i < 5000; ++i) text += "{\"a\":0,\"a\":0},";
  for (int i = 0; i < 1400000; ++i) text += i ? ",0" : "0";
  text += "]},\n\"bogus\":1}";
  const fs::path file = write_file("sarif_linear.gltf", text);
  const ChildRun r = run({GLTF_ANIM_CLI, "validate", "--format", "sarif", file.string()}, "sarif_linear");
  expect_contract(r);
  gltf_anim::json::Document d;
  d.Parse(r.out.c_str(), r.out.size());
  ASSERT_FALSE(d.HasParseError());
  const auto& results = d["runs"][0]["results"];
  ASSERT_GE(results.Size(), 1u);
  bool located = false;
  for (const auto& res : results.GetArray()) {
    const auto& loc = res["locations"][0];
    if (loc.HasMember("logicalLocations") &&
        std::string(loc["logicalLocations"][0]["fullyQualifiedName"].GetString()) == "/bogus") {
      // The file's second line.
      located = loc["physicalLocation"].HasMember("region") &&
                loc["physicalLocation"]["region"]["startLine"].GetInt() == 2;
    }
  }
  EXPECT_TRUE(located);
}

// An array under a long key holding `n` objects {"a":0,"a":0}: one
// JSON_DUPLICATE_KEY (a warning) per object, each at a pointer through the key.
fs::path duplicate_keys_file(const std::string& name, int n, std::size_t key_bytes) {
  std::string text = "{\"asset\":{\"version\":\"2.0\"},\"extras\":{\"";
  text += std::string(key_bytes, 'k');
  text += "\":[";
  for (int i = 0; i < n; ++i) text += i ? ",{\"a\":0,\"a\":0}" : "{\"a\":0,\"a\":0}";
  text += "]}}";
  return write_file(name, text);
}

TEST(HostileBounds, IssueStorageIsBoundedInBytes) {
  // 100,000 duplicate keys x a 20 KB pointer: 2 GB of pointers from a 1.4 MB
  // file. Stored pointers are cut at 1 KiB and an asset's issues at 64 MiB.
  const fs::path file = duplicate_keys_file("dup_long_pointer.gltf", 100000, 20000);
  const ChildRun r = validate({file.string()}, "dup_long_pointer");
  expect_contract(r);
  EXPECT_EQ(r.exit_code, 0);  // warnings only
  gltf_anim::json::Document d;
  d.Parse(r.out.c_str(), r.out.size());
  ASSERT_FALSE(d.HasParseError()) << r.err;
  EXPECT_TRUE(d["reports"][0]["issues"]["truncated"].IsTrue());
  const auto& m = d["reports"][0]["issues"]["messages"];
  // 64 MiB over (1 KiB pointer + ~100 bytes of record and message): about 50,000.
  EXPECT_GT(m.Size(), 20000u);
  EXPECT_LT(m.Size(), 70000u);
  std::size_t cut = 0;
  for (const auto& i : m.GetArray()) {
    if (std::string(i["code"].GetString()) != "JSON_DUPLICATE_KEY") continue;
    const std::string pointer = i["pointer"].GetString();
    EXPECT_LE(pointer.size(), 1024u);
    cut += pointer.size() == 1024u && pointer.ends_with("...(cut)") ? 1 : 0;
  }
  EXPECT_GT(cut, 20000u);
#ifndef GLTF_ANIM_TEST_ASAN
  EXPECT_LT(r.max_rss_kib, 256L * 1024);
#endif
}

TEST(HostileBounds, WorkerOutOfMemoryBecomesAReportEntry) {
  // Without the issue limits, a million 2 KB-pointer issues need 2 GB: under
  // the 1 GiB address-space limit the worker validating that asset fails with
  // bad_alloc. It must become INTERNAL_ERROR for that asset, and the other
  // asset of the folder is still reported, with 2 threads as with 1.
  const fs::path dir = kTmp / "oom_folder";
  fs::create_directories(dir);
#ifdef GLTF_ANIM_TEST_ASAN
  // ASan runs without the address-space limit, so the allocation would succeed
  // after 2 GB and tens of seconds: a smaller file checks the folder's report.
  constexpr int kDuplicates = 50000;
#else
  constexpr int kDuplicates = 1000000;
#endif
  fs::copy_file(duplicate_keys_file("oom_dup.gltf", kDuplicates, 2000), dir / "a_oom.gltf",
                fs::copy_options::overwrite_existing);
  std::ofstream(dir / "b_ok.gltf") << R"({"asset":{"version":"2.0"}})";
  for (const char* threads : {"2"}) {
    SCOPED_TRACE(threads);
    // Its CPU is bounded below; the wall clock only guards against a hang, and
    // filling 1 GiB on a shared, loaded machine took over 60 s of it.
    const ChildRun r = run({GLTF_ANIM_CLI, "validate", "--format", "json", "--max-issues", "0",
                            "--max-issue-mb", "0", "--threads", threads, dir.string()},
                           std::string("oom_folder_") + threads, std::nullopt, 3 * kKillAfter);
    // Filling 1 GiB with issues takes 3-4 s of CPU on an idle machine (6 s seen
    // on a loaded one, over the default ceiling of 5).
    expect_contract(r, 4 * kCpuCeiling);
    gltf_anim::json::Document d;
    d.Parse(r.out.c_str(), r.out.size());
    ASSERT_FALSE(d.HasParseError()) << r.err;
    const auto& reports = d["reports"];
    ASSERT_EQ(reports.Size(), 2u);
    EXPECT_EQ(reports[1]["issues"]["numErrors"].GetUint(), 0u);
#ifndef GLTF_ANIM_TEST_ASAN
    // Under ASan there is no address-space limit: the allocation may succeed.
    EXPECT_EQ(r.exit_code, 1);
    ASSERT_EQ(reports[0]["issues"]["messages"].Size(), 1u);
    EXPECT_STREQ(reports[0]["issues"]["messages"][0]["code"].GetString(), "INTERNAL_ERROR");
    EXPECT_STREQ(reports[0]["issues"]["messages"][0]["pointer"].GetString(), "");
#endif
  }
}

TEST(HostileBounds, SampleRateIsCheckedBeforeAllocating) {
  // --rate 2e8 over one second of keys asks for 2e8 times (1.6 GB of doubles);
  // the --max-values bound (2^26) refuses it before any is allocated.
  const fs::path asset = fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets/valid/rotation_linear.gltf";
  const ChildRun r = run({GLTF_ANIM_CLI, "sample", "--rate", "2e8", asset.string()}, "sample_rate_2e8");
  expect_contract(r);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("more than 67108864 values"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
#ifndef GLTF_ANIM_TEST_ASAN
  EXPECT_LT(r.max_rss_kib, 64L * 1024);
#endif
  // Without --max-values, the 2^28 cap of --rate itself, also before allocating.
  const ChildRun u = run({GLTF_ANIM_CLI, "sample", "--rate", "1e9", "--max-values", "0", asset.string()},
                         "sample_rate_1e9");
  expect_contract(u);
  EXPECT_EQ(u.exit_code, 2);
  EXPECT_NE(u.err.find("2^28"), std::string::npos) << u.err;
#ifndef GLTF_ANIM_TEST_ASAN
  EXPECT_LT(u.max_rss_kib, 64L * 1024);
#endif
}

TEST(HostileBounds, StdinIsHeldOnceNotDoubled) {
  // 256 MiB + 1 byte of /dev/zero: a vector that doubles as it reads peaks at
  // twice that; reading into memory that grows in place holds it once.
  const ChildRun r = validate({"--max-file-mb", "256", "-"}, "dev_zero_256", fs::path("/dev/zero"));
  expect_contract(r);
  EXPECT_EQ(r.exit_code, 1);
  bool parsed = false;
  EXPECT_TRUE(has(messages(r.out, &parsed), "FILE_TOO_LARGE", ""));
  EXPECT_TRUE(parsed);
#ifndef GLTF_ANIM_TEST_ASAN
  EXPECT_LT(r.max_rss_kib, 320L * 1024);
#endif
}

TEST(HostileBounds, FolderReportsAreStreamed) {
  // 100 assets of 2,500 duplicate keys each (about 0.6 MB of issues per
  // report): holding every report until the end needs over 64 MB; streaming
  // them in order holds a window of a few (about 15 MB in all).
  const fs::path dir = kTmp / "many_reports";
  fs::create_directories(dir);
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path one = duplicate_keys_file("many_dup.gltf", 2500, 1);
  for (int i = 0; i < 100; ++i) {
    fs::copy_file(one, dir / ("asset_" + std::to_string(100 + i) + ".gltf"), fs::copy_options::overwrite_existing);
  }
  for (const char* format : {"json", "text", "junit", "sarif"}) {
    SCOPED_TRACE(format);
    const ChildRun r = run({GLTF_ANIM_CLI, "validate", "--format", format, "--threads", "2", dir.string()},
                           std::string("many_reports_") + format);
    expect_contract(r);
    EXPECT_EQ(r.exit_code, 0);  // warnings only
    EXPECT_NE(r.out.find("asset_199.gltf"), std::string::npos);
#ifndef GLTF_ANIM_TEST_ASAN
    EXPECT_LT(r.max_rss_kib, 40L * 1024);
#endif
  }
}

TEST(HostileBounds, SchemaErrorsOfEveryValueAreNotHeldAtOnce) {
  // 2,000,000 values of the wrong type (an 8 MB file). Kept as schema errors
  // until validation ends (about 500 bytes each with their paths), they took
  // 1.1 GB: over the 1 GiB address-space limit, the asset was INTERNAL_ERROR.
  // The bound: the file, its parsed document (at most 32 bytes per value, so
  // 64 MB here) and the issues kept (100,000 by default, about 25 MB; 3.2 MB more
  // since each carries its template's arguments: 157 MiB before, 160.4 after).
  constexpr int kValues = 2000000;
  auto list = [](const char* value) {
    std::string out;
    for (int i = 0; i < kValues; ++i) (out += i ? "," : "") += value;
    return out;
  };
  struct Shape {
    const char* name;
    std::string text;
    const char* code;  // expected once at `pointer`
    const char* pointer;
  };
  const std::string head = R"({"asset":{"version":"2.0"},)";
  const Shape shapes[] = {
      // An array of indices holding strings: one ARRAY_TYPE_MISMATCH at the array.
      {"children", head + R"("nodes":[{"children":[)" + list(R"("x")") + "]}]}",
       "ARRAY_TYPE_MISMATCH", "/nodes/0/children"},
      // A SCALAR accessor's min with 2 M strings: one ARRAY_TYPE_MISMATCH, and its length.
      {"min",
       head + R"("accessors":[{"componentType":5126,"count":1,"type":"SCALAR","min":[)" +
           list(R"("a")") + "]}]}",
       "ARRAY_TYPE_MISMATCH", "/accessors/0/min"},
      // A root collection of numbers: a TYPE_MISMATCH per element, capped by --max-issues.
      {"nodes", head + R"("nodes":[)" + list("1") + "]}", "TYPE_MISMATCH", "/nodes/0"},
  };
  for (const Shape& shape : shapes) {
    SCOPED_TRACE(shape.name);
    const fs::path file =
        write_file(std::string("schema_mass_") + shape.name + ".gltf", shape.text);
    const ChildRun r = validate({file.string()}, std::string("schema_mass_") + shape.name);
    expect_contract(r);
    EXPECT_EQ(r.exit_code, 1);
    bool parsed = false;
    const auto m = messages(r.out, &parsed);
    ASSERT_TRUE(parsed) << r.err;
    EXPECT_EQ(m.count({shape.code, shape.pointer}), 1u);
    EXPECT_EQ(m.count({"INTERNAL_ERROR", ""}), 0u);
#ifndef GLTF_ANIM_TEST_ASAN
    EXPECT_LT(r.max_rss_kib, 168L * 1024);
#endif
  }
}

TEST(HostileBounds, RepeatedLookupsInALargeObjectAreIndexed) {
  // One node with 100,000 members, targeted by 100,000 channels (core target,
  // then KHR_animation_pointer): scanning the node's members once per channel
  // is 10^10 comparisons (27 s and 11 s of CPU); indexing it once is linear.
  std::string node = "{";
  for (int i = 0; i < 100000; ++i) node += (i ? ",\"x" : "\"x") + std::to_string(i) + "\":0";
  node += "}";
  const std::string core_target = R"({"sampler":0,"target":{"node":0,"path":"translation"}})";
  const std::string pointer_target =
      R"({"sampler":0,"target":{"path":"pointer","extensions":{"KHR_animation_pointer":{"pointer":"/nodes/0/translation"}}}})";
  for (const auto& [name, channel] : {std::pair{"core", core_target}, {"pointer", pointer_target}}) {
    SCOPED_TRACE(name);
    std::string channels;
    for (int i = 0; i < 100000; ++i) channels += (i ? "," : "") + channel;
    const fs::path file = write_file(
        std::string("big_node_") + name + ".gltf",
        R"({"asset":{"version":"2.0"},"extensionsUsed":["KHR_animation_pointer"],"nodes":[)" + node +
            R"(],"buffers":[{"byteLength":8,"uri":"data:application/octet-stream;base64,AAAAAAAAgD8="}],)"
            R"("bufferViews":[{"buffer":0,"byteLength":8}],"accessors":[{"bufferView":0,"componentType":5126,)"
            R"("count":2,"type":"SCALAR","min":[0],"max":[1]}],"animations":[{"channels":[)" + channels +
            R"(],"samplers":[{"input":0,"output":0}]}]})");
    const ChildRun r = validate({file.string()}, std::string("big_node_") + name);
    expect_contract(r);
    bool parsed = false, truncated = false;
    const auto m = messages(r.out, &parsed, &truncated);
    EXPECT_TRUE(parsed);
    // The node's 100,000 unknown members fill the default issue limit.
    EXPECT_TRUE(has(m, "UNEXPECTED_PROPERTY", "/nodes/0/x0"));
    EXPECT_TRUE(truncated);
  }
}


TEST(HostileBounds, CompareMatchesFilesInLinearTime) {
  // 3,000 golden files listed in a manifest and 3,000 actual ones: finding each
  // golden file's entry by a stat of every entry, and its actual file by a scan
  // of every actual file, took 17 s of CPU; indexes built once take a fraction.
  const fs::path dir = kTmp / "compare_many";
  fs::remove_all(dir);
  fs::create_directories(dir / "golden/valid");
  fs::create_directories(dir / "actual");
  const fs::path one = fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets/valid/edge_single_key.samples.json";
  std::string entries;
  for (int i = 0; i < 3000; ++i) {
    const std::string name = "case_" + std::to_string(10000 + i);
    fs::copy_file(one, dir / "golden/valid" / (name + ".samples.json"));
    fs::copy_file(one, dir / "actual" / (name + ".samples.json"));
    entries += (i ? "," : "") + std::string(R"({"id":")") + name + R"(","samples":"valid/)" + name +
               R"(.samples.json"})";
  }
  std::ofstream(dir / "golden/manifest.json") << R"({"suite":"many","assets":[)" << entries << "]}";
  const ChildRun r = run({GLTF_ANIM_CLI, "compare", "--golden", (dir / "golden").string(), "--actual",
                          (dir / "actual").string(), "--format", "json"},
                         "compare_many");
  expect_contract(r);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  gltf_anim::json::Document d;
  d.Parse(r.out.c_str(), r.out.size());
  EXPECT_FALSE(d.HasParseError());
  EXPECT_NE(r.out.find("case_12999"), std::string::npos);
}


TEST(HostileBounds, CompareCountsUnsupportedFeaturesInLinearTime) {
  // An actual samples file whose 100,000 channels each declare another feature
  // its engine cannot play: looking each feature up in the case's list of those
  // seen so far is 5 * 10^9 string comparisons; a set keeps it linear.
  const fs::path dir = kTmp / "compare_unsupported";
  fs::remove_all(dir);
  fs::create_directories(dir);
  constexpr int kChannels = 100000;
  std::string golden = R"({"asset":"a.gltf","generator":"g","animations":[{"index":0,"channels":[)";
  std::string actual = golden;
  for (int i = 0; i < kChannels; ++i) {
    const std::string target = "\"/nodes/" + std::to_string(i) + "/translation\"";
    golden += (i ? "," : "") + std::string(R"({"target":)") + target +
              R"(,"samples":[{"t":0,"value":[0,0,0]}]})";
    actual += (i ? "," : "") + std::string(R"({"target":)") + target + R"(,"unsupported":"f)" +
              std::to_string(i) + R"(","samples":[]})";
  }
  golden += "]}]}";
  actual += "]}]}";
  std::ofstream(dir / "golden.json") << golden;
  std::ofstream(dir / "actual.json") << actual;
  const ChildRun r = run({GLTF_ANIM_CLI, "compare", "--golden", (dir / "golden.json").string(),
                          "--actual", (dir / "actual.json").string(), "--format", "json"},
                         "compare_unsupported");
  expect_contract(r);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("f99999"), std::string::npos);
}


TEST(HostileBounds, CompareAppliesAVariantExcerptInLinearTime) {
  // A failing case whose manifest variant lists 150,000 samples of a 150,000-
  // sample channel: finding each excerpt sample by a scan of the channel was
  // 10^10 steps (8 s); sorted once, each is a binary search. The variant matches.
  const fs::path dir = kTmp / "compare_excerpt";
  fs::remove_all(dir);
  fs::create_directories(dir / "golden");
  fs::create_directories(dir / "actual");
  constexpr int n = 150000;
  auto samples_file = [](const char* value) {
    std::string text = R"({"asset":"x.gltf","animations":[{"index":0,"channels":[{"index":0,)"
                       R"("target":"/nodes/0/translation","interpolation":"LINEAR","keyframes":[0],"samples":[)";
    for (int i = 0; i < n; ++i) text += (i ? "," : "") + std::string(R"({"t":)") + std::to_string(i) + R"(,"value":)" + value + "}";
    return text + "]}]}]}";
  };
  std::ofstream(dir / "golden/x.samples.json") << samples_file("[0,0,0]");
  std::ofstream(dir / "actual/x.samples.json") << samples_file("[1,1,1]");
  std::string excerpt;
  for (int i = 0; i < n; ++i) {
    excerpt += (i ? "," : "") + std::string(R"({"animation":0,"channel":0,"t":)") + std::to_string(i) +
               R"(,"value":[1,1,1]})";
  }
  std::ofstream(dir / "golden/manifest.json")
      << R"({"suite":"excerpt","assets":[{"id":"x","samples":"x.samples.json","variants":{"ones":{"description":"all ones","samples":[)"
      << excerpt << "]}}}]}";
  const ChildRun r = run({GLTF_ANIM_CLI, "compare", "--golden", (dir / "golden").string(), "--actual",
                          (dir / "actual").string(), "--format", "json"},
                         "compare_excerpt");
  expect_contract(r);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("ones"), std::string::npos);
}

// ---- the argument list and glTF-Validator's reports: linear in their length ----

// A scratch folder holding a.gltf (a small valid asset) and dup.gltf (100,000
// duplicate keys: 100,000 issues), where the child runs, so that paths are short.
fs::path scale_folder() {
  const fs::path dir = kTmp / "scale";
  if (fs::exists(dir / "dup.gltf") && fs::exists(dir / "lib/a.gltf")) return dir;
  fs::create_directories(dir);
  fs::copy_file(fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets/valid/edge_single_key.gltf",
                dir / "a.gltf", fs::copy_options::overwrite_existing);
  std::string dup = "{\"asset\":{\"version\":\"2.0\"},\"extras\":[";
  for (int i = 0; i < 100000; ++i) dup += i ? ",{\"a\":0,\"a\":0}" : "{\"a\":0,\"a\":0}";
  fs::create_directories(dir / "lib");
  fs::copy_file(dir / "a.gltf", dir / "lib/a.gltf", fs::copy_options::overwrite_existing);
  std::ofstream(dir / "dup.gltf", std::ios::binary) << dup << "]}";
  return dir;
}

ChildRun run_in(const fs::path& dir, std::vector<std::string> args, const std::string& tag,
                const std::optional<fs::path>& stdin_file = std::nullopt) {
  args.insert(args.begin(), {GLTF_ANIM_CLI, "validate"});
  cli_process::Options o;
  o.cwd = dir;
  o.stdin_path = stdin_file;
  o.kill_after = kKillAfter;
  o.cpu_seconds = static_cast<rlim_t>(kKillAfter.count());
#ifndef GLTF_ANIM_TEST_ASAN
  o.address_space = kMemoryLimit;
#endif
  return cli_process::run_program(args, kTmp / tag, o);
}

TEST(HostileBounds, ArgumentListIsParsedInLinearTime) {
  // 100,000 PATH words: Boost.Program_options erases each word from the front
  // of its list (11.7 s of CPU before any work); the positional words are now
  // set apart in one pass. `--format none` is refused once they are parsed.
  const fs::path dir = scale_folder();
  std::vector<std::string> args = {"--format", "none"};
  args.insert(args.end(), 100000, "a.gltf");
  const ChildRun r = run_in(dir, args, "argv_100000");
  expect_contract(r);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown --format 'none'"), std::string::npos) << r.err;
}

TEST(HostileBounds, RepeatedOptionsAreParsedInLinearTime) {
  // `--ignore=IO_ERROR` 7,000 and 70,000 times (1.8 MB with the pointers, under the
  // kernel's argument limit). Given to Boost.Program_options together, each word was
  // erased from the front of its list (20,000 took 6 s of wall time). One option at a
  // time the parse is linear: ten times the words cost about ten times the CPU (startup
  // included, so less), a quadratic pass about a hundred times.
  const fs::path dir = scale_folder();
  const auto run_with = [&dir](std::size_t n) {
    std::vector<std::string> args(n, "--ignore=IO_ERROR");
    args.insert(args.end(), {"--format", "none", "a.gltf"});
    const ChildRun r = run_in(dir, args, "ignore_" + std::to_string(n));
    expect_contract(r);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("unknown --format 'none'"), std::string::npos) << r.err;
    return r.cpu_seconds;
  };
  const double small = run_with(7000);
  const double large = run_with(70000);
  // Measured: 0.016 s and 0.14 s; before, 0.04 s and 2.4 s (CPU, not wall: the
  // quadratic pass's memory traffic took 19 s of wall time on a loaded machine).
  EXPECT_LT(large, 20.0 * small + 0.5) << small << " s for 7,000, " << large << " s for 70,000";
}

TEST(HostileBounds, PathsFromAListOrStandardInput) {
  // --files-from names the same assets as the command line, in the same order.
  const fs::path dir = scale_folder();
  std::ofstream(dir / "list.txt") << "a.gltf\r\n\ndup.gltf\n";
  const ChildRun direct = run_in(dir, {"--format", "json", "--no-timings", "a.gltf", "dup.gltf"},
                                 "list_direct");
  const ChildRun listed = run_in(
      dir, {"--format", "json", "--no-timings", "--files-from", "list.txt"}, "list_file");
  const ChildRun piped = run_in(dir, {"--format", "json", "--no-timings", "--files-from", "-"},
                                "list_stdin", dir / "list.txt");
  for (const ChildRun* r : {&direct, &listed, &piped}) {
    expect_contract(*r);
    EXPECT_EQ(r->exit_code, 0) << r->err;
  }
  EXPECT_EQ(listed.out, direct.out);
  EXPECT_EQ(piped.out, direct.out);
  // Standard input cannot be the list and an asset at once; the list is an input.
  EXPECT_EQ(run_in(dir, {"--files-from", "-", "-"}, "list_twice", dir / "list.txt").exit_code, 2);
  const ChildRun clobber =
      run_in(dir, {"--files-from", "list.txt", "--output", "list.txt"}, "list_output");
  EXPECT_EQ(clobber.exit_code, 2);
  EXPECT_NE(clobber.err.find("refusing to write"), std::string::npos) << clobber.err;
}

TEST(HostileBounds, GltfValidatorReportsAreMatchedAndMergedInLinearTime) {
  const fs::path dir = scale_folder();
  // A uri of 2 MB of folders: each of its tails built as a string was 10^12 bytes copied.
  {
    std::string uri;
    for (int i = 0; i < 1000000; ++i) uri += "x/";
    std::ofstream(dir / "long_uri.json") << R"({"uri": ")" << uri
                                          << R"(a.gltf", "issues": {"messages": []}})";
    const ChildRun r = run_in(
        dir, {"--format", "json", "--merge-gltf-validator", "long_uri.json", "a.gltf"}, "long_uri");
    expect_contract(r);
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  // 2,000 reports of an asset with 100,000 issues: ours were indexed per report.
  {
    std::ofstream reports(dir / "empty_reports.json");
    reports << "[";
    for (int i = 0; i < 2000; ++i) reports << (i ? "," : "") << R"({"uri": "dup.gltf", "issues": {"messages": []}})";
    reports << "]";
  }
  {
    const ChildRun r = run_in(dir,
                              {"--format", "json", "--max-issues", "0", "--merge-gltf-validator",
                               "empty_reports.json", "dup.gltf"},
                              "many_reports");
    expect_contract(r);
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  // 1,400 paths 1,000 folders deep: a map keyed on the text of every tail of
  // every path held about 1.5 GB (over the 1 GiB limit).
  {
    std::ofstream list(dir / "deep.txt");
    for (int i = 0; i < 1400; ++i) {
      list << "lib/";  // inner "./" are folders to the matcher; leading ones are dropped
      for (int k = 0; k < 1000; ++k) list << "./";
      list << "a.gltf\n";
    }
    list << "dup.gltf\n";
  }
  const ChildRun r = run_in(dir,
                            {"--format", "json", "--merge-gltf-validator", "empty_reports.json",
                             "--files-from", "deep.txt"},
                            "deep_paths");
  expect_contract(r);
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(HostileBounds, StdinOverTheLimitIsNotHeldPastIt) {
  // 64 MiB of /dev/zero against --max-file-mb 32: refused once 32 MiB and one
  // byte have come; the byte past the limit is read aside, so the memory held
  // stays at the limit (it grew to the limit and a page more).
  const ChildRun r = validate({"--max-file-mb", "32", "-"}, "dev_zero_32", fs::path("/dev/zero"));
  expect_contract(r);
  EXPECT_EQ(r.exit_code, 1);
  bool parsed = false;
  EXPECT_TRUE(has(messages(r.out, &parsed), "FILE_TOO_LARGE", ""));
  EXPECT_TRUE(parsed);
  // Exactly the limit is not too large (it is then validated: zeros are no JSON).
  const fs::path exact = kTmp / "exact_32_mib.bin";
  {
    std::ofstream out(exact, std::ios::binary);
    out << std::string(std::size_t{32} << 20, ' ');
  }
  const ChildRun e = validate({"--max-file-mb", "32", "-"}, "exact_32", exact);
  expect_contract(e);
  EXPECT_FALSE(has(messages(e.out, &parsed), "FILE_TOO_LARGE", "")) << e.out.substr(0, 500);
}

TEST(HostileBounds, SampleRefusesImplicitTimesBeforeDecoding) {
  // An input accessor without bufferView of count 2^28 (a 400-byte file): its
  // times are zeros, not increasing, as validate says; decoding them first was
  // 2 GiB of doubles (std::bad_alloc under the 1 GiB limit).
  const std::string text =
      R"({"asset":{"version":"2.0"},"nodes":[{}],)"
      R"("accessors":[{"componentType":5126,"count":268435456,"type":"SCALAR","min":[0],"max":[0]},)"
      R"({"componentType":5126,"count":268435456,"type":"VEC3"}],)"
      R"("animations":[{"samplers":[{"input":0,"output":1}],)"
      R"("channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}]}]})";
  const fs::path asset = write_file("implicit_input_2_28.gltf", text);
  const ChildRun v = validate({asset.string()}, "implicit_2_28_validate");
  expect_contract(v);
  EXPECT_EQ(v.exit_code, 1);
  const ChildRun r = run({GLTF_ANIM_CLI, "sample", asset.string()}, "implicit_2_28_sample");
  expect_contract(r);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("not increasing"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  // Stored times of a huge output are counted against --max-values before decoding.
  const ChildRun m = run({GLTF_ANIM_CLI, "sample", "--max-values", "1000",
                          (fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets/valid/rotation_linear.gltf").string()},
                         "max_values_1000");
  expect_contract(m);
}

}  // namespace

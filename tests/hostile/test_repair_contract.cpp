// The output contract (docs/RELIABILITY.md "Outputs and I/O failures") kept by the repair
// commands fix, reduce, fit and migrate, run as processes on an asset made here: a .gltf
// with an external .bin whose channels each command edits (a translation on a straight
// line, rotation keys in alternating hemispheres), so fix, reduce and fit write a new
// OUT.bin beside OUT, and migrate rewrites the asset alone.
//  - an output that is one of the inputs (the asset, its buffer, an image it names; by
//    path, hard link or symlink) is refused with exit 2 and every input stays
//    byte-identical, also after a dry run;
//  - OUT.bin never replaces an input and is never written into a planted FIFO or through
//    a planted symlink;
//  - a write that fails (a full device, RLIMIT_FSIZE) is exit 2 with the reason and leaves
//    no temporary and no part of the output (no OUT.bin without its OUT);
//  - SIGTERM while the output is being written leaves nothing behind;
//  - hostile inputs get an exit code and a message within bounded time and memory, and
//    the reports stay valid UTF-8 (JSON that parses) whatever the names.
#include <gtest/gtest.h>
#include <gltf_anim/gltf/json.hpp>
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <signal.h>
#include <spawn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cli/cli_process.hpp"
#include "../sanitizers.hpp"
#include "scratch.hpp"

namespace {

namespace fs = std::filesystem;
using CliRun = cli_process::Run;
using cli_process::snapshot;

const fs::path kTmp = gltf_anim_test::scratch_root() / "repair_contract";
const fs::path kGlb = fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets/valid/container_glb.glb";

fs::path fresh(const std::string& name) {
  const fs::path dir = kTmp / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary) << bytes;
}

void put_floats(std::string& out, const std::vector<float>& v) {
  out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
}

// `n` keys at t = 0, 1, ...: a translation (t, 0, 0) and rotations about z by 0.3 t
// radians, every other key negated (the same rotation in the other hemisphere; with
// `negated` false, none: nothing for fix to repair). `extra` goes into the document's top
// level (",\"images\":[...]"); `node_name` is raw JSON text.
void write_asset(const fs::path& dir, const std::string& name, std::size_t n,
                 const std::string& extra = "", const std::string& node_name = "n",
                 bool negated = true) {
  std::vector<float> times, translation, rotation;
  for (std::size_t k = 0; k < n; ++k) {
    const double t = static_cast<double>(k), sign = negated && k % 2 ? -1.0 : 1.0;
    times.push_back(static_cast<float>(t));
    translation.insert(translation.end(), {static_cast<float>(t), 0.0f, 0.0f});
    rotation.insert(rotation.end(), {0.0f, 0.0f, static_cast<float>(sign * std::sin(0.15 * t)),
                                     static_cast<float>(sign * std::cos(0.15 * t))});
  }
  std::string bin;
  put_floats(bin, times);
  put_floats(bin, translation);
  put_floats(bin, rotation);
  write(dir / (name + ".bin"), bin);
  const std::string N = std::to_string(n);
  write(
      dir / (name + ".gltf"),
      R"({"asset":{"version":"2.0"},"nodes":[{"name":")" + node_name +
          R"("}],"scenes":[{"nodes":[0]}],"scene":0,"buffers":[{"uri":")" + name +
          R"(.bin","byteLength":)" + std::to_string(bin.size()) +
          R"(}],"bufferViews":[{"buffer":0,"byteLength":)" + std::to_string(4 * n) +
          R"(},{"buffer":0,"byteOffset":)" + std::to_string(4 * n) + R"(,"byteLength":)" +
          std::to_string(12 * n) + R"(},{"buffer":0,"byteOffset":)" + std::to_string(16 * n) +
          R"(,"byteLength":)" + std::to_string(16 * n) +
          R"(}],"accessors":[{"bufferView":0,"componentType":5126,"count":)" + N +
          R"(,"type":"SCALAR","min":[0],"max":[)" + std::to_string(n - 1) +
          R"(]},{"bufferView":1,"componentType":5126,"count":)" + N +
          R"(,"type":"VEC3"},{"bufferView":2,"componentType":5126,"count":)" + N +
          R"(,"type":"VEC4"}],"animations":[{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}},{"sampler":1,"target":{"node":0,"path":"rotation"}}],"samplers":[{"input":0,"output":1},{"input":0,"output":2}]}])" +
          extra + "}");
}

struct Command {
  std::string name;
  std::vector<std::string> options;  // what it needs besides IN and -o OUT
  bool writes_buffer = true;         // a new OUT.bin beside OUT
};

const std::vector<Command>& commands() {
  static const std::vector<Command> all = {
      {"fix", {}},
      {"reduce", {"--max-error", "1e-3"}},
      {"fit", {"--to", "cubicspline", "--max-error", "1e-3"}},
      {"migrate", {"--to", "khr_animation_pointer"}, false},
  };
  return all;
}

std::vector<std::string> args(const Command& c, const fs::path& in, const fs::path& out,
                              std::vector<std::string> more = {}) {
  std::vector<std::string> a{c.name, in.string(), "-o", out.string()};
  a.insert(a.end(), c.options.begin(), c.options.end());
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

CliRun cli(const std::vector<std::string>& a, cli_process::Options o = {}) {
  if (o.kill_after.count() == 0) o.kill_after = std::chrono::seconds(60);
  return cli_process::run(a, kTmp / "runs", o);
}

bool valid_utf8(const std::string& s) {
  std::size_t k = 0;
  while (k < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[k]);
    const std::size_t len = c < 0x80         ? 1
                            : (c >> 5) == 6  ? 2
                            : (c >> 4) == 14 ? 3
                            : (c >> 3) == 30 ? 4
                                             : 0;
    if (len == 0 || k + len > s.size()) return false;
    for (std::size_t i = 1; i < len; ++i) {
      if ((static_cast<unsigned char>(s[k + i]) >> 6) != 2) return false;
    }
    k += len;
  }
  return true;
}

TEST(RepairContract, AnOutputThatIsAnInputIsRefusedByPathHardLinkAndSymlink) {
  for (const Command& c : commands()) {
    for (const char* input : {"a.gltf", "a.bin", "tex.png"}) {
      for (const char* form : {"path", "hard link", "symlink"}) {
        SCOPED_TRACE(c.name + " over " + input + " by " + form);
        const fs::path d = fresh("same");
        write_asset(d, "a", 5, R"(,"images":[{"uri":"tex.png"}])");
        write(d / "tex.png", "not really a PNG");
        fs::path out = d / input;
        if (form[0] == 'h') fs::create_hard_link(d / input, out = d / "alias.gltf");
        if (form[0] == 's') fs::create_symlink(d / input, out = d / "alias.gltf");
        const auto before = snapshot(d);
        const CliRun r = cli(args(c, d / "a.gltf", out));
        ASSERT_TRUE(r.exited) << "signal " << r.signal;
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_NE(r.err.find("refusing to write '" + out.string() + "'"), std::string::npos)
            << r.err;
        EXPECT_NE(r.err.find(input), std::string::npos) << r.err;
        EXPECT_EQ(snapshot(d), before);  // inputs byte-identical, nothing left beside them
      }
    }
  }
}

TEST(RepairContract, InputsStayByteIdenticalAfterWrittenDryAndRefusedRuns) {
  for (const Command& c : commands()) {
    SCOPED_TRACE(c.name);
    const fs::path d = fresh("unchanged");
    write_asset(d, "a", 5);
    const auto before = snapshot(d);
    const fs::path out = d / "out.gltf";  // migrate keeps a.bin: the output stays beside it
    for (const std::vector<std::string>& more :
         {std::vector<std::string>{}, {"--dry-run"}, {"--format", "json"}}) {
      const CliRun r = cli(args(c, d / "a.gltf", out, more));
      ASSERT_TRUE(r.exited);
      EXPECT_EQ(r.exit_code, 0) << r.err;
      auto now = snapshot(d);
      for (const char* made : {"out.gltf", "out.bin"}) now.erase(made);
      EXPECT_EQ(now, before);
      fs::remove(d / "out.gltf");
      fs::remove(d / "out.bin");
    }
    // --dry-run writes nothing at all.
    const CliRun dry = cli(args(c, d / "a.gltf", out, {"--dry-run"}));
    EXPECT_EQ(dry.exit_code, 0) << dry.err;
    EXPECT_EQ(snapshot(d), before);
  }
}

TEST(RepairContract, TheOutputsBufferNeverReplacesAnInputNorGoesThroughAPlantedFileOrLink) {
  for (const Command& c : commands()) {
    if (!c.writes_buffer) continue;
    SCOPED_TRACE(c.name);
    const fs::path d = fresh("planted");
    fs::create_directories(d / "in");
    fs::create_directories(d / "out");
    write_asset(d / "in", "a", 5);
    write(d / "victim.txt", "victim");
    const auto inputs = snapshot(d / "in");
    // OUT.bin a hard link or a symlink to the input's buffer, a symlink to a file
    // elsewhere, a FIFO (opening it for writing would wait for a reader forever).
    for (const char* planted : {"hard link", "symlink to input", "symlink elsewhere", "fifo"}) {
      SCOPED_TRACE(planted);
      fs::remove_all(d / "out");
      fs::create_directories(d / "out");
      const fs::path bin = d / "out/x.bin";
      const std::string p = planted;
      if (p == "hard link") fs::create_hard_link(d / "in/a.bin", bin);
      if (p == "symlink to input") fs::create_symlink(d / "in/a.bin", bin);
      if (p == "symlink elsewhere") fs::create_symlink(d / "victim.txt", bin);
      if (p == "fifo") { ASSERT_EQ(::mkfifo(bin.c_str(), 0644), 0); }
      cli_process::Options o;
      o.kill_after = std::chrono::seconds(20);
      const CliRun r = cli(args(c, d / "in/a.gltf", d / "out/x.gltf"), o);
      ASSERT_TRUE(r.exited) << (r.killed ? "hung" : "signal " + std::to_string(r.signal));
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(snapshot(d / "in"), inputs);
      EXPECT_EQ(cli_process::slurp(d / "victim.txt"), "victim");
      // The asset names the buffer it was written with; that buffer is a regular file.
      const std::string gltf = cli_process::slurp(d / "out/x.gltf");
      const std::size_t at = gltf.find("\"uri\":\"");
      ASSERT_NE(at, std::string::npos) << gltf;
      const std::string uri = gltf.substr(at + 7, gltf.find('"', at + 7) - at - 7);
      EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(d / "out" / uri))) << uri;
      if (p != "symlink elsewhere") { EXPECT_NE(uri, "x.bin"); }
    }
  }
}

TEST(RepairContract, AFullDeviceIsExit2WithTheReasonAndNoPartialOutput) {
  // A GLB (no buffer beside it): /dev/full is written in place and fails with ENOSPC.
  for (const Command& c : commands()) {
    SCOPED_TRACE(c.name + " -o /dev/full");
    const CliRun r = cli(args(c, kGlb, "/dev/full"));
    ASSERT_TRUE(r.exited) << "signal " << r.signal;
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("cannot write '/dev/full': No space left on device"), std::string::npos)
        << r.err;
  }
  // A .gltf whose output needs OUT.bin, to a file that is not a regular one: a device node
  // (the full device's numbers, made with mknod as root) or, for other users, a FIFO (a
  // command that opened it would block: killed after 30 s). It has no folder of its own for
  // OUT.bin, so the output is refused and nothing is written beside it.
  for (const Command& c : commands()) {
    if (!c.writes_buffer) continue;
    SCOPED_TRACE(c.name + " -o a full device with a buffer");
    const fs::path d = fresh("full_device");
    fs::create_directories(d / "in");
    fs::create_directories(d / "out");
    write_asset(d / "in", "a", 5);
    const fs::path device = d / "out/full.gltf";
    const int made = ::geteuid() == 0 ? ::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 7))
                                      : ::mkfifo(device.c_str(), 0666);
    ASSERT_EQ(made, 0) << std::strerror(errno);
    cli_process::Options o;
    o.kill_after = std::chrono::seconds(30);
    const CliRun r = cli(args(c, d / "in/a.gltf", device), o);
    EXPECT_FALSE(r.killed) << "blocked on the FIFO";
    ASSERT_TRUE(r.exited) << "signal " << r.signal;
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("not a regular file"), std::string::npos) << r.err;
    std::vector<std::string> left;
    for (const auto& e : fs::directory_iterator(d / "out"))
      left.push_back(e.path().filename().string());
    EXPECT_EQ(left, std::vector<std::string>{"full.gltf"});
  }
}

TEST(RepairContract, AFileSizeLimitLeavesNoTemporaryAndNoBufferWithoutItsAsset) {
  for (const Command& c : commands()) {
    SCOPED_TRACE(c.name);
    const fs::path d = fresh("fsize");
    fs::create_directories(d / "in");
    write_asset(d / "in", "a", 5);
    // migrate keeps the input's buffer: its output stays in the input's folder.
    const fs::path out_dir = c.writes_buffer ? d / "out" : d / "in";
    fs::create_directories(out_dir);
    write(out_dir / "x.gltf", "previous");
    const auto before = snapshot(out_dir);
    cli_process::Options o;
    o.file_size_limit = 400;  // above any OUT.bin here (at most 160 bytes), below every OUT
    const CliRun r = cli(args(c, d / "in/a.gltf", out_dir / "x.gltf"), o);
    ASSERT_TRUE(r.exited) << "signal " << r.signal;  // not SIGXFSZ
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("File too large"), std::string::npos) << r.err;
    EXPECT_EQ(snapshot(out_dir), before);
  }
}

// SIGTERM while the output is being written: strace holds the command's second write()
// (the asset's bytes going to its temporary, after the buffer's) for 5 s; the test then
// sees the command's files beside the target, reads its pid from a temporary's name
// (.gltf-anim-PID-N.tmp) and signals it. Nothing may stay: no temporary, and no buffer
// without its asset. strace is a test dependency (scripts/run-tests.sh installs it).
TEST(RepairContract, SigtermDuringTheWriteLeavesNothingBeside) {
  ASSERT_EQ(std::system("strace -V > /dev/null 2>&1"), 0) << "strace is needed";
  for (const Command& c : commands()) {
    if (!c.writes_buffer) continue;
    SCOPED_TRACE(c.name);
    const fs::path d = fresh("signal");
    fs::create_directories(d / "in");
    fs::create_directories(d / "out");
    write_asset(d / "in", "a", 5);
    std::vector<std::string> a = args(c, d / "in/a.gltf", d / "out/x.gltf");
    // LeakSanitizer cannot run under ptrace (the ASan build's CLI): off for this child only.
    a.insert(a.begin(), {"strace", "-f", "-qq", "-E", "ASAN_OPTIONS=detect_leaks=0", "-o",
                         "/dev/null", "-e", "trace=write", "-e",
                         "inject=write:delay_enter=5000000:when=2", GLTF_ANIM_CLI});
    std::vector<char*> argv;
    for (std::string& s : a) argv.push_back(s.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t tracer = 0;
    ASSERT_EQ(::posix_spawnp(&tracer, "strace", &actions, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&actions);
    // Waits (at most 30 s) for two files in the output folder, one a temporary.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    std::string temporary;
    std::size_t files = 0;
    while (std::chrono::steady_clock::now() < deadline) {
      files = 0;
      for (const auto& e : fs::directory_iterator(d / "out")) {
        ++files;
        const std::string name = e.path().filename().string();
        if (name.rfind(".gltf-anim-", 0) == 0) temporary = name;
      }
      if (files >= 2 && !temporary.empty()) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_FALSE(temporary.empty());
    const pid_t command = static_cast<pid_t>(std::stol(temporary.substr(11)));
    // Then for the command to sit in the held write() (SYS_write in /proc/PID/syscall, still
    // there 200 ms later): a signal between a temporary's creation and its registration
    // for the handler is not what this test is about.
    const auto in_write = [command] {
      std::ifstream in("/proc/" + std::to_string(command) + "/syscall");
      std::string number;
      in >> number;
      return number == std::to_string(SYS_write);
    };
    bool held = false;
    while (!held && std::chrono::steady_clock::now() < deadline) {
      if (in_write()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        held = in_write();
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    }
    ASSERT_TRUE(held);
    ASSERT_EQ(::kill(command, SIGTERM), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(tracer, &status, 0), tracer);
    // strace ends as its command did: by the signal, or with 128 + its number.
    EXPECT_TRUE((WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) ||
                (WIFEXITED(status) && WEXITSTATUS(status) == 128 + SIGTERM))
        << status;
    std::vector<std::string> left;
    for (const auto& e : fs::directory_iterator(d / "out"))
      left.push_back(e.path().filename().string());
    EXPECT_EQ(left, std::vector<std::string>{});
  }
}

// Each hostile input: an exit code and a message, no signal, within a CPU sanity bound.
void expect_contained(const CliRun& r, double cpu_ceiling = 20.0) {
  EXPECT_FALSE(r.killed) << "hung";
  ASSERT_TRUE(r.exited) << "signal " << r.signal;
  EXPECT_LE(r.exit_code, 2);
  EXPECT_LT(r.cpu_seconds, cpu_ceiling);
  if (r.exit_code != 0) { EXPECT_FALSE(r.err.empty()); }
}

TEST(RepairContract, HostileInputsGetAnExitCodeAndAMessage) {
  const fs::path d = fresh("hostile");
  write(d / "not.gltf", "hello, not JSON");
  const std::string glb = cli_process::slurp(kGlb);
  write(d / "truncated.glb", glb.substr(0, glb.size() / 3));
  // 2^28 keys and values named by accessors with no bufferView: nothing to decode.
  write(
      d / "huge.gltf",
      R"({"asset":{"version":"2.0"},"nodes":[{}],"accessors":[{"componentType":5126,"count":268435456,"type":"SCALAR","min":[0],"max":[1]},{"componentType":5126,"count":268435456,"type":"VEC3"}],"animations":[{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}],"samplers":[{"input":0,"output":1}]}]})");
  // NaN and infinity among the values.
  write_asset(d, "nan", 5);
  {
    std::string bin = cli_process::slurp(d / "nan.bin");
    const float nan = std::nanf(""), inf = HUGE_VALF;
    std::memcpy(&bin[20 + 4], &nan, 4);   // translation 0, y
    std::memcpy(&bin[80 + 28], &inf, 4);  // rotation 1, w
    write(d / "nan.bin", bin);
  }
  for (const Command& c : commands()) {
    for (const char* in : {"not.gltf", "truncated.glb", "huge.gltf", "nan.gltf"}) {
      for (const bool force : {false, true}) {
        SCOPED_TRACE(c.name + " " + in + (force ? " --force" : ""));
        fs::remove(d / "out.gltf");
        cli_process::Options o;
#ifndef GLTF_ANIM_TEST_ASAN
        o.address_space = rlim_t{1} << 31;  // ASan's shadow memory needs terabytes of it
#endif
        const CliRun r =
            cli(args(c, d / in, d / "out.gltf",
                     force ? std::vector<std::string>{"--force"} : std::vector<std::string>{}),
                o);
        expect_contained(r);
        if (std::string(in) == "not.gltf" || std::string(in) == "truncated.glb") {
          EXPECT_EQ(r.exit_code, 2);
          EXPECT_NE(r.err.find("cannot read"), std::string::npos) << r.err;
        }
      }
    }
  }
}

// A sanity bound against runaway work, not a speed test (docs/PERFORMANCE.md has the
// figures): fix, reduce and migrate on 10^6 keys, fit (whose every check samples inside
// the segments: a larger constant) on 10^5. Before, fit checked each candidate with the
// densest sampling: 10^5 keys took more than 120 s.
#ifdef GLTF_ANIM_TEST_ASAN
constexpr double kLargeCpuCeiling = 120.0;
#else
constexpr double kLargeCpuCeiling = 30.0;
#endif

TEST(RepairContract, AMillionKeysTakeBoundedTime) {
  const fs::path d = fresh("million");
  write_asset(d, "big", 1000000);
  for (const Command& c : commands()) {
    if (c.name == "fit") continue;
    SCOPED_TRACE(c.name);
    fs::remove(d / "out.gltf");
    fs::remove(d / "out.bin");
    cli_process::Options o;
    o.kill_after = std::chrono::seconds(150);
    o.cpu_seconds = 150;
    const CliRun r = cli(args(c, d / "big.gltf", d / "out.gltf"), o);
    expect_contained(r, kLargeCpuCeiling);
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
}

// Memory in proportion to what a tool changes, a bound and not a measurement
// (docs/PERFORMANCE.md, "Repair on the 342 MB asset", has the figures): `fix` of a 32 MB
// buffer of 10^6 keys it has nothing to repair holds the buffer, the channels decoded once
// (8 bytes a float; the shared times twice: 2.25 times the buffer) and one channel's trial
// copy at a time (1.25). Before, the channels were held decoded three times over and the
// buffer twice: 8 times the buffer.
// Not under ASan, whose shadow memory and quarantine are no measure of the tool's.
#ifndef GLTF_ANIM_TEST_ASAN
TEST(RepairContract, FixOfAMillionKeysTakesMemoryInProportion) {
  const fs::path d = fresh("million_memory");
  write_asset(d, "big", 1000000, "", "n", /*negated=*/false);
  const double buffer_kib = static_cast<double>(fs::file_size(d / "big.bin")) / 1024;
  cli_process::Options o;
  o.kill_after = std::chrono::seconds(150);
  const CliRun r = cli({"fix", (d / "big.gltf").string(), "-o", (d / "out.gltf").string()}, o);
  expect_contained(r, kLargeCpuCeiling);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("unchanged"), std::string::npos) << r.out;
  EXPECT_LT(static_cast<double>(r.max_rss_kib), 5 * buffer_kib + 40 * 1024)
      << r.max_rss_kib << " KiB at peak for a buffer of " << buffer_kib << " KiB";
}
#endif

// `channels` translation channels of `n` keys at 30 keys a second, each two sharing a time
// accessor (as exporters write one per node or clip): channels / 2 sampler groups. Each
// channel's values are a slow sine on x (0.01 rad a key) and a sawtooth of period 7 on z.
void write_many_channels(const fs::path& dir, const std::string& name, std::size_t channels,
                         std::size_t n) {
  std::string bin, views, accessors, samplers, targets, nodes;
  auto sep = [](std::string& s) { s += s.empty() ? "" : ","; };
  std::vector<float> times(n), values(3 * n);
  for (std::size_t k = 0; k < n; ++k) times[k] = static_cast<float>(static_cast<double>(k) / 30);
  std::size_t accessor = 0;
  auto add = [&](const std::vector<float>& data, const char* type, std::size_t count,
                 const std::string& bounds) {
    sep(views);
    views += R"({"buffer":0,"byteOffset":)" + std::to_string(bin.size()) + R"(,"byteLength":)" +
             std::to_string(4 * data.size()) + "}";
    sep(accessors);
    accessors += R"({"bufferView":)" + std::to_string(accessor) +
                 R"(,"componentType":5126,"count":)" + std::to_string(count) + R"(,"type":")" +
                 type + "\"" + bounds + "}";
    put_floats(bin, data);
    return accessor++;
  };
  std::size_t time_accessor = 0;
  for (std::size_t c = 0; c < channels; ++c) {
    if (c % 2 == 0)
      time_accessor = add(times, "SCALAR", n,
                          R"(,"min":[0],"max":[)" + std::to_string(times.back()) + "]");
    for (std::size_t k = 0; k < n; ++k) {
      values[3 * k] = static_cast<float>(static_cast<double>(c) + std::sin(0.01 * static_cast<double>(k)));
      values[3 * k + 1] = 0.0f;
      values[3 * k + 2] = static_cast<float>(k % 7);
    }
    const std::size_t out = add(values, "VEC3", n, "");
    sep(samplers);
    samplers += R"({"input":)" + std::to_string(time_accessor) + R"(,"output":)" +
                std::to_string(out) + "}";
    sep(targets);
    targets += R"({"sampler":)" + std::to_string(c) + R"(,"target":{"node":)" + std::to_string(c) +
               R"(,"path":"translation"}})";
    sep(nodes);
    nodes += R"({"name":"n)" + std::to_string(c) + "\"}";
  }
  write(dir / (name + ".bin"), bin);
  write(dir / (name + ".gltf"),
        R"({"asset":{"version":"2.0"},"nodes":[)" + nodes +
            R"(],"buffers":[{"uri":")" + name + R"(.bin","byteLength":)" +
            std::to_string(bin.size()) + R"(}],"bufferViews":[)" + views + R"(],"accessors":[)" +
            accessors + R"(],"animations":[{"channels":[)" + targets + R"(],"samplers":[)" +
            samplers + "]}]}");
}

// Memory of the tools on an asset of many channels, a bound and not a measurement
// (docs/PERFORMANCE.md, "Repair on the 342 MB asset", has the figures): 100 channels of
// 40,000 keys in 50 sampler groups, a buffer B of 56 MB (4 bytes a float: 48 MB of values,
// 8 MB of times). Decoded whole, the channels are 2.29 B (8 bytes a float, each pair's
// times once per channel): held with the input that is 3.29 B before anything is written.
// A tool that decodes one sampler group at a time holds the input (B), one group (B / 50
// decoded) and what it writes: for fix and migrate, which change no byte of the buffer, the
// buffer written again (B); for reduce and fit, smaller buffers and one group's work. So
// 2 B and the process's own; the bound is 2.75 B + 20 MiB.
// Not under ASan, whose shadow memory and quarantine are no measure of the tool's.
#ifndef GLTF_ANIM_TEST_ASAN
TEST(RepairContract, ToolsHoldOneSamplerGroupDecodedAtATime) {
  const fs::path d = fresh("many_channels");
  write_many_channels(d, "many", 100, 40000);
  const double buffer_kib = static_cast<double>(fs::file_size(d / "many.bin")) / 1024;
  for (const Command& c : commands()) {
    SCOPED_TRACE(c.name);
    fs::remove(d / "out.gltf");
    fs::remove(d / "out.bin");
    cli_process::Options o;
    o.kill_after = std::chrono::seconds(300);
    o.cpu_seconds = 300;
    const CliRun r = cli(args(c, d / "many.gltf", d / "out.gltf"), o);
    EXPECT_FALSE(r.killed) << "hung";
    ASSERT_TRUE(r.exited) << "signal " << r.signal;
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_LT(static_cast<double>(r.max_rss_kib), 2.75 * buffer_kib + 20 * 1024)
        << r.max_rss_kib << " KiB at peak for a buffer of " << buffer_kib << " KiB";
  }
}
#endif

TEST(RepairContract, FitOfAHundredThousandKeysTakesBoundedTime) {
  const fs::path d = fresh("hundred_thousand");
  write_asset(d, "big", 100000);
  for (const char* mode : {"cubicspline", "cubicslerp"}) {
    SCOPED_TRACE(mode);
    cli_process::Options o;
    o.kill_after = std::chrono::seconds(150);
    o.cpu_seconds = 150;
    const CliRun r = cli({"fit", (d / "big.gltf").string(), "-o", (d / "out.gltf").string(), "--to",
                          mode, "--max-error", "1e-3"},
                         o);
    expect_contained(r, kLargeCpuCeiling);
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
}

// `n` keys as write_asset's, the buffer framed by two bufferViews nothing uses (as exporters
// leave them: glTF-Validator's UNUSED_OBJECT), 16 bytes each: bufferView 0 before the
// animation data (bytes 0x10 to 0x1F), bufferView 4 after it (0x40 to 0x4F).
void write_asset_with_unused_views(const fs::path& dir, const std::string& name, std::size_t n) {
  std::string bin;
  for (int k = 0; k < 16; ++k) bin.push_back(static_cast<char>(0x10 + k));
  std::vector<float> times, translation, rotation;
  for (std::size_t k = 0; k < n; ++k) {
    const double t = static_cast<double>(k), sign = k % 2 ? -1.0 : 1.0;
    times.push_back(static_cast<float>(t));
    translation.insert(translation.end(), {static_cast<float>(t), 0.0f, 0.0f});
    rotation.insert(rotation.end(), {0.0f, 0.0f, static_cast<float>(sign * std::sin(0.15 * t)),
                                     static_cast<float>(sign * std::cos(0.15 * t))});
  }
  put_floats(bin, times);
  put_floats(bin, translation);
  put_floats(bin, rotation);
  for (int k = 0; k < 16; ++k) bin.push_back(static_cast<char>(0x40 + k));
  write(dir / (name + ".bin"), bin);
  auto view = [](std::size_t offset, std::size_t length) {
    return R"({"buffer":0,"byteOffset":)" + std::to_string(offset) + R"(,"byteLength":)" +
           std::to_string(length) + "}";
  };
  const std::string N = std::to_string(n);
  write(dir / (name + ".gltf"),
        R"({"asset":{"version":"2.0"},"nodes":[{"name":"n"}],"scenes":[{"nodes":[0]}],"scene":0,"buffers":[{"uri":")" +
            name + R"(.bin","byteLength":)" + std::to_string(bin.size()) + R"(}],"bufferViews":[)" +
            view(0, 16) + "," + view(16, 4 * n) + "," + view(16 + 4 * n, 12 * n) + "," +
            view(16 + 16 * n, 16 * n) + "," + view(16 + 32 * n, 16) +
            R"(],"accessors":[{"bufferView":1,"componentType":5126,"count":)" + N +
            R"(,"type":"SCALAR","min":[0],"max":[)" + std::to_string(n - 1) +
            R"(]},{"bufferView":2,"componentType":5126,"count":)" + N +
            R"(,"type":"VEC3"},{"bufferView":3,"componentType":5126,"count":)" + N +
            R"(,"type":"VEC4"}],"animations":[{"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}},{"sampler":1,"target":{"node":0,"path":"rotation"}}],"samplers":[{"input":0,"output":1},{"input":0,"output":2}]}]})");
}

// The bytes bufferView `v` of the .gltf at `path` addresses (its buffer read beside it),
// or a note saying why there are none.
std::string view_bytes(const fs::path& path, std::size_t v) {
  gltf_anim::json::Document doc;
  const std::string text = cli_process::slurp(path);
  doc.Parse(text.c_str());
  if (doc.HasParseError()) return "<no JSON>";
  const auto& view = doc["bufferViews"][static_cast<rapidjson::SizeType>(v)];
  const auto& buffer = doc["buffers"][view["buffer"].GetUint()];
  const std::string bin = cli_process::slurp(path.parent_path() / buffer["uri"].GetString());
  const std::uint64_t offset = view.HasMember("byteOffset") ? view["byteOffset"].GetUint64() : 0;
  const std::uint64_t length = view["byteLength"].GetUint64();
  if (bin.size() != buffer["byteLength"].GetUint64()) return "<buffer of another length>";
  if (offset + length > bin.size()) return "<outside the buffer>";
  return bin.substr(offset, length);
}

// Every repair command keeps the bytes of a bufferView it did not empty where that
// bufferView says they are. Before, an unused bufferView before the animation data kept
// its byteOffset after compaction and read the new animation bytes; one after it pointed
// past the compacted buffer's end, and the output's new error refused a valid asset.
TEST(RepairContract, AnUnusedBufferViewStillAddressesItsOwnBytes) {
  const fs::path d = fresh("unused_views");
  write_asset_with_unused_views(d, "in", 40);
  std::string before, after;
  for (int k = 0; k < 16; ++k) before.push_back(static_cast<char>(0x10 + k));
  for (int k = 0; k < 16; ++k) after.push_back(static_cast<char>(0x40 + k));
  ASSERT_EQ(view_bytes(d / "in.gltf", 0), before);
  ASSERT_EQ(view_bytes(d / "in.gltf", 4), after);
  for (const Command& c : commands()) {
    SCOPED_TRACE(c.name);
    fs::remove(d / "out.gltf");
    fs::remove(d / "out.bin");
    const CliRun r = cli(args(c, d / "in.gltf", d / "out.gltf"));
    expect_contained(r);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(view_bytes(d / "out.gltf", 0), before);
    EXPECT_EQ(view_bytes(d / "out.gltf", 4), after);
  }
}

// fix's min and max of an accessor without bufferView come from what the asset stores: zeros
// and the sparse values, never the declared count decoded. Before, the 60 million zeros were
// decoded whole: about 700 MB and seconds of CPU for a file of a few hundred bytes. The
// bounds are derived here by hand: all zeros; zeros with -3 and 4 substituted; every element
// substituted (2 and 3, no zero left).
TEST(RepairContract, FixBoundsOfADeclaredCountReadOnlyTheStoredBytes) {
  const fs::path d = fresh("declared_count");
  std::string bin;
  for (const std::uint32_t i : {5u, 7u}) bin.append(reinterpret_cast<const char*>(&i), 4);
  put_floats(bin, {-3.0f, 4.0f});
  for (const std::uint32_t i : {0u, 1u}) bin.append(reinterpret_cast<const char*>(&i), 4);
  put_floats(bin, {2.0f, 3.0f});
  write(d / "sparse.bin", bin);
  auto sparse = [](int indices, int values) {
    return R"(,"sparse":{"count":2,"indices":{"bufferView":)" + std::to_string(indices) +
           R"(,"componentType":5125},"values":{"bufferView":)" + std::to_string(values) + "}}";
  };
  write(d / "in.gltf",
        R"({"asset":{"version":"2.0"},"buffers":[{"uri":"sparse.bin","byteLength":32}],"bufferViews":[{"buffer":0,"byteLength":8},{"buffer":0,"byteOffset":8,"byteLength":8},{"buffer":0,"byteOffset":16,"byteLength":8},{"buffer":0,"byteOffset":24,"byteLength":8}],"accessors":[)"
        R"({"componentType":5126,"count":60000000,"type":"SCALAR","min":[1],"max":[1]},)"
        R"({"componentType":5126,"count":60000000,"type":"SCALAR","min":[1],"max":[1])" +
            sparse(0, 1) +
            R"(},{"componentType":5126,"count":2,"type":"SCALAR","min":[1],"max":[1])" +
            sparse(2, 3) + "}]}");
  cli_process::Options o;
  o.kill_after = std::chrono::seconds(60);
  const CliRun r = cli({"fix", (d / "in.gltf").string(), "-o", (d / "out.gltf").string()}, o);
  expect_contained(r, 5.0);
  ASSERT_EQ(r.exit_code, 0) << r.err;
#ifdef GLTF_ANIM_TEST_ASAN
  EXPECT_LT(r.max_rss_kib, 256L * 1024);
#else
  EXPECT_LT(r.max_rss_kib, 64L * 1024);
#endif
  gltf_anim::json::Document doc;
  const std::string text = cli_process::slurp(d / "out.gltf");
  doc.Parse(text.c_str());
  ASSERT_FALSE(doc.HasParseError());
  const std::vector<std::pair<double, double>> expected = {{0, 0}, {-3, 4}, {2, 3}};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    SCOPED_TRACE(i);
    const auto& a = doc["accessors"][static_cast<rapidjson::SizeType>(i)];
    EXPECT_EQ(a["min"][0].GetDouble(), expected[i].first);
    EXPECT_EQ(a["max"][0].GetDouble(), expected[i].second);
  }
}

// `n` rotation channels, each with a sampler of its own (its own accessors, over two
// bufferViews all of them share: 2 keys). `pointer`: the channels target through
// KHR_animation_pointer and the inputs have bounds (migrate's case); else core targets and
// inputs without min and max (each sampler an ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS
// for fix to repair).
void write_many_samplers(const fs::path& dir, const std::string& name, std::size_t n,
                         bool pointer) {
  std::string bin;
  put_floats(bin, {0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.25881904f, 0.96592583f});
  write(dir / (name + ".bin"), bin);
  std::string nodes, accessors, samplers, channels;
  for (std::size_t k = 0; k < n; ++k) {
    const std::string K = std::to_string(k), sep = k ? "," : "";
    nodes += sep + "{}";
    accessors += sep + R"({"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR")" +
                 (pointer ? R"(,"min":[0],"max":[1])" : "") +
                 R"(},{"bufferView":1,"componentType":5126,"count":2,"type":"VEC4"})";
    samplers += sep + R"({"input":)" + std::to_string(2 * k) + R"(,"output":)" +
                std::to_string(2 * k + 1) + "}";
    channels += sep + R"({"sampler":)" + K + R"(,"target":)" +
                (pointer ? R"({"path":"pointer","extensions":{"KHR_animation_pointer":{"pointer":"/nodes/)" +
                               K + R"(/rotation"}}})"
                         : R"({"node":)" + K + R"(,"path":"rotation"})") +
                "}";
  }
  write(dir / (name + ".gltf"),
        std::string(R"({"asset":{"version":"2.0"},)") +
            (pointer ? R"("extensionsUsed":["KHR_animation_pointer"],)" : "") + R"("nodes":[)" +
            nodes + R"(],"buffers":[{"uri":")" + name + R"(.bin","byteLength":40}],)" +
            R"("bufferViews":[{"buffer":0,"byteLength":8},{"buffer":0,"byteOffset":8,"byteLength":32}],)" +
            R"("accessors":[)" + accessors + R"(],"animations":[{"channels":[)" + channels +
            R"(],"samplers":[)" + samplers + "]}]}");
}

// Passes per sampler or per channel are linear: fix repairing the bounds of 50,000
// samplers' inputs, and migrate moving 64,000 channels (each sampler LINEAR -> SLERP) to
// KHR_animation2, each within a ceiling a quadratic pass exceeds several times over (both
// take under 2 s of CPU). Before, fix looked each issue's sampler up by walking every
// sampler (42 s of CPU here), and migrate walked every plan per changed sampler and every
// track per channel (10.6 s for 50,000 channels, 2.7 times the instructions at twice the
// channels; about 17 s here).
TEST(RepairContract, ManySamplersAndChannelsTakeLinearTime) {
  const fs::path d = fresh("many_samplers");
  write_many_samplers(d, "bounds", 50000, false);
  write_many_samplers(d, "pointers", 64000, true);
  const std::vector<std::pair<std::vector<std::string>, std::string>> runs = {
      {{"fix", (d / "bounds.gltf").string(), "-o", (d / "out.gltf").string()},
       "errors 50000 -> 0"},
      {{"migrate", (d / "pointers.gltf").string(), "-o", (d / "out.gltf").string(), "--to",
        "khr_animation2"},
       "64000 of 64000 channels migrated"}};
  for (const auto& [a, says] : runs) {
    SCOPED_TRACE(a[0]);
    fs::remove(d / "out.gltf");
    cli_process::Options o;
    o.kill_after = std::chrono::seconds(150);
    o.cpu_seconds = 150;
    const CliRun r = cli(a, o);
    expect_contained(r, kLargeCpuCeiling / 4);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find(says), std::string::npos) << r.out.substr(r.out.size() > 500 ? r.out.size() - 500 : 0);
  }
}

// fix --force on 20,000 animations whose one channel names a sampler that does not exist
// (and whose sampler names accessors that do not exist): every channel is skipped (its keys
// cannot be decoded) and each animation has three issues. Each
// issue is looked up among the skipped channels once, within the ceiling of the test above.
// Before, every issue was compared with every skipped channel, a string built per pair:
// 4,000 such animations took 4.6 s of CPU, 10,000 took 54 s (the hostile sweep,
// tests/hostile/sweep.py, found it).
TEST(RepairContract, ManyChannelsThatCannotBeDecodedTakeLinearTime) {
  const fs::path d = fresh("many_skipped");
  std::string bin;
  put_floats(bin, {0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 1.0f, 1.0f});
  write(d / "in.bin", bin);
  constexpr std::size_t kAnimations = 20000;
  std::string animations;
  for (std::size_t k = 0; k < kAnimations; ++k) {
    animations += std::string(k ? "," : "") +
                  R"({"channels":[{"sampler":5,"target":{"node":0,"path":"translation"}}],)" +
                  R"("samplers":[{"input":99,"output":98}]})";
  }
  write(d / "in.gltf",
        R"({"asset":{"version":"2.0"},"nodes":[{}],"buffers":[{"uri":"in.bin","byteLength":32}],)"
        R"("bufferViews":[{"buffer":0,"byteLength":8},{"buffer":0,"byteOffset":8,"byteLength":24}],)"
        R"("accessors":[{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},)"
        R"({"bufferView":1,"componentType":5126,"count":2,"type":"VEC3"}],"animations":[)" +
            animations + "]}");
  cli_process::Options o;
  o.kill_after = std::chrono::seconds(90);
  o.cpu_seconds = 60;
  const CliRun r = cli({"fix", (d / "in.gltf").string(), "-o", (d / "out.gltf").string(), "--force"}, o);
  expect_contained(r, kLargeCpuCeiling / 4);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // The last animation's channel is reported as every other one is.
  EXPECT_NE(r.out.find("NOT FIXABLE UNRESOLVED_REFERENCE at /animations/19999/channels/0/sampler"),
            std::string::npos)
      << r.out.substr(r.out.size() > 500 ? r.out.size() - 500 : 0);
}

// `channels` rotation channels, one per node, all naming sampler 0: `keys` keys at t = k/30
// of a rotation about z by 0.8 sin(t) radians (not linear: fit has something to fit).
void write_shared_sampler(const fs::path& dir, const std::string& name, std::size_t channels,
                          std::size_t keys) {
  std::vector<float> times, rotation;
  for (std::size_t k = 0; k < keys; ++k) {
    const double t = static_cast<double>(k) / 30, half = 0.4 * std::sin(t);
    times.push_back(static_cast<float>(t));
    rotation.insert(rotation.end(), {0.0f, 0.0f, static_cast<float>(std::sin(half)),
                                     static_cast<float>(std::cos(half))});
  }
  std::string bin;
  put_floats(bin, times);
  put_floats(bin, rotation);
  write(dir / (name + ".bin"), bin);
  std::string nodes, list;
  for (std::size_t c = 0; c < channels; ++c) {
    nodes += std::string(c ? "," : "") + "{}";
    list += std::string(c ? "," : "") + R"({"sampler":0,"target":{"node":)" + std::to_string(c) +
            R"(,"path":"rotation"}})";
  }
  const std::string N = std::to_string(keys);
  write(dir / (name + ".gltf"),
        R"({"asset":{"version":"2.0"},"nodes":[)" + nodes + R"(],"buffers":[{"uri":")" + name +
            R"(.bin","byteLength":)" + std::to_string(bin.size()) +
            R"(}],"bufferViews":[{"buffer":0,"byteLength":)" + std::to_string(4 * keys) +
            R"(},{"buffer":0,"byteOffset":)" + std::to_string(4 * keys) + R"(,"byteLength":)" +
            std::to_string(16 * keys) +
            R"(}],"accessors":[{"bufferView":0,"componentType":5126,"count":)" + N +
            R"(,"type":"SCALAR","min":[0],"max":[)" + std::to_string(times.back()) +
            R"(]},{"bufferView":1,"componentType":5126,"count":)" + N +
            R"(,"type":"VEC4"}],"animations":[{"channels":[)" + list +
            R"(],"samplers":[{"input":0,"output":1}]}]})");
}

// Channels sharing one sampler share its work and its output: reduce and fit decode and
// edit the sampler once, and the output keeps one sampler for all of them (fit
// --to cubicslerp: the LINEAR one and one CUBICSLERP sampler beside it). Before, each of
// the 512 channels decoded (and reduce reduced) the sampler again: reduce peaked at
// hundreds of MB; fit fitted it 512 times and wrote a sampler and two accessors per channel.
TEST(RepairContract, ChannelsSharingASamplerAreDecodedAndWrittenOnce) {
  const fs::path d = fresh("shared_sampler");
  write_shared_sampler(d, "in", 512, 4000);
  const std::vector<std::vector<std::string>> runs = {
      {"reduce", "--max-error", "1e-4"},
      {"fit", "--to", "cubicspline", "--max-error", "1e-4"},
      {"fit", "--to", "cubicslerp", "--max-error", "1e-4"},
  };
  for (const auto& run : runs) {
    SCOPED_TRACE(run[0] + " " + run[2]);
    fs::remove(d / "out.gltf");
    fs::remove(d / "out.bin");
    std::vector<std::string> a{run[0], (d / "in.gltf").string(), "-o", (d / "out.gltf").string()};
    a.insert(a.end(), run.begin() + 1, run.end());
    cli_process::Options o;
    o.kill_after = std::chrono::seconds(60);
    const CliRun r = cli(a, o);
    expect_contained(r, 5.0);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // The report still names every channel.
    EXPECT_NE(r.out.find("/animations/0/channels/511 "), std::string::npos);
#ifndef GLTF_ANIM_TEST_ASAN
    EXPECT_LT(r.max_rss_kib, 64L * 1024);
#endif
    gltf_anim::json::Document doc;
    const std::string text = cli_process::slurp(d / "out.gltf");
    doc.Parse(text.c_str());
    ASSERT_FALSE(doc.HasParseError());
    const auto& animation = doc["animations"][0];
    EXPECT_LE(animation["samplers"].Size(), run[2] == "cubicslerp" ? 2u : 1u);
    EXPECT_LE(doc["accessors"].Size(), 4u);
    std::set<std::string> samplers;
    for (const auto& c : animation["channels"].GetArray()) {
      std::string s = c.HasMember("sampler") ? std::to_string(c["sampler"].GetUint()) : "-";
      if (c.HasMember("extensions"))
        s += "/" + std::to_string(c["extensions"]["EXT_animation_sqlerp"]["sampler"].GetUint());
      samplers.insert(s);
    }
    EXPECT_EQ(samplers.size(), 1u);
  }
}

// A file the asset names through an extension the tools do not know (KHR_audio's sources
// here) is never replaced by the new buffer, whether it is there or missing for now: OUT.bin
// takes another name. Before, only the buffers and images counted: reduce, fit and fix
// wrote the new buffer over out.bin, the asset's sound.
TEST(RepairContract, TheOutputsBufferNeverReplacesAFileAnExtensionNames) {
  for (const Command& c : commands()) {
    if (!c.writes_buffer) continue;
    SCOPED_TRACE(c.name);
    const fs::path d = fresh("extension_files");
    write_asset(d, "in", 5,
                R"(,"extensionsUsed":["KHR_audio"],"extensions":{"KHR_audio":{"sources":[{"uri":"out.bin"},{"uri":"x.bin"}]}})");
    write(d / "out.bin", "sound");
    for (const char* out : {"out.gltf", "x.gltf"}) {  // the named file present, then missing
      SCOPED_TRACE(out);
      const CliRun r = cli(args(c, d / "in.gltf", d / out));
      expect_contained(r);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(cli_process::slurp(d / "out.bin"), "sound");
      EXPECT_FALSE(fs::exists(d / "x.bin"));
      gltf_anim::json::Document doc;
      const std::string text = cli_process::slurp(d / out);
      doc.Parse(text.c_str());
      ASSERT_FALSE(doc.HasParseError());
      const std::string uri = doc["buffers"][0]["uri"].GetString();
      EXPECT_NE(uri, "out.bin");
      EXPECT_NE(uri, "x.bin");
      EXPECT_TRUE(fs::is_regular_file(d / uri)) << uri;
    }
  }
}

// Standard output failing (here /dev/full: ENOSPC) is exit 2 with the reason and nothing
// written: the report goes out before the output is put in place. Before, the output was
// written and then the command exited 2 for its report, an exit code that says it failed.
TEST(RepairContract, AReportThatCannotBeWrittenComesWithNoOutput) {
  for (const Command& c : commands()) {
    SCOPED_TRACE(c.name);
    const fs::path d = fresh("stdout_full");
    write_asset(d, "in", 5);
    const auto inputs = snapshot(d);
    for (const char* format : {"text", "json"}) {
      SCOPED_TRACE(format);
      cli_process::Options o;
      o.stdout_path = "/dev/full";
      const CliRun r = cli(args(c, d / "in.gltf", d / "out.gltf", {"--format", format}), o);
      expect_contained(r);
      EXPECT_EQ(r.exit_code, 2);
      EXPECT_NE(r.err.find("cannot write standard output: No space left on device"),
                std::string::npos)
          << r.err;
      EXPECT_NE(r.err.find("nothing written"), std::string::npos) << r.err;
      EXPECT_EQ(snapshot(d), inputs);  // no out.gltf, no out.bin, no temporary
    }
  }
}

// Written in another folder, the output takes its buffers with it: migrate, which changes
// no buffer, writes a copy of the input's beside its output, and every command's output
// validates there. Before, migrate's output named the input's .bin and was refused (exit 2:
// write it in the input's folder).
TEST(RepairContract, AnOutputInAnotherFolderTakesItsBuffersWithIt) {
  for (const Command& c : commands()) {
    SCOPED_TRACE(c.name);
    const fs::path d = fresh("elsewhere");
    fs::create_directories(d / "in");
    fs::create_directories(d / "out");
    write_asset(d / "in", "a", 5);
    const auto inputs = snapshot(d / "in");
    const CliRun r = cli(args(c, d / "in/a.gltf", d / "out/x.gltf"));
    expect_contained(r);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(snapshot(d / "in"), inputs);
    gltf_anim::json::Document doc;
    const std::string text = cli_process::slurp(d / "out/x.gltf");
    doc.Parse(text.c_str());
    ASSERT_FALSE(doc.HasParseError());
    const std::string uri = doc["buffers"][0]["uri"].GetString();
    EXPECT_EQ(uri, "x.bin");
    if (!c.writes_buffer) {
      EXPECT_EQ(cli_process::slurp(d / "out/x.bin"), cli_process::slurp(d / "in/a.bin"));
    }
    const CliRun v = cli({"validate", (d / "out/x.gltf").string()});
    EXPECT_EQ(v.exit_code, 0) << v.out;
  }
}

// Written in another folder, the output takes with it every file it names beside the asset
// (an image, an extension's file such as KHR_audio's sources), copied under the name the
// asset gives it; a file of that name with other contents there is not replaced (exit 2,
// nothing written), and a file in a subfolder keeps the output in the input's folder.
// Before, any image refused the other folder.
TEST(RepairContract, AnOutputInAnotherFolderTakesTheFilesItNamesWithIt) {
  for (const Command& c : commands()) {
    SCOPED_TRACE(c.name);
    const fs::path d = fresh("elsewhere_files");
    fs::create_directories(d / "in/sub");
    fs::create_directories(d / "out");
    const std::string files =
        R"(,"images":[{"uri":"tex%20a.png"}],"extensionsUsed":["KHR_audio"],"extensions":{"KHR_audio":{"sources":[{"uri":"sound.mp3"}]}})";
    write_asset(d / "in", "a", 5, files);
    write(d / "in/tex a.png", "\x89PNG image");
    write(d / "in/sound.mp3", "ID3 sound");
    const CliRun r = cli(args(c, d / "in/a.gltf", d / "out/x.gltf"));
    expect_contained(r);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(cli_process::slurp(d / "out/tex a.png"), "\x89PNG image");
    EXPECT_EQ(cli_process::slurp(d / "out/sound.mp3"), "ID3 sound");
    const CliRun v = cli({"validate", (d / "out/x.gltf").string()});
    EXPECT_EQ(v.exit_code, 0) << v.out;
    // Again beside other contents under one of those names: nothing written.
    write(d / "out/sound.mp3", "another sound");
    const auto out = snapshot(d / "out");
    const CliRun again = cli(args(c, d / "in/a.gltf", d / "out/y.gltf"));
    EXPECT_EQ(again.exit_code, 2);
    EXPECT_NE(again.err.find("nothing written"), std::string::npos) << again.err;
    EXPECT_EQ(snapshot(d / "out"), out);
    // A file in a subfolder: the output stays in the input's folder.
    write_asset(d / "in", "b", 5, R"(,"images":[{"uri":"sub/t.png"}])");
    write(d / "in/sub/t.png", "\x89PNG");
    const CliRun sub = cli(args(c, d / "in/b.gltf", d / "out/z.gltf"));
    EXPECT_EQ(sub.exit_code, 2);
    EXPECT_NE(sub.err.find("input's folder"), std::string::npos) << sub.err;
    EXPECT_FALSE(fs::exists(d / "out/z.gltf"));
  }
}

TEST(RepairContract, NamesThatAreNotUtf8StayValidInTextAndJsonReports) {
  const fs::path d = fresh("names");
  // A file name with a byte that is not UTF-8 and a terminal escape; a node name with an
  // escaped control character and a raw byte that is not UTF-8.
  const std::string weird = std::string("a\xff\x1b[31m");
  write_asset(d, weird, 5, "", "n\\u001b[2J\xfe\xff");
  for (const Command& c : commands()) {
    for (const char* format : {"text", "json"}) {
      SCOPED_TRACE(c.name + " " + format);
      const CliRun r =
          cli(args(c, d / (weird + ".gltf"), d / "out.gltf", {"--dry-run", "--format", format}));
      ASSERT_TRUE(r.exited);
      EXPECT_LE(r.exit_code, 2) << r.err;
      EXPECT_FALSE(r.out.empty());
      EXPECT_TRUE(valid_utf8(r.out)) << r.out;
      EXPECT_TRUE(valid_utf8(r.err)) << r.err;
      EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
      if (std::string(format) == "json") {
        gltf_anim::json::Document doc;
        doc.Parse<rapidjson::kParseValidateEncodingFlag>(r.out.c_str());
        EXPECT_FALSE(doc.HasParseError())
            << rapidjson::GetParseError_En(doc.GetParseError()) << " in " << r.out;
      }
    }
  }
}

TEST(RepairContract, BadOptionValuesAreUsageErrors) {
  const fs::path d = fresh("options");
  write_asset(d, "a", 5);
  const std::string in = (d / "a.gltf").string(), out = (d / "out.gltf").string();
  const std::vector<std::vector<std::string>> runs = {
      {"reduce", in, "-o", out, "--max-error=-1"},
      {"reduce", in, "-o", out, "--max-error=nan"},
      {"reduce", in, "-o", out},  // no bound
      {"fit", in, "-o", out, "--to", "cubicspline", "--max-error=-0.5"},
      {"fit", in, "-o", out, "--to", "quintic", "--max-error", "1e-3"},
      {"migrate", in, "-o", out, "--to", "khr_animation3"},
      {"migrate", in, "-o", out},
      {"fix", in, "-o", out, "--only", "NOT_A_CODE"},
      {"fix", in, "-o", out, "--format", "xml"},
      {"fix", in},  // no output
      {"fix", in, "-o", out, "--in-place"},
  };
  for (const auto& a : runs) {
    std::string shown;
    for (const std::string& s : a) shown += s + " ";
    SCOPED_TRACE(shown);
    const CliRun r = cli(a);
    ASSERT_TRUE(r.exited);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_FALSE(r.err.empty());
    EXPECT_FALSE(fs::exists(out));
  }
}

}  // namespace

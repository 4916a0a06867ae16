// Every command that parses JSON keeps the contract under a memory limit:
// too little memory is "out of memory" (exit 2, or validate's INTERNAL_ERROR
// of the asset), never a signal. RapidJSON
// does not check its allocations (its memory pool, its parse stack and its
// string buffer write through whatever malloc returned), so before the project
// used its own JSON types (gltf_anim/gltf/json.hpp) `validate` and `sample` of
// an 8 MB glTF were a segmentation fault anywhere from 40 to 140 MiB of address
// space, and `compare` of a samples file holding a 60 MB string from 60 to
// 100 MiB. The limits are swept rather than chosen: whatever a build needs,
// each run either completes as it does without a limit or says it is out of
// memory, and some run of the sweep is short of memory.
#include "scratch.hpp"
#include <gtest/gtest.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "../sanitizers.hpp"
#include "cli/cli_process.hpp"

// Under ASan no address-space limit can be set (its shadow memory needs
// terabytes of it): nothing here would be checked, so nothing is registered.
#ifndef GLTF_ANIM_TEST_ASAN
namespace {

namespace fs = std::filesystem;
const fs::path kTmp = gltf_anim_test::scratch_root() / "json_memory";
constexpr rlim_t kMiB = rlim_t{1} << 20;

void spit(const fs::path& p, std::string_view bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A valid glTF whose JSON DOM is large for its text: 4,000,000 array elements
// in extras (8 MB of text; 16 bytes each in the DOM, and as much again on the
// parse stack while the array is open).
const fs::path& many_values_gltf() {
  static const fs::path p = [] {
    std::string text = R"({"asset":{"version":"2.0"},"extras":{"a":[0)";
    text.reserve(8'100'000);
    for (int i = 1; i < 4'000'000; ++i) text += ",0";
    text += "]}}";
    const fs::path out = kTmp / "many_values.gltf";
    spit(out, text);
    return out;
  }();
  return p;
}

struct Row {
  const char* what;
  std::vector<std::string> args;  // the command; OUT is replaced by the run's output path
};

// Runs `args` under each limit; returns how many runs were out of memory.
int sweep(const Row& row, const std::vector<rlim_t>& limits_mib) {
  // Without a limit: the exit code a run that has the memory must give.
  const auto plain = cli_process::run(row.args, kTmp / "plain");
  EXPECT_EQ(plain.signal, 0) << row.what << ": " << plain.err;
  EXPECT_NE(plain.exit_code, 2) << row.what << ": " << plain.err;
  int short_of_memory = 0;
  for (const rlim_t mib : limits_mib) {
    cli_process::Options o;
    o.address_space = mib * kMiB;
    o.cpu_seconds = 60;
    o.kill_after = std::chrono::seconds(120);
    const auto run = cli_process::run(row.args, kTmp / ("at" + std::to_string(mib)), o);
    const std::string where = std::string(row.what) + " at " + std::to_string(mib) + " MiB: ";
    EXPECT_EQ(run.signal, 0) << where << run.err;
    if (run.exit_code == 2) {
      // The command stopped: it says why on stderr.
      EXPECT_NE(run.err.find("out of memory"), std::string::npos) << where << run.err;
      EXPECT_EQ(run.err.find("internal error"), std::string::npos) << where << run.err;
      ++short_of_memory;
    } else if (run.out.find("INTERNAL_ERROR") != std::string::npos) {
      // validate goes on past an asset it could not finish: that asset's
      // INTERNAL_ERROR says why (docs/RELIABILITY.md), and the asset fails.
      EXPECT_NE(run.out.find("out of memory"), std::string::npos) << where << run.out;
      EXPECT_EQ(run.exit_code, 1) << where << run.err;
      ++short_of_memory;
    } else {
      EXPECT_EQ(run.exit_code, plain.exit_code) << where << run.err;
    }
  }
  return short_of_memory;
}

const std::vector<rlim_t> kLimits = {40, 70, 100, 140};

TEST(JsonMemory, ValidateOfALargeDocumentIsOutOfMemoryNotACrash) {
  const Row row{"validate", {"validate", "--no-timings", many_values_gltf().string()}};
  EXPECT_GT(sweep(row, kLimits), 0) << "no limit of the sweep was short of memory";
}

TEST(JsonMemory, SampleOfALargeDocumentIsOutOfMemoryNotACrash) {
  const Row row{"sample", {"sample", many_values_gltf().string()}};
  EXPECT_GT(sweep(row, kLimits), 0) << "no limit of the sweep was short of memory";
}

// compare reads samples files as they are parsed; RapidJSON's reader gathers a
// string on its own stack first.
TEST(JsonMemory, CompareOfAHugeStringIsOutOfMemoryNotACrash) {
  const fs::path golden = kTmp / "golden.json";
  const auto sampled = cli_process::run(
      {"sample", "--output", golden.string(),
       (fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets/valid/rotation_linear.gltf").string()},
      kTmp / "golden");
  ASSERT_EQ(sampled.exit_code, 0) << sampled.err;
  const fs::path actual = kTmp / "huge_string.json";
  spit(actual, "{\"format\":\"" + std::string(60'000'000, 'x') + "\"}");
  const Row row{"compare", {"compare", "--golden", golden.string(), "--actual", actual.string()}};
  EXPECT_GT(sweep(row, kLimits), 0) << "no limit of the sweep was short of memory";
}

}  // namespace
#endif

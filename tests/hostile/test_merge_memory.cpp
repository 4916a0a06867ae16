// `gltf-anim merge` holds a report's text and what it reads from it, not a DOM
// of the whole text as well: a large report (many assets, many issues each)
// merges under an address-space limit that a whole-text DOM exceeds, and a
// limit too small for it is "out of memory" (exit 2), never a crash.
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

namespace {

namespace fs = std::filesystem;
const fs::path kTmp = gltf_anim_test::scratch_root() / "merge_memory";

constexpr int kNodes = 5000;  // issues per asset (one UNEXPECTED_PROPERTY per node)
constexpr int kAssets = 32;   // assets in the report
constexpr rlim_t kMiB = rlim_t{1} << 20;

void spit(const fs::path& p, std::string_view bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// The JSON text without the white space outside strings: the writer indents,
// and a report without indentation is the same report with the most values per
// byte (what costs a DOM most).
std::string compact(std::string_view json) {
  std::string out;
  out.reserve(json.size());
  bool in_string = false;
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      out += c;
      if (c == '\\')
        out += json[++i];
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
      out += c;
    } else if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
      out += c;
    }
  }
  return out;
}

// A report as `validate` writes it, of kAssets assets with kNodes issues each:
// one asset validated by the CLI, its report entry repeated under other names.
fs::path large_report() {
  std::string gltf = R"({"asset":{"version":"2.0"},"nodes":[)";
  for (int i = 0; i < kNodes; ++i) {
    gltf += (i ? "," : "") + std::string(R"({"foo":)") + std::to_string(i) + "}";
  }
  gltf += "]}";
  const fs::path asset = kTmp / "m.gltf";
  spit(asset, gltf);
  const auto one = cli_process::run(
      {"validate", "--format", "json", "--no-timings", asset.string()}, kTmp / "validate");
  EXPECT_EQ(one.exit_code, 0) << one.err;
  const std::string text = compact(one.out);
  // {"tool":{...},"reports":[ENTRY],"summary":{...}}: ENTRY is the one asset's report.
  const std::string open = "\"reports\":[";
  const std::size_t begin = text.find(open) + open.size();
  const std::size_t end = text.rfind("],\"summary\"");
  EXPECT_NE(begin, std::string::npos);
  EXPECT_NE(end, std::string::npos);
  const std::string entry = text.substr(begin, end - begin);
  const std::string uri = "\"uri\":\"" + asset.string() + "\"";
  EXPECT_NE(entry.find(uri), std::string::npos);
  std::string report = text.substr(0, begin);
  for (int k = 0; k < kAssets; ++k) {
    std::string copy = entry;
    copy.replace(copy.find(uri), uri.size(), "\"uri\":\"m" + std::to_string(k) + ".gltf\"");
    report += (k ? "," : "") + copy;
  }
  report += text.substr(end);
  const fs::path out = kTmp / "large.json";
  spit(out, report);
  return out;
}

// Under ASan the limit is not set: its shadow memory needs terabytes of address space.
cli_process::Run merge_under(rlim_t address_space, const fs::path& report, const std::string& tag) {
  cli_process::Options o;
#ifndef GLTF_ANIM_TEST_ASAN
  o.address_space = address_space;
#else
  (void)address_space;
#endif
  o.cpu_seconds = 60;
  o.kill_after = std::chrono::seconds(120);
  return cli_process::run(
      {"merge", "--no-timings", "--output", (kTmp / (tag + ".json")).string(), report.string()},
      kTmp / tag, o);
}

// The report is about 29 MB (160,000 issues). Measured (bench/merge_memory.sh,
// docs/PERFORMANCE.md "merge: memory"): the whole-text DOM reader needed 143 MiB
// of address space for it; reading each asset's part as it is parsed needs 91
// MiB. 119 MiB lies between, 24 MiB or more from either, room for another
// build's own size. Under ASan the merge runs without the limit and its output is
// checked all the same.
TEST(MergeMemory, ALargeReportMergesWithoutADomOfItsText) {
  const fs::path report = large_report();
  ASSERT_GT(fs::file_size(report), std::uintmax_t{25} << 20);
  const auto run = merge_under(119 * kMiB, report, "fits");
  EXPECT_EQ(run.signal, 0) << run.err;
  EXPECT_EQ(run.exit_code, 0) << run.err;
  // Merged whole: every asset is in the output, with all its issues.
  const std::string merged = cli_process::slurp(kTmp / "fits.json");
  EXPECT_NE(merged.find("\"m" + std::to_string(kAssets - 1) + ".gltf\""), std::string::npos);
  std::size_t issues = 0;
  for (std::size_t at = merged.find("UNEXPECTED_PROPERTY"); at != std::string::npos;
       at = merged.find("UNEXPECTED_PROPERTY", at + 1)) {
    ++issues;
  }
  EXPECT_EQ(issues, std::size_t{kAssets} * kNodes);
}

// Below what the report needs, merge says so (exit 2, "out of memory"): the
// JSON parser's allocations throw rather than hand it a null pointer to write
// through (a segmentation fault before). Only where an address-space limit can be
// set: the ASan build does not register it (nothing would be checked).
#ifndef GLTF_ANIM_TEST_ASAN
TEST(MergeMemory, TooLittleMemoryIsAnErrorNotACrash) {
  const fs::path report = large_report();
  for (const rlim_t mib : {40, 50, 60, 70}) {
    const auto run = merge_under(mib * kMiB, report, "short" + std::to_string(mib));
    EXPECT_EQ(run.signal, 0) << mib << " MiB: " << run.err;
    EXPECT_EQ(run.exit_code, 2) << mib << " MiB: " << run.err;
    EXPECT_NE(run.err.find("out of memory"), std::string::npos) << mib << " MiB: " << run.err;
    EXPECT_FALSE(fs::exists(kTmp / ("short" + std::to_string(mib) + ".json")));
  }
}
#endif

// Read as it is parsed, a report still answers as its whole DOM did: a root
// member named twice counts once, the first (the second, however large, is
// skipped, not built).
TEST(MergeMemory, ARootMemberNamedTwiceCountsTheFirst) {
  const fs::path asset =
      fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets/valid/rotation_linear.gltf";
  const auto one = cli_process::run(
      {"validate", "--format", "json", "--no-timings", asset.string()}, kTmp / "twice");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const fs::path plain = kTmp / "plain.json";
  spit(plain, one.out);
  const std::size_t last = one.out.rfind('}');
  ASSERT_NE(last, std::string::npos);
  const fs::path twice = kTmp / "twice.json";
  spit(twice, one.out.substr(0, last) +
                  R"(,"reports":[{"uri":[1,{"a":[]}]}],"tool":{"name":"other"},"summary":7})" +
                  one.out.substr(last + 1));
  const auto merged_plain =
      cli_process::run({"merge", "--no-timings", plain.string()}, kTmp / "twice");
  const auto merged_twice =
      cli_process::run({"merge", "--no-timings", twice.string()}, kTmp / "twice");
  EXPECT_EQ(merged_plain.exit_code, 0) << merged_plain.err;
  EXPECT_EQ(merged_twice.exit_code, 0) << merged_twice.err;
  EXPECT_EQ(merged_twice.out, merged_plain.out);
}

}  // namespace

// `gltf-anim merge` holds a report's text and what it reads from it, not a DOM
// of the whole text as well: a large report (many assets, many issues each)
// merges under an address-space limit that a whole-text DOM exceeds, and a
// limit too small for it is "out of memory" (exit 2), never a crash.
#include "scratch.hpp"
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
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
// of address space for it; reading each asset's part as it is parsed needed 91
// MiB, reading the report in pieces twice 13 MiB. 119 MiB lies below the first,
// room for another build's own size. Under ASan the merge runs without the limit and its output is
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

// A report several times larger than the address space merge may have: it is
// read twice in pieces (checked and indexed, then each asset again as it is
// written), never held whole nor its assets all at once, so it merges. Before,
// merge held the report's text and every asset's report: 145 MB of text under
// a 64 MiB limit was "out of memory". Measured (docs/PERFORMANCE.md "merge:
// memory"): 32 assets of 5,000 issues merge in 13 MiB of address space, and
// the size of the report adds nothing; 64 MiB leaves room for another build's
// own size.
TEST(MergeMemory, AReportSeveralTimesTheMemoryLimitMergesInPieces) {
  constexpr int kCopies = 5;  // of the 32 assets of 5,000 issues: about 145 MB of text
  const fs::path small = large_report();
  const std::string text = cli_process::slurp(small);
  // The report of large_report() with its assets' part repeated: written a
  // copy at a time, so the test does not hold it either.
  const std::string open = "\"reports\":[";
  const std::size_t begin = text.find(open) + open.size();
  const std::size_t end = text.rfind("],\"summary\"");
  ASSERT_NE(begin, std::string::npos);
  ASSERT_NE(end, std::string::npos);
  const std::string_view assets(text.data() + begin, end - begin);
  const fs::path report = kTmp / "huge.json";
  {
    std::ofstream out(report, std::ios::binary);
    out << text.substr(0, begin);
    for (int k = 0; k < kCopies; ++k) {
      // Each copy's uris renamed: m<k>_<j>.gltf, so no two assets share one.
      std::string copy(assets);
      for (std::size_t at = copy.find("\"uri\":\"m"); at != std::string::npos;
           at = copy.find("\"uri\":\"m", at + 1)) {
        copy.insert(at + 8, std::to_string(k) + "_");
      }
      out << (k ? "," : "") << copy;
    }
    out << text.substr(end);
  }
  constexpr rlim_t kLimit = 64 * kMiB;
  ASSERT_GT(fs::file_size(report), 2 * kLimit);
  cli_process::Options o;
#ifndef GLTF_ANIM_TEST_ASAN
  o.address_space = kLimit;
#endif
  o.cpu_seconds = 120;
  o.kill_after = std::chrono::seconds(300);
  // To /dev/null: the output would be as large again; its totals say what was written.
  const auto run = cli_process::run(
      {"merge", "--no-timings", "--format", "json", "--output", "/dev/null", report.string()},
      kTmp / "huge", o);
  EXPECT_EQ(run.signal, 0) << run.err;
  EXPECT_EQ(run.exit_code, 0) << run.err;
  // Every asset with all its issues: kAssets x kCopies assets, kNodes warnings each.
  const std::string assets_line = std::to_string(kAssets * kCopies) + " assets, 0 failed; 0 errors, " +
                                  std::to_string(std::uint64_t{kAssets} * kCopies * kNodes) +
                                  " warnings";
  EXPECT_NE(run.err.find(assets_line), std::string::npos) << run.err;
  fs::remove(report);
}

// The report of large_report() as one asset that has all its issues, each of
// them `copies` times over (kAssets x kNodes x copies issues), written to
// `name` a copy at a time.
fs::path one_asset_report(int copies = 1, const std::string& name = "one_asset.json") {
  const std::string text = cli_process::slurp(large_report());
  const std::string open = "\"messages\":[";
  const std::size_t first = text.find(open);
  const std::size_t begin = first + open.size();
  const std::size_t end = text.find("],\"truncated\"", begin);
  EXPECT_NE(first, std::string::npos);
  EXPECT_NE(end, std::string::npos);
  std::string head = text.substr(0, begin);
  const std::string messages = text.substr(begin, end - begin);
  const std::string warnings = "\"numWarnings\":" + std::to_string(kNodes) + ",";
  const std::size_t counts = head.find(warnings);
  EXPECT_NE(counts, std::string::npos);
  head.replace(counts, warnings.size(),
               "\"numWarnings\":" + std::to_string(std::uint64_t{kAssets} * kNodes * copies) +
                   ",");
  const fs::path out = kTmp / name;
  std::ofstream file(out, std::ios::binary);
  file << head;
  for (int k = 0; k < kAssets * copies; ++k) file << (k ? "," : "") << messages;
  // The rest of that asset, then no other asset.
  const std::size_t asset_end = text.find("},{\"uri\"", end);
  EXPECT_NE(asset_end, std::string::npos);
  file << text.substr(end, asset_end + 1 - end) << text.substr(text.rfind("],\"summary\""));
  return out;
}

// How many times `needle` occurs in the file `path`, read a piece at a time
// (the outputs below are hundreds of MB).
std::uint64_t occurrences(const fs::path& path, const std::string& needle) {
  std::ifstream in(path, std::ios::binary);
  std::string carry, piece(std::size_t{1} << 20, '\0');
  std::uint64_t n = 0;
  while (in) {
    in.read(piece.data(), static_cast<std::streamsize>(piece.size()));
    std::string window = carry + piece.substr(0, static_cast<std::size_t>(in.gcount()));
    for (std::size_t at = window.find(needle); at != std::string::npos;
         at = window.find(needle, at + 1)) {
      ++n;
    }
    // The tail that could begin an occurrence cut by the piece's end.
    const std::size_t keep = std::min(window.size(), needle.size() - 1);
    carry = window.substr(window.size() - keep);
  }
  return n;
}

// One asset whose issues alone are several times the address space merge may
// have, merged in every format: the writers take an asset's header (counts and
// first codes from the reading before) and its messages one at a time, read
// again from the report each time a format goes through them, so no asset is
// held whole. Before, every writer took the whole asset's report (about 200
// bytes an issue): this report's 480,000 issues were "out of memory" under
// 32 MiB in every format. Measured (docs/PERFORMANCE.md "merge: memory"): the
// merge of a one-asset report needs as much address space as one of many
// assets, whatever its size.
TEST(MergeMemory, AOneAssetReportSeveralTimesTheMemoryLimitMergesInEveryFormat) {
  constexpr int kCopies = 3;  // 480,000 issues in one asset: about 93 MB of text
  constexpr std::uint64_t kIssues = std::uint64_t{kAssets} * kNodes * kCopies;
  const fs::path report = one_asset_report(kCopies, "one_asset_huge.json");
  constexpr rlim_t kLimit = 32 * kMiB;
  ASSERT_GT(fs::file_size(report), 2 * kLimit);
  const std::string totals = "1 asset, 0 failed; 0 errors, " + std::to_string(kIssues) + " warnings";
  for (const std::string format : {"json", "text", "junit", "sarif", "md", "github"}) {
    cli_process::Options o;
#ifndef GLTF_ANIM_TEST_ASAN
    o.address_space = kLimit;
#endif
    o.cpu_seconds = 120;
    o.kill_after = std::chrono::seconds(300);
    const fs::path out = kTmp / ("merged_huge." + format);
    const auto run = cli_process::run({"merge", "--no-timings", "--format", format, "--output",
                                       out.string(), report.string()},
                                      kTmp / ("one_huge_" + format), o);
    EXPECT_EQ(run.signal, 0) << format << ": " << run.err;
    EXPECT_EQ(run.exit_code, 0) << format << ": " << run.err;
    EXPECT_NE(run.err.find(totals), std::string::npos) << format << ": " << run.err;
    // Every issue written where the format writes each one; its count where it counts them.
    if (format == "json" || format == "junit") {
      EXPECT_EQ(occurrences(out, "UNEXPECTED_PROPERTY"), kIssues) << format;
    } else if (format == "sarif") {
      EXPECT_EQ(occurrences(out, "\"ruleId\": \"UNEXPECTED_PROPERTY\""), kIssues);
    } else if (format == "text") {
      EXPECT_EQ(occurrences(out, "UNEXPECTED_PROPERTY x" + std::to_string(kIssues) + ", "), 1u);
    } else if (format == "md") {
      EXPECT_EQ(occurrences(out, "(0 errors, " + std::to_string(kIssues) + " warnings"), 1u);
    } else {
      // GitHub shows 10 warnings: the others are counted in the last notice.
      EXPECT_EQ(occurrences(out, "::warning "), 10u);
      EXPECT_EQ(occurrences(out, std::to_string(kIssues - 10) + " more findings were"), 1u);
    }
    fs::remove(out);
  }
  fs::remove(report);
}

// Below what the report needs, merge says so (exit 2, "out of memory"): the
// JSON parser's allocations throw rather than hand it a null pointer to write
// through (a segmentation fault before). Only where an address-space limit can be
// set: the ASan build does not register it (nothing would be checked). Merge
// holds one message at a time, so what outgrows the limits is one message: the
// first of the one-asset report (31 MB of text) made 40 MB long. Merged
// whole under 1 GiB; the limits are below what its text alone takes, above
// the 13 MiB the same report merges in without it.
#ifndef GLTF_ANIM_TEST_ASAN
TEST(MergeMemory, TooLittleMemoryIsAnErrorNotACrash) {
  const fs::path report = kTmp / "long_message.json";
  {
    std::string text = cli_process::slurp(one_asset_report());
    const std::string message = "\"message\":\"";
    const std::size_t at = text.find(message);
    ASSERT_NE(at, std::string::npos);
    text.insert(at + message.size(), std::string(std::size_t{40} << 20, 'x'));
    spit(report, text);
  }
  {
    // Merged whole when it has the memory.
    const auto run = merge_under(1024 * kMiB, report, "one_whole");
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.err.find(std::to_string(kAssets * kNodes) + " warnings"), std::string::npos)
        << run.err;
  }
  for (const rlim_t mib : {20, 25, 30}) {
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

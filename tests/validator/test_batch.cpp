// Validating many assets (validator/batch.hpp): reports reach the sink in input
// order whatever the number of threads, at most two reports per thread are alive
// at once, an exception while validating one asset becomes its INTERNAL_ERROR
// only, and a sink that throws stops the workers and reaches the caller. Counts
// are taken by instrumented validate/sink functions, never by timing.
#include <gltf_anim/validator/batch.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
namespace v = gltf_anim::validator;
namespace gltf = gltf_anim::gltf;

const fs::path kInvalid = fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets/invalid";

// Assets of the suite with one issue code each (their expected reports,
// conformance_assets/invalid/**/*.report.json, hold no other code).
struct KnownAsset {
  const char* path;
  const char* code;
};
constexpr KnownAsset kKnown[] = {
    {"channel/channels_non_object.gltf", "ARRAY_TYPE_MISMATCH"},
    {"channel/duplicate_targets.gltf", "ANIMATION_DUPLICATE_TARGETS"},
    {"channel/output_count.gltf", "ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT"},
    {"channel/target_node_matrix.gltf", "ANIMATION_CHANNEL_TARGET_NODE_MATRIX"},
    {"channel/target_path_unknown.gltf", "VALUE_NOT_IN_LIST"},
    {"channel/weights_no_morphs.gltf", "ANIMATION_CHANNEL_TARGET_NODE_WEIGHTS_NO_MORPHS"},
    {"animation/extras_not_object.gltf", "NON_OBJECT_EXTRAS"},
    {"animation/unexpected_property.gltf", "UNEXPECTED_PROPERTY"},
};
constexpr std::size_t kKnownCount = std::size(kKnown);

v::ValidationReport empty_report(const std::string& uri) {
  v::ValidationReport r;
  r.uri = uri;
  return r;
}

std::vector<std::string> names(std::size_t count) {
  std::vector<std::string> uris;
  for (std::size_t i = 0; i < count; ++i) uris.push_back("asset" + std::to_string(i) + ".gltf");
  return uris;
}

TEST(ValidateInOrder, ReportsComeInInputOrderWithAnyNumberOfThreads) {
  // 40 assets, neighbours different (step 3 through 8 assets), so a report
  // handed on out of place shows a code that is not its asset's.
  std::vector<std::string> uris;
  std::vector<std::string> codes;
  for (std::size_t i = 0; i < 40; ++i) {
    const KnownAsset& a = kKnown[(i * 3) % kKnownCount];
    uris.push_back((kInvalid / a.path).string());
    codes.emplace_back(a.code);
  }
  v::ValidateOptions options;
  options.issues.lints.level = gltf::LintLevel::kOff;
  for (const unsigned threads : {0u, 1u, 2u, 3u, 7u, 64u}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    std::size_t next = 0;
    v::validate_in_order(
        uris, threads, [&](std::size_t i) { return v::validate_path(uris[i], "", options, {}); },
        [&](std::size_t i, v::ValidatedAsset&& done) {
          EXPECT_EQ(i, next++);
          EXPECT_EQ(done.report.uri, uris[i]);
          EXPECT_GE(done.seconds, 0.0);
          ASSERT_FALSE(done.report.issues.empty());
          for (const gltf::Issue& issue : done.report.issues) EXPECT_EQ(issue.code, codes[i]);
        });
    EXPECT_EQ(next, uris.size());
  }
}

TEST(ValidateInOrder, AtMostTwoReportsPerThreadAreAlive) {
  const std::vector<std::string> uris = names(40);
  for (const unsigned threads : {2u, 3u, 5u}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    const std::size_t window = 2 * threads;
    std::mutex mutex;
    std::condition_variable started;
    std::size_t alive = 0, most = 0, sunk = 0;
    bool started_too_early = false;
    v::validate_in_order(
        uris, threads,
        [&](std::size_t i) {
          std::lock_guard lock(mutex);
          // Asset i may start only once asset i - window went through the sink.
          if (i >= window && sunk < i - window + 1) started_too_early = true;
          most = std::max(most, ++alive);
          started.notify_all();
          return empty_report(uris[i]);
        },
        [&](std::size_t i, v::ValidatedAsset&&) {
          std::unique_lock lock(mutex);
          // Hold the first report until the window is full: the workers run
          // ahead of the sink as far as they may.
          // A window smaller than 2 x threads never fills: bounded wait, so
          // that defect fails here instead of hanging the suite (not a timing
          // assertion: a correct window fills at once).
          if (i == 0 && !started.wait_for(lock, std::chrono::seconds(60), [&] { return alive >= window; })) {
            ADD_FAILURE() << "the window never held " << window << " reports";
          }
          --alive;
          ++sunk;
        });
    EXPECT_EQ(most, window);
    EXPECT_FALSE(started_too_early);
    EXPECT_EQ(sunk, uris.size());
  }
}

TEST(ValidateInOrder, AnExceptionWhileValidatingIsThatAssetsInternalError) {
  const std::vector<std::string> uris = names(12);
  for (const unsigned threads : {1u, 3u}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    std::vector<v::ValidationReport> got;
    v::validate_in_order(
        uris, threads,
        [&](std::size_t i) -> v::ValidationReport {
          if (i == 2) throw std::runtime_error("a defect");
          if (i == 4) throw std::bad_alloc();
          if (i == 5) throw 42;
          return empty_report(uris[i]);
        },
        [&](std::size_t, v::ValidatedAsset&& done) { got.push_back(std::move(done.report)); });
    ASSERT_EQ(got.size(), uris.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      SCOPED_TRACE(i);
      EXPECT_EQ(got[i].uri, uris[i]);
      if (i != 2 && i != 4 && i != 5) {
        EXPECT_TRUE(got[i].issues.empty());
        continue;
      }
      ASSERT_EQ(got[i].issues.size(), 1u);
      EXPECT_EQ(got[i].issues[0].code, "INTERNAL_ERROR");
      EXPECT_EQ(got[i].issues[0].severity, gltf::Severity::kError);
      EXPECT_EQ(got[i].issues[0].pointer, "");
    }
    EXPECT_EQ(got[2].issues[0].message, "The asset could not be validated: a defect.");
    EXPECT_EQ(got[4].issues[0].message, "The asset could not be validated: out of memory.");
    EXPECT_EQ(got[5].issues[0].message, "The asset could not be validated: unknown exception.");
  }
}

TEST(ValidateInOrder, ASinkThatThrowsStopsTheWorkersAndReachesTheCaller) {
  const std::vector<std::string> uris = names(200);
  for (const unsigned threads : {1u, 2u, 4u}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    std::atomic<std::size_t> validated{0};
    std::size_t last_sunk = 0;
    try {
      v::validate_in_order(
          uris, threads,
          [&](std::size_t i) {
            ++validated;
            return empty_report(uris[i]);
          },
          [&](std::size_t i, v::ValidatedAsset&&) {
            last_sunk = i;
            if (i == 3) throw std::runtime_error("no space left on device");
          });
      ADD_FAILURE() << "the sink's exception did not reach the caller";
    } catch (const std::runtime_error& e) { EXPECT_STREQ(e.what(), "no space left on device"); }
    EXPECT_EQ(last_sunk, 3u);
    // Assets 0..3 went to the sink; at most a window (2 per thread) was
    // started beyond the last one that went through it (asset 2).
    EXPECT_GE(validated.load(), 4u);
    EXPECT_LE(validated.load(), 3 + 2 * std::size_t{threads});
  }
}

TEST(ValidatePath, StandardInputIsValidatedFromItsBytesOrRefusedWhenTooLarge) {
  const fs::path asset = kInvalid / "channel/duplicate_targets.gltf";
  std::ifstream in(asset, std::ios::binary);
  const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), {}};
  ASSERT_FALSE(bytes.empty());
  v::ValidateOptions options;
  options.issues.lints.level = gltf::LintLevel::kOff;
  const v::ValidationReport r = v::validate_path("-", "", options, {bytes, false});
  EXPECT_EQ(r.uri, "-");
  ASSERT_FALSE(r.issues.empty());
  for (const gltf::Issue& issue : r.issues) EXPECT_EQ(issue.code, "ANIMATION_DUPLICATE_TARGETS");

  options.load.max_file_bytes = 10;
  const v::ValidationReport refused = v::validate_path("-", "", options, {{}, true});
  EXPECT_EQ(refused.uri, "-");
  ASSERT_EQ(refused.issues.size(), 1u);
  EXPECT_EQ(refused.issues[0].code, "FILE_TOO_LARGE");
  EXPECT_EQ(refused.issues[0].message, "File is 11 bytes, more than the limit of 10 bytes.");
}

TEST(ValidatePath, AFileOfAFolderIsOpenedBeneathThatFolder) {
  // The same file, named through ".." out of the folder it was listed in: read
  // when named directly, refused (never read) when it must lie beneath the folder.
  const fs::path folder = kInvalid / "channel";
  const std::string path = (folder / ".." / "animation/unexpected_property.gltf").string();
  v::ValidateOptions options;
  options.issues.lints.level = gltf::LintLevel::kOff;
  const v::ValidationReport named = v::validate_path(path, "", options, {});
  ASSERT_FALSE(named.issues.empty());
  EXPECT_EQ(named.issues[0].code, "UNEXPECTED_PROPERTY");
  const v::ValidationReport beneath = v::validate_path(path, folder.string(), options, {});
  EXPECT_EQ(beneath.uri, path);
  ASSERT_EQ(beneath.issues.size(), 1u);
  EXPECT_EQ(beneath.issues[0].code, "IO_ERROR");
}

}  // namespace

// gltf-anim compare naming a reading it computes from the asset's keys on the suite's own
// files: two allowed readings stacked on the same samples, EXT_animation_sqlerp's LINEAR
// fallback played by nlerp (what Blender 3.4's importer does), which no manifest variant
// (one reading each) names. The actual values are computed here from the fallback's keys as
// stored in conformance_assets/valid/sqlerp_with_fallback.gltf (`sample --keys
// --no-extensions`: identity at 0 s, 90 degrees about z at 1 s, (0.5, -0.5, 0.5, 0.5) at 2.5 s),
// by normalized lerp, not by the code under test.
#include "scratch.hpp"
#include <gltf_anim/samples/samples.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <string>

#include "compare_cli_util.hpp"

namespace gs = gltf_anim::samples;
namespace fs = std::filesystem;
using compare_cli::run;

namespace {

using Q = std::array<double, 4>;  // x, y, z, w

// The fallback's keys (float32 values, as stored).
const double kTimes[] = {0, 1, 2.5};
const Q kKeys[] = {
    {0, 0, 0, 1}, {0, 0, 0.7071067690849304, 0.7071067690849304}, {0.5, -0.5, 0.5, 0.5}};
// The golden samples' times of sqlerp_with_fallback.
const double kSampleTimes[] = {-0.5, 0, 0.25, 0.5, 0.75, 1, 1.375, 1.75, 2.125, 2.5, 3};

// Normalized lerp on the shortest path, held outside the keys.
Q fallback_nlerp(double t) {
  if (t <= kTimes[0]) return kKeys[0];
  if (t >= kTimes[2]) return kKeys[2];
  const int k = t < kTimes[1] ? 0 : 1;
  const double s = (t - kTimes[k]) / (kTimes[k + 1] - kTimes[k]);
  const Q& a = kKeys[k];
  Q b = kKeys[k + 1];
  if (a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] < 0)
    for (double& c : b) c = -c;
  Q p;
  double n = 0;
  for (int c = 0; c < 4; ++c) {
    p[c] = (1 - s) * a[c] + s * b[c];
    n += p[c] * p[c];
  }
  for (double& c : p) c /= std::sqrt(n);
  return p;
}

// DIR/actual/sqlerp_with_fallback.samples.json: the fallback by nlerp, with the value at
// `off_at` (if any) turned 0.1 rad further about z.
fs::path actual(const std::string& name, double off_at = -1) {
  const fs::path dir = gltf_anim_test::scratch_root() / "compare_named_readings_cli" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  gs::SamplesFile f;
  f.asset = "sqlerp_with_fallback.gltf";
  auto& a = f.animations.emplace_back();
  a.index = 0;
  auto& c = a.channels.emplace_back();
  c.index = 0;
  c.target = "/nodes/0/rotation";
  for (const double t : kSampleTimes) {
    Q q = fallback_nlerp(t);
    if (t == off_at) {  // q * (0, 0, sin 0.05, cos 0.05)
      const double sz = std::sin(0.05), cw = std::cos(0.05);
      q = {q[0] * cw + q[1] * sz, q[1] * cw - q[0] * sz, q[2] * cw + q[3] * sz,
           q[3] * cw - q[2] * sz};
    }
    c.add_sample(t, {q[0], q[1], q[2], q[3]});
  }
  gs::write_samples_file(dir / "sqlerp_with_fallback.samples.json", f);
  return dir;
}

std::string args(const fs::path& dir) {
  return " compare --golden '" + (fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets").string() +
         "' --actual '" + dir.string() + "' --cases sqlerp_with_fallback";
}

}  // namespace

// The stacked reading is named on the channel, as a reading the specs allow; the case still
// fails (a named reading changes no verdict: the manifest's variants do).
TEST(CompareNamedReadingsCli, TheSqlerpFallbackPlayedByNlerpIsNamed) {
  const auto r = run(args(actual("nlerp")));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("your values match variant \"no-extensions + nlerp\" at all 6 of its times "
                       "(t = 0.25, 0.5, 0.75, 1.375, 1.75, 2.125), a reading the specs allow; no "
                       "other sample fails"),
            std::string::npos)
      << r.out;
  // The manifest's one-reading variant explains only the samples where nlerp and slerp agree
  // (the segment midpoints 0.5 and 1.75).
  EXPECT_NE(r.out.find("partly match variant \"no-extensions\": at t = 0.5, 1.75"),
            std::string::npos)
      << r.out;
}

// One sample off the reading (0.1 rad at 1.375 s): the reading does not explain the channel.
TEST(CompareNamedReadingsCli, OneSampleOffTheReadingIsNotNamed) {
  const auto r = run(args(actual("off", 1.375)));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(r.out.find("match variant \"no-extensions + nlerp\" at all"), std::string::npos)
      << r.out;
}

// --rate: how many times it gives is known before they are built, and too many
// are refused before anything is allocated. Expected counts come from the
// definition (k / rate <= end for k = 0, 1, ...), evaluated by a plain loop in
// Python for the rounding cases.
#include <gltf_anim/sampler/sample.hpp>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

namespace sampler = gltf_anim::sampler;

namespace {

using gltf_anim::sampler::rate_time_count;
using gltf_anim::sampler::rate_times;
using gltf_anim::sampler::SampleError;

TEST(RateTimes, CountFollowsTheDefinition) {
  EXPECT_EQ(sampler::rate_time_count(1.0, 30.0), 31u);  // 0, 1/30, ..., 30/30
  EXPECT_EQ(sampler::rate_time_count(1.0, 3.0), 4u);    // 3/3 == 1 is kept
  EXPECT_EQ(sampler::rate_time_count(0.7, 10.0), 8u);
  EXPECT_EQ(sampler::rate_time_count(0.0, 10.0), 1u);   // t = 0 only
  EXPECT_EQ(sampler::rate_time_count(-1.0, 10.0), 0u);
  // end * rate rounds up to 91205 here, but 91205 / 3 > end: k stops at 91204.
  EXPECT_EQ(sampler::rate_time_count(30401.666666666664, 3.0), 91205u);
  EXPECT_EQ(sampler::rate_time_count(30401.666666666668, 3.0), 91206u);
  EXPECT_EQ(sampler::rate_time_count(1.0, 2e8), 200000001u);
  EXPECT_EQ(sampler::rate_time_count(1e300, 1e300), std::numeric_limits<std::uint64_t>::max());
}

TEST(RateTimes, TimesMatchTheirCount) {
  for (const auto& [end, rate] : {std::pair{1.0, 30.0}, {30401.666666666664, 3.0}, {0.7, 10.0}}) {
    const auto times = sampler::rate_times(end, rate);
    ASSERT_EQ(times.size(), sampler::rate_time_count(end, rate));
    EXPECT_LE(times.back(), end);
    EXPECT_GT(static_cast<double>(times.size()) / rate, end);
  }
}

TEST(RateTimes, MoreThanTheCapIsRefusedBeforeAllocating) {
  // 2^28 + 1 times would be 2 GiB of doubles.
  EXPECT_THROW(sampler::rate_times(1.0, 268435456.0), sampler::SampleError);
  EXPECT_EQ(sampler::rate_time_count(1.0, 268435456.0), 268435457u);
  EXPECT_EQ(sampler::rate_time_count(1.0, 268435455.0), 268435456u);  // at the cap: allowed
}

// --count: N times from start to end, both included, each start + span k / (N - 1).
// Spans whose k / (N - 1) are exact in binary, so the expected times are exact.
TEST(CountTimes, EvenlySpacedWithBothEnds) {
  EXPECT_EQ(sampler::count_times(0.0, 3.5, 5), (std::vector<double>{0, 0.875, 1.75, 2.625, 3.5}));
  EXPECT_EQ(sampler::count_times(-1.0, 1.0, 3), (std::vector<double>{-1, 0, 1}));
  EXPECT_EQ(sampler::count_times(0.0, 1.0, 1), (std::vector<double>{0}));
  EXPECT_EQ(sampler::count_times(2.0, 2.0, 10), (std::vector<double>{2}));  // a clip of one instant
  // 0.1 + 0.6 * 1 is 0.7000000000000001 in doubles: the last time is the latest key itself.
  const auto t = sampler::count_times(0.1, 0.7, 7);
  ASSERT_EQ(t.size(), 7u);
  EXPECT_EQ(t.back(), 0.7);
  EXPECT_EQ(sampler::count_times(0.0, 1.0, sampler::kMaxCountTimes).size(), sampler::kMaxCountTimes);
}

TEST(CountTimes, OutOfRangeIsRefused) {
  EXPECT_THROW(sampler::count_times(0.0, 1.0, 0), sampler::SampleError);
  EXPECT_THROW(sampler::count_times(0.0, 1.0, sampler::kMaxCountTimes + 1), sampler::SampleError);
}

}  // namespace

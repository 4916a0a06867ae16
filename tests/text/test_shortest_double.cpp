// Differential test of text/src/shortest_double: write_shortest_double must write
// exactly the bytes of std::to_chars(first, last, double) for every finite double. It
// is the guard of the fmt internals that function uses (see shortest_double.cpp).
#include <gltf_anim/text/shortest_double.hpp>

#include <gtest/gtest.h>

#include <bit>
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>

namespace {

using gltf_anim::text::kShortestDoubleMax;
using gltf_anim::text::write_shortest_double;

// Counts the doubles compared and keeps the first few mismatches.
class Differ {
 public:
  void check(double v) {
    if (!std::isfinite(v)) return;
    ++count_;
    char want[64];
    char got[64];
    const char* want_end = std::to_chars(want, want + sizeof want, v).ptr;
    const char* got_end = write_shortest_double(got, v);
    const auto want_len = static_cast<std::size_t>(want_end - want);
    const auto got_len = static_cast<std::size_t>(got_end - got);
    if (got_len > kShortestDoubleMax || want_len != got_len || std::memcmp(want, got, want_len) != 0) {
      if (++mismatches_ <= 20) {
        char bits[32];
        std::snprintf(bits, sizeof bits, "%016llx",
                      static_cast<unsigned long long>(std::bit_cast<std::uint64_t>(v)));
        ADD_FAILURE() << "bits " << bits << ": to_chars \"" << std::string(want, want_len)
                      << "\", write_shortest_double \"" << std::string(got, got_len) << "\"";
      }
    }
  }
  void check_both_signs(double v) {
    check(v);
    check(-v);
  }
  void check_neighbours(double v, int steps = 2) {
    double up = v;
    double down = v;
    check_both_signs(v);
    for (int i = 0; i < steps; ++i) {
      up = std::nextafter(up, std::numeric_limits<double>::infinity());
      down = std::nextafter(down, -std::numeric_limits<double>::infinity());
      check_both_signs(up);
      check_both_signs(down);
    }
  }
  std::uint64_t count() const { return count_; }
  std::uint64_t mismatches() const { return mismatches_; }

 private:
  std::uint64_t count_ = 0;
  std::uint64_t mismatches_ = 0;
};

double parse(const std::string& s) { return std::strtod(s.c_str(), nullptr); }

// Any bit pattern: every exponent, denormals, both signs (NaN and inf skipped).
void random_patterns(Differ& d, std::uint64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (std::uint64_t i = 0; i < n; ++i) d.check(std::bit_cast<double>(rng()));
}

// Environment knobs for a longer run outside CTest's time budget, e.g. the
// one-off 10^9 of docs/PERFORMANCE.md:
//   GLTF_ANIM_SHORTEST_COUNT=1000000000 GLTF_ANIM_SHORTEST_SEED=2026
//     build/tests/test_reports --gtest_filter='ShortestDouble.RandomBitPatterns'
// (one command line).
std::uint64_t env_or(const char* name, std::uint64_t fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::strtoull(v, nullptr, 10) : fallback;
}

TEST(ShortestDouble, RandomBitPatterns) {
  Differ d;
  random_patterns(d, env_or("GLTF_ANIM_SHORTEST_COUNT", 12'000'000), env_or("GLTF_ANIM_SHORTEST_SEED", 20261122));
  // The same with few mantissa bits set (short digit strings, trailing zeros).
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2'000'000; ++i) {
    const std::uint64_t r = rng();
    const int keep = static_cast<int>(r % 53);
    const std::uint64_t mask = ~((std::uint64_t{1} << (52 - keep)) - 1);
    d.check(std::bit_cast<double>(rng() & mask));
  }
  EXPECT_EQ(d.mismatches(), 0u);
  std::printf("[ compared ] %llu doubles\n", static_cast<unsigned long long>(d.count()));
}

TEST(ShortestDouble, AnimationLikeValues) {
  Differ d;
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> unit(-2.0, 2.0);
  for (int i = 0; i < 3'000'000; ++i) d.check(unit(rng));
  // Interpolation results: float32 keys and times combined in double, as the sampler does.
  std::uniform_real_distribution<float> key(-100.0f, 100.0f);
  std::uniform_real_distribution<float> small(-1.0f, 1.0f);
  std::uniform_real_distribution<float> time(0.0f, 100.0f);
  for (int i = 0; i < 1'000'000; ++i) {
    const double a = key(rng);
    const double b = key(rng);
    const double q0 = small(rng);
    const double q1 = small(rng);
    const double t0 = time(rng);
    const double t1 = t0 + static_cast<double>(std::abs(small(rng)));
    const double t = t0 + (t1 - t0) * (static_cast<double>(i % 30) / 30.0);
    const double s = (t - t0) / (t1 - t0);
    d.check(a + (b - a) * s);
    d.check(a * (1.0 - s) + b * s);
    d.check(q0 * std::sin((1.0 - s) * 0.7) / std::sin(0.7) + q1 * std::sin(s * 0.7) / std::sin(0.7));
    d.check(static_cast<double>(static_cast<float>(a) * static_cast<float>(s)));
    d.check(t);
    d.check(static_cast<double>(i) / 30.0);
  }
  EXPECT_EQ(d.mismatches(), 0u);
  std::printf("[ compared ] %llu doubles\n", static_cast<unsigned long long>(d.count()));
}

TEST(ShortestDouble, EdgeCases) {
  Differ d;
  d.check_both_signs(0.0);
  d.check_neighbours(std::numeric_limits<double>::denorm_min(), 3);  // 5e-324
  d.check_neighbours(DBL_MIN);
  d.check_neighbours(std::nextafter(DBL_MIN, 0.0));  // the largest denormal
  d.check_neighbours(DBL_MAX);
  d.check_neighbours(1.0);
  d.check_neighbours(0.1);
  d.check_neighbours(1.0 / 3.0);
  // Powers of ten and their neighbours over the whole range.
  for (int k = -325; k <= 309; ++k) d.check_neighbours(parse("1e" + std::to_string(k)), 3);
  // Every fixed/scientific switch point: n significant digits (1 to 17) at every
  // decimal exponent, random digits, both signs, plus neighbours.
  std::mt19937_64 rng(5);
  for (int k = -325; k <= 309; ++k) {
    for (int n = 1; n <= 17; ++n) {
      for (int rep = 0; rep < 4; ++rep) {
        std::string s;
        s += static_cast<char>('1' + rng() % 9);
        if (n > 1) s += '.';
        for (int j = 1; j < n; ++j) s += static_cast<char>('0' + rng() % 10);
        s += 'e' + std::to_string(k);
        d.check_neighbours(parse(s), 1);
      }
    }
  }
  // Integers: powers of two and their neighbours up to 2^80, random integers below
  // 2^53 of every length, and integral doubles beyond 2^53 (exact "%.0f" digits).
  for (int k = 0; k <= 80; ++k) {
    const double p = std::ldexp(1.0, k);
    d.check_neighbours(p);
    d.check_both_signs(p - 1.0);
    d.check_both_signs(p + 1.0);
  }
  for (int bitsize = 1; bitsize <= 53; ++bitsize) {
    for (int rep = 0; rep < 2000; ++rep) {
      const std::uint64_t m = rng() >> (64 - bitsize);
      d.check_both_signs(static_cast<double>(m));
      d.check_both_signs(static_cast<double>(m) * 1000.0);
    }
  }
  for (int k = 0; k <= 30; ++k) {
    for (int rep = 0; rep < 5000; ++rep) d.check_both_signs(std::ldexp(static_cast<double>(rng() >> 11), k));
  }
  for (int k = 0; k <= 22; ++k) {
    // Integers with few significant digits around 10^k (trailing zeros, both forms).
    for (int rep = 0; rep < 2000; ++rep) {
      const auto digits = static_cast<double>(rng() % 100000);
      d.check_neighbours(digits * parse("1e" + std::to_string(k)), 1);
    }
  }
  EXPECT_EQ(d.mismatches(), 0u);
  std::printf("[ compared ] %llu doubles\n", static_cast<unsigned long long>(d.count()));
}

}  // namespace

// number_text (gltf/json_access.hpp: the rules' numbers in messages) writes what
// it wrote when it called std::to_chars itself, now through the one number
// writer (text::shortest_double): the shortest text that reads back, and
// std::to_chars' spelling of the values that are not finite, a NaN's sign included.
#include <gltf_anim/gltf/json_access.hpp>
#include <gltf_anim/text/shortest_double.hpp>
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>

namespace {

std::string to_chars_text(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

TEST(NumberText, WritesWhatToCharsWrites) {
  using L = std::numeric_limits<double>;
  for (const double v : {0.0, -0.0, 0.5, 1e-7, 1.0 / 3, 100.0, 1e21, 1e22, 123456789012345680.0,
                         L::min(), L::denorm_min(), L::max(), L::lowest(), L::epsilon(),
                         L::infinity(), -L::infinity(), L::quiet_NaN(), -L::quiet_NaN()}) {
    EXPECT_EQ(gltf_anim::gltf::json_access::number_text(v), to_chars_text(v)) << to_chars_text(v);
  }
  // Every bit pattern is some double: random ones cover exponents and digit counts alike.
  std::mt19937_64 bits(20261128);
  for (int i = 0; i < 200000; ++i) {
    const std::uint64_t b = bits();
    double v;
    std::memcpy(&v, &b, sizeof v);
    ASSERT_EQ(gltf_anim::gltf::json_access::number_text(v), to_chars_text(v)) << b;
  }
}

TEST(NumberText, IsTheOneNumberWriterForFiniteValues) {
  for (const double v : {0.25, -3.0, 1e-300, 6.02214076e23}) {
    EXPECT_EQ(gltf_anim::gltf::json_access::number_text(v), gltf_anim::text::shortest_double(v));
  }
}

}  // namespace

// Base64: RFC 4648's test vectors (section 10) both ways, and the strict decoder's refusals.
#include <gltf_anim/text/base64.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gltf_anim::text {
namespace {

std::vector<std::uint8_t> bytes(std::string_view s) { return {s.begin(), s.end()}; }

TEST(Base64, Rfc4648Vectors) {
  const std::pair<std::string_view, std::string_view> vectors[] = {
      {"", ""},         {"f", "Zg=="},     {"fo", "Zm8="},        {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, encoded] : vectors) {
    EXPECT_EQ(base64_encode(bytes(plain)), encoded) << plain;
    std::size_t error_at = 99;
    const auto decoded = base64_decode(encoded, error_at);
    ASSERT_TRUE(decoded.has_value()) << encoded;
    EXPECT_EQ(*decoded, bytes(plain)) << encoded;
  }
  // The alphabet's last two: 0xFB 0xEF 0xBE is 62 four times, 0xFF 0xFF 0xFF 63 four times.
  EXPECT_EQ(base64_encode(std::vector<std::uint8_t>{0xFB, 0xEF, 0xBE}), "++++");
  EXPECT_EQ(base64_encode(std::vector<std::uint8_t>{0xFF, 0xFF, 0xFF}), "////");
}

TEST(Base64, StrictDecoderSaysWhere) {
  std::size_t error_at = 0;
  EXPECT_FALSE(base64_decode("Zm9", error_at).has_value());  // not a multiple of 4
  EXPECT_EQ(error_at, 3u);
  EXPECT_FALSE(base64_decode("Zm 9", error_at).has_value());  // whitespace
  EXPECT_EQ(error_at, 2u);
  EXPECT_FALSE(base64_decode("Zg==Zm9v", error_at).has_value());  // padding inside
  EXPECT_EQ(error_at, 2u);
  EXPECT_FALSE(base64_decode("Zm=v", error_at).has_value());  // '=' before a character
  EXPECT_EQ(error_at, 2u);
  EXPECT_FALSE(base64_decode("Z===", error_at).has_value());  // '=' in the second place
  EXPECT_EQ(error_at, 1u);
  // Bits dropped by padding are accepted: "Zh==" decodes as "Zg==" does.
  const auto loose = base64_decode("Zh==", error_at);
  ASSERT_TRUE(loose.has_value());
  EXPECT_EQ(*loose, bytes("f"));
}

}  // namespace
}  // namespace gltf_anim::text

// Accessor decoding and layout: expected values come from the spec's formulas
// worked by hand (normalized: max(c/127, -1), c/255, max(c/32767, -1),
// c/65535), byte layouts are written out explicitly.
#include <gltf_anim/validator/validate.hpp>
#include <gtest/gtest.h>

#include <cmath>

#include "validator/load_test_util.hpp"

namespace {

using namespace gltf_anim::gltf;
using gltf_anim::validator::validate_asset;
using gltf_anim::validator::ValidationReport;
using namespace load_test;

// One buffer (data URI of `bin`), the given bufferViews and accessors.
std::string asset_json(const Bytes& bin, const std::string& views, const std::string& accessors) {
  return R"({"asset":{"version":"2.0"},"buffers":[{"uri":")" + data_uri(bin) +
         R"(","byteLength":)" + std::to_string(bin.size()) + R"(}],"bufferViews":[)" + views +
         R"(],"accessors":[)" + accessors + "]}";
}

std::string accessor(int component_type, std::string_view type, std::uint64_t count,
                     std::string_view extra = {}) {
  // Appends, not `"," + std::string(...)`: GCC 12 -O3 raises a false -Wrestrict on that.
  std::string out = R"({"bufferView":0,"componentType":)";
  out += std::to_string(component_type);
  out += R"(,"count":)";
  out += std::to_string(count);
  out += R"(,"type":")";
  out += type;
  out += '"';
  if (!extra.empty()) {
    out += ',';
    out += extra;
  }
  out += '}';
  return out;
}

std::string whole_view(const Bytes& bin) {
  return R"({"buffer":0,"byteLength":)" + std::to_string(bin.size()) + "}";
}

struct Loaded {
  IssueCollector issues;
  LoadedAsset asset;
};

Loaded load(const std::string& json) {
  Loaded l;
  l.asset = load_text(json, l.issues);
  return l;
}

std::vector<double> decode(const Loaded& l, std::size_t index = 0) {
  std::vector<double> out;
  EXPECT_TRUE(read_accessor(l.asset, index, out)) << "accessor " << index << " not readable";
  return out;
}

// Decodes a single accessor over `bin` (one bufferView covering it all).
std::vector<double> decode_one(const Bytes& bin, int component_type, std::string_view type,
                               std::uint64_t count, std::string_view extra = {}) {
  Loaded l = load(asset_json(bin, whole_view(bin), accessor(component_type, type, count, extra)));
  EXPECT_TRUE(l.issues.issues().empty()) << l.issues.issues()[0].code;
  check_buffers_and_accessors(l.asset, l.issues);
  EXPECT_TRUE(l.issues.issues().empty()) << l.issues.issues()[0].code;
  return decode(l);
}

TEST(LoadAccessors, EveryComponentTypeExact) {
  EXPECT_EQ(decode_one(le<std::int8_t>({-128, -1, 0, 127}), 5120, "VEC4", 1),
            (std::vector<double>{-128, -1, 0, 127}));
  EXPECT_EQ(decode_one(le<std::uint8_t>({0, 1, 128, 255}), 5121, "VEC4", 1),
            (std::vector<double>{0, 1, 128, 255}));
  EXPECT_EQ(decode_one(le<std::int16_t>({-32768, -2, 5, 32767}), 5122, "VEC2", 2),
            (std::vector<double>{-32768, -2, 5, 32767}));
  EXPECT_EQ(decode_one(le<std::uint16_t>({0, 1, 1000, 65535}), 5123, "SCALAR", 4),
            (std::vector<double>{0, 1, 1000, 65535}));
  // 16777217 = 2^24 + 1 has no float32 form: it proves the decode goes to double.
  EXPECT_EQ(decode_one(le<std::uint32_t>({0, 7, 16777217u, 4294967295u}), 5125, "SCALAR", 4),
            (std::vector<double>{0, 7, 16777217.0, 4294967295.0}));
  EXPECT_EQ(decode_one(le<float>({0.5f, -2.25f, 1e-30f, 3.4028235e38f}), 5126, "VEC2", 2),
            (std::vector<double>{0.5, -2.25, static_cast<double>(1e-30f), static_cast<double>(3.4028235e38f)}));
}

TEST(LoadAccessors, FloatNanAndInfinityArePassedThrough) {
  const std::vector<double> v =
      decode_one(le<float>({std::nanf(""), INFINITY, -INFINITY, -0.0f}), 5126, "VEC4", 1);
  ASSERT_EQ(v.size(), 4u);
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_EQ(v[1], INFINITY);
  EXPECT_EQ(v[2], -INFINITY);
  EXPECT_TRUE(std::signbit(v[3]));
}

// KHR_accessor_float16 (draft, componentType 5131, IEEE-754 binary16):
// sign, 5 exponent bits (bias 15), 10 fraction bits, worked by hand:
// 0x3C00 = 1; 0xC000 = -2; 0x3555 = (1 + 341/1024) x 2^-2 = 1365/4096;
// 0x7BFF = (1 + 1023/1024) x 2^15 = 65504, the largest finite half;
// 0x0400 = 2^-14, the smallest normal; 0x0001 = 2^-24, the smallest subnormal;
// 0x03FF = 1023 x 2^-24; 0x8000 = -0; 0x7C00 / 0xFC00 = +-infinity; 0x7E00 NaN.
TEST(LoadAccessors, HalfFloatBitPatterns) {
  EXPECT_EQ(half_to_double(0x3C00), 1.0);
  EXPECT_EQ(half_to_double(0xC000), -2.0);
  EXPECT_EQ(half_to_double(0x3555), 1365.0 / 4096.0);
  EXPECT_EQ(half_to_double(0x7BFF), 65504.0);
  EXPECT_EQ(half_to_double(0x0400), 1.0 / 16384.0);
  EXPECT_EQ(half_to_double(0x0001), 1.0 / 16777216.0);
  EXPECT_EQ(half_to_double(0x03FF), 1023.0 / 16777216.0);
  EXPECT_EQ(half_to_double(0x8000), 0.0);
  EXPECT_TRUE(std::signbit(half_to_double(0x8000)));
  EXPECT_EQ(half_to_double(0x7C00), INFINITY);
  EXPECT_EQ(half_to_double(0xFC00), -INFINITY);
  EXPECT_TRUE(std::isnan(half_to_double(0x7E00)));
}

// Rounding a declared bound to binary16: 0.1 lies between 0x2E66 = 1638/16384
// (0.0999755859375) and 0x2E67 = 1639/16384 (0.10003662109375), nearer the
// first; 1 + 2^-11 is halfway between 1 and 1 + 2^-10 and goes to the even 1;
// 65519 rounds down to 65504 and 65520 (halfway to 2^16) to infinity;
// 2^-25 is halfway between 0 and 2^-24 and goes to the even 0, 3 x 2^-25 to 2^-23.
TEST(LoadAccessors, RoundToHalfIsNearestEven) {
  EXPECT_EQ(round_to_half(0.1), 1638.0 / 16384.0);
  EXPECT_EQ(round_to_half(-0.1), -1638.0 / 16384.0);
  EXPECT_EQ(round_to_half(1.0 + 1.0 / 2048.0), 1.0);
  EXPECT_EQ(round_to_half(1.0 + 3.0 / 2048.0), 1.0 + 2.0 / 1024.0);
  EXPECT_EQ(round_to_half(65519.0), 65504.0);
  EXPECT_EQ(round_to_half(65520.0), INFINITY);
  EXPECT_EQ(round_to_half(std::ldexp(1.0, -25)), 0.0);
  EXPECT_EQ(round_to_half(3 * std::ldexp(1.0, -25)), std::ldexp(1.0, -23));
}

// KHR_accessor_float64 (5130) and float16 (5131) accessors decode like FLOAT:
// the stored values, never normalized. 1/3 has no float32 form: the double
// comes back bit for bit. Half data from the bit patterns above.
TEST(LoadAccessors, DoubleAndHalfFloatComponentTypes) {
  EXPECT_EQ(decode_one(le<double>({1.0 / 3.0, -0.1}), 5130, "VEC2", 1),
            (std::vector<double>{1.0 / 3.0, -0.1}));
  EXPECT_EQ(decode_one(le<std::uint16_t>({0x3C00, 0xC000, 0x3555, 0x7BFF}), 5131, "VEC2", 2),
            (std::vector<double>{1.0, -2.0, 1365.0 / 4096.0, 65504.0}));
  // With a byteStride of 8, the second and third half of each element are skipped.
  const Bytes bin =
      le<std::uint16_t>({0x3C00, 0x1111, 0x2222, 0x3333, 0xC000, 0x1111, 0x2222, 0x3333});
  Loaded l = load(asset_json(bin, R"({"buffer":0,"byteLength":16,"byteStride":8})",
                             accessor(5131, "SCALAR", 2)));
  check_buffers_and_accessors(l.asset, l.issues);
  EXPECT_TRUE(l.issues.issues().empty());
  EXPECT_EQ(decode(l), (std::vector<double>{1.0, -2.0}));
}

// The drafts: "The normalized property of such accessors MUST NOT be set to true".
TEST(LoadAccessors, NormalizedDoubleOrHalfFloatIsInvalid) {
  for (const int component_type : {5130, 5131}) {
    const Bytes bin(8, 0);
    Loaded l =
        load(asset_json(bin, R"({"buffer":0,"byteLength":8})",
                        R"({"bufferView":0,"componentType":)" + std::to_string(component_type) +
                            R"(,"normalized":true,"count":1,"type":"SCALAR"})"));
    check_buffers_and_accessors(l.asset, l.issues);
    SCOPED_TRACE(component_type);
    ASSERT_EQ(l.issues.issues().size(), 1u);
    EXPECT_EQ(l.issues.issues()[0].code, "ACCESSOR_NORMALIZED_INVALID");
  }
}

TEST(LoadAccessors, NormalizedBySpecFormula) {
  const std::string n = R"("normalized":true)";
  // BYTE: max(c / 127, -1); -128 clamps to -1 exactly.
  std::vector<double> b = decode_one(le<std::int8_t>({-128, -127, -1, 0, 64, 127}), 5120, "SCALAR", 6, n);
  ASSERT_EQ(b.size(), 6u);
  EXPECT_EQ(b[0], -1.0);
  EXPECT_EQ(b[1], -1.0);
  EXPECT_DOUBLE_EQ(b[2], -0.007874015748031496);  // 1/127
  EXPECT_EQ(b[3], 0.0);
  EXPECT_DOUBLE_EQ(b[4], 0.5039370078740157);  // 64/127
  EXPECT_EQ(b[5], 1.0);
  // UNSIGNED_BYTE: c / 255.
  std::vector<double> ub = decode_one(le<std::uint8_t>({0, 51, 255, 1}), 5121, "VEC4", 1, n);
  EXPECT_EQ(ub[0], 0.0);
  EXPECT_DOUBLE_EQ(ub[1], 0.2);  // 51 = 255 / 5
  EXPECT_EQ(ub[2], 1.0);
  EXPECT_DOUBLE_EQ(ub[3], 0.00392156862745098);  // 1/255
  // SHORT: max(c / 32767, -1).
  std::vector<double> s = decode_one(le<std::int16_t>({-32768, -32767, 16384, 32767}), 5122, "VEC4", 1, n);
  EXPECT_EQ(s[0], -1.0);
  EXPECT_EQ(s[1], -1.0);
  EXPECT_DOUBLE_EQ(s[2], 0.500015259254738);  // 16384/32767
  EXPECT_EQ(s[3], 1.0);
  // UNSIGNED_SHORT: c / 65535.
  std::vector<double> us = decode_one(le<std::uint16_t>({0, 13107, 65535, 32768}), 5123, "VEC4", 1, n);
  EXPECT_EQ(us[0], 0.0);
  EXPECT_DOUBLE_EQ(us[1], 0.2);  // 13107 = 65535 / 5
  EXPECT_EQ(us[2], 1.0);
  EXPECT_DOUBLE_EQ(us[3], 0.5000076295109483);  // 32768/65535
}

TEST(LoadAccessors, NormalizedFloatIsIgnored) {
  // ACCESSOR_NORMALIZED_INVALID is raised by the layout check (next test); the
  // value is still read as the stored float.
  const Bytes bin = le<float>({2.5f});
  Loaded l = load(asset_json(bin, whole_view(bin), accessor(5126, "SCALAR", 1, R"("normalized":true)")));
  EXPECT_EQ(decode(l), (std::vector<double>{2.5}));
}

TEST(LoadAccessors, NormalizedFloatOrUnsignedIntIsInvalid) {
  // Spec 3.6.2.1: only (UNSIGNED_)BYTE and (UNSIGNED_)SHORT may be normalized.
  struct Case {
    int component_type;
    bool invalid;
  };
  for (const Case c : {Case{5126, true}, Case{5125, true}, Case{5121, false}, Case{5122, false}}) {
    const Bytes bin(4, 0);
    Loaded l = load(asset_json(bin, R"({"buffer":0,"byteLength":4})",
                               R"({"bufferView":0,"componentType":)" +
                                   std::to_string(c.component_type) +
                                   R"(,"normalized":true,"count":1,"type":"SCALAR"})"));
    check_buffers_and_accessors(l.asset, l.issues);
    SCOPED_TRACE(c.component_type);
    if (c.invalid) {
      ASSERT_EQ(l.issues.issues().size(), 1u);
      EXPECT_EQ(l.issues.issues()[0].code, "ACCESSOR_NORMALIZED_INVALID");
      EXPECT_EQ(l.issues.issues()[0].pointer, "/accessors/0/normalized");
    } else {
      EXPECT_TRUE(l.issues.issues().empty());
    }
  }
}

TEST(LoadAccessors, OffsetsAndStride) {
  // bufferView at byte 4, 24 bytes, stride 12; accessor at byte 4 of the view.
  // Element k (VEC2 float) sits at 4 + 4 + 12k within the buffer; 99s are filler.
  const Bytes bin = le<float>({99, 99, 1, 2, 99, 3, 4, 99, 5, 6, 99});
  Loaded l = load(asset_json(bin, R"({"buffer":0,"byteOffset":4,"byteLength":36,"byteStride":12})",
                             R"({"bufferView":0,"byteOffset":4,"componentType":5126,"count":3,"type":"VEC2"})"));
  check_buffers_and_accessors(l.asset, l.issues);
  EXPECT_TRUE(l.issues.issues().empty());
  EXPECT_EQ(decode(l), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  // Strided data has no zero-copy view.
  EXPECT_FALSE(float_view(l.asset, 0).has_value());
}

TEST(LoadAccessors, MatrixColumnPadding) {
  // MAT2 of BYTE: each 2-byte column is padded to 4 (spec, Data Alignment).
  const Bytes mat2 = le<std::int8_t>({1, 2, 0, 0, 3, 4, 0, 0, 5, 6, 0, 0, 7, 8, 0, 0});
  EXPECT_EQ(element_size(ComponentType::kByte, ElementType::kMat2), 8u);
  EXPECT_EQ(decode_one(mat2, 5120, "MAT2", 2), (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8}));
  // MAT3 of SHORT: 6-byte columns padded to 8, 24 bytes per element.
  const Bytes mat3 = le<std::int16_t>({1, 2, 3, -1, 4, 5, 6, -1, 7, 8, 9, -1});
  EXPECT_EQ(element_size(ComponentType::kShort, ElementType::kMat3), 24u);
  EXPECT_EQ(decode_one(mat3, 5122, "MAT3", 1), (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9}));
  // MAT3 of BYTE: 3-byte columns padded to 4.
  EXPECT_EQ(element_size(ComponentType::kByte, ElementType::kMat3), 12u);
  // No padding for MAT4 or for 4-byte components.
  EXPECT_EQ(element_size(ComponentType::kByte, ElementType::kMat4), 16u);
  EXPECT_EQ(element_size(ComponentType::kFloat, ElementType::kMat3), 36u);
}

// "Alignment requirements apply only to the start of each column, so trailing
// bytes MAY be omitted if there's no further data" (3.6.2.4): the last
// element's last column needs no padding. By hand: MAT2 of BYTE, columns of 2
// bytes padded to 4: 2 elements take 8 + (4 + 2) = 14 bytes; MAT3 of UBYTE
// 12 + (4 + 4 + 3) = 23; MAT3 of USHORT, 6-byte columns padded to 8: 24 + (8
// + 8 + 6) = 46 (glTF-Validator's test/base/data/accessor_data/
// get_elements_matrix.gltf, which it finds error-free).
TEST(LoadAccessors, MatrixLastColumnPaddingMayBeOmitted) {
  EXPECT_EQ(element_extent(ComponentType::kByte, ElementType::kMat2), 6u);
  EXPECT_EQ(element_extent(ComponentType::kUnsignedByte, ElementType::kMat3), 11u);
  EXPECT_EQ(element_extent(ComponentType::kUnsignedShort, ElementType::kMat3), 22u);
  EXPECT_EQ(element_extent(ComponentType::kShort, ElementType::kMat2), 8u);  // no padding at all
  EXPECT_EQ(element_extent(ComponentType::kByte, ElementType::kMat4), 16u);
  EXPECT_EQ(element_extent(ComponentType::kFloat, ElementType::kVec3), 12u);

  const Bytes mat2 = le<std::int8_t>({1, 2, 0, 0, 3, 4, 0, 0, 5, 6, 0, 0, 7, 8});
  ASSERT_EQ(mat2.size(), 14u);
  EXPECT_EQ(decode_one(mat2, 5120, "MAT2", 2), (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8}));
  const Bytes mat3 = le<std::uint16_t>({1,  2,  3,  0, 4,  5,  6,  0, 7,  8,  9, 0,  //
                                        10, 11, 12, 0, 13, 14, 15, 0, 16, 17, 18});
  ASSERT_EQ(mat3.size(), 46u);
  EXPECT_EQ(decode_one(mat3, 5123, "MAT3", 2),
            (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}));

  // One byte less cuts into the last column's values: too long.
  const Bytes short_mat2(mat2.begin(), mat2.end() - 1);
  Loaded l = load(asset_json(short_mat2, whole_view(short_mat2), accessor(5120, "MAT2", 2)));
  check_buffers_and_accessors(l.asset, l.issues);
  EXPECT_EQ(codes(l.issues), std::vector<std::string>{"ACCESSOR_TOO_LONG"});
  EXPECT_NE(l.issues.issues().at(0).message.find("length: 14"), std::string::npos)
      << l.issues.issues()[0].message;
}

TEST(LoadAccessors, SparseSubstitution) {
  // Base SCALAR float [0..5]; indices (UNSIGNED_BYTE) [1, 4]; values [10, 40].
  Bytes bin = le<float>({0, 1, 2, 3, 4, 5});  // bytes 0..23
  const Bytes indices = le<std::uint8_t>({1, 4, 0, 0});  // 24..27 (2 used + padding)
  const Bytes values = le<float>({10, 40});              // 28..35
  bin.insert(bin.end(), indices.begin(), indices.end());
  bin.insert(bin.end(), values.begin(), values.end());
  const std::string views =
      R"({"buffer":0,"byteLength":24},{"buffer":0,"byteOffset":24,"byteLength":2},{"buffer":0,"byteOffset":28,"byteLength":8})";
  const std::string sparse =
      R"("sparse":{"count":2,"indices":{"bufferView":1,"componentType":5121},"values":{"bufferView":2}})";
  Loaded l = load(asset_json(bin, views, accessor(5126, "SCALAR", 6, sparse)));
  check_buffers_and_accessors(l.asset, l.issues);
  EXPECT_TRUE(l.issues.issues().empty());
  EXPECT_EQ(decode(l), (std::vector<double>{0, 10, 2, 3, 40, 5}));
  EXPECT_FALSE(float_view(l.asset, 0).has_value());  // sparse: no zero-copy view

  // Chunked reads agree with the whole read at every split.
  const auto reader = AccessorReader::open(l.asset, 0);
  ASSERT_TRUE(reader.has_value());
  for (std::size_t first = 0; first <= 6; ++first) {
    for (std::size_t n = 0; first + n <= 6; ++n) {
      std::vector<double> part(n, -1);
      ASSERT_TRUE(reader->read(first, n, part.data()));
      for (std::size_t k = 0; k < n; ++k) EXPECT_EQ(part[k], (std::vector<double>{0, 10, 2, 3, 40, 5})[first + k]);
    }
  }
  double sink[2];
  EXPECT_FALSE(reader->read(5, 2, sink));  // past the end
  EXPECT_FALSE(reader->read(7, 0, sink));
}

TEST(LoadAccessors, SparseWithoutBufferViewOnZeros) {
  // VEC2 SHORT normalized, count 4, sparse indices UNSIGNED_SHORT [0, 3].
  Bytes bin = le<std::uint16_t>({0, 3});                    // 0..3
  const Bytes values = le<std::int16_t>({32767, -32768, 0, 16384});  // 4..11
  bin.insert(bin.end(), values.begin(), values.end());
  const std::string views = R"({"buffer":0,"byteLength":4},{"buffer":0,"byteOffset":4,"byteLength":8})";
  Loaded l = load(asset_json(
      bin, views,
      R"({"componentType":5122,"normalized":true,"count":4,"type":"VEC2","sparse":{"count":2,"indices":{"bufferView":0,"componentType":5123},"values":{"bufferView":1}}})"));
  check_buffers_and_accessors(l.asset, l.issues);
  EXPECT_TRUE(l.issues.issues().empty());
  const std::vector<double> v = decode(l);
  ASSERT_EQ(v.size(), 8u);
  EXPECT_EQ(v[0], 1.0);
  EXPECT_EQ(v[1], -1.0);
  for (std::size_t k = 2; k < 6; ++k) EXPECT_EQ(v[k], 0.0);
  EXPECT_EQ(v[6], 0.0);
  EXPECT_DOUBLE_EQ(v[7], 16384.0 / 32767.0);
}

TEST(LoadAccessors, NoBufferViewIsZerosWithoutAllocatingCount) {
  IssueCollector issues;
  LoadedAsset a = load_text(R"({"accessors":[{"componentType":5126,"count":2147483647,"type":"VEC4"},
                                             {"componentType":5121,"count":3,"type":"VEC3"}]})",
                            issues);
  check_buffers_and_accessors(a, issues);
  EXPECT_TRUE(issues.issues().empty());
  EXPECT_EQ(a.accessor_status[0], DataStatus::kReadable);
  const auto reader = AccessorReader::open(a, 0);
  ASSERT_TRUE(reader.has_value());
  EXPECT_EQ(reader->count(), 2147483647u);
  std::vector<double> chunk(8, -1);
  ASSERT_TRUE(reader->read(2147483645u, 2, chunk.data()));
  EXPECT_EQ(chunk, std::vector<double>(8, 0.0));
  // The whole accessor would be 8 Gi doubles: refused, nothing allocated.
  std::vector<double> all;
  EXPECT_FALSE(read_accessor(a, 0, all));
  EXPECT_EQ(all.capacity(), 0u);
  std::vector<double> small;
  EXPECT_TRUE(read_accessor(a, 1, small));
  EXPECT_EQ(small, std::vector<double>(9, 0.0));
}

TEST(LoadAccessors, SameValuesFromDataUriExternalFileAndGlb) {
  const Bytes bin = le<float>({0.0f, 0.25f, 0.5f, 1.0f, -3.5f, 7.0f});
  const std::string tail = R"(,"bufferViews":[{"buffer":0,"byteLength":24}],)"
                           R"("accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC2"}]})";
  const std::vector<double> expected{0.0, 0.25, 0.5, 1.0, -3.5, 7.0};

  IssueCollector i1;
  LoadedAsset embedded = load_text(R"({"buffers":[{"uri":")" + data_uri(bin) + R"(","byteLength":24}])" + tail, i1);
  const fs::path dir = scratch("same_values");
  write_file(dir / "b.bin", bin);
  write_file(dir / "a.gltf", R"({"buffers":[{"uri":"b.bin","byteLength":24}])" + tail);
  IssueCollector i2;
  LoadedAsset external = load_file(dir / "a.gltf", {}, i2);
  IssueCollector i3;
  LoadedAsset binary = load_bytes(valid_glb(R"({"buffers":[{"byteLength":24}])" + tail, bin), "a.glb", {}, {}, i3);
  for (const LoadedAsset* a : {&embedded, &external, &binary}) {
    std::vector<double> out;
    ASSERT_TRUE(read_accessor(*a, 0, out));
    EXPECT_EQ(out, expected);
    const auto view = float_view(*a, 0);
    ASSERT_TRUE(view.has_value());
    ASSERT_EQ(view->size(), 6u);
    for (std::size_t k = 0; k < 6; ++k) EXPECT_EQ(static_cast<double>((*view)[k]), expected[k]);
  }
  EXPECT_TRUE(i1.issues().empty());
  EXPECT_TRUE(i2.issues().empty());
  EXPECT_TRUE(i3.issues().empty());
}

TEST(LoadAccessors, FloatViewOnlyForPlainFloat) {
  const Bytes bin(16, 0);
  Loaded l = load(asset_json(bin, whole_view(bin) + R"(,{"buffer":0,"byteLength":16,"byteStride":8})",
                             accessor(5126, "SCALAR", 4) + "," + accessor(5121, "SCALAR", 4) + "," +
                                 R"({"bufferView":1,"componentType":5126,"count":2,"type":"VEC2"})" + "," +
                                 R"({"componentType":5126,"count":2,"type":"VEC2"})"));
  EXPECT_TRUE(float_view(l.asset, 0).has_value());
  EXPECT_FALSE(float_view(l.asset, 1).has_value());   // UNSIGNED_BYTE
  EXPECT_TRUE(float_view(l.asset, 2).has_value());    // stride 8 == VEC2 float: still packed
  EXPECT_FALSE(float_view(l.asset, 3).has_value());   // no bufferView
  EXPECT_FALSE(float_view(l.asset, 9).has_value());   // no such accessor
}

TEST(LoadAccessors, SparseIndexDataErrors) {
  // Indices UNSIGNED_BYTE [2, 2] (non-increasing) and [1, 9] with count 6 (out of range).
  auto with_indices = [](std::uint8_t a, std::uint8_t b) {
    Bytes bin = le<float>({0, 1, 2, 3, 4, 5});
    bin.push_back(a);
    bin.push_back(b);
    bin.push_back(0);
    bin.push_back(0);
    const Bytes values = le<float>({10, 40});
    bin.insert(bin.end(), values.begin(), values.end());
    return asset_json(
        bin,
        R"({"buffer":0,"byteLength":24},{"buffer":0,"byteOffset":24,"byteLength":2},{"buffer":0,"byteOffset":28,"byteLength":8})",
        accessor(5126, "SCALAR", 6,
                 R"("sparse":{"count":2,"indices":{"bufferView":1,"componentType":5121},"values":{"bufferView":2}})"));
  };
  Loaded dup = load(with_indices(2, 2));
  EXPECT_FALSE(AccessorReader::open(dup.asset, 0, &dup.issues).has_value());
  ASSERT_EQ(codes(dup.issues), std::vector<std::string>{"ACCESSOR_SPARSE_INDICES_NON_INCREASING"});
  EXPECT_EQ(dup.issues.issues()[0].pointer, "/accessors/0/sparse");
  EXPECT_EQ(dup.issues.issues()[0].message,
            "Accessor sparse indices element at index 1 is less than or equal to previous: 2 <= 2.");

  Loaded oob = load(with_indices(1, 9));
  std::vector<double> out;
  EXPECT_FALSE(read_accessor(oob.asset, 0, out, &oob.issues));
  ASSERT_EQ(codes(oob.issues), std::vector<std::string>{"ACCESSOR_SPARSE_INDEX_OOB"});
  EXPECT_EQ(oob.issues.issues()[0].message,
            "Accessor sparse indices element at index 1 is greater than or equal to the number of "
            "accessor elements: 9 >= 6.");
  // Without a collector the reader just refuses.
  EXPECT_FALSE(AccessorReader::open(oob.asset, 0).has_value());
}

// ---- layout (link phase) ----------------------------------------------------

struct Layout {
  IssueCollector issues;
  LoadedAsset asset;
};

Layout link(const std::string& json) {
  Layout l;
  l.asset = load_text(json, l.issues);
  EXPECT_TRUE(l.issues.issues().empty()) << "load itself raised " << l.issues.issues()[0].code;
  check_buffers_and_accessors(l.asset, l.issues);
  return l;
}

void expect_one(const Layout& l, std::string_view code, std::string_view pointer, std::string_view message = {}) {
  ASSERT_EQ(codes(l.issues), std::vector<std::string>{std::string(code)});
  EXPECT_EQ(l.issues.issues()[0].pointer, pointer);
  if (!message.empty()) {
    EXPECT_EQ(l.issues.issues()[0].message, message);
  }
}

const Bytes kBin8 = le<float>({1.0f, 2.0f});

TEST(LoadAccessorLayout, CountTwoTo31Minus1DoesNotFit) {
  Layout l = link(asset_json(kBin8, whole_view(kBin8), accessor(5126, "SCALAR", 2147483647u)));
  // 4 * (2^31 - 1) = 8589934588 bytes needed, 8 available.
  expect_one(l, "ACCESSOR_TOO_LONG", "/accessors/0/byteOffset",
             "Accessor (offset: 0, length: 8589934588) does not fit referenced bufferView [0] length 8.");
  EXPECT_EQ(l.asset.accessor_status[0], DataStatus::kBadLayout);
  EXPECT_FALSE(AccessorReader::open(l.asset, 0).has_value());
}

TEST(LoadAccessorLayout, ByteOffsetNear2To64) {
  // 2^64 - 4: adding the 4-byte element would wrap to 0 in unchecked maths.
  Layout l = link(asset_json(kBin8, whole_view(kBin8),
                             accessor(5126, "SCALAR", 1, R"("byteOffset":18446744073709551612)")));
  expect_one(l, "ACCESSOR_TOO_LONG", "/accessors/0/byteOffset");
  EXPECT_FALSE(AccessorReader::open(l.asset, 0).has_value());
}

TEST(LoadAccessorLayout, StrideTimesCountOverflowing64Bits) {
  // 2^62 elements of VEC4 float (16 bytes): 2^66 bytes, the product wraps.
  Layout l = link(asset_json(kBin8, whole_view(kBin8), accessor(5126, "VEC4", 4611686018427387904u)));
  expect_one(l, "ACCESSOR_TOO_LONG", "/accessors/0/byteOffset",
             "Accessor (offset: 0, length: more than 2^64-1) does not fit referenced bufferView [0] length 8.");
}

TEST(LoadAccessorLayout, BufferViewPastItsBuffer) {
  Layout l = link(asset_json(kBin8, R"({"buffer":0,"byteOffset":4,"byteLength":8})", accessor(5126, "SCALAR", 1)));
  expect_one(l, "BUFFER_VIEW_TOO_LONG", "/bufferViews/0/byteLength",
             "BufferView does not fit buffer (0) byteLength (8).");
  EXPECT_EQ(l.asset.buffer_view_status[0], DataStatus::kBadLayout);
  EXPECT_EQ(l.asset.accessor_status[0], DataStatus::kBadLayout);  // inherited, not re-reported

  Layout wrap = link(asset_json(kBin8, R"({"buffer":0,"byteOffset":18446744073709551615,"byteLength":2})",
                                accessor(5126, "SCALAR", 1)));
  ASSERT_FALSE(wrap.issues.issues().empty());
  EXPECT_EQ(wrap.issues.issues()[0].code, "BUFFER_VIEW_TOO_LONG");
}

TEST(LoadAccessorLayout, UnresolvedReferences) {
  Layout bad_view = link(asset_json(kBin8, whole_view(kBin8),
                                    R"({"bufferView":5,"componentType":5126,"count":1,"type":"SCALAR"})"));
  expect_one(bad_view, "UNRESOLVED_REFERENCE", "/accessors/0/bufferView", "Unresolved reference: 5.");
  EXPECT_EQ(bad_view.asset.accessor_status[0], DataStatus::kUnresolved);

  Layout bad_buffer = link(asset_json(kBin8, R"({"buffer":3,"byteLength":8})", accessor(5126, "SCALAR", 1)));
  expect_one(bad_buffer, "UNRESOLVED_REFERENCE", "/bufferViews/0/buffer");
  EXPECT_EQ(bad_buffer.asset.accessor_status[0], DataStatus::kUnresolved);

  Layout bad_sparse = link(asset_json(
      kBin8, whole_view(kBin8),
      accessor(5126, "SCALAR", 2,
               R"("sparse":{"count":1,"indices":{"bufferView":9,"componentType":5125},"values":{"bufferView":0}})")));
  expect_one(bad_sparse, "UNRESOLVED_REFERENCE", "/accessors/0/sparse/indices/bufferView");
}

TEST(LoadAccessorLayout, Alignment) {
  // FLOAT at accessor byteOffset 2: misaligned, but the bytes are still read exactly.
  Bytes bin = {0, 0};
  const Bytes f = le<float>({1.5f});
  bin.insert(bin.end(), f.begin(), f.end());
  bin.push_back(0);
  bin.push_back(0);
  Layout l = link(asset_json(bin, whole_view(bin), accessor(5126, "SCALAR", 1, R"("byteOffset":2)")));
  expect_one(l, "ACCESSOR_OFFSET_ALIGNMENT", "/accessors/0/byteOffset",
             "Offset 2 is not a multiple of componentType length 4.");
  std::vector<double> out;
  ASSERT_TRUE(read_accessor(l.asset, 0, out));
  EXPECT_EQ(out, std::vector<double>{1.5});

  Layout total = link(asset_json(bin, R"({"buffer":0,"byteOffset":2,"byteLength":4})", accessor(5126, "SCALAR", 1)));
  expect_one(total, "ACCESSOR_TOTAL_OFFSET_ALIGNMENT", "/accessors/0/byteOffset",
             "Accessor's total byteOffset 2 isn't a multiple of componentType length 4.");
  out.clear();
  ASSERT_TRUE(read_accessor(total.asset, 0, out));
  EXPECT_EQ(out, std::vector<double>{1.5});
}

TEST(LoadAccessorLayout, StrideProblems) {
  const Bytes bin(24, 0);
  Layout small = link(asset_json(bin, R"({"buffer":0,"byteLength":24,"byteStride":8})", accessor(5126, "VEC3", 2)));
  expect_one(small, "ACCESSOR_SMALL_BYTESTRIDE", "/accessors/0/bufferView",
             "Referenced bufferView's byteStride value 8 is less than accessor element's length 12.");
  EXPECT_EQ(small.asset.accessor_status[0], DataStatus::kBadLayout);

  Layout big = link(asset_json(bin, R"({"buffer":0,"byteLength":8,"byteStride":16})", accessor(5126, "SCALAR", 1)));
  expect_one(big, "BUFFER_VIEW_TOO_BIG_BYTE_STRIDE", "/bufferViews/0/byteStride",
             "Buffer view's byteStride (16) is greater than byteLength (8).");
}

TEST(LoadAccessorLayout, SparseLayout) {
  const Bytes bin(16, 0);
  // sparse.count 7 > count 6; the indices (7 x 4 bytes) do not fit 16 bytes either.
  Layout l = link(asset_json(
      bin, whole_view(bin),
      R"({"componentType":5126,"count":6,"type":"SCALAR","sparse":{"count":7,"indices":{"bufferView":0,"componentType":5125},"values":{"bufferView":0}}})"));
  ASSERT_EQ(codes(l.issues), (std::vector<std::string>{"ACCESSOR_SPARSE_COUNT_OUT_OF_RANGE", "ACCESSOR_TOO_LONG",
                                                       "ACCESSOR_TOO_LONG"}));
  EXPECT_EQ(l.issues.issues()[0].pointer, "/accessors/0/sparse/count");
  EXPECT_EQ(l.issues.issues()[0].message,
            "Sparse accessor overrides more elements (7) than the base accessor contains (6).");
  EXPECT_EQ(l.issues.issues()[1].pointer, "/accessors/0/sparse/indices/byteOffset");
  EXPECT_EQ(l.issues.issues()[2].pointer, "/accessors/0/sparse/values/byteOffset");
  EXPECT_FALSE(AccessorReader::open(l.asset, 0).has_value());

  // A sparse count of 2^31-1 is refused by the layout pass before any index is read.
  Layout huge = link(asset_json(
      bin, whole_view(bin),
      R"({"componentType":5126,"count":2147483647,"type":"SCALAR","sparse":{"count":2147483647,"indices":{"bufferView":0,"componentType":5125},"values":{"bufferView":0}}})"));
  EXPECT_EQ(codes(huge.issues), (std::vector<std::string>{"ACCESSOR_TOO_LONG", "ACCESSOR_TOO_LONG"}));
  EXPECT_FALSE(AccessorReader::open(huge.asset, 0).has_value());
}

TEST(LoadAccessorLayout, BufferViewsAreReportedBeforeAccessors) {
  Layout l = link(asset_json(kBin8, R"({"buffer":0,"byteLength":8},{"buffer":7,"byteLength":4})",
                             R"({"bufferView":3,"componentType":5126,"count":1,"type":"SCALAR"})"));
  ASSERT_EQ(codes(l.issues), (std::vector<std::string>{"UNRESOLVED_REFERENCE", "UNRESOLVED_REFERENCE"}));
  EXPECT_EQ(l.issues.issues()[0].pointer, "/bufferViews/1/buffer");
  EXPECT_EQ(l.issues.issues()[1].pointer, "/accessors/0/bufferView");
}

TEST(LoadAccessorLayout, TheLoaderAnalysesOnceAndValidateReportsWhatItFound) {
  // Expected by hand from glTF 2.0 3.6.2.4 ("the accessor MUST fit its bufferView",
  // offsets multiples of the component size) and 3.6.2.1 (no normalized FLOAT):
  //   bufferView 1: bytes [4, 12) of an 8-byte buffer;  bufferView 2: buffer 5 of 1;
  //   accessor 0: 3 floats = 12 bytes in 8;  accessor 1: byteOffset 2 for 4-byte floats;
  //   accessor 2: bufferView 7 of 3;  accessor 3: normalized FLOAT;
  //   accessor 4: 2^62 VEC4 floats, 16 x (2^62 - 1) + 16 bytes, more than 2^64-1.
  IssueCollector load_issues;
  const LoadedAsset a = load_text(
      asset_json(kBin8,
                 whole_view(kBin8) + R"(,{"buffer":0,"byteOffset":4,"byteLength":8},{"buffer":5,"byteLength":4})",
                 accessor(5126, "SCALAR", 3) + "," + accessor(5126, "SCALAR", 1, R"("byteOffset":2)") + "," +
                     R"({"bufferView":7,"componentType":5126,"count":1,"type":"SCALAR"})" + "," +
                     accessor(5126, "SCALAR", 1, R"("normalized":true)") + "," +
                     accessor(5126, "VEC4", 4611686018427387904u)),
      load_issues);
  EXPECT_TRUE(load_issues.issues().empty()) << "the loader itself reports no layout issue";
  struct Expected {
    std::string code;
    std::string pointer;
    std::vector<std::string> arguments;
  };
  const std::vector<Expected> expected = {
      {"BUFFER_VIEW_TOO_LONG", "/bufferViews/1/byteLength", {"0", "8"}},
      {"UNRESOLVED_REFERENCE", "/bufferViews/2/buffer", {"5"}},
      {"ACCESSOR_TOO_LONG", "/accessors/0/byteOffset", {"0", "12", "0", "8"}},
      {"ACCESSOR_OFFSET_ALIGNMENT", "/accessors/1/byteOffset", {"2", "4"}},
      {"UNRESOLVED_REFERENCE", "/accessors/2/bufferView", {"7"}},
      {"ACCESSOR_NORMALIZED_INVALID", "/accessors/3/normalized", {}},
      {"ACCESSOR_TOO_LONG", "/accessors/4/byteOffset", {"0", "more than 2^64-1", "0", "8"}},
  };
  ASSERT_EQ(a.layout_findings.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const LayoutFinding& f = a.layout_findings[i];
    EXPECT_EQ(f.code.name(), expected[i].code) << i;
    EXPECT_EQ(f.pointer().str(), expected[i].pointer) << i;
    ASSERT_EQ(f.argument_count, expected[i].arguments.size()) << i;
    for (std::size_t k = 0; k < f.argument_count; ++k) EXPECT_EQ(f.argument_text(k), expected[i].arguments[k]) << i;
  }
  // validate reports exactly those (the asset has nothing else wrong), in that order.
  IssueCollector issues;
  const ValidationReport report = validate_asset(a, issues);
  ASSERT_EQ(report.issues.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(report.issues[i].code, expected[i].code) << i;
    EXPECT_EQ(report.issues[i].pointer, expected[i].pointer) << i;
  }
  EXPECT_EQ(report.issues[6].message,
            "Accessor (offset: 0, length: more than 2^64-1) does not fit referenced bufferView [0] length 8.");
}

TEST(LoadAccessorLayout, MissingBufferDataIsNoDataWithoutLayoutIssue) {
  IssueCollector issues;
  LoadedAsset a = load_text(R"({"buffers":[{"uri":"data:application/octet-stream;base64,!!!!","byteLength":8}],
      "bufferViews":[{"buffer":0,"byteLength":8}],
      "accessors":[{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR"}]})",
                            issues);
  EXPECT_EQ(codes(issues), std::vector<std::string>{"DATA_URI_INVALID_BASE64"});
  check_buffers_and_accessors(a, issues);
  EXPECT_EQ(issues.issues().size(), 1u);
  EXPECT_EQ(a.buffer_view_status[0], DataStatus::kNoData);
  EXPECT_EQ(a.accessor_status[0], DataStatus::kNoData);
  std::vector<double> out;
  EXPECT_FALSE(read_accessor(a, 0, out));
}

TEST(LoadAccessorLayout, StatusesMatchTheReportedCheck) {
  // One valid accessor among broken ones: only it is readable.
  const Bytes bin = le<float>({1, 2, 3, 4});
  Layout l = link(asset_json(bin, whole_view(bin),
                             accessor(5126, "VEC2", 2) + "," + accessor(5126, "VEC2", 3) + "," +
                                 R"({"bufferView":0,"componentType":5124,"count":1,"type":"SCALAR"})"));
  EXPECT_EQ(codes(l.issues), std::vector<std::string>{"ACCESSOR_TOO_LONG"});
  EXPECT_EQ(l.issues.issues()[0].pointer, "/accessors/1/byteOffset");
  EXPECT_EQ(l.asset.accessor_status,
            (std::vector<DataStatus>{DataStatus::kReadable, DataStatus::kBadLayout, DataStatus::kMalformed}));
}

}  // namespace

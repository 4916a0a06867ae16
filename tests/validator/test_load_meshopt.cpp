// EXT_meshopt_compression and KHR_meshopt_compression: compressed bufferViews decoded by the
// loader, and the extension's own rules. The compressed bytes are made here with
// meshoptimizer's encoder (meshopt_encodeVertexBuffer, meshopt_encodeIndexBuffer,
// meshopt_encodeIndexSequence, the filter encoders), a second method independent of the
// decoding under test: what an accessor reads must be what was encoded. The filters' expected
// values come from the decode formulas of the extension's Appendix B, written out here.
#include <gtest/gtest.h>

#include <gltf_anim/validator/validate.hpp>

#include "validator/load_test_util.hpp"

#include <meshoptimizer.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using namespace gltf_anim::gltf;
using namespace load_test;
using gltf_anim::validator::ValidateOptions;
using gltf_anim::validator::ValidationReport;

constexpr const char* kExt = "EXT_meshopt_compression";
constexpr const char* kKhr = "KHR_meshopt_compression";

template <typename T>
Bytes raw(const std::vector<T>& v) {
  Bytes out(v.size() * sizeof(T));
  std::memcpy(out.data(), v.data(), out.size());
  return out;
}

Bytes encode_attributes(const Bytes& data, std::size_t stride) {
  const std::size_t count = data.size() / stride;
  Bytes out(meshopt_encodeVertexBufferBound(count, stride));
  out.resize(meshopt_encodeVertexBuffer(out.data(), out.size(), data.data(), count, stride));
  EXPECT_GT(out.size(), 0u);
  return out;
}

// One compressed bufferView: the stream (stored in the GLB's BIN chunk), what the extension
// declares, and anything else. byteOffset/byteLength of the stream are filled in unless the
// case overrides them.
struct View {
  Bytes stream;
  std::uint64_t byte_length = 0;  // bufferView.byteLength: the decoded size
  std::string ext_members;        // e.g. "\"byteStride\":4,\"count\":5,\"mode\":\"ATTRIBUTES\""
  std::string view_members;       // more bufferView members, each with a leading comma
  std::optional<std::string> stream_range;  // replaces "byteOffset":..,"byteLength":..
  bool compressed = true;                   // false: a plain view of the fallback buffer
  std::string ext_buffer = "0";             // the extension's buffer
  std::string more_extensions;              // more members of the bufferView's extensions
};

View view(Bytes stream, std::uint64_t byte_length, std::string ext_members) {
  View v;
  v.stream = std::move(stream);
  v.byte_length = byte_length;
  v.ext_members = std::move(ext_members);
  return v;
}

struct Asset {
  std::vector<View> views;
  std::string accessors;   // the accessors array's contents
  std::string animations;  // the animations array's contents ("" for none)
  std::string extension = kExt;
  std::optional<std::uint64_t> fallback_length;    // default: what the views need
  std::string fallback_members;                    // more members of the fallback buffer
  bool required = true;                            // the extension in extensionsRequired
  std::optional<std::string> fallback_extensions;  // replaces the fallback buffer's extensions
};

Bytes build(const Asset& a) {
  Bytes bin;
  std::string views;
  std::uint64_t fallback_offset = 0;
  for (const View& v : a.views) {
    const std::size_t at = bin.size();
    bin.insert(bin.end(), v.stream.begin(), v.stream.end());
    while (bin.size() % 4 != 0) bin.push_back(0);
    if (!views.empty()) views += ",";
    views += R"({"buffer":1,"byteOffset":)" + std::to_string(fallback_offset) +
             R"(,"byteLength":)" + std::to_string(v.byte_length) + v.view_members;
    if (v.compressed) {
      views += R"(,"extensions":{)" + v.more_extensions + "\"" + a.extension + R"(":{"buffer":)" +
               v.ext_buffer + "," +
               v.stream_range.value_or(R"("byteOffset":)" + std::to_string(at) +
                                       R"(,"byteLength":)" + std::to_string(v.stream.size())) +
               "," + v.ext_members + "}}";
    }
    views += "}";
    fallback_offset += (v.byte_length + 3) / 4 * 4;
  }
  if (bin.empty()) bin.resize(4);
  const std::string required =
      a.required ? R"(,"extensionsRequired":[")" + a.extension + "\"]" : "";
  std::string json =
      R"({"asset":{"version":"2.0"},"extensionsUsed":[")" + a.extension + "\"]" + required +
      R"(,"nodes":[{}],"buffers":[{"byteLength":)" + std::to_string(bin.size()) +
      R"(},{"byteLength":)" +
      std::to_string(a.fallback_length.value_or(std::max<std::uint64_t>(fallback_offset, 1))) +
      R"(,"extensions":)" +
      a.fallback_extensions.value_or("{\"" + a.extension + R"(":{"fallback":true}})") +
      a.fallback_members + R"(}],"bufferViews":[)" + views + R"(],"accessors":[)" + a.accessors +
      "]";
  if (!a.animations.empty()) json += R"(,"animations":[)" + a.animations + "]";
  json += "}";
  return valid_glb(json, bin);
}

ValidationReport validate(const Bytes& glb) {
  return gltf_anim::validator::validate_bytes(glb, "t.glb", {}, ValidateOptions{});
}

std::string dump(const ValidationReport& r) {
  std::string s;
  for (const auto& i : r.issues)
    s += std::string(i.code) + " " + i.pointer + ": " + i.message + "\n";
  return s;
}

bool has(const ValidationReport& r, std::string_view code, std::string_view pointer) {
  for (const auto& i : r.issues) {
    if (i.code == code && i.pointer == pointer) return true;
  }
  return false;
}

std::size_t errors(const ValidationReport& r) { return r.count(Severity::kError); }

struct Loaded {
  IssueCollector issues;
  LoadedAsset asset;
};
std::unique_ptr<Loaded> load(const Bytes& glb) {
  auto l = std::make_unique<Loaded>();
  l->asset = load_bytes(glb, "t.glb", {}, {}, l->issues);
  return l;
}

std::vector<double> read(const LoadedAsset& a, std::size_t accessor) {
  std::vector<double> out;
  EXPECT_TRUE(read_accessor(a, accessor, out)) << "accessor " << accessor;
  return out;
}

std::vector<double> as_double(const std::vector<float>& v) { return {v.begin(), v.end()}; }

const std::vector<float> kTimes = {0.0f, 0.25f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f};
const std::vector<float> kTranslations = {0, 0,  0, 1, 2, 3, 1.5f, -2,   0.125f, 4,     4,
                                          4, -1, 0, 1, 7, 8, 9,    0.5f, 0.25f,  0.125f};

std::string attributes(std::size_t stride, std::size_t count, const char* filter = nullptr) {
  std::string s = R"("byteStride":)" + std::to_string(stride) + R"(,"count":)" +
                  std::to_string(count) + R"(,"mode":"ATTRIBUTES")";
  if (filter != nullptr) s += R"(,"filter":")" + std::string(filter) + "\"";
  return s;
}

constexpr const char* kTrackAccessors =
    R"({"bufferView":0,"componentType":5126,"type":"SCALAR","count":7,"min":[0],"max":[3]},)"
    R"({"bufferView":1,"componentType":5126,"type":"VEC3","count":7})";
constexpr const char* kTranslationAnimation =
    R"({"samplers":[{"input":0,"output":1}],"channels":[{"sampler":0,"target":{"node":0,"path":"translation"}}]})";

// An animated translation whose times and values are both compressed (gltfpack's layout:
// every animation accessor in a compressed view, the fallback buffer without data).
Asset translation_track(const std::string& extension = kExt) {
  Asset a;
  a.extension = extension;
  a.views.push_back(view(encode_attributes(raw(kTimes), 4), 28, attributes(4, 7)));
  a.views.push_back(view(encode_attributes(raw(kTranslations), 12), 84, attributes(12, 7)));
  a.accessors = kTrackAccessors;
  a.animations = kTranslationAnimation;
  return a;
}

TEST(Meshopt, AttributesDecodeToTheEncodedValues) {
  for (const char* extension : {kExt, kKhr}) {
    const Bytes glb = build(translation_track(extension));
    const ValidationReport r = validate(glb);
    EXPECT_TRUE(r.issues.empty()) << extension << "\n" << dump(r);
    const auto l = load(glb);
    EXPECT_EQ(read(l->asset, 0), as_double(kTimes)) << extension;
    EXPECT_EQ(read(l->asset, 1), as_double(kTranslations)) << extension;
    EXPECT_EQ(l->asset.accessor_status.at(1), DataStatus::kReadable);
  }
}

// Accessors read the decoded bytes as a bufferView's: at a byteOffset, and as sparse indices
// and values.
TEST(Meshopt, OffsetsAndSparsePartsReadTheDecodedBytes) {
  Asset a = translation_track();
  const std::vector<std::uint32_t> indices = {1, 4};
  const std::vector<float> substitutes = {9, 9, 9, -9, -9, -9};
  a.views.push_back(view(encode_attributes(raw(indices), 4), 8, attributes(4, 2)));
  a.views.push_back(view(encode_attributes(raw(substitutes), 12), 24, attributes(12, 2)));
  a.accessors =
      R"({"bufferView":1,"byteOffset":12,"componentType":5126,"type":"VEC3","count":6},)"
      R"({"bufferView":1,"componentType":5126,"type":"VEC3","count":7,"sparse":{"count":2,)"
      R"("indices":{"bufferView":2,"componentType":5125},"values":{"bufferView":3}}})";
  a.animations.clear();
  const auto l = load(build(a));
  EXPECT_EQ(read(l->asset, 0), std::vector<double>(kTranslations.begin() + 3, kTranslations.end()));
  std::vector<double> expected = as_double(kTranslations);
  for (int c = 0; c < 3; ++c) {
    expected[3 + c] = 9;
    expected[12 + c] = -9;
  }
  EXPECT_EQ(read(l->asset, 1), expected);
}

// Data rules read the decoded values: times that do not increase are found through
// compression as they are without it.
TEST(Meshopt, DataRulesReadTheDecodedBytes) {
  Asset a = translation_track();
  const std::vector<float> times = {0.0f, 0.25f, 0.5f, 0.4f, 1.5f, 2.0f, 3.0f};
  a.views[0].stream = encode_attributes(raw(times), 4);
  const ValidationReport r = validate(build(a));
  EXPECT_TRUE(has(r, "ACCESSOR_ANIMATION_INPUT_NON_INCREASING", "/animations/0/samplers/0/input"))
      << dump(r);
}

// The extension's index streams are version 1 (headers 0xe1 and 0xd1); meshoptimizer 0.18's
// encoders write version 0 unless told.
void index_version_1() { meshopt_encodeIndexVersion(1); }

TEST(Meshopt, TrianglesAndIndicesDecodeToTheEncodedIndices) {
  index_version_1();
  const std::vector<std::uint32_t> triangles = {0, 1, 2, 2, 1, 3, 3, 1, 4, 4, 5, 3};
  Bytes tri(meshopt_encodeIndexBufferBound(triangles.size(), 6));
  tri.resize(meshopt_encodeIndexBuffer(tri.data(), tri.size(), triangles.data(), triangles.size()));
  const std::vector<std::uint32_t> strip = {7, 3, 900, 2, 65535, 0, 1};
  Bytes seq(meshopt_encodeIndexSequenceBound(strip.size(), 65536));
  seq.resize(meshopt_encodeIndexSequence(seq.data(), seq.size(), strip.data(), strip.size()));
  Asset a;
  a.views.push_back(view(tri, 24, R"("byteStride":2,"count":12,"mode":"TRIANGLES")"));
  a.views.push_back(view(seq, 28, R"("byteStride":4,"count":7,"mode":"INDICES")"));
  a.accessors = R"({"bufferView":0,"componentType":5123,"type":"SCALAR","count":12},)"
                R"({"bufferView":1,"componentType":5125,"type":"SCALAR","count":7})";
  const Bytes glb = build(a);
  EXPECT_EQ(errors(validate(glb)), 0u) << dump(validate(glb));
  const auto l = load(glb);
  // The triangle codec keeps each triangle and its winding but may rotate its corners.
  const std::vector<double> got = read(l->asset, 0);
  ASSERT_EQ(got.size(), triangles.size());
  for (std::size_t t = 0; t < got.size(); t += 3) {
    bool same = false;
    for (std::size_t r = 0; r < 3; ++r) {
      same = same || (got[t] == triangles[t + r] && got[t + 1] == triangles[t + (r + 1) % 3] &&
                      got[t + 2] == triangles[t + (r + 2) % 3]);
    }
    EXPECT_TRUE(same) << "triangle " << t / 3;
  }
  EXPECT_EQ(read(l->asset, 1), std::vector<double>(strip.begin(), strip.end()));
}

// Appendix B, filter 3: each 32-bit value is 2^e x m (e the top 8 bits, m the low 24, both
// signed), decoded exactly.
TEST(Meshopt, ExponentialFilterDecodesAsTheSpecSays) {
  const std::vector<float> values = {0.0f, 1.0f, -2.5f, 1e-3f, 12345.678f, -0.1f};
  std::vector<std::uint32_t> encoded(values.size());
  meshopt_encodeFilterExp(encoded.data(), values.size(), 4, 15, values.data());
  std::vector<float> expected;
  for (std::uint32_t v : encoded) {
    const auto s = static_cast<std::int32_t>(v);
    const std::int32_t e = s >> 24;
    const std::int32_t m = static_cast<std::int32_t>(v << 8) >> 8;
    expected.push_back(static_cast<float>(std::ldexp(static_cast<double>(m), e)));
  }
  Asset a;
  a.views.push_back(view(encode_attributes(raw(encoded), 4), 24, attributes(4, 6, "EXPONENTIAL")));
  a.accessors = R"({"bufferView":0,"componentType":5126,"type":"SCALAR","count":6})";
  const Bytes glb = build(a);
  EXPECT_EQ(errors(validate(glb)), 0u) << dump(validate(glb));
  const auto l = load(glb);
  EXPECT_EQ(read(l->asset, 0), as_double(expected));
  // And the filter kept what 15 mantissa bits keep.
  for (std::size_t k = 0; k < values.size(); ++k)
    EXPECT_NEAR(expected[k], values[k], std::fabs(values[k]) * 1e-4) << k;
}

// Appendix B, filter 2: three components scaled by sqrt(2) and the index of the omitted
// (largest, positive) one; decoded to SHORT normalized, exact to one unit in the last place.
TEST(Meshopt, QuaternionFilterDecodesAsTheSpecSays) {
  const std::vector<float> quats = {0, 0,          0, 1,          0.5f,  0.5f, 0.5f, 0.5f,
                                    0, 0.7071068f, 0, 0.7071068f, -0.2f, 0.3f, 0.9f, 0.2449490f};
  std::vector<std::int16_t> encoded(quats.size());
  meshopt_encodeFilterQuat(encoded.data(), 4, 8, 12, quats.data());
  Asset a;
  a.views.push_back(view(encode_attributes(raw(encoded), 8), 32, attributes(8, 4, "QUATERNION")));
  a.accessors =
      R"({"bufferView":0,"componentType":5122,"normalized":true,"type":"VEC4","count":4})";
  const Bytes glb = build(a);
  EXPECT_EQ(errors(validate(glb)), 0u) << dump(validate(glb));
  const auto l = load(glb);
  const std::vector<double> got = read(l->asset, 0);
  ASSERT_EQ(got.size(), 16u);
  for (std::size_t q = 0; q < 4; ++q) {
    const std::int16_t* in = &encoded[q * 4];
    const float range = 1.0f / std::sqrt(2.0f);
    const float one = static_cast<float>(in[3] | 3);
    const float x = in[0] / one * range, y = in[1] / one * range, z = in[2] / one * range;
    const float w = std::sqrt(std::max(0.0f, 1.0f - x * x - y * y - z * z));
    const int maxcomp = in[3] & 3;
    float out[4];
    out[(maxcomp + 1) % 4] = std::round(x * 32767.0f);
    out[(maxcomp + 2) % 4] = std::round(y * 32767.0f);
    out[(maxcomp + 3) % 4] = std::round(z * 32767.0f);
    out[(maxcomp + 0) % 4] = std::round(w * 32767.0f);
    for (int c = 0; c < 4; ++c) {
      EXPECT_NEAR(got[q * 4 + c], std::max(out[c] / 32767.0, -1.0), 1.0 / 32767 + 1e-12)
          << q << " " << c;
      // and the quaternion it encoded, within 12 bits
      EXPECT_NEAR(got[q * 4 + c], quats[q * 4 + c], 2e-3) << q << " " << c;
    }
  }
}

// KHR_meshopt_compression Appendix B, filter 4 (color), worked by hand: Y, Co, Cg and alpha
// of K bits (K read from alpha's top bit), r = y + co - cg, g = y + cg, b = y - co - cg, alpha
// widened by one bit, all scaled by 255 / (2^K - 1) and rounded.
TEST(Meshopt, ColorFilterDecodesAsTheSpecSays) {
  const Bytes filtered = {
      100, 10, 0xFB, 128 | 50,  // K = 8: (115, 95, 95, 100), scale 1
      30,  3,  0xFE, 32 | 20,   // K = 6: (35, 28, 29, 40) x 255/63
  };
  Asset a;
  a.extension = kKhr;
  a.views.push_back(view(encode_attributes(filtered, 4), 8, attributes(4, 2, "COLOR")));
  a.accessors = R"({"bufferView":0,"componentType":5121,"type":"VEC4","count":2})";
  const Bytes glb = build(a);
  EXPECT_EQ(errors(validate(glb)), 0u) << dump(validate(glb));
  // 35 x 255/63 = 141.67, 28 x .. = 113.33, 29 x .. = 117.38, 40 x .. = 161.90
  EXPECT_EQ(read(load(glb)->asset, 0), (std::vector<double>{115, 95, 95, 100, 142, 113, 117, 162}));
}

// KHR_meshopt_compression: with a filter and an uncompressed fallback, accessor bounds "must be
// exact with respect to the uncompressed fallback data and may not be exact with respect to the
// compressed data". Bounds of the fallback's values are no error then; without fallback data
// (or under EXT) they are compared with the decoded values as ever.
TEST(Meshopt, FilteredKhrBoundsFollowTheFallbackData) {
  const std::vector<float> original = {0.1f, 0.2f, 0.3f};  // the fallback's values
  std::vector<std::uint32_t> encoded(original.size());
  meshopt_encodeFilterExp(encoded.data(), original.size(), 4, 8, original.data());
  // The decoded values differ from the originals at 8 mantissa bits: 0.1 is not exact.
  ASSERT_NE(static_cast<float>(std::ldexp(static_cast<double>(static_cast<std::int32_t>(encoded[0] << 8) >> 8),
                                          static_cast<std::int32_t>(encoded[0]) >> 24)),
            original[0]);
  for (const bool with_fallback : {true, false}) {
    for (const char* extension : {kKhr, kExt}) {
      Asset a;
      a.extension = extension;
      a.views.push_back(view(encode_attributes(raw(encoded), 4), 12, attributes(4, 3, "EXPONENTIAL")));
      a.accessors =
          R"({"bufferView":0,"componentType":5126,"type":"SCALAR","count":3,"min":[0.1],"max":[0.3]})";
      if (with_fallback) {
        a.fallback_members = R"(,"uri":")" + data_uri(raw(original)) + "\"";
        a.required = false;
      }
      const ValidationReport r = validate(build(a));
      const bool excused = with_fallback && std::string(extension) == kKhr;
      EXPECT_EQ(has(r, "ACCESSOR_MIN_MISMATCH", "/accessors/0/min/0"), !excused)
          << extension << " fallback " << with_fallback << "\n" << dump(r);
    }
  }
}

// ---- gltfpack's streams (tests/validator/meshopt/, README there) ---------------------------

const fs::path kFixtures = fs::path(GLTF_ANIM_SOURCE_DIR) / "tests/validator/meshopt";

std::unique_ptr<Loaded> load_fixture(const std::string& name) {
  auto l = std::make_unique<Loaded>();
  l->asset = load_file(kFixtures / name, {}, l->issues);
  // Nothing but URI_GLB, the information glTF-Validator gives too for the external
  // fallback file a `-cf` GLB names.
  for (const auto& issue : l->issues.issues()) {
    EXPECT_EQ(std::string(issue.code), "URI_GLB") << name << " at " << issue.pointer;
  }
  return l;
}

// gltfpack -cf keeps the uncompressed bytes in the fallback buffer: every compressed
// bufferView (version 1 attributes, triangles) decodes to exactly those bytes.
TEST(Meshopt, VersionOneStreamsDecodeToGltfpacksFallbackBytes) {
  for (const char* name : {"rotation_linear.ckhrcf.glb", "translation_cubicspline.ckhrcf.glb"}) {
    const auto l = load_fixture(name);
    const LoadedAsset& a = l->asset;
    ASSERT_EQ(a.buffers.size(), 2u);
    ASSERT_TRUE(a.buffer_data[1].has_value()) << name;
    std::size_t compared = 0;
    for (std::size_t v = 0; v < a.buffer_views.size(); ++v) {
      const BufferView& bv = a.buffer_views[v];
      ASSERT_TRUE(bv.meshopt.has_value());
      EXPECT_TRUE(bv.meshopt->khr);
      if (!a.buffer_view_data[v]) continue;  // not read by an accessor
      const auto fallback = a.buffer_data[1]->subspan(bv.byte_offset, *bv.byte_length);
      EXPECT_TRUE(std::equal(fallback.begin(), fallback.end(), a.buffer_view_data[v]->begin(),
                             a.buffer_view_data[v]->end()))
          << name << " bufferView " << v;
      ++compared;
    }
    EXPECT_GE(compared, 3u) << name;  // positions, times, values at least
  }
}

// The same grid and rotation packed by gltfpack -cc as EXT_meshopt_compression (version 0
// streams, decoded by meshoptimizer) and as KHR_meshopt_compression (version 1, whose
// positions use the 4-byte XOR channel mode with a rotation, decoded by meshopt_v1.cpp): the
// same bytes either way.
TEST(Meshopt, VersionOneDecodesAsVersionZeroDoes) {
  const auto ext = load_fixture("grid.cc.glb");
  const auto khr = load_fixture("grid.cckhr.glb");
  ASSERT_EQ(ext->asset.buffer_views.size(), khr->asset.buffer_views.size());
  for (std::size_t v = 0; v < ext->asset.buffer_views.size(); ++v) {
    ASSERT_TRUE(ext->asset.buffer_view_data[v].has_value()) << v;
    ASSERT_TRUE(khr->asset.buffer_view_data[v].has_value()) << v;
    const auto x = *ext->asset.buffer_view_data[v];
    const auto y = *khr->asset.buffer_view_data[v];
    EXPECT_TRUE(std::equal(x.begin(), x.end(), y.begin(), y.end())) << "bufferView " << v;
  }
  EXPECT_EQ(errors(gltf_anim::validator::validate_file(kFixtures / "grid.cckhr.glb", {})), 0u);
}

// ---- bad input: a coded issue at the extension, the accessors unreadable, no crash ------

TEST(Meshopt, TruncatedStreamIsADecodeFailure) {
  Asset a = translation_track();
  a.views[1].stream.resize(a.views[1].stream.size() - 7);
  const Bytes glb = build(a);
  const ValidationReport r = validate(glb);
  EXPECT_TRUE(has(r, "MESHOPT_DECODE_FAILED", "/bufferViews/1/extensions/EXT_meshopt_compression"))
      << dump(r);
  const auto l = load(glb);
  std::vector<double> out;
  EXPECT_FALSE(read_accessor(l->asset, 1, out));
  EXPECT_NE(l->asset.accessor_status[1], DataStatus::kReadable);
  EXPECT_EQ(read(l->asset, 0), as_double(kTimes));  // the other view is untouched
}

TEST(Meshopt, StreamHoldingMoreElementsThanDeclaredIsADecodeFailure) {
  // Forty times encoded, seven declared: the stream's groups of 16 elements go on past what
  // seven need, so bytes are left over before the tail.
  Asset a = translation_track();
  std::vector<float> times(40);
  for (std::size_t k = 0; k < times.size(); ++k) times[k] = static_cast<float>(k) * 0.37f;
  a.views[0].stream = encode_attributes(raw(times), 4);
  const ValidationReport r = validate(build(a));
  EXPECT_TRUE(has(r, "MESHOPT_DECODE_FAILED", "/bufferViews/0/extensions/EXT_meshopt_compression"))
      << dump(r);
  EXPECT_EQ(r.issues.front().code, "MESHOPT_DECODE_FAILED") << dump(r);
}

TEST(Meshopt, IndexStreamOfVersion0IsADecodeFailure) {
  meshopt_encodeIndexVersion(0);
  const std::vector<std::uint32_t> triangles = {0, 1, 2, 2, 1, 3};
  Bytes tri(meshopt_encodeIndexBufferBound(triangles.size(), 4));
  tri.resize(meshopt_encodeIndexBuffer(tri.data(), tri.size(), triangles.data(), triangles.size()));
  index_version_1();
  Asset a;
  a.views.push_back(view(tri, 12, R"("byteStride":2,"count":6,"mode":"TRIANGLES")"));
  a.accessors = R"({"bufferView":0,"componentType":5123,"type":"SCALAR","count":6})";
  const ValidationReport r = validate(build(a));
  ASSERT_TRUE(has(r, "MESHOPT_DECODE_FAILED", "/bufferViews/0/extensions/EXT_meshopt_compression"))
      << dump(r);
  EXPECT_NE(r.issues.front().message.find("header byte is 0xe0, not 0xe1"), std::string::npos);
}

TEST(Meshopt, CountTimesStrideMustBeTheByteLength) {
  Asset a = translation_track();
  a.views[1].ext_members = attributes(12, 6);
  const ValidationReport r = validate(build(a));
  EXPECT_TRUE(has(r, "MESHOPT_BYTE_LENGTH_MISMATCH",
                  "/bufferViews/1/extensions/EXT_meshopt_compression/count"))
      << dump(r);
  EXPECT_EQ(r.issues.front().message,
            "EXT_meshopt_compression: count (6) times byteStride (12) is 72, not the "
            "bufferView's byteLength (84).");
  // Past 2^64: said so, never wrapped.
  a.views[1].ext_members = attributes(12, 4611686018427387904ull);
  const ValidationReport big = validate(build(a));
  ASSERT_TRUE(has(big, "MESHOPT_BYTE_LENGTH_MISMATCH",
                  "/bufferViews/1/extensions/EXT_meshopt_compression/count"))
      << dump(big);
  EXPECT_NE(big.issues.front().message.find("more than 2^64-1"), std::string::npos);
}

TEST(Meshopt, UnknownFilterIsASchemaErrorAndNothingIsRead) {
  for (const auto& [extension, filter] : std::vector<std::pair<std::string, std::string>>{
           {kExt, "BOGUS"}, {kExt, "COLOR"}, {kKhr, "BOGUS"}}) {
    Asset a = translation_track(extension);
    a.views[1].ext_members = attributes(12, 7, filter.c_str());
    const Bytes glb = build(a);
    const ValidationReport r = validate(glb);
    const std::string at = "/bufferViews/1/extensions/" + extension + "/filter";
    EXPECT_TRUE(has(r, "VALUE_NOT_IN_LIST", at)) << extension << " " << filter << "\n" << dump(r);
    const auto l = load(glb);
    std::vector<double> out;
    EXPECT_FALSE(read_accessor(l->asset, 1, out));
  }
}

TEST(Meshopt, WrongHeaderByteIsADecodeFailure) {
  Asset a = translation_track();
  a.views[1].stream[0] = 0xa1;  // version 1: KHR_meshopt_compression's only
  const ValidationReport r = validate(build(a));
  ASSERT_TRUE(has(r, "MESHOPT_DECODE_FAILED", "/bufferViews/1/extensions/EXT_meshopt_compression"))
      << dump(r);
  a.views[1].stream[0] = 0x42;
  const ValidationReport r2 = validate(build(a));
  EXPECT_TRUE(has(r2, "MESHOPT_DECODE_FAILED", "/bufferViews/1/extensions/EXT_meshopt_compression"))
      << dump(r2);
  EXPECT_NE(r2.issues.front().message.find("header byte is 0x42, not 0xa0"), std::string::npos);
}

// A version 1 attribute stream (KHR_meshopt_compression Appendix A), written here from the
// spec's text as an encoder: the other direction of the loader's decoder, sharing no code.
// `channel_modes` holds one mode byte per 4 bytes of the element (low 4 bits the mode, high 4
// bits the XOR rotation); each byte position uses control mode `control` (0 or 1: per group the
// shortest bit length that fits, sentinels for the rest; 2: zeros; 3: literal).
Bytes encode_v1(const Bytes& data, std::size_t stride,
                const std::vector<std::uint8_t>& channel_modes, unsigned control) {
  const std::size_t count = data.size() / stride;
  const std::size_t max_block = std::min<std::size_t>((8192 / stride) & ~std::size_t{15}, 256);
  Bytes out{0xa1};
  Bytes prev(data.end() - static_cast<std::ptrdiff_t>(stride), data.end());  // any baseline
  const Bytes baseline = prev;
  for (std::size_t first = 0; first < count; first += max_block) {
    const std::size_t n = std::min(count - first, max_block);
    const std::size_t groups = (n + 15) / 16;
    // Deltas per byte position, element by element, as the channel modes define them.
    std::vector<Bytes> deltas(stride, Bytes(groups * 16, 0));
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint8_t* v = &data[(first + i) * stride];
      for (std::size_t ch = 0; ch < stride / 4; ++ch) {
        const unsigned mode = channel_modes[ch] & 15u;
        const std::size_t b0 = ch * 4;
        if (mode == 0) {
          for (std::size_t b = 0; b < 4; ++b) {
            const auto d = static_cast<std::uint8_t>(v[b0 + b] - prev[b0 + b]);
            deltas[b0 + b][i] = static_cast<std::uint8_t>((d & 0x80) ? ~(d << 1) : (d << 1));
          }
        } else if (mode == 1) {
          for (std::size_t h = 0; h < 4; h += 2) {
            const auto now = static_cast<std::uint16_t>(v[b0 + h] | (v[b0 + h + 1] << 8));
            const auto was = static_cast<std::uint16_t>(prev[b0 + h] | (prev[b0 + h + 1] << 8));
            const auto d = static_cast<std::uint16_t>(now - was);
            const auto z = static_cast<std::uint16_t>((d & 0x8000) ? ~(d << 1) : (d << 1));
            deltas[b0 + h][i] = static_cast<std::uint8_t>(z & 0xff);
            deltas[b0 + h + 1][i] = static_cast<std::uint8_t>(z >> 8);
          }
        } else {
          std::uint32_t now = 0, was = 0;
          for (std::size_t b = 0; b < 4; ++b) {
            now |= std::uint32_t{v[b0 + b]} << (8 * b);
            was |= std::uint32_t{prev[b0 + b]} << (8 * b);
          }
          const unsigned r = channel_modes[ch] >> 4;
          // The spec's rotate(v, r), applied to the XOR of the two elements.
          const std::uint32_t x = now ^ was;
          const std::uint32_t d = (x << r) | (x >> ((32 - r) & 31));
          for (std::size_t b = 0; b < 4; ++b)
            deltas[b0 + b][i] = static_cast<std::uint8_t>(d >> (8 * b));
        }
      }
      std::memcpy(prev.data(), v, stride);
    }
    Bytes controls(stride / 4, 0);
    for (std::size_t k = 0; k < stride; ++k)
      controls[k / 4] = static_cast<std::uint8_t>(controls[k / 4] | (control << ((k % 4) * 2)));
    out.insert(out.end(), controls.begin(), controls.end());
    for (std::size_t k = 0; k < stride; ++k) {
      const Bytes& d = deltas[k];
      if (control == 2) continue;
      if (control == 3) {  // one byte per element of the block
        out.insert(out.end(), d.begin(), d.begin() + static_cast<std::ptrdiff_t>(n));
        continue;
      }
      const std::vector<unsigned> bits =
          control == 0 ? std::vector<unsigned>{0, 1, 2, 4} : std::vector<unsigned>{1, 2, 4, 8};
      Bytes header((groups + 3) / 4, 0);
      Bytes body;
      for (std::size_t g = 0; g < groups; ++g) {
        const std::uint8_t* gd = &d[g * 16];
        // The shortest length whose sentinels leave room for most deltas: here, simply the
        // shortest one that holds every delta but the largest as a sentinel-free value, else
        // sentinels.
        unsigned choice = 3;
        for (unsigned m = 0; m < 4; ++m) {
          const unsigned b = bits[m];
          bool fits = true;
          for (int i = 0; i < 16; ++i)
            fits = fits && (b == 8 || (b == 0 ? gd[i] == 0 : gd[i] < (1u << b) - 1));
          if (fits) {
            choice = m;
            break;
          }
        }
        if (control == 0 && choice == 3) choice = 3;                      // 4 bits with sentinels
        if (control == 1 && choice == 3) choice = 3;                      // 8 bits
        if (control == 0 && g % 2 == 1 && bits[choice] != 0) choice = 1;  // 1 bit: all sentinels
        header[g / 4] = static_cast<std::uint8_t>(header[g / 4] | (choice << ((g % 4) * 2)));
        const unsigned b = bits[choice];
        if (b == 0) continue;
        if (b == 8) {
          body.insert(body.end(), gd, gd + 16);
          continue;
        }
        const unsigned sentinel = (1u << b) - 1;
        Bytes packed(16 * b / 8, 0), extra;
        for (int i = 0; i < 16; ++i) {
          unsigned code = gd[i];
          if (code >= sentinel) {
            extra.push_back(gd[i]);
            code = sentinel;
          }
          if (b == 1) {
            packed[i / 8] = static_cast<std::uint8_t>(packed[i / 8] | (code << (i % 8)));
          } else {
            const int per = 8 / static_cast<int>(b);
            packed[i / per] = static_cast<std::uint8_t>(
                packed[i / per] | (code << ((per - 1 - i % per) * static_cast<int>(b))));
          }
        }
        body.insert(body.end(), packed.begin(), packed.end());
        body.insert(body.end(), extra.begin(), extra.end());
      }
      out.insert(out.end(), header.begin(), header.end());
      out.insert(out.end(), body.begin(), body.end());
    }
  }
  const std::size_t tail = stride + stride / 4;
  out.insert(out.end(), tail < 24 ? 24 - tail : 0, 0);
  out.insert(out.end(), baseline.begin(), baseline.end());
  out.insert(out.end(), channel_modes.begin(), channel_modes.end());
  return out;
}

// KHR_meshopt_compression's version 1 attribute stream, which meshoptimizer 0.18 predates, is
// decoded by the loader's own decoder: every control mode and channel mode gives back what
// the encoder above was given.
TEST(Meshopt, VersionOneStreamsDecodeToTheEncodedValues) {
  std::vector<float> values;
  for (int i = 0; i < 300; ++i) {  // two blocks at byteStride 12 (256 + 44 elements)
    values.push_back(static_cast<float>(i) * 0.25f);
    values.push_back(std::sin(static_cast<float>(i) * 0.1f) * 1000.0f);
    values.push_back(i % 7 == 0 ? -1e-3f : 3.0f);
  }
  const Bytes data = raw(values);
  for (unsigned control : {0u, 1u, 3u}) {
    for (const std::vector<std::uint8_t>& modes :
         {std::vector<std::uint8_t>{0, 0, 0}, std::vector<std::uint8_t>{1, 0, 1},
          std::vector<std::uint8_t>{2, 0x72, 0xF2}}) {
      Asset a;
      a.extension = kKhr;
      a.views.push_back(
          view(encode_v1(data, 12, modes, control), data.size(), attributes(12, 300)));
      a.accessors = R"({"bufferView":0,"componentType":5126,"type":"VEC3","count":300})";
      const Bytes glb = build(a);
      const ValidationReport r = validate(glb);
      EXPECT_TRUE(r.issues.empty()) << control << "\n" << dump(r);
      const auto l = load(glb);
      EXPECT_EQ(read(l->asset, 0), as_double(values))
          << "control " << control << " modes " << int(modes[0]) << "," << int(modes[1]) << ","
          << int(modes[2]);
    }
  }
  // Control mode 2: every delta zero, every element the baseline.
  const std::vector<float> same(3 * 20, 5.5f);
  Asset a;
  a.extension = kKhr;
  a.views.push_back(view(encode_v1(raw(same), 12, {0, 0, 0}, 2), 240, attributes(12, 20)));
  a.accessors = R"({"bufferView":0,"componentType":5126,"type":"VEC3","count":20})";
  EXPECT_EQ(read(load(build(a))->asset, 0), as_double(same));
}

TEST(Meshopt, VersionOneStreamsThatBreakTheSpecAreDecodeFailures) {
  const std::vector<float> values = {1, 2, 3, 4, 5, 6, 7, 8};
  const Bytes good = encode_v1(raw(values), 4, {0}, 1);
  struct Case {
    Bytes stream;
    const char* why;
  };
  Bytes bad_mode = good;
  bad_mode.back() = 3;  // channel mode 3
  Bytes bad_high = good;
  bad_high.back() = 0x51;  // mode 1 with a rotation
  Bytes truncated(good.begin(), good.end() - 30);
  Bytes longer = good;
  longer.insert(longer.begin() + 3, 0);  // a byte left over before the tail
  for (const Case& c : {Case{bad_mode, "channel 0 has the invalid mode byte 3"},
                        Case{bad_high, "channel 0 has the invalid mode byte 81"},
                        Case{truncated, "the stream ends before all elements are decoded"},
                        Case{longer, "bytes are left over"}}) {
    Asset a;
    a.extension = kKhr;
    a.views.push_back(view(c.stream, 32, attributes(4, 8)));
    a.accessors = R"({"bufferView":0,"componentType":5126,"type":"SCALAR","count":8})";
    const ValidationReport r = validate(build(a));
    ASSERT_TRUE(
        has(r, "MESHOPT_DECODE_FAILED", "/bufferViews/0/extensions/KHR_meshopt_compression"))
        << c.why << "\n"
        << dump(r);
    EXPECT_NE(r.issues.front().message.find(c.why), std::string::npos) << r.issues.front().message;
  }
  // The same bytes under EXT_meshopt_compression: 0xa1 is KHR's only.
  Asset a;
  a.views.push_back(view(good, 32, attributes(4, 8)));
  a.accessors = R"({"bufferView":0,"componentType":5126,"type":"SCALAR","count":8})";
  const ValidationReport r = validate(build(a));
  ASSERT_TRUE(has(r, "MESHOPT_DECODE_FAILED", "/bufferViews/0/extensions/EXT_meshopt_compression"))
      << dump(r);
  EXPECT_NE(r.issues.front().message.find("KHR_meshopt_compression's only"), std::string::npos);
}

// All decoded views together stay within the loader's file size limit.
TEST(Meshopt, DecodedBytesAreBoundedByTheFileSizeLimit) {
  Asset a = translation_track();
  const std::vector<float> constant(3 * 4000, 1.0f);  // 48,000 bytes, compressing to little
  a.views[1].stream = encode_attributes(raw(constant), 12);
  a.views[1].byte_length = 48000;
  a.views[1].ext_members = attributes(12, 4000);
  a.accessors =
      R"({"bufferView":0,"componentType":5126,"type":"SCALAR","count":7,"min":[0],"max":[3]},)"
      R"({"bufferView":1,"componentType":5126,"type":"VEC3","count":4000})";
  a.animations.clear();
  const Bytes glb = build(a);
  ASSERT_LT(glb.size(), 8000u);
  LoadOptions options;
  options.max_file_bytes = 8000;
  IssueCollector issues;
  const LoadedAsset asset = load_bytes(glb, "t.glb", {}, options, issues);
  ASSERT_EQ(asset.loader_findings.size(), 1u);
  EXPECT_EQ(asset.loader_findings[0].code.name(), "MESHOPT_DECODED_TOO_LARGE");
  EXPECT_EQ(asset.loader_findings[0].pointer.str(),
            "/bufferViews/1/extensions/EXT_meshopt_compression");
  EXPECT_FALSE(asset.buffer_view_data.at(1).has_value());
  EXPECT_TRUE(asset.buffer_view_data.at(0).has_value());  // 28 bytes fit
  IssueCollector unbounded;
  const LoadedAsset all = load_bytes(glb, "t.glb", {}, {}, unbounded);
  EXPECT_TRUE(all.loader_findings.empty());
  EXPECT_EQ(read(all, 1), std::vector<double>(constant.begin(), constant.end()));
}

TEST(Meshopt, CompressedRangeMustFitItsBuffer) {
  Asset a = translation_track();
  a.views[1].stream_range = R"("byteOffset":18446744073709551615,"byteLength":40)";
  const ValidationReport r = validate(build(a));
  EXPECT_TRUE(has(r, "MESHOPT_COMPRESSED_DATA_TOO_LONG",
                  "/bufferViews/1/extensions/EXT_meshopt_compression/byteLength"))
      << dump(r);
}

// The fallback buffer must hold every bufferView that refers to it, compressed or not (the
// spec's "MUST be sufficiently large"): the existing layout rule.
TEST(Meshopt, FallbackBufferTooShortForItsViews) {
  Asset a = translation_track();
  a.fallback_length = 100;  // the views need 28 + 84
  const ValidationReport r = validate(build(a));
  EXPECT_TRUE(has(r, "BUFFER_VIEW_TOO_LONG", "/bufferViews/1/byteLength")) << dump(r);
}

TEST(Meshopt, HugeDeclaredSizeIsRefusedBeforeAllocating) {
  // 2^40 decoded bytes claimed from a 60-byte stream: no stream decodes to 1024 times its
  // size, so nothing is allocated.
  Asset a = translation_track();
  a.views[1].byte_length = std::uint64_t{1} << 40;
  a.views[1].ext_members = attributes(4, std::uint64_t{1} << 38);
  a.fallback_length = std::uint64_t{1} << 41;
  const ValidationReport r = validate(build(a));
  EXPECT_TRUE(has(r, "MESHOPT_DECODE_FAILED", "/bufferViews/1/extensions/EXT_meshopt_compression"))
      << dump(r);
}

TEST(Meshopt, StrideRulesOfModesAndFilters) {
  struct Case {
    std::string members;
    std::uint64_t length;
    const char* code;
    const char* member;
  };
  const std::vector<Case> cases = {
      {attributes(6, 14), 84, "MESHOPT_BYTE_STRIDE_INVALID", "byteStride"},
      {attributes(12, 7, "QUATERNION"), 84, "MESHOPT_BYTE_STRIDE_INVALID", "byteStride"},
      {attributes(12, 7, "OCTAHEDRAL"), 84, "MESHOPT_BYTE_STRIDE_INVALID", "byteStride"},
      {R"("byteStride":4,"count":21,"mode":"INDICES","filter":"EXPONENTIAL")", 84,
       "MESHOPT_FILTER_NOT_ALLOWED", "filter"},
      {R"("byteStride":4,"count":22,"mode":"TRIANGLES")", 88, "MESHOPT_TRIANGLES_COUNT", "count"},
      {R"("byteStride":12,"count":7,"mode":"TRIANGLES")", 84, "MESHOPT_BYTE_STRIDE_INVALID",
       "byteStride"},
  };
  for (const Case& c : cases) {
    Asset a = translation_track();
    a.views[1].ext_members = c.members;
    a.views[1].byte_length = c.length;
    const ValidationReport r = validate(build(a));
    EXPECT_TRUE(has(r, c.code,
                    std::string("/bufferViews/1/extensions/EXT_meshopt_compression/") + c.member))
        << c.members << "\n"
        << dump(r);
  }
}

TEST(Meshopt, ExtByteStrideMustMatchTheBufferViewsButKhrNeedNot) {
  for (const char* extension : {kExt, kKhr}) {
    Asset a = translation_track(extension);
    a.views[1].view_members = R"(,"byteStride":12)";  // the extension's is 16
    a.views[1].byte_length = 112;
    a.views[1].stream = encode_attributes(Bytes(112, 0), 16);
    a.views[1].ext_members = attributes(16, 7);
    a.animations.clear();  // byteStride on an animation view is a rule of its own
    const ValidationReport r = validate(build(a));
    EXPECT_EQ(has(r, "MESHOPT_BYTE_STRIDE_MISMATCH", "/bufferViews/1/byteStride"),
              std::string(extension) == kExt)
        << extension << "\n"
        << dump(r);
  }
  Asset a = translation_track();
  a.views[1].view_members = R"(,"byteStride":12)";
  a.animations.clear();
  EXPECT_FALSE(
      has(validate(build(a)), "MESHOPT_BYTE_STRIDE_MISMATCH", "/bufferViews/1/byteStride"));
}

TEST(Meshopt, FallbackBufferRules) {
  // A plain bufferView of the fallback buffer.
  Asset plain = translation_track();
  View plain_view = view({}, 4, "");
  plain_view.compressed = false;
  plain.views.push_back(plain_view);
  plain.accessors += R"(,{"bufferView":2,"componentType":5126,"type":"SCALAR","count":1})";
  plain.fallback_length = 200;
  const ValidationReport r1 = validate(build(plain));
  EXPECT_TRUE(has(r1, "MESHOPT_FALLBACK_BUFFER_UNCOMPRESSED_VIEW", "/bufferViews/2/buffer"))
      << dump(r1);

  // Compressed data taken from the fallback buffer itself.
  Asset source = translation_track();
  source.views[1].ext_buffer = "1";
  const ValidationReport r2 = validate(build(source));
  EXPECT_TRUE(has(r2, "MESHOPT_FALLBACK_BUFFER_COMPRESSED_SOURCE",
                  "/bufferViews/1/extensions/EXT_meshopt_compression/buffer"))
      << dump(r2);

  // A fallback buffer without data needs the extension required.
  Asset optional = translation_track();
  optional.required = false;
  const ValidationReport r3 = validate(build(optional));
  EXPECT_TRUE(has(r3, "MESHOPT_FALLBACK_BUFFER_NOT_REQUIRED", "/buffers/1")) << dump(r3);
}

TEST(Meshopt, BothExtensionsOnOneObject) {
  Asset a = translation_track(kKhr);
  a.fallback_extensions =
      R"({"KHR_meshopt_compression":{"fallback":true},"EXT_meshopt_compression":{"fallback":true}})";
  a.views[0].more_extensions =
      R"("EXT_meshopt_compression":{"buffer":0,"byteLength":4,"byteStride":4,"count":7,"mode":"ATTRIBUTES"},)";
  const Bytes glb = build(a);
  const ValidationReport r = validate(glb);
  EXPECT_TRUE(has(r, "MESHOPT_EXTENSIONS_EXCLUSIVE", "/buffers/1/extensions")) << dump(r);
  EXPECT_TRUE(has(r, "MESHOPT_EXTENSIONS_EXCLUSIVE", "/bufferViews/0/extensions")) << dump(r);
  // The KHR object is the one read.
  const auto l = load(glb);
  EXPECT_EQ(read(l->asset, 0), as_double(kTimes));
}

// A buffer without uri that is not the GLB's first: no issue for the buffer itself (the spec
// leaves it to extensions, glTF-Validator reports nothing); an accessor reading it plainly
// has no data, which is said (information) rather than read as zeros.
TEST(Meshopt, PlaceholderBufferIsOnlyReportedWhenRead) {
  const std::string json =
      R"({"asset":{"version":"2.0"},"buffers":[{"byteLength":4},{"byteLength":8}],)"
      R"("bufferViews":[{"buffer":1,"byteLength":8}],)"
      R"("accessors":[{"bufferView":0,"componentType":5126,"type":"SCALAR","count":2}]})";
  const ValidationReport r = validate(valid_glb(json, Bytes(4, 0)));
  EXPECT_TRUE(has(r, "BUFFER_VIEW_PLACEHOLDER_DATA", "/bufferViews/0/buffer")) << dump(r);
  EXPECT_EQ(r.count(Severity::kInfo), r.issues.size()) << dump(r);
  const std::string unread =
      R"({"asset":{"version":"2.0"},"buffers":[{"byteLength":4},{"byteLength":8}]})";
  const ValidationReport r2 = validate(valid_glb(unread, Bytes(4, 0)));
  for (const auto& i : r2.issues) EXPECT_NE(i.severity, Severity::kError) << dump(r2);
  EXPECT_FALSE(has(r2, "BUFFER_VIEW_PLACEHOLDER_DATA", "/bufferViews/0/buffer"));
}

// Only bufferViews an accessor reads are decoded: a broken stream nobody reads costs nothing.
TEST(Meshopt, OnlyViewsAccessorsReadAreDecoded) {
  Asset a = translation_track();
  a.views.push_back(view(Bytes{0xa0, 1, 2, 3}, 28, attributes(4, 7)));
  const Bytes glb = build(a);
  const auto l = load(glb);
  EXPECT_FALSE(l->asset.buffer_view_data.at(2).has_value());
  EXPECT_TRUE(l->asset.buffer_view_data.at(1).has_value());
  EXPECT_FALSE(has(validate(glb), "MESHOPT_DECODE_FAILED",
                   "/bufferViews/2/extensions/EXT_meshopt_compression"));
}

}  // namespace

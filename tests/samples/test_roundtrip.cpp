// Samples files: writers and readers round-trip every double bit for bit, and
// the written bytes are the documented format (expected texts written by hand).
#include "scratch.hpp"
#include <gltf_anim/samples/samples.hpp>

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

namespace gs = gltf_anim::samples;

namespace {

// Doubles that naive printing (%g, 6 or 15 digits) would not round-trip.
const double kAwkward[] = {
    0.1,
    1.0 / 3.0,
    -0.0,
    1e-300,
    std::numeric_limits<double>::denorm_min(),                // 5e-324
    2.2250738585072009e-308,                                   // largest subnormal
    std::numeric_limits<double>::min(),                        // smallest normal
    std::numeric_limits<double>::max(),
    0.30000000000000004,
    123456789.12345679,
    -2.5,
    1e21,
    static_cast<double>(0.1f),                                  // a float32 value in a double
    9007199254740993.0,                                        // 2^53 + 1 rounds to 2^53
};

std::uint64_t bits(double d) { return std::bit_cast<std::uint64_t>(d); }

gs::SamplesFile awkward_file() {
  gs::SamplesFile f;
  f.asset = "awkward \"quoted\"\n.gltf";
  f.generator = "gltf-anim test";
  gs::SampledAnimation& a = f.animations.emplace_back();
  a.index = 3;
  a.name = "clip";
  gs::SampledChannel& scalar = a.channels.emplace_back();
  scalar.index = 0;
  scalar.target = "/nodes/1/weights";
  scalar.interpolation = "STEP";
  scalar.sampler = 2;
  scalar.keyframes = {-0.5, 0.1, 1.0 / 3.0};
  double t = -1.0 / 7.0;
  for (double v : kAwkward) {
    scalar.add_sample(t, {v});
    t += 0.1;  // accumulates rounding error: awkward times too
  }
  gs::SampledChannel& vec = a.channels.emplace_back();
  vec.index = 1;
  vec.target = "/materials/0/extensions/KHR,odd\"name/x";
  vec.measure = gs::Measure::kAngle;
  vec.add_sample(1e-300, {kAwkward[0], kAwkward[1], kAwkward[2], kAwkward[3]});
  vec.add_sample(2.0 / 3.0, {kAwkward[4], kAwkward[5], kAwkward[6], kAwkward[7]});
  return f;
}

void expect_same(const gs::SamplesFile& x, const gs::SamplesFile& y, bool csv) {
  if (!csv) {
    EXPECT_EQ(x.asset, y.asset);
    EXPECT_EQ(x.generator, y.generator);
  }
  ASSERT_EQ(x.animations.size(), y.animations.size());
  for (std::size_t a = 0; a < x.animations.size(); ++a) {
    const auto& xa = x.animations[a];
    const auto& ya = y.animations[a];
    EXPECT_EQ(xa.index, ya.index);
    if (!csv) {
      EXPECT_EQ(xa.name, ya.name);
    }
    ASSERT_EQ(xa.channels.size(), ya.channels.size());
    for (std::size_t c = 0; c < xa.channels.size(); ++c) {
      const auto& xc = xa.channels[c];
      const auto& yc = ya.channels[c];
      EXPECT_EQ(xc.index, yc.index);
      EXPECT_EQ(xc.target, yc.target);
      if (!csv) {
        EXPECT_EQ(xc.interpolation, yc.interpolation);
        EXPECT_EQ(xc.sampler, yc.sampler);
        EXPECT_EQ(xc.measure, yc.measure);
        EXPECT_EQ(xc.keyframes, yc.keyframes);
      }
      EXPECT_EQ(xc.width, yc.width);
      ASSERT_EQ(xc.times.size(), yc.times.size());
      ASSERT_EQ(xc.values.size(), yc.values.size());
      for (std::size_t i = 0; i < xc.times.size(); ++i) {
        EXPECT_EQ(bits(xc.times[i]), bits(yc.times[i])) << "t #" << i << " " << xc.times[i];
      }
      for (std::size_t i = 0; i < xc.values.size(); ++i) {
        EXPECT_EQ(bits(xc.values[i]), bits(yc.values[i])) << "value #" << i << " " << xc.values[i];
      }
    }
  }
}

}  // namespace

TEST(SamplesFormat, FormatDoubleIsShortestRoundTrip) {
  EXPECT_EQ(gs::format_double(0.1), "0.1");
  EXPECT_EQ(gs::format_double(-0.0), "-0");
  EXPECT_EQ(gs::format_double(0.0), "0");
  EXPECT_EQ(gs::format_double(1.0), "1");
  EXPECT_EQ(gs::format_double(1e-300), "1e-300");
  EXPECT_EQ(gs::format_double(std::numeric_limits<double>::denorm_min()), "5e-324");
  EXPECT_EQ(gs::format_double(0.30000000000000004), "0.30000000000000004");
  EXPECT_EQ(gs::format_double(1.0 / 3.0), "0.3333333333333333");
  EXPECT_EQ(gs::format_double(-2.5), "-2.5");
  EXPECT_EQ(gs::format_double(std::nan("")), "nan");
  EXPECT_EQ(gs::format_double(-std::numeric_limits<double>::infinity()), "-inf");
}

TEST(SamplesFormat, JsonRoundTripIsBitExact) {
  const gs::SamplesFile f = awkward_file();
  const std::string text = gs::write_samples_json(f);
  const gs::SamplesFile back = gs::read_samples_json(text);
  expect_same(f, back, false);
  EXPECT_TRUE(std::signbit(back.animations[0].channels[0].values[2]));  // -0.0 kept
  EXPECT_EQ(gs::write_samples_json(back), text);  // write -> read -> write: same bytes
}

TEST(SamplesFormat, CsvRoundTripIsBitExact) {
  const gs::SamplesFile f = awkward_file();
  const std::string text = gs::write_samples_csv(f);
  const gs::SamplesFile back = gs::read_samples_csv(text);
  expect_same(f, back, true);
  EXPECT_TRUE(std::signbit(back.animations[0].channels[0].values[2]));
  EXPECT_EQ(gs::write_samples_csv(back), text);
}

TEST(SamplesFormat, JsonBytesAreTheDocumentedShape) {
  gs::SamplesFile f;
  f.asset = "a.gltf";
  f.generator = "gltf-anim 0.1.0";
  auto& a = f.animations.emplace_back();
  a.index = 0;
  a.name = "spin";
  auto& c = a.channels.emplace_back();
  c.index = 0;
  c.target = "/nodes/0/rotation";
  c.interpolation = "LINEAR";
  c.sampler = 0;
  c.keyframes = {0, 2};
  c.add_sample(0.5, {0.0, 0.0, 0.25, 1.0});
  c.add_sample(1.0, {0.1, -0.0, 1e-300, std::nan("")});
  const std::string expected =
      "{\n"
      "  \"asset\": \"a.gltf\",\n"
      "  \"generator\": \"gltf-anim 0.1.0\",\n"
      "  \"animations\": [\n"
      "    {\n"
      "      \"index\": 0,\n"
      "      \"name\": \"spin\",\n"
      "      \"channels\": [\n"
      "        {\n"
      "          \"index\": 0,\n"
      "          \"target\": \"/nodes/0/rotation\",\n"
      "          \"interpolation\": \"LINEAR\",\n"
      "          \"sampler\": 0,\n"
      "          \"keyframes\": [0, 2],\n"
      "          \"samples\": [\n"
      "            {\"t\": 0.5, \"value\": [0, 0, 0.25, 1]},\n"
      "            {\"t\": 1, \"value\": [0.1, -0, 1e-300, null]}\n"
      "          ]\n"
      "        }\n"
      "      ]\n"
      "    }\n"
      "  ]\n"
      "}\n";
  EXPECT_EQ(gs::write_samples_json(f), expected);
  const auto back = gs::read_samples_json(expected);
  EXPECT_TRUE(std::isnan(back.animations[0].channels[0].values[7]));
}

TEST(SamplesFormat, CsvBytesAreTheDocumentedShape) {
  gs::SamplesFile f;
  auto& a = f.animations.emplace_back();
  a.index = 1;
  auto& w = a.channels.emplace_back();
  w.index = 2;
  w.target = "/nodes/0/weights";
  w.add_sample(0, {0.5});
  auto& r = a.channels.emplace_back();
  r.index = 0;
  r.target = "/x/a,b\"c";
  r.add_sample(0.25, {1, 2, 3});
  EXPECT_EQ(gs::write_samples_csv(f),
            "animation,channel,target,t,v0,v1,v2\n"
            "1,2,/nodes/0/weights,0,0.5,,\n"
            "1,0,\"/x/a,b\"\"c\",0.25,1,2,3\n");
}

TEST(SamplesFormat, EmptyContainersRoundTrip) {
  gs::SamplesFile f;
  f.asset = "empty.gltf";
  EXPECT_EQ(gs::write_samples_json(f),
            "{\n  \"asset\": \"empty.gltf\",\n  \"generator\": \"\",\n  \"animations\": []\n}\n");
  f.animations.emplace_back().channels.emplace_back().target = "/nodes/0/scale";
  const auto back = gs::read_samples_json(gs::write_samples_json(f));
  ASSERT_EQ(back.animations.size(), 1u);
  ASSERT_EQ(back.animations[0].channels.size(), 1u);
  EXPECT_EQ(back.animations[0].channels[0].size(), 0u);
}

TEST(SamplesFormat, ReaderAcceptsImplementerVariations) {
  // Members in any order, unknown members (even deeply nested), integers for
  // t, no optional members, a BOM, CRLF line ends.
  const std::string text =
      "\xEF\xBB\xBF{\"animations\": [{\"channels\": [{\"samples\": [{\"value\": [1, 2.5, -3], "
      "\"t\": 2, \"extra\": {\"a\": [[[]]]}}], \"target\": \"/nodes/7/translation\"}],\r\n"
      "\"index\": 4, \"engine\": null}], \"asset\": \"x.glb\", \"meta\": [1, {\"b\": true}]}";
  const auto f = gs::read_samples_json(text);
  EXPECT_EQ(f.asset, "x.glb");
  EXPECT_EQ(f.generator, "");
  ASSERT_EQ(f.animations.size(), 1u);
  EXPECT_EQ(f.animations[0].index, 4u);
  const auto& c = f.animations[0].channels.at(0);
  EXPECT_EQ(c.index, 0u);  // position in the array
  EXPECT_EQ(c.target, "/nodes/7/translation");
  EXPECT_FALSE(c.sampler.has_value());
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c.times[0], 2.0);
  EXPECT_EQ(c.width, 3u);
  EXPECT_EQ(c.values, (std::vector<double>{1, 2.5, -3}));
}

TEST(SamplesFormat, AddSampleRejectsBadInput) {
  gs::SampledChannel c;
  c.add_sample(0, {1, 2});
  EXPECT_THROW(c.add_sample(1, {1, 2, 3}), std::invalid_argument);
  EXPECT_THROW(c.add_sample(std::numeric_limits<double>::infinity(), {1, 2}),
               std::invalid_argument);
  EXPECT_THROW(c.add_sample(2, std::span<const double>()), std::invalid_argument);
  EXPECT_EQ(c.size(), 1u);
}

TEST(SamplesFormat, FilesDispatchOnExtension) {
  const std::filesystem::path dir = gltf_anim_test::scratch_root() / "samples_files";
  std::filesystem::create_directories(dir);
  const gs::SamplesFile f = awkward_file();
  gs::write_samples_file(dir / "a.samples.json", f);
  gs::write_samples_file(dir / "a.CSV", f);
  std::ifstream csv(dir / "a.CSV");
  std::string first_line;
  std::getline(csv, first_line);
  EXPECT_EQ(first_line, "animation,channel,target,t,v0,v1,v2,v3");
  expect_same(f, gs::read_samples_file(dir / "a.samples.json"), false);
  expect_same(f, gs::read_samples_file(dir / "a.CSV"), true);
  try {
    gs::read_samples_file(dir / "missing.json");
    FAIL() << "no exception";
  } catch (const gs::SamplesFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("missing.json"), std::string::npos) << e.what();
  }
  // Files are streamed: a BOM is skipped, syntax errors still get line and column.
  std::ofstream(dir / "bom.json", std::ios::binary)
      << "\xEF\xBB\xBF{\"asset\": \"b\", \"animations\": []}";
  EXPECT_EQ(gs::read_samples_file(dir / "bom.json").asset, "b");
  std::ofstream(dir / "bad.json", std::ios::binary)
      << "\xEF\xBB\xBF{\"asset\": \"b\",\n\n   \"animations\": [}";
  try {
    gs::read_samples_file(dir / "bad.json");
    FAIL() << "no exception";
  } catch (const gs::SamplesFormatError& e) {
    EXPECT_EQ(e.location(), "line 3, column 19") << e.what();
  }
  gs::ReadOptions small;
  small.max_file_bytes = 100;
  try {
    gs::read_samples_file(dir / "a.samples.json", small);
    FAIL() << "no exception";
  } catch (const gs::SamplesFormatError& e) {
    EXPECT_NE(e.message().find("limit of 100"), std::string::npos) << e.what();
  }
}

TEST(SamplesFormat, RepeatedValuesAreWrittenLikeAnyOther) {
  // The writers copy the text of a value equal (same bits) to the previous one of its
  // column or of its sample: 0 and -0 must stay apart, NaN/inf are never copied.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  gs::SamplesFile f;
  auto& c = f.animations.emplace_back().channels.emplace_back();
  c.target = "/x";
  c.add_sample(0, {0.1, 0.1, 0.1});
  c.add_sample(1, {0.1, -0.0, 0.0});
  c.add_sample(2, {-0.0, 0.0, nan});
  c.add_sample(3, {inf, inf, 1e-300});
  c.add_sample(4, {1e-300, 1e-300, 1e-300});
  EXPECT_EQ(gs::write_samples_csv(f),
            "animation,channel,target,t,v0,v1,v2\n"
            "0,0,/x,0,0.1,0.1,0.1\n"
            "0,0,/x,1,0.1,-0,0\n"
            "0,0,/x,2,-0,0,nan\n"
            "0,0,/x,3,inf,inf,1e-300\n"
            "0,0,/x,4,1e-300,1e-300,1e-300\n");
  const std::string json = gs::write_samples_json(f);
  for (const char* row : {"{\"t\": 1, \"value\": [0.1, -0, 0]}", "{\"t\": 2, \"value\": [-0, 0, null]}",
                          "{\"t\": 3, \"value\": [null, null, 1e-300]}"}) {
    EXPECT_NE(json.find(row), std::string::npos) << row << "\n" << json;
  }
}

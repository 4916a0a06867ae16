// The named readings compare computes from a channel's keys (readings.hpp):
// each formula against values derived by hand (the derivation beside each row).
#include <gltf_anim/compare/readings.hpp>
#include <gltf_anim/reference/track.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include <string>
#include <vector>

namespace gc = gltf_anim::compare;
namespace gr = gltf_anim::reference;

namespace {

// A channel's keys as a reading is handed them: the track, and whether it animates weights.
struct Keys {
  gr::Track track;
  bool weights = false;
  gr::TrackView view() const { return track.view(); }
};
bool applies(const gc::NamedReading* r, const Keys& k) { return r->applies(k.view(), k.weights); }

struct Row {
  const char* reading;
  Keys keys;
  double t;
  std::vector<double> expected;
  const char* derivation;
};

Keys keys(std::vector<double> times, std::vector<double> values, std::size_t components,
                     const char* interpolation, bool weights = false) {
  Keys k;
  k.track.times = std::move(times);
  k.track.values = std::move(values);
  k.track.components = components;
  k.track.interpolation = *gr::parse_interpolation(interpolation);
  k.weights = weights;
  return k;
}

// One scalar CUBICSPLINE segment 0..2 s: key 0 (a 0, v 0, b 3), key 1 (a 0, v 6, b 0).
const Keys kCubic = keys({0, 2}, {0, 0, 3, 0, 6, 0}, 1, "CUBICSPLINE");
// translation_cubicspline's x values (0, 1, 1.5, 4 at 0, 1, 2, 3.5 s); the tangents are
// dropped by the reading, so any will do.
const Keys kFour =
    keys({0, 1, 2, 3.5}, {9, 0, 9, 9, 1, 9, 9, 1.5, 9, 9, 4, 9}, 1, "CUBICSPLINE");
// 0, 2, 1: key 1 is a local extreme.
const Keys kPeak = keys({0, 1, 2}, {0, 0, 5, 5, 2, 5, 5, 1, 0}, 1, "CUBICSPLINE");
const Keys kWeights = keys({0, 1}, {-1, 0.5, 1, 2}, 2, "LINEAR", true);
const Keys kStep = keys({0, 0.1}, {0, 3}, 1, "STEP");
// A LINEAR rotation fallback: identity at 0 s, 90 degrees about z at 1 s (x, y, z, w); the
// second key also stored negated, the same rotation in the other hemisphere.
Keys rotation_keys(std::vector<double> values) {
  Keys k = keys({0, 1}, std::move(values), 4, "LINEAR");
  k.track.kind = gr::ValueKind::kRotation;
  return k;
}
const double kR = 0.70710678118654752;  // sqrt(1/2)
const Keys kQuarterTurn = rotation_keys({0, 0, 0, 1, 0, 0, kR, kR});
const Keys kQuarterTurnNegated = rotation_keys({0, 0, 0, 1, 0, 0, -kR, -kR});
// nlerp at s = 0.25: p = (0, 0, 0.25 kR, 0.75 + 0.25 kR) = (0, 0, 0.1767767, 0.9267767),
// |p| = sqrt(0.03125 + 0.8589165) = 0.9434856, so (0, 0, 0.1873655, 0.9822905) (Blender
// 3.4 plays (0, 0, 0.187365545, 0.982290259) at 0.25 s on sqlerp_with_fallback, whose fallback
// turns 90 degrees about z in its first second); slerp would give (0, 0, sin(pi/16),
// cos(pi/16)) = (0, 0, 0.1950903, 0.9807853).
const double kNz = 0.25 * kR / std::sqrt(0.0625 * 0.5 + (0.75 + 0.25 * kR) * (0.75 + 0.25 * kR));
const double kNw =
    (0.75 + 0.25 * kR) / std::sqrt(0.0625 * 0.5 + (0.75 + 0.25 * kR) * (0.75 + 0.25 * kR));

const Row kRows[] = {
    {"cubic-bezier-unscaled-tangents",
     kCubic,
     1,
     {3.375},
     "s = 0.5; Bezier P = 0, 0 + 3/3 = 1, 6 - 0/3 = 6, 6: (0 + 3*1 + 3*6 + 6) / 8 = 27/8 "
     "(the spec, t_d = 2: 0.125*2*3 + 0.5*6 = 3.75)"},
    {"cubic-bezier-unscaled-tangents",
     kCubic,
     0.5,
     {1.359375},
     "s = 0.25: 3*0.75^2*0.25*1 + 3*0.75*0.25^2*6 + 0.25^3*6 = 0.421875 + 0.84375 + 0.09375"},
    {"cubic-bezier-unscaled-tangents", kCubic, -1, {0}, "before the first key: v_0"},
    {"cubic-bezier-unscaled-tangents", kCubic, 3, {6}, "after the last key: v_1"},
    {"weights-clamped-0-1", kWeights, 0.25, {0, 0.875}, "lerp: (-0.5, 0.875), clamped to [0, 1]"},
    {"weights-clamped-0-1", kWeights, 0.75, {0.5, 1}, "lerp: (0.5, 1.625), clamped to [0, 1]"},
    {"blender-auto-handles",
     kFour,
     2.375,
     {1.265625 + 0.140625 * 1.5 * 89.0 / 74.0 + 0.625},
     "m_0 = m_3 = 0 (ends); durations 1, 1, 1.5, chords 1, 0.5, 5/3: 4 m_1 + m_2 = 4.5 and "
     "1.5 m_1 + 5 m_2 = 7.25, so m_1 = 61/74, m_2 = 89/74 (1.2027, Blender's measured slope); "
     "s = 0.25, d = 1.5: 0.84375*1.5 + 0.140625*1.5*89/74 + 0.15625*4 = 2.14433"},
    {"blender-auto-handles",
     kFour,
     0.5,
     {0.5 * 0 + 0.5 * 1 - 0.125 * 1 * 61.0 / 74.0},
     "s = 0.5, d = 1: h00 0 + h10 m_0 (0) + h01*1 + h11*m_1 = 0.5 - 0.125*61/74"},
    {"blender-auto-handles",
     kPeak,
     0.5,
     {1},
     "every key flat (ends and the extreme at 1 s): 0.5*0 + 0.5*2"},
    {"bake-15fps-linear",
     kStep,
     0.1,
     {1.5},
     "bake samples 0 (0 s), 0 (1/15 s), 3 (2/15 s); 0.1 s is halfway between 1/15 and 2/15"},
    {"bake-15fps-linear", kStep, 0.05, {0}, "between the bake samples 0 and 1/15 s, both 0"},
    {"bake-15fps-linear", kStep, 1, {3}, "after the last bake sample (2/15 s): held"},
    {"no-extensions + nlerp",
     kQuarterTurn,
     0.25,
     {0, 0, kNz, kNw},
     "nlerp of the fallback's keys at s = 0.25 (derivation at kNz)"},
    {"no-extensions + nlerp",
     kQuarterTurn,
     0.5,
     {0, 0, std::sin(std::numbers::pi / 8), std::cos(std::numbers::pi / 8)},
     "at the midpoint nlerp and slerp agree: (0, 0, kR/2, 0.5 + kR/2) normalized is the half turn "
     "angle pi/8"},
    {"no-extensions + nlerp",
     kQuarterTurnNegated,
     0.25,
     {0, 0, kNz, kNw},
     "shortest path: the negated key (dot -kR < 0) is flipped back first, the same value"},
    {"no-extensions + nlerp", kQuarterTurn, -1, {0, 0, 0, 1}, "before the first key: held"},
    {"no-extensions + nlerp", kQuarterTurn, 2, {0, 0, kR, kR}, "after the last key: held"},
};

TEST(NamedReadings, HandDerivedValues) {
  for (const Row& row : kRows) {
    SCOPED_TRACE(std::string(row.reading) + " at t = " + std::to_string(row.t) + ": " + row.derivation);
    const gc::NamedReading* r = gc::find_named_reading(row.reading);
    ASSERT_NE(r, nullptr);
    ASSERT_TRUE(applies(r, row.keys));
    const auto v = r->value_at(row.keys.view(), row.t);
    ASSERT_EQ(v.size(), row.expected.size());
    for (std::size_t c = 0; c < v.size(); ++c) EXPECT_NEAR(v[c], row.expected[c], 1e-12) << "component " << c;
  }
}

TEST(NamedReadings, EachSaysItsFormulaTheRuleItBreaksAndWhereItWasSeen) {
  ASSERT_EQ(gc::named_readings().size(), 5u);
  for (const auto& r : gc::named_readings()) {
    // A divergence quotes the rule it breaks; an allowed reading breaks none.
    EXPECT_EQ(r.formula.find("breaks ") != std::string_view::npos, !r.allowed) << r.name;
    EXPECT_FALSE(r.seen_in.empty()) << r.name;
  }
  const gc::NamedReading* stacked = gc::find_named_reading("no-extensions + nlerp");
  ASSERT_NE(stacked, nullptr);
  EXPECT_TRUE(stacked->allowed);
  EXPECT_EQ(stacked->view, gc::ReadingView::kCoreFallback);
  EXPECT_EQ(gc::find_named_reading("no-such-reading"), nullptr);
}

TEST(NamedReadings, ApplyOnlyToTheChannelsTheyDescribe) {
  Keys rotation = keys({0, 1}, {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0,
                                           0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0}, 4, "CUBICSPLINE");
  rotation.track.kind = gr::ValueKind::kRotation;
  EXPECT_FALSE(applies(gc::find_named_reading("cubic-bezier-unscaled-tangents"), rotation));
  EXPECT_TRUE(applies(gc::find_named_reading("blender-auto-handles"), rotation));
  EXPECT_FALSE(applies(gc::find_named_reading("weights-clamped-0-1"), kCubic));
  EXPECT_FALSE(applies(gc::find_named_reading("blender-auto-handles"), kStep));
  Keys short_output = kCubic;
  short_output.track.values.pop_back();
  EXPECT_FALSE(applies(gc::find_named_reading("cubic-bezier-unscaled-tangents"), short_output));
  const gc::NamedReading* stacked = gc::find_named_reading("no-extensions + nlerp");
  EXPECT_TRUE(applies(stacked, kQuarterTurn));
  EXPECT_FALSE(applies(stacked, rotation));  // CUBICSPLINE
  Keys vector = kQuarterTurn;
  vector.track.kind = gr::ValueKind::kVector;
  EXPECT_FALSE(applies(stacked, vector));
}

}  // namespace

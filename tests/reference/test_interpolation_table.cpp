// The interpolation table (reference/interpolation.hpp) against the specs.
// Each row below is read from the spec text quoted beside it (glTF 2.0
// "Animations" and Appendix C; the EXT_animation_sqlerp and KHR_animation2
// drafts), not from the table: a table row that disagrees, or a mode with
// no row here, fails.
#include <gltf_anim/reference/interpolation.hpp>
#include <gltf_anim/reference/track.hpp>

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace gltf_anim::reference {
namespace {

struct SpecRow {
  const char* name;
  unsigned outputs_per_key;
  unsigned value_index;
  unsigned min_keys;
  bool rotation_only;
  const char* extension;
  const char* says;  // the spec sentences the row is read from
};

const std::vector<SpecRow>& spec_rows() {
  static const std::vector<SpecRow> rows{
      {"STEP", 1, 0, 1, false, "",
       "glTF 2.0 Animations: \"Supported interpolation values include LINEAR, STEP, and "
       "CUBICSPLINE\"; Appendix C Step: v_t = v_k (one value per key); accessor.count "
       "minimum 1."},
      {"LINEAR", 1, 0, 1, false, "",
       "Appendix C: LINEAR for a property that is not rotation (lerp), and for rotation "
       "(slerp of unit quaternions): one value per key; accessor.count minimum 1."},
      {"CUBICSPLINE", 3, 1, 2, false, "",
       "Appendix C Cubic Spline: \"An animation sampler that uses cubic spline interpolation "
       "MUST have at least 2 keyframes. For each timestamp stored in the animation sampler, "
       "there are three associated keyframe values: in-tangent, property value, and "
       "out-tangent.\""},
      {"CUBICSLERP", 3, 1, 2, true, "EXT_animation_sqlerp",
       "EXT_animation_sqlerp: \"This interpolation mode is only valid when targeting a "
       "rotation. The number of output elements must equal three times the number of input "
       "elements. For each input element, the output stores three elements, an in-tangent "
       "quaternion, a spline quaternion, and an out-tangent quaternion. There must be at "
       "least two keyframes when using this interpolation.\""},
      {"SLERP", 1, 0, 1, true, "KHR_animation2",
       "KHR_animation2: \"the explicit interpolation type SLERP for quaternions is "
       "introduced\"; its table marks SLERP for quat only; one value per key as LINEAR."},
  };
  return rows;
}

TEST(InterpolationTable, EveryModeIsAsItsSpecSays) {
  for (const SpecRow& row : spec_rows()) {
    SCOPED_TRACE(row.says);
    const InterpolationMode* mode = find_mode(row.name);
    ASSERT_NE(mode, nullptr) << row.name;
    EXPECT_EQ(mode->name, row.name);
    EXPECT_EQ(mode->outputs_per_key, row.outputs_per_key) << row.name;
    EXPECT_EQ(mode->value_index, row.value_index) << row.name;
    EXPECT_EQ(mode->min_keys, row.min_keys) << row.name;
    EXPECT_EQ(mode->rotation_only, row.rotation_only) << row.name;
    EXPECT_EQ(mode->extension, row.extension) << row.name;
  }
}

TEST(InterpolationTable, HasNoModeTheSpecsDoNotName) {
  std::set<std::string> spec_names;
  for (const SpecRow& row : spec_rows()) spec_names.insert(row.name);
  std::set<std::string> names;
  for (const InterpolationMode& mode : kInterpolationModes) {
    EXPECT_TRUE(spec_names.count(std::string(mode.name))) << mode.name;
    EXPECT_TRUE(names.insert(std::string(mode.name)).second) << "twice: " << mode.name;
  }
  EXPECT_EQ(names.size(), spec_names.size());
}

TEST(InterpolationTable, EveryEnumeratorHasItsOwnRow) {
  const Interpolation all[] = {Interpolation::kStep, Interpolation::kLinear,
                               Interpolation::kCubicSpline, Interpolation::kCubicSlerp,
                               Interpolation::kSlerp};
  std::set<std::string_view> seen;
  for (const Interpolation i : all) {
    EXPECT_EQ(mode_of(i).interpolation, i);
    EXPECT_TRUE(seen.insert(interpolation_name(i)).second);
    EXPECT_EQ(parse_interpolation(interpolation_name(i)), i);
  }
  EXPECT_EQ(seen.size(), kInterpolationModes.size());
  EXPECT_FALSE(parse_interpolation("cubicspline").has_value());  // glTF spells it upper case
}

// The track layout the sampler reads follows the rows: keys of outputs_per_key
// quaternions, the value the value_index-th; the minimum keys and rotation-only
// refusals of reference::validate as the spec rows say.
TEST(InterpolationTable, TrackLayoutFollowsTheRows) {
  for (const SpecRow& row : spec_rows()) {
    SCOPED_TRACE(row.name);
    const Interpolation i = *parse_interpolation(row.name);
    const std::vector<double> times{0, 1};
    std::vector<double> values;
    // Two keys of outputs_per_key identity quaternions each.
    for (unsigned e = 0; e < 2 * row.outputs_per_key; ++e)
      values.insert(values.end(), {0, 0, 0, 1});
    TrackView track{times, values, 4, i, ValueKind::kRotation};
    EXPECT_EQ(track.values_per_keyframe(), row.outputs_per_key);
    EXPECT_EQ(validate(track), "");
    // The value of key 1 starts at element (outputs_per_key + value_index) x 4.
    EXPECT_EQ(track.value(1).data(), values.data() + (row.outputs_per_key + row.value_index) * 4);
    // Too few keys: one key is refused exactly when the spec asks for two.
    TrackView one{std::span<const double>(times).first(1),
                  std::span<const double>(values).first(row.outputs_per_key * 4), 4, i,
                  ValueKind::kRotation};
    EXPECT_EQ(validate(one).empty(), row.min_keys <= 1) << validate(one);
    // Rotation only: a 4-component vector track is refused by exactly those modes.
    TrackView vector{times, values, 4, i, ValueKind::kVector};
    EXPECT_EQ(validate(vector).empty(), !row.rotation_only) << validate(vector);
  }
}

}  // namespace
}  // namespace gltf_anim::reference

#pragma once
// `gltf-anim fix`: repairs keyed by the validator issue codes they answer
// (docs/TOOLS.md "fix"), run through the common tool pipeline (tool.hpp).
// Each repair says what it changes in playback:
//   ACCESSOR_ANIMATION_INPUT_NON_INCREASING    keys whose time is not greater than the
//       last kept key's are dropped; at a repeated time the last key's value is kept
//       (it replaces the earlier one). Non-finite times are dropped.
//   ACCESSOR_ANIMATION_SAMPLER_OUTPUT_NON_NORMALIZED_QUATERNION
//       rotation key values whose length is off 1 by more than the validator's
//       tolerance are divided by their length (a zero quaternion: not fixable).
//   LINT_ROTATION_NEGATIVE_DOT                 LINEAR rotation keys negated so that
//       each has a non-negative dot with the (patched) key before: no change for a
//       player with Appendix C's shortest path, the short way for one without.
//   LINT_CUBICSPLINE_NONZERO_END_TANGENT, EXT_ANIMATION_SQLERP_NONZERO_END_TANGENT
//       the first in-tangent and the last out-tangent set to zero: unused by the
//       spec's formulas, no change in playback.
//   ACCESSOR_MIN_MISMATCH, ACCESSOR_MAX_MISMATCH, ACCESSOR_ELEMENT_OUT_OF_MIN_BOUND,
//   ACCESSOR_ELEMENT_OUT_OF_MAX_BOUND, ANIMATION_SAMPLER_INPUT_ACCESSOR_WITHOUT_BOUNDS
//       min and max recomputed from the data: no change in playback.
// Reported as not fixable (the data does not say what was meant):
//   ANIMATION_SAMPLER_OUTPUT_ACCESSOR_INVALID_COUNT, EXT_ANIMATION_SQLERP_INVALID_OUTPUT_COUNT,
//   and UNRESOLVED_REFERENCE under /animations (a dangling sampler or accessor).
#include <gltf_anim/repair/tool.hpp>

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace gltf_anim::repair {

// Every code fix repairs, in the order above.
extern const std::vector<gltf::IssueCode> kFixCodes;
// Codes fix reports as not fixable (and UNRESOLVED_REFERENCE under /animations).
extern const std::vector<gltf::IssueCode> kUnfixableCodes;

struct FixOptions {
  // Only these repairs (codes of kFixCodes); nullopt: all; empty: none (the
  // asset written back as it was read).
  std::optional<std::vector<gltf::IssueCode>> only;
};

// The fix tool for edit_asset (and the CLI's run_tool around it).
Tool fix_tool(const FixOptions& options);

}  // namespace gltf_anim::repair

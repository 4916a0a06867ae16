#pragma once
// The repair tools as library functions: each gives the repair::Tool that edit_asset
// (repair/tool.hpp) runs, in memory, built from the tool's options alone. The CLI (cli/cmd_*.cpp) only
// parses its command line into these options; a test, a web page or another program runs
// the same tool with the same results. fix_tool is in repair/fix.hpp.
#include <gltf_anim/repair/fix.hpp>
#include <gltf_anim/repair/fit.hpp>
#include <gltf_anim/repair/migrate.hpp>
#include <gltf_anim/repair/reduce.hpp>
#include <gltf_anim/repair/tool.hpp>

namespace gltf_anim::repair {

// gltf-anim reduce: every group of channels that share a time accessor reduced by
// reduce_tracks (docs/TOOLS.md, "reduce").
Tool reduce_tool(const ReduceOptions& options);

// gltf-anim fit: LINEAR channels to CUBICSLERP (EXT_animation_sqlerp) or CUBICSPLINE under
// a bound (fit_track), with the key ratio against a bounded LINEAR reduction and the
// velocity jumps before and after in each channel's notes.
struct FitToolOptions {
  FitMode mode = FitMode::kCubicSpline;
  FitBound bound;
  bool fallback = true;  // CUBICSLERP: keep the LINEAR sampler as the channel's fallback
};
Tool fit_tool(const FitToolOptions& options);

// gltf-anim migrate: channels between KHR_animation2 and KHR_animation_pointer
// (migrate_channels), one summary per channel of the other extension.
Tool migrate_tool(PointerExtension to);

}  // namespace gltf_anim::repair

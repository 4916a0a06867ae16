// gltf-anim fit: LINEAR channels to CUBICSLERP (EXT_animation_sqlerp) or CUBICSPLINE under a
// bound. The tool is repair::fit_tool (repair/tools.hpp); this file parses its command line.
#include <gltf_anim/repair/tools.hpp>

#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "repair_command.hpp"

namespace gltf_anim::cli {

int run_fit(const std::vector<std::string>& args) {
  static constexpr CommandHelp kHelp{
      "fit",
      "gltf-anim fit IN -o OUT --to cubicslerp|cubicspline --max-error E [--max-angle A] "
      "[--no-fallback] [--dry-run] [--format json]",
      "Replaces LINEAR channels by cubic ones within a bound of the original playback: LINEAR\n"
      "rotations by CUBICSLERP (EXT_animation_sqlerp, modified-SQUAD control points; the LINEAR\n"
      "sampler stays as the fallback unless --no-fallback), or LINEAR tracks by CUBICSPLINE.\n"
      "Every component stays within E, a rotation within A radians (default 2E), checked at\n"
      "every key and inside every segment. Each channel's report gives the keys kept against\n"
      "those `reduce` keeps as LINEAR (a cubic saves bytes only below 38.5% of them for a\n"
      "rotation) and the largest velocity jump at a key before and after (docs/TOOLS.md).",
      "gltf-anim fit walk.glb -o smooth.glb --to cubicslerp --max-error 1e-3"};
  po::options_description options("Options");
  add_tool_options(options);
  options.add_options()("to", po::value<std::string>(), "cubicslerp or cubicspline")(
      "max-error", po::value<std::string>(), "E: the largest change of any component")(
      "max-angle", po::value<std::string>(), "A: the largest change of a rotation, radians (2E)")(
      "no-fallback", po::bool_switch(), "cubicslerp: no LINEAR fallback (the extension required)");
  int exit_code = kExitOk;
  const auto vm = parse_command_line(kHelp, options, tool_positional(), args, exit_code);
  if (!vm) return exit_code;
  std::optional<repair::ToolOptions> tool_opts = tool_options(*vm, kHelp);
  if (!tool_opts) return kExitUsage;
  repair::FitToolOptions request;
  const std::string to = vm->count("to") ? (*vm)["to"].as<std::string>() : "";
  if (to == "cubicslerp") {
    request.mode = repair::FitMode::kCubicSlerp;
  } else if (to != "cubicspline") {
    std::cerr << "gltf-anim fit: --to must be cubicslerp or cubicspline\n";
    return kExitUsage;
  }
  std::optional<double> e, a;
  const double big = std::numeric_limits<double>::max();
  if (!number_option(*vm, kHelp, "max-error", 0.0, big, false, e)) return kExitUsage;
  if (!number_option(*vm, kHelp, "max-angle", 0.0, big, false, a)) return kExitUsage;
  if (!e) {
    std::cerr << "gltf-anim fit: --max-error E is required\n";
    return kExitUsage;
  }
  request.bound = {*e, a ? *a : 2.0 * *e};
  request.fallback = !(*vm)["no-fallback"].as<bool>();
  return run_repair_tool(repair::fit_tool(request), *tool_opts, kHelp);
}

}  // namespace gltf_anim::cli

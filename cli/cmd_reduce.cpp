// gltf-anim reduce: keyframe reduction under a guaranteed bound (docs/TOOLS.md, "reduce").
// The tool is repair::reduce_tool (repair/tools.hpp); this file parses its command line.
#include <gltf_anim/repair/tools.hpp>

#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "commands.hpp"
#include "repair_command.hpp"

namespace gltf_anim::cli {

int run_reduce(const std::vector<std::string>& args) {
  static constexpr CommandHelp kHelp{
      "reduce",
      "gltf-anim reduce IN -o OUT --max-error E [--max-angle A] [--quantize] [--dry-run] "
      "[--format text|json]",
      "Removes keyframes while the animation stays within a bound over its whole time range:\n"
      "every component of translation, scale, weights and KHR_animation_pointer values within\n"
      "E, every rotation within the angle A (radians, default 2E). Checked against the\n"
      "original with the reference evaluator at every key and densely inside every segment.\n"
      "STEP, LINEAR and CUBICSPLINE (with the kept keys' own tangents); channels constant\n"
      "within the bound collapse to one value; channels that share a time accessor are\n"
      "reduced together and keep sharing it, or each alone when that stores fewer bytes\n"
      "(--keep-shared-times: always together); samplers' accessors of equal contents are\n"
      "written once. --quantize stores rotations and weights as\n"
      "normalized integers where the rounding fits in half the bound (counted in the error).\n"
      "The output is validated and refused (exit 2) if it has an error the input has not;\n"
      "the input is never overwritten without --in-place. Exit 1: the input has errors\n"
      "(--force to reduce anyway).",
      "gltf-anim reduce Fox.glb -o Fox.reduced.glb --max-error 1e-4\n"
      "  gltf-anim reduce scene.gltf -o small/scene.gltf --max-error 1e-3 --quantize --format "
      "json"};
  po::options_description options("Options");
  add_tool_options(options);
  options.add_options()("max-error", po::value<std::string>(),
                        "E: largest component error (required, >= 0)")(
      "max-angle", po::value<std::string>(), "A: largest rotation angle, radians (default 2E)")(
      "quantize", po::bool_switch(),
      "rotations and weights as normalized integers, within the bound")(
      "keep-shared-times", po::bool_switch(),
      "channels sharing a time accessor keep sharing it, even where splitting is smaller");
  int exit_code = kExitOk;
  const auto vm = parse_command_line(kHelp, options, tool_positional(), args, exit_code);
  if (!vm) return exit_code;
  const std::optional<repair::ToolOptions> tool_opts = tool_options(*vm, kHelp);
  if (!tool_opts) return kExitUsage;
  std::optional<double> max_error, max_angle;
  if (!number_option(*vm, kHelp, "max-error", 0.0, 1e300, false, max_error)) return kExitUsage;
  if (!number_option(*vm, kHelp, "max-angle", 0.0, 1e300, false, max_angle)) return kExitUsage;
  if (!max_error) {
    std::cerr << "gltf-anim reduce: --max-error is required (gltf-anim reduce --help)\n";
    return kExitUsage;
  }
  repair::ReduceOptions reduce;
  reduce.bounds = repair::ReduceBounds::from_max_error(*max_error, max_angle);
  reduce.quantize = (*vm)["quantize"].as<bool>();
  if ((*vm)["keep-shared-times"].as<bool>()) reduce.shared_times = repair::SharedTimes::kKeep;

  return run_repair_tool(repair::reduce_tool(reduce), *tool_opts, kHelp);
}

}  // namespace gltf_anim::cli

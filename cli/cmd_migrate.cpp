// gltf-anim migrate: animation channels between KHR_animation2 (draft) and
// KHR_animation_pointer. The tool is repair::migrate_tool (repair/tools.hpp); this file
// parses its command line.
#include <gltf_anim/repair/tools.hpp>

#include <iostream>
#include <string>

#include "commands.hpp"
#include "repair_command.hpp"

namespace gltf_anim::cli {

int run_migrate(const std::vector<std::string>& args) {
  static constexpr CommandHelp kHelp{
      "migrate",
      "gltf-anim migrate IN -o OUT --to khr_animation_pointer|khr_animation2 [--dry-run] "
      "[--format json]",
      "Moves animation channels between the KHR_animation2 draft (targetpointer, SLERP) and\n"
      "KHR_animation_pointer, so that every channel plays the same: a SLERP quaternion sampler\n"
      "becomes LINEAR and back. A channel the other extension cannot express (one component of\n"
      "a vector, extras, a CUBICSPLINE quaternion, ...) stays as it is and the report says why.\n"
      "extensionsUsed/extensionsRequired lose the old name only when nothing uses it any more.\n"
      "The output is validated before it is written (docs/TOOLS.md).",
      "gltf-anim migrate draft.gltf -o pointer.gltf --to khr_animation_pointer"};
  po::options_description options("Options");
  add_tool_options(options);
  options.add_options()("to", po::value<std::string>(),
                        "khr_animation_pointer or khr_animation2: the extension to migrate to");
  int exit_code = kExitOk;
  const auto vm = parse_command_line(kHelp, options, tool_positional(), args, exit_code);
  if (!vm) return exit_code;
  std::optional<repair::ToolOptions> tool_opts = tool_options(*vm, kHelp);
  if (!tool_opts) return kExitUsage;
  const std::optional<repair::PointerExtension> to =
      vm->count("to") ? repair::parse_pointer_extension((*vm)["to"].as<std::string>())
                      : std::nullopt;
  if (!to) {
    std::cerr << "gltf-anim migrate: --to must be khr_animation_pointer or khr_animation2\n";
    return kExitUsage;
  }
  return run_repair_tool(repair::migrate_tool(*to), *tool_opts, kHelp);
}

}  // namespace gltf_anim::cli

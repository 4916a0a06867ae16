// gltf-anim fix: repairs an asset's animation data, keyed by the validator
// issue codes they answer (repair/fix.hpp), through the repair tools' common
// pipeline (repair/tool.hpp; docs/TOOLS.md).
#include <gltf_anim/repair/fix.hpp>
#include <gltf_anim/text/escape.hpp>

#include <algorithm>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "repair_command.hpp"

namespace gltf_anim::cli {

int run_fix(const std::vector<std::string>& args) {
  static const std::string kCodes = [] {
    std::string list;
    for (const gltf::IssueCode c : repair::kFixCodes) list += "  " + std::string(c.name()) + "\n";
    return list;
  }();
  static const std::string kSummary =
      "Repairs the animation data of IN (.gltf with its .bin or data URIs, or .glb) and writes\n"
      "OUT; everything it does not repair is kept byte for byte. Repairs, by the issue code\n"
      "they answer (default: all; --only CODE,... some; --only none rewrites IN unchanged):\n" +
      kCodes +
      "Output counts that do not match and dangling references are reported as not fixable.\n"
      "The output is validated before it is written and refused (exit 2) when it has an\n"
      "error the input has not. An input with errors fix does not repair stops with exit 1\n"
      "unless --force. IN is never replaced unless --in-place (then atomically); a changed\n"
      "external buffer is written beside OUT as OUT's name with .bin. --dry-run writes\n"
      "nothing. The report (text, or --format json: docs/TOOLS.md) goes to standard output.\n"
      "Exit codes: 0 written (or would be); 1 the input has errors fix does not repair; 2\n"
      "usage, I/O, or the output refused.";
  static const CommandHelp kHelp{
      "fix",
      "gltf-anim fix IN -o OUT [--only CODE,...|none] [--dry-run] [--format text|json]\n"
      "                        [--in-place] [--force]",
      kSummary.c_str(), "gltf-anim fix broken.gltf -o fixed.gltf --format json"};
  po::options_description options("Options");
  add_tool_options(options);
  options.add_options()("only", po::value<std::string>(),
                        "only these repairs (issue codes, comma-separated), or none");
  int exit_code = kExitOk;
  const auto vm = parse_command_line(kHelp, options, tool_positional(), args, exit_code);
  if (!vm) return exit_code;
  const std::optional<repair::ToolOptions> tool = tool_options(*vm, kHelp);
  if (!tool) return kExitUsage;

  repair::FixOptions fix;
  if (vm->count("only")) {
    const std::string only = (*vm)["only"].as<std::string>();
    fix.only.emplace();
    if (only != "none") {
      std::size_t start = 0;
      while (start <= only.size()) {
        const std::size_t comma = std::min(only.find(',', start), only.size());
        const std::string code = only.substr(start, comma - start);
        const auto fixed = std::find_if(repair::kFixCodes.begin(), repair::kFixCodes.end(),
                                        [&](gltf::IssueCode c) { return c.name() == code; });
        if (fixed == repair::kFixCodes.end()) {
          std::cerr << "gltf-anim fix: --only: '" << text::visible_text(code)
                    << "' is not a code fix repairs (gltf-anim fix --help lists them)\n";
          return kExitUsage;
        }
        fix.only->push_back(*fixed);
        start = comma + 1;
      }
    }
  }
  return run_repair_tool(repair::fix_tool(fix), *tool, kHelp);
}

}  // namespace gltf_anim::cli

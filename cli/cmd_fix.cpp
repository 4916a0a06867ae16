// gltf-anim fix: repairs an asset's animation data, keyed by the validator
// issue codes they answer (repair/fix.hpp), through the repair tools' common
// pipeline (repair/tool.hpp; docs/TOOLS.md).
#include <gltf_anim/repair/fix.hpp>
#include <gltf_anim/text/escape.hpp>

#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "commands.hpp"

namespace gltf_anim::cli {

int run_fix(const std::vector<std::string>& args) {
  static const std::string kCodes = [] {
    std::string list;
    for (const std::string_view c : repair::kFixCodes) list += "  " + std::string(c) + "\n";
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
  options.add_options()("input", po::value<std::string>()->required(), "the .gltf or .glb file")(
      "output,o", po::value<std::string>(), "where the repaired asset goes")(
      "only", po::value<std::string>(),
      "only these repairs (issue codes, comma-separated), or none")(
      "dry-run", "report what would change, write nothing")(
      "format", po::value<std::string>()->default_value("text"), "text or json")(
      "in-place", "replace IN (atomically)")("force", "repair an input with other errors too");
  po::positional_options_description positional;
  positional.add("input", 1);
  int exit_code = kExitOk;
  const auto vm = parse_command_line(kHelp, options, positional, args, exit_code);
  if (!vm) return exit_code;

  repair::FixOptions fix;
  if (vm->count("only")) {
    const std::string only = (*vm)["only"].as<std::string>();
    fix.only.emplace();
    if (only != "none") {
      std::size_t start = 0;
      while (start <= only.size()) {
        const std::size_t comma = std::min(only.find(',', start), only.size());
        const std::string code = only.substr(start, comma - start);
        if (std::find(repair::kFixCodes.begin(), repair::kFixCodes.end(), code) ==
            repair::kFixCodes.end()) {
          std::cerr << "gltf-anim fix: --only: '" << text::visible_text(code)
                    << "' is not a code fix repairs (gltf-anim fix --help lists them)\n";
          return kExitUsage;
        }
        fix.only->insert(code);
        start = comma + 1;
      }
    }
  }
  repair::ToolOptions tool;
  tool.input = (*vm)["input"].as<std::string>();
  if (vm->count("output")) tool.output = (*vm)["output"].as<std::string>();
  tool.dry_run = vm->count("dry-run") != 0;
  tool.in_place = vm->count("in-place") != 0;
  tool.force = vm->count("force") != 0;
  const std::string format = (*vm)["format"].as<std::string>();
  if (format != "text" && format != "json") {
    std::cerr << "gltf-anim fix: unknown --format '" << text::visible_text(format)
              << "' (text or json)\n";
    return kExitUsage;
  }
  tool.format = format == "json" ? repair::ReportFormat::kJson : repair::ReportFormat::kText;
  const repair::ToolReport report = repair::run_tool(repair::fix_tool(fix), tool);
  repair::write_report(report, tool.format, std::cout);
  if (report.exit_code != 0) {
    std::cerr << "gltf-anim fix: " << text::visible_text(report.message) << "\n";
  }
  return report.exit_code;
}

}  // namespace gltf_anim::cli

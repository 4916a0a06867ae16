// The shared command line of the repair tools (repair_command.hpp).
#include "repair_command.hpp"
#include "tool_files.hpp"

#include <gltf_anim/text/escape.hpp>

#include <iostream>
#include <optional>
#include <string>

namespace gltf_anim::cli {

void add_tool_options(po::options_description& options) {
  options.add_options()("input", po::value<std::string>(), "the asset (.gltf or .glb)")(
      "output,o", po::value<std::string>(), "where the edited asset goes")(
      "in-place", po::bool_switch(), "replace the input (atomically)")(
      "dry-run", po::bool_switch(), "report what would change, write nothing")(
      "force", po::bool_switch(), "edit an input that has validation errors")(
      "format", po::value<std::string>()->default_value("text"), "the report: text or json");
}

po::positional_options_description tool_positional() {
  po::positional_options_description positional;
  positional.add("input", 1);
  return positional;
}

std::optional<repair::ToolOptions> tool_options(const po::variables_map& vm,
                                                const CommandHelp& help) {
  repair::ToolOptions options;
  if (!vm.count("input")) {
    std::cerr << "gltf-anim " << help.name << ": no input asset\nusage: " << help.usage << "\n";
    return std::nullopt;
  }
  options.input = vm["input"].as<std::string>();
  if (vm.count("output")) options.output = vm["output"].as<std::string>();
  options.in_place = vm["in-place"].as<bool>();
  options.dry_run = vm["dry-run"].as<bool>();
  options.force = vm["force"].as<bool>();
  const std::string format = vm["format"].as<std::string>();
  if (format != "text" && format != "json") {
    std::cerr << "gltf-anim " << help.name << ": unknown --format '" << text::visible_text(format)
              << "' (text or json)\n";
    return std::nullopt;
  }
  options.format = format == "json" ? repair::ReportFormat::kJson : repair::ReportFormat::kText;
  return options;
}

int run_repair_tool(const repair::Tool& tool, const repair::ToolOptions& options,
                    const CommandHelp& help) {
  CommandOutput out(help, std::nullopt);
  // The report of a written output goes to standard output before the output is put in
  // place: standard output failing (a full disk, a closed pipe) is exit 2 with nothing
  // written, never exit 2 after the output was written.
  repair::ToolOptions with_report = options;
  std::optional<int> delivered;  // finish()'s result, once the report went out that way
  with_report.deliver = [&](const repair::ToolReport& ready) {
    repair::write_report(ready, options.format, out.stream());
    delivered = out.finish(ready.exit_code);
    return *delivered == kExitOk;
  };
  const repair::ToolReport report = run_tool(tool, with_report);
  if (delivered) {
    // Written, or dropped because the report could not go out (finish() said why), or a
    // rename failed after the report went out.
    if (report.exit_code != 0 && !report.message.empty()) {
      std::cerr << "gltf-anim " << help.name << ": " << text::visible_text(report.message) << "\n";
    }
    return *delivered != kExitOk ? kExitUsage : report.exit_code;
  }
  repair::write_report(report, options.format, out.stream());
  // The reason also goes to standard error, where a CI log shows it beside the exit code.
  if (report.exit_code != 0 && !report.message.empty()) {
    std::cerr << "gltf-anim " << help.name << ": " << text::visible_text(report.message) << "\n";
  }
  return out.finish(report.exit_code);
}

}  // namespace gltf_anim::cli

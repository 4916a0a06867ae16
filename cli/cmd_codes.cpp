// gltf-anim codes: the issue-code registry as text, Markdown or JSON.
// docs/ISSUE_CODES.md is this command's Markdown output, checked by a test; the
// page and the npm package read the JSON (data, not a document to parse).
#include <gltf_anim/gltf/issue.hpp>
#include <gltf_anim/gltf/issue_collector.hpp>
#include <gltf_anim/validator/validate.hpp>

#include <iostream>
#include <string>

#include "cli_common.hpp"
#include "commands.hpp"

namespace gltf_anim::cli {
namespace {

using gltf::issue_types;
using gltf::IssueType;

// The severity column is what a run reports by default: a lint at most as
// information (the default lint policy), as the reports print it.
void write_text(std::ostream& out) {
  const gltf::LintPolicy by_default;
  for (const IssueType& t : issue_types()) {
    out << t.code << "\t" << gltf::severity_name(by_default.severity(t)) << "\t"
        << gltf::phase_name(t.phase) << "\t" << t.message << "\n";
  }
}

}  // namespace

int run_codes(const std::vector<std::string>& args) {
  static constexpr CommandHelp kHelp{
      "codes", "gltf-anim codes [--format text|md|json]",
      "Lists every issue code the validator can report, with the severity a run reports\n"
      "by default (lints at most Information: --lints warning keeps their own),\n"
      "message template, the rule it checks and the spec text it enforces.",
      "gltf-anim codes --format md > docs/ISSUE_CODES.md"};
  po::options_description options("Options");
  options.add_options()("format", po::value<std::string>()->default_value("text"),
                        "text (tab-separated), md (Markdown tables) or json (one object,\n"
                        "for programs: each code's fields)");
  int exit_code = kExitOk;
  const auto vm = parse_command_line(kHelp, options, {}, args, exit_code);
  if (!vm) return exit_code;
  const std::string format = (*vm)["format"].as<std::string>();
  if (format != "md" && format != "text" && format != "json") {
    std::cerr << "gltf-anim codes: unknown --format '" << format << "' (text, md or json)\n";
    return kExitUsage;
  }
  CommandOutput out(kHelp, std::nullopt);
  if (format == "md") out.stream() << validator::issue_codes_markdown();
  else if (format == "json") out.stream() << validator::issue_codes_json();
  else write_text(out.stream());
  return out.finish(kExitOk);
}

}  // namespace gltf_anim::cli

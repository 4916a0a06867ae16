// gltf-anim codes: the issue-code registry as text, Markdown or JSON.
// docs/ISSUE_CODES.md is this command's Markdown output, checked by a test; the
// page and the npm package read the JSON (data, not a document to parse).
#include <gltf_anim/gltf/issue.hpp>
#include <gltf_anim/gltf/issue_collector.hpp>
#include <gltf_anim/text/escape.hpp>
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

// One object: {"codes": [{code, severity, severityName, declaredSeverity, phase, optIn,
// message, rule, spec, anchor}, ...]} in registry order. `severity` is what a run reports
// by default (as the other formats); `declaredSeverity` the code's own, which
// `--lints warning` keeps for a lint. `message` is the template: {0}, {1}, ... are the
// arguments a report's message fills in.
void write_json(std::ostream& out) {
  const gltf::LintPolicy by_default;
  std::string json = "{\"codes\": [";
  bool first = true;
  const auto field = [&json](std::string_view key, std::string_view value) {
    json += ", \"";
    json += key;
    json += "\": ";
    text::append_json_string(json, value);
  };
  for (const IssueType& t : issue_types()) {
    const gltf::Severity reported = by_default.severity(t);
    json += first ? "\n  {\"code\": " : ",\n  {\"code\": ";
    first = false;
    text::append_json_string(json, t.code);
    json += ", \"severity\": " + std::to_string(static_cast<int>(reported));
    field("severityName", gltf::severity_name(reported));
    json += ", \"declaredSeverity\": " + std::to_string(static_cast<int>(t.severity));
    field("phase", gltf::phase_name(t.phase));
    json += t.enablement == gltf::Enablement::kOptIn ? ", \"optIn\": true" : ", \"optIn\": false";
    field("message", t.message);
    field("rule", t.rule);
    field("spec", t.spec);
    field("anchor", validator::issue_code_anchor(t.code));
    json += "}";
  }
  json += "\n]}\n";
  out << json;
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
  else if (format == "json") write_json(out.stream());
  else write_text(out.stream());
  return out.finish(kExitOk);
}

}  // namespace gltf_anim::cli

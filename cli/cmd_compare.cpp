// gltf-anim compare: golden samples against an implementation's samples, as a
// conformance report (text, json, md, junit, html). docs/CONFORMANCE.md.
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/reports/compare_report.hpp>

#include <cmath>
#include <cstdint>
#include <optional>
#include <iostream>
#include <sstream>
#include <string>

#include "cli_common.hpp"
#include "commands.hpp"

namespace gltf_anim::cli {
namespace {

// "FILE: at JSON pointer "/a/0": message" / "FILE: line 3, field 2: message".
std::string describe(const samples::SamplesFormatError& e) {
  std::string out = e.file().empty() ? std::string() : e.file() + ": ";
  if (!e.location().empty()) {
    if (e.location().front() == '/') out += "at JSON pointer \"" + e.location() + "\": ";
    else out += e.location() + ": ";
  }
  return out + e.message();
}

// Ranges of the numeric options: tolerances up to 10^300 (finite), the time
// epsilon relative (at most 1), files up to 1 TiB.
constexpr double kMaxTolerance = 1e300;
constexpr double kMaxTimeEpsilon = 1.0;
constexpr std::uint64_t kMaxFileMbOption = std::uint64_t{1} << 20;

std::string default_time_epsilon() {
  std::ostringstream s;
  s << compare::kDefaultTimeEpsilon;
  return s.str();
}

}  // namespace

int run_compare(const std::vector<std::string>& args) {
  static constexpr CommandHelp kHelp{
      "compare",
      "gltf-anim compare --golden PATH --actual PATH [--format text|json|md|junit|html]\n"
      "                         [--output FILE] [--tolerance X] [--angle-tolerance RAD]",
      "Compares golden samples (gltf-anim sample) with an implementation's samples of the\n"
      "same assets and reports, per asset, pass/fail, max and mean error, the worst time\n"
      "and channel, and the features and spec clauses from conformance_assets/manifest.json.\n"
      "PATH is a samples file (.json or .csv) or a folder of them; actual files are matched\n"
      "to golden ones by \"asset\", else by file name. Samples match by (animation, target, t).\n"
      "Vectors and scalars: largest absolute component difference; rotations: the angle\n"
      "between the rotations (q and -q are equal). Missing channels or samples fail.\n"
      "Tolerances come from the manifest (tolerance, angleTolerance), else 1e-05 and\n"
      "1e-05 rad; the options override both. The manifest is --manifest FILE, else the\n"
      "manifest.json in the golden folder (or beside the golden file), never one above.\n"
      "Its samples paths must stay inside its folder (relative, no '..', no symlink out).\n"
      "A case whose golden file holds no sample (e.g. the --no-extensions view of an asset\n"
      "animated only through extensions) is reported as \"nothing compared\": not a pass,\n"
      "not a failure.\n"
      "Exit codes: 0 no case fails, 1 a case fails, 2 usage error or unreadable/malformed file.",
      "gltf-anim compare --golden conformance_assets --actual my-engine-samples --format html "
      "--output report.html"};
  po::options_description options("Options");
  options.add_options()
      ("golden", po::value<std::string>()->required(), "golden samples file or folder")
      ("actual", po::value<std::string>()->required(), "actual samples file or folder")
      ("manifest", po::value<std::string>(), "the suite's manifest.json (default: the one in the golden folder)")
      ("format", po::value<std::string>()->default_value("text"), "text, json, md, junit or html")
      ("output,o", po::value<std::string>(), "write the report to FILE (default: stdout)")
      ("tolerance", po::value<std::string>(), "absolute tolerance per component, >= 0 (overrides the manifest)")
      ("angle-tolerance", po::value<std::string>(), "rotation tolerance in radians, >= 0 (overrides the manifest)")
      ("time-epsilon", po::value<std::string>()->default_value(default_time_epsilon()),
       "relative epsilon for matching sample times, 0 to 1")
      ("max-file-mb", po::value<std::string>()->default_value("4096"),
       "refuse samples files larger than this many MiB (1 to 1048576)");
  int exit_code = kExitOk;
  const auto vm = parse_command_line(kHelp, options, {}, args, exit_code);
  if (!vm) return exit_code;

  const std::string format = (*vm)["format"].as<std::string>();
  if (format != "text" && format != "json" && format != "md" && format != "junit" &&
      format != "html") {
    std::cerr << "gltf-anim compare: unknown --format '" << format
              << "' (text, json, md, junit or html)\n";
    return kExitUsage;
  }
  compare::CompareOptions opts;
  std::optional<double> time_epsilon;
  std::optional<std::uint64_t> max_file_mb;
  if (!number_option(*vm, kHelp, "tolerance", 0.0, kMaxTolerance, false, opts.tolerance) ||
      !number_option(*vm, kHelp, "angle-tolerance", 0.0, kMaxTolerance, false, opts.angle_tolerance) ||
      !number_option(*vm, kHelp, "time-epsilon", 0.0, kMaxTimeEpsilon, false, time_epsilon) ||
      !integer_option(*vm, kHelp, "max-file-mb", 1, kMaxFileMbOption, max_file_mb)) {
    return kExitUsage;
  }
  opts.time_epsilon = *time_epsilon;
  opts.read.max_file_bytes = *max_file_mb << 20;

  // The report may not replace a file compared, the manifest or a variant
  // file: the samples readers record what they open; refused before writing.
  CommandOutput output(kHelp, vm->count("output") ? std::optional((*vm)["output"].as<std::string>())
                                                  : std::nullopt);
  opts.read.inputs = &output.inputs();
  if (output.refused({(*vm)["golden"].as<std::string>(), (*vm)["actual"].as<std::string>()})) {
    return kExitUsage;
  }
  if (vm->count("manifest")) opts.manifest = (*vm)["manifest"].as<std::string>();

  compare::CompareReport report;
  try {
    report = compare::compare_paths((*vm)["golden"].as<std::string>(),
                                    (*vm)["actual"].as<std::string>(), opts);
  } catch (const samples::SamplesFormatError& e) {
    std::cerr << "gltf-anim compare: " << describe(e) << "\n";
    return kExitUsage;
  }

  if (output.refused() || !output.open()) return kExitUsage;
  reports::write_compare_report(output.stream(), report, format);
  const int verdict = output.finish(report.failed() > 0 ? kExitFindings : kExitOk);
  // With --output, a one-line summary on stdout (checked by main like all of stdout).
  if (verdict != kExitUsage && vm->count("output")) std::cout << reports::summary_line(report) << "\n";
  return verdict;
}

}  // namespace gltf_anim::cli

// gltf-anim compare: golden samples against an implementation's samples, as a
// conformance report (text, json, md, junit, html). docs/CONFORMANCE.md.
#include <gltf_anim/reports/compare.hpp>

#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "cli_common.hpp"
#include "commands.hpp"

namespace gltf_anim::cli {
namespace {

// "FILE: at JSON pointer "/a/0": message" / "FILE: line 3, field 2: message".
std::string describe(const reports::SamplesFormatError& e) {
  std::string out = e.file().empty() ? std::string() : e.file() + ": ";
  if (!e.location().empty()) {
    if (e.location().front() == '/') out += "at JSON pointer \"" + e.location() + "\": ";
    else out += e.location() + ": ";
  }
  return out + e.message();
}

bool valid_tolerance(const po::variables_map& vm, const char* name, std::optional<double>& out) {
  if (!vm.count(name)) return true;
  const double v = vm[name].as<double>();
  if (!std::isfinite(v) || v < 0) {
    std::cerr << "gltf-anim compare: --" << name << " must be a finite number >= 0\n";
    return false;
  }
  out = v;
  return true;
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
      ("tolerance", po::value<double>(), "absolute tolerance per component (overrides the manifest)")
      ("angle-tolerance", po::value<double>(), "rotation tolerance in radians (overrides the manifest)")
      ("time-epsilon", po::value<double>()->default_value(reports::kDefaultTimeEpsilon),
       "relative epsilon for matching sample times")
      ("max-file-mb", po::value<unsigned>()->default_value(4096),
       "refuse samples files larger than this many MiB");
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
  reports::CompareOptions opts;
  if (!valid_tolerance(*vm, "tolerance", opts.tolerance) ||
      !valid_tolerance(*vm, "angle-tolerance", opts.angle_tolerance)) {
    return kExitUsage;
  }
  opts.time_epsilon = (*vm)["time-epsilon"].as<double>();
  if (!std::isfinite(opts.time_epsilon) || opts.time_epsilon < 0) {
    std::cerr << "gltf-anim compare: --time-epsilon must be a finite number >= 0\n";
    return kExitUsage;
  }
  opts.read.max_file_bytes = std::uint64_t{(*vm)["max-file-mb"].as<unsigned>()} << 20;
  if (vm->count("manifest")) opts.manifest = (*vm)["manifest"].as<std::string>();

  reports::CompareReport report;
  try {
    report = reports::compare_paths((*vm)["golden"].as<std::string>(),
                                    (*vm)["actual"].as<std::string>(), opts);
  } catch (const reports::SamplesFormatError& e) {
    std::cerr << "gltf-anim compare: " << describe(e) << "\n";
    return kExitUsage;
  }

  if (vm->count("output")) {
    const std::string path = (*vm)["output"].as<std::string>();
    std::ofstream out(path, std::ios::binary);
    if (out) reports::write_compare_report(out, report, format);
    out.flush();
    if (!out) {
      std::cerr << "gltf-anim compare: cannot write " << path << "\n";
      return kExitUsage;
    }
    std::cout << reports::summary_line(report) << "\n";
  } else {
    reports::write_compare_report(std::cout, report, format);
    std::cout.flush();
  }
  return report.failed() > 0 ? kExitFindings : kExitOk;
}

}  // namespace gltf_anim::cli

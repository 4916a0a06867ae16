// gltf-anim compare: golden samples against an implementation's samples, as a
// conformance report (text, json, md, junit, html). docs/CONFORMANCE.md.
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/io/input_files.hpp>
#include <gltf_anim/io/stdin_bytes.hpp>
#include <gltf_anim/reports/compare_report.hpp>
#include <gltf_anim/reports/formats.hpp>
#include <gltf_anim/validator/batch.hpp>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cli_common.hpp"
#include "commands.hpp"

namespace gltf_anim::cli {
namespace {

// Ranges of the numeric options: tolerances up to 10^300 (finite), the time
// epsilon relative (at most 1), files up to 1 TiB.
constexpr double kMaxTolerance = 1e300;
constexpr double kMaxTimeEpsilon = 1.0;
constexpr std::uint64_t kMaxFileMbOption = std::uint64_t{1} << 20;

// "a,b,,c" -> {"a", "b", "c"}: a comma-separated option, empty items dropped.
std::vector<std::string> comma_list(const std::string& text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    if (end > start) items.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return items;
}

// A samples file on standard input has no extension to tell its format: JSON
// when its first character (after a UTF-8 BOM and white space) opens an
// object, CSV otherwise (a CSV header starts with a column name).
bool looks_like_json(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == '{';
}

std::string default_time_epsilon() {
  std::ostringstream s;
  s << compare::kDefaultTimeEpsilon;
  return s.str();
}

}  // namespace

int run_compare(const std::vector<std::string>& args) {
  static constexpr CommandHelp kHelp{
      "compare",
      "gltf-anim compare --golden PATH --actual PATH [--format FORMAT]\n"
      "                         [--output FILE] [--tolerance X] [--angle-tolerance RAD]\n"
      "                         [--length-tolerance X]\n"
      "                         [--cases ID,...] [--extensions NAME,...|none] [--require-all]\n"
      "                         [--worst N]",
      "Compares golden samples (gltf-anim sample) with an implementation's samples of the\n"
      "same assets and reports, per asset, pass/fail, max and mean error, the worst time\n"
      "and channel, and the features and spec clauses from conformance_assets/manifest.json.\n"
      "PATH is a samples file (.json or .csv) or a folder of them; actual files are matched\n"
      "to golden ones by \"asset\", else by file name. --actual=- reads one actual samples\n"
      "file from standard input (JSON when it starts with '{', else CSV; up to\n"
      "--max-file-mb), matched by its \"asset\". Samples match by (animation, target, t).\n"
      "Vectors and scalars: largest absolute component difference; rotations: the angle\n"
      "between the rotations (q and -q are equal), and the length |q| against the golden\n"
      "one (a rotation output is a unit quaternion). Missing channels or samples fail.\n"
      "Tolerances come from the manifest (per channel, else per case: tolerance,\n"
      "angleTolerance, lengthTolerance), else 1e-05, 1e-05 rad and 1e-05; the options\n"
      "override both. The manifest is --manifest FILE, else the\n"
      "manifest.json in the golden folder (or beside the golden file), never one above.\n"
      "Its samples paths must stay inside its folder (relative, no '..', no symlink out).\n"
      "A case whose golden file holds no sample (e.g. the --no-extensions view of an asset\n"
      "animated only through extensions) is reported as \"nothing compared\": not a pass,\n"
      "not a failure. A golden case with no actual file, or whose actual file declares\n"
      "channels \"unsupported\" (the engine cannot play them), is \"not run\" (neither, unless\n"
      "--require-all). --cases compares only the cases named (ids or globs: 'rotation_*').\n"
      "--extensions lists the extensions the engine implements ('none' for a core-only\n"
      "engine): a case whose manifest entry needs another one is \"excluded\", not compared.\n"
      "Each failing channel gets its N worst samples (--worst, default 5) and the manifest\n"
      "variants or known divergences its values match. Failures come first.\n"
      "Exit codes: 0 no case fails, 1 a case fails (or, with --require-all, is not run),\n"
      "2 usage error or unreadable/malformed file.",
      "gltf-anim compare --golden conformance_assets --actual my-engine-samples --format html "
      "--output report.html"};
  po::options_description options("Options");
  options.add_options()("golden", po::value<std::string>()->required(),
                        "golden samples file or folder")(
      "actual", po::value<std::string>()->required(),
      "actual samples file or folder ('-': one samples file from standard input)")(
      "manifest", po::value<std::string>(),
      "the suite's manifest.json (default: the one in the golden folder)")(
      "format", po::value<std::string>()->default_value("text"),
      reports::compare_format_names().c_str())("output,o", po::value<std::string>(),
                                               "write the report to FILE (default: stdout)")(
      "tolerance", po::value<std::string>(),
      "absolute tolerance per component, >= 0 (overrides the manifest)")(
      "angle-tolerance", po::value<std::string>(),
      "rotation tolerance in radians, >= 0 (overrides the manifest)")(
      "length-tolerance", po::value<std::string>(),
      "tolerance on a rotation's |q|, >= 0 (overrides the manifest)")(
      "time-epsilon", po::value<std::string>()->default_value(default_time_epsilon()),
      "relative epsilon for matching sample times, 0 to 1")(
      "max-file-mb", po::value<std::string>()->default_value("4096"),
      "refuse samples files larger than this many MiB (1 to 1048576)")(
      "cases", po::value<std::string>(), "compare only these cases: ids or globs, comma-separated")(
      "extensions", po::value<std::string>(),
      "the extensions the engine implements, comma-separated, or 'none' (default: all)")(
      "require-all",
      "a case that is not run (no actual file, or channels declared unsupported) fails the run")(
      "worst",
      po::value<std::string>()->default_value(std::to_string(compare::kDefaultWorstSamples)),
      "worst samples listed per failing channel (0 to 100)");
  int exit_code = kExitOk;
  const auto vm = parse_command_line(kHelp, options, {}, args, exit_code);
  if (!vm) return exit_code;

  const std::string format = (*vm)["format"].as<std::string>();
  if (reports::compare_format_from_name(format) == nullptr) {
    std::cerr << "gltf-anim compare: unknown --format '" << format << "' ("
              << reports::compare_format_names() << ")\n";
    return kExitUsage;
  }
  compare::CompareOptions opts;
  std::optional<double> time_epsilon;
  std::optional<std::uint64_t> max_file_mb;
  std::optional<std::uint64_t> worst;
  if (!number_option(*vm, kHelp, "tolerance", 0.0, kMaxTolerance, false, opts.tolerance) ||
      !number_option(*vm, kHelp, "angle-tolerance", 0.0, kMaxTolerance, false, opts.angle_tolerance) ||
      !number_option(*vm, kHelp, "length-tolerance", 0.0, kMaxTolerance, false, opts.length_tolerance) ||
      !number_option(*vm, kHelp, "time-epsilon", 0.0, kMaxTimeEpsilon, false, time_epsilon) ||
      !integer_option(*vm, kHelp, "max-file-mb", 1, kMaxFileMbOption, max_file_mb) ||
      !integer_option(*vm, kHelp, "worst", 0, compare::kMaxWorstSamples, worst)) {
    return kExitUsage;
  }
  opts.worst_samples = static_cast<std::size_t>(*worst);
  if (vm->count("cases")) {
    opts.cases = comma_list((*vm)["cases"].as<std::string>());
    if (opts.cases.empty()) {
      std::cerr << "gltf-anim compare: --cases names no case\n";
      return kExitUsage;
    }
  }
  if (vm->count("extensions")) {
    const std::string list = (*vm)["extensions"].as<std::string>();
    opts.extensions = list == "none" ? std::vector<std::string>() : comma_list(list);
  }
  opts.time_epsilon = *time_epsilon;
  opts.read.max_file_bytes = *max_file_mb << 20;

  // The report may not replace a file compared, the manifest or a variant
  // file: the samples readers record what they open; refused before writing.
  CommandOutput output(kHelp, vm->count("output") ? std::optional((*vm)["output"].as<std::string>())
                                                  : std::nullopt);
  opts.read.inputs = &output.inputs();
  const std::string golden = (*vm)["golden"].as<std::string>();
  const std::string actual = (*vm)["actual"].as<std::string>();
  const bool actual_stdin = actual == validator::kStandardInputPath;
  if (actual_stdin) {
    // What stdin is open on is an input too (`-o a.json < a.json` is refused).
    if (const auto id = io::standard_input_identity())
      output.inputs().record(*id, "standard input");
  }
  if (output.refused(actual_stdin ? std::vector{golden} : std::vector{golden, actual})) {
    return kExitUsage;
  }
  if (vm->count("manifest")) opts.manifest = (*vm)["manifest"].as<std::string>();

  compare::CompareReport report;
  try {
    if (actual_stdin) {
      io::StdinBytes bytes;  // released once parsed: the model holds what it needs
      if (!bytes.read_all(opts.read.max_file_bytes)) {
        std::cerr << "gltf-anim compare: cannot read standard input: " << std::strerror(errno)
                  << "\n";
        return kExitUsage;
      }
      if (bytes.too_large()) {
        std::cerr << "gltf-anim compare: standard input is larger than --max-file-mb (more than "
                  << opts.read.max_file_bytes << " bytes)\n";
        return kExitUsage;
      }
      if (bytes.bytes().empty()) {
        std::cerr << "gltf-anim compare: standard input is empty (no samples file)\n";
        return kExitUsage;
      }
      const std::string_view text(reinterpret_cast<const char*>(bytes.bytes().data()),
                                  bytes.bytes().size());
      const std::string name(validator::kStandardInputPath);
      samples::SamplesFile file = looks_like_json(text)
                                      ? samples::read_samples_json(text, opts.read, name)
                                      : samples::read_samples_csv(text, opts.read, name);
      bytes.release();
      report = compare::compare_read_actual(golden, std::move(file), name, opts);
    } else {
      report = compare::compare_paths(golden, actual, opts);
    }
  } catch (const samples::SamplesFormatError& e) {
    std::cerr << "gltf-anim compare: " << compare::describe(e) << "\n";
    return kExitUsage;
  }
  if (!report.unmatched_selection.empty()) {
    std::string list;
    for (const auto& p : report.unmatched_selection) list += (list.empty() ? "'" : ", '") + p + "'";
    std::cerr << "gltf-anim compare: --cases " << list << " selects no case\n";
    return kExitUsage;
  }

  if (output.refused() || !output.open()) return kExitUsage;
  reports::write_compare_report(output.stream(), report, format);
  const bool fails = report.failed() > 0 || (vm->count("require-all") && report.not_run() > 0);
  const int verdict = output.finish(fails ? kExitFindings : kExitOk);
  // With --output, a one-line summary on stdout (checked by main like all of stdout).
  if (verdict != kExitUsage && vm->count("output")) std::cout << reports::summary_line(report) << "\n";
  return verdict;
}

}  // namespace gltf_anim::cli

// gltf-anim merge: joins the json reports of `validate --shard K/N` runs (or of
// separate runs) into one report, in any validate format. The command reads
// the files and wires; whether they are parts of one run, and the order of
// their assets, is reports::merge_validation_runs (validation_merge.hpp).
#include <gltf_anim/io/resource_reader.hpp>
#include <gltf_anim/io/stdin_bytes.hpp>
#include <gltf_anim/reports/formats.hpp>
#include <gltf_anim/reports/validation_merge.hpp>
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/version.hpp>

#include <algorithm>
#include <cerrno>
#include <iterator>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ci_report.hpp"
#include "cli_common.hpp"
#include "commands.hpp"

namespace gltf_anim::cli {
namespace {

constexpr std::uint64_t kMaxFileMbOption = std::uint64_t{1} << 20;

// One report's bytes, held once while it is parsed: a regular file of at most
// max_bytes (io::read_regular_file: a FIFO does not block, anything else is
// refused before reading), or standard input ("-") up to max_bytes.
class ReportBytes {
 public:
  bool read(const std::string& path, std::uint64_t max_bytes, std::string& why) {
    if (path == "-") {
      if (!stdin_.read_all(max_bytes)) {
        why = std::strerror(errno);
        return false;
      }
      if (stdin_.too_large()) {
        why = "larger than --max-file-mb (more than " + std::to_string(max_bytes) + " bytes)";
        return false;
      }
      bytes_ = stdin_.bytes();
      return true;
    }
    io::ReadResult r = io::read_regular_file(path, max_bytes, false);
    if (r.failure == io::ReadResult::Failure::kTooLarge) {
      why = "larger than --max-file-mb (" + std::to_string(r.size) + " bytes)";
      return false;
    }
    if (r.failure != io::ReadResult::Failure::kNone) {
      why = r.detail;
      return false;
    }
    file_ = std::move(r.storage);
    bytes_ = file_->bytes();
    return true;
  }
  std::string_view text() const {
    return {reinterpret_cast<const char*>(bytes_.data()), bytes_.size()};
  }

 private:
  io::StdinBytes stdin_;
  std::unique_ptr<io::ByteStorage> file_;
  std::span<const std::uint8_t> bytes_;
};

}  // namespace

int run_merge(const std::vector<std::string>& args) {
  static constexpr CommandHelp kHelp{
      "merge", "gltf-anim merge [options] REPORT.json... ('-': one from standard input)",
      "Joins json reports of 'gltf-anim validate' into one report, in any validate\n"
      "format. Reports of 'validate --shard K/N' must be all N parts, each once: the\n"
      "assets are then written in the order one unsharded run has. Other reports are\n"
      "joined in the order given. Exit code: 0 when no asset reaches the reports'\n"
      "--fail-on, 1 when one does, 2 for usage or I/O errors and reports that do not\n"
      "fit together.",
      "gltf-anim merge --format sarif --output all.sarif shard-1.json shard-2.json shard-3.json"};
  po::options_description options("Options");
  options.add_options()("report", po::value<std::vector<std::string>>()->multitoken(),
                        "json report of gltf-anim validate")(
      "format", po::value<std::string>()->default_value("json"),
      reports::validation_format_names().c_str())(
      "output,o", po::value<std::string>(), "write the report to FILE instead of standard output")(
      "max-file-mb", po::value<std::string>()->default_value("4096"),
      "refuse a report over N MiB, before reading it (1 to 1048576)");
  add_report_options(options);
  po::positional_options_description positional;
  positional.add("report", -1);
  int exit_code = kExitOk;
  const auto vm = parse_command_line(kHelp, options, positional, args, exit_code);
  if (!vm) return exit_code;
  auto usage = [](const std::string& what) {
    std::cerr << "gltf-anim merge: " << what << "\nTry 'gltf-anim merge --help'.\n";
    return kExitUsage;
  };
  auto refuse = [](const std::string& what) {
    std::cerr << "gltf-anim merge: " << what << "\n";
    return kExitUsage;
  };
  if (!vm->count("report")) return usage("no REPORT given");
  const auto format = reports::validation_format_from_name((*vm)["format"].as<std::string>());
  if (!format) return usage("unknown --format '" + (*vm)["format"].as<std::string>() + "'");
  std::optional<std::uint64_t> max_file_mb;
  if (!integer_option(*vm, kHelp, "max-file-mb", 1, kMaxFileMbOption, max_file_mb))
    return kExitUsage;
  reports::ValidationWriteOptions wopt;
  if (!read_report_options(*vm, kHelp, wopt)) return kExitUsage;
  const bool timings = !(*vm)["no-timings"].as<bool>();

  const auto paths = (*vm)["report"].as<std::vector<std::string>>();
  CommandOutput output(
      kHelp, vm->count("output") ? std::optional((*vm)["output"].as<std::string>()) : std::nullopt);
  std::vector<std::string> files;  // "-" is standard input, not a file of that name
  std::copy_if(paths.begin(), paths.end(), std::back_inserter(files),
               [](const std::string& p) { return p != "-"; });
  if (output.refused(files)) return kExitUsage;

  if (std::count(paths.begin(), paths.end(), "-") > 1) {
    return usage("'-' (standard input) given twice");
  }
  std::vector<reports::ValidationRun> runs;
  for (const std::string& path : paths) {
    std::string why;
    ReportBytes bytes;  // released once the report is read
    if (!bytes.read(path, *max_file_mb << 20, why))
      return refuse("cannot read '" + path + "': " + why);
    try {
      runs.push_back(reports::read_validation_json(bytes.text()));
    } catch (const reports::ReportFormatError& e) {
      return refuse("'" + path + "' is not a gltf-anim json report: " + e.what());
    }
  }
  std::string why;
  const auto merged = reports::merge_validation_runs(runs, paths, kVersion, why);
  if (!merged) return refuse(why);
  wopt.fail_on = merged->fail_on;
  wopt.issue_policy = merged->issue_policy;
  wopt.found_by = merged->found_by;

  reports::ValidationTotals totals;
  if (!output.open()) return kExitUsage;
  {
    wopt.spool_folder = output.folder();
    const auto writer = reports::make_validation_writer(output.stream(), *format, wopt);
    for (reports::ReadAsset* a : merged->order) {
      if (!timings) a->run.seconds.reset();
      totals.add(a->report, wopt.fail_on, a->run);
      writer->asset(a->report, a->run);
    }
    writer->end();
  }
  return finish_report(output, kHelp, *vm, totals, wopt.fail_on);
}

}  // namespace gltf_anim::cli

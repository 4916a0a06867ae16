// gltf-anim merge: joins the json reports of `validate --shard K/N` runs (or of
// separate runs) into one report, in any validate format. The command reads
// the files and wires; whether they are parts of one run, and the order of
// their assets, is reports::merge_validation_runs (validation_merge.hpp). Each
// report is read twice, a piece at a time: checked and indexed first, then its
// assets read again one by one as the merged report is written, so memory does
// not grow with the reports' size.
#include <gltf_anim/io/regular_file.hpp>
#include <gltf_anim/io/resource_reader.hpp>
#include <gltf_anim/io/stdin_bytes.hpp>
#include <gltf_anim/reports/formats.hpp>
#include <gltf_anim/reports/validation_merge.hpp>
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/version.hpp>

#include <algorithm>
#include <cerrno>
#include <deque>
#include <functional>
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

// Reports kept open at once between the two passes: past it the oldest opened
// is closed and opened again when its next asset is read. Shards merged into
// the whole run's order take their assets from every file in turn; closing
// keeps a merge of thousands of reports within the descriptors a process has.
constexpr std::size_t kOpenReports = 64;

// One report given to merge, read in pieces (reports::ReportBytes) in both
// passes: a regular file of at most max_bytes, kept open (io::RegularFile: a
// FIFO does not block, anything else is refused before reading), or standard
// input ("-"), which can be read only once, held in memory up to max_bytes.
// A file closed between the passes is opened again and must be the same file
// of the same size.
class ReportInput final : public reports::ReportBytes {
 public:
  struct Open {  // the files open now, oldest first
    std::deque<ReportInput*> files;
  };
  ReportInput(std::string path, Open& open) : path_(std::move(path)), open_(open) {}
  ~ReportInput() override {
    if (file_) open_.files.erase(std::find(open_.files.begin(), open_.files.end(), this));
  }
  ReportInput(const ReportInput&) = delete;
  ReportInput& operator=(const ReportInput&) = delete;

  bool read_first(std::uint64_t max_bytes, std::string& why) {
    max_bytes_ = max_bytes;
    if (path_ == "-") {
      if (!stdin_.read_all(max_bytes)) {
        why = std::strerror(errno);
        return false;
      }
      if (stdin_.too_large()) {
        why = "larger than --max-file-mb (more than " + std::to_string(max_bytes) + " bytes)";
        return false;
      }
      size_ = stdin_.bytes().size();
      return true;
    }
    io::ReadResult refusal;
    if (!reopen(refusal)) {
      why = refusal.failure == io::ReadResult::Failure::kTooLarge
                ? "larger than --max-file-mb (" + std::to_string(refusal.size) + " bytes)"
                : refusal.detail;
      return false;
    }
    size_ = file_->size();
    identity_ = file_->identity();
    return true;
  }
  const std::string& path() const { return path_; }
  std::uint64_t size() const override { return size_; }
  std::size_t read(std::uint64_t offset, char* into, std::size_t n) const override {
    if (path_ == "-") {
      const auto bytes = stdin_.bytes();
      if (offset >= bytes.size()) return 0;
      n = static_cast<std::size_t>(std::min<std::uint64_t>(n, bytes.size() - offset));
      std::memcpy(into, bytes.data() + offset, n);
      return n;
    }
    if (!file_) {
      io::ReadResult refusal;
      if (!reopen(refusal)) throw reports::ReportReadError(refusal.detail);
      if (file_->identity() != identity_ || file_->size() != size_)
        throw reports::ReportReadError("it was replaced or changed size while it was merged");
    }
    const std::ptrdiff_t got = file_->read_at(offset, into, n);
    if (got < 0) throw reports::ReportReadError(std::strerror(errno));
    return static_cast<std::size_t>(got);
  }

 private:
  bool reopen(io::ReadResult& refusal) const {
    if (open_.files.size() >= kOpenReports) {
      open_.files.front()->file_.reset();
      open_.files.pop_front();
    }
    file_ = io::RegularFile::open(path_, max_bytes_, refusal);
    if (!file_) return false;
    open_.files.push_back(const_cast<ReportInput*>(this));
    return true;
  }

  std::string path_;
  Open& open_;
  std::uint64_t max_bytes_ = 0;
  std::uint64_t size_ = 0;
  io::FileIdentity identity_{};
  mutable std::unique_ptr<io::RegularFile> file_;
  io::StdinBytes stdin_;
};

// An asset's messages read again from its report each time a writer goes
// through them.
class AssetIssues final : public reports::IssueSource {
 public:
  AssetIssues(const reports::ReportBytes& bytes, const reports::IndexedAsset& place)
      : bytes_(bytes), place_(place) {}
  void for_each(const std::function<void(const gltf::Issue&)>& each) const override {
    reports::for_each_issue_at(bytes_, place_, each);
  }

 private:
  const reports::ReportBytes& bytes_;
  const reports::IndexedAsset& place_;
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
  // First pass: each report checked whole and indexed, none held (validation_merge.hpp).
  ReportInput::Open open;
  std::vector<std::unique_ptr<ReportInput>> inputs;
  std::vector<reports::IndexedRun> runs;
  for (const std::string& path : paths) {
    std::string why;
    inputs.push_back(std::make_unique<ReportInput>(path, open));
    if (!inputs.back()->read_first(*max_file_mb << 20, why))
      return refuse("cannot read '" + path + "': " + why);
    try {
      runs.push_back(reports::index_validation_json(*inputs.back()));
    } catch (const reports::ReportReadError& e) {
      return refuse("cannot read '" + path + "': " + e.what());
    } catch (const reports::ReportFormatError& e) {
      return refuse("'" + path + "' is not a gltf-anim json report: " + e.what());
    }
  }
  std::string why;
  std::optional<reports::MergedRuns> merged;
  try {
    merged = reports::merge_validation_runs(
        runs, paths, kVersion, why,
        [&inputs](std::size_t k, const reports::IndexedAsset& a) {
          return reports::read_asset_header_at(*inputs[k], a).asset.report.uri;
        });
  } catch (const reports::ReportReadError& e) {
    return refuse(std::string("cannot read a report again: ") + e.what());
  } catch (const reports::ReportFormatError& e) {
    return refuse(std::string("a report changed while it was merged: ") + e.what());
  }
  if (!merged) return refuse(why);
  wopt.fail_on = merged->fail_on;
  wopt.issue_policy = merged->issue_policy;
  wopt.found_by = merged->found_by;

  // Second pass: each asset read again from its place, its header first, then
  // its messages handed to the writer one at a time (read again each time the
  // format goes through them): no asset is held whole, however many issues it has.
  reports::ValidationTotals totals;
  if (!output.open()) return kExitUsage;
  {
    wopt.spool_folder = output.folder();
    const auto writer = reports::make_validation_writer(output.stream(), *format, wopt);
    for (const reports::MergedRuns::Place& place : merged->order) {
      const ReportInput& input = *inputs[place.report];
      try {
        reports::AssetHeader h = reports::read_asset_header_at(input, place.asset);
        reports::ReadAsset& a = h.asset;
        if (merged->sharded && a.run.position != place.asset.position)
          throw reports::ReportFormatError("an asset moved");
        if (merged->sharded) a.run.position.reset();  // the merged report is the whole run's
        if (!timings) a.run.seconds.reset();
        totals.add(a.report, h.facts, wopt.fail_on, a.run);
        writer->asset(a.report, h.facts, AssetIssues(input, place.asset), a.run);
      } catch (const reports::ReportReadError& e) {
        output.discard();
        return refuse("cannot read '" + input.path() + "' again: " + e.what());
      } catch (const reports::ReportFormatError& e) {
        output.discard();
        return refuse("'" + input.path() + "' changed while it was merged: " + e.what());
      }
    }
    writer->end();
  }
  return finish_report(output, kHelp, *vm, totals, wopt.fail_on);
}

}  // namespace gltf_anim::cli

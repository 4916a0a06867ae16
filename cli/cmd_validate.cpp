// gltf-anim validate: validates .gltf/.glb assets (files, folders, or "-" for
// standard input) and writes one report in the chosen format.
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/validator/gltf_validator_report.hpp>
#include <gltf_anim/validator/issue.hpp>
#include <gltf_anim/validator/issue_policy.hpp>
#include <gltf_anim/validator/run_config.hpp>
#include <gltf_anim/validator/validate.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cerrno>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "ci_report.hpp"
#include "cli_common.hpp"
#include "commands.hpp"

namespace gltf_anim::cli {
namespace {

namespace fs = std::filesystem;
using validator::Severity;
using validator::ValidateOptions;
using validator::ValidationReport;

constexpr const char* kStdin = "-";
// Range of --max-issues (0: no limit) and --max-file-mb (1 TiB).
constexpr std::uint64_t kMaxIssuesOption = 0xFFFFFFFFu;
constexpr std::uint64_t kMaxFileMbOption = std::uint64_t{1} << 20;

bool is_asset_file(const fs::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext == ".gltf" || ext == ".glb";
}

// Expands PATH arguments: files as given, folders recursively (sorted), "-".
// Inside a folder no symlink is followed, to a file or to a folder: what is
// validated is what lies beneath the folder the user named (a link there could
// lead anywhere, and its content would be copied into the report). Skipped links
// are named on stderr. A folder that cannot be read (anywhere in the tree), or
// that holds no .gltf/.glb file, is an error: a CI job pointed at an empty or
// unreadable export folder must not pass.
// `folders[i]` is the folder argument that files[i] was found in ("" for a
// file named directly): the file is opened beneath it.
bool collect(const std::vector<std::string>& paths, std::vector<std::string>& out,
             std::vector<std::string>& folders) {
  for (const std::string& p : paths) {
    if (p == kStdin) {
      if (std::find(out.begin(), out.end(), kStdin) != out.end()) {
        std::cerr << "gltf-anim validate: '-' (standard input) given twice\n";
        return false;
      }
      out.push_back(p);
      folders.emplace_back();
      continue;
    }
    std::error_code ec;
    const fs::file_status st = fs::status(p, ec);
    if (ec || !fs::exists(st)) {
      const std::error_code why = ec ? ec : std::make_error_code(std::errc::no_such_file_or_directory);
      // A shell passes a wildcard pattern that matches nothing as it is
      // (bash without nullglob): say so, rather than only "no such file".
      if (why == std::errc::no_such_file_or_directory &&
          p.find_first_of("*?[") != std::string::npos) {
        std::cerr << "gltf-anim validate: no file matches '" << p
                  << "' (the shell passed the pattern on unexpanded because nothing matched it)\n";
        return false;
      }
      std::cerr << "gltf-anim validate: cannot access '" << p << "': " << why.message() << "\n";
      return false;
    }
    if (!fs::is_directory(st)) {
      out.push_back(p);
      folders.emplace_back();
      continue;
    }
    std::vector<std::string> found;
    // No follow_directory_symlink: a linked folder is not entered; symlink_status:
    // a linked file is not taken.
    fs::recursive_directory_iterator it(p, fs::directory_options::none, ec);
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      std::error_code fec;
      const fs::file_status own = it->symlink_status(fec);
      if (fec) {
        ec = fec;
        break;
      }
      if (fs::is_symlink(own)) {
        std::cerr << "gltf-anim validate: skipping symbolic link '" << it->path().generic_string()
                  << "' (links inside a folder are not followed)\n";
      } else if (fs::is_regular_file(own) && is_asset_file(it->path())) {
        found.push_back(it->path().generic_string());
      }
    }
    if (ec) {
      std::cerr << "gltf-anim validate: cannot read folder '" << p << "': " << ec.message() << "\n";
      return false;
    }
    if (found.empty()) {
      std::cerr << "gltf-anim validate: no .gltf or .glb file in folder '" << p << "'\n";
      return false;
    }
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
    folders.insert(folders.end(), found.size(), p);
  }
  return true;
}

ValidationReport validate_one(const std::string& path, const ValidateOptions& options,
                              std::span<const std::uint8_t> stdin_bytes, bool stdin_too_large) {
  if (path == kStdin) {
    if (stdin_too_large) {
      // What load_bytes reports for too many bytes, without holding them: the
      // read stopped one byte past the limit.
      validator::IssueCollector issues(options.issues);
      validator::LoadedAsset asset;
      asset.uri = kStdin;
      issues.add("FILE_TOO_LARGE", "",
                 {std::to_string(options.load.max_file_bytes + 1), std::to_string(options.load.max_file_bytes)});
      return validator::validate_asset(asset, issues);
    }
    return validator::validate_bytes(stdin_bytes, kStdin, options.load.root, options);
  }
  return validator::validate_file(path, options);
}

// An asset whose validation threw (std::bad_alloc, or a defect): one
// INTERNAL_ERROR for it, so the run goes on and the report says which asset.
// Not subject to --ignore or overrides: an asset that was not validated must
// never look clean.
ValidationReport failed_report(const std::string& path, const char* what) {
  validator::IssueCollector issues;
  issues.add("INTERNAL_ERROR", "", {what});
  ValidationReport r;
  r.uri = path;
  r.issues = issues.issues();
  return r;
}

// The shard's files of a --shard K/N run, with their places in the whole run.
// Every machine lists the same files (same checkout), so each file is in
// exactly one shard and merge can put the reports back in the whole run's order.
void keep_shard(std::vector<std::string>& files, std::vector<std::string>& folders,
                reports::Shard& shard, std::vector<std::uint64_t>& positions) {
  shard.assets = files.size();
  std::size_t kept = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::string relative =
        folders[i].empty() ? fs::path(files[i]).lexically_normal().generic_string()
                           : fs::path(files[i]).lexically_relative(folders[i]).generic_string();
    if (shard_of(relative, shard.count) != shard.index) continue;
    if (kept != i) {  // a self-move would empty the string
      files[kept] = std::move(files[i]);
      folders[kept] = std::move(folders[i]);
    }
    positions.push_back(i);
    ++kept;
  }
  files.resize(kept);
  folders.resize(kept);
}

ValidationReport validate_guarded(const std::string& path, const std::string& folder,
                                  const ValidateOptions& options, std::span<const std::uint8_t> stdin_bytes,
                                  bool stdin_too_large) {
  try {
    if (!folder.empty()) {
      ValidateOptions beneath = options;
      beneath.load.asset_folder = folder;
      return validate_one(path, beneath, stdin_bytes, stdin_too_large);
    }
    return validate_one(path, options, stdin_bytes, stdin_too_large);
  } catch (const std::bad_alloc&) {
    return failed_report(path, "out of memory");
  } catch (const std::exception& e) {
    return failed_report(path, e.what());
  } catch (...) {
    return failed_report(path, "unknown exception");
  }
}

// Standard input, read up to `cap` bytes into anonymous memory that grows in
// place (mremap), so the bytes are held once: a doubling vector would hold up
// to three times the input while it copies. Stops at `cap` + 1 bytes.
class StdinBytes {
 public:
  ~StdinBytes() {
    if (data_ != nullptr) ::munmap(data_, capacity_);
  }
  // False with errno on a read or allocation failure.
  bool read_all(std::uint64_t cap) {
    constexpr std::size_t kFirst = std::size_t{1} << 20;
    for (;;) {
      if (size_ == capacity_) {
        if (size_ > cap) return true;  // one byte past the limit: refused later
        const std::uint64_t want = std::min<std::uint64_t>(std::max<std::uint64_t>(capacity_ * 2, kFirst), cap + 1);
        if (!grow(static_cast<std::size_t>(want))) return false;
      }
      const ssize_t n = ::read(0, static_cast<char*>(data_) + size_, capacity_ - size_);
      if (n < 0) {
        if (errno == EINTR) continue;
        return false;
      }
      if (n == 0) return true;
      size_ += static_cast<std::size_t>(n);
    }
  }
  std::span<const std::uint8_t> bytes() const {
    return {static_cast<const std::uint8_t*>(data_), size_};
  }
  void release() {
    if (data_ != nullptr) ::munmap(data_, capacity_);
    data_ = nullptr;
    size_ = capacity_ = 0;
  }

 private:
  bool grow(std::size_t capacity) {
    void* p = data_ == nullptr
                  ? ::mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
                  : ::mremap(data_, capacity_, capacity, MREMAP_MAYMOVE);
    if (p == MAP_FAILED) return false;
    data_ = p;
    capacity_ = capacity;
    return true;
  }

  void* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace

int run_validate(const std::vector<std::string>& args) {
  static constexpr CommandHelp kHelp{
      "validate", "gltf-anim validate [options] PATH...",
      "Validates glTF 2.0 assets (.gltf, .glb) against the JSON schema and the core\n"
      "animation rules, with glTF-Validator's issue codes and pointers. PATH is a file,\n"
      "a folder (searched recursively for .gltf/.glb, in sorted order) or '-' for one\n"
      "asset on standard input. Exit code: 0 when no issue reaches --fail-on, 1 when\n"
      "one does, 2 for usage or I/O errors of the command itself.",
      "gltf-anim validate --format json --output report.json assets/"};
  po::options_description options("Options");
  // One option per line: the chained calls read as a table.
  // clang-format off
  options.add_options()
      ("path", po::value<std::vector<std::string>>()->multitoken(), "asset file, folder or -")
      ("format", po::value<std::string>()->default_value("text"), "text, json, junit or sarif")
      ("output,o", po::value<std::string>(), "write the report to FILE instead of standard output")
      ("max-issues", po::value<std::string>()->default_value("100000"),
       "stop collecting issues of an asset after N (0 to 2^32-1; 0: no limit, memory then\n"
       "grows with the input: one issue per bad value); the report says truncated")
      ("ignore", po::value<std::vector<std::string>>()->composing(),
       "do not report CODE (repeatable); a glob ('*', '?') names every code it matches, "
       "e.g. 'LINT_*'")
      ("severity-override", po::value<std::vector<std::string>>()->composing(),
       "CODE=N: report CODE (or a glob's codes) with severity N (0 error, 1 warning, "
       "2 info, 3 hint); repeatable")
      ("lints", po::value<std::string>()->default_value("info"),
       "off, hint, info or warning: the most severe a lint (LINT_*, advice beyond the "
       "specs) is reported as; info keeps assets without spec warnings green under "
       "--fail-on warning")
      ("enable", po::value<std::vector<std::string>>()->composing(),
       "report the opt-in lint CODE (or a glob's opt-in lints, e.g. 'LINT_*'); repeatable")
      ("fail-on", po::value<std::string>()->default_value("error"),
       "error, warning or info: the least severe issue that makes the exit code 1")
      ("threads", po::value<std::string>()->default_value("1"),
       "assets validated in parallel, 1 to 256 (the output does not depend on it)")
      ("root", po::value<std::string>(),
       "external buffers may resolve anywhere inside DIR (default: the asset's folder)")
      ("max-issue-mb", po::value<std::string>()->default_value("64"),
       "stop collecting issues of an asset once they hold N MiB (0: no limit, up to\n"
       "1048576); pointers and messages are cut at 1 KiB; the report says truncated")
      ("max-file-mb", po::value<std::string>()->default_value("1024"),
       "refuse an asset or external buffer over N MiB (FILE_TOO_LARGE), before reading it;\n"
       "1 to 1048576")
      ("config", po::value<std::string>(),
       "read the project config FILE (default: .gltf-anim.json of the current folder, "
       "if there is one); command-line options win over it")
      ("no-config", po::bool_switch(), "read no project config file")
      ("merge-gltf-validator", po::value<std::vector<std::string>>()->composing(),
       "fold glTF-Validator's JSON report FILE (of one asset, or an array of reports) into the "
       "report: each of its messages matched to the asset of its uri, one message per (code, "
       "pointer), each marked with the tool(s) that found it; repeatable")
      ("shard", po::value<std::string>(),
       "K/N: validate only part K of N of the files (a stable partition by path; 'gltf-anim\n"
       "merge' joins the parts' json reports into the whole run's report)");
  // clang-format on
  add_report_options(options);
  po::positional_options_description positional;
  positional.add("path", -1);
  int exit_code = kExitOk;
  const auto vm = parse_command_line(kHelp, options, positional, args, exit_code);
  if (!vm) return exit_code;

  auto usage = [](const std::string& what) {
    std::cerr << "gltf-anim validate: " << what << "\nTry 'gltf-anim validate --help'.\n";
    return kExitUsage;
  };
  if (!vm->count("path")) return usage("no PATH given");

  // The project config: --config FILE, else the current folder's
  // .gltf-anim.json; --no-config reads neither. Options given on the command
  // line win over its members.
  std::optional<validator::RunConfig> config;
  const bool no_config = (*vm)["no-config"].as<bool>();
  if (vm->count("config") && no_config) return usage("--config and --no-config exclude each other");
  if (vm->count("config")) {
    const std::string path = (*vm)["config"].as<std::string>();
    std::string why;
    config = validator::read_run_config(path, why);
    if (!config) return usage("bad config '" + path + "': " + why);
  } else if (!no_config) {
    bool found = false;
    std::string why;
    config = validator::read_current_folder_config(found, why);
    if (found && !config)
      return usage("bad config '" + std::string(validator::kConfigFileName) + "': " + why);
  }
  const validator::RunConfig from_file = config.value_or(validator::RunConfig{});
  auto given = [&](const char* name) { return vm->count(name) != 0 && !(*vm)[name].defaulted(); };

  const std::string format_name =
      given("format") || !from_file.format ? (*vm)["format"].as<std::string>() : *from_file.format;
  const auto format = reports::validation_format_from_name(format_name);
  if (!format) return usage("unknown --format '" + format_name + "'");
  auto fail_on = validator::severity_from_name((*vm)["fail-on"].as<std::string>());
  if (!fail_on || *fail_on == Severity::kHint) {
    return usage("--fail-on must be error, warning or info");
  }
  if (!given("fail-on") && from_file.fail_on) fail_on = from_file.fail_on;
  std::optional<std::uint64_t> threads_option, max_issues, max_issue_mb, max_file_mb;
  if (!integer_option(*vm, kHelp, "threads", 1, kMaxThreads, threads_option) ||
      !integer_option(*vm, kHelp, "max-issues", 0, kMaxIssuesOption, max_issues) ||
      !integer_option(*vm, kHelp, "max-issue-mb", 0, kMaxFileMbOption, max_issue_mb) ||
      !integer_option(*vm, kHelp, "max-file-mb", 1, kMaxFileMbOption, max_file_mb)) {
    return kExitUsage;
  }
  // The config's numbers are in the same ranges (its schema says so).
  if (!given("threads") && from_file.threads) threads_option = from_file.threads;
  if (!given("max-issues") && from_file.max_issues) max_issues = from_file.max_issues;
  if (!given("max-issue-mb") && from_file.max_issue_mb) max_issue_mb = from_file.max_issue_mb;
  if (!given("max-file-mb") && from_file.max_file_mb) max_file_mb = from_file.max_file_mb;
  const auto threads = static_cast<unsigned>(*threads_option);

  ValidateOptions vopt;
  vopt.issues.max_issues = static_cast<std::size_t>(*max_issues);
  vopt.issues.max_issue_bytes = static_cast<std::size_t>(*max_issue_mb) << 20;
  vopt.load.max_file_bytes = *max_file_mb << 20;
  const auto lints = validator::lint_level_from_name((*vm)["lints"].as<std::string>());
  if (!lints) return usage("--lints must be off, hint, info or warning");
  vopt.issues.lints.level = !given("lints") && from_file.lints ? *from_file.lints : *lints;
  // Lists add up, the config's first: a command-line override of a code the
  // config overrides too comes later and wins. The config's words were
  // checked when it was read.
  for (const std::string& p : from_file.ignore) validator::ignore_codes(p, vopt.issues);
  for (const std::string& p : from_file.enable) validator::enable_lints(p, vopt.issues);
  for (const auto& [p, severity] : from_file.severity_overrides)
    validator::override_severity(p, severity, vopt.issues);
  // Codes and globs, each refused when it names nothing (a typo must not
  // silently ignore nothing).
  using Apply = std::string (*)(std::string_view, validator::IssueOptions&);
  const std::pair<const char*, Apply> kCodeOptions[] = {
      {"ignore", &validator::ignore_codes},
      {"severity-override",
       [](std::string_view w, validator::IssueOptions& o) {
         return validator::override_severity(w, o);
       }},
      {"enable", &validator::enable_lints}};
  for (const auto& [option, apply] : kCodeOptions) {
    if (!vm->count(option)) continue;
    for (const std::string& word : (*vm)[option].as<std::vector<std::string>>()) {
      if (std::string why = apply(word, vopt.issues); !why.empty()) return usage(why);
    }
  }
  if (vm->count("root")) {
    const fs::path root = (*vm)["root"].as<std::string>();
    std::error_code ec;
    if (!fs::is_directory(root, ec)) return usage("--root '" + root.string() + "' is not a folder");
    vopt.load.root = root;
  }

  reports::ValidationWriteOptions wopt;
  wopt.fail_on = *fail_on;
  wopt.issue_policy = vopt.issues;
  wopt.found_by = vm->count("merge-gltf-validator") != 0;
  if (!read_report_options(*vm, kHelp, wopt)) return kExitUsage;
  const bool timings = !(*vm)["no-timings"].as<bool>();

  std::vector<std::string> files;
  std::vector<std::string> folders;
  if (!collect((*vm)["path"].as<std::vector<std::string>>(), files, folders)) return kExitUsage;
  std::vector<std::uint64_t> positions;  // in the whole run, for --shard
  std::vector<std::string> all_files;     // the whole run's, when sharded and merging
  if (vm->count("shard")) {
    wopt.shard = parse_shard((*vm)["shard"].as<std::string>());
    if (!wopt.shard) {
      return usage("--shard wants K/N with 1 <= K <= N <= " + std::to_string(kMaxShards) +
                   ", got '" + (*vm)["shard"].as<std::string>() + "'");
    }
    // glTF-Validator's reports are matched against the whole run's files:
    // a report of an asset of another shard is that shard's, not an error.
    if (vm->count("merge-gltf-validator")) all_files = files;
    keep_shard(files, folders, *wopt.shard, positions);
  }

  // The report may not replace any file read: the assets (refused here, before
  // any work), standard input when it is a file, and the external buffers
  // (recorded by the loader, refused before the report replaces anything).
  CommandOutput output(kHelp, vm->count("output") ? std::optional((*vm)["output"].as<std::string>())
                                                  : std::nullopt);
  vopt.load.inputs = &output.inputs();
  if (from_file.identity) output.inputs().record(*from_file.identity, "the project config");
  if (std::find(files.begin(), files.end(), kStdin) != files.end()) {
    struct stat st {};
    if (::fstat(STDIN_FILENO, &st) == 0) {
      output.inputs().record({static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)},
                             "standard input");
    }
  }
  // glTF-Validator's reports, each matched to its asset before anything is
  // validated; read once, held for the run.
  std::vector<validator::GltfValidatorReport> foreign;
  std::vector<std::vector<const validator::GltfValidatorReport*>> foreign_of(files.size());
  if (vm->count("merge-gltf-validator")) {
    for (const std::string& path : (*vm)["merge-gltf-validator"].as<std::vector<std::string>>()) {
      std::optional<validator::FileIdentity> identity;
      std::string why;
      auto reports = validator::read_gltf_validator_reports(path, identity, why);
      if (!reports) return usage("bad glTF-Validator report '" + path + "': " + why);
      if (identity) output.inputs().record(*identity, path);
      foreign.insert(foreign.end(), std::make_move_iterator(reports->begin()),
                     std::make_move_iterator(reports->end()));
    }
    std::string why;
    const bool sharded = wopt.shard.has_value();
    const auto owners =
        validator::match_gltf_validator_reports(foreign, sharded ? all_files : files, why);
    if (!owners) return usage(why);
    // Run position -> index in this shard's files (positions is ascending).
    for (std::size_t k = 0; k < foreign.size(); ++k) {
      std::size_t owner = (*owners)[k];
      if (sharded) {
        const auto at = std::lower_bound(positions.begin(), positions.end(), owner);
        if (at == positions.end() || *at != owner) continue;  // another shard's asset
        owner = static_cast<std::size_t>(at - positions.begin());
      }
      foreign_of[owner].push_back(&foreign[k]);
    }
  }
  std::vector<std::string> named_files;  // "-" is standard input, recorded above
  std::copy_if(files.begin(), files.end(), std::back_inserter(named_files),
               [](const std::string& f) { return f != kStdin; });
  if (output.refused(named_files)) return kExitUsage;

  StdinBytes stdin_bytes;
  bool stdin_too_large = false;
  if (std::find(files.begin(), files.end(), kStdin) != files.end()) {
    if (!stdin_bytes.read_all(vopt.load.max_file_bytes)) {
      std::cerr << "gltf-anim validate: cannot read standard input: " << std::strerror(errno) << "\n";
      return kExitUsage;
    }
    stdin_too_large = stdin_bytes.bytes().size() > vopt.load.max_file_bytes;
    if (stdin_too_large) stdin_bytes.release();
  }

  reports::ValidationTotals totals;
  // Validates file i with glTF-Validator's findings folded in, timed (wall
  // clock: what a CI job waits for).
  auto run_one = [&](std::size_t i, reports::AssetRun& run) {
    const auto start = std::chrono::steady_clock::now();
    ValidationReport r =
        validate_guarded(files[i], folders[i], vopt, stdin_bytes.bytes(), stdin_too_large);
    try {
      for (const validator::GltfValidatorReport* theirs : foreign_of[i]) {
        validator::merge_gltf_validator_report(r, *theirs, vopt.issues);
      }
    } catch (const std::bad_alloc&) { r = failed_report(files[i], "out of memory"); }
    if (timings)
      run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!positions.empty()) run.position = positions[i];
    return r;
  };
  auto write = [&](reports::ValidationStreamWriter& writer, const ValidationReport& r,
                   const reports::AssetRun& run) {
    totals.add(r, *fail_on, run);
    writer.asset(r, run);
  };
  // Validates on `threads` workers and writes each report, in order, as soon as
  // it and all before it are done: at most kWindowPerThread x threads reports
  // are held at once, so memory does not grow with the number of assets.
  auto validate_and_write = [&](std::ostream& out) {
    const auto writer = reports::make_validation_writer(out, *format, wopt);
    const unsigned n_threads = std::min<unsigned>(threads, static_cast<unsigned>(files.size()));
    if (n_threads <= 1) {
      for (std::size_t i = 0; i < files.size(); ++i) {
        reports::AssetRun run;
        const ValidationReport r = run_one(i, run);
        write(*writer, r, run);
      }
    } else {
      constexpr std::size_t kWindowPerThread = 2;
      const std::size_t window = std::size_t{n_threads} * kWindowPerThread;
      std::vector<std::optional<std::pair<ValidationReport, reports::AssetRun>>> slots(window);
      std::mutex mutex;
      std::condition_variable slot_free, report_done;
      std::size_t next = 0, written = 0;
      bool stop = false;  // the writer failed: workers take nothing more
      auto worker = [&] {
        for (;;) {
          std::size_t i = 0;
          {
            std::unique_lock lock(mutex);
            slot_free.wait(lock, [&] { return stop || next >= files.size() || next < written + window; });
            if (stop || next >= files.size()) return;
            i = next++;
          }
          reports::AssetRun run;
          ValidationReport r = run_one(i, run);
          {
            std::lock_guard lock(mutex);
            slots[i % window].emplace(std::move(r), run);
          }
          report_done.notify_all();
        }
      };
      std::vector<std::jthread> pool;
      for (unsigned t = 0; t < n_threads; ++t) pool.emplace_back(worker);
      try {
        for (std::size_t i = 0; i < files.size(); ++i) {
          std::pair<ValidationReport, reports::AssetRun> done;
          {
            std::unique_lock lock(mutex);
            report_done.wait(lock, [&] { return slots[i % window].has_value(); });
            done = std::move(*slots[i % window]);
            slots[i % window].reset();
          }
          write(*writer, done.first, done.second);
          {
            std::lock_guard lock(mutex);
            written = i + 1;
          }
          slot_free.notify_all();
        }
      } catch (...) {
        {
          std::lock_guard lock(mutex);
          stop = true;
        }
        slot_free.notify_all();
        throw;  // the pool joins the workers as this unwinds
      }
    }
    writer->end();
  };

  if (!output.open()) return kExitUsage;
  validate_and_write(output.stream());
  return finish_report(output, kHelp, *vm, totals, *fail_on);
}

}  // namespace gltf_anim::cli

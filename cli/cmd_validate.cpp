// gltf-anim validate: validates .gltf/.glb assets (files, folders, or "-" for
// standard input) and writes one report in the chosen format.
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/validator/issue.hpp>
#include <gltf_anim/validator/validate.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

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
bool collect(const std::vector<std::string>& paths, std::vector<std::string>& out) {
  for (const std::string& p : paths) {
    if (p == kStdin) {
      if (std::find(out.begin(), out.end(), kStdin) != out.end()) {
        std::cerr << "gltf-anim validate: '-' (standard input) given twice\n";
        return false;
      }
      out.push_back(p);
      continue;
    }
    std::error_code ec;
    const fs::file_status st = fs::status(p, ec);
    if (ec || !fs::exists(st)) {
      const std::error_code why = ec ? ec : std::make_error_code(std::errc::no_such_file_or_directory);
      std::cerr << "gltf-anim validate: cannot access '" << p << "': " << why.message() << "\n";
      return false;
    }
    if (!fs::is_directory(st)) {
      out.push_back(p);
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
  }
  return true;
}

std::optional<Severity> severity_from_name(const std::string& s) {
  if (s == "error") return Severity::kError;
  if (s == "warning") return Severity::kWarning;
  if (s == "info") return Severity::kInfo;
  if (s == "hint") return Severity::kHint;
  return std::nullopt;
}

ValidationReport validate_one(const std::string& path, const ValidateOptions& options,
                              const std::vector<std::uint8_t>& stdin_bytes) {
  if (path == kStdin) {
    return validator::validate_bytes(stdin_bytes, kStdin, options.load.root, options);
  }
  return validator::validate_file(path, options);
}

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
  options.add_options()
      ("path", po::value<std::vector<std::string>>()->multitoken(), "asset file, folder or -")
      ("format", po::value<std::string>()->default_value("text"), "text, json, junit or sarif")
      ("output,o", po::value<std::string>(), "write the report to FILE instead of standard output")
      ("max-issues", po::value<std::string>()->default_value("100000"),
       "stop collecting issues of an asset after N (0 to 2^32-1; 0: no limit, memory then\n"
       "grows with the input: one issue per bad value); the report says truncated")
      ("ignore", po::value<std::vector<std::string>>()->composing(),
       "do not report CODE (repeatable)")
      ("severity-override", po::value<std::vector<std::string>>()->composing(),
       "CODE=N: report CODE with severity N (0 error, 1 warning, 2 info, 3 hint); repeatable")
      ("fail-on", po::value<std::string>()->default_value("error"),
       "error, warning or info: the least severe issue that makes the exit code 1")
      ("threads", po::value<std::string>()->default_value("1"),
       "assets validated in parallel, 1 to 256 (the output does not depend on it)")
      ("root", po::value<std::string>(),
       "external buffers may resolve anywhere inside DIR (default: the asset's folder)")
      ("max-file-mb", po::value<std::string>()->default_value("1024"),
       "refuse an asset or external buffer over N MiB (FILE_TOO_LARGE), before reading it;\n"
       "1 to 1048576");
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
  const auto format = reports::validation_format_from_name((*vm)["format"].as<std::string>());
  if (!format) return usage("unknown --format '" + (*vm)["format"].as<std::string>() + "'");
  const auto fail_on = severity_from_name((*vm)["fail-on"].as<std::string>());
  if (!fail_on || *fail_on == Severity::kHint) {
    return usage("--fail-on must be error, warning or info");
  }
  std::optional<std::uint64_t> threads_option, max_issues, max_file_mb;
  if (!integer_option(*vm, kHelp, "threads", 1, kMaxThreads, threads_option) ||
      !integer_option(*vm, kHelp, "max-issues", 0, kMaxIssuesOption, max_issues) ||
      !integer_option(*vm, kHelp, "max-file-mb", 1, kMaxFileMbOption, max_file_mb)) {
    return kExitUsage;
  }
  const auto threads = static_cast<unsigned>(*threads_option);

  ValidateOptions vopt;
  vopt.issues.max_issues = static_cast<std::size_t>(*max_issues);
  vopt.load.max_file_bytes = *max_file_mb << 20;
  if (vm->count("ignore")) {
    for (const std::string& code : (*vm)["ignore"].as<std::vector<std::string>>()) {
      if (validator::find_issue_type(code) == nullptr) return usage("unknown issue code '" + code + "'");
      vopt.issues.ignored.insert(code);
    }
  }
  if (vm->count("severity-override")) {
    for (const std::string& o : (*vm)["severity-override"].as<std::vector<std::string>>()) {
      const auto eq = o.find('=');
      const std::string code = o.substr(0, eq);
      const std::string level = eq == std::string::npos ? "" : o.substr(eq + 1);
      if (validator::find_issue_type(code) == nullptr) return usage("unknown issue code '" + code + "'");
      if (level.size() != 1 || level[0] < '0' || level[0] > '3') {
        return usage("--severity-override wants CODE=N with N in 0..3, got '" + o + "'");
      }
      vopt.issues.severity_overrides[code] = static_cast<Severity>(level[0] - '0');
    }
  }
  if (vm->count("root")) {
    const fs::path root = (*vm)["root"].as<std::string>();
    std::error_code ec;
    if (!fs::is_directory(root, ec)) return usage("--root '" + root.string() + "' is not a folder");
    vopt.load.root = root;
  }

  std::vector<std::string> files;
  if (!collect((*vm)["path"].as<std::vector<std::string>>(), files)) return kExitUsage;

  // The report may not replace any file read: the assets (refused here, before
  // any work), standard input when it is a file, and the external buffers
  // (recorded by the loader, refused before the report replaces anything).
  CommandOutput output(kHelp, vm->count("output") ? std::optional((*vm)["output"].as<std::string>())
                                                  : std::nullopt);
  vopt.load.inputs = &output.inputs();
  if (std::find(files.begin(), files.end(), kStdin) != files.end()) {
    struct stat st {};
    if (::fstat(STDIN_FILENO, &st) == 0) {
      output.inputs().record({static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)},
                             "standard input");
    }
  }
  std::vector<std::string> named_files;  // "-" is standard input, recorded above
  std::copy_if(files.begin(), files.end(), std::back_inserter(named_files),
               [](const std::string& f) { return f != kStdin; });
  if (output.refused(named_files)) return kExitUsage;

  std::vector<std::uint8_t> stdin_bytes;
  if (std::find(files.begin(), files.end(), kStdin) != files.end()) {
    std::ios::sync_with_stdio(false);
    // At most one byte over the limit: enough for load_bytes to refuse it
    // (FILE_TOO_LARGE) without holding an endless pipe in memory.
    const std::uint64_t cap = vopt.load.max_file_bytes + 1;
    std::istreambuf_iterator<char> it(std::cin), end;
    for (; it != end && stdin_bytes.size() < cap; ++it) {
      stdin_bytes.push_back(static_cast<std::uint8_t>(*it));
    }
  }

  // Each report goes to its own slot: the output is the same for any --threads.
  std::vector<ValidationReport> results(files.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < files.size(); i = next++) {
      results[i] = validate_one(files[i], vopt, stdin_bytes);
    }
  };
  const unsigned n_threads = std::min<unsigned>(threads, static_cast<unsigned>(files.size()));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < n_threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();

  reports::ValidationWriteOptions wopt;
  wopt.fail_on = *fail_on;
  if (!output.open()) return kExitUsage;
  reports::write_validation(output.stream(), *format, results, wopt);
  int verdict = kExitOk;
  for (const ValidationReport& r : results) {
    if (reports::reaches(r, *fail_on)) verdict = kExitFindings;
  }
  return output.finish(verdict);
}

}  // namespace gltf_anim::cli

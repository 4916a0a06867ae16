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

#include "cli_common.hpp"
#include "commands.hpp"

namespace gltf_anim::cli {
namespace {

namespace fs = std::filesystem;
using validator::Severity;
using validator::ValidateOptions;
using validator::ValidationReport;

constexpr const char* kStdin = "-";

bool is_asset_file(const fs::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext == ".gltf" || ext == ".glb";
}

// Expands PATH arguments: files as given, folders recursively (sorted), "-".
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
    fs::recursive_directory_iterator it(p, fs::directory_options::skip_permission_denied, ec);
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      std::error_code fec;
      if (it->is_regular_file(fec) && is_asset_file(it->path())) {
        found.push_back(it->path().generic_string());
      }
    }
    if (ec) {
      std::cerr << "gltf-anim validate: cannot read folder '" << p << "': " << ec.message() << "\n";
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
      ("max-issues", po::value<std::size_t>()->default_value(100000),
       "stop collecting issues of an asset after N (0: no limit, memory then grows with\n"
       "the input: one issue per bad value); the report says truncated")
      ("ignore", po::value<std::vector<std::string>>()->composing(),
       "do not report CODE (repeatable)")
      ("severity-override", po::value<std::vector<std::string>>()->composing(),
       "CODE=N: report CODE with severity N (0 error, 1 warning, 2 info, 3 hint); repeatable")
      ("fail-on", po::value<std::string>()->default_value("error"),
       "error, warning or info: the least severe issue that makes the exit code 1")
      ("threads", po::value<unsigned>()->default_value(1),
       "assets validated in parallel (the output does not depend on it)")
      ("root", po::value<std::string>(),
       "external buffers may resolve anywhere inside DIR (default: the asset's folder)")
      ("max-file-mb", po::value<unsigned>()->default_value(1024),
       "refuse an asset or external buffer over N MiB (FILE_TOO_LARGE), before reading it");
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
  const unsigned threads = (*vm)["threads"].as<unsigned>();
  if (threads == 0 || threads > kMaxThreads) {
    return usage("--threads must be between 1 and " + std::to_string(kMaxThreads));
  }

  ValidateOptions vopt;
  vopt.issues.max_issues = (*vm)["max-issues"].as<std::size_t>();
  vopt.load.max_file_bytes = std::uint64_t{(*vm)["max-file-mb"].as<unsigned>()} << 20;
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
  if (vm->count("output")) {
    const std::string path = (*vm)["output"].as<std::string>();
    std::ofstream out(path, std::ios::binary);
    if (!out) {
      std::cerr << "gltf-anim validate: cannot write '" << path << "'\n";
      return kExitUsage;
    }
    reports::write_validation(out, *format, results, wopt);
    out.close();
    if (!out) {
      std::cerr << "gltf-anim validate: error writing '" << path << "'\n";
      return kExitUsage;
    }
  } else {
    reports::write_validation(std::cout, *format, results, wopt);
    std::cout.flush();
  }
  for (const ValidationReport& r : results) {
    if (reports::reaches(r, *fail_on)) return kExitFindings;
  }
  return kExitOk;
}

}  // namespace gltf_anim::cli

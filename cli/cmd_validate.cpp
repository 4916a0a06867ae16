// gltf-anim validate: validates .gltf/.glb assets (files, folders, or "-" for
// standard input) and writes one report in the chosen format. The command
// parses and wires; the run's options are resolved by validator/run_options.hpp
// and the assets validated in order by validator/batch.hpp.
#include <gltf_anim/io/input_files.hpp>
#include <gltf_anim/io/stdin_bytes.hpp>
#include <gltf_anim/reports/formats.hpp>
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/validator/batch.hpp>
#include <gltf_anim/validator/gltf_validator_report.hpp>
#include <gltf_anim/validator/issue_policy.hpp>
#include <gltf_anim/validator/run_config.hpp>
#include <gltf_anim/validator/run_options.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "ci_report.hpp"
#include "cli_common.hpp"
#include "commands.hpp"

namespace gltf_anim::cli {
namespace {

namespace fs = std::filesystem;
using validator::kStandardInputPath;

const CommandHelp kHelp{
    "validate", "gltf-anim validate [options] PATH...",
    "Validates glTF 2.0 assets (.gltf, .glb) against the JSON schema and the core\n"
    "animation rules, with glTF-Validator's issue codes and pointers. PATH is a file,\n"
    "a folder (searched recursively for .gltf/.glb, in sorted order) or '-' for one\n"
    "asset on standard input. Exit code: 0 when no issue reaches --fail-on, 1 when\n"
    "one does, 2 for usage or I/O errors of the command itself.",
    "gltf-anim validate --format json --output report.json assets/"};

int usage(const std::string& what) {
  std::cerr << "gltf-anim validate: " << what << "\nTry 'gltf-anim validate --help'.\n";
  return kExitUsage;
}
// The same, for the steps that return whether they succeeded.
bool refuse(const std::string& what) {
  usage(what);
  return false;
}

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
    if (p == kStandardInputPath) {
      if (std::find(out.begin(), out.end(), kStandardInputPath) != out.end()) {
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
    // The folder a failure is in: the iterator fails when it enters a subfolder it cannot
    // read (name that subfolder, not the one the user gave) or reads on in the current one.
    std::string failed = p;
    for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      std::error_code fec;
      const fs::file_status own = it->symlink_status(fec);
      if (fec) {
        ec = fec;
        failed = it->path().parent_path().generic_string();
        break;
      }
      failed = fs::is_directory(own) ? it->path().generic_string()
                                     : it->path().parent_path().generic_string();
      if (fs::is_symlink(own)) {
        std::cerr << "gltf-anim validate: skipping symbolic link '" << it->path().generic_string()
                  << "' (links inside a folder are not followed)\n";
      } else if (fs::is_regular_file(own) && is_asset_file(it->path())) {
        found.push_back(it->path().generic_string());
      }
    }
    if (ec) {
      std::cerr << "gltf-anim validate: cannot read folder '" << failed << "': " << ec.message()
                << "\n";
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

// The longest --files-from list: a million paths of 256 bytes.
constexpr std::uint64_t kMaxPathListBytes = std::uint64_t{256} << 20;
// The longest line of it.
constexpr std::size_t kMaxPathListLine = std::size_t{64} << 10;

// --files-from: one PATH a line (a '\r' before the '\n' is dropped, empty
// lines are skipped), from FILE or standard input ("-"), appended to `out`.
// For libraries whose paths do not fit in a command line. false with the
// usage error printed.
bool read_path_list(const std::string& list, std::vector<std::string>& out) {
  std::ifstream file;
  if (list != kStandardInputPath) {
    file.open(list, std::ios::binary);
    if (!file) return refuse("cannot read --files-from '" + list + "': " + std::strerror(errno));
  }
  std::istream& in = list == kStandardInputPath ? std::cin : file;
  // Byte by byte against the limit: std::getline grows a line until it ends, so a list
  // without a newline (/dev/zero on standard input) took 15.7 GB and 222 s before failing
  // with "Cannot allocate memory" (and the npm CLI ran on for ever).
  std::uint64_t bytes = 0, line_number = 1;
  std::string line;
  auto end_line = [&] {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) out.push_back(std::move(line));
    line.clear();
  };
  std::streambuf* buffer = in.rdbuf();
  for (int c = buffer->sbumpc(); c != std::char_traits<char>::eof(); c = buffer->sbumpc()) {
    if (++bytes > kMaxPathListBytes) {
      return refuse("--files-from '" + list + "' is longer than " +
                    std::to_string(kMaxPathListBytes >> 20) + " MiB");
    }
    if (c == '\n') {
      end_line();
      ++line_number;
    } else if (line.size() == kMaxPathListLine) {
      // No path is that long (PATH_MAX is 4,096): not a list of paths.
      return refuse("--files-from '" + list + "': line " + std::to_string(line_number) +
                    " is longer than " + std::to_string(kMaxPathListLine) +
                    " bytes, longer than any path");
    } else {
      line.push_back(static_cast<char>(c));
    }
  }
  end_line();
  if (in.bad()) return refuse("cannot read --files-from '" + list + "': " + std::strerror(errno));
  return true;
}

po::options_description validate_options() {
  po::options_description options("Options");
  // One option per line: the chained calls read as a table.
  // clang-format off
  options.add_options()
      ("path", po::value<std::vector<std::string>>()->multitoken(), "asset file, folder or -")
      ("files-from", po::value<std::string>(),
       "read further PATHs from FILE, one a line ('-': from standard input), for more\n"
       "assets than a command line holds")
      ("format", po::value<std::string>()->default_value(std::string(validator::kDefaultRunFormat)), reports::validation_format_names().c_str())
      ("output,o", po::value<std::string>(), "write the report to FILE instead of standard output")
      ("max-issues", po::value<std::string>()->default_value(std::to_string(validator::kDefaultRunMaxIssues)),
       "stop collecting issues of an asset after N (0 to 2^32-1; 0: no limit, memory then\n"
       "grows with the input: one issue per bad value); the report says truncated")
      ("ignore", po::value<std::vector<std::string>>()->composing(),
       "do not report CODE (repeatable); a glob ('*', '?') names every code it matches, "
       "e.g. 'LINT_*'")
      ("severity-override", po::value<std::vector<std::string>>()->composing(),
       "CODE=N: report CODE (or a glob's codes) with severity N (0 error, 1 warning, "
       "2 info, 3 hint); repeatable")
      ("lints", po::value<std::string>()->default_value(std::string(validator::lint_level_name(validator::kDefaultRunLints))),
       "off, hint, info or warning: the most severe a lint (LINT_*, advice beyond the "
       "specs) is reported as; info keeps assets without spec warnings green under "
       "--fail-on warning")
      ("enable", po::value<std::vector<std::string>>()->composing(),
       "report the opt-in lint CODE (or a glob's opt-in lints, e.g. 'LINT_*'); repeatable")
      ("fail-on", po::value<std::string>()->default_value("error"),
       "error, warning or info: the least severe issue that makes the exit code 1")
      ("threads", po::value<std::string>()->default_value(std::to_string(validator::kDefaultRunThreads)),
       "assets validated in parallel, 1 to 256 (the output does not depend on it)")
      ("root", po::value<std::string>(),
       "external buffers may resolve anywhere inside DIR (default: the asset's folder)")
      ("max-issue-mb", po::value<std::string>()->default_value(std::to_string(validator::kDefaultRunMaxIssueMb)),
       "stop collecting issues of an asset once they hold N MiB (0: no limit, up to\n"
       "1048576); pointers and messages are cut at 1 KiB; the report says truncated")
      ("max-file-mb", po::value<std::string>()->default_value(std::to_string(validator::kDefaultRunMaxFileMb)),
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
  return options;
}

// The project config: --config FILE, else the current folder's
// .gltf-anim.json; --no-config reads neither. An empty config when there is
// none; false with the usage error printed when it cannot be read or is bad.
bool read_config(const po::variables_map& vm, validator::RunConfig& config) {
  const bool no_config = vm["no-config"].as<bool>();
  if (vm.count("config") && no_config) return refuse("--config and --no-config exclude each other");
  std::optional<validator::RunConfig> read;
  std::string why;
  if (vm.count("config")) {
    const std::string path = vm["config"].as<std::string>();
    read = validator::read_run_config(path, why);
    if (!read) return refuse("bad config '" + path + "': " + why);
  } else if (!no_config) {
    bool found = false;
    read = validator::read_current_folder_config(found, why);
    if (found && !read)
      return refuse("bad config '" + std::string(validator::kConfigFileName) + "': " + why);
  }
  if (read) config = std::move(*read);
  return true;
}

// What the command line says, parsed; an option left at its default is not
// given (the config's value, else the default, applies). false with the usage
// error printed on a bad value.
bool command_line_values(const po::variables_map& vm, validator::RunArguments& given) {
  auto set = [&](const char* name) { return vm.count(name) != 0 && !vm[name].defaulted(); };
  const std::string format_name = vm["format"].as<std::string>();
  if (!reports::validation_format_from_name(format_name))
    return refuse("unknown --format '" + format_name + "'");
  if (set("format")) given.format = format_name;
  const auto fail_on = validator::severity_from_name(vm["fail-on"].as<std::string>());
  if (!fail_on || *fail_on == gltf::Severity::kHint)
    return refuse("--fail-on must be error, warning or info");
  if (set("fail-on")) given.fail_on = fail_on;
  struct Number {
    const char* name;
    std::uint64_t min, max;
    std::optional<std::uint64_t>* out;
  };
  for (const Number& n :
       {Number{"threads", 1, validator::kMaxRunThreads, &given.threads},
        Number{"max-issues", 0, validator::kMaxRunIssues, &given.max_issues},
        Number{"max-issue-mb", 0, validator::kMaxRunMebibytes, &given.max_issue_mb},
        Number{"max-file-mb", 1, validator::kMaxRunMebibytes, &given.max_file_mb}}) {
    if (!integer_option(vm, kHelp, n.name, n.min, n.max, *n.out)) return false;
    if (!set(n.name)) n.out->reset();
  }
  const auto lints = validator::lint_level_from_name(vm["lints"].as<std::string>());
  if (!lints) return refuse("--lints must be off, hint, info or warning");
  if (set("lints")) given.lints = lints;
  for (auto [name, out] : {std::pair{"ignore", &given.ignore},
                           std::pair{"severity-override", &given.severity_override},
                           std::pair{"enable", &given.enable}}) {
    if (vm.count(name)) *out = vm[name].as<std::vector<std::string>>();
  }
  if (vm.count("root")) given.root = vm["root"].as<std::string>();
  return true;
}

// glTF-Validator's reports (--merge-gltf-validator), each recorded among the
// inputs; false with the usage error printed when one cannot be read.
bool read_gltf_validator(const po::variables_map& vm, io::InputFiles& inputs,
                         std::vector<validator::GltfValidatorReport>& out) {
  for (const std::string& path : vm["merge-gltf-validator"].as<std::vector<std::string>>()) {
    std::optional<io::FileIdentity> identity;
    std::string why;
    auto reports = validator::read_gltf_validator_reports(path, identity, why);
    if (!reports) return refuse("bad glTF-Validator report '" + path + "': " + why);
    if (identity) inputs.record(*identity, path);
    out.insert(out.end(), std::make_move_iterator(reports->begin()),
               std::make_move_iterator(reports->end()));
  }
  return true;
}

}  // namespace

int run_validate(const std::vector<std::string>& args) {
  po::positional_options_description positional;
  positional.add("path", -1);
  int exit_code = kExitOk;
  const auto vm = parse_command_line(kHelp, validate_options(), positional, args, exit_code);
  if (!vm) return exit_code;
  std::vector<std::string> paths;
  if (vm->count("path")) paths = (*vm)["path"].as<std::vector<std::string>>();
  if (vm->count("files-from")) {
    const std::string list = (*vm)["files-from"].as<std::string>();
    if (list == kStandardInputPath &&
        std::find(paths.begin(), paths.end(), kStandardInputPath) != paths.end()) {
      return usage("standard input cannot hold both the --files-from list and an asset ('-')");
    }
    if (!read_path_list(list, paths)) return kExitUsage;
    if (list == kStandardInputPath &&
        std::find(paths.begin(), paths.end(), kStandardInputPath) != paths.end()) {
      return usage("the --files-from list on standard input names standard input ('-')");
    }
  }
  if (paths.empty()) return usage("no PATH given");
  validator::RunConfig config;
  validator::RunArguments given;
  if (!read_config(*vm, config) || !command_line_values(*vm, given)) return kExitUsage;
  std::string why;
  auto run = validator::resolve_run_options(config, given, why);
  if (!run) return usage(why);
  const auto format = reports::validation_format_from_name(run->format);
  if (!format) return usage("unknown --format '" + run->format + "'");

  reports::ValidationWriteOptions wopt;
  wopt.fail_on = run->fail_on;
  wopt.issue_policy = run->validate.issues;
  const bool merging = vm->count("merge-gltf-validator") != 0;
  wopt.found_by = merging;
  if (!read_report_options(*vm, kHelp, wopt)) return kExitUsage;
  const bool timings = !(*vm)["no-timings"].as<bool>();

  std::vector<std::string> files;
  std::vector<std::string> folders;
  if (!collect(paths, files, folders)) return kExitUsage;
  std::vector<std::uint64_t> positions;  // in the whole run, for --shard
  std::vector<std::string> all_files;     // the whole run's, when sharded and merging
  if (vm->count("shard")) {
    wopt.shard = parse_shard((*vm)["shard"].as<std::string>());
    if (!wopt.shard) {
      return usage("--shard wants K/N with 1 <= K <= N <= " + std::to_string(kMaxShards) +
                   ", got '" + (*vm)["shard"].as<std::string>() + "'");
    }
    std::vector<std::string> merged;  // glTF-Validator's reports: inputs of every shard
    if (merging) merged = (*vm)["merge-gltf-validator"].as<std::vector<std::string>>();
    wopt.shard->run = validator::run_identity(*run, files, merged);
    if (merging) all_files = files;
    keep_shard(files, folders, *wopt.shard, positions);
  }

  // The report may not replace any file read: the assets (refused here, before
  // any work), standard input when it is a file, and the external buffers
  // (recorded by the loader, refused before the report replaces anything).
  CommandOutput output(kHelp, vm->count("output") ? std::optional((*vm)["output"].as<std::string>())
                                                  : std::nullopt);
  run->validate.load.inputs = &output.inputs();
  if (config.identity) output.inputs().record(*config.identity, "the project config");
  const bool reads_stdin = std::find(files.begin(), files.end(), kStandardInputPath) != files.end();
  if (reads_stdin) {
    if (const auto id = io::standard_input_identity())
      output.inputs().record(*id, "standard input");
  }
  // glTF-Validator's reports, each matched to its asset before anything is
  // validated; read once, held for the run. A shard's are matched against the
  // whole run's files: a report of another shard's asset is not an error.
  std::vector<validator::GltfValidatorReport> foreign;
  auto foreign_of = std::optional(validator::GltfValidatorReportsByAsset(files.size()));
  if (merging) {
    if (!read_gltf_validator(*vm, output.inputs(), foreign)) return kExitUsage;
    foreign_of = wopt.shard ? validator::gltf_validator_reports_by_shard_asset(foreign, all_files,
                                                                               positions, why)
                            : validator::gltf_validator_reports_by_asset(foreign, files, why);
    if (!foreign_of) return usage(why);
  }
  std::vector<std::string> named_files;  // "-" is standard input, recorded above
  std::copy_if(files.begin(), files.end(), std::back_inserter(named_files),
               [](const std::string& f) { return f != kStandardInputPath; });
  if (vm->count("files-from") && (*vm)["files-from"].as<std::string>() != kStandardInputPath) {
    named_files.push_back((*vm)["files-from"].as<std::string>());  // the list is an input too
  }
  if (output.refused(named_files)) return kExitUsage;

  io::StdinBytes stdin_bytes;
  validator::StandardInput standard_input;
  if (reads_stdin) {
    if (!stdin_bytes.read_all(run->validate.load.max_file_bytes)) {
      std::cerr << "gltf-anim validate: cannot read standard input: " << std::strerror(errno) << "\n";
      return kExitUsage;
    }
    standard_input.too_large = stdin_bytes.too_large();
    if (standard_input.too_large) stdin_bytes.release();
    standard_input.bytes = stdin_bytes.bytes();
  }

  // Asset i, with glTF-Validator's findings folded in (before its issues are
  // located, so theirs get positions too).
  auto validate = [&](std::size_t i) {
    return validator::validate_path(
        files[i], folders[i], run->validate, standard_input, [&](validator::ValidationReport& r) {
          validator::merge_gltf_validator_reports(r, (*foreign_of)[i], run->validate.issues);
        });
  };
  if (!output.open()) return kExitUsage;
  wopt.spool_folder = output.folder();
  const auto writer = reports::make_validation_writer(output.stream(), *format, wopt);
  reports::ValidationTotals totals;
  auto write = [&](std::size_t i, validator::ValidatedAsset&& done) {
    reports::AssetRun asset_run;
    if (timings) asset_run.seconds = done.seconds;
    if (!positions.empty()) asset_run.position = positions[i];
    totals.add(done.report, run->fail_on, asset_run);
    writer->asset(done.report, asset_run);
  };
  validator::validate_in_order(files, run->threads, validate, write);
  writer->end();
  return finish_report(output, kHelp, *vm, totals, run->fail_on);
}

}  // namespace gltf_anim::cli

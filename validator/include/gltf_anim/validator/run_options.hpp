#pragma once
// The options of a validation run, resolved from the project config
// (run_config.hpp) and what the command line said: a value given on the command
// line wins over the config's, which wins over the default; the code lists
// (ignore, enable, severity overrides) add up, the config's first, so a
// command-line override of a code the config overrides too comes later and wins.
// The command line's words are parsed by its parser; this takes plain values,
// so any front end (the CLI, a build plugin) resolves a run the same way.
#include <gltf_anim/gltf/issue.hpp>
#include <gltf_anim/gltf/issue_collector.hpp>
#include <gltf_anim/validator/run_config.hpp>
#include <gltf_anim/validator/validate.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gltf_anim::validator {

// Ranges of the run's numbers, the same on the command line and in the config
// (its schema says so): threads are real OS threads, so a typo like 100000 is
// refused, not obeyed; sizes are MiB, at most 1 TiB.
inline constexpr std::uint64_t kMaxRunThreads = 256;
inline constexpr std::uint64_t kMaxRunIssues = 0xFFFFFFFFu;  // 0: no limit
inline constexpr std::uint64_t kMaxRunMebibytes = std::uint64_t{1} << 20;

// What a run uses when neither the command line nor the config sets it.
inline constexpr std::uint64_t kDefaultRunThreads = 1;
inline constexpr std::uint64_t kDefaultRunMaxIssues = 100000;
inline constexpr std::uint64_t kDefaultRunMaxIssueMb = 64;
inline constexpr std::uint64_t kDefaultRunMaxFileMb = 1024;
inline constexpr gltf::LintLevel kDefaultRunLints = gltf::LintLevel::kInfo;
inline constexpr gltf::Severity kDefaultRunFailOn = gltf::Severity::kError;
inline constexpr std::string_view kDefaultRunFormat = "text";

// What the command line said, parsed: nullopt (or empty) when not given.
struct RunArguments {
  std::optional<std::string> format;  // a report format name; the caller checks it
  std::optional<gltf::Severity> fail_on;  // error, warning or info
  std::optional<gltf::LintLevel> lints;
  std::optional<std::uint64_t> threads;
  std::optional<std::uint64_t> max_issues;
  std::optional<std::uint64_t> max_issue_mb;
  std::optional<std::uint64_t> max_file_mb;
  std::vector<std::string> ignore;             // codes and globs
  std::vector<std::string> severity_override;  // "CODE=N" (or a glob's codes)
  std::vector<std::string> enable;             // opt-in lints, codes and globs
  std::optional<std::filesystem::path> root;   // must be a folder
};

// The resolved run.
struct RunOptions {
  ValidateOptions validate;
  gltf::Severity fail_on = kDefaultRunFailOn;
  std::string format{kDefaultRunFormat};
  unsigned threads = static_cast<unsigned>(kDefaultRunThreads);
};

// nullopt with `why` (a sentence for a usage error) when a value is out of its
// range, a code or glob of the command line names nothing, --fail-on is hint,
// or the root is not a folder. The config's words were checked when it was read.
std::optional<RunOptions> resolve_run_options(const RunConfig& config,
                                              const RunArguments& arguments, std::string& why);

// A run's identity, shared by the shards of one run and written in each
// shard's json report, so that `gltf-anim merge` joins only parts of one run:
// a digest (32 hex digits) of the whole run's asset paths in order, what
// decides the reports (ignored codes, severity overrides, lint level and
// opt-in lints, issue and file limits, root, fail-on) and `other_inputs` (the
// glTF-Validator reports merged, by path). Threads and the report format
// change no report and are left out. Not a security digest: it tells runs
// apart, it does not authenticate them.
std::string run_identity(const RunOptions& run, const std::vector<std::string>& run_assets,
                         const std::vector<std::string>& other_inputs);

}  // namespace gltf_anim::validator

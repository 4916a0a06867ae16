#pragma once
// The project config file of `gltf-anim validate` (.gltf-anim.json): the
// validate options a project sets once (ignore, severity-override, lints,
// enable, fail-on, format, threads, the limits), each member named after its
// command-line option. Checked against our own JSON Schema
// (validator/config/gltf-anim-config.schema.json, embedded) and then against
// the registry (codes and globs that name nothing are refused, as on the
// command line). Hostile input: at most kMaxConfigBytes, UTF-8 validated,
// nesting limited, a regular file only.
#include <gltf_anim/gltf/issue.hpp>
#include <gltf_anim/gltf/issue_collector.hpp>
#include <gltf_anim/io/input_files.hpp>
#include <gltf_anim/io/output_file.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gltf_anim::validator {

inline constexpr std::string_view kConfigFileName = ".gltf-anim.json";
inline constexpr std::uint64_t kMaxConfigBytes = std::uint64_t{1} << 20;

// What a config file sets; absent members are nullopt or empty.
struct RunConfig {
  std::vector<std::string> ignore;                                   // codes and globs
  std::vector<std::pair<std::string, gltf::Severity>> severity_overrides;  // in file order
  std::optional<gltf::LintLevel> lints;
  std::vector<std::string> enable;
  std::optional<gltf::Severity> fail_on;
  std::optional<std::string> format;
  std::optional<std::uint64_t> threads;
  std::optional<std::uint64_t> max_issues;
  std::optional<std::uint64_t> max_issue_mb;
  std::optional<std::uint64_t> max_file_mb;
  std::optional<io::FileIdentity> identity;  // of the file read (an output must not replace it)
};

// The schema the config is checked against (for `gltf-anim validate --help`
// readers and editors; the file is in the repository too).
std::string_view run_config_schema();

// Checks `text` and returns what it sets, or nullopt with `why`: the JSON
// pointer of the bad member and what is wrong ("/ignore/1: unknown issue code
// 'X' ..."), or the JSON syntax error with its line and column.
std::optional<RunConfig> parse_run_config(std::string_view text, std::string& why);

// Reads the config file `path` (named by --config: followed like any path the
// user names). nullopt with `why` when it cannot be read or is bad.
std::optional<RunConfig> read_run_config(const std::filesystem::path& path, std::string& why);

// The current folder's .gltf-anim.json, if there is one: found = false and
// nullopt when there is none. Only that file is read (no parent folder), and
// only when it resolves inside the current folder (a symlink out of it is
// refused, never followed).
std::optional<RunConfig> read_current_folder_config(bool& found, std::string& why);

}  // namespace gltf_anim::validator

#pragma once
// Shared plumbing of the gltf-anim subcommands: exit codes and the
// Boost.Program_options parse/--help convention every subcommand follows.
#include <boost/program_options.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gltf_anim::cli {

// Exit codes, the same for every subcommand.
enum ExitCode : int {
  kExitOk = 0,        // nothing reached the failure threshold
  kExitFindings = 1,  // findings (validation issues, failed conformance cases)
  kExitUsage = 2,     // usage error, unreadable input, unwritable output
};

// Upper bound of --threads: every thread is a real OS thread with its own
// buffers, so a typo like --threads 100000 must be refused, not obeyed.
inline constexpr unsigned kMaxThreads = 256;

namespace po = boost::program_options;

// What a subcommand tells the parser about itself; used for --help.
struct CommandHelp {
  const char* name;     // e.g. "validate"
  const char* usage;    // e.g. "gltf-anim validate [options] PATH..."
  const char* summary;  // one paragraph
  const char* example;  // at least one runnable example
};

// Parses `args` (the words after the subcommand name). Adds --help itself.
// Returns the variables on success; on --help prints help to stdout and sets
// `exit_code` to kExitOk; on a usage error prints it to stderr and sets
// kExitUsage. In both of those cases returns nullopt.
std::optional<po::variables_map> parse_command_line(
    const CommandHelp& help, po::options_description options,
    const po::positional_options_description& positional,
    const std::vector<std::string>& args, int& exit_code);

}  // namespace gltf_anim::cli

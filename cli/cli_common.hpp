#pragma once
// Shared plumbing of the gltf-anim subcommands: exit codes, the
// Boost.Program_options parse/--help convention every subcommand follows, the
// range check of numeric options, and where a command's output goes.
#include <gltf_anim/io/input_files.hpp>
#include <gltf_anim/io/output_file.hpp>

#include <boost/program_options.hpp>

#include <cstdint>
#include <exception>
#include <filesystem>
#include <optional>
#include <ostream>
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

// Numeric options are declared as po::value<std::string> and read with these:
// Boost would accept "-1" for an unsigned option and wrap it to 2^64 - 1 (an
// endless loop, or "no limit" by accident). An integer option takes decimal
// digits only, within [min, max]; a number option a finite decimal within
// [min, max] (above min when min_exclusive). On a bad value both print a usage
// error naming the option, its range and the value, and return false; `out` is
// left unset when the option is absent and has no default.
// What a command says when it stops on an exception: "out of memory" for std::bad_alloc (its
// what() names only the type, and in WebAssembly it means the heap reached its maximum), else
// the exception's own message.
std::string failure_reason(const std::exception& e);

bool integer_option(const po::variables_map& vm, const CommandHelp& help, const char* name,
                    std::uint64_t min, std::uint64_t max, std::optional<std::uint64_t>& out);
bool number_option(const po::variables_map& vm, const CommandHelp& help, const char* name,
                   double min, double max, bool min_exclusive, std::optional<double>& out);

// Where a command writes: --output FILE or standard output.
// A file is written through io::OutputFile (a temporary renamed into
// place on success); standard output through an FdOstream, so a failed write
// (full disk, closed pipe...) is seen with its reason. The target, when it
// exists, is watched among the inputs (inputs()): finish() refuses to replace
// an input, and refused() lets a command stop before doing any work.
class CommandOutput {
 public:
  CommandOutput(const CommandHelp& help, std::optional<std::string> path);
  CommandOutput(const CommandOutput&) = delete;
  CommandOutput& operator=(const CommandOutput&) = delete;

  io::InputFiles& inputs() { return inputs_; }
  // Records each path (when it exists) as an input, then: true, with the
  // refusal printed, when an input recorded so far is the output target.
  bool refused(const std::vector<std::string>& paths = {});
  // Creates the temporary file (a no-op for standard output). false, with the
  // reason printed, when it cannot.
  bool open();
  std::ostream& stream();
  // The folder the output file goes to (empty for standard output): where a
  // writer may spool what it holds back, since the report needs room there anyway.
  std::filesystem::path folder() const;
  // Ends the output: refuses it if an input read meanwhile is the target, else
  // flushes and (for a file) renames it into place. Returns `exit_code`, or
  // kExitUsage with the reason printed when anything failed.
  int finish(int exit_code);
  // Drops the output (a file's temporary is removed, the target untouched);
  // finish() then returns kExitUsage without a further message.
  void discard();

 private:
  const CommandHelp& help_;
  std::optional<std::string> path_;
  io::InputFiles inputs_;
  std::optional<io::OutputFile> file_;
  std::optional<io::FdOstream> stdout_;
  bool discarded_ = false;
};

}  // namespace gltf_anim::cli

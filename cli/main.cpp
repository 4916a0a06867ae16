// gltf-anim: one CLI, subcommands dispatched from the table below.
#include <gltf_anim/io/output_file.hpp>
#include <gltf_anim/version.hpp>

#include <gltf_anim/text/words.hpp>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "cli_common.hpp"
#include "commands.hpp"
#include "visible_stderr.hpp"

namespace {

using gltf_anim::cli::failure_reason;
using gltf_anim::cli::kExitOk;
using gltf_anim::cli::kExitUsage;

struct Subcommand {
  const char* name;
  const char* summary;
  int (*run)(const std::vector<std::string>&);
};

constexpr Subcommand kSubcommands[] = {
    {"codes", "list every issue code with severity, message and rule", gltf_anim::cli::run_codes},
    {"compare", "compare golden and actual samples: conformance report",
     gltf_anim::cli::run_compare},
    {"fit", "LINEAR channels to CUBICSLERP or CUBICSPLINE within a bound", gltf_anim::cli::run_fit},
    {"fix", "repair animation data by the issue codes it answers; write a new asset",
     gltf_anim::cli::run_fix},
    {"generate", "write the conformance suite: assets, golden samples, manifest",
     gltf_anim::cli::run_generate},
    {"merge", "join validate's json reports (e.g. of --shard runs) into one report",
     gltf_anim::cli::run_merge},
    {"migrate", "move channels between KHR_animation2 and KHR_animation_pointer",
     gltf_anim::cli::run_migrate},
    {"reduce", "remove keyframes within a guaranteed error bound", gltf_anim::cli::run_reduce},
    {"sample", "sample an asset's animations with the reference evaluator",
     gltf_anim::cli::run_sample},
    {"squad-report", "modified-SQUAD verification bench beside the seed's figures",
     gltf_anim::cli::run_squad_report},
    {"validate", "validate .gltf/.glb assets: schema, animation rules, data",
     gltf_anim::cli::run_validate},

};

void print_usage(std::ostream& out) {
  out << "Usage: gltf-anim <command> [options]\n"
         "       gltf-anim --version | --help\n\n"
         "Commands:\n";
  for (const auto& c : kSubcommands) {
    out << "  " << c.name << std::string(14 - std::min<size_t>(13, std::strlen(c.name)), ' ')
        << c.summary << "\n";
  }
  out << "\nRun 'gltf-anim <command> --help' for a command's options and an example.\n"
         "Exit codes: 0 ok, 1 findings, 2 usage or I/O error.\n";
}

// Standard output as the streams left it: a command that printed to std::cout
// (help, a summary line) exits 2 with the reason when it did not get out.
int check_stdout(const char* command, int exit_code) {
  // Output longer than the stream's buffer failed while it was written: the
  // errno of that write is the reason (a flush now finds nothing to write).
  const int earlier = !std::cout ? errno : 0;
  errno = 0;
  std::cout.flush();
  const bool failed = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout);
  if (!failed) return exit_code;
  const int e = errno != 0 ? errno : earlier != 0 ? earlier : EIO;
  std::cerr << "gltf-anim" << (command[0] ? " " : "") << command
            << ": cannot write standard output: " << gltf_anim::text::errno_text(e) << "\n";
  return kExitUsage;
}

int dispatch(int argc, char** argv, const char*& command) {
  if (argc < 2) {
    print_usage(std::cerr);
    return kExitUsage;
  }
  const std::string_view first = argv[1];
  if (first == "--help" || first == "-h" || first == "help") {
    print_usage(std::cout);
    return kExitOk;
  }
  if (first == "--version" || first == "-V") {
    std::cout << gltf_anim::kGenerator << "\n";
    return kExitOk;
  }
  for (const auto& c : kSubcommands) {
    if (first == c.name) {
      command = c.name;
      std::vector<std::string> args(argv + 2, argv + argc);
      try {
        return c.run(args);
      } catch (const std::bad_alloc& e) {
        // Not a defect of ours: the input needs more memory than the process may have.
        std::cerr << "gltf-anim " << c.name << ": " << failure_reason(e) << "\n";
        return kExitUsage;
      } catch (const gltf_anim::io::OutputError& e) {
        // A write that failed (a full disk, a file size limit): its reason, as any failed output.
        std::cerr << "gltf-anim " << c.name << ": " << failure_reason(e) << "\n";
        return kExitUsage;
      } catch (const std::exception& e) {
        // A subcommand should report problems as issues; this is the last net.
        std::cerr << "gltf-anim " << c.name << ": internal error: " << failure_reason(e) << "\n";
        return kExitUsage;
      }
    }
  }
  std::cerr << "gltf-anim: unknown command '" << first << "'\n\n";
  print_usage(std::cerr);
  return kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  // Past RLIMIT_FSIZE the kernel would kill us with SIGXFSZ in the middle of a
  // write; ignored, the write fails with EFBIG and the command says so (the
  // output's temporary is removed, the target untouched).
  std::signal(SIGXFSZ, SIG_IGN);
  // Likewise a reader that went away (`gltf-anim codes | head -1`): EPIPE, exit 2
  // with "Broken pipe", not death by SIGPIPE. We open no sockets, so pipes are
  // the only source.
  std::signal(SIGPIPE, SIG_IGN);
  // Interrupted (Ctrl-C, a CI job cancelled), an output's temporary is removed
  // before the process ends by that signal: nothing is left beside the target.
  gltf_anim::io::remove_temporaries_on_signals();
  // Messages quote file and member names: a name with terminal escapes or
  // bytes that are not UTF-8 is shown escaped, never sent raw to the terminal.
  gltf_anim::cli::make_stderr_visible();
  const char* command = "";
  const int exit_code = dispatch(argc, argv, command);
  return check_stdout(command, exit_code);
}

// gltf-anim: one CLI, subcommands dispatched from the table below.
#include <gltf_anim/version.hpp>

#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "cli_common.hpp"
#include "commands.hpp"

namespace {

using gltf_anim::cli::kExitOk;
using gltf_anim::cli::kExitUsage;

struct Subcommand {
  const char* name;
  const char* summary;
  int (*run)(const std::vector<std::string>&);
};

constexpr Subcommand kSubcommands[] = {
    {"codes", "list every issue code with severity, message and rule", gltf_anim::cli::run_codes},
    {"compare", "compare golden and actual samples: conformance report", gltf_anim::cli::run_compare},
    {"generate", "write the conformance suite: assets, golden samples, manifest", gltf_anim::cli::run_generate},
    {"sample", "sample an asset's animations with the reference evaluator", gltf_anim::cli::run_sample},
    {"squad-report", "modified-SQUAD verification bench beside the seed's figures", gltf_anim::cli::run_squad_report},
    {"validate", "validate .gltf/.glb assets: schema, animation rules, data", gltf_anim::cli::run_validate},

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

}  // namespace

int main(int argc, char** argv) {
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
      std::vector<std::string> args(argv + 2, argv + argc);
      try {
        return c.run(args);
      } catch (const std::exception& e) {
        // A subcommand should report problems as issues; this is the last net.
        std::cerr << "gltf-anim " << c.name << ": internal error: " << e.what() << "\n";
        return kExitUsage;
      }
    }
  }
  std::cerr << "gltf-anim: unknown command '" << first << "'\n\n";
  print_usage(std::cerr);
  return kExitUsage;
}

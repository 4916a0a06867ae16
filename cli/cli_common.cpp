#include "cli_common.hpp"

#include <iostream>

namespace gltf_anim::cli {

std::optional<po::variables_map> parse_command_line(
    const CommandHelp& help, po::options_description options,
    const po::positional_options_description& positional,
    const std::vector<std::string>& args, int& exit_code) {
  options.add_options()("help,h", "show this help and exit");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
    if (vm.count("help")) {
      std::cout << "Usage: " << help.usage << "\n\n"
                << help.summary << "\n\n"
                << options << "\nExample:\n  " << help.example << "\n";
      exit_code = kExitOk;
      return std::nullopt;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "gltf-anim " << help.name << ": " << e.what() << "\n"
              << "Try 'gltf-anim " << help.name << " --help'.\n";
    exit_code = kExitUsage;
    return std::nullopt;
  }
  return vm;
}

}  // namespace gltf_anim::cli

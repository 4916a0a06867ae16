// gltf-anim generate: writes the conformance suite (valid assets, golden
// samples, manifest.json). conformance_assets/ in the repository is exactly this
// command's output (a test regenerates it and compares byte for byte).
#include <gltf_anim/suite/suite.hpp>

#include <exception>
#include <iostream>
#include <string>

#include "cli_common.hpp"
#include "commands.hpp"

namespace gltf_anim::cli {

int run_generate(const std::vector<std::string>& args) {
  static constexpr CommandHelp kHelp{
      "generate", "gltf-anim generate --out DIR",
      "Writes the conformance suite into DIR: DIR/valid/<case>.gltf|.glb (+ .bin), the golden\n"
      "samples DIR/valid/<case>.samples.json (gltf-anim sample with default times) and\n"
      "DIR/manifest.json. Deterministic: the same bytes on every run. Files of other\n"
      "names in DIR (e.g. invalid/) are left alone.",
      "gltf-anim generate --out conformance_assets"};
  po::options_description options("Options");
  options.add_options()("out", po::value<std::string>()->required(), "output folder");
  int exit_code = kExitOk;
  const auto vm = parse_command_line(kHelp, options, {}, args, exit_code);
  if (!vm) return exit_code;
  try {
    const std::size_t n = suite::generate((*vm)["out"].as<std::string>());
    std::cerr << "gltf-anim generate: " << n << " cases written\n";
  } catch (const std::exception& e) {
    std::cerr << "gltf-anim generate: " << e.what() << "\n";
    return kExitUsage;
  }
  return kExitOk;
}

}  // namespace gltf_anim::cli

// gltf-anim generate: writes the conformance suite (valid assets, golden
// samples, manifest.json). conformance_assets/ in the repository is exactly this
// command's output (a test regenerates it and compares byte for byte).
#include <gltf_anim/suite/suite.hpp>
#include <gltf_anim/text/escape.hpp>

#include <exception>
#include <iostream>
#include <string>

#include "cli_common.hpp"
#include "commands.hpp"

namespace gltf_anim::cli {

namespace {

// A reason as the terminal may show it: each of its lines (a sampler's refusal lists one
// channel a line) with its characters made visible, the line breaks kept.
std::string visible_lines(const std::string& s) {
  std::string out;
  std::size_t start = 0;
  for (std::size_t end = s.find('\n'); ; end = s.find('\n', start)) {
    out += text::visible_text(s.substr(start, end == std::string::npos ? end : end - start));
    if (end == std::string::npos) break;
    out += '\n';
    start = end + 1;
  }
  return out;
}

}  // namespace

int run_generate(const std::vector<std::string>& args) {
  static constexpr CommandHelp kHelp{
      "generate", "gltf-anim generate --out DIR | gltf-anim generate --from ASSET... --out DIR",
      "Writes the conformance suite into DIR: DIR/valid/<case>.gltf|.glb (+ .bin), the golden\n"
      "samples DIR/valid/<case>.samples.json (gltf-anim sample with default times) and\n"
      "DIR/manifest.json. Deterministic: the same bytes on every run. Files of other\n"
      "names in DIR (e.g. invalid/) are left alone.\n"
      "With --from: a suite of your own assets instead (.gltf/.glb files, or folders searched\n"
      "for them): each copied into DIR/valid/<id>/ with the files it names, its golden samples\n"
      "at the suite's times, and a manifest entry with the suite's tolerances and the variants\n"
      "that apply, so `adapters/run-all.sh --suite DIR` plays it in every engine. An asset that\n"
      "cannot be sampled or has no animation is skipped with the reason (exit 1); a file it\n"
      "names that cannot be read but no animation needs (a texture) is a note, not copied.\n"
      "A folder without a .gltf or .glb file is an error (exit 2).\n"
      "Exit codes: 0 written, 1 some asset skipped, 2 usage or I/O error.",
      "gltf-anim generate --out conformance_assets\n"
      "  gltf-anim generate --from my_character.glb scenes/ --out my_suite"};
  po::options_description options("Options");
  options.add_options()("out", po::value<std::string>()->required(), "output folder")(
      "from", po::value<std::vector<std::string>>()->composing(),
      "your assets or folders (instead of the suite)");
  // --from A B C: the words after the first asset are positional, and go to --from too.
  po::positional_options_description positional;
  positional.add("from", -1);
  int exit_code = kExitOk;
  const auto vm = parse_command_line(kHelp, options, positional, args, exit_code);
  if (!vm) return exit_code;
  const std::string out = (*vm)["out"].as<std::string>();
  try {
    if (vm->count("from") == 0) {
      const std::size_t n = suite::generate(out);
      std::cerr << "gltf-anim generate: " << n << " cases written\n";
      return kExitOk;
    }
    const auto& from = (*vm)["from"].as<std::vector<std::string>>();
    const suite::FromResult r = suite::generate_from({from.begin(), from.end()}, out);
    for (const std::string& s : r.notes)
      std::cerr << "gltf-anim generate: note: " << visible_lines(s) << "\n";
    for (const std::string& s : r.skipped)
      std::cerr << "gltf-anim generate: skipped " << visible_lines(s) << "\n";
    std::cerr << "gltf-anim generate: " << r.written << " case(s) written to "
              << text::visible_text(out) << ", " << r.skipped.size() << " asset(s) skipped\n";
    return r.skipped.empty() ? kExitOk : kExitFindings;
  } catch (const std::exception& e) {
    std::cerr << "gltf-anim generate: " << text::visible_text(e.what()) << "\n";
    return kExitUsage;
  }
}

}  // namespace gltf_anim::cli

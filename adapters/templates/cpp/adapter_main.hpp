// The part every C++ conformance adapter shares (the template engine_adapter.cpp, Filament's,
// assimp's): the command line, the manifest, the paths, the samples files. An adapter
// implements gltf_anim::adapter::Engine and calls gltf_anim::adapter::run from main. Copy this
// header beside your adapter; it needs only gltf-anim's compare library (GltfAnim::compare).
//
//   ADAPTER SUITE_DIR OUT_DIR [CASE_ID...]
//
// For each case of SUITE_DIR/manifest.json (or only the ones named) it reads the golden samples
// file to learn which channels to evaluate at which times, asks the engine for each value, and
// writes OUT_DIR/<case id>.samples.json. It reads only inside SUITE_DIR (a manifest's paths are
// relative to it: no absolute path, no "..", no symbolic link out) and writes only in OUT_DIR
// (a case id is a plain file name); a manifest that says otherwise is refused before anything
// is written. One case's failure (the engine throws, a golden file does not read) is reported
// with the case and the run goes on; when the engine threw, the case's samples file holds its
// message as "error" (compare fails the case with it). A channel the engine declares it cannot
// play (Engine::unsupported) is written as "unsupported" with no samples (compare: not run).
// Exit codes: 0 every case written, 1 some case failed with an error, 2 usage, manifest or I/O
// error.
#pragma once

#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/samples/samples.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace gltf_anim::adapter {

// Your engine, as an adapter sees it.
class Engine {
 public:
  virtual ~Engine() = default;
  // Loads one asset (.gltf or .glb, a path inside the suite). Empty, or why the engine refuses
  // it (its samples file then holds no channel: compare reports every channel missing).
  virtual std::string load(const std::filesystem::path& asset) = 0;
  // The value of channel `channel` of animation `animation` (glTF indices), which animates the
  // property at JSON pointer `target` ("/nodes/0/rotation", or a KHR_animation_pointer
  // pointer), at `t` seconds: rotations as (x, y, z, w), morph weights one per target, scalars
  // as one value. Empty, with `why` set, when the engine does not play this channel or the
  // adapter cannot observe it (the channel is left out and `why` reported).
  virtual std::vector<double> sample(std::size_t animation, std::size_t channel,
                                     const std::string& target, double t, std::string& why) = 0;
  // The feature the engine lacks to play this channel ("KHR_animation_pointer", "morph
  // weights", "CUBICSPLINE"), asked once per channel before sampling it; "" to sample it. A
  // declared channel is written as unsupported with no samples: compare counts its case as not
  // run (unsupported: FEATURE), not as a failure (a channel left out by `sample` fails it).
  virtual std::string unsupported(std::size_t /*animation*/, std::size_t /*channel*/,
                                  const std::string& /*target*/) {
    return {};
  }
};

// The bytes of a file (an asset the engine is handed as bytes).
inline std::vector<std::uint8_t> read_bytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error(file.string() + ": cannot be read");
  return {std::istreambuf_iterator<char>(in), {}};
}

// suite/relative when it stays inside suite: not absolute, no "..", no symbolic link leading
// out. A manifest names the files of the suite, never others.
inline std::filesystem::path inside(const std::filesystem::path& suite,
                                    const std::string& relative) {
  namespace fs = std::filesystem;
  const fs::path rel(relative);
  bool escapes = relative.empty() || rel.has_root_path();
  for (const fs::path& part : rel) escapes = escapes || part == "..";
  if (!escapes) {
    const fs::path base = fs::canonical(suite);
    const fs::path path = fs::weakly_canonical(base / rel);
    const auto [b, p] = std::mismatch(base.begin(), base.end(), path.begin(), path.end());
    if (b == base.end()) return path;
  }
  throw std::runtime_error("'" + relative + "' is not a path inside " + suite.string());
}

// The output file name of a case: its id must be a plain file name (no folder).
inline std::string case_file_name(const std::string& id) {
  if (id.empty() || id == "." || id == ".." ||
      id.find_first_of(std::string("/\\\0", 3)) != std::string::npos) {
    throw std::runtime_error("case id '" + id + "' is not a plain file name");
  }
  return id + ".samples.json";
}

// The samples file of one case: the golden file's animations, channels and times, the
// engine's values. `left_out` counts the channels the engine did not give.
inline samples::SamplesFile sample_case(Engine& engine, const samples::SamplesFile& golden,
                                        const std::string& id, const std::string& generator,
                                        std::size_t& left_out) {
  samples::SamplesFile out;
  out.asset = golden.asset;
  out.generator = generator;
  for (const samples::SampledAnimation& ga : golden.animations) {
    samples::SampledAnimation& a = out.animations.emplace_back();
    a.index = ga.index;
    a.name = ga.name;
    for (const samples::SampledChannel& gc : ga.channels) {
      samples::SampledChannel c;
      c.index = gc.index;
      c.target = gc.target;
      c.unsupported = engine.unsupported(ga.index, gc.index, gc.target);
      if (!c.unsupported.empty()) {
        a.channels.push_back(std::move(c));
        continue;
      }
      std::string why;
      for (double t : gc.times) {
        const std::vector<double> value = engine.sample(ga.index, gc.index, gc.target, t, why);
        if (value.empty()) break;
        c.add_sample(t, value);
      }
      if (c.size() > 0) {
        a.channels.push_back(std::move(c));
      } else {
        ++left_out;
        std::cerr << id << ": animation " << ga.index << " channel " << gc.index << " ("
                  << gc.target << ") left out: " << (why.empty() ? "no value" : why) << "\n";
      }
    }
  }
  return out;
}

// The whole adapter: `program` names it in messages, `generator` goes into every samples file.
inline int run(int argc, char** argv, const std::string& program, const std::string& generator,
               Engine& engine) {
  namespace fs = std::filesystem;
  if (argc < 3) {
    std::cerr << "usage: " << program << " SUITE_DIR OUT_DIR [CASE_ID...]\n";
    return 2;
  }
  const fs::path suite = argv[1];
  const fs::path out = argv[2];
  const std::set<std::string> only(argv + 3, argv + argc);
  struct Case {
    std::string id;
    fs::path asset, golden, output;
  };
  std::vector<Case> cases;
  try {
    const auto manifest = compare::read_manifest(suite / "manifest.json");
    std::size_t named = 0;
    // Every path is checked before anything is written.
    for (const auto& entry : manifest.entries) {
      if (!only.empty() && !only.count(entry.id)) continue;
      ++named;
      if (entry.samples.empty()) continue;  // an invalid asset: nothing to play
      cases.push_back({entry.id, inside(suite, entry.file), inside(suite, entry.samples),
                       out / case_file_name(entry.id)});
    }
    if (named != only.size() && !only.empty()) {
      std::cerr << program << ": some named cases are not in the manifest\n";
      return 2;
    }
    fs::create_directories(out);
  } catch (const std::exception& e) {
    std::cerr << program << ": " << e.what() << "\n";
    return 2;
  }
  std::size_t written = 0, refused = 0, failed = 0, left_out = 0;
  for (const Case& c : cases) {
    samples::SamplesFile golden;
    try {
      golden = samples::read_samples_file(c.golden);
    } catch (const std::exception& e) {
      std::cerr << c.id << ": error: " << e.what() << "\n";
      ++failed;
      continue;
    }
    try {
      const std::string why = engine.load(c.asset);
      samples::SamplesFile result;
      if (why.empty()) {
        result = sample_case(engine, golden, c.id, generator, left_out);
      } else {
        result.asset = golden.asset;
        result.generator = generator + " (refused the asset: " + why + ")";
        std::cerr << c.id << ": refused: " << why << "\n";
        ++refused;
      }
      samples::write_samples_file(c.output, result);
      ++written;
    } catch (const std::exception& e) {
      // That case's failure with its message, not the end of the run.
      std::cerr << c.id << ": error: " << e.what() << "\n";
      ++failed;
      samples::SamplesFile result;
      result.asset = golden.asset;
      result.generator = generator;
      result.error = e.what();
      if (result.error.empty()) result.error = "an exception without a message";
      try {
        samples::write_samples_file(c.output, result);
      } catch (const std::exception& w) { std::cerr << c.id << ": error: " << w.what() << "\n"; }
    }
  }
  std::cout << program << ": " << written << " case(s) written to " << out.string() << ", "
            << refused << " refused by the engine, " << failed << " failed with an error, "
            << left_out << " channel(s) left out\n";
  return failed > 0 ? 1 : 0;
}

}  // namespace gltf_anim::adapter

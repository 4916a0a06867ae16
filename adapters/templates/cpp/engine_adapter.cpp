// A minimal conformance adapter in C++: copy this file and replace the Engine class
// with calls into your engine. The rest (which times and channels to evaluate, the
// samples file format) is done with gltf-anim's reports library.
//
//   engine_adapter SUITE_DIR OUT_DIR [CASE_ID...]
//
// For each case of SUITE_DIR/manifest.json (or only the ones named) it reads the golden
// samples file to learn which channels to evaluate at which times, asks the engine for
// each value, and writes OUT_DIR/<case id>.samples.json. Then judge one case with
//   gltf-anim compare --golden SUITE_DIR --actual OUT_DIR/<case id>.samples.json
// or all of them with --actual OUT_DIR. Exit codes: 0 written, 2 usage or I/O error.
// It reads only inside SUITE_DIR (a manifest's paths are relative to it: no absolute
// path, no "..", no symbolic link out) and writes only in OUT_DIR (a case id is a plain
// file name); a manifest that says otherwise is an error.
#include <gltf_anim/sampler/sample.hpp>  // only for the placeholder engine below
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/samples/samples.hpp>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <iostream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using gltf_anim::samples::SampledAnimation;
using gltf_anim::samples::SampledChannel;
using gltf_anim::samples::SamplesFile;

// ---- Your engine goes here ------------------------------------------------------------
// Placeholder: gltf-anim's own reference evaluator, so that the template passes as it is.
class Engine {
 public:
  // Load the asset (.gltf or .glb) with your engine.
  explicit Engine(const fs::path& asset) : channels_(gltf_anim::sampler::decoded_channels(asset)) {}

  // The value of channel `channel` of animation `animation` (glTF indices), which animates
  // the property at JSON pointer `target` ("/nodes/0/rotation", or a KHR_animation_pointer
  // pointer), at `t` seconds: rotations as (x, y, z, w), morph weights one per target,
  // scalars as one value. Empty: the engine does not play this channel (compare then reports
  // it missing, a failure).
  std::vector<double> sample(std::size_t animation, std::size_t channel, const std::string& target, double t) const {
    (void)target;
    for (const auto& c : channels_) {
      if (c.animation != animation || c.channel != channel) continue;
      std::vector<double> value(c.components);
      gltf_anim::reference::sample(c.view(), t, value);
      return value;
    }
    return {};
  }

 private:
  std::vector<gltf_anim::sampler::DecodedChannel> channels_;
};
// ----------------------------------------------------------------------------------------

// suite/relative when it stays inside suite: not absolute, no "..", no symbolic link
// leading out. A manifest names the files of the suite, never others.
fs::path inside(const fs::path& suite, const std::string& relative) {
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
std::string case_file_name(const std::string& id) {
  if (id.empty() || id == "." || id == ".." || id.find_first_of(std::string("/\\\0", 3)) != std::string::npos) {
    throw std::runtime_error("case id '" + id + "' is not a plain file name");
  }
  return id + ".samples.json";
}

// The samples file of one case: the golden file's animations, channels and times, the
// engine's values.
SamplesFile sample_case(const Engine& engine, const SamplesFile& golden) {
  SamplesFile out;
  out.asset = golden.asset;
  out.generator = "engine_adapter template";
  for (const SampledAnimation& ga : golden.animations) {
    SampledAnimation& a = out.animations.emplace_back();
    a.index = ga.index;
    a.name = ga.name;
    for (const SampledChannel& gc : ga.channels) {
      SampledChannel c;
      c.index = gc.index;
      c.target = gc.target;
      for (double t : gc.times) {
        const std::vector<double> value = engine.sample(ga.index, gc.index, gc.target, t);
        if (value.empty()) break;
        c.add_sample(t, value);
      }
      if (c.size() > 0) a.channels.push_back(std::move(c));
    }
  }
  return out;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: engine_adapter SUITE_DIR OUT_DIR [CASE_ID...]\n";
    return 2;
  }
  const fs::path suite = argv[1];
  const fs::path out = argv[2];
  const std::set<std::string> only(argv + 3, argv + argc);
  try {
    const auto manifest = gltf_anim::compare::read_manifest(suite / "manifest.json");
    fs::create_directories(out);
    std::size_t written = 0;
    for (const auto& entry : manifest.entries) {
      if (!only.empty() && !only.count(entry.id)) continue;
      const fs::path path = out / case_file_name(entry.id);
      const SamplesFile golden = gltf_anim::samples::read_samples_file(inside(suite, entry.samples));
      const Engine engine(inside(suite, entry.file));
      gltf_anim::samples::write_samples_file(path, sample_case(engine, golden));
      ++written;
    }
    if (written != only.size() && !only.empty()) {
      std::cerr << "engine_adapter: some named cases are not in the manifest\n";
      return 2;
    }
    std::cout << "engine_adapter: " << written << " case(s) written to " << out.string() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "engine_adapter: " << e.what() << "\n";
    return 2;
  }
  return 0;
}

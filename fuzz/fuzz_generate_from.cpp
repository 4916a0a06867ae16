// libFuzzer target: `gltf-anim generate --from` (suite::generate_from) on random .gltf / .glb
// bytes, in a folder that also holds the awkward files an asset may name: an image that is a
// folder (folder.png), a regular image (ok.png), a buffer (buf.bin); any other name is
// missing (a FIFO is GenerateFromHostile's: no POSIX header outside io/). The input is the asset (a
// GLB when it starts with "glTF"), copied into the folder under a name that is not UTF-8 for one
// input size in four. Properties (else it traps): generate_from returns (an exception is a finding:
// it throws only on usage and I/O errors, and this folder has none); the asset is written or
// skipped, once; manifest.json is valid UTF-8 that compare reads, naming as many cases as were
// written, each case's asset and golden samples in place and readable, no animation named "".
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/samples/samples.hpp>
#include <gltf_anim/suite/suite.hpp>
#include <gltf_anim/text/utf8.hpp>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

namespace {

namespace fs = std::filesystem;

fs::path root() {
  static const fs::path path = [] {
    const fs::path p = fs::temp_directory_path() /
                       ("gltf_anim_fuzz_generate_from_" + std::to_string(std::random_device{}()));
    fs::create_directories(p / "in" / "folder.png");
    std::ofstream(p / "in" / "ok.png", std::ios::binary) << "\x89PNG\r\n\x1a\n";
    std::ofstream(p / "in" / "buf.bin", std::ios::binary) << std::string(64, '\0');
    return p;
  }();
  return path;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fs::path base = root();
  const bool glb = size >= 4 && std::memcmp(data, "glTF", 4) == 0;
  const std::string stem = size % 4 == 0 ? std::string("asset\xff\xfe") : std::string("asset");
  const fs::path asset = base / "in" / (stem + (glb ? ".glb" : ".gltf"));
  const fs::path out = base / "out";
  fs::remove_all(out);
  {
    std::ofstream f(asset, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  gltf_anim::suite::FromResult r;
  try {
    r = gltf_anim::suite::generate_from({asset}, out);
  } catch (...) { __builtin_trap(); }
  fs::remove(asset);
  if (r.written + r.skipped.size() != 1) __builtin_trap();
  const std::string text = read(out / "manifest.json");
  if (!gltf_anim::text::is_valid_utf8(text)) __builtin_trap();
  try {
    const auto manifest = gltf_anim::compare::read_manifest(out / "manifest.json");
    if (manifest.entries.size() != r.written) __builtin_trap();
    for (const auto& e : manifest.entries) {
      if (!fs::is_regular_file(out / e.file)) __builtin_trap();
      const auto golden = gltf_anim::samples::read_samples_file(out / e.samples);
      for (const auto& a : golden.animations) {
        if (a.name.empty()) __builtin_trap();
      }
    }
  } catch (const gltf_anim::samples::SamplesFormatError&) { __builtin_trap(); }
  return 0;
}

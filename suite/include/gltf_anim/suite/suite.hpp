#pragma once
// The conformance suite: the list of valid cases, and `generate`, which writes
// every asset, its golden samples and manifest.json into a folder.
//
// Layout written by generate(out):
//   out/manifest.json                  one entry per case (see README.md)
//   out/valid/<id>.gltf|.glb [+ .bin]  the asset
//   out/valid/<id>.samples.json        golden samples: sampler::sample_asset() with the
//                                      default options (see sample.hpp)
// Everything is deterministic: cases are written in list order, JSON members in
// a fixed order, numbers in their shortest round-trip form, no timestamps.
#include <gltf_anim/suite/gltf_builder.hpp>
#include <gltf_anim/suite/json.hpp>
#include <gltf_anim/reference/track.hpp>
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/samples/samples.hpp>
#include <gltf_anim/gltf/issue.hpp>
#include <gltf_anim/gltf/load.hpp>
#include <gltf_anim/io/resource_reader.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace gltf_anim::suite {

// What another evaluation gives, computed with the reference maths on the same
// data (`excerpt`, a few samples; empty when a description says it all).
// allowed = true: a result the specs permit too (shortest path or not, nlerp vs
// slerp, sqlerp's inner slerp, exact-key STEP, the quaternion's sign); written to
// the manifest's "variants", and `gltf-anim compare` passes a case that matches
// one. allowed = false: a surveyed engine's deviation; written to
// "knownDivergences" so implementers recognise it, never a pass.
// core_only_view = true: the variant is what a client without the animation
// extensions plays, i.e. the whole of `sample --no-extensions` (an
// EXT_animation_sqlerp channel on its fallback sampler). It is written beside
// the golden samples as <id>.<name>.variant.json (not *.samples.json, so a
// folder scan never takes it for a case) and named by path in the manifest.
struct Variant {
  std::string name;
  std::string description;
  std::function<std::vector<compare::VariantSample>(const samples::SamplesFile& golden)> excerpt;
  bool allowed = true;
  bool core_only_view = false;
};

struct Case {
  std::string id;                     // file stem, unique
  Container container = Container::kDataUri;
  std::string group;                  // README grouping, e.g. "core", "pointer", "edge"
  std::vector<std::string> features;  // e.g. "LINEAR", "rotation", "KHR_animation_pointer"
  std::vector<std::string> clauses;   // e.g. "glTF 2.0 Appendix C.2"
  std::string notes;
  std::vector<Variant> variants;
  std::function<void(GltfBuilder&)> build;
};

// An alternative's values at every golden time of one channel where they differ
// from the golden ones (by more than 1e-9, absolute or radians, or in a
// rotation's |q| unless `with_length` is false), so that an engine with exactly
// that behaviour is recognised at every time.
std::vector<compare::VariantSample> differing_samples(
    const samples::SamplesFile& golden, std::size_t animation, std::size_t channel,
    const std::function<std::vector<double>(double t)>& value_at, bool with_length = true);

// The reference evaluation of a track given by its data (for alternatives that
// change the data: normalized keys, inserted keys, another decoding).
std::vector<double> evaluate_track(const std::vector<double>& times, const std::vector<double>& values,
                                   std::size_t components, reference::Interpolation interpolation,
                                   reference::ValueKind kind, double t, const reference::SampleOptions& options = {});

// Every valid case of the suite, in manifest order.
const std::vector<Case>& suite_cases();

// File name of a case's asset (".gltf" or ".glb").
std::string asset_file_name(const Case& c);

// Writes the suite into `out` (created if needed; existing files overwritten,
// nothing else touched). Throws std::runtime_error on I/O or sampling failure.
// Returns the number of cases written.
std::size_t generate(const std::filesystem::path& out);

// A suite built from the user's own assets (`gltf-anim generate --from`), so that the engine
// adapters (adapters/run-all.sh --suite) play them. Each input is a .gltf/.glb file or a folder
// searched recursively for them (in name order; a symbolic link inside a folder is not
// followed, a note); a folder without one is an error. Per asset, under `out`:
//   out/valid/<id>/<file name> [+ the relative buffer and image files it names]  a copy
//   out/valid/<id>.samples.json   golden samples at the suite's times (sampler::sample_asset)
// and one manifest entry with the suite's derived tolerances and every suite-wide variant and
// known divergence that applies (loops, nlerp, ...), group "user". <id> is the file's stem
// reduced to [A-Za-z0-9._-], made unique with -2, -3, ...; the copy keeps the file's name,
// or is <id>.gltf/.glb when that name is not UTF-8.
// Nothing is read here but through the loader and io/: the asset and its buffers by
// gltf::load_file (iterative JSON with a depth limit, buffers through an io::FolderReader
// over the asset's folder, opened beneath the input folder it was found in), its images
// through the same reader (only regular files, no blocking on a FIFO, the loader's size limit
// before a byte is read); what is copied is the bytes read, what is sampled is that same
// loaded asset. A file an animation does not need that cannot be read or copied (a texture:
// missing, a FIFO, a folder, too large, outside the folder) is a note (`notes`, and the case's
// manifest notes), not copied; the case is written. The golden samples name an unnamed
// animation "animation N" (as compare names it), and leave out a STEP channel's samples at a
// key time where its value changes (a float32 engine's time can land one float32 step before
// such a key: on the shipped suite's keys it does not, on a user's it does).
// An asset that cannot be loaded or sampled, that has no animation, whose buffer names a file
// outside its own folder, whose golden samples compare would refuse (read back before
// writing: two channels on one target) or whose manifest entry holds a number that is not
// finite is skipped with the reason (`skipped`). Each case's files are
// written through temporaries renamed into place (the asset, its samples and variants
// together), the manifest last: it names only cases whose every file is in place. The output
// folder may not be, or lie inside, an input folder, nor contain an input file. Throws
// std::runtime_error on usage and I/O errors.
struct FromResult {
  std::size_t written = 0;
  std::vector<std::string> skipped;  // "<input path>: <reason>"
  std::vector<std::string> notes;    // "<input path>: <what was not copied, and why>"
};
FromResult generate_from(const std::vector<std::filesystem::path>& inputs,
                         const std::filesystem::path& out);

// ---- generate --from on memory: what generate_from decides, on assets the caller loaded,
// with no file opened; generate_from finds and loads the assets and writes what this returns.

// One of the user's assets, loaded by the caller (gltf::load_file or load_bytes, with
// `resources` as LoadOptions::resources).
struct FromAsset {
  const gltf::LoadedAsset* asset = nullptr;
  const std::vector<gltf::Issue>* load_issues = nullptr;  // what the loader said (may be null)
  // The files the asset names (buffers and images), relative to its folder: what the suite
  // copies is what this reads (a buffer the loader read is asked for again: a reader that
  // reads a file once keeps its bytes).
  const io::ResourceReader* resources = nullptr;
  std::uint64_t max_file_bytes = gltf::LoadOptions{}.max_file_bytes;  // for an image's read
  // How messages name the asset ("scenes/hero.glb"); its file name is the case's (the id from
  // its stem, the copy's name when it is UTF-8).
  std::filesystem::path path;
};

// One case of the suite, to be written under the output folder: first `named` (one at a
// time), then the asset's copy and `texts` together, each through a temporary renamed into
// place.
struct FromCase {
  std::string id;
  // The files the asset names, relative to valid/<id>/, as the reader gave them.
  std::vector<std::pair<std::string, std::shared_ptr<const io::ByteStorage>>> named;
  std::string copy;                        // the asset's copy, in valid/<id>/
  std::span<const std::uint8_t> asset_bytes;  // its bytes (FromAsset::asset's, not copied)
  // Its golden samples and whole-file variants, in valid/: (file name, text).
  std::vector<std::pair<std::string, std::string>> texts;
};

// Builds a suite one asset at a time (an asset's case is written before the next is read, so
// a run of many assets holds one at a time), then its manifest.
class FromSuite {
 public:
  FromSuite();
  ~FromSuite();
  FromSuite(const FromSuite&) = delete;
  FromSuite& operator=(const FromSuite&) = delete;
  // The case of one asset, its notes appended to `result.notes` and `result.written` counted;
  // or nullopt, the reason appended to `result.skipped`.
  std::optional<FromCase> add(const FromAsset& asset, FromResult& result);
  // manifest.json naming every case add() gave, in that order.
  std::string manifest() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Every asset's case and the manifest at once (FromSuite over the list).
struct FromSuiteFiles {
  std::vector<FromCase> cases;
  std::string manifest;
  FromResult result;
};
FromSuiteFiles generate_from_assets(const std::vector<FromAsset>& assets);

}  // namespace gltf_anim::suite

// Inside compare/: the files of a comparison, read and paired.
#pragma once

#include <gltf_anim/compare/compare.hpp>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gltf_anim::compare::detail {

// A golden or actual samples file of the run.
struct Loaded {
  std::filesystem::path path;
  std::string shown;  // path as shown in reports (relative to the root given)
  samples::SamplesFile file;
  const ManifestEntry* entry = nullptr;
  bool used = false;
  // An actual file the reader refused (malformed, unreadable, too large): the
  // engine's output is at fault, so its case fails with this message; `file`
  // stays empty (no asset: matched by file name only).
  std::optional<samples::SamplesFormatError> error;
};

using Pairs = std::vector<std::pair<Loaded*, Loaded*>>;

// A file's name without its samples extensions (".samples.json", ".csv", ...).
std::string file_key(const std::filesystem::path& p);

// The samples files of a folder (every .json/.csv when none is named *.samples.*), sorted.
std::vector<std::filesystem::path> scan_folder(const std::filesystem::path& dir);

// The manifest's entries by each way a golden file can name one.
struct ManifestIndex {
  explicit ManifestIndex(const Manifest& m);
  std::map<std::pair<std::uint64_t, std::uint64_t>, const ManifestEntry*> by_file;
  std::unordered_map<std::string, const ManifestEntry*> by_id_or_file, by_asset_name, by_id;
};

// The entry of a golden file: the one naming that file, else by asset, else by file key.
const ManifestEntry* entry_for(const ManifestIndex& m, const std::filesystem::path& golden_path,
                               const samples::SamplesFile& golden);

// Reads every file; a golden file's error is rethrown, an actual file's kept in Loaded::error.
// `read_golden` reads a golden file (unset: from its path, as the actual files are).
void load_all(std::vector<Loaded>& goldens, std::vector<Loaded>& actuals,
              const samples::ReadOptions& read,
              const std::function<samples::SamplesFile(const Loaded&)>& read_golden = {});

// The golden files: the one given, or in a golden folder the manifest entries'
// samples inside it (else the folder's samples files), sorted, each once.
std::vector<std::filesystem::path> golden_files(const std::filesystem::path& golden,
                                                bool golden_dir,
                                                const std::optional<Manifest>& manifest);

// Files to load, each with the path shown in reports (relative to `root`).
std::vector<Loaded> to_load(const std::vector<std::filesystem::path>& paths,
                            const std::filesystem::path& root, bool root_is_dir);

// Golden files paired with their actual files (nullptr: none, the case is not
// run); warns about actual files that pair with no golden one.
Pairs pair_files(std::vector<Loaded>& goldens, std::vector<Loaded>& actuals, bool golden_dir,
                 bool actual_dir, const std::filesystem::path& golden_root, CompareReport& report);

}  // namespace gltf_anim::compare::detail

// Which files are compared with which: the golden files (from the manifest or
// the folder), read on all cores, each given its manifest entry and paired
// with the actual file of the same asset or name.
#include "pairing.hpp"

#include <gltf_anim/compare/compare.hpp>

#include <gltf_anim/io/file_queries.hpp>
#include <gltf_anim/io/input_files.hpp>
#include <gltf_anim/io/ordered_pool.hpp>

#include <algorithm>
#include <deque>
#include <exception>
#include <map>
#include <unordered_map>

namespace gltf_anim::compare::detail {

using samples::ReadOptions;
using samples::SamplesFile;
using samples::SamplesFormatError;

namespace fs = std::filesystem;

std::string file_key(const fs::path& p) {
  std::string name = p.filename().string();
  for (std::string_view ext : {".csv", ".json", ".CSV", ".JSON"}) {
    if (name.size() > ext.size() && name.ends_with(ext)) {
      name.resize(name.size() - ext.size());
      break;
    }
  }
  if (name.size() > 8 && name.ends_with(".samples")) name.resize(name.size() - 8);
  return name;
}

std::string asset_name(std::string_view asset) {
  const auto slash = asset.find_last_of("/\\");
  return std::string(slash == std::string_view::npos ? asset : asset.substr(slash + 1));
}

std::vector<fs::path> scan_folder(const fs::path& dir) {
  std::vector<fs::path> all, samples;
  io::TreeListing listing = io::list_tree(dir, /*follow_links=*/true, /*skip_unreadable=*/true);
  if (listing.error) {
    throw SamplesFormatError(dir.string(), "", "cannot list the folder: " + listing.error.message());
  }
  for (io::TreeEntry& e : listing.entries) {
    if (e.type != io::FileType::kRegular) continue;
    const std::string name = e.path.filename().string();
    if (name == "manifest.json") continue;
    if (name.ends_with(".json") || name.ends_with(".csv")) all.push_back(e.path);
    if (name.ends_with(".samples.json") || name.ends_with(".samples.csv")) {
      samples.push_back(std::move(e.path));
    }
  }
  std::vector<fs::path>& chosen = samples.empty() ? all : samples;
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

std::string shown_path(const fs::path& p, const fs::path& root, bool root_is_dir) {
  if (!root_is_dir) return root.string();
  std::error_code ec;
  const fs::path rel = io::relative_path(p, root, ec);
  return (ec || rel.empty()) ? p.string() : rel.generic_string();
}

// The identity of an existing file (device, inode): two names of one file are one file.
std::optional<std::pair<std::uint64_t, std::uint64_t>> file_identity(const fs::path& p) {
  const auto id = io::file_identity(p);
  if (!id) return std::nullopt;
  return std::pair{id->device, id->inode};
}

// Built once: looking each golden file up by scanning every entry (a stat per
// entry) took 17 s for 3,000 files. Each map keeps the first entry, as the scans did.
ManifestIndex::ManifestIndex(const Manifest& m) {
  const fs::path base = m.path.parent_path();
  for (const auto& e : m.entries) {
    if (!e.samples.empty()) {
      if (const auto id = file_identity(base / e.samples)) by_file.emplace(*id, &e);
    }
    by_id_or_file.emplace(e.id, &e);
    by_id_or_file.emplace(e.file, &e);
    if (!e.file.empty()) by_asset_name.emplace(asset_name(e.file), &e);
    by_id.emplace(e.id, &e);
  }
}

const ManifestEntry* entry_for(const ManifestIndex& m, const fs::path& golden_path,
                               const SamplesFile& golden) {
  const auto find = [](const auto& map, const auto& key) -> const ManifestEntry* {
    const auto it = map.find(key);
    return it == map.end() ? nullptr : it->second;
  };
  if (const auto id = file_identity(golden_path)) {
    if (const ManifestEntry* e = find(m.by_file, *id)) return e;
  }
  if (!golden.asset.empty()) {
    // An entry whose id or file is the asset: the first such entry (the map
    // keeps the first of each key, and an entry is inserted under both).
    const ManifestEntry* by_id = find(m.by_id_or_file, golden.asset);
    if (by_id != nullptr) return by_id;
    if (const ManifestEntry* e = find(m.by_asset_name, asset_name(golden.asset))) return e;
  }
  return find(m.by_id, file_key(golden_path));
}

// Reads every file, on as many threads as there are cores. A golden file's
// error is rethrown (the suite's data is broken), the first in golden order so
// the message does not depend on thread timing; an actual file's format error
// is kept in its Loaded::error (a failure of that case alone).
void load_all(std::vector<Loaded>& goldens, std::vector<Loaded>& actuals, const ReadOptions& read,
              const std::function<SamplesFile(const Loaded&)>& read_golden) {
  std::vector<Loaded*> all;
  for (auto& g : goldens) all.push_back(&g);
  for (auto& a : actuals) all.push_back(&a);
  std::vector<std::exception_ptr> errors(all.size());
  // Each file is read into its own Loaded; nothing is left to do in order.
  io::OrderedPool pool(
      static_cast<unsigned>(std::min<std::size_t>(all.size(), io::hardware_threads())),
      /*window_per_thread=*/2);
  pool.run(
      all.size(),
      [&](std::size_t i, std::size_t) {
        try {
          all[i]->file = i < goldens.size() && read_golden ? read_golden(*all[i])
                                                           : read_samples_file(all[i]->path, read);
        } catch (...) { errors[i] = std::current_exception(); }
      },
      [](std::size_t, std::size_t) {});
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (!errors[i]) continue;
    if (i < goldens.size()) std::rethrow_exception(errors[i]);
    try {
      std::rethrow_exception(errors[i]);
    } catch (const SamplesFormatError& e) {
      all[i]->error = e;
    }
  }
}

// The actual files by asset, asset file name and file key, each list in file
// order, built once: scanning every actual file for every golden one was
// quadratic in the number of files. A list is consumed from the front as its
// files get used, so each file is skipped at most once per list.
struct ActualIndex {
  explicit ActualIndex(std::vector<Loaded>& actuals) {
    for (auto& a : actuals) {
      if (!a.file.asset.empty()) {
        by_asset[a.file.asset].push_back(&a);
        by_asset_name[asset_name(a.file.asset)].push_back(&a);
      }
      by_key[file_key(a.path)].push_back(&a);
    }
  }
  using Lists = std::unordered_map<std::string, std::deque<Loaded*>>;
  Lists by_asset, by_asset_name, by_key;
};

// The actual file for a golden one: exact asset, then asset file name, then
// file key; the first in file order that is not used yet.
Loaded* find_actual(const Loaded& g, ActualIndex& index) {
  const auto pick = [](ActualIndex::Lists& lists, const std::string& key) -> Loaded* {
    const auto it = lists.find(key);
    if (it == lists.end()) return nullptr;
    std::deque<Loaded*>& list = it->second;
    while (!list.empty() && list.front()->used) list.pop_front();
    return list.empty() ? nullptr : list.front();
  };
  const std::string& asset = g.file.asset;
  Loaded* found = nullptr;
  if (!asset.empty()) {
    found = pick(index.by_asset, asset);
    if (!found) found = pick(index.by_asset_name, asset_name(asset));
  }
  if (!found) found = pick(index.by_key, file_key(g.path));
  return found;
}

// The golden files: the one given, or in a golden folder the manifest entries'
// samples inside it (else the folder's samples files), sorted, each once.
std::vector<fs::path> golden_files(const fs::path& golden, bool golden_dir,
                                   const std::optional<Manifest>& manifest) {
  if (!golden_dir) return {golden};
  std::vector<fs::path> paths;
  if (manifest) {
    std::error_code ec;
    const fs::path base = manifest->path.parent_path();
    const fs::path root = io::weakly_canonical_path(golden, ec);
    for (const auto& e : manifest->entries) {
      if (e.samples.empty()) continue;
      const fs::path p = io::weakly_canonical_path(base / e.samples, ec);
      const auto rel = p.lexically_relative(root);
      if (rel.empty() || *rel.begin() == "..") continue;  // outside the golden folder
      paths.push_back(base / e.samples);
    }
  }
  if (paths.empty()) paths = scan_folder(golden);
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  return paths;
}

// Files to load, each with the path shown in reports (relative to `root`).
std::vector<Loaded> to_load(const std::vector<fs::path>& paths, const fs::path& root,
                            bool root_is_dir) {
  std::vector<Loaded> out;
  out.reserve(paths.size());
  for (const auto& p : paths) {
    Loaded l;
    l.path = p;
    l.shown = shown_path(p, root, root_is_dir);
    out.push_back(std::move(l));
  }
  return out;
}

using Pairs = std::vector<std::pair<Loaded*, Loaded*>>;

// A golden folder and a single actual file: the one case that file is of. An
// actual file that matches none is an error (its own read error when it was
// refused: that says more than "matches nothing").
Pairs pair_single_actual(std::vector<Loaded>& goldens, Loaded& actual, ActualIndex& index,
                         const fs::path& golden_root) {
  for (auto& g : goldens) {
    if (find_actual(g, index)) {
      actual.used = true;
      return {{&g, &actual}};
    }
  }
  if (actual.error) throw *actual.error;
  throw SamplesFormatError(actual.path.string(), "",
                           "matches no golden samples file in " + golden_root.string() +
                               " (by \"asset\" \"" + actual.file.asset + "\" or by file name)");
}

// Golden files paired with their actual files (nullptr: none, the case is not
// run); warns about actual files that pair with no golden one.
Pairs pair_files(std::vector<Loaded>& goldens, std::vector<Loaded>& actuals, bool golden_dir,
                 bool actual_dir, const fs::path& golden_root, CompareReport& report) {
  ActualIndex index(actuals);
  Pairs pairs;
  if (!golden_dir && !actual_dir) {
    pairs.emplace_back(&goldens[0], &actuals[0]);
    actuals[0].used = true;
    const std::string& ga = goldens[0].file.asset;
    const std::string& aa = actuals[0].file.asset;
    if (!ga.empty() && !aa.empty() && asset_name(ga) != asset_name(aa)) {
      report.warnings.push_back("the actual samples are of asset \"" + aa +
                                "\", the golden ones of \"" + ga + "\"");
    }
  } else if (golden_dir && !actual_dir) {
    pairs = pair_single_actual(goldens, actuals[0], index, golden_root);
  } else {
    for (auto& g : goldens) {
      Loaded* a = find_actual(g, index);
      if (a) a->used = true;
      pairs.emplace_back(&g, a);
    }
  }
  for (const auto& a : actuals) {
    if (a.used) continue;
    std::string w = "actual file " + a.shown + " matches no golden file";
    if (a.error) w += " by its name and cannot be read: " + describe(*a.error);
    report.warnings.push_back(w + " (ignored)");
  }
  return pairs;
}

}  // namespace gltf_anim::compare::detail

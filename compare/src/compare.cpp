// `gltf-anim compare` over paths: the manifest, the files paired, each
// selected case judged (excluded, not run, refused or compared, then against
// its alternatives). The measures, channel comparison, manifest, pairing and
// alternatives live in their own files beside this one.
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/version.hpp>

#include "alternatives.hpp"
#include "manifest.hpp"
#include "pairing.hpp"

#include <gltf_anim/io/file_queries.hpp>
#include <gltf_anim/io/glob.hpp>

#include <algorithm>
#include <set>
#include <stdexcept>

#include <gltf_anim/text/words.hpp>

namespace gltf_anim::compare {

using samples::SamplesFormatError;

namespace fs = std::filesystem;

namespace {

using detail::entry_for;
using detail::file_key;
using detail::golden_files;
using detail::judge_alternatives;
using detail::load_all;
using detail::Loaded;
using detail::ManifestFiles;
using detail::ManifestIndex;
using detail::pair_files;
using detail::Pairs;
using detail::scan_folder;
using detail::to_load;

// Whether `id` is selected by --cases (every case when there is no pattern);
// marks the patterns that select it.
bool selected(const std::string& id, const std::vector<std::string>& patterns,
              std::vector<bool>& used) {
  if (patterns.empty()) return true;
  bool any = false;
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    if (io::glob_matches(patterns[i], id)) {
      used[i] = true;
      any = true;
    }
  }
  return any;
}

// The extensions of a manifest entry outside the engine's set, comma-separated.
std::string unsupported_extensions(const ManifestEntry& e,
                                   const std::vector<std::string>& supported) {
  std::string out;
  for (const auto& x : e.extensions) {
    if (std::find(supported.begin(), supported.end(), x) != supported.end()) continue;
    if (!out.empty()) out += ", ";
    out += x;
  }
  return out;
}

// What a channel needs of an engine, in the words a samples file's "unsupported"
// declares it with: the case's extensions (the manifest's), else morph weights,
// else its interpolation.
std::vector<std::string> channel_needs(const ChannelResult& ch, const ManifestEntry* entry) {
  if (entry && !entry->extensions.empty()) return entry->extensions;
  if (ch.target.ends_with("/weights")) return {"morph weights"};
  if (!ch.interpolation.empty()) return {ch.interpolation};
  return {"channel " + ch.target};
}

// A failed case whose every failing channel is missing from the actual samples
// (no value off, no refused file): what those channels need, each once; else empty.
std::vector<std::string> missing_only(const CaseResult& c, const ManifestEntry* entry) {
  std::vector<std::string> needs;
  if (!c.failed() || !c.problem.empty()) return needs;
  std::set<std::string> seen;  // each once, linear in the channels however many differ
  for (const ChannelResult& ch : c.channels) {
    if (ch.passed || !ch.unsupported.empty()) continue;
    if (!ch.missing) return {};
    for (std::string& n : channel_needs(ch, entry)) {
      if (seen.insert(n).second) needs.push_back(std::move(n));
    }
  }
  return needs;
}

// ---------------------------------------------------------------- compare_paths

// The manifest: --manifest, else the golden folder's (or the golden file's
// folder's); none when there is neither.
std::optional<Manifest> load_manifest(const fs::path& golden, const CompareOptions& options) {
  std::optional<fs::path> path = options.manifest;
  if (!path) path = find_manifest(golden);
  if (!path) return std::nullopt;
  if (options.read.inputs) options.read.inputs->record(*path);
  return read_manifest(*path);
}

// --extensions with no manifest saying what each case needs excludes nothing:
// say so rather than let the report pass for a core-only view it is not.
void warn_if_nothing_excludable(const CompareOptions& options, const Manifest* manifest,
                                CompareReport& report) {
  if (!options.extensions || (manifest && manifest->lists_extensions)) return;
  report.warnings.push_back(std::string("--extensions excludes nothing: ") +
                            (manifest
                                 ? "the manifest does not say which extensions each case needs "
                                   "(no \"extensions\" member)"
                                 : "no manifest says which extensions each case needs"));
}

// A case's tolerances: built-in, then the manifest's root, the entry's, the
// command line's, each overriding the one before.
Tolerances case_tolerances(const Manifest* manifest, const ManifestEntry* entry,
                           const CompareOptions& options) {
  Tolerances tol;
  if (manifest && manifest->tolerance) tol.absolute = *manifest->tolerance;
  if (manifest && manifest->angle_tolerance) tol.angle = *manifest->angle_tolerance;
  if (entry && entry->tolerance) tol.absolute = *entry->tolerance;
  if (entry && entry->angle_tolerance) tol.angle = *entry->angle_tolerance;
  if (manifest && manifest->length_tolerance) tol.length = *manifest->length_tolerance;
  if (entry && entry->length_tolerance) tol.length = *entry->length_tolerance;
  if (entry) tol.channels = entry->channel_tolerances;
  // A tolerance given on the command line is the user's for every channel.
  for (ChannelTolerance& c : tol.channels) {
    if (options.tolerance) c.absolute.reset();
    if (options.angle_tolerance) c.angle.reset();
    if (options.length_tolerance) c.length.reset();
  }
  if (options.tolerance) tol.absolute = *options.tolerance;
  if (options.angle_tolerance) tol.angle = *options.angle_tolerance;
  if (options.length_tolerance) tol.length = *options.length_tolerance;
  return tol;
}

// One selected case: excluded, not run, refused (its actual file could not be
// read) or compared; then what the manifest says about it.
CaseResult judge_case(std::string id, const Loaded& g, const Loaded* a,
                      const ManifestFiles* files, const CompareOptions& options) {
  const Manifest* manifest = files ? &files->manifest : nullptr;
  const Tolerances tol = case_tolerances(manifest, g.entry, options);
  const std::string unsupported =
      g.entry && options.extensions ? unsupported_extensions(*g.entry, *options.extensions) : "";
  CaseResult c;
  if (!unsupported.empty()) {
    // Not compared even when an actual file exists: the engine does not
    // implement what the case is about.
    c.tolerances = tol;
    c.outcome = CaseOutcome::kExcluded;
    c.problem = "needs " + unsupported + " (not in --extensions)";
    if (a) c.actual_file = a->shown;
  } else if (!a) {
    c.tolerances = tol;
    c.outcome = CaseOutcome::kNotRun;
    c.problem = "no actual samples file for this case";
  } else if (a->error) {
    // The engine produced this case's file but not a samples file we can
    // read: its failure, not the run's.
    c.tolerances = tol;
    c.outcome = CaseOutcome::kFailed;
    c.problem = "the actual samples file is refused: " + describe(*a->error);
    c.actual_file = a->shown;
  } else {
    c = compare_samples(g.file, a->file, tol, options.time_epsilon, options.worst_samples);
    c.actual_file = a->shown;
    if (c.failed() && g.entry && files) {
      judge_alternatives(c, g, *a, *files, tol, options);
    }
    c.missing_only = missing_only(c, g.entry);
  }
  c.id = std::move(id);
  c.asset = g.file.asset;
  c.golden_file = g.shown;
  if (g.entry) {
    c.features = g.entry->features;
    c.clauses = g.entry->clauses;
    c.notes = g.entry->notes;
  }
  return c;
}

// A case's id: its manifest id, else the golden asset, else the file name.
std::string case_id(const Loaded& g) {
  if (g.entry && !g.entry->id.empty()) return g.entry->id;
  if (!g.file.asset.empty()) return g.file.asset;
  return file_key(g.path);
}

}  // namespace

std::string describe(const SamplesFormatError& e) {
  std::string out = e.file().empty() ? std::string() : e.file() + ": ";
  if (!e.location().empty()) {
    if (e.location().front() == '/') out += "at JSON pointer \"" + e.location() + "\": ";
    else out += e.location() + ": ";
  }
  return out + e.message();
}

namespace {

// Throws what a reader says of a path that does not exist.
void require_exists(const fs::path& p) {
  std::error_code ec;
  const io::FileType type = io::file_type_of(p, ec);
  // Absent is said as ENOENT's text; a name whose type cannot be learnt, with its own error.
  if (type == io::FileType::kUnknown) {
    throw SamplesFormatError(p.string(), "", ec ? ec.message() : text::errno_text(ENOENT));
  }
  if (type == io::FileType::kNotFound) throw SamplesFormatError(p.string(), "", text::errno_text(ENOENT));
}

// A comparison once its files are read, from disk or from memory: the manifest (null: none)
// and the reader of the files it names, the golden files (each with its manifest entry) and
// the actual files.
struct Run {
  std::string golden_name, actual_name;  // as the report names them
  const ManifestFiles* files = nullptr;
  std::vector<Loaded> goldens, actuals;
  bool golden_dir = false, actual_dir = false;
  fs::path golden_root;  // named by a single actual file's "matches no golden samples file"
};

// The files paired, each selected case judged, the report sorted by id: the same for
// compare_paths and compare_suite, so the two give one report for one suite.
CompareReport judge_run(Run& run, const CompareOptions& options) {
  CompareReport report;
  report.golden = run.golden_name;
  report.actual = run.actual_name;
  report.generator = kGenerator;
  report.selection = options.cases;
  report.extensions = options.extensions;
  const Pairs pairs = pair_files(run.goldens, run.actuals, run.golden_dir, run.actual_dir,
                                 run.golden_root, report);
  warn_if_nothing_excludable(options, run.files ? &run.files->manifest : nullptr, report);

  std::vector<bool> pattern_used(options.cases.size(), false);
  for (const auto& [g, a] : pairs) {
    std::string id = case_id(*g);
    if (!selected(id, options.cases, pattern_used)) continue;
    report.cases.push_back(judge_case(std::move(id), *g, a, run.files, options));
  }
  for (std::size_t i = 0; i < options.cases.size(); ++i) {
    if (!pattern_used[i]) report.unmatched_selection.push_back(options.cases[i]);
  }
  std::stable_sort(report.cases.begin(), report.cases.end(),
                   [](const CaseResult& x, const CaseResult& y) { return x.id < y.id; });
  return report;
}

// compare_paths once its actual files are listed (`golden` exists): `actual_read` when they are
// already read (not loaded again), `actual_name` how the report names them. The files are
// found and read here, through io/; everything after is judge_run's, on memory.
CompareReport compare_listed(const fs::path& golden, std::vector<Loaded> actuals, bool actual_dir,
                             bool actual_read, const std::string& actual_name,
                             const CompareOptions& options) {
  Run run;
  run.golden_dir = io::is_folder(golden);
  run.actual_dir = actual_dir;
  run.golden_name = golden.string();
  run.actual_name = actual_name;
  run.golden_root = golden;

  const std::optional<Manifest> manifest = load_manifest(golden, options);
  // The files the manifest names are read confined to its folder.
  std::optional<io::FolderReader> folder;
  std::optional<ManifestFiles> files;
  if (manifest) {
    folder.emplace(manifest->path.parent_path());
    files.emplace(ManifestFiles{*manifest, *folder});
    run.files = &*files;
  }
  run.goldens = to_load(golden_files(golden, run.golden_dir, manifest), golden, run.golden_dir);
  run.actuals = std::move(actuals);
  std::vector<Loaded> none;
  load_all(run.goldens, actual_read ? none : run.actuals, options.read);
  if (manifest) {
    const ManifestIndex index(*manifest);
    for (auto& g : run.goldens) g.entry = entry_for(index, g.path, g.file);
  }
  return judge_run(run, options);
}

}  // namespace

CompareReport compare_paths(const fs::path& golden, const fs::path& actual,
                            const CompareOptions& options) {
  require_exists(golden);
  require_exists(actual);
  const bool actual_dir = io::is_folder(actual);
  return compare_listed(
      golden,
      to_load(actual_dir ? scan_folder(actual) : std::vector<fs::path>{actual}, actual, actual_dir),
      actual_dir, /*actual_read=*/false, actual.string(), options);
}

CompareReport compare_read_actual(const fs::path& golden, samples::SamplesFile actual,
                                  const std::string& actual_name, const CompareOptions& options) {
  require_exists(golden);
  std::vector<Loaded> actuals(1);
  actuals[0].path = actual_name;
  actuals[0].shown = actual_name;
  actuals[0].file = std::move(actual);
  return compare_listed(golden, std::move(actuals), /*actual_dir=*/false, /*actual_read=*/true,
                        actual_name, options);
}

NamedSamples read_named_samples(std::string name, std::string_view bytes,
                                const samples::ReadOptions& options) {
  NamedSamples out;
  out.name = std::move(name);
  try {
    out.file = samples::read_samples_named(bytes, out.name, options);
  } catch (const SamplesFormatError& e) {
    out.error = e;
  }
  return out;
}

CompareReport compare_suite(const SuiteInput& golden, ActualInput actual,
                            const CompareOptions& options) {
  if (golden.manifest == nullptr || golden.files == nullptr) {
    throw std::invalid_argument("compare_suite: the suite needs a manifest and a reader");
  }
  const Manifest& manifest = *golden.manifest;
  const ManifestFiles files{manifest, *golden.files};
  Run run;
  run.golden_dir = true;
  run.actual_dir = true;
  run.golden_name = golden.name;
  run.actual_name = std::move(actual.name);
  run.golden_root = golden.name;
  run.files = &files;
  // The golden files: each entry's samples once, in the order compare_paths sorts them (as
  // paths), shown by their names in the manifest; each case takes the first entry naming it.
  std::vector<std::pair<fs::path, const ManifestEntry*>> named;
  for (const ManifestEntry& e : manifest.entries) {
    if (!e.samples.empty()) named.emplace_back(fs::path(e.samples).lexically_normal(), &e);
  }
  std::stable_sort(named.begin(), named.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  for (std::size_t i = 0; i < named.size(); ++i) {
    if (i > 0 && named[i].first == named[i - 1].first) continue;
    Loaded g;
    g.path = named[i].first;
    g.shown = named[i].first.generic_string();
    g.entry = named[i].second;
    run.goldens.push_back(std::move(g));
  }
  run.actuals.reserve(actual.files.size());
  for (NamedSamples& n : actual.files) {
    Loaded a;
    a.path = n.name;
    a.shown = std::move(n.name);
    a.file = std::move(n.file);
    a.error = std::move(n.error);
    run.actuals.push_back(std::move(a));
  }
  std::vector<Loaded> none;
  load_all(run.goldens, none, options.read, [&files, &options](const Loaded& g) {
    return detail::read_manifest_samples(files, g.shown, options.read);
  });
  return judge_run(run, options);
}

}  // namespace gltf_anim::compare

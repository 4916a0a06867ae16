#pragma once
// Conformance comparison: golden samples (from `gltf-anim sample`) against an
// implementation's samples (the reports of `gltf-anim compare` are written by
// gltf_anim/reports/compare_report.hpp). Rules in docs/CONFORMANCE.md:
//  - matching by (animation index, channel target, t); t matches exactly, or
//    within time_epsilon * max(1, |t|) (and less than half the gap to the
//    neighbouring golden times), the nearest actual sample winning;
//  - error per sample: the largest absolute component difference, or for
//    rotations the angle of the rotation between the two quaternions
//    (q and -q are the same rotation);
//  - a missing animation, channel or sample, a width mismatch or a NaN is a
//    failure; extra actual animations, channels and samples are warnings.
#include <gltf_anim/io/resource_reader.hpp>
#include <gltf_anim/samples/samples.hpp>

#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gltf_anim::compare {

// Built-in tolerances, used when neither the manifest nor the command line
// gives one. float32 keyframes interpolated in float32 stay well inside them.
inline constexpr double kDefaultTolerance = 1e-5;       // absolute, per component
inline constexpr double kDefaultAngleTolerance = 1e-5;  // radians
inline constexpr double kDefaultTimeEpsilon = 1e-6;     // relative, see above
// How far a rotation's |q| may be from the expected |q| (a unit quaternion for
// a slerp of unit keys, and after Appendix C.5's normalization).
inline constexpr double kDefaultLengthTolerance = 1e-5;
// Rows of a failing channel's worst-samples table: kept while comparing (a
// bounded heap), so a channel of millions of samples still costs N rows.
inline constexpr std::size_t kDefaultWorstSamples = 5;
inline constexpr std::size_t kMaxWorstSamples = 100;

// One channel's own tolerances (the manifest entry's "channelTolerances"):
// a quiet channel is not judged with the slack of a loud one.
struct ChannelTolerance {
  std::size_t animation = 0;
  std::size_t channel = 0;  // glTF channel index in the animation
  std::optional<double> absolute, angle, length;
};

struct Tolerances {
  Tolerances() = default;
  Tolerances(double absolute_tolerance, double angle_tolerance,
             double length_tolerance = kDefaultLengthTolerance)
      : absolute(absolute_tolerance), angle(angle_tolerance), length(length_tolerance) {}
  double absolute = kDefaultTolerance;
  double angle = kDefaultAngleTolerance;
  double length = kDefaultLengthTolerance;  // rotations: | |actual| - |expected| |
  std::vector<ChannelTolerance> channels;   // per channel, over the three above
  // The tolerances of one channel: its own where it has them, else the case's.
  Tolerances of_channel(std::size_t animation, std::size_t channel) const;
};

// A quaternion's length, exact in scale (no underflow or overflow); NaN when a
// component is not finite.
double quaternion_length(std::span<const double> q);

// Error measures. angle_between is reference::rotation_angle (quaternion.hpp), the one
// rotation angle of the project: radians in [0, pi], computed as
// 4*atan2(|a - s b|, |a + s b|) on the normalized quaternions with
// s = sign(a.b) (stable for tiny angles; equals 2*acos(|a.b|)); 0 for two zero
// quaternions, +inf when only one is zero-length or a component is not finite. max_abs_difference returns +inf
// when a component is NaN/inf on either side.
double angle_between(std::span<const double> a, std::span<const double> b);
double max_abs_difference(std::span<const double> a, std::span<const double> b);

// Whether a golden channel is compared by angle (see samples::Measure in samples.hpp).
bool uses_angle(const samples::SampledChannel& golden);

// ---- manifest (conformance_assets/manifest.json) ----
// Root: an array of entries, or an object whose "assets" (or "cases") member
// is that array; optional root "tolerance" / "angleTolerance" are defaults
// for every entry. Entry members read: id, file, samples (string, path
// relative to the manifest's folder), features[], clauses[], tolerance,
// angleTolerance, notes (string or array of strings), variants: the results
// the specs also allow (shortest-path or not, nlerp vs slerp, ...), either an
// object {"NAME": {"description": "...", "samples": EXCERPT}} or an array of
// {"name", "samples", "notes"}, where "samples" is a path (relative to the
// manifest's folder) to a complete samples file of that variant, or EXCERPT:
// [{"animation": 0, "channel": 0, "t": 0.25, "value": [...]}, ...], the
// variant's values where it differs from the golden samples (animation and
// channel are glTF indices). A case that fails against the golden samples but
// passes against a variant passes, reported as "matches variant NAME"; so does
// one whose failing channels each match a variant alone (matched_variant
// "NAME + NAME": two readings the specs allow, on different channels).
// knownDivergences: the same shape, what surveyed engines return where they
// deviate from the specs; a failing case that matches one stays failed and
// is reported as "matches known divergence NAME". extensions[]: the glTF
// extensions a client must implement for the case's golden samples to apply
// (a client without one is not checked on the case: CompareOptions::extensions).
// Other members are ignored.
struct VariantSample {
  std::size_t animation = 0;
  std::size_t channel = 0;
  double t = 0;
  std::vector<double> value;
};
struct ManifestVariant {
  std::string name;
  std::string samples;                 // path of a full samples file, or ""
  std::vector<VariantSample> excerpt;  // or the values that differ
  std::string notes;                   // "description" / "notes"
};
struct ManifestEntry {
  std::string id;
  std::string file;
  std::string samples;
  std::vector<std::string> features;
  std::vector<std::string> clauses;
  std::vector<std::string> extensions;
  std::optional<double> tolerance;
  std::optional<double> angle_tolerance;
  std::optional<double> length_tolerance;
  std::vector<ChannelTolerance> channel_tolerances;  // "channelTolerances"
  std::string notes;
  std::vector<ManifestVariant> variants;
  std::vector<ManifestVariant> known_divergences;
};
struct Manifest {
  std::filesystem::path path;  // the manifest.json read
  std::optional<double> tolerance, angle_tolerance, length_tolerance;  // root defaults
  std::vector<ManifestEntry> entries;
  bool lists_extensions = false;  // some entry has an "extensions" member
};
// Throws samples::SamplesFormatError (file + JSON pointer) on a malformed manifest.
Manifest read_manifest(const std::filesystem::path& path);
// The same of a manifest's bytes already in memory; `path` is how messages name it, and its
// folder how they name the files it names (it is not opened).
Manifest parse_manifest(std::string_view json, const std::filesystem::path& path);
// The manifest.json of `start`: in it when it is a folder, else beside it (in
// the file's folder). Never a folder above: nullopt when there is none there.
std::optional<std::filesystem::path> find_manifest(const std::filesystem::path& start);

// ---- results ----
enum class ErrorMeasure { kAbsolute, kAngle };

struct ErrorStats {
  std::size_t samples = 0;  // samples compared
  double max = 0;           // largest error (inf if a NaN was met)
  double mean = 0;
  double worst_t = 0;       // time of `max` (valid when samples > 0)
  std::size_t worst_animation = 0;
  std::string worst_target;
};

// One row of a failing channel's worst-samples table.
struct WorstSample {
  double t = 0;                        // the golden time
  std::vector<double> golden, actual;  // values (golden width)
  double error = 0;                    // inf when not finite
};

// A manifest alternative (variant or known divergence) that explains a failing
// channel: at every golden time where its value differs from the golden one by
// more than the tolerance ("its times"), the actual value is within the
// tolerance of the alternative's. Other samples of the channel may still fail.
// Or, when none does, the one the actual values match at some of its times
// (partial).
struct AlternativeMatch {
  std::string name;
  bool allowed = false;     // a variant (allowed by the specs), else a known divergence
  std::string description;  // from the manifest
  std::string breaks;       // a divergence's "breaks ..." sentence (from its description), or ""
  std::size_t times = 0;    // how many times the alternative differs at (all matched)
  std::vector<double> first_times;  // the first of them (at most kMaxListedTimes)
  std::size_t other_failing = 0;    // samples failing at other times (over tolerance or missing)
  std::vector<double> first_other_times;  // the first of those (at most kMaxListedTimes)
  // A partial match: the actual values match the alternative at `times` of its times but
  // not at `differs` others (listed as at most kMaxListedTimes in first_differs, and said
  // as where they lie against the golden channel's keyframes: "after the last key",
  // "before the first key", "at keys", "between keys", joined with " and "; "" without
  // keyframes). Kept only for a channel that no alternative matches fully, the one
  // matching at the most times.
  bool partial = false;
  std::size_t differs = 0;
  std::vector<double> first_differs;
  std::string differs_where;
};
inline constexpr std::size_t kMaxListedTimes = 8;

struct ChannelResult {
  std::size_t animation = 0;
  std::size_t channel = 0;  // the golden channel's index in its animation
  std::string target;
  std::string interpolation;       // from the golden file
  ErrorMeasure measure = ErrorMeasure::kAbsolute;
  double tolerance = 0;            // the one applied (absolute or radians)
  // Rotations: a sample also fails when its |q| is off the expected |q| by
  // more than length_tolerance (an engine that lerps without normalizing, or
  // skips Appendix C.5's normalization, is not a rotation of another speed).
  double length_tolerance = 0;
  std::size_t length_failures = 0;  // samples whose length is off (counted in over_tolerance too)
  double worst_length_t = 0;        // the sample whose length is the most off
  double worst_length_actual = 0, worst_length_expected = 0;  // its |q|, actual and expected
  bool passed = true;
  bool missing = false;            // absent from the actual file
  // The feature the engine's adapter declared it cannot play on this channel
  // (samples::SampledChannel::unsupported): the channel is not run, neither a
  // pass nor a failure (passed is false, problem says so). "" otherwise.
  std::string unsupported;
  std::size_t width = 0;           // golden components per sample
  std::size_t actual_width = 0;    // 0 when missing
  std::size_t golden_samples = 0;
  std::size_t compared = 0;        // matched samples
  std::size_t over_tolerance = 0;  // matched samples with error > tolerance (or NaN)
  std::size_t missing_samples = 0; // golden samples without an actual one
  std::size_t extra_samples = 0;   // actual samples matching no golden one
  ErrorStats stats;
  std::string problem;  // why it failed, one line ("" when passed)
  // Failing channels only: the compared samples with the largest errors,
  // largest first (ties: earlier t first), at most CompareOptions::worst_samples;
  // and the manifest alternatives the actual values match (variants first).
  std::vector<WorstSample> worst;
  std::vector<AlternativeMatch> alternatives;
  // Plot data, kept for failing channels only, by increasing t: golden time,
  // golden and actual values (width per sample; NaN where the actual one is
  // missing), error per sample (NaN where missing); keyframes from the golden
  // channel, or empty.
  std::vector<double> times, golden, actual, errors, keyframes;
};

// How a case ends. kNothingCompared: the golden samples hold no sample at all
// (e.g. the core-only view of an asset whose channels are all extension
// channels) and nothing else went wrong: there was nothing to check, which is
// neither a pass nor a failure (it does not fail the run). kNotRun: no actual
// samples file for the case (the engine did not produce it): neither a pass nor
// a failure; `compare --require-all` makes the run fail on it. kExcluded: the
// case needs an extension outside CompareOptions::extensions (a core-only
// engine's view): not compared, never a failure.
// A case whose engine's adapter declared some channels unsupported, and whose
// other channels pass, is kNotRun too (CaseResult::unsupported names the features).
enum class CaseOutcome { kPassed, kFailed, kNothingCompared, kNotRun, kExcluded };

struct CaseResult {
  std::string id;           // manifest id, else golden "asset", else file name
  std::string asset;        // golden "asset"
  std::string golden_file;
  std::string actual_file;  // "" when no actual file matched
  std::vector<std::string> features, clauses;
  std::string notes;        // manifest notes
  Tolerances tolerances;
  CaseOutcome outcome = CaseOutcome::kPassed;
  bool passed() const { return outcome == CaseOutcome::kPassed; }
  bool failed() const { return outcome == CaseOutcome::kFailed; }
  std::string problem;          // case-level failure or why not run / excluded ("" otherwise)
  std::string matched_variant;  // the manifest variant that passed ("A + B": one per channel), if any
  std::string matched_divergence;  // failed, but matches this manifest known divergence
  // kNotRun because the adapter declared channels unsupported: their features,
  // each once, in channel order ("" when not run for another reason).
  std::vector<std::string> unsupported;
  // Failed only on channels missing from the actual samples (no other failure):
  // what each missing channel needs, each once ("KHR_animation_pointer" from the
  // manifest's extensions, else "morph weights", "CUBICSPLINE", ...), for the
  // report's advice to declare them unsupported. Empty for any other case.
  std::vector<std::string> missing_only;
  std::vector<ChannelResult> channels;  // one per golden channel, golden order
  std::vector<std::string> warnings;    // extra animations / channels / samples
  ErrorStats absolute, angle;           // over all channels of the case
};

struct CompareReport {
  std::string golden, actual;  // the paths given
  std::string generator;       // e.g. "gltf-anim 0.1.0"
  std::vector<CaseResult> cases;  // sorted by id
  std::vector<std::string> warnings;  // e.g. actual files matching no golden file
  std::vector<std::string> selection;                  // CompareOptions::cases, as given
  std::optional<std::vector<std::string>> extensions;  // CompareOptions::extensions
  // Patterns of CompareOptions::cases that selected no case (a typo, usually).
  std::vector<std::string> unmatched_selection;
  std::size_t passed() const;
  std::size_t failed() const;
  std::size_t nothing_compared() const;
  std::size_t not_run() const;
  std::size_t excluded() const;
};

// The cases in the order people read them: failed, not run, passed, nothing
// compared, excluded; by id within each (the report's order).
std::vector<const CaseResult*> failures_first(const CompareReport& report);

struct CompareOptions {
  std::optional<double> tolerance;        // overrides manifest and default
  std::optional<double> angle_tolerance;  // overrides manifest and default (radians)
  std::optional<double> length_tolerance;  // overrides manifest and default (rotation |q|)
  double time_epsilon = kDefaultTimeEpsilon;
  samples::ReadOptions read;
  // The manifest to use; unset: find_manifest(golden).
  std::optional<std::filesystem::path> manifest;
  // Case ids or globs (fnmatch: *, ?, [...]); empty: every case. Cases not
  // selected are left out of the report (not counted at all).
  std::vector<std::string> cases;
  // The extensions the engine implements; unset: all. A case whose manifest
  // entry lists an extension outside this set is excluded (not compared).
  std::optional<std::vector<std::string>> extensions;
  std::size_t worst_samples =
      kDefaultWorstSamples;  // rows per failing channel, 0..kMaxWorstSamples
};

// A reader's error as one line: "FILE: at JSON pointer \"/a/0\": MESSAGE" (or
// "FILE: line L, column C: MESSAGE" where the place is not a pointer).
std::string describe(const samples::SamplesFormatError& e);

// Compares two samples files already in memory (no manifest involved).
CaseResult compare_samples(const samples::SamplesFile& golden, const samples::SamplesFile& actual,
                           const Tolerances& tolerances, double time_epsilon = kDefaultTimeEpsilon,
                           std::size_t worst_samples = kDefaultWorstSamples);

// `gltf-anim compare`: golden and actual are samples files or folders of
// them. Folders are scanned recursively for *.json / *.csv (manifest.json
// excluded; when any *.samples.json / *.samples.csv exists, only those); a
// golden folder with a manifest takes its files from the manifest's
// "samples" entries instead. Actual files are matched to golden ones by
// "asset" (exact, then file name part), else by file name (without
// .samples.json / .json / .csv). A golden folder with a single actual file
// compares that one case; in two folders, a golden file without an actual one
// is a case not run. Only the cases CompareOptions::cases selects are in the
// report (unmatched patterns in unmatched_selection); with
// CompareOptions::extensions, a case needing another extension is excluded.
// A failing case's failing channels are diagnosed against every variant and
// known divergence of its manifest entry (ChannelResult::alternatives).
// An actual samples file the reader refuses (malformed, unreadable, too large)
// fails its case (CaseResult::problem names the file and the JSON pointer) when
// its file name pairs it with a golden file; other cases are still compared.
// Throws samples::SamplesFormatError (naming the file and the JSON pointer) for
// an unreadable or malformed golden file, manifest or variant file, for a
// single actual file that pairs with no golden file, and for paths that do not
// exist.
CompareReport compare_paths(const std::filesystem::path& golden,
                            const std::filesystem::path& actual, const CompareOptions& options);

// compare_paths with a single actual samples file already read (the CLI's
// standard input), named `actual_name` in the report ("-"). It has no file
// name, so in a golden folder it pairs by its "asset" only.
CompareReport compare_read_actual(const std::filesystem::path& golden, samples::SamplesFile actual,
                                  const std::string& actual_name, const CompareOptions& options);

// ---- comparing in memory: a suite and an engine's samples held by the caller (a web page, an
// engine's test harness), no file opened. compare_paths is this over files read through io/.

// One samples file held in memory under its name ("valid/rotation_linear.samples.json",
// "rotation_linear.samples.csv"): the name is what reports show and what an actual file is
// paired by when its "asset" does not pair it. `error` holds the reader's refusal of an actual
// file (its case fails with it, as compare_paths fails a malformed actual file's case).
struct NamedSamples {
  std::string name;
  samples::SamplesFile file;
  std::optional<samples::SamplesFormatError> error;
};
// Reads `bytes` as the samples file `name` (CSV when the name ends in .csv, any case, else
// JSON); the reader's refusal is kept in NamedSamples::error, not thrown.
NamedSamples read_named_samples(std::string name, std::string_view bytes,
                                const samples::ReadOptions& options = {});

// A suite: its manifest (parse_manifest) and the reader of the files it names, by their
// paths relative to the manifest's folder: each entry's golden samples, the variants' samples
// files and the assets (the named readings decode a failing channel's keys from its asset,
// whose buffers are read through the same reader, relative to the asset's folder and
// confined to it), like the loader's LoadOptions::resources. `name` is the report's "golden".
struct SuiteInput {
  const Manifest* manifest = nullptr;
  const io::ResourceReader* files = nullptr;
  std::string name;
};
// An engine's run: its samples files, and the report's "actual".
struct ActualInput {
  std::vector<NamedSamples> files;
  std::string name;
};

// compare_paths on a suite in memory: the golden files are the manifest entries' "samples"
// (each read once through SuiteInput::files, each case with the first entry naming it), the
// actual files paired with them as two folders are (by "asset", then by name; a golden case
// without an actual file is not run, an actual file pairing with none is a warning). Options
// as compare_paths (CompareOptions::manifest is not read). Throws samples::SamplesFormatError
// for a golden or variant file the reader refuses or that is malformed, and
// std::invalid_argument when SuiteInput has no manifest or no reader.
CompareReport compare_suite(const SuiteInput& golden, ActualInput actual,
                            const CompareOptions& options);

}  // namespace gltf_anim::compare

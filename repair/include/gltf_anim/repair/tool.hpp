#pragma once
// The contract every repair tool keeps (fix, reduce, fit, migrate;
// docs/TOOLS.md), as one pipeline:
//   1. load and validate the input; an input with errors gets its report and
//      exit 1, unless --force (or every error is one the tool repairs);
//   2. the tool edits the asset through a gltf::Edit session (gltf/edit.hpp),
//      reading the channels as decoded editable tracks;
//   3. the output is built in memory, loaded and validated again, and refused
//      (exit 2, the new issue codes named) when it has an error the input did
//      not have;
//   4. written atomically (io::OutputFile), never over an input unless
//      --in-place, nothing written with --dry-run;
//   5. a report: per channel what changed (interpolation, keys, bytes, error
//      reached) and per repair its issue code, pointer and what it changes in
//      playback, as text or JSON.
#include <gltf_anim/gltf/edit.hpp>
#include <gltf_anim/reference/track.hpp>
#include <gltf_anim/gltf/animation_model.hpp>
#include <gltf_anim/gltf/asset.hpp>
#include <gltf_anim/gltf/issue_registry.hpp>
#include <gltf_anim/validator/validate.hpp>
#include <gltf_anim/io/resource_reader.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gltf_anim::repair {

// What the edit session needs of a loaded asset: its text, container and
// buffers, the layout of buffers, bufferViews and accessors, which
// bufferViews something other than an accessor names (images, the mesh
// compression extensions), and whether bytes may move: compaction is blocked
// when the asset uses an extension outside kCompactionSafeExtensions, which
// might name a buffer and byte offset directly (as EXT_meshopt_compression
// does) or a bufferView by index. All of it but the bytes and the layout is
// the model's (build_animation_model of the same asset: images, primitives'
// KHR_draco_mesh_compression, extensionsUsed); without one it is built here.
gltf::Source edit_source(const gltf::LoadedAsset& asset, const gltf::model::AnimationModel& model);
gltf::Source edit_source(const gltf::LoadedAsset& asset);
// Extensions known to reach buffer bytes only through bufferViews that
// edit_source marks as used (or through accessors), or not at all.
extern const std::vector<std::string_view> kCompactionSafeExtensions;

// Every URI the document names that is not a data URI, as written (percent-encoded):
// every string member "uri" at any depth (images, any extension's files, known or not,
// such as KHR_audio's sources, and with `buffers` the buffers' own). The output never
// replaces one of them.
std::vector<std::string> relative_uris(const gltf::LoadedAsset& asset, bool buffers = true);
// Whether one besides the buffers' own is named (the output must then stay in the input's
// folder; a buffer the output keeps is the edit's to say).
bool names_relative_files(const gltf::LoadedAsset& asset);

// An accessor's format in the edit session's terms (nullopt when it has no
// componentType or type).
std::optional<gltf::ElementFormat> element_format(const gltf::Accessor& accessor);

// One linked channel, decoded for a tool to edit: its sampler's input and
// output as doubles (float keys exactly, normalized integers by the spec's
// formula, sparse applied: the accessor reader's decoding), its value kind and
// width read from the animation model as the sampler reads them. Broken data
// (times not increasing, non-unit quaternions) is decoded as it is: repairing
// it is the point.
struct EditableTrack {
  std::size_t animation = 0;  // glTF indices
  std::size_t channel = 0;
  std::size_t sampler = 0;      // within the animation
  bool sqlerp = false;          // the channel's EXT_animation_sqlerp sampler (not channel.sampler)
  std::string channel_pointer;  // "/animations/a/channels/c"
  std::string sampler_pointer;  // "/animations/a/samplers/s"
  std::string target;           // the animated property's pointer
  std::size_t input = 0;        // accessor indices
  std::size_t output = 0;
  std::string interpolation;  // as written (the spec's LINEAR when absent)
  // The keys: times, values (per key: the value, or in-tangent, value, out-tangent),
  // components per value (morph weights: the targets), interpolation and value kind.
  reference::Track keys;
  gltf::ElementFormat output_format;  // as stored; a tool may change it
  // The other channels of the same sampler whose targets read its keys alike (same value
  // kind and width): the sampler is decoded once and edited once, for all of them (an
  // edit of the track is theirs too). Not for an EXT_animation_sqlerp sampler, which is
  // the channel's own.
  struct SharedChannel {
    std::size_t channel = 0;
    std::string channel_pointer;
    std::string target;
  };
  std::vector<SharedChannel> shared;
  // Whether `keys` holds the times and values: a tool that reads the tracks one sampler
  // group at a time (Tool::one_group_at_a_time) gets them without, decodes each as it
  // reaches it (decode_keys) and drops it once done (release_keys), so the asset is never
  // held decoded whole (8 bytes a value, twice its floats). The rest of the track (its
  // interpolation, kind and components in `keys` too) is always there.
  bool keys_held = true;
  std::size_t key_count = 0;  // keys.times.size() as decoded, held or not
  // Set by release_keys: whether the edited track handed back for this one differs from
  // these keys in its times and in its values (write_tracks reads these in place of keys).
  struct Released {
    bool times_changed = false;
    bool values_changed = false;
  };
  std::optional<Released> released;
  // What the keys were decoded from (the model's, which outlives the tracks): decode_keys
  // decodes them again from these.
  const gltf::model::Target* decoded_target = nullptr;
  const gltf::model::Sampler* decoded_sampler = nullptr;

  reference::TrackView view() const { return keys.view(); }
};

// Every channel with a target and a sampler whose keys decode as `sample` decodes them
// (gltf/sampler_keys.hpp: interpolation known, input and output readable and fitting the
// target), in animation then channel order (both samplers of an EXT_animation_sqlerp
// channel: the sqlerp one after the fallback); a channel whose sampler an earlier channel's
// track decoded alike is listed in that track's `shared`, not decoded again. The others are left out, each with its reason
// in `skipped` ("/animations/0/channels/3: accessor 7 cannot be read"). All tracks together
// hold at most max(2^26, the asset's stored bytes) decoded values: past that, `refused` says
// why and nothing is returned (without `refused`, that channel is left out too).
// With `keep_keys` false each track is decoded (the same checks, the same bound, counted
// the same way) and its keys dropped at once: keys_held is false, decode_keys brings them back.
std::vector<EditableTrack> editable_tracks(const gltf::LoadedAsset& asset,
                                           const gltf::model::AnimationModel& model,
                                           std::vector<std::string>* skipped = nullptr,
                                           std::string* refused = nullptr, bool keep_keys = true);
// Decodes a track's keys again (nothing to do when it holds them); the asset and the model
// are the ones editable_tracks read. false when they cannot be (they could when listed).
bool decode_keys(const gltf::LoadedAsset& asset, EditableTrack& track);
// Drops a track's keys (their memory given back), recording how `after`, the edited track
// handed back for it (nullptr or the track itself: left as it was), differs from them.
// write_tracks then reads those facts, so `after` must not change afterwards.
void release_keys(EditableTrack& track, const EditableTrack* after);

// The references to each accessor: how many samplers (input or output) name
// it, and whether anything else does (a mesh, a skin, an instancing extension).
struct AccessorUse {
  std::uint32_t samplers = 0;
  bool elsewhere = false;
};
// The samplers' links and the other users (meshes, skins, EXT_mesh_gpu_instancing) come
// from the model (build_animation_model of the same asset).
std::vector<AccessorUse> accessor_uses(const gltf::LoadedAsset& asset,
                                       const gltf::model::AnimationModel& model);

// Whether write_tracks gives accessors of equal contents one accessor.
enum class EqualAccessors : std::uint8_t {
  kKeep,   // each accessor as it was: only changed contents are written
  kMerge,  // accessors only the tracks' samplers read, with equal contents (the same format
           // and the same decoded values, changed or not), become one: every sampler names
           // the first of them, and the others, left unread, read its bytes so their own
           // go (Edit::share_accessor; the edit path never deletes an accessor)
};

// Hands edited tracks back to the session: `after[k]` is `before[k]` edited
// (same channel and sampler). For each accessor whose contents changed: when
// every sampler using it is in `after` with the same new data, the accessor
// itself is rewritten (in place when the count, format and layout allow, else
// as new contents); when something not edited uses it too (a time accessor
// shared with an untouched sampler), the edited samplers get a new accessor
// and are re-pointed. The interpolation is written when it changed. false
// with the reason when two edits of one sampler disagree or the session
// refuses the data. With EqualAccessors::kMerge, equal contents are held once (above).
bool write_tracks(gltf::Edit& edit, const std::vector<AccessorUse>& uses,
                  std::span<const EditableTrack> before, std::span<const EditableTrack> after,
                  std::string& why, EqualAccessors equal = EqualAccessors::kKeep);
// The same with `after[k]` a pointer: a track the tool left as it was may point at
// `before[k]` itself, so a tool holds a copy only of the tracks it changes.
bool write_tracks(gltf::Edit& edit, const std::vector<AccessorUse>& uses,
                  std::span<const EditableTrack> before,
                  std::span<const EditableTrack* const> after, std::string& why,
                  EqualAccessors equal = EqualAccessors::kKeep);

// Per channel, what a tool did.
struct ChannelSummary {
  std::string channel;  // "/animations/0/channels/1" (sqlerp: "+ EXT_animation_sqlerp")
  std::string target;
  std::string interpolation_before;
  std::string interpolation_after;
  std::uint64_t keys_before = 0;
  std::uint64_t keys_after = 0;
  std::uint64_t bytes_before = 0;  // input + output data as stored
  std::uint64_t bytes_after = 0;
  std::optional<double> max_error;  // largest component difference reached
  std::optional<double> max_angle;  // rotations: largest angle reached, radians
  std::vector<std::string> notes;
};
// The summary of a track's channel, and a copy of it for each channel sharing the track's
// sampler (its channel and target, and a note naming the channel it was decoded for).
void add_summaries(std::vector<ChannelSummary>& out, const EditableTrack& track,
                   ChannelSummary summary);

// One repair: the issue code it answers, where, what was done and what it
// changes in playback; fixed = false for a problem reported as not fixable.
struct Repair {
  gltf::IssueCode code;
  std::string pointer;
  std::string action;
  std::string playback;
  bool fixed = true;
};

enum class ReportFormat { kText, kJson };

struct ToolReport;

struct ToolOptions {
  std::filesystem::path input;
  std::optional<std::filesystem::path> output;  // required unless in_place or dry_run
  bool dry_run = false;
  bool in_place = false;
  bool force = false;
  ReportFormat format = ReportFormat::kText;
  validator::ValidateOptions validate;
  // Called once when the output is ready to be put in place (every file written to its
  // temporary) and before any target changes, with the report as it will stand once
  // written: the caller delivers it there (the CLI's standard output). false (the caller
  // said why) drops the output: nothing is written, exit 2. So a report that cannot be
  // delivered never comes with a written output.
  std::function<bool(const ToolReport&)> deliver;
};

struct ToolReport {
  std::string tool;
  std::string input;
  std::string output;  // "" when none
  bool dry_run = false;
  bool written = false;
  int exit_code = 0;
  std::string message;                  // why it stopped (exit 1 or 2), or ""
  std::uint64_t file_bytes_before = 0;  // main file plus the buffers it writes or names
  std::uint64_t file_bytes_after = 0;
  std::size_t errors_before = 0;
  std::size_t errors_after = 0;
  std::vector<std::string> new_error_codes;  // errors the output has and the input had not
  std::vector<ChannelSummary> channels;
  std::vector<Repair> repairs;
  std::vector<std::string> notes;  // what the session said: compaction skipped, files written
};

// What a tool sees of its input.
struct ToolInput {
  const gltf::LoadedAsset& asset;
  const gltf::model::AnimationModel& model;
  const validator::ValidationReport& report;
  std::vector<EditableTrack> tracks;
  std::vector<std::string> skipped;  // channels editable_tracks left out, with why
  std::vector<AccessorUse> uses;
};

// A tool: its name, the error codes it repairs (an input whose errors are
// all among them is edited without --force) and its body, which records its
// edits in `edit` and its findings in `report`. The body returns false with
// the reason when it cannot do what was asked (exit 2).
struct Tool {
  std::string name;
  std::vector<gltf::IssueCode> repairs_codes;
  std::function<bool(ToolInput& input, gltf::Edit& edit, ToolReport& report, std::string& why)>
      body;
  // The body decodes the tracks' keys itself, one sampler group at a time (decode_keys,
  // release_keys): input.tracks come without keys. Otherwise every track comes decoded.
  bool one_group_at_a_time = false;
};

// Steps 1 to 3 of the pipeline above in memory: no file is opened, read or written here.
// The input is the asset's bytes and a reader of the files it names (io::ResourceReader:
// an io::FolderReader over its folder, or an io::MemoryReader); the result is the report
// and the edited asset's files (none when the run stopped, its reason in the report).
struct ToolAsset {
  std::span<const std::uint8_t> bytes;
  std::string name;  // as reported ("scene.gltf", a path); a name ending in .glb reads a GLB
  std::string folder;  // the input's folder, for messages ("." or a path)
  // The buffers and files the asset names, by relative name (null: none can be read).
  const io::ResourceReader* resources = nullptr;
  // What the output's validation reads of the input's files it still names (null: resources).
  const io::ResourceReader* output_resources = nullptr;
  // The bytes could not be read (`bytes` is then ignored): reported as the loader reports a
  // file it cannot read, FILE_TOO_LARGE (its size) or IO_ERROR (`what`: the name and why).
  struct ReadError {
    bool too_large = false;
    std::uint64_t size = 0;
    std::string what;
  };
  std::optional<ReadError> read_error;
};
// Where the output goes, by name only: the caller answers for the file system.
struct ToolTarget {
  std::string name;       // as reported ("" when none: a dry run)
  std::string file_name;  // the output's file name (its validation; a name it never reuses)
  std::string stem;       // new buffers are named after it (gltf::OutputNames::stem)
  // The output goes to another folder than the input's: its buffers and the files it names
  // go with it (gltf::OutputNames::every_buffer; the copies in ToolOutput).
  bool elsewhere = false;
  // Called once the input is loaded, before any work: why the target may not be written
  // (it is one of the input's files), or nullopt.
  std::function<std::optional<std::string>(const gltf::LoadedAsset&)> refused;
  // A file name beside the output that a new buffer must not take (gltf::OutputNames::taken).
  std::function<bool(std::string_view)> taken;
};
// The edited asset's files, in memory.
struct ToolOutput {
  std::vector<std::uint8_t> main;                            // .gltf text or .glb
  std::map<std::string, std::vector<std::uint8_t>> buffers;  // new files beside it, by name
  std::map<std::string, std::vector<std::uint8_t>> copies;   // the input's files it takes along
};
struct ToolRun {
  ToolReport report;
  std::optional<ToolOutput> output;  // nullopt when the run stopped (report.exit_code != 0)
};
struct EditOptions {
  bool dry_run = false;
  bool force = false;
  validator::ValidateOptions validate;  // load.resources is ToolAsset::resources
};
ToolRun edit_asset(const Tool& tool, const ToolAsset& input, const ToolTarget& target,
                   const EditOptions& options);


// The report as text (for people) or JSON (docs/TOOLS.md "JSON report").
void write_report(const ToolReport& report, ReportFormat format, std::ostream& out);

// Bytes of an accessor's data as stored (count x element size; sparse parts
// included), for the summaries.
std::uint64_t accessor_bytes(const gltf::LoadedAsset& asset, std::size_t accessor);

// What in a track's keys no tool can edit, in the user's words and naming the accessor: "its
// times are all NaN (accessor 0)", "its time at key 3 is infinite (accessor 0)", "its value at
// key 2 is NaN (accessor 4)"; "" when every time and value is finite. validate reports each such
// element as ACCESSOR_INVALID_FLOAT; a tool says which channel it leaves as it is, and why.
std::string non_finite_keys(const EditableTrack& track);

// Counts each time accessor once in a report's per-channel bytes, before and after: several
// samplers often read one time accessor (an exporter writes one per clip), and counting it in
// each of their summaries made the bytes before and after sum to more than the file holds.
// The first summary (in the order asked) whose sampler reads an accessor carries its bytes;
// the others get 0 for it and a note naming that channel.
class TimeBytes {
 public:
  explicit TimeBytes(const gltf::LoadedAsset& asset) : asset_(asset) {}
  // Bytes of `track`'s time accessor as stored, or 0 when an earlier summary counted them.
  std::uint64_t before(const EditableTrack& track, std::vector<std::string>& notes);
  // After before(track): whether `track`'s summary carries its time accessor's bytes (false
  // when an earlier summary counted them).
  bool counted_here(const EditableTrack& track) const;
  // Bytes of the times `track`'s sampler reads after the edit: `bytes` (the accessor's
  // bytes when it kept its times, 4 a key when they were rewritten), or 0 when an earlier
  // summary counted the same accessor. Samplers name one accessor after the edit when they
  // hold the same `times` and the same `key` (a tool that shares equal times only among the
  // readers of one accessor passes the track's input accessor, one that shares them across
  // the asset passes nullopt).
  std::uint64_t after(const EditableTrack& track, std::span<const double> times,
                      std::optional<std::size_t> key, std::uint64_t bytes,
                      std::vector<std::string>& notes);

 private:
  const gltf::LoadedAsset& asset_;
  std::map<std::size_t, std::string> before_;  // accessor -> the channel that counted it
  std::map<std::pair<std::optional<std::size_t>, std::vector<std::uint64_t>>, std::string> after_;
};

}  // namespace gltf_anim::repair

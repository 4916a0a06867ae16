#pragma once
// Sampling an asset's animations with the reference evaluator: what
// `gltf-anim sample` prints and what the golden samples of the suite are.
//
// Pipeline: gltf/'s loader (load_file: .gltf/.glb, data URIs, external
// buffers) -> the animation model (gltf/animation_model.hpp: every
// channel's sampler and target linked once, as the validator reads them) ->
// accessor decoding to double (normalized integers by the spec's formula,
// sparse) -> one reference::TrackView per channel -> reference::sample.
//
// Channels and targets (the model's):
//  * core channel (target.node + path): target "/nodes/N/<path>";
//  * KHR_animation_pointer (path "pointer"): the extension's pointer, which must
//    name a mutable property of the glTF Object Model or an existing `extras` value;
//  * KHR_animation2 (channel.targetpointer): that pointer, with a leading "/"
//    added when the draft's form without it is used (a property, or one
//    component of a vector);
//  * EXT_animation_sqlerp: the extension's (CUBICSLERP) sampler is evaluated;
//  * a channel without target.node (and no pointer) is ignored (the spec's SHOULD),
//    as are unknown target paths.
// With extensions = false the asset is sampled as a core-only client sees it:
// pointer and targetpointer channels are absent, sqlerp channels use their
// fallback `sampler` and are absent when they have none.
//
// Value kinds, from the target's Object Model type: a quaternion property (node
// rotation, EXT_lights_image_based rotation) or a SLERP/CUBICSLERP sampler is a
// rotation (slerped on the shortest path, as node rotations); floatN is N wide
// and the output must be VECN; morph weights (float[]) are as wide as the
// node's mesh has morph targets, or as the output count gives when it has none;
// int and bool properties take STEP only, a bool gives 0 or 1, an int the
// integers as-is; an `extras` value is as wide as its output, and STEP-only
// when its output holds non-normalized integers.
//
// Default times (per animation): the union over its sampled channels of every
// key, each segment's quarter points and midpoint (t_k + d/4, t_k + d/2,
// t_k + 3d/4 with d = t_{k+1} - t_k), the same points of the segments between
// consecutive keys of that union, one time 0.5 s before the earliest key and
// one 0.5 s after the latest, and t = 0 (the clip start) when the earliest key
// is later. Every channel of the animation is sampled at all of these times,
// so a channel shorter than its clip is checked outside its own range too.
// With a rate: t = k / rate for k = 0, 1, ... while t <= latest key (k / rate is
// computed for each k, never accumulated). With max_times N, an animation whose
// default or rate times are more than N is sampled at N times evenly spaced from
// its start (0, or its earliest key when that is earlier) to its latest key, both
// included (count_times) instead: a plot of N pixel columns asks for at most N
// samples per channel however long the clip and however many keys it holds.
// Explicit times are sorted and de-duplicated.
#include <gltf_anim/reference/track.hpp>
#include <gltf_anim/samples/samples.hpp>
#include <gltf_anim/io/input_files.hpp>
#include <gltf_anim/io/output_file.hpp>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace gltf_anim::gltf {
struct LoadedAsset;
}  // namespace gltf_anim::gltf

namespace gltf_anim::sampler {

// How a requested time maps to the animation's time. kPlayOnce: as it is (before
// the first key and after the last, clamped: glTF 2.0 3.11). kInteractivityLoop:
// KHR_interactivity's wrap (reference::interactivity_time) with T the animation's
// latest key over all its channels, what a looping player conforming to it shows;
// the samples keep the requested times.
enum class TimeMode { kPlayOnce, kInteractivityLoop };

struct SampleRequest {
  std::optional<std::vector<double>> times;  // explicit times, for every channel
  TimeMode time_mode = TimeMode::kPlayOnce;
  std::optional<double> rate;                // Hz, > 0
  // At most this many default or rate times per animation (1 to kMaxCountTimes; see above).
  std::optional<std::uint64_t> max_times;
  // false: the JSON samples file lists no channel's `keyframes` (the keys' times, as many
  // as the asset holds; `--keys` has them), so its size is bounded by the times asked for.
  bool keyframes = true;
  std::optional<std::size_t> animation;      // only this animation
  bool extensions = true;                    // false: the core-only view (see above)
  reference::SampleOptions evaluator;        // variant choices (defaults: golden)
  // Decoded keys plus samples over all animations (what sample_asset's model
  // holds at once; SampleStream holds only a window of channels of it, but the
  // count also bounds work and output); more is refused with exit code 2 before
  // sampling (N channels sharing one K-key input would otherwise turn a 2 MB file
  // into tens of GB). 0: no limit.
  std::uint64_t max_values_held = std::uint64_t{1} << 26;  // 512 MiB of doubles
  // When set, the asset and every external buffer read are recorded here (an
  // output that is one of them is refused by the caller).
  io::InputFiles* inputs = nullptr;
  // Largest asset file and external buffer read, checked before reading (an
  // AssetBytes asset is bounded by whoever read it).
  std::uint64_t max_file_bytes = std::uint64_t{1} << 30;  // 1 GiB, the loader's default
  // The samples file's "asset" (what compare matches actual files by); unset:
  // the asset's file name, or AssetBytes::uri.
  std::optional<std::string> asset_name;
};

// An asset already in memory (the CLI's standard input). It has no folder, so
// a buffer with a relative URI cannot be read: refused with exit code 2 (data:
// URIs and a GLB's BIN chunk are read as from a file).
struct AssetBytes {
  std::span<const std::uint8_t> bytes;
  std::string uri;        // the samples file's "asset" by default ("-")
  std::string described;  // what messages call it ("standard input")
};

// Why an asset could not be sampled. exit_code: 2 when the file cannot be read
// or is not glTF at all (and for bad requests, e.g. --animation out of range);
// 1 when it is glTF but some channel cannot be evaluated (missing or unreadable
// accessors, bad sampler, times not increasing, wrong output count...).
class SampleError : public std::runtime_error {
 public:
  SampleError(int exit_code, const std::string& message)
      : std::runtime_error(message), exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

// Samples `asset` and returns the samples file (asset = the file name without
// folders, generator = gltf_anim::kGenerator). Throws SampleError.
samples::SamplesFile sample_asset(const std::filesystem::path& asset, const SampleRequest& request = {});

// An asset the caller loaded itself (gltf::load_file or load_bytes, with the reader it chose):
// `gltf-anim generate --from` samples the very bytes it copies, read once. `described` names
// it in messages and is the samples file's "asset" unless request.asset_name is set.
// request.inputs and max_file_bytes are the caller's affair (nothing is read here). An asset
// without a JSON object is refused (SampleError, exit code 2).
samples::SamplesFile sample_asset(const gltf::LoadedAsset& asset, const std::string& described,
                                  const SampleRequest& request = {});

// `gltf-anim sample` streamed: the constructor loads `asset`, resolves and
// checks every channel and computes the times (throws SampleError, before the
// caller opens any output); write() then samples and writes the samples file
// channel by channel, `threads` workers sampling and formatting channels (1:
// none, the calling thread does all), written in channel order. Same bytes as
// sample_asset + the model writer, for any thread count. Memory: the loaded
// asset, each animation's times and their text, and a window of 2 x threads
// jobs of up to 8 consecutive channels sharing an input accessor (their decoded
// keys, samples and text; the JSON keyframes text once per job); the first pass keeps only
// the key times the default times need (once per input accessor).
class SampleStream {
 public:
  SampleStream(const std::filesystem::path& asset, const SampleRequest& request);
  SampleStream(const AssetBytes& asset, const SampleRequest& request);
  SampleStream(const SampleStream&) = delete;
  SampleStream& operator=(const SampleStream&) = delete;
  ~SampleStream();
  void write(samples::SamplesFormat format, std::ostream& out, unsigned threads = 1) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// One channel as the evaluator sees it: the decoded keys (doubles; float32
// keys exactly, normalized integers by the spec's formula) and the times the
// golden samples are taken at. For analyses that evaluate the same data another
// way (the suite's tolerance model and its alternative behaviours).
struct DecodedChannel {
  std::size_t animation = 0;  // glTF indices
  std::size_t channel = 0;
  std::string target;
  // The sampler's input and output (per key: in, value, out for the cubic modes), the
  // values per key, the interpolation and the value kind.
  reference::Track keys;
  std::vector<double> sample_times;  // the animation's sample times
  reference::TrackView view() const { return keys.view(); }
};
// Every channel sample_asset samples, in the same order. Throws SampleError.
std::vector<DecodedChannel> decoded_channels(const std::filesystem::path& asset, const SampleRequest& request = {});
// The same of an asset the caller loaded (see sample_asset above).
std::vector<DecodedChannel> decoded_channels(const gltf::LoadedAsset& asset,
                                             const std::string& described,
                                             const SampleRequest& request = {});

// ---- The keys as stored (`gltf-anim sample --keys`) ----
// Every channel that sample_asset samples, in the same view, order, component
// order and measure, with its evaluated sampler's keys as decoded for the
// evaluator (float32 exactly, normalized integers by the spec's formula, sparse
// applied, bool targets as 0 or 1): nothing is evaluated. Unlike sampling, a
// channel the evaluator refuses is listed too, with the reason in `problem`:
// with its keys when they could be decoded (times not increasing, a value not
// finite, a zero rotation key), without them when they could not (a missing or
// unreadable accessor, an output count that does not fit the keys). Animations
// and channels that are not JSON objects are not channels of the model and are
// not listed. --max-values bounds the decoded keys of the whole run (exit 2).
struct ChannelKeys {
  std::size_t animation = 0;  // glTF indices
  std::size_t channel = 0;
  std::string target;                  // the animated property's pointer; empty when unknown
  std::optional<std::size_t> sampler;  // the evaluated sampler, when known
  std::string interpolation;           // as written (empty when the sampler is unknown)
  samples::Measure measure = samples::Measure::kAuto;  // angle or absolute, as `sample` writes
  // Whether `keys` holds the stored keys: their times and values (per key:
  // values_per_keyframe() groups of `components` numbers, 3 for CUBICSPLINE and CUBICSLERP:
  // in-tangent, value, out-tangent), components per value, interpolation and kind.
  bool decoded = false;
  reference::Track keys;
  std::string problem;         // why sample refuses the channel; empty when it samples it
};
std::vector<ChannelKeys> channel_keys(const std::filesystem::path& asset,
                                      const SampleRequest& request = {});

// channel_keys written as JSON channel by channel (docs/CONFORMANCE.md, `sample --keys`):
// the constructor loads the asset and decodes every channel once to count its
// values against --max-values and its problems (throws SampleError before the
// caller opens any output); write() decodes each again and writes it.
class KeysStream {
 public:
  KeysStream(const std::filesystem::path& asset, const SampleRequest& request);
  KeysStream(const AssetBytes& asset, const SampleRequest& request);
  // An asset the caller loaded and keeps alive while the stream lives (the page's verdict
  // module validates, lists the keys of and samples one load); `described` as for
  // sample_asset above.
  KeysStream(const gltf::LoadedAsset& asset, const std::string& described,
             const SampleRequest& request);
  KeysStream(const KeysStream&) = delete;
  KeysStream& operator=(const KeysStream&) = delete;
  ~KeysStream();
  // Channels listed with a problem (what makes `sample` exit 1 on this asset).
  std::size_t problems() const;
  void write(std::ostream& out) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The default time set for channels with these key times (see above).
std::vector<double> default_times(std::span<const std::vector<double>> channel_times);
// k / rate for k = 0, 1, ... while <= end (end >= 0, rate > 0). More than
// kMaxRateTimes times are refused (SampleError, exit code 2) before allocating.
inline constexpr std::uint64_t kMaxRateTimes = std::uint64_t{1} << 28;
std::vector<double> rate_times(double end, double rate);
// How many times rate_times(end, rate) gives, without building them (saturates).
std::uint64_t rate_time_count(double end, double rate);
// `count` times evenly spaced from `start` to `end` (start <= end, both finite), both
// included: t_k = start + (end - start) k / (count - 1), the last exactly `end`; one time
// (start) when count is 1 or start == end. More than kMaxCountTimes are refused
// (SampleError, exit code 2) before allocating.
inline constexpr std::uint64_t kMaxCountTimes = std::uint64_t{1} << 20;
std::vector<double> count_times(double start, double end, std::uint64_t count);

}  // namespace gltf_anim::sampler

// gltf-anim sample: samples an asset's animations with the reference evaluator
// and writes a samples file (JSON or CSV), the format `gltf-anim compare` reads.
#include <gltf_anim/io/input_files.hpp>
#include <gltf_anim/io/ordered_pool.hpp>
#include <gltf_anim/io/stdin_bytes.hpp>
#include <gltf_anim/sampler/sample.hpp>
#include <gltf_anim/samples/samples.hpp>
#include <gltf_anim/validator/batch.hpp>

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "commands.hpp"

namespace gltf_anim::cli {
namespace {

// Ranges of the numeric options (--max-values 0: no limit).
constexpr double kMaxRate = 1e9;
constexpr std::uint64_t kMaxAnimationIndex = 0xFFFFFFFFu;
constexpr std::uint64_t kMaxValuesOption = std::uint64_t{1} << 62;
constexpr std::uint64_t kMaxFileMbOption = std::uint64_t{1} << 20;

// "0.5,1,2.25" -> doubles; nullopt on any bad item.
std::optional<std::vector<double>> parse_times(const std::string& text) {
  std::vector<double> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    double v = 0.0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size() || !std::isfinite(v)) {
      return std::nullopt;
    }
    out.push_back(v);
    start = comma + 1;
  }
  return out;
}

}  // namespace

int run_sample(const std::vector<std::string>& args) {
  static constexpr CommandHelp kHelp{
      "sample",
      "gltf-anim sample ASSET [--times T1,T2,... | --rate HZ] [--max-times N] [--animation N]\n"
      "                       [--format json|csv] [--output FILE] [--no-extensions]\n"
      "                       [--no-keyframes]\n"
      "                       [--time-mode play-once|interactivity-loop]\n"
      "                       [--threads N] [--max-values N] [--max-file-mb N]\n"
      "                       [--asset-name NAME]\n"
      "       gltf-anim sample ASSET --keys [--animation N] [--output FILE] [--no-extensions]\n"
      "                       [--max-values N] [--max-file-mb N] [--asset-name NAME]",
      "Samples every animation channel of ASSET (.gltf or .glb) with the reference evaluator\n"
      "and writes the samples file that `gltf-anim compare` reads. ASSET '-' reads it from\n"
      "standard input (GLB or glTF JSON, told apart by the GLB magic), up to --max-file-mb;\n"
      "it has no folder, so a buffer with a relative uri is refused (exit 2): data: URIs\n"
      "and GLB work. The samples file's \"asset\" is the file name ('-' for standard input)\n"
      "unless --asset-name gives it (compare matches actual files to golden ones by it).\n"
      "Default times, per animation (the union over its channels, every channel sampled at\n"
      "all of them): every key, the quarter points and midpoint of each channel's segments\n"
      "and of the segments between consecutive keys of the animation, 0.5 s before the\n"
      "earliest key, 0.5 s after the latest, and 0 when the earliest key is later.\n"
      "--rate HZ samples t = k / HZ (k = 0, 1, ...) up to the latest key of the animation.\n"
      "--max-times N: an animation whose default or --rate times are more than N is\n"
      "sampled instead at N times evenly spaced from its start (0, or its earliest key when\n"
      "earlier) to its latest key, both included: at most N per channel however long the\n"
      "clip and however many keys it has (what a plot N pixels wide can show).\n"
      "--no-keyframes leaves each channel's `keyframes` out of the JSON file (`--keys` has\n"
      "them), so its size follows the times sampled, not the asset's keys.\n"
      "`target` is the JSON pointer of the animated property; `sampler` the sampler\n"
      "evaluated (EXT_animation_sqlerp: the CUBICSLERP one), JSON `keyframes` the times of\n"
      "its input accessor. --no-extensions gives the view of a core-only client:\n"
      "KHR_animation_pointer and KHR_animation2 channels absent, sqlerp channels on their\n"
      "fallback sampler (absent without one).\n"
      "--time-mode play-once (default) samples each time as it is, clamped before the first\n"
      "and after the last key (glTF 2.0 3.11); interactivity-loop maps a time r into the\n"
      "animation as KHR_interactivity's looping playback does (T its latest key: t = r - sT,\n"
      "s = ceil((r - T)/T) for r > 0, floor(r/T) for r <= 0; r = T gives the last key),\n"
      "and writes the samples at the requested times.\n"
      "Exit codes: 0 written; 1 the asset is glTF but a channel cannot be evaluated (all\n"
      "such channels are listed, nothing is written); 2 usage, unreadable file, not glTF.\n"
      "Every channel is checked first, then sampled and written channel by channel:\n"
      "memory holds the asset and a few channels, not the output. --threads N samples and\n"
      "formats channels on N threads (output identical for any N). --max-values counts the\n"
      "decoded keys plus samples of the whole run (as if all were held at once): a bound\n"
      "on memory and on the work and output a small file can ask for.\n"
      "--keys writes, instead of samples, every channel's keys as stored (JSON): the times\n"
      "and, per key, the value (CUBICSPLINE and CUBICSLERP: \"in\" tangent, \"value\", \"out\"\n"
      "tangent), decoded as the evaluator reads them (normalized integers by the spec's\n"
      "formula), in the same channels, component order and measure as the samples. A channel\n"
      "the evaluator refuses is listed too, with its \"problem\" (and its keys when they\n"
      "could be decoded, e.g. times that do not increase); the file is written and the exit\n"
      "code is 1 when any channel has one. --times, --rate, --time-mode and --format csv do\n"
      "not apply to keys.",
      "gltf-anim sample conformance_assets/valid/rotation_linear.gltf --rate 30 --format csv"};
  po::options_description options("Options");
  options.add_options()("asset", po::value<std::string>()->required(),
                        "the .gltf or .glb file ('-': standard input)")(
      "times", po::value<std::string>(), "comma-separated times in seconds")(
      "rate", po::value<std::string>(),
      "samples per second (above 0, up to 10^9), from t = 0 to the latest key")(
      "max-times", po::value<std::string>(),
      "at most N default or --rate times per animation (1 to 1048576), else N evenly spaced")(
      "no-keyframes", "JSON: leave out each channel's keyframes (the keys' times)")(
      "animation", po::value<std::string>(), "only this animation (index)")(
      "format", po::value<std::string>()->default_value("json"), "json or csv")(
      "output,o", po::value<std::string>(), "write here instead of standard output")(
      "no-extensions", "sample as a client without animation extensions")(
      "time-mode", po::value<std::string>()->default_value("play-once"),
      "play-once (clamped) or interactivity-loop (KHR_interactivity's time wrap)")(
      "threads",
      po::value<std::string>()->default_value(
          std::to_string(std::clamp(io::hardware_threads(), 1u, kMaxThreads))),
      "threads sampling and formatting channels, 1 to 256 (default: the number of cores; 1: no "
      "worker threads)")(
      "max-values", po::value<std::string>()->default_value(std::to_string(std::uint64_t{1} << 26)),
      "refuse (exit 2) when decoded keys plus samples exceed N; 0: no limit")(
      "max-file-mb", po::value<std::string>()->default_value("1024"),
      "refuse an asset (or standard input, or an external buffer) over N MiB (1 to 1048576)")(
      "asset-name", po::value<std::string>(),
      "the samples file's \"asset\" (default: the file name; '-' for standard input)")(
      "keys", "write every channel's keys as stored (JSON) instead of samples");
  po::positional_options_description positional;
  positional.add("asset", 1);
  int exit_code = kExitOk;
  const auto vm = parse_command_line(kHelp, options, positional, args, exit_code);
  if (!vm) return exit_code;

  sampler::SampleRequest request;
  if (vm->count("times") && vm->count("rate")) {
    std::cerr << "gltf-anim sample: --times and --rate are mutually exclusive\n";
    return kExitUsage;
  }
  if (vm->count("times")) {
    request.times = parse_times((*vm)["times"].as<std::string>());
    if (!request.times) {
      std::cerr << "gltf-anim sample: --times needs finite numbers separated by commas\n";
      return kExitUsage;
    }
  }
  std::optional<std::uint64_t> animation, threads_option, max_values, max_file_mb;
  if (!number_option(*vm, kHelp, "rate", 0.0, kMaxRate, /*min_exclusive=*/true, request.rate) ||
      !integer_option(*vm, kHelp, "max-times", 1, sampler::kMaxCountTimes, request.max_times) ||
      !integer_option(*vm, kHelp, "animation", 0, kMaxAnimationIndex, animation) ||
      !integer_option(*vm, kHelp, "threads", 1, kMaxThreads, threads_option) ||
      !integer_option(*vm, kHelp, "max-values", 0, kMaxValuesOption, max_values) ||
      !integer_option(*vm, kHelp, "max-file-mb", 1, kMaxFileMbOption, max_file_mb)) {
    return kExitUsage;
  }
  if (animation) request.animation = static_cast<std::size_t>(*animation);
  request.extensions = vm->count("no-extensions") == 0;
  request.keyframes = vm->count("no-keyframes") == 0;
  request.max_values_held = *max_values;
  request.max_file_bytes = *max_file_mb << 20;
  if (vm->count("asset-name")) request.asset_name = (*vm)["asset-name"].as<std::string>();
  const std::string time_mode = (*vm)["time-mode"].as<std::string>();
  if (time_mode == "interactivity-loop") {
    request.time_mode = sampler::TimeMode::kInteractivityLoop;
  } else if (time_mode != "play-once") {
    std::cerr << "gltf-anim sample: unknown --time-mode '" << time_mode
              << "' (play-once or interactivity-loop)\n";
    return kExitUsage;
  }
  const std::string format = (*vm)["format"].as<std::string>();
  if (format != "json" && format != "csv") {
    std::cerr << "gltf-anim sample: unknown --format '" << format << "' (json or csv)\n";
    return kExitUsage;
  }

  const bool keys = vm->count("keys") != 0;
  if (request.times && request.max_times) {
    std::cerr << "gltf-anim sample: --max-times bounds the default and --rate times, not --times\n";
    return kExitUsage;
  }
  if (keys && (request.times || request.rate || request.max_times || !request.keyframes ||
               !(*vm)["time-mode"].defaulted() || format != "json")) {
    std::cerr << "gltf-anim sample: --keys writes the keys as stored (JSON): --times, --rate, "
                 "--max-times, --no-keyframes, --time-mode and --format csv do not apply\n";
    return kExitUsage;
  }

  const auto threads = static_cast<unsigned>(*threads_option);

  // The output may not replace the asset or one of its buffers: refused after
  // loading (the loader records every file it read), before anything is written.
  CommandOutput output(kHelp, vm->count("output") ? std::optional((*vm)["output"].as<std::string>())
                                                  : std::nullopt);
  request.inputs = &output.inputs();
  const std::string asset = (*vm)["asset"].as<std::string>();
  // Every channel is checked before the output is opened: on exit 1 nothing is written.
  std::optional<sampler::SampleStream> stream;
  std::optional<sampler::KeysStream> keys_stream;
  // The asset as the request reads it: keys or samples.
  const auto open_stream = [&](const auto& source) {
    if (keys) {
      keys_stream.emplace(source, request);
    } else {
      stream.emplace(source, request);
    }
  };
  try {
    if (asset == validator::kStandardInputPath) {
      // What stdin is open on is an input too (`-o a.json < a.json` is refused).
      if (const auto id = io::standard_input_identity())
        output.inputs().record(*id, "standard input");
      io::StdinBytes bytes;  // released once loaded: the asset holds its own copy
      if (!bytes.read_all(request.max_file_bytes)) {
        std::cerr << "gltf-anim sample: cannot read standard input: " << std::strerror(errno)
                  << "\n";
        return kExitUsage;
      }
      if (bytes.too_large()) {
        std::cerr << "gltf-anim sample: standard input is larger than --max-file-mb (more than "
                  << request.max_file_bytes << " bytes)\n";
        return kExitUsage;
      }
      if (bytes.bytes().empty()) {
        std::cerr << "gltf-anim sample: standard input is empty (no asset)\n";
        return kExitUsage;
      }
      open_stream(sampler::AssetBytes{bytes.bytes(), std::string(validator::kStandardInputPath),
                                      "standard input"});
    } else {
      open_stream(std::filesystem::path(asset));
    }
  } catch (const sampler::SampleError& e) {
    std::cerr << "gltf-anim sample: " << e.what() << "\n";
    return e.exit_code();
  }
  if (output.refused()) return kExitUsage;
  // Streamed straight to the destination, channel by channel (docs/PERFORMANCE.md "sample").
  const auto write = [&](std::ostream& out) {
    try {
      if (keys_stream) {
        keys_stream->write(out);
      } else {
        stream->write(
            format == "csv" ? samples::SamplesFormat::kCsv : samples::SamplesFormat::kJson, out,
            threads);
      }
    } catch (const std::exception& e) {  // an internal error after output began: report, drop the output
      std::cerr << "gltf-anim sample: " << failure_reason(e) << "\n";
      output.discard();
    }
  };
  if (!output.open()) return kExitUsage;
  write(output.stream());
  // Keys: written whole, and exit 1 when `sample` would refuse some channel (each says why).
  return output.finish(keys_stream && keys_stream->problems() != 0 ? kExitFindings : kExitOk);
}

}  // namespace gltf_anim::cli

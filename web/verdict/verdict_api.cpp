// The page's verdict module (gltf-anim-verdict.mjs + .wasm): a typed entry point over the
// library calls `gltf-anim validate`, `sample --keys`, `sample` and `codes --format json` make,
// without the command line (no Boost.Program_options, no argv CLI), so the page's first fetch is
// small. Each asset of the dropped files (the instance's in-memory file system) is loaded ONCE:
// the validation keeps the loaded asset, and its keys and plot samples are read from it (the
// argv flow loaded it again for each command). The answers are the CLI's: the report and the
// keys byte for byte what `gltf-anim validate --no-config --no-timings ... --format F` and
// `gltf-anim sample --keys` write (web/tests/verdict.test.mjs), the samples those of `sample
// --max-times N --no-keyframes`, handed over as one Float64Array of times and one of values per
// channel (views of this module's memory, read by web/package/index.js) and a small JSON header,
// not as a JSON text the worker would parse.
//
// Calling convention (web/package/index.js, verdictSession): strings in are UTF-8, NUL ended,
// lists one item a line; each call returns its exit code (the CLI's: 0, 1 findings, 2 refused)
// and leaves what the CLI would print on stderr in gav_error; the report and the keys go to a
// file of the instance's file system, as the CLI's --output, the samples' header and the codes
// to gav_text.
#include <gltf_anim/gltf/issue_collector.hpp>
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/gltf/load.hpp>
#include <gltf_anim/io/output_file.hpp>
#include <gltf_anim/reports/formats.hpp>
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/sampler/sample.hpp>
#include <gltf_anim/samples/samples.hpp>
#include <gltf_anim/validator/batch.hpp>
#include <gltf_anim/validator/run_config.hpp>
#include <gltf_anim/validator/run_options.hpp>
#include <gltf_anim/validator/validate.hpp>

#include <emscripten/emscripten.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace gltf_anim;

constexpr int kExitOk = 0;
constexpr int kExitFindings = 1;
constexpr int kExitUsage = 2;

// An asset as the validation loaded it, kept for its keys and samples.
struct Held {
  gltf::LoadedAsset asset;
  std::string load_error;  // the load's first error ("CODE: message"), what `sample` says
};
// Kept while their files' bytes sum to at most this: a plot of an asset past it (many large
// assets dropped at once) loads it again rather than holding every asset in the page's memory.
constexpr std::uint64_t kKeepBytes = std::uint64_t{768} << 20;
std::map<std::string, std::unique_ptr<Held>> held;
std::uint64_t held_bytes = 0;
std::uint32_t loads = 0;  // assets loaded (parsed) by this instance: the page test counts them

std::string text_out;
std::string error_out;
// The last gav_samples' channels' samples, taken out of the file its header was written from.
struct ChannelSamples {
  std::vector<double> times, values;
  std::size_t width = 0;
};
std::vector<ChannelSamples> sample_channels;

void forget(const std::string& path) {
  if (auto it = held.find(path); it != held.end()) {
    held_bytes -= std::min<std::uint64_t>(held_bytes, it->second->asset.file_bytes.size());
    held.erase(it);
  }
}

std::vector<std::string> lines(const char* list) {
  std::vector<std::string> out;
  std::string_view rest(list == nullptr ? "" : list);
  while (!rest.empty()) {
    const std::size_t end = std::min(rest.find('\n'), rest.size());
    if (end != 0) out.emplace_back(rest.substr(0, end));
    rest.remove_prefix(std::min(end + 1, rest.size()));
  }
  return out;
}

// What a command of the CLI says when it fails inside (the CLI's failure_reason).
std::string reason(const std::exception& e) {
  return dynamic_cast<const std::bad_alloc*>(&e) != nullptr ? "out of memory" : e.what();
}

// The asset at `path`: the validation's load, else loaded here as `sample` loads it.
const Held& asset_of(const std::string& path) {
  if (auto it = held.find(path); it != held.end()) return *it->second;
  gltf::IssueCollector issues;
  auto loaded = std::make_unique<Held>();
  gltf::LoadOptions options;
  options.max_file_bytes = sampler::SampleRequest{}.max_file_bytes;
  loaded->asset = gltf::load_file(path, options, issues);
  ++loads;
  for (const auto& issue : issues.issues()) {
    if (issue.severity == gltf::Severity::kError) {
      loaded->load_error = std::string(issue.code) + ": " + issue.message;
      break;
    }
  }
  held_bytes += loaded->asset.file_bytes.size();
  return *held.emplace(path, std::move(loaded)).first->second;
}

// SampleError as `sample` refuses an asset that is not glTF: the load's first error.
void check_glTF(const Held& h, const std::string& path) {
  if (h.asset.document && h.asset.document->IsObject()) return;
  std::string why =
      h.asset.document ? "the JSON root is not an object" : "not a glTF asset (JSON or GLB)";
  if (!h.load_error.empty()) why = h.load_error;
  throw sampler::SampleError(2, path + ": " + why);
}

sampler::SampleRequest request_for(const std::string& path, double max_values) {
  sampler::SampleRequest request;
  request.asset_name = fs::path(path).filename().string();  // `sample`'s default "asset"
  request.max_values_held = static_cast<std::uint64_t>(max_values);
  return request;
}

bool whole_number(double v, double max) {
  return std::isfinite(v) && v >= 0 && v <= max && v == std::floor(v);
}

// Channel i, or an empty one past the last (nothing may throw out of the entry points).
const ChannelSamples& channel(std::uint32_t i) {
  static const ChannelSamples kNone;
  return i < sample_channels.size() ? sample_channels[i] : kNone;
}

// A `sample` command's body, its refusals in the CLI's words and exit codes: a SampleError
// as the sampler says it, anything else a usage error (one place for both entry points).
template <class Body>
int as_sample_command(Body&& body) {
  try {
    return body();
  } catch (const sampler::SampleError& e) {
    error_out = std::string("gltf-anim sample: ") + e.what() + "\n";
    return e.exit_code();
  } catch (const std::exception& e) {
    error_out = "gltf-anim sample: " + reason(e) + "\n";
    return kExitUsage;
  }
}

}  // namespace

extern "C" {

// `gltf-anim validate --no-config --no-timings --max-issues N --max-issue-mb M [--enable C]...
// --format FORMAT --output OUTPUT -- PATHS...`: the report in the file OUTPUT (the instance's
// file system, which grows outside this module's memory: a million issues' report is 600 MB),
// written to a temporary renamed into place. Each asset loaded is kept (kKeepBytes).
EMSCRIPTEN_KEEPALIVE int gav_validate(const char* paths, double max_issues, double max_issue_mb,
                                      const char* enable, const char* format, const char* output) {
  text_out.clear();
  error_out.clear();
  const std::vector<std::string> files = lines(paths);
  if (files.empty()) {
    error_out = "gltf-anim validate: no PATH given\n";
    return kExitUsage;
  }
  if (!whole_number(max_issues, static_cast<double>(validator::kMaxRunIssues)) ||
      !whole_number(max_issue_mb, static_cast<double>(validator::kMaxRunMebibytes))) {
    error_out = "gltf-anim validate: --max-issues or --max-issue-mb out of range\n";
    return kExitUsage;
  }
  validator::RunArguments given;
  given.format = format;
  given.max_issues = static_cast<std::uint64_t>(max_issues);
  given.max_issue_mb = static_cast<std::uint64_t>(max_issue_mb);
  given.enable = lines(enable);
  std::string why;
  auto run = validator::resolve_run_options(validator::RunConfig{}, given, why);
  const auto chosen = run ? reports::validation_format_from_name(run->format) : std::nullopt;
  if (!run || !chosen) {
    error_out =
        "gltf-anim validate: " + (run ? "unknown --format '" + std::string(format) + "'" : why) +
        "\n";
    return kExitUsage;
  }
  reports::ValidationWriteOptions wopt;
  wopt.fail_on = run->fail_on;
  wopt.issue_policy = run->validate.issues;
  std::error_code ec;
  wopt.sarif_base = fs::absolute(".", ec).lexically_normal();  // --sarif-base's default
  try {
    io::OutputFile file{fs::path(output)};
    wopt.spool_folder = fs::path(output).parent_path();
    const auto writer = reports::make_validation_writer(file.stream(), *chosen, wopt);
    reports::ValidationTotals totals;
    validator::validate_in_order(
        files, 1,
        [&](std::size_t i) {
          gltf::IssueCollector issues(run->validate.issues);
          auto h = std::make_unique<Held>();
          h->asset = gltf::load_file(files[i], run->validate.load, issues);
          ++loads;
          for (const auto& issue : issues.issues()) {
            if (issue.severity == gltf::Severity::kError) {
              h->load_error = std::string(issue.code) + ": " + issue.message;
              break;
            }
          }
          validator::ValidationReport report = validator::validate_asset(h->asset, issues);
          forget(files[i]);
          const std::uint64_t bytes = h->asset.file_bytes.size();
          if (held_bytes + bytes <= kKeepBytes) {
            held_bytes += bytes;
            held.emplace(files[i], std::move(h));
          }
          return report;
        },
        [&](std::size_t, validator::ValidatedAsset&& done) {
          totals.add(done.report, run->fail_on, {});
          writer->asset(done.report, {});
        });
    writer->end();
    file.commit();
    return totals.failing != 0 ? kExitFindings : kExitOk;
  } catch (const std::exception& e) {
    error_out = "gltf-anim validate: " + reason(e) + "\n";
    return kExitUsage;
  }
}

// `gltf-anim sample --keys --max-values N --output OUTPUT PATH`: the keys file in OUTPUT
// (written, exit 1, when a channel has a problem).
EMSCRIPTEN_KEEPALIVE int gav_keys(const char* path_text, double max_values, const char* output) {
  text_out.clear();
  error_out.clear();
  const std::string path(path_text);
  return as_sample_command([&] {
    const Held& h = asset_of(path);
    check_glTF(h, path);
    const sampler::KeysStream keys(h.asset, path, request_for(path, max_values));
    io::OutputFile file{fs::path(output)};
    keys.write(file.stream());
    file.commit();
    return keys.problems() != 0 ? kExitFindings : kExitOk;
  });
}

// `gltf-anim sample --rate R --max-times N --no-keyframes --max-values V [--animation A] PATH`
// (animation < 0: every animation): gav_text is the samples file with every channel's
// "samples" empty, its samples in gav_sample_times/values; `whole` also writes them into the
// text, as the CLI does (the byte-identity test).
EMSCRIPTEN_KEEPALIVE int gav_samples(const char* path_text, double rate, double max_times,
                                     double max_values, double animation, int whole) {
  text_out.clear();
  error_out.clear();
  sample_channels.clear();
  const std::string path(path_text);
  if (!(std::isfinite(rate) && rate > 0 && rate <= 1e9) ||
      !whole_number(max_times, static_cast<double>(sampler::kMaxCountTimes)) || max_times < 1 ||
      !whole_number(max_values, 0x1p62) ||
      !(animation < 0 || whole_number(animation, 0xFFFFFFFFu))) {
    error_out = "gltf-anim sample: --rate, --max-times, --max-values or --animation out of range\n";
    return kExitUsage;
  }
  return as_sample_command([&] {
    const Held& h = asset_of(path);
    check_glTF(h, path);
    sampler::SampleRequest request = request_for(path, max_values);
    request.rate = rate;
    request.max_times = static_cast<std::uint64_t>(max_times);
    request.keyframes = false;
    if (animation >= 0) request.animation = static_cast<std::size_t>(animation);
    samples::SamplesFile file = sampler::sample_asset(h.asset, path, request);
    if (whole != 0) text_out = samples::write_samples_json(file);
    // The header: the same file without its samples, which stay here for the caller to copy.
    for (auto& a : file.animations) {
      for (auto& c : a.channels) {
        sample_channels.push_back({std::move(c.times), std::move(c.values), c.width});
        c.times = {};
        c.values = {};
      }
    }
    if (whole == 0) text_out = samples::write_samples_json(file);
    return kExitOk;
  });
}

// The last gav_samples' channels, in the header's order: sample i's time times[i], its
// components values[i * width .. (i + 1) * width).
EMSCRIPTEN_KEEPALIVE std::uint32_t gav_sample_channels() {
  return static_cast<std::uint32_t>(sample_channels.size());
}
EMSCRIPTEN_KEEPALIVE std::uint32_t gav_sample_count(std::uint32_t i) {
  return static_cast<std::uint32_t>(channel(i).times.size());
}
EMSCRIPTEN_KEEPALIVE std::uint32_t gav_sample_width(std::uint32_t i) {
  return static_cast<std::uint32_t>(channel(i).width);
}
EMSCRIPTEN_KEEPALIVE const double* gav_sample_times(std::uint32_t i) {
  return channel(i).times.data();
}
EMSCRIPTEN_KEEPALIVE const double* gav_sample_values(std::uint32_t i) {
  return channel(i).values.data();
}

// `gltf-anim codes --format json`.
EMSCRIPTEN_KEEPALIVE int gav_codes() {
  error_out.clear();
  text_out = validator::issue_codes_json();
  return kExitOk;
}

EMSCRIPTEN_KEEPALIVE const char* gav_text() { return text_out.data(); }
EMSCRIPTEN_KEEPALIVE std::uint32_t gav_text_size() {
  return static_cast<std::uint32_t>(text_out.size());
}
EMSCRIPTEN_KEEPALIVE const char* gav_error() { return error_out.data(); }
EMSCRIPTEN_KEEPALIVE std::uint32_t gav_error_size() {
  return static_cast<std::uint32_t>(error_out.size());
}
// Assets loaded (parsed) by this instance so far.
EMSCRIPTEN_KEEPALIVE std::uint32_t gav_loads() { return loads; }
// Drops the kept assets and the last answers (their memory is reused; the instance's never
// shrinks).
EMSCRIPTEN_KEEPALIVE void gav_forget() {
  held.clear();
  held_bytes = 0;
  sample_channels = {};
  text_out = std::string();
  error_out = std::string();
}

}  // extern "C"

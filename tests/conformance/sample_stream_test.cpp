// gltf-anim sample streamed (sampler::SampleStream): the same bytes as the
// model writers for any --threads, the error contract with threads, keyframes,
// and memory bounded by a window of channels rather than by the output.
#include <gltf_anim/sampler/sample.hpp>
#include <gltf_anim/samples/samples.hpp>

#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../sanitizers.hpp"
#include "conformance_test_util.hpp"

extern char** environ;

namespace gltf_anim::suite::test {
namespace {

namespace fs = std::filesystem;

// A channel of a generated asset: `keys` float32 key times starting at `start`,
// `step` apart, and float32 outputs of `width` components per value (x3 for
// CUBICSPLINE). Rotations get unit quaternions.
struct ChannelSpec {
  std::string target;  // "translation", "rotation", "scale", "weights"
  int node = 0;
  std::size_t width = 3;
  std::string interpolation = "LINEAR";
  std::size_t keys = 5;
  float start = 0.0f;
  float step = 0.1f;
  int input = -1;  // >= 0: share the input accessor of that earlier channel of the animation
};
struct AnimationSpec {
  std::string name;
  std::vector<ChannelSpec> channels;
  bool share_sampler = false;  // every channel uses sampler 0 (the N x K blow-up shape)
};

// Writes NAME.gltf + NAME.bin into `dir`; returns the .gltf path.
fs::path write_asset(const fs::path& dir, const std::string& name, const std::vector<AnimationSpec>& animations) {
  std::string bin;
  std::string views, accessors, anims;
  int accessor_count = 0;
  int max_node = 0;
  const auto add_accessor = [&](const std::vector<float>& data, std::size_t width) {
    const std::size_t offset = bin.size();
    bin.append(reinterpret_cast<const char*>(data.data()), data.size() * sizeof(float));
    if (!views.empty()) views += ',';
    views += R"({"buffer":0,"byteOffset":)" + std::to_string(offset) + R"(,"byteLength":)" +
             std::to_string(data.size() * sizeof(float)) + "}";
    static const char* kTypes[] = {"", "SCALAR", "VEC2", "VEC3", "VEC4"};
    if (accessor_count) accessors += ',';
    accessors += R"({"bufferView":)" + std::to_string(accessor_count) + R"(,"componentType":5126,"count":)" +
                 std::to_string(data.size() / width) + R"(,"type":")" + (width <= 4 ? kTypes[width] : "SCALAR") +
                 "\"}";
    return accessor_count++;
  };
  for (std::size_t a = 0; a < animations.size(); ++a) {
    const AnimationSpec& anim = animations[a];
    std::string channels, samplers;
    std::vector<int> inputs;
    for (std::size_t c = 0; c < anim.channels.size(); ++c) {
      const ChannelSpec& ch = anim.channels[c];
      max_node = std::max(max_node, ch.node);
      const bool make_sampler = !anim.share_sampler || c == 0;
      if (make_sampler) {
        int input = 0;
        if (ch.input >= 0) {
          input = inputs.at(static_cast<std::size_t>(ch.input));
        } else {
          std::vector<float> times;
          for (std::size_t k = 0; k < ch.keys; ++k) times.push_back(ch.start + ch.step * static_cast<float>(k));
          input = add_accessor(times, 1);
        }
        inputs.push_back(input);
        const std::size_t per_key = ch.interpolation == "CUBICSPLINE" ? 3 : 1;
        std::vector<float> values;
        for (std::size_t k = 0; k < ch.keys * per_key; ++k) {
          if (ch.target == "rotation") {
            const float angle = 0.3f * static_cast<float>(k) + 0.1f * static_cast<float>(c);
            values.insert(values.end(), {0.0f, 0.0f, std::sin(angle), std::cos(angle)});
          } else {
            for (std::size_t i = 0; i < ch.width; ++i) {
              values.push_back(static_cast<float>(k) * 0.37f + static_cast<float>(i) - 0.01f * static_cast<float>(c));
            }
          }
        }
        // Weights: SCALAR outputs, width = count / keys.
        const int output = add_accessor(values, ch.target == "weights" ? 1 : ch.width);
        if (!samplers.empty()) samplers += ',';
        samplers += R"({"input":)" + std::to_string(input) + R"(,"output":)" + std::to_string(output) +
                    R"(,"interpolation":")" + ch.interpolation + "\"}";
      }
      if (!channels.empty()) channels += ',';
      channels += R"({"sampler":)" + std::to_string(anim.share_sampler ? 0 : static_cast<int>(c)) +
                  R"(,"target":{"node":)" + std::to_string(ch.node) + R"(,"path":")" + ch.target + "\"}}";
    }
    if (!anims.empty()) anims += ',';
    anims += R"({"name":")" + anim.name + R"(","channels":[)" + channels + R"(],"samplers":[)" + samplers + "]}";
  }
  std::string nodes;
  for (int n = 0; n <= max_node; ++n) nodes += n ? ",{}" : "{}";
  std::ofstream(dir / (name + ".bin"), std::ios::binary) << bin;
  const fs::path gltf = dir / (name + ".gltf");
  std::ofstream(gltf) << R"({"asset":{"version":"2.0"},"nodes":[)" << nodes << R"(],"buffers":[{"byteLength":)"
                      << bin.size() << R"(,"uri":")" << name << R"(.bin"}],"bufferViews":[)" << views
                      << R"(],"accessors":[)" << accessors << R"(],"animations":[)" << anims << "]}";
  return gltf;
}

// Two animations, 23 channels of widths 1 to 4 (so the CSV has empty trailing
// columns), LINEAR, STEP and CUBICSPLINE, shared and separate inputs, keys not
// aligned between channels (a large default time set).
std::vector<AnimationSpec> mixed_animations() {
  AnimationSpec first{R"(walk \"quoted\")", {}, false};  // JSON text: escaped quotes
  const char* targets[] = {"translation", "rotation", "scale", "weights"};
  const char* interpolations[] = {"LINEAR", "STEP", "CUBICSPLINE"};
  for (int c = 0; c < 18; ++c) {
    ChannelSpec ch;
    ch.target = targets[c % 4];
    ch.node = c;
    ch.width = ch.target == "rotation" ? 4 : ch.target == "weights" ? 1 + static_cast<std::size_t>(c % 3) : 3;
    ch.interpolation = ch.target == "rotation" ? "LINEAR" : interpolations[c % 3];
    ch.keys = 4 + static_cast<std::size_t>(c % 5);
    ch.start = 0.01f * static_cast<float>(c);
    ch.step = 0.125f + 0.03f * static_cast<float>(c % 4);
    if (c == 2 || c == 5 || c == 9 || c == 10) ch.input = 1;  // share channel 1's keys (1-2, 9-10: one job)
    if (ch.input >= 0) ch.keys = 5;      // channel 1 has 5 keys
    first.channels.push_back(ch);
  }
  AnimationSpec second{"", {}, false};
  for (int c = 0; c < 5; ++c) {
    ChannelSpec ch;
    ch.target = c == 2 ? "weights" : "scale";
    ch.node = 20 + c;
    ch.width = c == 2 ? 2 : 3;
    ch.keys = 3 + static_cast<std::size_t>(c);
    ch.start = 0.5f;
    ch.step = 0.25f;
    second.channels.push_back(ch);
  }
  return {first, second};
}

std::string streamed(const fs::path& asset, samples::SamplesFormat format, unsigned threads,
                     const sampler::SampleRequest& request = {}) {
  std::ostringstream out;
  sampler::SampleStream(asset, request).write(format, out, threads);
  return out.str();
}

TEST(SampleStream, SameBytesAsTheModelWriterForAnyThreadCount) {
  const fs::path dir = scratch("stream_bytes");
  const fs::path asset = write_asset(dir, "mixed", mixed_animations());
  for (const bool rate : {false, true}) {
    sampler::SampleRequest request;
    if (rate) request.rate = 7.0;
    SCOPED_TRACE(rate ? "rate" : "default times");
    const samples::SamplesFile model = sampler::sample_asset(asset, request);
    ASSERT_EQ(model.animations.size(), 2u);
    ASSERT_EQ(model.animations[0].channels.size(), 18u);
    const std::string json = samples::write_samples_json(model);
    const std::string csv = samples::write_samples_csv(model);
    for (unsigned threads : {1u, 2u, 3u, 4u, 7u, 16u}) {
      SCOPED_TRACE(threads);
      EXPECT_EQ(streamed(asset, samples::SamplesFormat::kJson, threads, request), json);
      EXPECT_EQ(streamed(asset, samples::SamplesFormat::kCsv, threads, request), csv);
    }
  }
}

TEST(SampleStream, CliOutputIsTheSameForThreads1247) {
  const fs::path dir = scratch("stream_cli_threads");
  const fs::path asset = write_asset(dir, "mixed", mixed_animations());
  const samples::SamplesFile model = sampler::sample_asset(asset);
  const std::string expected[] = {samples::write_samples_json(model), samples::write_samples_csv(model)};
  const char* formats[] = {"json", "csv"};
  for (int f = 0; f < 2; ++f) {
    for (const char* threads : {"1", "2", "4", "7"}) {
      SCOPED_TRACE(std::string(formats[f]) + " --threads " + threads);
      const fs::path out = dir / (std::string("out_") + formats[f] + threads);
      std::string args = "sample '" + asset.string() + "' --format ";
      args += formats[f];
      args += " --threads ";
      args += threads;
      ASSERT_EQ(run_cli(args, out), 0) << read_file(out.string() + ".err");
      EXPECT_EQ(read_file(out), expected[f]);
    }
  }
}

TEST(SampleStream, ThreadsOutsideOneTo256AreAUsageError) {
  const fs::path dir = scratch("stream_threads_zero");
  for (const char* n : {"0", "257", "100000"}) {
    std::string args = "sample '" + valid_asset("translation_linear.gltf").string() + "' --threads " + n;
    EXPECT_EQ(run_cli(args, dir / "out"), 2) << n;
    EXPECT_NE(read_file(dir / "out.err").find("--threads must be an integer from 1 to 256"), std::string::npos) << n;
    EXPECT_TRUE(read_file(dir / "out").empty()) << n;
  }
  std::string args = "sample '" + valid_asset("translation_linear.gltf").string() + "' --threads 256";
  EXPECT_EQ(run_cli(args, dir / "out"), 0);
}

TEST(SampleStream, BadChannelsAreAllListedAndNothingIsWrittenWithThreads) {
  const fs::path dir = scratch("stream_errors");
  write_asset(dir, "mixed", mixed_animations());
  // Two bad channels in different animations, among good ones: a missing sampler
  // and an output accessor that does not exist.
  std::string text = read_file(dir / "mixed.gltf");
  const auto replace_first = [&](const std::string& from, const std::string& to, std::size_t after) {
    const std::size_t at = text.find(from, after);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  };
  replace_first(R"({"sampler":3,)", R"({"sampler":99,)", 0);
  // Animation 1's first sampler: its output accessor index becomes 9999.
  const std::size_t output = text.find(R"("output":)", text.find(R"("name":"")"));
  ASSERT_NE(output, std::string::npos);
  const std::size_t digits = output + std::strlen(R"("output":)");
  text.replace(digits, text.find(',', digits) - digits, "9999");
  std::ofstream(dir / "bad.gltf") << text;
  fs::copy_file(dir / "mixed.bin", dir / "bad.bin");
  for (const char* threads : {"1", "4"}) {
    SCOPED_TRACE(threads);
    const fs::path file = dir / (std::string("never_") + threads + ".csv");
    const fs::path out = dir / (std::string("stdout_") + threads);
    std::string args = "sample '" + (dir / "bad.gltf").string() + "' --format csv --threads ";
    args += threads;
    args += " --output '" + file.string() + "'";
    EXPECT_EQ(run_cli(args, out), 1);
    const std::string err = read_file(out.string() + ".err");
    EXPECT_NE(err.find("/animations/0/channels/3: sampler 99 does not exist"), std::string::npos) << err;
    EXPECT_NE(err.find("/animations/1/channels/0: accessor 9999 cannot be read"), std::string::npos) << err;
    EXPECT_FALSE(fs::exists(file));
    EXPECT_TRUE(read_file(out).empty());
  }
}

TEST(SampleStream, KeyframesAreTheEvaluatedSamplersInputTimes) {
  // Expected values from the generator's case definitions (suite/src/cases.cpp).
  // sqlerp_with_fallback: the CUBICSLERP sampler (extension sampler 0) and the LINEAR
  // fallback (channel.sampler 1) both have keys {0, 1, 2.5} (float32, exact).
  const auto golden = samples::read_samples_file(valid_asset("sqlerp_with_fallback.samples.json"));
  const auto& sq = channel(golden, "/nodes/0/rotation");
  EXPECT_EQ(sq.sampler, std::optional<std::size_t>(0));
  EXPECT_EQ(sq.keyframes, (std::vector<double>{0.0, 1.0, 2.5}));
  // edge_late_start: keys 1/24, 0.5, 1.25 as float32 (1/24 is not exact in float32).
  const auto late = samples::read_samples_file(valid_asset("edge_late_start.samples.json"));
  EXPECT_EQ(channel(late, "/nodes/0/translation").keyframes,
            (std::vector<double>{static_cast<double>(1.0f / 24), 0.5, 1.25}));
  // The core-only view evaluates the fallback: sampler 1, same keys.
  sampler::SampleRequest core;
  core.extensions = false;
  const auto fallback = sampler::sample_asset(valid_asset("sqlerp_with_fallback.gltf"), core);
  const auto& fb = channel(fallback, "/nodes/0/rotation");
  EXPECT_EQ(fb.sampler, std::optional<std::size_t>(1));
  EXPECT_EQ(fb.keyframes, (std::vector<double>{0.0, 1.0, 2.5}));
}

// Runs the CLI with stdout into a pipe; returns the bytes written and the
// child's peak RSS in KiB (wait4's rusage is this child's alone).
struct ChildUsage {
  int exit_code = -1;
  std::uint64_t bytes = 0;
  long max_rss_kib = 0;
};
ChildUsage run_counting(const std::vector<std::string>& args) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return {};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
  posix_spawn_file_actions_addclose(&actions, pipe_fds[1]);
  std::vector<std::string> argv_text = {GLTF_ANIM_CLI};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  ChildUsage usage;
  std::vector<char> buffer(std::size_t{1} << 16);
  for (;;) {
    const ssize_t n = read(pipe_fds[0], buffer.data(), buffer.size());
    if (n <= 0) break;
    usage.bytes += static_cast<std::uint64_t>(n);
  }
  close(pipe_fds[0]);
  if (spawned != 0) return usage;
  int status = 0;
  rusage ru{};
  if (wait4(pid, &status, 0, &ru) == pid && WIFEXITED(status)) usage.exit_code = WEXITSTATUS(status);
  usage.max_rss_kib = ru.ru_maxrss;
  return usage;
}

TEST(SampleStream, MemoryIsBoundedByAWindowOfChannelsNotByTheOutput) {
  // Channels of 2,000 keys 0.1 s apart (200 s) sampled at 30 Hz: 6,001 samples,
  // ~0.6 MB of CSV per channel. 400 channels write 8x what 50 do (~240 MB against
  // ~30 MB); held as a model that would be ~60 MB of doubles more. Streamed, the
  // peak is the asset plus a window of channels (2 x --threads jobs of up to 8
  // channels), the same for both.
  const fs::path dir = scratch("stream_memory");
  const auto asset_with = [&](int channels) {
    AnimationSpec anim{"big", {}, true};
    for (int c = 0; c < channels; ++c) {
      ChannelSpec ch;
      ch.target = "translation";
      ch.node = c;
      ch.keys = 2000;
      ch.step = 0.1f;
      anim.channels.push_back(ch);
    }
    return write_asset(dir, "big" + std::to_string(channels), {anim});
  };
#if defined(GLTF_ANIM_TEST_ASAN)  // GCC's and clang's ASan alike (tests/sanitizers.hpp)
  // ASan keeps freed blocks in a 256 MB quarantine, which would grow with the
  // output; without it the peak is shadow memory plus what is live. The child
  // inherits this environment.
  const char* given = std::getenv("ASAN_OPTIONS");
  const std::string options = given != nullptr ? std::string(given) + ":" : std::string();
  setenv("ASAN_OPTIONS", (options + "quarantine_size_mb=0").c_str(), 1);
#endif
  const auto run_with = [&](int channels) {
    return run_counting({"sample", asset_with(channels).string(), "--format", "csv", "--rate", "30",
                         "--max-values", "0", "--threads", "2"});
  };
  const ChildUsage few = run_with(50);
  const ChildUsage many = run_with(400);
  EXPECT_EQ(few.exit_code, 0);
  EXPECT_EQ(many.exit_code, 0);
  EXPECT_GT(many.bytes, std::uint64_t{200} << 20);
  EXPECT_GT(many.bytes, 7 * few.bytes);
  // ~210 MB more output, at most 16 MiB more peak (the larger asset itself is 8 MB more).
  EXPECT_LT(many.max_rss_kib, few.max_rss_kib + 16 * 1024)
      << "peak " << many.max_rss_kib << " KiB for " << many.bytes << " bytes, " << few.max_rss_kib << " KiB for "
      << few.bytes;
#if !defined(GLTF_ANIM_TEST_ASAN) && !defined(__SANITIZE_THREAD__)
  // Release build: also an absolute bound (sanitizers add shadow memory).
  EXPECT_LT(many.max_rss_kib, 64 * 1024) << "output " << many.bytes << " bytes";
#endif
}

}  // namespace
}  // namespace gltf_anim::suite::test

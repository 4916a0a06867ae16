#pragma once
// What `validate` and `merge` share for CI reports: the --shard partition, the
// --sarif-base folder, --no-timings, and the summary line on stderr when the
// report goes to --output.
#include <gltf_anim/reports/validation_report.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cli_common.hpp"

namespace gltf_anim::cli {

// "K/N" with 1 <= K <= N <= kMaxShards, decimal digits only; nullopt otherwise.
inline constexpr std::uint64_t kMaxShards = 1'000'000;
std::optional<reports::Shard> parse_shard(std::string_view text);

// The shard (1..count) of a file: FNV-1a 64 of its path relative to the folder
// it was found in (or as given, for a file named on the command line), modulo
// count. It depends on that path's bytes only: not on the listing order, the
// machine, the other files or the folder's own name.
std::uint64_t shard_of(std::string_view relative_path, std::uint64_t count);

// The options below, for a command's options_description.
void add_report_options(po::options_description& options);
// Reads --sarif-base (default: the current folder) into `options`; false with a
// usage error printed when it is not a folder.
bool read_report_options(const po::variables_map& vm, const CommandHelp& help,
                         reports::ValidationWriteOptions& options);

// Ends the report: output.finish() with exit code 1 when an asset failed, else
// 0; then, when the report went to --output, "gltf-anim NAME: FAIL: 3 assets,
// 1 failed; ... (fail-on error); report in FILE" on stderr, so a CI log shows
// the outcome without opening the report.
int finish_report(CommandOutput& output, const CommandHelp& help, const po::variables_map& vm,
                  const reports::ValidationTotals& totals, gltf::Severity fail_on);

}  // namespace gltf_anim::cli

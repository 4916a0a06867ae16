// --shard, --sarif-base and the stderr summary (ci_report.hpp).
#include "ci_report.hpp"

#include <charconv>
#include <filesystem>
#include <iostream>

namespace gltf_anim::cli {

namespace fs = std::filesystem;

std::optional<reports::Shard> parse_shard(std::string_view text) {
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  auto number = [](std::string_view digits) -> std::optional<std::uint64_t> {
    if (digits.empty() || digits.size() > 7) return std::nullopt;  // kMaxShards has 7 digits
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
    return v;
  };
  const auto k = number(text.substr(0, slash));
  const auto n = number(text.substr(slash + 1));
  if (!k || !n || *n == 0 || *n > kMaxShards || *k == 0 || *k > *n) return std::nullopt;
  return reports::Shard{*k, *n, 0, {}};
}

std::uint64_t shard_of(std::string_view relative_path, std::uint64_t count) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : relative_path) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h % count + 1;
}

void add_report_options(po::options_description& options) {
  options.add_options()(
      "sarif-base", po::value<std::string>()->default_value("."),
      "sarif: write asset paths relative to DIR with uriBaseId %SRCROOT% (the repository's\n"
      "root, for code scanning); paths outside DIR stay absolute")(
      "no-timings", po::bool_switch(),
      "leave out validation times (json validationSeconds, junit time): the report is then\n"
      "byte-identical from run to run");
}

bool read_report_options(const po::variables_map& vm, const CommandHelp& help,
                         reports::ValidationWriteOptions& options) {
  const fs::path base = vm["sarif-base"].as<std::string>();
  std::error_code ec;
  if (!fs::is_directory(base, ec)) {
    std::cerr << "gltf-anim " << help.name << ": --sarif-base '" << base.string()
              << "' is not a folder\n"
              << "Try 'gltf-anim " << help.name << " --help'.\n";
    return false;
  }
  const fs::path absolute = fs::absolute(base, ec);
  if (ec) {
    std::cerr << "gltf-anim " << help.name << ": --sarif-base '" << base.string()
              << "': " << ec.message() << "\n";
    return false;
  }
  options.sarif_base = absolute.lexically_normal();
  return true;
}

int finish_report(CommandOutput& output, const CommandHelp& help, const po::variables_map& vm,
                  const reports::ValidationTotals& totals, gltf::Severity fail_on) {
  const int code = output.finish(totals.failing != 0 ? kExitFindings : kExitOk);
  if (code != kExitUsage && vm.count("output")) {
    std::cerr << "gltf-anim " << help.name << ": " << (totals.failing != 0 ? "FAIL" : "pass")
              << ": " << totals.line() << " (fail-on " << reports::fail_on_name(fail_on)
              << "); report in " << vm["output"].as<std::string>() << "\n";
  }
  return code;
}

}  // namespace gltf_anim::cli

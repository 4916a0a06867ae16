// gltf-anim squad-report: the modified-SQUAD verification bench of the seed
// modified-squad-non-uniform-timestamps.md, run through the reference evaluator, with
// our figures printed beside the seed's. docs/REFERENCE.md explains the differences.
#include <gltf_anim/reference/squad.hpp>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <iostream>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "commands.hpp"

namespace gltf_anim::cli {
namespace {

using reference::SquadBenchResult;

constexpr std::uint64_t kMaxSquadSamples = 1'000'000;

std::string fmt(const char* format, double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

std::string keys_text(const std::vector<double>& times) {
  std::string s = "{";
  for (std::size_t i = 0; i < times.size(); ++i) {
    if (i) s += ",";
    s += fmt("%g", times[i]);
  }
  return s + "}";
}

struct Row {
  std::string name, keys, seed, average, max, velocity, acceleration;
};

Row make_row(const SquadBenchResult& r) {
  return {r.bench_case.name,          keys_text(r.bench_case.times),
          r.bench_case.seed_figure,   fmt("%.6g", r.average_error),
          fmt("%.3g", r.max_error),   fmt("%.2g", r.max_velocity_jump),
          fmt("%.3g", r.max_acceleration_jump)};
}

const char* const kHeader[] = {"case", "keys", "seed avg error", "our avg error",
                               "our max error", "max dV at keys", "max dA at keys"};

void print_markdown(std::ostream& out, const std::string& title, const std::vector<Row>& rows) {
  out << "### " << title << "\n\n|";
  for (const char* h : kHeader) out << " " << h << " |";
  out << "\n|---|---|---:|---:|---:|---:|---:|\n";
  for (const Row& r : rows)
    out << "| " << r.name << " | " << r.keys << " | " << r.seed << " | " << r.average << " | "
        << r.max << " | " << r.velocity << " | " << r.acceleration << " |\n";
  out << "\n";
}

void print_text(std::ostream& out, const std::string& title, const std::vector<Row>& rows) {
  std::vector<std::vector<std::string>> cells;
  cells.push_back(std::vector<std::string>(std::begin(kHeader), std::end(kHeader)));
  for (const Row& r : rows)
    cells.push_back({r.name, r.keys, r.seed, r.average, r.max, r.velocity, r.acceleration});
  std::vector<std::size_t> width(cells[0].size(), 0);
  for (const auto& line : cells)
    for (std::size_t i = 0; i < line.size(); ++i) width[i] = std::max(width[i], line[i].size());
  out << title << "\n";
  for (const auto& line : cells) {
    for (std::size_t i = 0; i < line.size(); ++i) {
      // Text columns left-aligned, figures right-aligned.
      const std::string pad(width[i] - line[i].size(), ' ');
      out << (i < 2 ? line[i] + pad : pad + line[i]) << (i + 1 < line.size() ? "  " : "\n");
    }
  }
  out << "\n";
}

}  // namespace

int run_squad_report(const std::vector<std::string>& args) {
  static constexpr CommandHelp kHelp{
      "squad-report", "gltf-anim squad-report [--format text|md] [--all] [--samples N]",
      "Runs the verification bench of the seed 'Modified SQUAD for non-uniform timestamps'\n"
      "through the reference evaluator: f(t) = 0.5t - 0.25t^2 and 0.5t - 0.25t^2 + 0.25t^3\n"
      "become rotations of f(t) radians about +z, keyed at the seed's timestamps, turned\n"
      "into CUBICSLERP data by the modified SQUAD and sampled with sqlerp. Prints the\n"
      "average and maximum angle error over N+1 evenly spaced times and the largest jump\n"
      "of the first (dV) and second (dA) derivative across inner keys, beside the seed's\n"
      "figures. --all adds the cases that explain the differences (docs/REFERENCE.md).",
      "gltf-anim squad-report --all --format md"};
  po::options_description options("Options");
  options.add_options()("format", po::value<std::string>()->default_value("text"),
                        "text (aligned columns) or md (Markdown tables)")(
      "all", po::bool_switch(), "also print the investigation cases")(
      "samples", po::value<std::string>()->default_value(std::to_string(reference::kSquadBenchSamples)),
      "evenly spaced intervals for the average error (1 to 10^6)");
  int exit_code = kExitOk;
  const auto vm = parse_command_line(kHelp, options, {}, args, exit_code);
  if (!vm) return exit_code;
  const std::string format = (*vm)["format"].as<std::string>();
  if (format != "text" && format != "md") {
    std::cerr << "gltf-anim squad-report: unknown --format '" << format << "' (text or md)\n";
    return kExitUsage;
  }
  // The bench costs a few evaluations per sample and case: 10^6 is seconds of work (all cases).
  std::optional<std::uint64_t> samples_option;
  if (!integer_option(*vm, kHelp, "samples", 1, kMaxSquadSamples, samples_option)) return kExitUsage;
  const auto samples = static_cast<std::size_t>(*samples_option);
  CommandOutput out(kHelp, std::nullopt);

  struct Table {
    std::string title;
    std::vector<reference::SquadBenchCase> cases;
  };
  std::vector<Table> tables{{"Seed scenarios (modified SQUAD, seed end rule)",
                             reference::squad_seed_cases()}};
  if ((*vm)["all"].as<bool>())
    tables.push_back({"Investigation", reference::squad_investigation_cases()});
  for (const Table& table : tables) {
    std::vector<Row> rows;
    for (const auto& c : table.cases) rows.push_back(make_row(reference::run_squad_bench_case(c, samples)));
    if (format == "md") print_markdown(out.stream(), table.title, rows);
    else print_text(out.stream(), table.title, rows);
  }
  out.stream() << "Errors in radians; dV in rad/s, dA in rad/s^2; " << samples + 1
               << " samples per case.\n";
  return out.finish(kExitOk);
}

}  // namespace gltf_anim::cli

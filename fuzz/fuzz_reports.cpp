// libFuzzer target: every report writer and the manifest reader, with a
// property check on each output: valid UTF-8 that parses strictly in its
// format (tests/strict_text.hpp: JSON through RapidJSON with encoding
// validation, XML and HTML through a well-formedness checker of our own, text
// and Markdown without control characters, CSV valid UTF-8); a violation traps.
// The first byte picks what the rest of the input feeds, the second byte the
// writer (its value modulo the number of formats; one writer per run, so a
// run stays short) and, for samples files, CSV (bit 7 set) or JSON:
//   0  validate_file on the rest as an asset saved under a file name that is
//      not UTF-8, then a validation writer (json, text, junit, sarif);
//   1  a validation report built from strings of the input, same writers;
//   2  the samples readers on golden and actual texts split at "\n--\n",
//      compare_samples, and a compare writer (text, json, md, junit, html)
//      with input strings as names;
//   3  a samples file read from the rest, then one built from input strings,
//      through both samples writers; what the JSON writer writes of the file
//      read must read back;
//   4  read_manifest on the rest, then its ids, notes, features, clauses and
//      variant names (or its refusal) through a compare writer;
//   5  read_validation_json on the rest (what `gltf-anim merge` reads), then
//      the run through a validation writer; what the json writer writes of it
//      must read back and write the same bytes again; merged with itself it
//      is refused. ReportFormatError is the reader's documented refusal.
// Strings "of the input" are length-prefixed: a byte n, then n bytes.
// SamplesFormatError is the documented refusal of the readers.
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/reports/compare_report.hpp>
#include <gltf_anim/reports/formats.hpp>
#include <gltf_anim/samples/samples.hpp>
#include <gltf_anim/reports/validation_merge.hpp>
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/validator/validate.hpp>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "../tests/strict_text.hpp"

namespace {

namespace fs = std::filesystem;
namespace gr = gltf_anim::reports;
namespace gs = gltf_anim::samples;
namespace gc = gltf_anim::compare;
namespace gv = gltf_anim::validator;
namespace gltf = gltf_anim::gltf;

void require(const std::string& problem, const char* what, const std::string& output) {
  if (problem.empty()) return;
  std::fprintf(stderr, "%s: %s\n--- output (%zu bytes) ---\n%.4000s\n", what, problem.c_str(),
               output.size(), output.c_str());
  __builtin_trap();
}

// Length-prefixed strings, then whatever is left.
class Strings {
 public:
  explicit Strings(std::string_view in) : in_(in) {}
  std::string next() {
    if (in_.empty()) return {};
    const std::size_t n = std::min<std::size_t>(static_cast<unsigned char>(in_[0]), in_.size() - 1);
    std::string s(in_.substr(1, n));
    in_.remove_prefix(1 + n);
    return s;
  }
  std::vector<std::string> list(std::size_t max) {
    std::vector<std::string> out;
    const std::size_t n = next().size() % (max + 1);
    for (std::size_t k = 0; k < n; ++k) out.push_back(next());
    return out;
  }
  std::string_view rest() const { return in_; }

 private:
  std::string_view in_;
};

// A private folder, so that the asset's relative buffer URIs find nothing.
const fs::path& scratch() {
  static const fs::path dir = [] {
    fs::path d = fs::temp_directory_path() /
                 ("gltf_anim_fuzz_reports_" + std::to_string(std::random_device{}()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

void write_file(const fs::path& p, std::string_view bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Which writer this run checks (the second input byte).
unsigned char g_writer = 0;

void check_validation_writers(std::span<const gv::ValidationReport> reports) {
  const auto formats = gr::validation_formats();
  const gr::ValidationFormatRow& row = formats[g_writer % formats.size()];
  const std::string name(row.name);
  std::ostringstream out;
  gr::write_validation(out, row.format, reports);
  require(strict_text::format_problem(name, out.str()), name.c_str(), out.str());
  if (name == "md") require(strict_text::ci_format_problem(name, out.str()), name.c_str(), out.str());
}

void check_compare_writers(const gc::CompareReport& report) {
  const auto formats = gr::compare_formats();
  const gr::CompareFormatRow& row = formats[g_writer % formats.size()];
  const std::string format(row.name);
  std::ostringstream out;
  row.write(out, report);
  const std::string s = out.str();
  require(strict_text::format_problem(format, s), format.c_str(), s);
  if (format == "html") require(strict_text::text_problem(s), format.c_str(), s);
  if (s.find("<script") != std::string::npos) require("a script element", format.c_str(), s);
}

// `read_back`: the file came from our reader, so what we write of it must
// read back (a file built from raw strings may break the model's own rules,
// such as targets starting with '/').
void check_samples_writers(const gs::SamplesFile& file, bool read_back) {
  const std::string json = gs::write_samples_json(file);
  require(strict_text::format_problem("json", json), "samples json", json);
  const std::string csv = gs::write_samples_csv(file);
  require(strict_text::format_problem("csv", csv), "samples csv", csv);
  if (!read_back) return;
  try {
    gs::read_samples_json(json, {}, "written.json");
  } catch (const gs::SamplesFormatError& e) {
    require(std::string("our own samples JSON does not read back: ") + e.what(), "samples json", json);
  }
}

void validate_asset_file(std::string_view bytes) {
  // Not UTF-8, an ESC sequence, markup: the name every writer has to quote.
  const fs::path path = scratch() / "asset \xFF\x1B[31m<&]]>.gltf";
  write_file(path, bytes);
  gv::ValidateOptions options;
  const gv::ValidationReport report = gv::validate_file(path, options);
  check_validation_writers(std::span(&report, 1));
}

void validation_from_strings(Strings in) {
  std::vector<gv::ValidationReport> reports(1 + in.next().size() % 2);
  for (gv::ValidationReport& r : reports) {
    r.uri = in.next();
    // SARIF reads a parsed asset's `uri` from the disk to place its pointers:
    // a GLB's under a folder that does not exist, never a .gltf.
    r.mime_type = in.next().size() % 2 == 0 ? "" : "model/gltf-binary";
    if (!r.mime_type.empty()) r.uri = "\x01 no such folder/" + r.uri;
    const std::size_t n = in.next().size() % 8;
    for (std::size_t k = 0; k < n; ++k) {
      const auto types = gltf::issue_types();
      const auto& type = types[in.next().size() % types.size()];
      gltf::Issue issue{type.code, type.severity, in.next(), in.next(), std::nullopt};
      if (!issue.pointer.empty() && issue.pointer[0] == '@') {
        issue.pointer.clear();
        issue.offset = issue.message.size();
      }
      r.issues.push_back(std::move(issue));
    }
    r.truncated = in.next().size() % 2 == 1;
    if (in.next().size() % 2 == 1) {
      gv::AssetInfo info;
      info.version = in.next();
      info.generator = in.next();
      info.min_version = in.next();
      info.extensions_used = in.list(3);
      info.extensions_required = in.list(3);
      r.info = std::move(info);
    }
  }
  check_validation_writers(reports);
}

void validation_json_round(std::string_view text) {
  gr::ValidationRun run;
  try {
    run = gr::read_validation_json(text);
  } catch (const gr::ReportFormatError&) {
    return;
  }
  {
    // merge: one report alone is joined or refused with a reason; the same
    // report twice is always refused, never counted twice.
    const gr::MemoryReportBytes bytes(text);
    const gr::IndexedRun indexed = gr::index_validation_json(bytes);
    std::vector<gr::IndexedRun> runs{indexed, indexed};
    const std::vector<std::string> names{"a.json", "b.json"};
    std::string why;
    const auto uri_of = [&bytes](std::size_t, const gr::IndexedAsset& a) {
      return gr::read_asset_at(bytes, a).report.uri;
    };
    const bool joined =
        gr::merge_validation_runs(runs, names, run.tool_version, why, uri_of).has_value();
    require(joined ? "the same report twice was joined" : "", "merge", why);
    runs.pop_back();
    runs.front() = indexed;
    const auto one = gr::merge_validation_runs(runs, {names.front()}, run.tool_version, why, uri_of);
    require(one.has_value() || !why.empty() ? "" : "refused without a reason", "merge", why);
  }
  std::vector<gv::ValidationReport> reports;
  gr::ValidationWriteOptions options;
  options.fail_on = run.fail_on;
  options.shard = run.shard;
  options.issue_policy = run.issue_policy;  // "policy" reads back and is written again
  auto json_of = [&options](const gr::ValidationRun& r) {
    std::ostringstream out;
    const auto writer = gr::make_validation_writer(out, gr::ValidationFormat::kJson, options);
    for (const gr::ReadAsset& a : r.assets) writer->asset(a.report, a.run);
    writer->end();
    return out.str();
  };
  const std::string once = json_of(run);
  require(strict_text::format_problem("json", once), "validation json", once);
  try {
    const std::string twice = json_of(gr::read_validation_json(once));
    if (twice != once) require("written twice, the json differs", "validation json", twice);
  } catch (const gr::ReportFormatError& e) {
    require(std::string("our own json report does not read back: ") + e.what(), "validation json", once);
  }
  for (gr::ReadAsset& a : run.assets) {
    // As in mode 1: no .gltf read from the disk, no GLB found there.
    if (!a.report.mime_type.empty()) {
      a.report.mime_type = "model/gltf-binary";
      a.report.uri = "\x01 no such folder/" + a.report.uri;
    }
    reports.push_back(std::move(a.report));
  }
  check_validation_writers(reports);
}

gs::SamplesFile read_samples(std::string_view text, bool csv, const char* name) {
  return csv ? gs::read_samples_csv(text, {}, name) : gs::read_samples_json(text, {}, name);
}

void compare_from_samples(std::string_view text, bool csv) {
  const std::size_t cut = text.find("\n--\n");
  const std::string_view golden_text = text.substr(0, cut);
  const std::string_view actual_text = cut == std::string_view::npos ? golden_text : text.substr(cut + 4);
  const gs::SamplesFile golden = read_samples(golden_text, csv, "golden");
  const gs::SamplesFile actual = read_samples(actual_text, csv, "actual");
  gc::CompareReport report;
  report.golden = golden.asset;
  report.actual = actual.asset;
  report.generator = golden.generator;
  gc::CaseResult c = gc::compare_samples(golden, actual, gc::Tolerances{});
  c.id = golden.asset + actual.generator;
  c.golden_file = golden.asset;
  c.actual_file = actual.asset;
  for (const auto& a : golden.animations) {
    c.features.push_back(a.name);
    c.clauses.push_back(a.name);
  }
  c.notes = actual.generator;
  report.warnings.push_back(actual.asset);
  report.cases.push_back(std::move(c));
  check_compare_writers(report);
}

void samples_round(std::string_view text, bool csv) {
  try {
    check_samples_writers(read_samples(text, csv, "samples"), true);
  } catch (const gs::SamplesFormatError&) {
  }
  Strings in(text);
  gs::SamplesFile file;
  file.asset = in.next();
  file.generator = in.next();
  const std::size_t animations = in.next().size() % 4;
  for (std::size_t a = 0; a < animations; ++a) {
    auto& anim = file.animations.emplace_back();
    anim.index = a;
    anim.name = in.next();
    const std::size_t channels = in.next().size() % 3;
    for (std::size_t k = 0; k < channels; ++k) {
      auto& ch = anim.channels.emplace_back();
      ch.index = k;
      ch.target = in.next();
      ch.interpolation = in.next();
      ch.add_sample(0, {1.0, 2.0});
    }
  }
  check_samples_writers(file, false);
}

void manifest(std::string_view text) {
  const fs::path path = scratch() / "manifest.json";
  write_file(path, text);
  gc::Manifest m;
  try {
    m = gc::read_manifest(path);
  } catch (const gs::SamplesFormatError& e) {
    // The refusal quotes member names of the manifest in its message.
    gc::CompareReport report;
    report.warnings.push_back(e.what());
    check_compare_writers(report);
    return;
  }
  gc::CompareReport report;
  constexpr gc::CaseOutcome kOutcomes[] = {gc::CaseOutcome::kFailed, gc::CaseOutcome::kNotRun,
                                           gc::CaseOutcome::kExcluded, gc::CaseOutcome::kPassed,
                                           gc::CaseOutcome::kNothingCompared};
  for (const auto& e : m.entries) {
    gc::CaseResult c;
    c.id = e.id;
    c.asset = e.file;
    c.golden_file = e.samples;
    c.features = e.features;
    c.clauses = e.clauses;
    c.notes = e.notes;
    c.problem = e.file;
    c.outcome = kOutcomes[report.cases.size() % std::size(kOutcomes)];
    for (const auto& v : e.variants) c.warnings.push_back(v.name + v.notes + v.samples);
    for (const auto& v : e.known_divergences) c.matched_divergence = v.name;
    // A failing channel named by the manifest's text, with its worst sample
    // and the manifest's alternatives as diagnoses (their names and
    // descriptions reach every format).
    gc::ChannelResult& ch = c.channels.emplace_back();
    ch.target = e.file;
    ch.passed = false;
    ch.problem = e.notes;
    ch.worst.push_back({0.5, {1.0, -0.0}, {std::numeric_limits<double>::quiet_NaN(), 1e300}, 2.0});
    for (const bool allowed : {true, false}) {
      for (const auto& v : allowed ? e.variants : e.known_divergences) {
        gc::AlternativeMatch& a = ch.alternatives.emplace_back();
        a.name = v.name;
        a.allowed = allowed;
        a.description = v.notes;
        a.breaks = v.notes;
        a.times = v.excerpt.size();
        for (const auto& x : v.excerpt) {
          if (a.first_times.size() < gc::kMaxListedTimes) a.first_times.push_back(x.t);
        }
      }
    }
    report.cases.push_back(std::move(c));
    report.selection.push_back(e.id);
  }
  if (!m.entries.empty()) report.extensions = m.entries.front().extensions;
  check_compare_writers(report);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  g_writer = data[1];
  const bool csv = (data[1] & 0x80) != 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 2, size - 2);
  try {
    switch (data[0] % 6) {
      case 0: validate_asset_file(rest); break;
      case 1: validation_from_strings(Strings(rest)); break;
      case 2: compare_from_samples(rest, csv); break;
      case 3: samples_round(rest, csv); break;
      case 4: manifest(rest); break;
      default: validation_json_round(rest); break;
    }
  } catch (const gs::SamplesFormatError&) {
  }
  return 0;
}

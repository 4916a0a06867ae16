// libFuzzer target: the samples readers and `compare`. The input is split at
// the first "\n--\n": golden before, actual after (the same text when absent).
// The first byte picks JSON (even) or CSV (odd) for both. Both files are read,
// compared, and the case is written in every report format (escaping of text
// from the files, SVG plots of the failing channels); then the same pair goes
// through compare_suite in memory (a one-case manifest naming the golden file,
// read through a MemoryReader; the actual file by read_named_samples, a refusal
// failing its case). SamplesFormatError is the documented refusal; any other
// exception escapes and is a finding.
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/io/resource_reader.hpp>
#include <gltf_anim/reports/compare_report.hpp>
#include <gltf_anim/reports/formats.hpp>
#include <gltf_anim/samples/samples.hpp>

#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace r = gltf_anim::reports;
  namespace gs = gltf_anim::samples;
  namespace gc = gltf_anim::compare;
  if (size == 0) return 0;
  const bool csv = (data[0] & 1) != 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::size_t cut = text.find("\n--\n");
  const std::string_view golden_text = text.substr(0, cut);
  const std::string_view actual_text =
      cut == std::string_view::npos ? golden_text : text.substr(cut + 4);
  try {
    const auto read = [csv](std::string_view t, const char* name) {
      return csv ? gs::read_samples_csv(t, {}, name) : gs::read_samples_json(t, {}, name);
    };
    const gs::SamplesFile golden = read(golden_text, "golden");
    const gs::SamplesFile actual = read(actual_text, "actual");
    gc::CompareReport report;
    report.cases.push_back(gc::compare_samples(golden, actual, gc::Tolerances{}));
    std::ostringstream out;
    for (const r::CompareFormatRow& format : r::compare_formats()) format.write(out, report);
  } catch (const gs::SamplesFormatError&) {
  }
  try {
    const std::string name = csv ? "case.samples.csv" : "case.samples.json";
    gltf_anim::io::MemoryReader files;
    files.add("valid/" + name, std::vector<std::uint8_t>(golden_text.begin(), golden_text.end()));
    const gc::Manifest manifest = gc::parse_manifest(
        R"({"assets": [{"id": "case", "samples": "valid/)" + name + R"("}]})", "manifest.json");
    gc::ActualInput run;
    run.files.push_back(gc::read_named_samples(name, actual_text));
    const gc::CompareReport report = gc::compare_suite({&manifest, &files, "suite"}, std::move(run), {});
    if (report.cases.size() != 1) __builtin_trap();  // the one golden file, paired by its name
    std::ostringstream out;
    for (const r::CompareFormatRow& format : r::compare_formats()) format.write(out, report);
  } catch (const gs::SamplesFormatError&) {
  }
  return 0;
}

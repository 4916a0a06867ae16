#pragma once
// The reports of `gltf-anim compare`: text, json, md, junit, html.
// Deterministic; all text from input files escaped (gltf_anim/text/escape.hpp).
#include <gltf_anim/compare/compare.hpp>

#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>

namespace gltf_anim::reports {

// Each ends with the summary line "N passed, N failed" (html: in a <p>),
// followed by ", N not run", ", N excluded" and ", N with nothing to compare"
// when there are such cases. Text, Markdown and HTML list failures first
// (compare::failures_first); each failing channel shows its worst samples
// and the manifest alternatives its values match.
struct OutcomeCounts {
  std::size_t passed = 0, failed = 0, not_run = 0, excluded = 0, nothing_compared = 0;
};
std::string summary_line(const compare::CompareReport& report);
std::string summary_line(const OutcomeCounts& counts);
void write_compare_text(std::ostream& out, const compare::CompareReport& report);
void write_compare_json(std::ostream& out, const compare::CompareReport& report);
void write_compare_markdown(std::ostream& out, const compare::CompareReport& report);
void write_compare_junit(std::ostream& out, const compare::CompareReport& report);
void write_compare_html(std::ostream& out, const compare::CompareReport& report);
// By name, a row of the table of formats (formats.hpp); false for an unknown name.
bool write_compare_report(std::ostream& out, const compare::CompareReport& report, std::string_view format);

}  // namespace gltf_anim::reports

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
// followed by ", N with nothing to compare" when there are such cases.
std::string summary_line(const compare::CompareReport& report);
std::string summary_line(std::size_t passed, std::size_t failed, std::size_t nothing_compared);
void write_compare_text(std::ostream& out, const compare::CompareReport& report);
void write_compare_json(std::ostream& out, const compare::CompareReport& report);
void write_compare_markdown(std::ostream& out, const compare::CompareReport& report);
void write_compare_junit(std::ostream& out, const compare::CompareReport& report);
void write_compare_html(std::ostream& out, const compare::CompareReport& report);
// By name: "text", "json", "md", "junit", "html"; false for an unknown name.
bool write_compare_report(std::ostream& out, const compare::CompareReport& report, std::string_view format);

}  // namespace gltf_anim::reports

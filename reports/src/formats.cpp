// The report format tables (formats.hpp).
#include <gltf_anim/reports/compare_report.hpp>
#include <gltf_anim/reports/formats.hpp>

#include <array>

#include "validation_writers.hpp"

namespace gltf_anim::reports {
namespace {

constexpr std::array<ValidationFormatRow, 6> kValidationFormats{{
    {"text", ValidationFormat::kText, make_validation_text_writer},
    {"json", ValidationFormat::kJson, make_validation_json_writer},
    {"junit", ValidationFormat::kJunit, make_validation_junit_writer},
    {"sarif", ValidationFormat::kSarif, make_validation_sarif_writer},
    {"md", ValidationFormat::kMarkdown, make_validation_markdown_writer},
    {"github", ValidationFormat::kGithub, make_validation_github_writer},
}};

constexpr std::array<CompareFormatRow, 5> kCompareFormats{{
    {"text", write_compare_text},
    {"json", write_compare_json},
    {"md", write_compare_markdown},
    {"junit", write_compare_junit},
    {"html", write_compare_html},
}};

template <class Rows>
std::string names(const Rows& rows) {
  std::string text;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i > 0) text += i + 1 == rows.size() ? " or " : ", ";
    text += rows[i].name;
  }
  return text;
}

}  // namespace

std::span<const ValidationFormatRow> validation_formats() { return kValidationFormats; }

const ValidationFormatRow& validation_format_row(ValidationFormat format) {
  for (const ValidationFormatRow& row : kValidationFormats) {
    if (row.format == format) return row;
  }
  return kValidationFormats.front();  // not reached: every enumerator has a row
}

std::optional<ValidationFormat> validation_format_from_name(std::string_view name) {
  for (const ValidationFormatRow& row : kValidationFormats) {
    if (row.name == name) return row.format;
  }
  return std::nullopt;
}

std::unique_ptr<ValidationStreamWriter> make_validation_writer(
    std::ostream& out, ValidationFormat format, const ValidationWriteOptions& options) {
  return validation_format_row(format).make_writer(out, options);
}

std::span<const CompareFormatRow> compare_formats() { return kCompareFormats; }

const CompareFormatRow* compare_format_from_name(std::string_view name) {
  for (const CompareFormatRow& row : kCompareFormats) {
    if (row.name == name) return &row;
  }
  return nullptr;
}

bool write_compare_report(std::ostream& out, const compare::CompareReport& report,
                          std::string_view format) {
  const CompareFormatRow* row = compare_format_from_name(format);
  if (row == nullptr) return false;
  row->write(out, report);
  return true;
}

std::string validation_format_names() { return names(kValidationFormats); }
std::string compare_format_names() { return names(kCompareFormats); }

}  // namespace gltf_anim::reports

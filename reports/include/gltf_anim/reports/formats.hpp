#pragma once
// The report formats, one table per kind of report: each row is a format's
// name, its writer and how it writes. What names a format derives from these
// tables: the CLI's --format of validate, merge and compare (help, parsing and
// the message for an unknown name), the writers' dispatch, the fuzz targets;
// tests hold the config file's schema and the CLI help to them. A new format
// is one row here and its writer.
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/reports/validation_report.hpp>

#include <memory>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <string_view>

namespace gltf_anim::reports {

// A format of validation reports (validate, merge).
struct ValidationFormatRow {
  std::string_view name;  // the --format value and the config file's "format"
  ValidationFormat format;
  // The writer of a report written as its assets arrive (ValidationStreamWriter).
  std::unique_ptr<ValidationStreamWriter> (*make_writer)(std::ostream& out,
                                                         const ValidationWriteOptions& options);
};
// In the order the help lists them.
std::span<const ValidationFormatRow> validation_formats();
// The row of `format` (every enumerator has one).
const ValidationFormatRow& validation_format_row(ValidationFormat format);

// A format of `gltf-anim compare` reports.
struct CompareFormatRow {
  std::string_view name;  // the --format value
  void (*write)(std::ostream& out, const compare::CompareReport& report);
};
std::span<const CompareFormatRow> compare_formats();
const CompareFormatRow* compare_format_from_name(std::string_view name);

// The names of a table for help and messages: "text, json, junit, sarif, md or github".
std::string validation_format_names();
std::string compare_format_names();

}  // namespace gltf_anim::reports

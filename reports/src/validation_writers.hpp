#pragma once
// The streamed validation writers of each format (validation_report.hpp).
#include <gltf_anim/reports/validation_report.hpp>

#include <cstddef>
#include <memory>
#include <ostream>

namespace gltf_anim::reports {

std::unique_ptr<ValidationStreamWriter> make_validation_json_writer(
    std::ostream& out, const ValidationWriteOptions& options);
std::unique_ptr<ValidationStreamWriter> make_validation_text_writer(std::ostream& out,
                                                                    const ValidationWriteOptions& options);
std::unique_ptr<ValidationStreamWriter> make_validation_junit_writer(std::ostream& out,
                                                                     const ValidationWriteOptions& options);
std::unique_ptr<ValidationStreamWriter> make_validation_sarif_writer(std::ostream& out,
                                                                     const ValidationWriteOptions& options);

// validation_ci.cpp: the job summary (md) and GitHub workflow commands (github).
std::unique_ptr<ValidationStreamWriter> make_validation_markdown_writer(
    std::ostream& out, const ValidationWriteOptions& options);
std::unique_ptr<ValidationStreamWriter> make_validation_github_writer(
    std::ostream& out, const ValidationWriteOptions& options);

}  // namespace gltf_anim::reports

// The two validation formats for a CI job's page, which scripts/ci-validate.sh
// writes under GitHub Actions:
//  - md: the job summary (GitHub-flavoured Markdown): a headline "N of M assets
//    failed", then the failing assets with their issues (severity, code, place,
//    message), then the passing ones folded in a <details>;
//  - github: workflow commands, one `::error file=PATH,title=CODE::message
//    (pointer)` per error (::warning per warning; ::notice for an info or hint
//    that reaches fail-on), which the runner shows as annotations beside the
//    file, capped per kind with a final note of how many were left out.
// Both hold only bounded parts of the run between assets (the first places and
// rows they will print, and counts), and print everything at end(): the
// failures come first whatever the order of the assets.
// A GLB is binary: its places are the JSON pointer (or the byte offset of a
// container issue), never a line and column, which would count within its JSON
// chunk and mean nothing in the file. A .gltf's places also give the line and
// column where the value starts.
#include <gltf_anim/io/file_queries.hpp>
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/text/escape.hpp>
#include <gltf_anim/validator/validate.hpp>

#include <algorithm>
#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "validation_writers.hpp"

namespace gltf_anim::reports {
namespace {

using gltf::Issue;
using gltf::Severity;
using validator::ValidationReport;

bool is_binary(const ValidationReport& r, const Issue& i) {
  return r.mime_type == "model/gltf-binary" || i.offset || (i.position && i.position->in_glb_chunk);
}

// The line and column where the issue's value starts, in a text asset only.
std::optional<gltf::TextPosition> text_position(const ValidationReport& r, const Issue& i) {
  if (!i.position || is_binary(r, i)) return std::nullopt;
  return i.position;
}

// The issue's place in words, raw (each format escapes it): the JSON pointer,
// or "byte N" for a GLB container issue; empty for the whole document.
std::string raw_place(const Issue& i) {
  if (i.offset) return "byte " + std::to_string(*i.offset);
  return i.pointer;
}

std::string plural(std::uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string counts(const IssueFacts& f) {
  return plural(f.counts[0], "error", "errors") + ", " + plural(f.counts[1], "warning", "warnings") +
         ", " + plural(f.counts[2], "info", "infos") + ", " + plural(f.counts[3], "hint", "hints");
}

std::string headline(const ValidationTotals& t) {
  return std::to_string(t.failing) + " of " + plural(t.assets, "asset", "assets") + " failed";
}

// ---------------------------------------------------------------------------
// md: the job summary.

// Bounds that keep the summary well under GitHub's 1 MiB per step: the log and
// the report files have everything.
constexpr std::size_t kMaxFailingAssets = 100;
constexpr std::size_t kMaxRowsPerAsset = 20;
constexpr std::size_t kMaxRows = 500;
constexpr std::size_t kMaxPassingNames = 1000;

const char* severity_word(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kInfo: return "info";
    case Severity::kHint: return "hint";
  }
  return "?";
}

class MarkdownStreamWriter final : public ValidationStreamWriter {
 public:
  MarkdownStreamWriter(std::ostream& out, const ValidationWriteOptions& options)
      : out_(out), options_(options) {}
  void end() override;

 protected:
  void write_asset(const ValidationReport& r, const IssueFacts& facts, const IssueSource& issues,
                   const AssetRun& run) override;

 private:
  std::ostream& out_;
  ValidationWriteOptions options_;
  ValidationTotals totals_;
  std::string failing_;  // the sections of the first kMaxFailingAssets failing assets
  std::size_t failing_listed_ = 0;
  std::size_t rows_ = 0;
  std::vector<std::string> passing_;  // the first kMaxPassingNames passing ones' lines
};

void MarkdownStreamWriter::write_asset(const ValidationReport& r, const IssueFacts& facts,
                                       const IssueSource& issues, const AssetRun& run) {
  totals_.add(r, facts, options_.fail_on, run);
  const std::string name = text::md_escape(r.uri);
  const std::string truncated = r.truncated ? "; truncated" : "";
  const std::uint64_t total = facts.counts[0] + facts.counts[1] + facts.counts[2] + facts.counts[3];
  if (!facts.reaches(options_.fail_on)) {
    if (passing_.size() < kMaxPassingNames) {
      passing_.push_back("- " + name + (total == 0 ? "" : " (" + counts(facts) + truncated + ")"));
    }
    return;
  }
  if (failing_listed_ == kMaxFailingAssets) return;
  ++failing_listed_;
  std::string& s = failing_;
  s += "#### FAIL " + name + "\n\n" + counts(facts) + truncated + ".\n\n";
  // Its issues, the most severe first (in the order found within a severity):
  // the first `limit` rows of each severity, read in one pass, are all that
  // can be printed.
  const std::size_t limit = rows_ < kMaxRows ? std::min(kMaxRowsPerAsset, kMaxRows - rows_) : 0;
  std::array<std::vector<std::string>, 4> rows;
  issues.for_each([&](const Issue& i) {
    std::vector<std::string>& kept = rows[static_cast<std::size_t>(i.severity) & 3];
    if (kept.size() == limit) return;
    std::string at = text::md_escape(raw_place(i));
    if (const auto p = text_position(r, i)) {
      at += (at.empty() ? "" : ", ") + std::string("line ") + std::to_string(p->line) +
            ", column " + std::to_string(p->column);
    }
    std::string row = "| ";
    row += severity_word(i.severity);
    row += " | " + text::md_escape(i.code) + " | " + at + " | " + text::md_escape(i.message) +
           " |\n";
    kept.push_back(std::move(row));
  });
  std::size_t shown = 0;
  if (rows_ < kMaxRows) s += "| severity | code | at | message |\n| --- | --- | --- | --- |\n";
  for (const std::vector<std::string>& kept : rows) {
    for (const std::string& row : kept) {
      if (shown == limit) break;
      s += row;
      ++shown;
      ++rows_;
    }
  }
  if (shown < total) {
    s += "\n" + std::to_string(total - shown) +
         " more issues of this asset are not listed here: the job's log and the report files have "
         "them all.\n";
  }
  s += "\n";
}

void MarkdownStreamWriter::end() {
  std::ostream& out = out_;
  out << "### gltf-anim validate: " << headline(totals_) << "\n\n";
  out << "Fail-on " << fail_on_name(options_.fail_on) << "; " << totals_.line() << ".\n\n";
  out << failing_;
  if (totals_.failing > failing_listed_) {
    out << (totals_.failing - failing_listed_)
        << " more failing assets are not listed here: the job's log and the report files have "
           "them all.\n\n";
  }
  const std::uint64_t passed = totals_.assets - totals_.failing;
  if (passed == 0) return;
  out << "<details><summary>" << plural(passed, "asset", "assets") << " passed</summary>\n\n";
  for (const std::string& line : passing_) out << line << "\n";
  if (passed > passing_.size()) out << "- and " << (passed - passing_.size()) << " more\n";
  out << "\n</details>\n";
}

// ---------------------------------------------------------------------------
// github: workflow commands.

// GitHub shows 10 error and 10 warning annotations of a step; more are lost.
// The last notice is the note of what was left out.
constexpr std::array<std::size_t, 3> kMaxAnnotations{10, 10, 9};
constexpr std::array<const char*, 3> kCommands{"error", "warning", "notice"};

// The file property: the asset's path relative to --sarif-base (the checkout)
// when it lies beneath it, which is how GitHub finds the file; else as given.
std::string annotation_path(const ValidationReport& r,
                            const std::optional<std::filesystem::path>& base) {
  namespace fs = std::filesystem;
  if (base && r.uri != "-") {
    std::error_code ec;
    const fs::path absolute = io::absolute_path(fs::path(r.uri), ec).lexically_normal();
    if (!ec) {
      const fs::path relative = absolute.lexically_relative(*base);
      if (!relative.empty() && *relative.begin() != ".." && relative != ".") {
        return relative.generic_string();
      }
    }
  }
  return r.uri;
}

class GithubStreamWriter final : public ValidationStreamWriter {
 public:
  GithubStreamWriter(std::ostream& out, const ValidationWriteOptions& options)
      : out_(out), options_(options) {}
  void end() override;

 protected:
  void write_asset(const ValidationReport& r, const IssueFacts& facts, const IssueSource& issues,
                   const AssetRun& run) override;

 private:
  std::ostream& out_;
  ValidationWriteOptions options_;
  ValidationTotals totals_;
  std::array<std::vector<std::string>, 3> lines_;  // by command kind
  std::array<std::uint64_t, 3> left_out_{};
};

void GithubStreamWriter::write_asset(const ValidationReport& r, const IssueFacts& facts,
                                     const IssueSource& issues, const AssetRun& run) {
  totals_.add(r, facts, options_.fail_on, run);
  std::optional<std::string> file;  // escaped once, for the first annotation
  issues.for_each([&](const Issue& i) {
    std::size_t kind = 0;
    if (i.severity == Severity::kError) {
      kind = 0;
    } else if (i.severity == Severity::kWarning) {
      kind = 1;
    } else if (static_cast<int>(i.severity) <= static_cast<int>(options_.fail_on)) {
      kind = 2;
    } else {
      return;  // an info or hint below fail-on: the log and the reports have it
    }
    if (lines_[kind].size() == kMaxAnnotations[kind]) {
      ++left_out_[kind];
      return;
    }
    if (!file) file = text::github_command_property(annotation_path(r, options_.sarif_base));
    std::string line = "::";
    line += kCommands[kind];
    line += " file=" + *file;
    if (const auto p = text_position(r, i)) {
      line += ",line=" + std::to_string(p->line) + ",col=" + std::to_string(p->column);
    }
    line += ",title=" + text::github_command_property(i.code) + "::";
    std::string message = i.message;
    if (const std::string place = raw_place(i); !place.empty()) message += " (" + place + ")";
    line += text::github_command_data(message);
    lines_[kind].push_back(std::move(line));
  });
}

void GithubStreamWriter::end() {
  std::size_t annotations = 0;
  for (const auto& kind : lines_) {
    for (const std::string& line : kind) out_ << line << "\n";
    annotations += kind.size();
  }
  const std::uint64_t left_out = left_out_[0] + left_out_[1] + left_out_[2];
  if (left_out > 0) {
    std::string note =
        "::notice title=gltf-anim::" + plural(left_out, "more finding was", "more findings were") +
        " not annotated (";
    const char* sep = "";
    for (std::size_t k = 0; k < 3; ++k) {
      if (left_out_[k] == 0) continue;
      note +=
          sep + std::to_string(left_out_[k]) + " " + kCommands[k] + (left_out_[k] == 1 ? "" : "s");
      sep = ", ";
    }
    note += "): the job summary, the log and the report files list every issue";
    out_ << note << "\n";
  }
  // A plain line of the log: no command, no name from an asset.
  out_ << "gltf-anim validate: " << headline(totals_) << "; " << annotations << " annotations"
       << (left_out ? ", " + std::to_string(left_out) + " findings left out" : std::string())
       << "\n";
}

}  // namespace

std::unique_ptr<ValidationStreamWriter> make_validation_markdown_writer(
    std::ostream& out, const ValidationWriteOptions& options) {
  return std::make_unique<MarkdownStreamWriter>(out, options);
}

std::unique_ptr<ValidationStreamWriter> make_validation_github_writer(
    std::ostream& out, const ValidationWriteOptions& options) {
  return std::make_unique<GithubStreamWriter>(out, options);
}

}  // namespace gltf_anim::reports

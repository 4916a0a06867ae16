// The text format, for people (and CI logs). Per asset: a header line, then the
// issue codes in order of first appearance. A code raised once prints its
// pointer and message; a repeated code with one message prints its count, its
// first places and the message; a code with several distinct messages prints
// its count, then one line per distinct message (its count and first places),
// the first kMaxMessages of them and how many more the other formats hold.
// Then a summary over all assets.
#include <gltf_anim/reports/formats.hpp>
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/validator/issue_policy.hpp>

#include "validation_writers.hpp"

#include <map>
#include <memory>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <gltf_anim/text/escape.hpp>

namespace gltf_anim::reports {
namespace {

using gltf::Issue;
using gltf::Severity;
using validator::ValidationReport;

constexpr std::size_t kFirstPlaces = 3;
// Distinct messages listed per code; a log stays readable when one code has
// thousands of different messages (the json report has every issue).
constexpr std::size_t kMaxMessages = 20;

const char* label(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kInfo: return "info";
    case Severity::kHint: return "hint";
  }
  return "?";
}

std::string place(const Issue& i) {
  if (i.offset) {
    std::string s = "@";
    s += std::to_string(*i.offset);
    return s;
  }
  return i.pointer.empty() ? std::string("\"\"") : text::visible_text(i.pointer);
}

// " xN, first at P1, P2, P3, ..." for N issues (N > 1), or " at P" for one.
std::string places(const std::vector<const Issue*>& issues) {
  if (issues.size() == 1) return " at " + place(*issues.front());
  std::string s = " x" + std::to_string(issues.size()) + ", first at ";
  for (std::size_t k = 0; k < issues.size() && k < kFirstPlaces; ++k) {
    if (k) s += ", ";
    s += place(*issues[k]);
  }
  if (issues.size() > kFirstPlaces) s += ", ...";
  return s;
}

std::string counts(std::uint64_t e, std::uint64_t w, std::uint64_t i, std::uint64_t h) {
  return std::to_string(e) + (e == 1 ? " error, " : " errors, ") + std::to_string(w) +
         (w == 1 ? " warning, " : " warnings, ") + std::to_string(i) +
         (i == 1 ? " info, " : " infos, ") + std::to_string(h) + (h == 1 ? " hint" : " hints");
}

class TextStreamWriter final : public ValidationStreamWriter {
 public:
  TextStreamWriter(std::ostream& out, const ValidationWriteOptions& options) : out_(out), options_(options) {}
  void end() override { out_ << totals_.line() << "\n"; }

 protected:
  void write_asset(const ValidationReport& r, const AssetRun& run) override;

 private:
  std::ostream& out_;
  ValidationWriteOptions options_;
  ValidationTotals totals_;
};

void TextStreamWriter::write_asset(const ValidationReport& r, const AssetRun& run) {
  std::ostream& out = out_;
  const std::size_t e = r.count(Severity::kError), w = r.count(Severity::kWarning),
                    in = r.count(Severity::kInfo), h = r.count(Severity::kHint);
  totals_.add(r, options_.fail_on, run);
  const bool fails = reaches(r, options_.fail_on);
  out << text::visible_text(r.uri) << ": " << (fails ? "FAIL" : "ok") << " (" << counts(e, w, in, h)
      << (r.truncated ? "; truncated" : "") << ")\n";
  // Group by (code, severity, who found it), in order of first appearance.
  std::vector<std::vector<const Issue*>> groups;
  std::map<std::tuple<std::string_view, int, int>, std::size_t> index;
  for (const Issue& i : r.issues) {
    const auto k =
        std::make_tuple(i.code, static_cast<int>(i.severity), static_cast<int>(i.found_by));
    const auto [it, inserted] = index.emplace(k, groups.size());
    if (inserted) groups.emplace_back();
    groups[it->second].push_back(&i);
  }
  for (const auto& g : groups) {
    const Issue& first = *g.front();
    out << "  " << label(first.severity) << " " << text::visible_text(first.code);
    if (options_.found_by) {
      out << " [";
      const char* sep = "";
      for (const std::string_view tool : gltf::found_by_names(first.found_by)) {
        out << sep << tool;
        sep = ", ";
      }
      out << "]";
    }
    // The code's distinct messages in order of first appearance, each with its issues.
    std::vector<std::vector<const Issue*>> messages;
    std::unordered_map<std::string_view, std::size_t> message_index;
    for (const Issue* i : g) {
      const auto [it, inserted] = message_index.emplace(i->message, messages.size());
      if (inserted) messages.emplace_back();
      messages[it->second].push_back(i);
    }
    if (messages.size() == 1) {
      out << places(g) << ": " << text::visible_text(first.message) << "\n";
      continue;
    }
    out << " x" << g.size() << ", " << messages.size() << " distinct messages:\n";
    std::size_t shown_issues = 0;
    for (std::size_t m = 0; m < messages.size() && m < kMaxMessages; ++m) {
      out << "    " << places(messages[m]).substr(1) << ": "
          << text::visible_text(messages[m].front()->message) << "\n";
      shown_issues += messages[m].size();
    }
    if (messages.size() > kMaxMessages) {
      out << "    ... " << messages.size() - kMaxMessages << " more distinct messages ("
          << g.size() - shown_issues << " issues) not listed here: the first " << kMaxMessages
          << " are; --format json lists every issue\n";
    }
  }
}

}  // namespace

void ValidationTotals::add(const ValidationReport& report, Severity fail_on, const AssetRun& run) {
  ++assets;
  failing += reaches(report, fail_on) ? 1 : 0;
  truncated += report.truncated ? 1 : 0;
  for (const Issue& i : report.issues) ++issues[static_cast<std::size_t>(i.severity) & 3];
  if (run.seconds) {
    seconds += *run.seconds;
  } else {
    timed = false;
  }
}

std::string ValidationTotals::line() const {
  return std::to_string(assets) + (assets == 1 ? " asset, " : " assets, ") +
         std::to_string(failing) + " failed; " + counts(issues[0], issues[1], issues[2], issues[3]);
}

std::string_view fail_on_name(Severity s) { return validator::severity_word(s); }

std::unique_ptr<ValidationStreamWriter> make_validation_text_writer(std::ostream& out,
                                                                    const ValidationWriteOptions& options) {
  return std::make_unique<TextStreamWriter>(out, options);
}

void write_validation_text(std::ostream& out, std::span<const ValidationReport> reports,
                           const ValidationWriteOptions& options) {
  TextStreamWriter w(out, options);
  for (const ValidationReport& r : reports) w.asset(r);
  w.end();
}

bool reaches(const ValidationReport& report, Severity fail_on) {
  for (const Issue& i : report.issues) {
    if (static_cast<int>(i.severity) <= static_cast<int>(fail_on)) return true;
  }
  return false;
}

void write_validation(std::ostream& out, ValidationFormat format,
                      std::span<const ValidationReport> reports,
                      const ValidationWriteOptions& options) {
  switch (format) {
    case ValidationFormat::kText: write_validation_text(out, reports, options); break;
    case ValidationFormat::kJson: write_validation_json(out, reports, options); break;
    case ValidationFormat::kJunit: write_validation_junit(out, reports, options); break;
    case ValidationFormat::kSarif: write_validation_sarif(out, reports, options); break;
    case ValidationFormat::kMarkdown:
    case ValidationFormat::kGithub: {
      const auto w = make_validation_writer(out, format, options);
      for (const ValidationReport& r : reports) w->asset(r);
      w->end();
      break;
    }
  }
}

}  // namespace gltf_anim::reports

// Conformance report writers: text, json, md, junit (html: compare_html.cpp).
#include <gltf_anim/reports/compare_report.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include <gltf_anim/text/escape.hpp>
#include <gltf_anim/text/words.hpp>

#include "compare_internal.hpp"

namespace gltf_anim::reports {

using namespace compare;
using samples::format_double;
using text::md_escape;
using text::short_number;
using text::visible_text;
using text::xml_escape;

std::string summary_line(const OutcomeCounts& n) {
  std::string line = std::to_string(n.passed) + " passed, " + std::to_string(n.failed) + " failed";
  if (n.not_run) line += ", " + std::to_string(n.not_run) + " not run";
  if (n.excluded) line += ", " + std::to_string(n.excluded) + " excluded";
  if (n.nothing_compared)
    line += ", " + std::to_string(n.nothing_compared) + " with nothing to compare";
  return line;
}
std::string summary_line(const CompareReport& r) {
  return summary_line(
      OutcomeCounts{r.passed(), r.failed(), r.not_run(), r.excluded(), r.nothing_compared()});
}

namespace detail {

std::string values_text(std::span<const double> values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) out += ", ";
    out += short_number(values[i], kValueDigits);
  }
  return out;
}

const char* outcome_word(CaseOutcome o) {
  switch (o) {
    case CaseOutcome::kPassed: return "passed";
    case CaseOutcome::kFailed: return "failed";
    case CaseOutcome::kNothingCompared: return "nothing compared";
    case CaseOutcome::kNotRun: return "not run";
    case CaseOutcome::kExcluded: return "excluded";
  }
  return "";
}

namespace {
// "(t = 1, 2, 3.5)" or "(t = 1, 2, 3.5, ...)" when more than listed.
std::string times_text(const std::vector<double>& listed, std::size_t total) {
  std::string out = "(t = " + values_text(listed);
  if (total > listed.size()) out += ", ...";
  return out + ")";
}
}  // namespace

std::string alternative_sentence(const AlternativeMatch& m) {
  std::string out =
      std::string("your values match ") + (m.allowed ? "variant \"" : "known divergence \"") +
      m.name + "\" at " +
      (m.times == 1 ? "its only time " : "all " + std::to_string(m.times) + " of its times ") +
      times_text(m.first_times, m.times);
  if (m.allowed)
    out += ", a reading the specs allow";
  else if (!m.breaks.empty()) {
    // The description's sentence, without its full stop: the line goes on.
    std::string_view breaks = m.breaks;
    if (breaks.ends_with('.')) breaks.remove_suffix(1);
    out += "; it ";
    out += breaks;
  }
  if (m.other_failing == 0) {
    out += "; no other sample fails";
  } else {
    out += "; " + std::to_string(m.other_failing) +
           (m.other_failing == 1 ? " other sample fails " : " other samples fail ") +
           times_text(m.first_other_times, m.other_failing);
  }
  return out;
}

std::string scope_text(const CompareReport& r) {
  std::string out;
  if (!r.selection.empty()) {
    out += "cases: ";
    for (std::size_t i = 0; i < r.selection.size(); ++i) out += (i ? "," : "") + r.selection[i];
  }
  if (r.extensions) {
    if (!out.empty()) out += "; ";
    out += "extensions: ";
    if (r.extensions->empty()) out += "none";
    for (std::size_t i = 0; i < r.extensions->size(); ++i)
      out += (i ? "," : "") + (*r.extensions)[i];
  }
  return out;
}

}  // namespace detail

using detail::alternative_sentence;
using detail::outcome_word;
using detail::scope_text;
using detail::values_text;
using text::json_string;

namespace {

// "max 0.5 at t=1 (animation 0 /nodes/0/translation), mean 0.1" with a unit.
std::string describe(const ErrorStats& s, const char* unit) {
  if (s.samples == 0) return "";
  if (s.max == 0) return "max 0" + std::string(unit) + " (all " + std::to_string(s.samples) + " samples exact)";
  return "max " + short_number(s.max) + unit + " at t=" + short_number(s.worst_t, 6) +
         " (animation " + std::to_string(s.worst_animation) + " " + text::visible_text(s.worst_target) +
         "), mean " + short_number(s.mean) + unit;
}

std::string json_number(double v) {
  return std::isfinite(v) ? format_double(v) : std::string("null");
}

void json_stats(std::ostream& out, const ErrorStats& s) {
  if (s.samples == 0) {
    out << "null";
    return;
  }
  out << "{\"samples\": " << s.samples << ", \"max\": " << json_number(s.max)
      << ", \"mean\": " << json_number(s.mean) << ", \"worstT\": " << json_number(s.worst_t)
      << ", \"worstAnimation\": " << s.worst_animation
      << ", \"worstTarget\": " << text::json_string(s.worst_target) << "}";
}

void json_strings(std::ostream& out, const std::vector<std::string>& v) {
  out << "[";
  for (std::size_t i = 0; i < v.size(); ++i) out << (i ? ", " : "") << text::json_string(v[i]);
  out << "]";
}

void json_numbers(std::ostream& out, std::span<const double> v) {
  out << "[";
  for (std::size_t i = 0; i < v.size(); ++i) out << (i ? ", " : "") << json_number(v[i]);
  out << "]";
}

// A failing channel's "worstSamples" and "alternatives" members.
void json_diagnosis(std::ostream& out, const ChannelResult& ch) {
  out << ", \"worstSamples\": [";
  for (std::size_t i = 0; i < ch.worst.size(); ++i) {
    const WorstSample& w = ch.worst[i];
    out << (i ? ", " : "") << "{\"t\": " << json_number(w.t) << ", \"golden\": ";
    json_numbers(out, w.golden);
    out << ", \"actual\": ";
    json_numbers(out, w.actual);
    out << ", \"error\": " << json_number(w.error) << "}";
  }
  out << "], \"alternatives\": [";
  for (std::size_t i = 0; i < ch.alternatives.size(); ++i) {
    const AlternativeMatch& m = ch.alternatives[i];
    out << (i ? ", " : "") << "{\"name\": " << json_string(m.name) << ", \"kind\": \""
        << (m.allowed ? "variant" : "knownDivergence") << "\", \"times\": " << m.times
        << ", \"firstTimes\": ";
    json_numbers(out, m.first_times);
    out << ", \"otherFailing\": " << m.other_failing << ", \"firstOtherTimes\": ";
    json_numbers(out, m.first_other_times);
    out << ", \"description\": " << json_string(m.description)
        << ", \"breaks\": " << json_string(m.breaks)
        << ", \"sentence\": " << json_string(alternative_sentence(m)) << "}";
  }
  out << "]";
}

std::string joined(const std::vector<std::string>& v, std::string (*esc)(std::string_view)) {
  std::string out;
  for (const auto& s : v) {
    if (!out.empty()) out += ", ";
    out += esc(s);
  }
  return out;
}

std::string max_cell(const CaseResult& c) {
  std::string out;
  if (c.absolute.samples) out = short_number(c.absolute.max);
  if (c.angle.samples) out += (out.empty() ? "" : "; ") + short_number(c.angle.max) + " rad";
  return out.empty() ? "-" : out;
}

std::string mean_cell(const CaseResult& c) {
  std::string out;
  if (c.absolute.samples) out = short_number(c.absolute.mean);
  if (c.angle.samples) out += (out.empty() ? "" : "; ") + short_number(c.angle.mean) + " rad";
  return out.empty() ? "-" : out;
}

// The worst sample relative to its tolerance, for the "worst at" columns.
const ErrorStats* worst_of(const CaseResult& c) {
  if (!c.absolute.samples && !c.angle.samples) return nullptr;
  if (!c.angle.samples) return &c.absolute;
  if (!c.absolute.samples) return &c.angle;
  const double ra = c.tolerances.absolute > 0 ? c.absolute.max / c.tolerances.absolute
                                              : c.absolute.max;
  const double rg = c.tolerances.angle > 0 ? c.angle.max / c.tolerances.angle : c.angle.max;
  return rg > ra ? &c.angle : &c.absolute;
}

std::string channel_line(const ChannelResult& ch) {
  return "animation " + std::to_string(ch.animation) + " " + ch.target + ": " + ch.problem;
}

// A worst-samples table as rows of plain cells: t, golden, actual, error.
std::vector<std::array<std::string, 4>> worst_rows(const ChannelResult& ch) {
  std::vector<std::array<std::string, 4>> rows;
  for (const auto& w : ch.worst) {
    rows.push_back({short_number(w.t, detail::kValueDigits), values_text(w.golden),
                    values_text(w.actual),
                    short_number(w.error) + (ch.measure == ErrorMeasure::kAngle ? " rad" : "")});
  }
  return rows;
}
constexpr std::array<const char*, 4> kWorstHeader = {"t", "golden", "actual", "error"};

// The table in aligned columns, each line starting with `indent`.
std::string worst_table_text(const ChannelResult& ch, const std::string& indent) {
  const auto rows = worst_rows(ch);
  if (rows.empty()) return "";
  std::array<std::size_t, 4> width{};
  for (std::size_t k = 0; k < 4; ++k) width[k] = std::string_view(kWorstHeader[k]).size();
  for (const auto& row : rows) {
    for (std::size_t k = 0; k < 4; ++k) width[k] = std::max(width[k], row[k].size());
  }
  std::string out;
  const auto line = [&](const auto& cells) {
    std::string l = indent;
    for (std::size_t k = 0; k < 4; ++k) {
      const std::string_view cell = cells[k];
      l += cell;
      if (k < 3) l += std::string(width[k] - cell.size() + 2, ' ');
    }
    out += l + "\n";
  };
  out += indent + "worst samples:\n";
  line(kWorstHeader);
  for (const auto& row : rows) line(row);
  return out;
}

// The text report's result column: "PASS  id", "NOT RUN  id".
std::string text_word(CaseOutcome o) {
  std::string word;
  switch (o) {
    case CaseOutcome::kPassed: word = "PASS"; break;
    case CaseOutcome::kFailed: word = "FAIL"; break;
    case CaseOutcome::kNothingCompared: word = "NONE"; break;
    case CaseOutcome::kNotRun: word = "NOT RUN"; break;
    case CaseOutcome::kExcluded: word = "EXCLUDED"; break;
  }
  return word + "  ";
}

}  // namespace

void write_compare_text(std::ostream& out, const CompareReport& r) {
  out << "gltf-anim compare\ngolden: " << visible_text(r.golden)
      << "\nactual: " << visible_text(r.actual) << "\n";
  if (const std::string scope = scope_text(r); !scope.empty()) out << visible_text(scope) << "\n";
  out << "\n";
  for (const CaseResult* cp : failures_first(r)) {
    const CaseResult& c = *cp;
    out << text_word(c.outcome) << visible_text(c.id);
    std::string stats;
    if (c.absolute.samples) {
      stats += "  " + describe(c.absolute, "") + " (tolerance " +
               short_number(c.tolerances.absolute) + ")";
    }
    if (c.angle.samples) {
      stats += "  " + describe(c.angle, " rad") + " (tolerance " +
               short_number(c.tolerances.angle) + " rad)";
    }
    out << stats << "\n";
    if (!c.problem.empty()) out << "      " << text::visible_text(c.problem) << "\n";
    for (const auto& ch : c.channels) {
      if (ch.passed) continue;
      out << "      " << visible_text(channel_line(ch)) << "\n";
      for (const auto& m : ch.alternatives)
        out << "        " << visible_text(alternative_sentence(m)) << "\n";
      out << worst_table_text(ch, "        ");
    }
    if (c.failed()) {
      if (!c.features.empty()) out << "      features: " << joined(c.features, visible_text) << "\n";
      if (!c.clauses.empty()) out << "      clauses: " << joined(c.clauses, visible_text) << "\n";
      if (!c.notes.empty()) out << "      notes: " << text::visible_text(c.notes) << "\n";
    }
    for (const auto& w : c.warnings) out << "      warning: " << text::visible_text(w) << "\n";
  }
  for (const auto& w : r.warnings) out << "warning: " << text::visible_text(w) << "\n";
  out << "\n" << summary_line(r) << "\n";
}

void write_compare_json(std::ostream& out, const CompareReport& r) {
  out << "{\n  \"generator\": " << json_string(r.generator)
      << ",\n  \"golden\": " << json_string(r.golden)
      << ",\n  \"actual\": " << json_string(r.actual)
      << ",\n  \"summary\": {\"cases\": " << r.cases.size() << ", \"passed\": " << r.passed()
      << ", \"failed\": " << r.failed() << ", \"notRun\": " << r.not_run()
      << ", \"excluded\": " << r.excluded() << ", \"nothingCompared\": " << r.nothing_compared()
      << "},\n  \"selection\": ";
  json_strings(out, r.selection);
  out << ",\n  \"extensions\": ";
  if (r.extensions)
    json_strings(out, *r.extensions);
  else
    out << "null";
  out << ",\n  \"cases\": [";
  for (std::size_t i = 0; i < r.cases.size(); ++i) {
    const CaseResult& c = r.cases[i];
    out << (i ? ",\n" : "\n") << "    {\n      \"id\": " << text::json_string(c.id)
        << ",\n      \"asset\": " << text::json_string(c.asset)
        << ",\n      \"golden\": " << text::json_string(c.golden_file)
        << ",\n      \"actual\": " << text::json_string(c.actual_file)
        << ",\n      \"passed\": " << (c.passed() ? "true" : "false") << ",\n      \"outcome\": \""
        << outcome_word(c.outcome) << '"' << ",\n      \"problem\": " << json_string(c.problem)
        << ",\n      \"matchedVariant\": " << text::json_string(c.matched_variant)
        << ",\n      \"matchedDivergence\": " << text::json_string(c.matched_divergence)
        << ",\n      \"features\": ";
    json_strings(out, c.features);
    out << ",\n      \"clauses\": ";
    json_strings(out, c.clauses);
    out << ",\n      \"notes\": " << text::json_string(c.notes)
        << ",\n      \"tolerance\": " << json_number(c.tolerances.absolute)
        << ",\n      \"angleTolerance\": " << json_number(c.tolerances.angle)
        << ",\n      \"absolute\": ";
    json_stats(out, c.absolute);
    out << ",\n      \"angle\": ";
    json_stats(out, c.angle);
    out << ",\n      \"channels\": [";
    for (std::size_t k = 0; k < c.channels.size(); ++k) {
      const ChannelResult& ch = c.channels[k];
      out << (k ? ",\n" : "\n") << "        {\"animation\": " << ch.animation
          << ", \"channel\": " << ch.channel << ", \"target\": " << json_string(ch.target)
          << ", \"interpolation\": " << text::json_string(ch.interpolation) << ", \"measure\": \""
          << (ch.measure == ErrorMeasure::kAngle ? "angle" : "absolute")
          << "\", \"tolerance\": " << json_number(ch.tolerance)
          << ", \"passed\": " << (ch.passed ? "true" : "false")
          << ", \"missing\": " << (ch.missing ? "true" : "false") << ", \"width\": " << ch.width
          << ", \"actualWidth\": " << ch.actual_width
          << ", \"goldenSamples\": " << ch.golden_samples << ", \"compared\": " << ch.compared
          << ", \"overTolerance\": " << ch.over_tolerance
          << ", \"missingSamples\": " << ch.missing_samples
          << ", \"extraSamples\": " << ch.extra_samples
          << ", \"max\": " << (ch.compared ? json_number(ch.stats.max) : "null")
          << ", \"mean\": " << (ch.compared ? json_number(ch.stats.mean) : "null")
          << ", \"worstT\": " << (ch.compared ? json_number(ch.stats.worst_t) : "null")
          << ", \"problem\": " << json_string(ch.problem);
      json_diagnosis(out, ch);
      out << "}";
    }
    out << (c.channels.empty() ? "]" : "\n      ]") << ",\n      \"warnings\": ";
    json_strings(out, c.warnings);
    out << "\n    }";
  }
  out << (r.cases.empty() ? "]" : "\n  ]") << ",\n  \"warnings\": ";
  json_strings(out, r.warnings);
  out << ",\n  \"summaryLine\": " << text::json_string(summary_line(r)) << "\n}\n";
}

void write_compare_markdown(std::ostream& out, const CompareReport& r) {
  out << "## glTF animation conformance: " << summary_line(r) << "\n\n"
      << "Golden " << text::md_escape(r.golden) << ", actual " << text::md_escape(r.actual) << " ("
      << md_escape(r.generator) << ").";
  if (const std::string scope = scope_text(r); !scope.empty())
    out << " Scope: " << md_escape(scope) << ".";
  out << "\n\n"
      << "| Result | Case | Max error | Mean error | Worst at | Features | Clauses |\n"
      << "|---|---|---|---|---|---|---|\n";
  const std::vector<const CaseResult*> order = failures_first(r);
  for (const CaseResult* cp : order) {
    const CaseResult& c = *cp;
    const ErrorStats* w = worst_of(c);
    std::string worst = "-";
    if (w && w->max > 0) {
      worst = "t\\=" + short_number(w->worst_t, 6) + ", animation " +
              std::to_string(w->worst_animation) + " " + text::md_escape(w->worst_target);
    }
    const char* result = c.passed()                            ? "✅ pass"
                         : c.failed()                          ? "❌ **fail**"
                         : c.outcome == CaseOutcome::kNotRun   ? "⏸️ not run"
                         : c.outcome == CaseOutcome::kExcluded ? "➖ excluded"
                                                               : "⚪ nothing compared";
    out << "| " << result << " | " << md_escape(c.id) << " | " << max_cell(c) << " | "
        << mean_cell(c) << " | " << worst << " | "
        << (c.features.empty() ? "-" : joined(c.features, md_escape)) << " | "
        << (c.clauses.empty() ? "-" : joined(c.clauses, md_escape)) << " |\n";
  }
  bool header = false;
  for (const CaseResult* cp : order) {
    const CaseResult& c = *cp;
    if (!c.failed()) continue;
    if (!header) {
      out << "\n### Failures\n";
      header = true;
    }
    out << "\n#### " << text::md_escape(c.id) << "\n\n";
    out << "Tolerance " << short_number(c.tolerances.absolute) << ", angle tolerance "
        << short_number(c.tolerances.angle) << " rad.";
    if (!c.golden_file.empty()) out << " Golden " << text::md_escape(c.golden_file) << ".";
    if (!c.actual_file.empty()) out << " Actual " << text::md_escape(c.actual_file) << ".";
    out << "\n\n";
    if (!c.problem.empty()) out << "- " << text::md_escape(c.problem) << "\n";
    for (const auto& ch : c.channels) {
      if (ch.passed) continue;
      out << "- " << md_escape(channel_line(ch)) << "\n";
      for (const auto& m : ch.alternatives)
        out << "  - " << md_escape(alternative_sentence(m)) << "\n";
    }
    if (!c.notes.empty()) out << "- notes: " << text::md_escape(c.notes) << "\n";
    for (const auto& ch : c.channels) {
      const auto rows = worst_rows(ch);
      if (ch.passed || rows.empty()) continue;
      out << "\nWorst samples of animation " << ch.animation << " " << md_escape(ch.target)
          << ":\n\n"
          << "| t | golden | actual | error |\n|---|---|---|---|\n";
      for (const auto& row : rows) {
        out << "| " << md_escape(row[0]) << " | " << md_escape(row[1]) << " | " << md_escape(row[2])
            << " | " << md_escape(row[3]) << " |\n";
      }
    }
  }
  // Why a case was not compared, one line each.
  for (const CaseOutcome o : {CaseOutcome::kNotRun, CaseOutcome::kExcluded}) {
    bool any = false;
    for (const CaseResult* cp : order) {
      if (cp->outcome != o) continue;
      if (!any) out << "\n### " << (o == CaseOutcome::kNotRun ? "Not run" : "Excluded") << "\n\n";
      any = true;
      out << "- " << md_escape(cp->id) << ": " << md_escape(cp->problem) << "\n";
    }
  }
  bool warn_header = false;
  auto warn = [&](const std::string& prefix, const std::string& w) {
    if (!warn_header) {
      out << "\n### Warnings\n\n";
      warn_header = true;
    }
    out << "- " << prefix << text::md_escape(w) << "\n";
  };
  for (const auto& c : r.cases) {
    for (const auto& w : c.warnings) warn(text::md_escape(c.id) + ": ", w);
  }
  for (const auto& w : r.warnings) warn("", w);
  out << "\n" << summary_line(r) << "\n";
}

void write_compare_junit(std::ostream& out, const CompareReport& r) {
  const std::string n = std::to_string(r.cases.size());
  const std::string f = std::to_string(r.failed());
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"gltf-anim compare\" tests=\"" << n << "\" failures=\"" << f
      << "\" errors=\"0\">\n"
      << "  <testsuite name=\"conformance\" tests=\"" << n << "\" failures=\"" << f
      << "\" errors=\"0\" skipped=\"" << r.nothing_compared() + r.not_run() + r.excluded()
      << "\">\n"
      << "    <properties>\n"
      << "      <property name=\"generator\" value=\"" << text::xml_escape(r.generator) << "\"/>\n"
      << "      <property name=\"golden\" value=\"" << text::xml_escape(r.golden) << "\"/>\n"
      << "      <property name=\"actual\" value=\"" << text::xml_escape(r.actual) << "\"/>\n"
      << "    </properties>\n";
  for (const auto& c : r.cases) {
    out << "    <testcase classname=\"conformance\" name=\"" << text::xml_escape(c.id) << "\">\n";
    if (c.outcome == CaseOutcome::kNothingCompared) {
      out << "      <skipped message=\"" << text::xml_escape(c.problem) << "\"/>\n";
    } else if (c.outcome == CaseOutcome::kNotRun || c.outcome == CaseOutcome::kExcluded) {
      out << "      <skipped message=\"" << outcome_word(c.outcome) << ": " << xml_escape(c.problem)
          << "\"/>\n";
    }
    if (c.failed()) {
      std::string message = c.problem;
      if (message.empty()) {
        for (const auto& ch : c.channels) {
          if (!ch.passed) {
            message = channel_line(ch);
            if (!ch.alternatives.empty())
              message += "; " + alternative_sentence(ch.alternatives.front());
            break;
          }
        }
      }
      std::string body;
      if (!c.problem.empty()) body += c.problem + "\n";
      for (const auto& ch : c.channels) {
        if (ch.passed) continue;
        body += channel_line(ch) + "\n";
        for (const auto& m : ch.alternatives) body += "  " + alternative_sentence(m) + "\n";
        body += worst_table_text(ch, "  ");
      }
      body += "tolerance " + short_number(c.tolerances.absolute) + ", angle tolerance " +
              short_number(c.tolerances.angle) + " rad\n";
      if (!c.features.empty()) body += "features: " + joined(c.features, visible_text) + "\n";
      if (!c.clauses.empty()) body += "clauses: " + joined(c.clauses, visible_text) + "\n";
      if (!c.notes.empty()) body += "notes: " + c.notes + "\n";
      out << "      <failure message=\"" << text::xml_escape(message) << "\" type=\"conformance\">"
          << text::xml_escape(body, false) << "</failure>\n";
    }
    std::string sys;
    if (c.absolute.samples) sys += "absolute: " + describe(c.absolute, "") + "\n";
    if (c.angle.samples) sys += "angle: " + describe(c.angle, " rad") + "\n";
    for (const auto& w : c.warnings) sys += "warning: " + w + "\n";
    if (!sys.empty()) out << "      <system-out>" << text::xml_escape(sys, false) << "</system-out>\n";
    out << "    </testcase>\n";
  }
  std::string sys;
  for (const auto& w : r.warnings) sys += "warning: " + w + "\n";
  out << "    <system-out>\n"
      << xml_escape(sys, false) << summary_line(r) << "\n</system-out>\n"
      << "  </testsuite>\n</testsuites>\n";
}

bool write_compare_report(std::ostream& out, const CompareReport& report, std::string_view format) {
  if (format == "text") write_compare_text(out, report);
  else if (format == "json") write_compare_json(out, report);
  else if (format == "md") write_compare_markdown(out, report);
  else if (format == "junit") write_compare_junit(out, report);
  else if (format == "html") write_compare_html(out, report);
  else return false;
  return true;
}

}  // namespace gltf_anim::reports

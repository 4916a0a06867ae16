// Conformance report writers: text, json, md, junit (html: compare_html.cpp).
#include <gltf_anim/reports/compare_report.hpp>

#include <cmath>
#include <ostream>

#include <gltf_anim/text/escape.hpp>
#include <gltf_anim/text/words.hpp>

namespace gltf_anim::reports {

using namespace compare;
using samples::format_double;
using text::json_string;
using text::md_escape;
using text::short_number;
using text::visible_text;
using text::xml_escape;

std::string summary_line(std::size_t passed, std::size_t failed, std::size_t nothing_compared) {
  std::string line = std::to_string(passed) + " passed, " + std::to_string(failed) + " failed";
  if (nothing_compared) line += ", " + std::to_string(nothing_compared) + " with nothing to compare";
  return line;
}
std::string summary_line(const CompareReport& r) {
  return summary_line(r.passed(), r.failed(), r.nothing_compared());
}


namespace {

// Result words per outcome, one place for every writer.
const char* outcome_word(CaseOutcome o) {
  switch (o) {
    case CaseOutcome::kPassed: return "passed";
    case CaseOutcome::kFailed: return "failed";
    case CaseOutcome::kNothingCompared: return "nothing compared";
  }
  return "";
}

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

}  // namespace

void write_compare_text(std::ostream& out, const CompareReport& r) {
  out << "gltf-anim compare\ngolden: " << text::visible_text(r.golden) << "\nactual: "
      << text::visible_text(r.actual) << "\n\n";
  for (const auto& c : r.cases) {
    out << (c.passed() ? "PASS  " : c.failed() ? "FAIL  " : "NONE  ") << text::visible_text(c.id);
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
      if (!ch.passed) out << "      " << text::visible_text(channel_line(ch)) << "\n";
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
  out << "{\n  \"generator\": " << text::json_string(r.generator) << ",\n  \"golden\": "
      << text::json_string(r.golden) << ",\n  \"actual\": " << text::json_string(r.actual)
      << ",\n  \"summary\": {\"cases\": " << r.cases.size() << ", \"passed\": " << r.passed()
      << ", \"failed\": " << r.failed() << ", \"nothingCompared\": " << r.nothing_compared()
      << "},\n  \"cases\": [";
  for (std::size_t i = 0; i < r.cases.size(); ++i) {
    const CaseResult& c = r.cases[i];
    out << (i ? ",\n" : "\n") << "    {\n      \"id\": " << text::json_string(c.id)
        << ",\n      \"asset\": " << text::json_string(c.asset)
        << ",\n      \"golden\": " << text::json_string(c.golden_file)
        << ",\n      \"actual\": " << text::json_string(c.actual_file)
        << ",\n      \"passed\": " << (c.passed() ? "true" : "false")
        << ",\n      \"outcome\": \"" << outcome_word(c.outcome) << '"'
        << ",\n      \"problem\": " << text::json_string(c.problem)
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
          << ", \"target\": " << text::json_string(ch.target)
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
          << ", \"problem\": " << text::json_string(ch.problem) << "}";
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
      << text::md_escape(r.generator) << ").\n\n"
      << "| Result | Case | Max error | Mean error | Worst at | Features | Clauses |\n"
      << "|---|---|---|---|---|---|---|\n";
  for (const auto& c : r.cases) {
    const ErrorStats* w = worst_of(c);
    std::string worst = "-";
    if (w && w->max > 0) {
      worst = "t\\=" + short_number(w->worst_t, 6) + ", animation " +
              std::to_string(w->worst_animation) + " " + text::md_escape(w->worst_target);
    }
    const char* result = c.passed() ? "✅ pass" : c.failed() ? "❌ **fail**" : "⚪ nothing compared";
    out << "| " << result << " | " << text::md_escape(c.id) << " | "
        << max_cell(c) << " | " << mean_cell(c) << " | " << worst << " | "
        << (c.features.empty() ? "-" : joined(c.features, md_escape)) << " | "
        << (c.clauses.empty() ? "-" : joined(c.clauses, md_escape)) << " |\n";
  }
  bool header = false;
  for (const auto& c : r.cases) {
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
      if (!ch.passed) out << "- " << text::md_escape(channel_line(ch)) << "\n";
    }
    if (!c.notes.empty()) out << "- notes: " << text::md_escape(c.notes) << "\n";
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
      << "\" errors=\"0\" skipped=\"" << r.nothing_compared() << "\">\n"
      << "    <properties>\n"
      << "      <property name=\"generator\" value=\"" << text::xml_escape(r.generator) << "\"/>\n"
      << "      <property name=\"golden\" value=\"" << text::xml_escape(r.golden) << "\"/>\n"
      << "      <property name=\"actual\" value=\"" << text::xml_escape(r.actual) << "\"/>\n"
      << "    </properties>\n";
  for (const auto& c : r.cases) {
    out << "    <testcase classname=\"conformance\" name=\"" << text::xml_escape(c.id) << "\">\n";
    if (c.outcome == CaseOutcome::kNothingCompared) {
      out << "      <skipped message=\"" << text::xml_escape(c.problem) << "\"/>\n";
    }
    if (c.failed()) {
      std::string message = c.problem;
      if (message.empty()) {
        for (const auto& ch : c.channels) {
          if (!ch.passed) {
            message = channel_line(ch);
            break;
          }
        }
      }
      std::string body;
      if (!c.problem.empty()) body += c.problem + "\n";
      for (const auto& ch : c.channels) {
        if (!ch.passed) body += channel_line(ch) + "\n";
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
  out << "    <system-out>\n" << text::xml_escape(sys, false) << summary_line(r) << "\n</system-out>\n"
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

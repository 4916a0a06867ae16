// Conformance report as one self-contained HTML page: inline CSS, inline SVG
// plots of the failing channels (compare_plot.hpp), a table per feature. No
// scripts, no external resources.
#include <gltf_anim/reports/compare_report.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <ostream>

#include <gltf_anim/text/escape.hpp>
#include <gltf_anim/text/words.hpp>

#include "compare_internal.hpp"
#include "compare_plot.hpp"

namespace gltf_anim::reports {

using namespace compare;
using detail::alternative_sentence;
using detail::outcome_word;
using detail::values_text;
using text::short_number;
using text::xml_escape;

namespace {

constexpr const char* kCss = R"(body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#1b1b1b;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}h3{font-size:16px;margin:18px 0 6px}
.summary{font-size:18px;font-weight:600;margin:4px 0 2px}.meta{color:#555;margin:0 0 12px;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;margin:6px 0 12px}th,td{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f5f5f5;font-weight:600}td.num{font-variant-numeric:tabular-nums;white-space:nowrap}
tr.fail td.result{color:#b00020;font-weight:700}tr.pass td.result{color:#1b7f2a;font-weight:700}tr.empty td.result{color:#777}
code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f3f3f3;padding:1px 3px;border-radius:3px;overflow-wrap:anywhere}
section.case{border:1px solid #e2c4c4;border-radius:6px;padding:8px 14px;margin:12px 0;background:#fffafa}
figure{margin:10px 0 16px}figcaption{color:#333;margin-bottom:4px}svg.plot{width:100%;max-width:820px;height:auto;background:#fff;border:1px solid #e5e5e5}
.warn{color:#7a5a00}.none{color:#777}tr.notrun td.result{color:#8a5a00;font-weight:700}tr.excluded td.result{color:#777}
nav.toc ul{margin:4px 0;padding-left:20px}nav.toc li{margin:2px 0}nav.toc a{margin-right:6px}
table.worst{width:auto}table.worst caption{text-align:left;caption-side:top;padding:2px 0}.diagnosis{color:#004a8f})";

std::string stats_cell(const ErrorStats& s, const char* unit) {
  if (s.samples == 0) return "<span class=\"none\">-</span>";
  return text::xml_escape(short_number(s.max) + unit);
}

std::string worst_cell(const CaseResult& c) {
  const ErrorStats* w = nullptr;
  if (c.absolute.samples && c.angle.samples) {
    w = c.angle.max / std::max(c.tolerances.angle, 1e-300) >
                c.absolute.max / std::max(c.tolerances.absolute, 1e-300)
            ? &c.angle
            : &c.absolute;
  } else if (c.absolute.samples) {
    w = &c.absolute;
  } else if (c.angle.samples) {
    w = &c.angle;
  }
  if (!w || w->max == 0) return "<span class=\"none\">-</span>";
  return "t = " + text::xml_escape(short_number(w->worst_t, 6)) + ", animation " +
         std::to_string(w->worst_animation) + " <code>" + text::xml_escape(w->worst_target) + "</code>";
}

std::string list_cell(const std::vector<std::string>& v) {
  if (v.empty()) return "<span class=\"none\">-</span>";
  std::string out;
  for (const auto& s : v) {
    if (!out.empty()) out += ", ";
    out += text::xml_escape(s);
  }
  return out;
}

const char* row_class(CaseOutcome o) {
  switch (o) {
    case CaseOutcome::kPassed: return "pass";
    case CaseOutcome::kFailed: return "fail";
    case CaseOutcome::kNothingCompared: return "empty";
    case CaseOutcome::kNotRun: return "notrun";
    case CaseOutcome::kExcluded: return "excluded";
  }
  return "";
}

// Each case's anchor, "case-" + its id with every byte outside [A-Za-z0-9._-]
// written as ~XX (so distinct ids give distinct anchors, and the usual ids
// stay as they are), "-2", "-3"... after a repeated id. Indexed like
// report.cases.
std::vector<std::string> case_anchors(const CompareReport& r) {
  std::vector<std::string> anchors;
  std::set<std::string> taken;
  for (const auto& c : r.cases) {
    std::string a = "case-";
    for (const unsigned char ch : c.id) {
      const bool plain = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                         (ch >= '0' && ch <= '9') || ch == '.' || ch == '-' || ch == '_';
      if (plain) {
        a += static_cast<char>(ch);
      } else {
        char hex[4];
        std::snprintf(hex, sizeof hex, "~%02X", ch);
        a += hex;
      }
    }
    std::string unique = a;
    for (std::size_t n = 2; !taken.insert(unique).second; ++n) unique = a + "-" + std::to_string(n);
    anchors.push_back(std::move(unique));
  }
  return anchors;
}

// `row_id`: the row is the case's anchor (a case without a section of its own).
void case_row(std::ostream& out, const CaseResult& c, const std::string& anchor, bool row_id,
              bool with_features) {
  const char* row = row_class(c.outcome);
  const char* result = c.passed() ? "pass" : c.failed() ? "FAIL" : outcome_word(c.outcome);
  out << "<tr class=\"" << row << "\"";
  if (row_id) out << " id=\"" << anchor << "\"";
  out << "><td class=\"result\">" << result << "</td><td>";
  if (c.failed()) {
    out << "<a href=\"#" << anchor << "\">" << xml_escape(c.id) << "</a>";
  } else {
    out << xml_escape(c.id);
  }
  if (c.outcome == CaseOutcome::kNotRun || c.outcome == CaseOutcome::kExcluded) {
    out << "<br><span class=\"none\">" << xml_escape(c.problem) << "</span>";
  }
  out << "</td><td class=\"num\">" << stats_cell(c.absolute, "") << "</td><td class=\"num\">"
      << stats_cell(c.angle, " rad") << "</td><td class=\"num\">"
      << (c.absolute.samples ? text::xml_escape(short_number(c.absolute.mean)) : "-") << " / "
      << (c.angle.samples ? text::xml_escape(short_number(c.angle.mean) + " rad") : "-")
      << "</td><td>" << worst_cell(c) << "</td>";
  if (with_features) out << "<td>" << list_cell(c.features) << "</td>";
  out << "<td>" << list_cell(c.clauses) << "</td></tr>\n";
}

// A failing channel's worst samples: t, golden, actual, error.
void write_worst_table(std::ostream& out, const ChannelResult& ch) {
  if (ch.worst.empty()) return;
  const char* unit = ch.measure == ErrorMeasure::kAngle ? " rad" : "";
  out << "<table class=\"worst\"><caption>worst samples of animation " << ch.animation << " <code>"
      << xml_escape(ch.target)
      << "</code></caption><thead><tr><th>t</th><th>golden</th><th>actual</th>"
      << "<th>error</th></tr></thead><tbody>\n";
  for (const auto& w : ch.worst) {
    out << "<tr><td class=\"num\">" << xml_escape(short_number(w.t, detail::kValueDigits))
        << "</td><td class=\"num\">" << xml_escape(values_text(w.golden))
        << "</td><td class=\"num\">" << xml_escape(values_text(w.actual))
        << "</td><td class=\"num\">" << xml_escape(short_number(w.error) + unit) << "</td></tr>\n";
  }
  out << "</tbody></table>\n";
}

// The table of contents: every case by outcome, failures first, each a link
// to its anchor (a failure's section, else its row of the cases table).
void write_contents(std::ostream& out, const CompareReport& r,
                    const std::vector<const CaseResult*>& order,
                    const std::vector<std::string>& anchors) {
  if (r.cases.empty()) return;
  out << "<nav class=\"toc\" id=\"contents\"><h2>Contents</h2>\n<ul>\n";
  for (std::size_t k = 0; k < order.size();) {
    const CaseOutcome o = order[k]->outcome;
    std::size_t end = k;
    while (end < order.size() && order[end]->outcome == o) ++end;
    out << "<li>" << outcome_word(o) << " (" << end - k << "):";
    for (; k < end; ++k) {
      out << " <a href=\"#" << anchors[static_cast<std::size_t>(order[k] - r.cases.data())] << "\">"
          << xml_escape(order[k]->id) << "</a>";
    }
    out << "</li>\n";
  }
  out << "</ul></nav>\n";
}

// At the top: per feature, how many of its cases pass, fail, are not run, or are not
// compared (excluded or nothing to compare): where an engine stands, before any detail.
void write_feature_summary(std::ostream& out, const std::map<std::string, OutcomeCounts>& counts) {
  if (counts.empty()) return;
  out << "<table id=\"feature-summary\"><caption>Cases per feature</caption><thead><tr>"
         "<th>Feature</th><th>pass</th><th>fail</th><th>not run</th><th>not compared</th>"
         "</tr></thead><tbody>\n";
  for (const auto& [feature, n] : counts) {
    const char* row = n.failed ? "fail" : n.not_run ? "notrun" : n.passed ? "pass" : "excluded";
    out << "<tr class=\"" << row << "\"><td>"
        << (feature.empty() ? std::string("(no feature listed)") : text::xml_escape(feature))
        << "</td><td class=\"num\">" << n.passed << "</td><td class=\"num\">" << n.failed
        << "</td><td class=\"num\">" << n.not_run << "</td><td class=\"num\">"
        << n.excluded + n.nothing_compared << "</td></tr>\n";
  }
  out << "</tbody></table>\n";
}

// The failing cases rolled up by cause (the roll-up the text and Markdown reports print),
// each case linked to its section.
void write_failure_causes(std::ostream& out, const CompareReport& r,
                          const std::vector<std::string>& anchors) {
  const auto causes = detail::failure_causes(r);
  if (causes.empty()) return;
  std::map<std::string, std::size_t> failed;  // a failing case's id -> its index (the first)
  for (std::size_t i = 0; i < r.cases.size(); ++i) {
    if (r.cases[i].failed()) failed.emplace(r.cases[i].id, i);
  }
  const auto link = [&](const std::string& id) {
    const auto it = failed.find(id);
    if (it == failed.end()) return xml_escape(id);
    return "<a href=\"#" + anchors[it->second] + "\">" + xml_escape(id) + "</a>";
  };
  out << "<h2 id=\"failures-by-cause\">Failures by cause</h2>\n<ul class=\"causes\">\n";
  for (const auto& cause : causes) {
    out << "<li>" << xml_escape(cause.label) << ": " << detail::cause_cases_text(cause, link)
        << "</li>\n";
  }
  out << "</ul>\n";
}

void table_head(std::ostream& out, bool with_features) {
  out << "<table><thead><tr><th>Result</th><th>Case</th><th>Max error</th><th>Max angle</th>"
         "<th>Mean error / angle</th><th>Worst at</th>"
      << (with_features ? "<th>Features</th>" : "") << "<th>Spec clauses</th></tr></thead><tbody>\n";
}

}  // namespace

void write_compare_html(std::ostream& out, const CompareReport& r) {
  const std::string summary = summary_line(r);
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<title>glTF animation conformance: " << xml_escape(summary) << "</title>\n<style>\n"
      << kCss << "\n</style>\n</head>\n<body>\n"
      << "<h1>glTF animation conformance</h1>\n"
      << "<p class=\"summary\" id=\"summary\">" << xml_escape(summary) << "</p>\n"
      << "<p class=\"meta\">Golden: <code>" << text::xml_escape(r.golden)
      << "</code><br>Actual: <code>" << xml_escape(r.actual) << "</code><br>";
  if (const std::string scope = detail::scope_text(r); !scope.empty()) {
    out << "Scope: " << xml_escape(scope) << "<br>";
  }
  out << "Generated by " << xml_escape(r.generator) << "</p>\n";
  if (const std::string advice = detail::missing_channels_advice(r); !advice.empty()) {
    out << "<p class=\"warn\" id=\"advice\">" << xml_escape(advice) << "</p>\n";
  }

  const std::vector<std::string> anchors = case_anchors(r);
  const std::vector<const CaseResult*> order = failures_first(r);
  const auto index_of = [&](const CaseResult* c) {
    return static_cast<std::size_t>(c - r.cases.data());
  };
  // The cases of each feature ("" for a case listing none), and their outcomes.
  std::map<std::string, std::vector<std::size_t>> by_feature;
  for (std::size_t i = 0; i < r.cases.size(); ++i) {
    if (r.cases[i].features.empty()) by_feature[std::string()].push_back(i);
    for (const auto& f : r.cases[i].features) by_feature[f].push_back(i);
  }
  std::map<std::string, OutcomeCounts> feature_counts;
  for (const auto& [feature, cases] : by_feature) {
    OutcomeCounts& n = feature_counts[feature];
    for (std::size_t i : cases) {
      switch (r.cases[i].outcome) {
        case CaseOutcome::kPassed: ++n.passed; break;
        case CaseOutcome::kFailed: ++n.failed; break;
        case CaseOutcome::kNotRun: ++n.not_run; break;
        case CaseOutcome::kExcluded: ++n.excluded; break;
        case CaseOutcome::kNothingCompared: ++n.nothing_compared; break;
      }
    }
  }
  write_feature_summary(out, feature_counts);
  write_contents(out, r, order, anchors);

  write_failure_causes(out, r, anchors);
  out << "<h2 id=\"failures\">Failures</h2>\n";
  if (r.failed() == 0) out << "<p class=\"none\">None.</p>\n";
  std::size_t plots_drawn = 0, plots_left_out = 0;
  for (const CaseResult* cp : order) {
    const CaseResult& c = *cp;
    if (!c.failed()) continue;
    out << "<section class=\"case\" id=\"" << anchors[index_of(cp)] << "\">\n<h3>"
        << xml_escape(c.id) << "</h3>\n<p>Golden <code>" << text::xml_escape(c.golden_file)
        << "</code>";
    if (!c.actual_file.empty()) out << ", actual <code>" << text::xml_escape(c.actual_file) << "</code>";
    out << ". Tolerance " << text::xml_escape(short_number(c.tolerances.absolute)) << ", angle tolerance "
        << text::xml_escape(short_number(c.tolerances.angle)) << " rad.</p>\n";
    if (!c.features.empty()) out << "<p>Features: " << list_cell(c.features) << ".</p>\n";
    if (!c.clauses.empty()) out << "<p>Spec clauses: " << list_cell(c.clauses) << ".</p>\n";
    if (!c.notes.empty()) out << "<p>Notes: " << text::xml_escape(c.notes) << "</p>\n";
    out << "<ul>\n";
    if (!c.problem.empty()) out << "<li>" << text::xml_escape(c.problem) << "</li>\n";
    for (const auto& ch : c.channels) {
      if (ch.passed) continue;
      out << "<li>animation " << ch.animation << " <code>" << text::xml_escape(ch.target)
          << "</code>: " << xml_escape(ch.problem);
      if (!ch.alternatives.empty()) {
        out << "<ul>";
        for (const auto& m : ch.alternatives) {
          out << "<li class=\"diagnosis\">" << xml_escape(alternative_sentence(m)) << "</li>";
        }
        out << "</ul>";
      }
      out << "</li>\n";
    }
    for (const auto& w : c.warnings) out << "<li class=\"warn\">" << text::xml_escape(w) << "</li>\n";
    out << "</ul>\n";
    for (const auto& ch : c.channels) {
      if (ch.passed) continue;
      write_worst_table(out, ch);
      if (ch.times.empty()) continue;
      if (plots_drawn == detail::kPlotMaxFigures) {
        ++plots_left_out;
        continue;
      }
      ++plots_drawn;
      detail::write_channel_figure(out, ch);
    }
    out << "</section>\n";
  }
  if (plots_left_out != 0) {
    out << "<p class=\"warn\" id=\"plots-left-out\">Plots are drawn for the first "
        << detail::kPlotMaxFigures << " failing channels; " << plots_left_out
        << " more failing channel(s) have their worst-samples table only.</p>\n";
  }
  out << "<h2>Cases</h2>\n";
  if (r.cases.empty()) out << "<p class=\"none\">No cases.</p>\n";
  else {
    out << "<div id=\"cases\">";
    table_head(out, true);
    for (const CaseResult* cp : order)
      case_row(out, *cp, anchors[index_of(cp)], !cp->failed(), true);
    out << "</tbody></table></div>\n";
  }

  // A table per feature.
  out << "<h2>By feature</h2>\n<div id=\"features\">\n";
  for (const auto& [feature, cases] : by_feature) {
    const OutcomeCounts& n = feature_counts[feature];
    out << "<h3 class=\"feature\">"
        << (feature.empty() ? std::string("(no feature listed)") : text::xml_escape(feature))
        << " &mdash; " << summary_line(n) << "</h3>\n";
    table_head(out, false);
    for (std::size_t i : cases) case_row(out, r.cases[i], anchors[i], false, false);
    out << "</tbody></table>\n";
  }
  out << "</div>\n";

  bool any_warning = !r.warnings.empty();
  if (any_warning) {
    out << "<h2>Warnings</h2>\n<ul>\n";
    for (const auto& w : r.warnings) out << "<li class=\"warn\">" << text::xml_escape(w) << "</li>\n";
    out << "</ul>\n";
  }
  out << "</body>\n</html>\n";
}

}  // namespace gltf_anim::reports

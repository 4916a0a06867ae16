// Conformance report as one self-contained HTML page: inline CSS, inline SVG
// plots (golden and actual curves per component, the error curve, the
// tolerance, keyframes), a table per feature. No scripts, no external resources.
#include <gltf_anim/reports/compare_report.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <ostream>

#include <gltf_anim/text/escape.hpp>
#include <gltf_anim/text/words.hpp>

namespace gltf_anim::reports {

using namespace compare;
using text::short_number;
using text::xml_escape;

namespace {

constexpr const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
                                   "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};
constexpr std::size_t kMaxPoints = 1500;

constexpr const char* kCss = R"(body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#1b1b1b;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}h3{font-size:16px;margin:18px 0 6px}
.summary{font-size:18px;font-weight:600;margin:4px 0 2px}.meta{color:#555;margin:0 0 12px;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;margin:6px 0 12px}th,td{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f5f5f5;font-weight:600}td.num{font-variant-numeric:tabular-nums;white-space:nowrap}
tr.fail td.result{color:#b00020;font-weight:700}tr.pass td.result{color:#1b7f2a;font-weight:700}tr.empty td.result{color:#777}
code{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f3f3f3;padding:1px 3px;border-radius:3px;overflow-wrap:anywhere}
section.case{border:1px solid #e2c4c4;border-radius:6px;padding:8px 14px;margin:12px 0;background:#fffafa}
figure{margin:10px 0 16px}figcaption{color:#333;margin-bottom:4px}svg.plot{width:100%;max-width:820px;height:auto;background:#fff;border:1px solid #e5e5e5}
.warn{color:#7a5a00}.none{color:#777})";

std::string fmt2(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::vector<std::string> component_names(const ChannelResult& ch) {
  std::vector<std::string> names;
  const std::string_view t = ch.target;
  const bool xyz = t.ends_with("/translation") || t.ends_with("/scale") ||
                   (ch.measure == ErrorMeasure::kAngle);
  const char* letters = "xyzw";
  for (std::size_t k = 0; k < ch.width; ++k) {
    if (xyz && k < 4) names.emplace_back(1, letters[k]);
    else names.push_back(std::string(t.ends_with("/weights") ? "w" : "v").append(std::to_string(k)));
  }
  return names;
}

// Indices of the samples to draw: all when few, else an even stride plus the worst.
std::vector<std::size_t> plot_indices(const ChannelResult& ch) {
  const std::size_t n = ch.times.size();
  std::vector<std::size_t> idx;
  const std::size_t stride = n <= kMaxPoints ? 1 : (n + kMaxPoints - 1) / kMaxPoints;
  std::size_t worst = 0;
  double worst_e = -1;
  for (std::size_t i = 0; i < n; ++i) {
    const double e = std::isnan(ch.errors[i]) ? std::numeric_limits<double>::infinity()
                                              : ch.errors[i];
    if (e > worst_e) {
      worst_e = e;
      worst = i;
    }
  }
  for (std::size_t i = 0; i < n; i += stride) idx.push_back(i);
  if (n && idx.back() != n - 1) idx.push_back(n - 1);
  if (n && !std::binary_search(idx.begin(), idx.end(), worst)) {
    idx.insert(std::lower_bound(idx.begin(), idx.end(), worst), worst);
  }
  return idx;
}

void write_plot(std::ostream& out, const ChannelResult& ch) {
  const std::size_t n = ch.times.size();
  const std::size_t w = ch.width;
  if (n == 0 || w == 0) return;
  // Rotations: show the actual quaternion with the golden one's sign (q and
  // -q are the same rotation; the error ignores the sign too).
  std::vector<double> actual = ch.actual;
  if (ch.measure == ErrorMeasure::kAngle) {
    for (std::size_t i = 0; i < n; ++i) {
      double dot = 0;
      for (std::size_t k = 0; k < w; ++k) dot += ch.golden[i * w + k] * actual[i * w + k];
      if (dot < 0) {
        for (std::size_t k = 0; k < w; ++k) actual[i * w + k] = -actual[i * w + k];
      }
    }
  }
  const std::vector<std::size_t> idx = plot_indices(ch);

  // Layout (SVG user units).
  constexpr double W = 820, L = 70, R = 16, VT = 34, VH = 170, ET = 236, EH = 80, H = 352;
  const double PW = W - L - R;
  double t0 = ch.times.front(), t1 = ch.times.back();
  for (double k : ch.keyframes) {
    t0 = std::min(t0, k);
    t1 = std::max(t1, k);
  }
  if (!(t1 > t0)) {
    t0 -= 0.5;
    t1 += 0.5;
  }
  double g0 = std::numeric_limits<double>::infinity(), g1 = -g0;
  for (double v : ch.golden) {
    if (std::isfinite(v)) {
      g0 = std::min(g0, v);
      g1 = std::max(g1, v);
    }
  }
  if (!(g1 >= g0)) {
    g0 = -1;
    g1 = 1;
  }
  const double gspan = std::max(g1 - g0, std::max(1e-9, 0.05 * std::max(std::fabs(g0), std::fabs(g1))));
  double v0 = g0, v1 = g1;
  for (double v : actual) {
    if (std::isfinite(v)) {
      v0 = std::min(v0, std::max(v, g0 - 2 * gspan));
      v1 = std::max(v1, std::min(v, g1 + 2 * gspan));
    }
  }
  if (!(v1 > v0)) {
    v0 -= 1;
    v1 += 1;
  }
  const double pad = 0.06 * (v1 - v0);
  v0 -= pad;
  v1 += pad;
  double emax = ch.tolerance;
  for (double e : ch.errors) {
    if (std::isfinite(e)) emax = std::max(emax, e);
  }
  if (!(emax > 0)) emax = 1;
  emax *= 1.1;

  auto X = [&](double t) { return L + (t - t0) / (t1 - t0) * PW; };
  auto Y = [&](double v) {
    const double c = std::clamp(v, v0, v1);
    return VT + VH - (c - v0) / (v1 - v0) * VH;
  };
  auto EY = [&](double e) { return ET + EH - std::clamp(e / emax, 0.0, 1.0) * EH; };

  out << "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " << W << " "
      << H << "\" width=\"" << W << "\" height=\"" << H << "\" role=\"img\" aria-label=\""
      << text::xml_escape("golden and actual values of " + ch.target + " over time, and the error")
      << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  // Panels and grid.
  out << "<rect x=\"" << L << "\" y=\"" << VT << "\" width=\"" << PW << "\" height=\"" << VH
      << "\" fill=\"#fcfcfc\" stroke=\"#ccc\"/>\n"
      << "<rect x=\"" << L << "\" y=\"" << ET << "\" width=\"" << PW << "\" height=\"" << EH
      << "\" fill=\"#fcfcfc\" stroke=\"#ccc\"/>\n";
  // Keyframes (or, when unknown, the golden sample times as ticks).
  out << "<g class=\"keyframes\" stroke=\"#999\" stroke-width=\"1\" stroke-dasharray=\"3,3\">";
  for (double k : ch.keyframes) {
    const std::string x = fmt2(X(k));
    out << "<line x1=\"" << x << "\" y1=\"" << VT << "\" x2=\"" << x << "\" y2=\"" << VT + VH
        << "\"/><line x1=\"" << x << "\" y1=\"" << ET << "\" x2=\"" << x << "\" y2=\"" << ET + EH
        << "\"/>";
  }
  out << "</g>\n<g class=\"keymarks\" fill=\"#555\">";
  if (!ch.keyframes.empty()) {
    for (double k : ch.keyframes) {
      const double x = X(k);
      out << "<path d=\"M" << fmt2(x) << " " << fmt2(VT + VH) << "l-4 7h8z\"/>";
    }
  } else {
    for (std::size_t i : idx) {
      out << "<rect x=\"" << fmt2(X(ch.times[i]) - 0.5) << "\" y=\"" << VT + VH
          << "\" width=\"1\" height=\"5\"/>";
    }
  }
  out << "</g>\n";
  // Tolerance line.
  const std::string ty = fmt2(EY(ch.tolerance));
  out << "<line class=\"tolerance\" x1=\"" << L << "\" y1=\"" << ty << "\" x2=\"" << L + PW
      << "\" y2=\"" << ty << "\" stroke=\"#d62728\" stroke-dasharray=\"6,4\"/>\n";
  // Curves: golden solid, actual dashed; gaps where a value is missing.
  auto curve = [&](const std::vector<double>& data, std::size_t k, auto&& ymap) {
    std::string d;
    bool pen = false;
    for (std::size_t i : idx) {
      const double v = data[i * w + k];
      if (!std::isfinite(v)) {
        pen = false;
        continue;
      }
      d += pen ? "L" : (d.empty() ? "M" : " M");
      d += fmt2(X(ch.times[i])) + " " + fmt2(ymap(v));
      pen = true;
    }
    return d;
  };
  for (std::size_t k = 0; k < w; ++k) {
    const char* color = kColors[k % std::size(kColors)];
    out << "<path class=\"golden\" d=\"" << curve(ch.golden, k, Y) << "\" fill=\"none\" stroke=\""
        << color << "\" stroke-width=\"2.5\" stroke-opacity=\"0.45\"/>\n";
    out << "<path class=\"actual\" d=\"" << curve(actual, k, Y) << "\" fill=\"none\" stroke=\""
        << color << "\" stroke-width=\"1.3\" stroke-dasharray=\"5,3\"/>\n";
  }
  // Error curve; missing samples as crosses at the top of the panel.
  {
    std::string d, crosses;
    bool pen = false;
    for (std::size_t i : idx) {
      const double e = ch.errors[i];
      const double x = X(ch.times[i]);
      if (std::isnan(e)) {
        crosses.append("M").append(fmt2(x - 3)).append(" ").append(fmt2(ET + 2)).append("l6 6m0 -6l-6 6");
        pen = false;
        continue;
      }
      d += pen ? "L" : (d.empty() ? "M" : " M");
      d += fmt2(x) + " " + fmt2(EY(e));
      pen = true;
    }
    out << "<path class=\"error\" d=\"" << d
        << "\" fill=\"none\" stroke=\"#222\" stroke-width=\"1.4\"/>\n";
    if (!crosses.empty()) {
      out << "<path class=\"missing\" d=\"" << crosses
          << "\" stroke=\"#d62728\" stroke-width=\"1.5\"/>\n";
    }
  }
  // Worst sample.
  if (ch.compared > 0) {
    out << "<circle class=\"worst\" cx=\"" << fmt2(X(ch.stats.worst_t)) << "\" cy=\""
        << fmt2(EY(ch.stats.max)) << "\" r=\"4\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"1.5\"/>\n";
  }
  // Labels.
  const char* unit = ch.measure == ErrorMeasure::kAngle ? " rad" : "";
  out << "<g fill=\"#333\" text-anchor=\"end\">"
      << "<text x=\"" << L - 6 << "\" y=\"" << VT + 4 << "\">" << text::xml_escape(short_number(v1, 4))
      << "</text><text x=\"" << L - 6 << "\" y=\"" << VT + VH << "\">"
      << text::xml_escape(short_number(v0, 4)) << "</text>"
      << "<text x=\"" << L - 6 << "\" y=\"" << ET + 4 << "\">" << text::xml_escape(short_number(emax, 3))
      << "</text><text x=\"" << L - 6 << "\" y=\"" << ET + EH << "\">0</text>"
      << "<text x=\"" << L + PW - 4 << "\" y=\"" << fmt2(std::max(ET + 10.0, EY(ch.tolerance) - 3))
      << "\" fill=\"#d62728\">tolerance</text>"
      << "</g>\n<g fill=\"#333\">"
      << "<text x=\"" << L << "\" y=\"" << ET + EH + 16 << "\">t = " << text::xml_escape(short_number(t0, 6))
      << "</text><text x=\"" << L + PW << "\" y=\"" << ET + EH + 16 << "\" text-anchor=\"end\">t = "
      << text::xml_escape(short_number(t1, 6)) << "</text>"
      << "<text x=\"" << L + PW / 2 << "\" y=\"" << ET + EH + 16
      << "\" text-anchor=\"middle\">time (s)</text>"
      << "<text x=\"" << L << "\" y=\"" << ET - 6 << "\">error" << unit
      << " (max " << text::xml_escape(short_number(ch.stats.max)) << ", tolerance "
      << text::xml_escape(short_number(ch.tolerance)) << ")</text></g>\n";
  // Legend.
  const auto names = component_names(ch);
  out << "<g class=\"legend\" fill=\"#333\">";
  double lx = L;
  for (std::size_t k = 0; k < w && k < 16; ++k) {
    const char* color = kColors[k % std::size(kColors)];
    out << "<line x1=\"" << fmt2(lx) << "\" y1=\"14\" x2=\"" << fmt2(lx + 18) << "\" y2=\"14\" stroke=\""
        << color << "\" stroke-width=\"2.5\" stroke-opacity=\"0.45\"/><line x1=\"" << fmt2(lx)
        << "\" y1=\"20\" x2=\"" << fmt2(lx + 18) << "\" y2=\"20\" stroke=\"" << color
        << "\" stroke-width=\"1.3\" stroke-dasharray=\"5,3\"/><text x=\"" << fmt2(lx + 22)
        << "\" y=\"21\">" << text::xml_escape(names[k]) << "</text>";
    lx += 30 + 7.0 * static_cast<double>(names[k].size());
  }
  out << "<text x=\"" << fmt2(L + PW) << "\" y=\"21\" text-anchor=\"end\">thick: golden, dashed: actual"
      << (ch.keyframes.empty() ? ", ticks: golden sample times" : ", \xE2\x96\xB2 keyframes")
      << "</text></g>\n</svg>\n";
}

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

void case_row(std::ostream& out, const CaseResult& c, std::size_t i, bool with_features) {
  const char* row = c.passed() ? "pass" : c.failed() ? "fail" : "empty";
  const char* result = c.passed() ? "pass" : c.failed() ? "FAIL" : "nothing compared";
  out << "<tr class=\"" << row << "\"><td class=\"result\">" << result << "</td><td>";
  if (c.failed()) out << "<a href=\"#case-" << i << "\">" << text::xml_escape(c.id) << "</a>";
  else out << text::xml_escape(c.id);
  out << "</td><td class=\"num\">" << stats_cell(c.absolute, "") << "</td><td class=\"num\">"
      << stats_cell(c.angle, " rad") << "</td><td class=\"num\">"
      << (c.absolute.samples ? text::xml_escape(short_number(c.absolute.mean)) : "-") << " / "
      << (c.angle.samples ? text::xml_escape(short_number(c.angle.mean) + " rad") : "-")
      << "</td><td>" << worst_cell(c) << "</td>";
  if (with_features) out << "<td>" << list_cell(c.features) << "</td>";
  out << "<td>" << list_cell(c.clauses) << "</td></tr>\n";
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
      << "<title>glTF animation conformance: " << summary << "</title>\n<style>\n"
      << kCss << "\n</style>\n</head>\n<body>\n"
      << "<h1>glTF animation conformance</h1>\n"
      << "<p class=\"summary\" id=\"summary\">" << summary << "</p>\n"
      << "<p class=\"meta\">Golden: <code>" << text::xml_escape(r.golden) << "</code><br>Actual: <code>"
      << text::xml_escape(r.actual) << "</code><br>Generated by " << text::xml_escape(r.generator) << "</p>\n";

  out << "<h2>Failures</h2>\n";
  if (r.failed() == 0) out << "<p class=\"none\">None.</p>\n";
  for (std::size_t i = 0; i < r.cases.size(); ++i) {
    const CaseResult& c = r.cases[i];
    if (!c.failed()) continue;
    out << "<section class=\"case\" id=\"case-" << i << "\">\n<h3>" << text::xml_escape(c.id)
        << "</h3>\n<p>Golden <code>" << text::xml_escape(c.golden_file) << "</code>";
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
      out << "<li>animation " << ch.animation << " <code>" << text::xml_escape(ch.target) << "</code>: "
          << text::xml_escape(ch.problem) << "</li>\n";
    }
    for (const auto& w : c.warnings) out << "<li class=\"warn\">" << text::xml_escape(w) << "</li>\n";
    out << "</ul>\n";
    for (const auto& ch : c.channels) {
      if (ch.passed || ch.times.empty()) continue;
      out << "<figure>\n<figcaption>animation " << ch.animation << " <code>"
          << text::xml_escape(ch.target) << "</code>"
          << (ch.interpolation.empty() ? "" : " (" + text::xml_escape(ch.interpolation) + ")") << ", "
          << (ch.measure == ErrorMeasure::kAngle
                  ? "error = rotation angle between golden and actual (actual drawn with the "
                    "golden quaternion's sign)"
                  : "error = largest absolute component difference")
          << "</figcaption>\n";
      write_plot(out, ch);
      out << "</figure>\n";
    }
    out << "</section>\n";
  }
  out << "<h2>Cases</h2>\n";
  if (r.cases.empty()) out << "<p class=\"none\">No cases.</p>\n";
  else {
    out << "<div id=\"cases\">";
    table_head(out, true);
    for (std::size_t i = 0; i < r.cases.size(); ++i) case_row(out, r.cases[i], i, true);
    out << "</tbody></table></div>\n";
  }

  // A table per feature.
  std::map<std::string, std::vector<std::size_t>> by_feature;
  for (std::size_t i = 0; i < r.cases.size(); ++i) {
    if (r.cases[i].features.empty()) by_feature[std::string()].push_back(i);
    for (const auto& f : r.cases[i].features) by_feature[f].push_back(i);
  }
  out << "<h2>By feature</h2>\n<div id=\"features\">\n";
  for (const auto& [feature, cases] : by_feature) {
    std::size_t pass = 0, fail = 0;
    for (std::size_t i : cases) {
      pass += r.cases[i].passed() ? 1 : 0;
      fail += r.cases[i].failed() ? 1 : 0;
    }
    out << "<h3 class=\"feature\">"
        << (feature.empty() ? std::string("(no feature listed)") : text::xml_escape(feature)) << " &mdash; "
        << summary_line(pass, fail, cases.size() - pass - fail) << "</h3>\n";
    table_head(out, false);
    for (std::size_t i : cases) case_row(out, r.cases[i], i, false);
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

// The plot of a failing channel (compare_plot.hpp). First the plan: which
// samples and components are drawn, the scales and their ticks; then one
// writer per part of the SVG (frame and grid, keyframes, curves, error
// markers, legend). Coordinates are SVG user units with one decimal.
#include "compare_plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include <gltf_anim/text/escape.hpp>
#include <gltf_anim/text/words.hpp>

namespace gltf_anim::reports::detail {

using compare::ChannelResult;
using compare::ErrorMeasure;
using text::short_number;
using text::xml_escape;

namespace {

constexpr const char* kColors[kPlotMaxComponents] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                                     "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};
constexpr const char* kFailColor = "#d62728";
constexpr std::size_t kGap = std::numeric_limits<std::size_t>::max();  // a break in a series
// Keyframes get a line across every panel up to this many (else only a mark).
constexpr std::size_t kMaxKeyframeLines = 64;

// Layout (SVG user units).
constexpr double kWidth = 820, kLeft = 66, kRight = 14, kPlotWidth = kWidth - kLeft - kRight;
constexpr double kLegendHeight = 42, kPanelGap = 26, kBottom = 40;
constexpr double kValueHeight = 160, kAngleHeight = 90, kErrorHeight = 100;

std::string px(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// ---- scales ----

// A tick label: as many decimals as the step needs ("0.5", "100", not "1e+02"),
// scientific notation for huge or tiny values.
std::string linear_label(double v, double step) {
  const double magnitude = std::max(std::fabs(v), step);
  if (!(step >= 1e-6) || magnitude >= 1e7) return short_number(v, 3);
  const int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v + 0.0);
  std::string s = buf;
  if (s.find('.') != std::string::npos) {
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
  }
  return s == "-0" ? "0" : s;
}

// A mapping of a data range onto a pixel range, with the tick values to label.
struct Axis {
  double lo = 0, hi = 1;    // data range (log: powers of ten)
  double from = 0, to = 1;  // pixels of lo and hi
  bool log = false;
  std::vector<double> ticks;  // data values
  double step = 0;            // linear: between ticks

  // Position in [0, 1] (unclamped); halves keep hi - lo finite near DBL_MAX.
  double frac(double v) const {
    if (log) return (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo));
    return (v * 0.5 - lo * 0.5) / (hi * 0.5 - lo * 0.5);
  }
  double operator()(double v) const {
    const double f = frac(v);
    return from + (std::isnan(f) ? 0.0 : std::clamp(f, 0.0, 1.0)) * (to - from);
  }
  bool inside(double v) const { return v >= lo && v <= hi; }
  std::string label(double v) const {
    if (!log) return linear_label(v, step);
    const int k = static_cast<int>(std::lround(std::log10(v)));
    if (k >= 0 && k <= 3) return "1" + std::string(static_cast<std::size_t>(k), '0');
    if (k < 0 && k >= -3) return "0." + std::string(static_cast<std::size_t>(-k - 1), '0') + "1";
    return "1e" + std::to_string(k);
  }
};

// The smallest of 1, 2, 5 or 10 times a power of ten that is at least `raw`.
double nice_step(double raw) {
  if (!(raw > 0) || !std::isfinite(raw)) return 1;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double n = raw / mag;
  return (n <= 1 ? 1 : n <= 2 ? 2 : n <= 5 ? 5 : 10) * mag;
}

// Three to seven ticks at round values inside [lo, hi]; an empty range is widened.
Axis linear_axis(double lo, double hi, double from, double to) {
  if (!(hi > lo)) {
    const double pad = std::max(1e-9, 0.05 * std::max(std::fabs(lo), std::fabs(hi)));
    lo -= pad;
    hi += pad;
  }
  const double step = nice_step(hi / 6 - lo / 6);  // at most six steps
  Axis a{lo, hi, from, to, false, {}, step};
  const double first = std::ceil(lo / step), last = std::floor(hi / step);
  if (std::isfinite(first) && std::isfinite(last) && last - first <= 12) {
    for (double k = first; k <= last; ++k) a.ticks.push_back(k * step + 0.0);  // + 0.0: no "-0"
  }
  return a;
}

// Whole decades around [lo, hi] (both > 0), at most about six labelled.
Axis log_axis(double lo, double hi, double from, double to) {
  int dlo = static_cast<int>(std::floor(std::log10(lo)));
  int dhi = static_cast<int>(std::ceil(std::log10(hi)));
  dlo = std::clamp(dlo, -300, 299);
  dhi = std::clamp(dhi, dlo + 1, 300);
  Axis a{std::pow(10.0, dlo), std::pow(10.0, dhi), from, to, true, {}, 0};
  const int every = std::max(1, (dhi - dlo + 5) / 6);
  for (int k = dhi; k >= dlo; k -= every) a.ticks.push_back(std::pow(10.0, k));
  return a;
}

// ---- what is drawn ----

struct Plan {
  explicit Plan(const ChannelResult& channel) : ch(channel) {}
  const ChannelResult& ch;
  std::size_t n = 0;                    // samples
  std::vector<double> actual;           // rotations: with the golden quaternion's sign
  std::vector<std::size_t> components;  // drawn, increasing
  std::vector<std::size_t> starts;      // decimated: first sample of each non-empty bucket
  bool step = false;                    // STEP: values held between samples
  bool rotation = false;                // an angle panel
  Axis time, value, angle, error;
  double value_top = 0, angle_top = 0, error_top = 0, height = 0;

  bool decimated() const { return !starts.empty(); }
  double golden_at(std::size_t i, std::size_t k) const { return ch.golden[i * ch.width + k]; }
  double actual_at(std::size_t i, std::size_t k) const { return actual[i * ch.width + k]; }
  std::size_t bucket_end(std::size_t b) const { return b + 1 < starts.size() ? starts[b + 1] : n; }
  double bottom() const { return error_top + kErrorHeight; }
};

// q and -q are the same rotation (the error ignores the sign too): the actual
// quaternion is drawn with the golden one's sign.
std::vector<double> actual_with_golden_sign(const ChannelResult& ch) {
  std::vector<double> actual = ch.actual;
  if (ch.measure != ErrorMeasure::kAngle) return actual;
  const std::size_t w = ch.width;
  for (std::size_t i = 0; i < ch.times.size(); ++i) {
    double dot = 0;
    for (std::size_t k = 0; k < w; ++k) dot += ch.golden[i * w + k] * actual[i * w + k];
    if (dot < 0) {
      for (std::size_t k = 0; k < w; ++k) actual[i * w + k] = -actual[i * w + k];
    }
  }
  return actual;
}

// All components, or the kPlotMaxComponents with the largest error.
std::vector<std::size_t> drawn_components(const Plan& p) {
  std::vector<std::size_t> all(p.ch.width);
  for (std::size_t k = 0; k < all.size(); ++k) all[k] = k;
  if (all.size() <= kPlotMaxComponents) return all;
  std::vector<double> worst(p.ch.width, 0.0);
  for (std::size_t i = 0; i < p.n; ++i) {
    for (std::size_t k = 0; k < p.ch.width; ++k) {
      const double d = std::fabs(p.golden_at(i, k) - p.actual_at(i, k));
      worst[k] = std::max(worst[k], std::isnan(d) ? std::numeric_limits<double>::infinity() : d);
    }
  }
  std::stable_sort(all.begin(), all.end(),
                   [&](std::size_t a, std::size_t b) { return worst[a] > worst[b]; });
  all.resize(kPlotMaxComponents);
  std::sort(all.begin(), all.end());
  return all;
}

// Long channels: kPlotBuckets buckets of equal time, each a run of samples
// (times increase).
std::vector<std::size_t> bucket_starts(const Plan& p) {
  std::vector<std::size_t> starts;
  if (p.n <= kPlotMaxSamples) return starts;
  std::size_t last = kGap;
  for (std::size_t i = 0; i < p.n; ++i) {
    const double f = std::clamp(p.time.frac(p.ch.times[i]), 0.0, 1.0);
    const auto b =
        std::min(kPlotBuckets - 1, static_cast<std::size_t>(f * static_cast<double>(kPlotBuckets)));
    if (b != last) starts.push_back(i);
    last = b;
  }
  // Times out of order (compare sorts them; the bound must not depend on it):
  // buckets of equal counts instead.
  if (starts.size() > kPlotBuckets) {
    for (std::size_t b = 0; b < kPlotBuckets; ++b) starts[b] = b * p.n / kPlotBuckets;
    starts.resize(kPlotBuckets);
  }
  return starts;
}

// Angle of rotation of a quaternion (x, y, z, w), in degrees: 2 atan2(|xyz|, |w|),
// the same for q and -q and for any length; NaN when not finite.
double rotation_degrees(const std::vector<double>& q, std::size_t i) {
  const double* v = &q[i * 4];
  const double angle = 2 * std::atan2(std::hypot(v[0], v[1], v[2]), std::fabs(v[3]));
  return std::isfinite(angle) ? angle * (180 / std::acos(-1.0))
                              : std::numeric_limits<double>::quiet_NaN();
}

Axis time_axis(const ChannelResult& ch) {
  double t0 = ch.times.front(), t1 = ch.times.back();
  for (double k : ch.keyframes) {
    if (!std::isfinite(k)) continue;
    t0 = std::min(t0, k);
    t1 = std::max(t1, k);
  }
  return linear_axis(t0, t1, kLeft, kLeft + kPlotWidth);
}

// The golden values' range, widened to actual values within two golden ranges
// of it (a wild actual value is drawn at the panel's edge), padded by 6 %.
Axis value_axis(const Plan& p, double top) {
  double g0 = std::numeric_limits<double>::infinity(), g1 = -g0;
  for (std::size_t i = 0; i < p.n; ++i) {
    for (std::size_t k : p.components) {
      if (std::isfinite(p.golden_at(i, k))) {
        g0 = std::min(g0, p.golden_at(i, k));
        g1 = std::max(g1, p.golden_at(i, k));
      }
    }
  }
  if (!(g1 >= g0)) {  // no finite golden value
    g0 = -1;
    g1 = 1;
  }
  // Half the golden range (halves stay finite); a constant golden channel lets
  // the actual values set the range.
  double span = std::max(g1 * 0.5 - g0 * 0.5, 0.025 * std::max(std::fabs(g0), std::fabs(g1)));
  if (!(span > 0)) span = std::numeric_limits<double>::infinity();
  double v0 = g0, v1 = g1;
  for (std::size_t i = 0; i < p.n; ++i) {
    for (std::size_t k : p.components) {
      const double v = p.actual_at(i, k);
      if (!std::isfinite(v)) continue;
      v0 = std::min(v0, std::max(v, g0 - 4 * span));
      v1 = std::max(v1, std::min(v, g1 + 4 * span));
    }
  }
  const double pad = 0.06 * (v1 * 0.5 - v0 * 0.5) * 2;
  const double most = std::numeric_limits<double>::max();
  return linear_axis(std::clamp(v0 - pad, -most, most), std::clamp(v1 + pad, -most, most),
                     top + kValueHeight, top);
}

Axis angle_axis(const Plan& p, double top) {
  double a0 = std::numeric_limits<double>::infinity(), a1 = -a0;
  for (const auto* q : {&p.ch.golden, &p.actual}) {
    for (std::size_t i = 0; i < p.n; ++i) {
      const double a = rotation_degrees(*q, i);
      if (!std::isfinite(a)) continue;
      a0 = std::min(a0, a);
      a1 = std::max(a1, a);
    }
  }
  if (!(a1 >= a0)) {
    a0 = 0;
    a1 = 180;
  }
  const double pad = 0.06 * (a1 - a0);
  return linear_axis(a0 - pad, a1 + pad, top + kAngleHeight, top);
}

// Errors on a log scale: from the largest (or the tolerance) down to two
// decades below the tolerance or the smallest non-zero error, at most eight
// decades; zero is drawn on the bottom edge.
Axis error_axis(const ChannelResult& ch, double top) {
  double hi = ch.tolerance, lo = std::numeric_limits<double>::infinity();
  if (ch.tolerance > 0) lo = ch.tolerance;
  for (double e : ch.errors) {
    if (!std::isfinite(e)) continue;
    hi = std::max(hi, e);
    if (e > 0) lo = std::min(lo, e);
  }
  if (!(hi > 0)) hi = 1;
  if (ch.tolerance > 0) lo = std::min(lo, ch.tolerance / 100);  // room for the passing samples
  lo = std::clamp(std::min(lo, hi / 10), hi * 1e-8, hi / 10);
  return log_axis(lo, hi, top + kErrorHeight - 5,
                  top + 5);  // inset: markers on the edges stay visible
}

Plan make_plan(const ChannelResult& ch) {
  Plan p(ch);
  p.n = ch.times.size();
  p.actual = actual_with_golden_sign(ch);
  p.components = drawn_components(p);
  p.step = ch.interpolation == "STEP";
  p.rotation = ch.measure == ErrorMeasure::kAngle && ch.width == 4;
  p.time = time_axis(ch);
  p.starts = bucket_starts(p);
  double y = kLegendHeight + 16;
  p.value_top = y;
  p.value = value_axis(p, y);
  y += kValueHeight + kPanelGap;
  if (p.rotation) {
    p.angle_top = y;
    p.angle = angle_axis(p, y);
    y += kAngleHeight + kPanelGap;
  }
  p.error_top = y;
  p.error = error_axis(ch, y);
  p.height = y + kErrorHeight + kBottom;
  return p;
}

// The samples of one series (value(i); NaN: none) in drawing order: all, or
// per bucket its smallest and largest finite value (kGap for a bucket with none).
template <class Value>
std::vector<std::size_t> series_points(const Plan& p, const Value& value) {
  std::vector<std::size_t> points;
  if (!p.decimated()) {
    points.resize(p.n);
    for (std::size_t i = 0; i < p.n; ++i) points[i] = i;
    return points;
  }
  for (std::size_t b = 0; b < p.starts.size(); ++b) {
    std::size_t lo = kGap, hi = kGap;
    for (std::size_t i = p.starts[b]; i < p.bucket_end(b); ++i) {
      const double v = value(i);
      if (!std::isfinite(v)) continue;
      if (lo == kGap || v < value(lo)) lo = i;
      if (hi == kGap || v > value(hi)) hi = i;
    }
    if (lo == kGap) {
      points.push_back(kGap);
      continue;
    }
    points.push_back(std::min(lo, hi));
    if (lo != hi) points.push_back(std::max(lo, hi));
  }
  return points;
}

// STEP holds a value until the next keyframe: the last keyframe in (t0, t1], else t1.
double jump_time(const ChannelResult& ch, double t0, double t1) {
  const auto end = std::upper_bound(ch.keyframes.begin(), ch.keyframes.end(), t1);
  if (end != ch.keyframes.begin() && *(end - 1) > t0) return *(end - 1);
  return t1;
}

// An SVG path through the series; STEP channels (not decimated) as steps.
template <class Value>
std::string series_path(const Plan& p, const Value& value, const Axis& y) {
  std::string d;
  bool pen = false;
  double last_t = 0;
  for (std::size_t i : series_points(p, value)) {
    if (i == kGap || !std::isfinite(value(i))) {
      pen = false;
      continue;
    }
    const double t = p.ch.times[i];
    const std::string xy = px(p.time(t)) + " " + px(y(value(i)));
    if (!pen) {
      d.append(d.empty() ? "M" : " M").append(xy);
    } else if (p.step && !p.decimated()) {
      const double jump = jump_time(p.ch, last_t, t);
      d.append("H").append(px(p.time(jump))).append("V").append(px(y(value(i))));
      if (jump < t) d.append("H").append(px(p.time(t)));
    } else {
      d.append("L").append(xy);
    }
    last_t = t;
    pen = true;
  }
  return d;
}

// ---- the parts of the SVG ----

void write_panel(std::ostream& out, const Plan& p, const Axis& y, double top, double height,
                 const std::string& title) {
  out << "<g class=\"panel\"><rect x=\"" << kLeft << "\" y=\"" << top << "\" width=\"" << kPlotWidth
      << "\" height=\"" << height
      << "\" fill=\"#fcfcfc\" stroke=\"#bbb\"/>\n<g class=\"grid\" stroke=\"#e6e6e6\">";
  for (double t : p.time.ticks) {
    const std::string x = px(p.time(t));
    out << "<line x1=\"" << x << "\" y1=\"" << top << "\" x2=\"" << x << "\" y2=\"" << top + height
        << "\"/>";
  }
  for (double v : y.ticks) {
    const std::string yy = px(y(v));
    out << "<line x1=\"" << kLeft << "\" y1=\"" << yy << "\" x2=\"" << kLeft + kPlotWidth
        << "\" y2=\"" << yy << "\"/>";
  }
  out << "</g>\n<g class=\"yticks\" fill=\"#333\" text-anchor=\"end\" stroke=\"#333\">";
  for (double v : y.ticks) {
    const std::string yy = px(y(v));
    out << "<line x1=\"" << kLeft - 4 << "\" y1=\"" << yy << "\" x2=\"" << kLeft << "\" y2=\"" << yy
        << "\"/><text x=\"" << kLeft - 6 << "\" y=\"" << px(y(v) + 3.5) << "\" stroke=\"none\">"
        << xml_escape(y.label(v)) << "</text>";
  }
  out << "</g>\n<text class=\"panel-title\" x=\"" << kLeft << "\" y=\"" << top - 6
      << "\" fill=\"#333\">" << xml_escape(title) << "</text></g>\n";
}

void write_time_ticks(std::ostream& out, const Plan& p) {
  const double y = p.bottom();
  out << "<g class=\"xticks\" fill=\"#333\" text-anchor=\"middle\" stroke=\"#333\">";
  for (double t : p.time.ticks) {
    const std::string x = px(p.time(t));
    // A label at the right edge ends there: the right margin is narrow.
    const bool right = p.time(t) > kLeft + kPlotWidth - 30;
    out << "<line x1=\"" << x << "\" y1=\"" << y << "\" x2=\"" << x << "\" y2=\"" << y + 4
        << "\"/><text x=\"" << x << "\" y=\"" << y + 15 << "\" stroke=\"none\""
        << (right ? " text-anchor=\"end\"" : "") << ">" << xml_escape(p.time.label(t)) << "</text>";
  }
  out << "</g>\n<text x=\"" << kLeft + kPlotWidth / 2 << "\" y=\"" << y + 32
      << "\" text-anchor=\"middle\" fill=\"#333\">time (s)</text>\n";
}

// Keyframes: a mark under the values panel each (one per half pixel), and a
// dashed line across every panel while they are few enough to read.
void write_keyframes(std::ostream& out, const Plan& p) {
  std::vector<double> xs;
  for (double k : p.ch.keyframes) {
    if (std::isfinite(k)) xs.push_back(std::round(p.time(k) * 2) / 2);
  }
  std::sort(xs.begin(), xs.end());  // compare sorts them; the bound must not depend on it
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  if (xs.empty()) return;
  if (xs.size() <= kMaxKeyframeLines) {
    out << "<g class=\"keyframes\" stroke=\"#888\" stroke-dasharray=\"3,3\">";
    std::vector<std::pair<double, double>> panels{{p.value_top, kValueHeight},
                                                  {p.error_top, kErrorHeight}};
    if (p.rotation) panels.emplace_back(p.angle_top, kAngleHeight);
    for (double x : xs) {
      for (const auto& [top, height] : panels) {
        out << "<line x1=\"" << px(x) << "\" y1=\"" << top << "\" x2=\"" << px(x) << "\" y2=\""
            << top + height << "\"/>";
      }
    }
    out << "</g>\n";
  }
  const double y = p.value_top + kValueHeight;
  out << "<path class=\"keymarks\" d=\"";
  for (double x : xs) out << "M" << px(x) << " " << y << "l-4 7h8z";
  out << "\" fill=\"#555\"/>\n";
}

void write_value_curves(std::ostream& out, const Plan& p) {
  for (std::size_t c = 0; c < p.components.size(); ++c) {
    const std::size_t k = p.components[c];
    const char* color = kColors[c];
    out << "<path class=\"golden\" d=\""
        << series_path(
               p, [&](std::size_t i) { return p.golden_at(i, k); }, p.value)
        << "\" fill=\"none\" stroke=\"" << color
        << "\" stroke-width=\"3\" stroke-opacity=\"0.4\"/>\n"
        << "<path class=\"actual\" d=\""
        << series_path(
               p, [&](std::size_t i) { return p.actual_at(i, k); }, p.value)
        << "\" fill=\"none\" stroke=\"" << color
        << "\" stroke-width=\"1.3\" stroke-dasharray=\"5,3\"/>\n";
  }
}

void write_angle_curves(std::ostream& out, const Plan& p) {
  out << "<path class=\"golden angle\" d=\""
      << series_path(
             p, [&](std::size_t i) { return rotation_degrees(p.ch.golden, i); }, p.angle)
      << "\" fill=\"none\" stroke=\"#333\" stroke-width=\"3\" stroke-opacity=\"0.35\"/>\n"
      << "<path class=\"actual angle\" d=\""
      << series_path(
             p, [&](std::size_t i) { return rotation_degrees(p.actual, i); }, p.angle)
      << "\" fill=\"none\" stroke=\"#333\" stroke-width=\"1.3\" stroke-dasharray=\"5,3\"/>\n";
}

std::string error_text(const ChannelResult& ch, double e) {
  if (std::isnan(e)) return "no actual sample";
  if (std::isinf(e)) return "actual value not finite";
  return "error " + short_number(e, 4) + (e > ch.tolerance ? " > " : " <= ") + "tolerance " +
         short_number(ch.tolerance, 4);
}

// One marker: a ring for an error over the tolerance, a triangle at the top for
// a non-finite value, a cross at the top for a missing sample, a dot otherwise
// (collected into `dots`). `title` is the marker's tooltip.
void write_marker(std::ostream& out, std::string& dots, const Plan& p, std::size_t i,
                  const std::string& title) {
  const double e = p.ch.errors[i];
  const std::string x = px(p.time(p.ch.times[i]));
  const double top = p.error_top;
  if (e <= p.ch.tolerance) {
    dots.append("M").append(x).append(" ").append(px(p.error(e))).append("h0");
    return;
  }
  if (std::isnan(e)) {
    out << "<path class=\"missing\" d=\"M" << x << " " << top + 2
        << "m-3.5 0l7 7m0 -7l-7 7\" stroke=\"" << kFailColor << "\" stroke-width=\"1.6\">";
  } else if (std::isinf(e)) {
    out << "<path class=\"fail\" d=\"M" << x << " " << top + 1 << "l-4 7h8z\" fill=\"" << kFailColor
        << "\">";
  } else {
    out << "<circle class=\"fail\" cx=\"" << x << "\" cy=\"" << px(p.error(e))
        << "\" r=\"3.2\" fill=\"none\" stroke=\"" << kFailColor << "\" stroke-width=\"1.6\">";
  }
  out << "<title>" << xml_escape(title) << "</title>"
      << (std::isnan(e) || std::isinf(e) ? "</path>" : "</circle>");
}

// The error of every sample as a marker at its time (decimated: the worst
// sample of each bucket, its tooltip counting the bucket's failures).
void write_error_markers(std::ostream& out, const Plan& p) {
  const ChannelResult& ch = p.ch;
  const double tolerance_y = p.error(std::max(ch.tolerance, p.error.lo));
  const std::string ty = px(tolerance_y);
  out << "<line class=\"tolerance\" x1=\"" << kLeft << "\" y1=\"" << ty << "\" x2=\""
      << kLeft + kPlotWidth << "\" y2=\"" << ty << "\" stroke=\"" << kFailColor
      << "\" stroke-dasharray=\"6,4\"/>\n"
      << "<text x=\"" << kLeft + kPlotWidth - 4 << "\" y=\"" << px(tolerance_y - 3)
      << "\" text-anchor=\"end\" fill=\"" << kFailColor << "\">tolerance "
      << xml_escape(short_number(ch.tolerance, 4)) << "</text>\n<g class=\"errors\">";
  std::string dots;
  const auto badness = [&](std::size_t i) {
    return std::isnan(ch.errors[i]) ? std::numeric_limits<double>::infinity() : ch.errors[i];
  };
  if (!p.decimated()) {
    for (std::size_t i = 0; i < p.n; ++i) {
      write_marker(out, dots, p, i,
                   "t = " + short_number(ch.times[i], 6) + ": " + error_text(ch, ch.errors[i]));
    }
  } else {
    for (std::size_t b = 0; b < p.starts.size(); ++b) {
      std::size_t worst = p.starts[b], over = 0, missing = 0;
      for (std::size_t i = p.starts[b]; i < p.bucket_end(b); ++i) {
        if (badness(i) > badness(worst)) worst = i;
        missing += std::isnan(ch.errors[i]) ? 1 : 0;
        over += !std::isnan(ch.errors[i]) && !(ch.errors[i] <= ch.tolerance) ? 1 : 0;
      }
      const std::size_t last = p.bucket_end(b) - 1;
      write_marker(out, dots, p, worst,
                   "t = " + short_number(ch.times[p.starts[b]], 6) + " to " +
                       short_number(ch.times[last], 6) + ": " +
                       std::to_string(last + 1 - p.starts[b]) + " samples, " +
                       std::to_string(over) + " over the tolerance, " + std::to_string(missing) +
                       " missing; worst at t = " + short_number(ch.times[worst], 6) + ": " +
                       error_text(ch, ch.errors[worst]));
    }
  }
  out << "</g>\n";
  if (!dots.empty()) {
    out << "<path class=\"pass\" d=\"" << dots
        << "\" stroke=\"#777\" stroke-width=\"3\" stroke-linecap=\"round\"/>\n";
  }
}

std::vector<std::string> component_names(const ChannelResult& ch) {
  std::vector<std::string> names;
  const std::string_view t = ch.target;
  const bool xyz =
      t.ends_with("/translation") || t.ends_with("/scale") || ch.measure == ErrorMeasure::kAngle;
  const char* letters = "xyzw";
  for (std::size_t k = 0; k < ch.width; ++k) {
    if (xyz && k < 4)
      names.emplace_back(1, letters[k]);
    else
      names.push_back(std::string(t.ends_with("/weights") ? "w" : "v").append(std::to_string(k)));
  }
  return names;
}

// Two rows: the components' colours; what each mark means.
void write_legend(std::ostream& out, const Plan& p) {
  const auto names = component_names(p.ch);
  out << "<g class=\"legend\" fill=\"#333\">";
  double x = kLeft;
  for (std::size_t c = 0; c < p.components.size(); ++c) {
    const char* color = kColors[c];
    const std::string& name = names[p.components[c]];
    out << "<line x1=\"" << px(x) << "\" y1=\"10\" x2=\"" << px(x + 18) << "\" y2=\"10\" stroke=\""
        << color << "\" stroke-width=\"3\" stroke-opacity=\"0.4\"/><line x1=\"" << px(x)
        << "\" y1=\"16\" x2=\"" << px(x + 18) << "\" y2=\"16\" stroke=\"" << color
        << "\" stroke-width=\"1.3\" stroke-dasharray=\"5,3\"/><text x=\"" << px(x + 22)
        << "\" y=\"17\">" << xml_escape(name) << "</text>";
    x += 32 + 7.0 * static_cast<double>(name.size());
  }
  out << "<text x=\"" << px(kLeft + kPlotWidth)
      << "\" y=\"17\" text-anchor=\"end\">thick: golden, dashed: actual"
      << (p.step ? " (STEP: held, as steps)" : "") << "</text>";
  const double y = 34;
  out << "<path d=\"M" << kLeft + 4 << " " << y - 8 << "l-4 7h8z\" fill=\"#555\"/><text x=\""
      << kLeft + 10 << "\" y=\"" << y << "\">keyframe</text>"
      << "<circle cx=\"" << kLeft + 74 << "\" cy=\"" << y - 4
      << "\" r=\"3.2\" fill=\"none\" stroke=\"" << kFailColor
      << "\" stroke-width=\"1.6\"/><text x=\"" << kLeft + 82 << "\" y=\"" << y
      << "\">over the tolerance</text>"
      << "<path d=\"M" << kLeft + 195 << " " << y - 7.5 << "l7 7m0 -7l-7 7\" stroke=\""
      << kFailColor << "\" stroke-width=\"1.6\"/><text x=\"" << kLeft + 208 << "\" y=\"" << y
      << "\">no actual sample</text>"
      << "<path d=\"M" << kLeft + 315 << " " << y - 4
      << "h0\" stroke=\"#777\" stroke-width=\"3\" stroke-linecap=\"round\"/>"
      << "<text x=\"" << kLeft + 322 << "\" y=\"" << y << "\">within the tolerance</text>"
      << "</g>\n";
}

void write_svg(std::ostream& out, const Plan& p) {
  out << "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " << kWidth << " "
      << p.height << "\" width=\"" << kWidth << "\" height=\"" << p.height
      << "\" role=\"img\" aria-label=\""
      << xml_escape("golden and actual values of " + p.ch.target + " over time, and the error")
      << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  write_legend(out, p);
  write_panel(out, p, p.value, p.value_top, kValueHeight, "values");
  if (p.rotation) {
    write_panel(out, p, p.angle, p.angle_top, kAngleHeight,
                "angle of rotation (degrees): golden and actual");
  }
  const bool angle = p.ch.measure == ErrorMeasure::kAngle;
  write_panel(out, p, p.error, p.error_top, kErrorHeight,
              angle ? "error: angle between golden and actual (rad, log scale)"
                    : "error: largest component difference (log scale)");
  write_time_ticks(out, p);
  write_keyframes(out, p);
  write_value_curves(out, p);
  if (p.rotation) write_angle_curves(out, p);
  write_error_markers(out, p);
  if (p.ch.compared > 0) {
    out << "<circle class=\"worst\" cx=\"" << px(p.time(p.ch.stats.worst_t)) << "\" cy=\""
        << px(p.error(p.ch.stats.max))
        << "\" r=\"6\" fill=\"none\" stroke=\"#222\" stroke-width=\"1\"/>\n";
  }
  out << "</svg>\n";
}

// What the figure shows, including what was left out.
void write_caption(std::ostream& out, const Plan& p) {
  const ChannelResult& ch = p.ch;
  out << "<figcaption>animation " << ch.animation << " <code>" << xml_escape(ch.target) << "</code>"
      << (ch.interpolation.empty() ? "" : " (" + xml_escape(ch.interpolation) + ")") << ", "
      << (ch.measure == ErrorMeasure::kAngle ? "error = rotation angle between golden and actual "
                                               "(actual drawn with the golden quaternion's sign)"
                                             : "error = largest absolute component difference");
  if (p.decimated()) {
    out << ". " << ch.times.size() << " samples drawn as " << p.starts.size()
        << " time buckets: each bucket's smallest and largest value, and its worst error";
  }
  if (p.components.size() < ch.width) {
    out << ". " << p.components.size() << " of " << ch.width
        << " components drawn (the ones with the largest error)";
  }
  if (ch.keyframes.empty()) out << ". Keyframes unknown (the golden file lists none)";
  out << ".</figcaption>\n";
}

}  // namespace

void write_channel_figure(std::ostream& out, const ChannelResult& channel) {
  if (channel.times.empty() || channel.width == 0) return;
  const Plan plan = make_plan(channel);
  out << "<figure>\n";
  write_caption(out, plan);
  write_svg(out, plan);
  out << "</figure>\n";
}

}  // namespace gltf_anim::reports::detail

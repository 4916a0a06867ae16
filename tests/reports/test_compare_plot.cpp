// The plots of the HTML compare report (reports/src/compare_plot.hpp), read
// back from the SVG: well-formed XML, steps for STEP channels, one marker per
// failing sample at its time, ticks on both axes, keyframes, the angle curve of
// rotations, and a bounded size for long or wide channels. Pixel positions are
// checked against the plot's own tick labels (a reader's only key to the
// scale), values against hand maths.
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/reports/compare_report.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "compare_plot.hpp"
#include "strict_text.hpp"

namespace gr = gltf_anim::reports;
namespace gs = gltf_anim::samples;
namespace gc = gltf_anim::compare;

namespace {

struct Sample {
  double t;
  std::vector<double> value;
};

gs::SamplesFile one_channel(const std::string& target, const std::string& interpolation,
                            std::vector<double> keyframes, const std::vector<Sample>& samples) {
  gs::SamplesFile f;
  f.asset = "plot.gltf";
  auto& c = f.animations.emplace_back().channels.emplace_back();
  c.target = target;
  c.interpolation = interpolation;
  c.keyframes = std::move(keyframes);
  for (const auto& s : samples) c.add_sample(s.t, s.value);
  return f;
}

// The figure of the first channel of golden vs actual (tolerance 1e-5).
std::string figure(const gs::SamplesFile& golden, const gs::SamplesFile& actual) {
  const gc::CaseResult c = gc::compare_samples(golden, actual, {});
  EXPECT_FALSE(c.channels.empty());
  std::ostringstream out;
  gr::detail::write_channel_figure(out, c.channels.at(0));
  return out.str();
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

// The n-th <g class="NAME"> ... </g> of the SVG (groups do not nest here).
std::string group(const std::string& svg, const std::string& name, std::size_t n = 0) {
  std::size_t p = 0;
  for (std::size_t k = 0; k <= n; ++k) {
    p = svg.find("<g class=\"" + name + "\"", k == 0 ? 0 : p + 1);
    if (p == std::string::npos) return "";
  }
  return svg.substr(p, svg.find("</g>", p) - p);
}

// Tick label -> position (x for "xticks", y for "yticks") of a tick group.
std::map<std::string, double> ticks(const std::string& g, bool x) {
  std::map<std::string, double> out;
  const std::regex tick(
      R"re(<line x1="([-0-9.]+)" y1="([-0-9.]+)"[^>]*/><text[^>]*>([^<]*)</text>)re");
  for (std::sregex_iterator it(g.begin(), g.end(), tick), end; it != end; ++it) {
    out[(*it)[3]] = std::stod((*it)[x ? 1 : 2]);
  }
  return out;
}

// Value at position `pos` by linear interpolation between two labelled ticks.
double value_at(const std::map<std::string, double>& t, double pos) {
  EXPECT_GE(t.size(), 2u);
  const auto a = t.begin(), b = std::next(a);
  const double va = std::stod(a->first), vb = std::stod(b->first);
  return va + (pos - a->second) / (b->second - a->second) * (vb - va);
}

// log10 of the value at position `pos` of a log scale, between two labelled ticks.
double log_value_at(const std::map<std::string, double>& t, double pos) {
  EXPECT_GE(t.size(), 2u);
  const auto a = t.begin(), b = std::next(a);
  const double la = std::log10(std::stod(a->first)), lb = std::log10(std::stod(b->first));
  return la + (pos - a->second) / (b->second - a->second) * (lb - la);
}

// The d attribute of each <path class="CLASS" ...>.
std::vector<std::string> paths(const std::string& svg, const std::string& cls) {
  std::vector<std::string> out;
  const std::regex path("<path class=\"" + cls + "\" d=\"([^\"]*)\"");
  for (std::sregex_iterator it(svg.begin(), svg.end(), path), end; it != end; ++it)
    out.push_back((*it)[1]);
  return out;
}

struct Command {
  char op;
  std::vector<double> args;
};
std::vector<Command> parse_path(const std::string& d) {
  std::vector<Command> out;
  std::size_t i = 0;
  while (i < d.size()) {
    if (std::isalpha(static_cast<unsigned char>(d[i]))) {
      out.push_back({d[i], {}});
      ++i;
    } else if (d[i] == ' ') {
      ++i;
    } else {
      std::size_t used = 0;
      out.back().args.push_back(std::stod(d.substr(i), &used));
      i += used;
    }
  }
  return out;
}

// (x, y) of every vertex of an M/L/H/V path.
std::vector<std::pair<double, double>> vertices(const std::string& d) {
  std::vector<std::pair<double, double>> out;
  double x = 0, y = 0;
  for (const auto& c : parse_path(d)) {
    if (c.op == 'M' || c.op == 'L')
      x = c.args.at(0), y = c.args.at(1);
    else if (c.op == 'H')
      x = c.args.at(0);
    else if (c.op == 'V')
      y = c.args.at(0);
    else
      ADD_FAILURE() << "unexpected command " << c.op;
    out.emplace_back(x, y);
  }
  return out;
}

std::string ops(const std::string& d) {
  std::string out;
  for (const auto& c : parse_path(d)) out += c.op;
  return out;
}

// STEP translation, keys (0,0,0) (1,1,1) (2,2,2) at t = 0, 1, 2, sampled every
// 0.5 s. The actual engine returns the previous key at t = 1 (error 1) and
// gives no sample at t = 1.5.
gs::SamplesFile step_golden() {
  return one_channel(
      "/nodes/0/translation", "STEP", {0, 1, 2},
      {{0, {0, 0, 0}}, {0.5, {0, 0, 0}}, {1, {1, 1, 1}}, {1.5, {1, 1, 1}}, {2, {2, 2, 2}}});
}
gs::SamplesFile step_actual() {
  return one_channel("/nodes/0/translation", "STEP", {0, 1, 2},
                     {{0, {0, 0, 0}}, {0.5, {0, 0, 0}}, {1, {0, 0, 0}}, {2, {2, 2, 2}}});
}

}  // namespace

TEST(ComparePlot, IsWellFormedXmlInsideWellFormedHtml) {
  const std::string fig = figure(step_golden(), step_actual());
  EXPECT_EQ(strict_text::xml_problem(fig), "") << fig;
  gc::CompareReport r;
  r.cases.push_back(gc::compare_samples(step_golden(), step_actual(), {}));
  std::ostringstream html;
  gr::write_compare_html(html, r);
  EXPECT_EQ(strict_text::xml_problem_own(html.str(), true), "");
  EXPECT_NE(html.str().find("<svg class=\"plot\""), std::string::npos);
}

TEST(ComparePlot, TimeAndValueAxesHaveLabelledTicks) {
  const std::string svg = figure(step_golden(), step_actual());
  // Time 0..2: round steps of 0.5 (five ticks), under the bottom panel.
  const auto x = ticks(group(svg, "xticks"), true);
  for (const char* t : {"0", "0.5", "1", "1.5", "2"}) EXPECT_EQ(x.count(t), 1u) << t;
  EXPECT_NEAR(x.at("1") - x.at("0"), x.at("2") - x.at("1"), 0.11);  // linear in time
  EXPECT_NE(svg.find(">time (s)</text>"), std::string::npos);
  // Each panel (values, error) has its own labelled value ticks.
  EXPECT_GE(ticks(group(svg, "yticks", 0), false).size(), 3u);
  EXPECT_GE(ticks(group(svg, "yticks", 1), false).size(), 2u);
  EXPECT_EQ(group(svg, "yticks", 2), "");  // no angle panel for a translation
  EXPECT_NE(svg.find("<g class=\"legend\""), std::string::npos);
}

TEST(ComparePlot, StepChannelsAreDrawnAsSteps) {
  const std::string svg = figure(step_golden(), step_actual());
  const auto x = ticks(group(svg, "xticks"), true);
  const auto y = ticks(group(svg, "yticks", 0), false);
  const auto golden = paths(svg, "golden");
  ASSERT_EQ(golden.size(), 3u);  // x, y, z
  for (const auto& d : golden) {
    // Held values: horizontal then vertical moves only, the jumps (1 and 2)
    // at the keyframes t = 1 and t = 2.
    EXPECT_EQ(ops(d), "MHVHVHVHV") << d;
    const auto v = vertices(d);
    EXPECT_NEAR(v[3].first, x.at("1"), 0.11);
    EXPECT_NEAR(value_at(y, v[3].second), 0, 0.01);
    EXPECT_NEAR(value_at(y, v[4].second), 1, 0.01);
    EXPECT_NEAR(v[7].first, x.at("2"), 0.11);
    EXPECT_NEAR(value_at(y, v[8].second), 2, 0.01);
  }
  // The actual curve breaks where its sample is missing (t = 1.5).
  for (const auto& d : paths(svg, "actual")) EXPECT_EQ(ops(d), "MHVHVM") << d;
}

TEST(ComparePlot, LinearChannelsAreDrawnAsLines) {
  auto g = step_golden(), a = step_actual();
  g.animations[0].channels[0].interpolation = "LINEAR";
  a.animations[0].channels[0].interpolation = "LINEAR";
  const std::string svg = figure(g, a);
  for (const auto& d : paths(svg, "golden")) EXPECT_EQ(ops(d), "MLLLL") << d;
}

TEST(ComparePlot, OneMarkerPerFailingSampleAtItsTime) {
  const std::string svg = figure(step_golden(), step_actual());
  const auto x = ticks(group(svg, "xticks"), true);
  const std::string errors = group(svg, "errors");
  // t = 1: error 1 over the tolerance; t = 1.5: no actual sample.
  EXPECT_EQ(count(errors, "class=\"fail\""), 1u);
  EXPECT_EQ(count(errors, "class=\"missing\""), 1u);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(
      errors, m, std::regex(R"re(<circle class="fail" cx="([-0-9.]+)" cy="([-0-9.]+)")re")));
  EXPECT_NEAR(std::stod(m[1]), x.at("1"), 0.11);
  // Its height on the log scale of the error panel: log10(1) = 0.
  EXPECT_NEAR(log_value_at(ticks(group(svg, "yticks", 1), false), std::stod(m[2])), 0, 0.01);
  EXPECT_NE(errors.find("<title>t = 1: error 1 &gt; tolerance 1e-05</title>"), std::string::npos);
  ASSERT_TRUE(
      std::regex_search(errors, m, std::regex(R"re(<path class="missing" d="M([-0-9.]+) )re")));
  EXPECT_NEAR(std::stod(m[1]), x.at("1.5"), 0.11);
  // The three samples within the tolerance are dots, not a line through the errors.
  ASSERT_EQ(paths(svg, "pass").size(), 1u);
  EXPECT_EQ(ops(paths(svg, "pass")[0]), "MhMhMh");
  EXPECT_EQ(svg.find("class=\"error\""), std::string::npos);
  EXPECT_NE(svg.find("class=\"tolerance\""), std::string::npos);
}

TEST(ComparePlot, KeyframesAreMarkedAtTheirTimes) {
  const std::string svg = figure(step_golden(), step_actual());
  const auto x = ticks(group(svg, "xticks"), true);
  const auto marks = paths(svg, "keymarks");
  ASSERT_EQ(marks.size(), 1u);
  std::vector<double> xs;
  for (const auto& c : parse_path(marks[0])) {
    if (c.op == 'M') xs.push_back(c.args.at(0));
  }
  ASSERT_EQ(xs.size(), 3u);
  EXPECT_NEAR(xs[0], x.at("0"), 0.6);  // keyframes are placed on half pixels
  EXPECT_NEAR(xs[1], x.at("1"), 0.6);
  EXPECT_NEAR(xs[2], x.at("2"), 0.6);
  // Few keyframes: also a line across each of the two panels.
  EXPECT_EQ(count(group(svg, "keyframes"), "<line "), 6u);
}

TEST(ComparePlot, RotationsAlsoAsAnAngleCurve) {
  // About z: golden 0 degrees at t = 0 and 90 at t = 1 (q = (0, 0, sin 45, cos 45));
  // the actual one stays at 30 degrees at t = 1 (q = (0, 0, sin 15, cos 15)), given
  // with the opposite sign (the same rotation).
  const double s45 = std::sin(M_PI / 4), c45 = std::cos(M_PI / 4);
  const double s15 = std::sin(M_PI / 12), c15 = std::cos(M_PI / 12);
  auto g = one_channel("/nodes/0/rotation", "LINEAR", {0, 1},
                       {{0, {0, 0, 0, 1}}, {1, {0, 0, s45, c45}}});
  g.animations[0].channels[0].measure = gs::Measure::kAngle;  // as `sample` writes it
  const auto a = one_channel("/nodes/0/rotation", "LINEAR", {0, 1},
                             {{0, {0, 0, 0, 1}}, {1, {0, 0, -s15, -c15}}});
  const std::string svg = figure(g, a);
  EXPECT_EQ(strict_text::xml_problem(svg), "");
  const auto angle_ticks = ticks(group(svg, "yticks", 1), false);  // values, angle, error
  const auto golden = paths(svg, "golden angle"), actual = paths(svg, "actual angle");
  ASSERT_EQ(golden.size(), 1u);
  ASSERT_EQ(actual.size(), 1u);
  EXPECT_NEAR(value_at(angle_ticks, vertices(golden[0]).at(0).second), 0, 0.2);
  EXPECT_NEAR(value_at(angle_ticks, vertices(golden[0]).at(1).second), 90, 0.2);
  EXPECT_NEAR(value_at(angle_ticks, vertices(actual[0]).at(1).second), 30, 0.2);
  // The error panel is the third; its one failing marker at 60 degrees = pi/3 rad.
  const auto e = ticks(group(svg, "yticks", 2), false);
  std::smatch m;
  const std::string errors = group(svg, "errors");
  ASSERT_TRUE(std::regex_search(
      errors, m, std::regex(R"re(<circle class="fail" cx="[-0-9.]+" cy="([-0-9.]+)")re")));
  // Log scale: log10 of the error is linear in y between two labelled decades.
  EXPECT_NEAR(log_value_at(e, std::stod(m[1])), std::log10(M_PI / 3), 0.01);
  // The actual quaternion is drawn with the golden one's sign: w > 0.
  const auto w_actual = paths(svg, "actual").at(3);
  const auto v = ticks(group(svg, "yticks", 0), false);
  EXPECT_NEAR(value_at(v, vertices(w_actual).at(1).second), c15, 0.01);
}

TEST(ComparePlot, LongChannelsAreDecimatedKeepingExtremes) {
  // 100,000 samples of v = t over [0, 1); the actual one jumps by 5 at one
  // sample (t = 0.54321) and misses another (t = 0.7).
  constexpr std::size_t n = 100000;
  std::vector<Sample> gs, as;
  for (std::size_t i = 0; i < n; ++i) {
    const double t = static_cast<double>(i) / n;
    gs.push_back({t, {t}});
    if (i != 70000) as.push_back({t, {i == 54321 ? t + 5 : t}});
  }
  const std::string svg = figure(one_channel("/weights", "LINEAR", {0, 1}, gs),
                                 one_channel("/weights", "LINEAR", {0, 1}, as));
  EXPECT_LT(svg.size(), 100000u);
  EXPECT_NE(svg.find("100000 samples drawn as 200 time buckets"), std::string::npos);
  EXPECT_EQ(strict_text::xml_problem(svg), "");
  // Min and max per bucket: at most two points per bucket, and the spike kept.
  const auto golden = paths(svg, "golden"), actual = paths(svg, "actual");
  ASSERT_EQ(golden.size(), 1u);
  EXPECT_LE(parse_path(golden[0]).size(), 2 * gr::detail::kPlotBuckets);
  double golden_top = 1e9, actual_top = 1e9;
  for (const auto& [x, y] : vertices(golden[0])) golden_top = std::min(golden_top, y);
  for (const auto& [x, y] : vertices(actual[0])) actual_top = std::min(actual_top, y);
  const auto v = ticks(group(svg, "yticks", 0), false);
  EXPECT_NEAR(value_at(v, golden_top), 1, 0.01);
  // The spike (5.54), drawn at the panel's edge: two golden ranges above the golden values.
  EXPECT_GT(value_at(v, actual_top), 2.9);
  // Markers: the worst of each bucket; one bucket fails, one misses a sample.
  const std::string errors = group(svg, "errors");
  EXPECT_EQ(count(errors, "class=\"fail\""), 1u);
  EXPECT_EQ(count(errors, "class=\"missing\""), 1u);
  EXPECT_NE(errors.find("1 over the tolerance, 0 missing; worst at t = 0.54321: error 5"),
            std::string::npos)
      << errors;
}

TEST(ComparePlot, WideChannelsDrawTheComponentsWithTheLargestError) {
  // 40 morph weights over 2,000 samples; components 7 and 33 are wrong.
  std::vector<Sample> gs, as;
  for (int i = 0; i < 2000; ++i) {
    const double t = i / 100.0;
    std::vector<double> g(40), a(40);
    for (int k = 0; k < 40; ++k)
      g[static_cast<std::size_t>(k)] = a[static_cast<std::size_t>(k)] = std::sin(t + k);
    a[7] += 0.5;
    a[33] -= 0.25;
    gs.push_back({t, g});
    as.push_back({t, a});
  }
  const std::string svg = figure(one_channel("/nodes/0/weights", "LINEAR", {}, gs),
                                 one_channel("/nodes/0/weights", "LINEAR", {}, as));
  EXPECT_LT(svg.size(), 150000u);
  EXPECT_NE(svg.find("8 of 40 components drawn"), std::string::npos);
  EXPECT_NE(svg.find("Keyframes unknown"), std::string::npos);
  EXPECT_EQ(paths(svg, "golden").size(), 8u);
  const std::string legend = group(svg, "legend");
  EXPECT_NE(legend.find(">w7<"), std::string::npos);
  EXPECT_NE(legend.find(">w33<"), std::string::npos);
}

TEST(ComparePlot, HostileTextIsEscaped) {
  auto g = step_golden(), a = step_actual();
  g.animations[0].channels[0].target = a.animations[0].channels[0].target = "/nodes/0/<b>&\"x\"";
  g.animations[0].channels[0].interpolation = "<i>";
  const std::string svg = figure(g, a);
  EXPECT_EQ(strict_text::xml_problem(svg), "");
  EXPECT_EQ(svg.find("<b>"), std::string::npos);
  EXPECT_EQ(svg.find("<i>"), std::string::npos);
}

TEST(ComparePlot, SizeIsBoundedEvenWhenTimesAndKeyframesAreOutOfOrder) {
  // compare hands over sorted times and keyframes; a ChannelResult built
  // otherwise must still give a bounded plot: 50,000 samples and as many
  // keyframes in a scrambled order.
  gc::ChannelResult ch;
  ch.target = "/nodes/0/translation";
  ch.interpolation = "STEP";
  ch.width = 1;
  ch.tolerance = 1e-5;
  ch.passed = false;
  for (std::size_t i = 0; i < 50000; ++i) {
    const double t = static_cast<double>((i * 7919) % 50000);
    ch.times.push_back(t);
    ch.keyframes.push_back(t);
    ch.golden.push_back(t);
    ch.actual.push_back(t + 1);
    ch.errors.push_back(1);
  }
  std::ostringstream out;
  gr::detail::write_channel_figure(out, ch);
  EXPECT_LT(out.str().size(), 150000u);
  EXPECT_EQ(strict_text::xml_problem(out.str()), "");
}

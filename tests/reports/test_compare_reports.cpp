// compare report writers: content, summary line, escaping of hostile text, determinism.
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/reports/compare_report.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <cmath>
#include <sstream>

#include "strict_text.hpp"

namespace gr = gltf_anim::reports;
namespace gs = gltf_anim::samples;
namespace gc = gltf_anim::compare;

namespace {

const std::string kEvil = "<script>alert('x')</script>|*evil*`](http://x)\n# h & \"q\"\x1b[31m\xff";

gs::SamplesFile channel_file(const std::string& asset, const std::string& target,
                             std::vector<std::vector<double>> values) {
  gs::SamplesFile f;
  f.asset = asset;
  auto& c = f.animations.emplace_back().channels.emplace_back();
  c.target = target;
  c.interpolation = "LINEAR";
  c.keyframes = {0, 1};
  for (std::size_t i = 0; i < values.size(); ++i) {
    c.add_sample(static_cast<double>(i) / static_cast<double>(values.size() - 1), values[i]);
  }
  return f;
}

// Two cases: "good" passes; the hostile-named one fails on two channels
// (a translation 0.5 off at t=0.5 and a missing rotation).
gc::CompareReport sample_report() {
  gc::CompareReport r;
  r.golden = "golden/";
  r.actual = "actual & co/";
  r.generator = "gltf-anim test";
  const auto g1 = channel_file("good.gltf", "/nodes/0/scale", {{1}, {2}, {3}});
  gc::CaseResult good = gc::compare_samples(g1, g1, {});
  good.id = "good";
  good.features = {"scale"};
  good.clauses = {"3.11"};
  r.cases.push_back(good);

  auto g2 = channel_file(kEvil, "/nodes/0/translation" + kEvil,
                         {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}});
  auto& rot = g2.animations[0].channels.emplace_back();
  rot.target = "/nodes/1/rotation";
  rot.add_sample(0, {0, 0, 0, 1});
  const auto a2 = channel_file(kEvil, "/nodes/0/translation" + kEvil,
                               {{0, 0, 0}, {1.5, 1, 1}, {2, 2, 2}});
  gc::CaseResult bad = gc::compare_samples(g2, a2, {});
  bad.id = kEvil;
  bad.features = {"translation", kEvil};
  bad.clauses = {kEvil};
  bad.notes = kEvil;
  bad.golden_file = kEvil + ".json";
  r.cases.push_back(bad);
  r.warnings.push_back("warning " + kEvil);
  return r;
}

std::string render(const gc::CompareReport& r, const std::string& format) {
  std::ostringstream out;
  EXPECT_TRUE(gr::write_compare_report(out, r, format));
  return out.str();
}

bool has_line(const std::string& text, const std::string& line) {
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    if (l == line) return true;
  }
  return false;
}

}  // namespace

TEST(CompareReports, SummaryLineInEveryTextFormat) {
  const auto r = sample_report();
  EXPECT_EQ(r.passed(), 1u);
  EXPECT_EQ(r.failed(), 1u);
  for (const char* f : {"text", "md", "junit"}) {
    EXPECT_TRUE(has_line(render(r, f), "1 passed, 1 failed")) << f;
  }
  EXPECT_NE(render(r, "html").find(">1 passed, 1 failed</p>"), std::string::npos);
  std::ostringstream unused;
  EXPECT_FALSE(gr::write_compare_report(unused, r, "pdf"));
}

TEST(CompareReports, WritersAreDeterministic) {
  for (const char* f : {"text", "json", "md", "junit", "html"}) {
    EXPECT_EQ(render(sample_report(), f), render(sample_report(), f)) << f;
  }
}

TEST(CompareReports, TextNamesTheFailingChannels) {
  const std::string text = render(sample_report(), "text");
  EXPECT_NE(text.find("PASS  good"), std::string::npos) << text;
  EXPECT_NE(text.find("1 of 3 samples over the tolerance 1e-05 (max 0.5 at t=0.5)"),
            std::string::npos) << text;
  EXPECT_NE(text.find("/nodes/1/rotation: channel missing in the actual samples"),
            std::string::npos) << text;
  EXPECT_EQ(text.find('\x1b'), std::string::npos);  // no terminal escapes from input
}

TEST(CompareReports, JsonParsesAndHoldsTheNumbers) {
  const std::string json = render(sample_report(), "json");
  gltf_anim::json::Document d;
  d.Parse(json.c_str());
  ASSERT_FALSE(d.HasParseError()) << json;
  EXPECT_EQ(d["summary"]["passed"].GetInt(), 1);
  EXPECT_EQ(d["summary"]["failed"].GetInt(), 1);
  const auto& bad = d["cases"][1];
  EXPECT_FALSE(bad["passed"].GetBool());
  EXPECT_EQ(std::string(bad["id"].GetString()).substr(0, 8), "<script>");  // a JSON string, intact
  EXPECT_EQ(bad["absolute"]["max"].GetDouble(), 0.5);
  EXPECT_EQ(bad["absolute"]["worstT"].GetDouble(), 0.5);
  EXPECT_DOUBLE_EQ(bad["absolute"]["mean"].GetDouble(), 0.5 / 3);
  EXPECT_TRUE(bad["channels"][1]["missing"].GetBool());
  EXPECT_TRUE(bad["channels"][1]["max"].IsNull());
  EXPECT_EQ(std::string(d["summaryLine"].GetString()), "1 passed, 1 failed");
}

TEST(CompareReports, MarkdownIsInjectionSafe) {
  const std::string md = render(sample_report(), "md");
  EXPECT_EQ(md.find("<script>"), std::string::npos) << md;
  EXPECT_EQ(md.find("](http"), std::string::npos) << md;
  EXPECT_EQ(md.find("\n# h"), std::string::npos) << md;
  EXPECT_NE(md.find("&lt;script&gt;"), std::string::npos) << md;
  EXPECT_NE(md.find("\\|"), std::string::npos) << md;
  // Every row of the cases table (header, separator, two cases) has exactly
  // the 8 unescaped pipes of 7 columns; every row of the failing translation's
  // worst-samples table (header, separator, its one sample off: the two exact ones are no
  // rows) the 5 of 4 columns.
  EXPECT_EQ(strict_text::markdown_row_pipes(md), (std::vector<std::size_t>{8, 8, 8, 8, 5, 5, 5}))
      << md;
  EXPECT_NE(md.find("| ❌ **fail** |"), std::string::npos);
  EXPECT_NE(md.find("| ✅ pass | good | 0 | 0 | - | scale | 3\\.11 |"),
            std::string::npos)
      << md;
}

TEST(CompareReports, JUnitHasATestcasePerAssetAndEscapes) {
  const std::string xml = render(sample_report(), "junit");
  EXPECT_EQ(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 0), 0u);
  EXPECT_NE(xml.find("<testsuites name=\"gltf-anim compare\" tests=\"2\" failures=\"1\""),
            std::string::npos);
  EXPECT_NE(xml.find("<testcase classname=\"conformance\" name=\"good\">"), std::string::npos);
  EXPECT_NE(xml.find("<testcase classname=\"conformance\" name=\"&lt;script&gt;alert(&#39;x&#39;)"),
            std::string::npos)
      << xml;
  std::size_t failures = 0;
  for (auto p = xml.find("<failure "); p != std::string::npos; p = xml.find("<failure ", p + 1)) {
    ++failures;
  }
  EXPECT_EQ(failures, 1u);
  EXPECT_EQ(xml.find("<script>"), std::string::npos);
  EXPECT_EQ(xml.find('\x1b'), std::string::npos);  // not allowed in XML 1.0
  EXPECT_EQ(xml.find('\xff'), std::string::npos);  // kept valid UTF-8
}

TEST(CompareReports, HtmlIsSelfContainedWithPlotsAndFeatureTables) {
  const std::string html = render(sample_report(), "html");
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
  EXPECT_EQ(html.find("href=\"http"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;"), std::string::npos);
  // One plot: the failing translation (the missing rotation has no data to draw).
  std::size_t plots = 0;
  for (auto p = html.find("<svg class=\"plot\""); p != std::string::npos;
       p = html.find("<svg class=\"plot\"", p + 1)) {
    ++plots;
  }
  EXPECT_EQ(plots, 1u);
  EXPECT_NE(html.find("class=\"golden\""), std::string::npos);
  EXPECT_NE(html.find("class=\"actual\""), std::string::npos);
  EXPECT_NE(html.find("class=\"errors\""), std::string::npos);
  EXPECT_NE(html.find("class=\"tolerance\""), std::string::npos);
  EXPECT_NE(html.find("class=\"keymarks\""), std::string::npos);
  // Feature tables: scale, translation, the hostile one, escaped.
  EXPECT_NE(html.find("<h3 class=\"feature\">scale &mdash; 1 passed, 0 failed</h3>"),
            std::string::npos);
  EXPECT_NE(html.find("<h3 class=\"feature\">translation &mdash; 0 passed, 1 failed</h3>"),
            std::string::npos);
  EXPECT_NE(html.find("<h3 class=\"feature\">&lt;script&gt;"), std::string::npos);
}

// The plots of one HTML report are capped (kPlotMaxFigures): 130 failing
// cases of one channel each get 100 plots, the first 100 in the report's
// order, and a sentence counts the 30 left out; each keeps its table.
TEST(CompareReports, HtmlPlotsAreCappedAndTheRestCounted) {
  gc::CompareReport r;
  const auto golden = channel_file("a.gltf", "/nodes/0/translation", {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}});
  const auto actual = channel_file("a.gltf", "/nodes/0/translation", {{0, 0, 0}, {9, 1, 1}, {2, 2, 2}});
  for (int k = 0; k < 130; ++k) {
    gc::CaseResult c = gc::compare_samples(golden, actual, {});
    c.id = "case" + std::to_string(1000 + k);  // sorts as written
    r.cases.push_back(c);
  }
  const std::string html = render(r, "html");
  auto count = [&](const std::string& what) {
    std::size_t n = 0;
    for (auto p = html.find(what); p != std::string::npos; p = html.find(what, p + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("<svg class=\"plot\""), 100u);
  EXPECT_NE(html.find("Plots are drawn for the first 100 failing channels; 30 more failing "
                      "channel(s) have their worst-samples table only."),
            std::string::npos);
  // The 100th case's section has a plot, the 101st's has none.
  const auto section = [&](const std::string& id) {
    const std::size_t at = html.find("<h3>" + id + "</h3>");
    EXPECT_NE(at, std::string::npos) << id;
    return html.substr(at, html.find("</section>", at) - at);
  };
  EXPECT_NE(section("case1099").find("<svg class=\"plot\""), std::string::npos);
  EXPECT_EQ(section("case1100").find("<svg class=\"plot\""), std::string::npos);
  EXPECT_NE(section("case1100").find("<table"), std::string::npos);
  // Under the cap, no sentence.
  r.cases.resize(100);
  EXPECT_EQ(render(r, "html").find("Plots are drawn for the first"), std::string::npos);
}

// A case with nothing compared: its own word in every format, a JUnit
// <skipped>, not in the failures, and not counted as passed.
TEST(CompareReports, NothingComparedInEveryFormat) {
  auto r = sample_report();
  gs::SamplesFile empty;
  empty.asset = "pointer_only.gltf";
  empty.animations.emplace_back();
  gc::CaseResult none = gc::compare_samples(empty, empty, {});
  none.id = "pointer_only";
  none.features = {"scale"};
  r.cases.push_back(none);
  const std::string line = "1 passed, 1 failed, 1 with nothing to compare";
  for (const char* f : {"text", "md", "junit"}) EXPECT_TRUE(has_line(render(r, f), line)) << f;
  EXPECT_NE(render(r, "text").find("NONE  pointer_only"), std::string::npos);
  const std::string md = render(r, "md");
  EXPECT_NE(md.find("| ⚪ nothing compared | pointer\\_only |"), std::string::npos) << md;
  EXPECT_EQ(md.find("#### pointer\\_only"), std::string::npos) << md;  // not under Failures
  const std::string junit = render(r, "junit");
  EXPECT_NE(junit.find("failures=\"1\" errors=\"0\" skipped=\"1\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("<testcase classname=\"conformance\" name=\"pointer_only\">\n      <skipped "
                       "message=\"the golden samples hold no sample: nothing compared\"/>"),
            std::string::npos)
      << junit;
  const std::string html = render(r, "html");
  EXPECT_NE(html.find(">" + line + "</p>"), std::string::npos);
  EXPECT_NE(html.find("<tr class=\"empty\"><td class=\"result\">nothing compared</td><td>pointer_only</td>"),
            std::string::npos);
  EXPECT_NE(html.find("scale &mdash; 1 passed, 0 failed, 1 with nothing to compare</h3>"), std::string::npos);
  gltf_anim::json::Document d;
  const std::string json = render(r, "json");
  d.Parse(json.c_str());
  ASSERT_FALSE(d.HasParseError());
  EXPECT_EQ(d["summary"]["nothingCompared"].GetInt(), 1);
  EXPECT_EQ(d["summary"]["passed"].GetInt(), 1);
  const auto& c = d["cases"][2];
  EXPECT_EQ(std::string(c["outcome"].GetString()), "nothing compared");
  EXPECT_FALSE(c["passed"].GetBool());
  EXPECT_EQ(std::string(d["cases"][0]["outcome"].GetString()), "passed");
  EXPECT_EQ(std::string(d["cases"][1]["outcome"].GetString()), "failed");
}

namespace {

// A failing case whose one failing channel matches `alternative` in full (or, with
// `partial`, in part only).
gc::CaseResult failing_case(const std::string& id, const std::string& alternative, bool partial = false,
                            const std::string& description = "STEP over intervals (t_k-1, t_k] (glTF Sample Viewer): at an exact key, the previous key's value; breaks C.1.") {
  gc::CaseResult c;
  c.id = id;
  c.outcome = gc::CaseOutcome::kFailed;
  gc::ChannelResult& ch = c.channels.emplace_back();
  ch.target = "/nodes/0/translation";
  ch.passed = false;
  ch.compared = 4;
  ch.over_tolerance = 1;
  ch.problem = "1 of 4 samples over the tolerance";
  if (!alternative.empty()) {
    gc::AlternativeMatch& m = ch.alternatives.emplace_back();
    m.name = alternative;
    m.description = description;
    m.times = 1;
    m.partial = partial;
  }
  return c;
}

}  // namespace

TEST(CompareReports, TextMarkdownAndHtmlRollFailuresUpByCause) {
  gc::CompareReport r;
  r.golden = "golden";
  r.actual = "actual";
  for (int i = 0; i < 9; ++i) r.cases.push_back(failing_case("step_" + std::to_string(i), "previous-key-at-exact-time"));
  r.cases.push_back(failing_case("odd", ""));
  r.cases.push_back(failing_case("half", "previous-key-at-exact-time", true));  // a cause of its own
  gc::CaseResult engine;
  engine.id = "crashed";
  engine.outcome = gc::CaseOutcome::kFailed;
  engine.problem = "the engine failed on this case: KeyError: 'accessors'";
  r.cases.push_back(engine);
  gc::CaseResult ok;
  ok.id = "fine";
  r.cases.push_back(ok);
  // One divergence described for each case in its own words: one cause, named alone.
  r.cases.push_back(failing_case("short_min", "no-clamp", false, "c / 32767 without the clamp (three.js); breaks 3.11."));
  r.cases.push_back(failing_case("byte_min", "no-clamp", false, "c / 127 without the clamp (three.js); breaks 3.11."));

  const std::string text = render(r, "text");
  const std::string cause = "known divergence \"previous-key-at-exact-time\": STEP over intervals (t_k-1, t_k] (glTF Sample Viewer)";
  const auto at = text.find("\nfailures by cause:\n");
  ASSERT_NE(at, std::string::npos) << text;
  ASSERT_NE(text.find("\n1 passed, 14 failed"), std::string::npos) << text;
  EXPECT_LT(at, text.find("\n1 passed, 14 failed")) << text;
  EXPECT_TRUE(has_line(text, "  known divergence \"no-clamp\": 2 cases (short_min, byte_min)")) << text;
  EXPECT_TRUE(has_line(text, "  " + cause + ": 9 cases (step_0, step_1, step_2, step_3, step_4, step_5, step_6, step_7, ...)")) << text;
  EXPECT_TRUE(has_line(text, "  no known divergence or variant matches: 1 case (odd)")) << text;
  EXPECT_TRUE(has_line(text, "  partly matches " + cause + ": 1 case (half)")) << text;
  EXPECT_TRUE(has_line(text, "  the engine failed on this case: 1 case (crashed)")) << text;
  // Most cases first.
  EXPECT_LT(text.find(cause + ": 9"), text.find("known divergence \"no-clamp\": 2")) << text;
  EXPECT_LT(text.find("\"no-clamp\": 2"), text.find("the engine failed on this case: 1")) << text;

  const std::string md = render(r, "md");
  // Escaped as Markdown text (md_escape).
  ASSERT_NE(md.find("\n### Failures by cause\n\n- known divergence \\\"previous\\-key\\-at\\-exact\\-time\\\"\\: STEP over intervals"), std::string::npos) << md;
  EXPECT_LT(md.find("### Failures by cause"), md.find("### Failures\n")) << md;
  EXPECT_NE(md.find("- no known divergence or variant matches: 1 case \\(odd\\)\n"), std::string::npos) << md;

  // HTML: the same roll-up, escaped, each case linked to its section, before the failures.
  const std::string html = render(r, "html");
  const std::string cause_html = "known divergence &quot;previous-key-at-exact-time&quot;: STEP over intervals (t_k-1, t_k] (glTF Sample Viewer)";
  const auto head = html.find("<h2 id=\"failures-by-cause\">Failures by cause</h2>");
  ASSERT_NE(head, std::string::npos) << html;
  EXPECT_LT(head, html.find("<h2 id=\"failures\">")) << html;
  EXPECT_NE(html.find("<li>" + cause_html + ": 9 cases (<a href=\"#case-step_0\">step_0</a>, "), std::string::npos) << html;
  EXPECT_NE(html.find("<a href=\"#case-step_7\">step_7</a>, ...)</li>"), std::string::npos) << html;
  EXPECT_NE(html.find("<li>known divergence &quot;no-clamp&quot;: 2 cases (<a href=\"#case-short_min\">short_min</a>, "
                      "<a href=\"#case-byte_min\">byte_min</a>)</li>"), std::string::npos) << html;
  EXPECT_NE(html.find("<li>the engine failed on this case: 1 case (<a href=\"#case-crashed\">crashed</a>)</li>"), std::string::npos) << html;
  EXPECT_NE(html.find("<section class=\"case\" id=\"case-crashed\">"), std::string::npos) << html;
  // Most cases first, as in the text report.
  EXPECT_LT(html.find(cause_html + ": 9"), html.find("&quot;no-clamp&quot;: 2")) << html;

  // No failure, no section.
  gc::CompareReport passing;
  passing.cases.push_back(ok);
  EXPECT_EQ(render(passing, "text").find("failures by cause"), std::string::npos);
  EXPECT_EQ(render(passing, "md").find("by cause"), std::string::npos);
  EXPECT_EQ(render(passing, "html").find("by cause"), std::string::npos);
}

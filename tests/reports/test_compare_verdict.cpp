// What a failing engine author reads: the worst samples of each failing
// channel, the manifest alternatives its values match (even when other samples
// also fail), cases not run or excluded, --cases, failures first, anchors.
// Every expected number below is worked out by hand from the samples written
// here (differences of exactly representable values).
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/reports/compare_report.hpp>
#include <gltf_anim/samples/samples.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "compare_test_util.hpp"
#include "strict_text.hpp"

namespace gr = gltf_anim::reports;
namespace gs = gltf_anim::samples;
namespace gc = gltf_anim::compare;
namespace fs = std::filesystem;
using compare_test::find_case;
using compare_test::save;
using compare_test::write;

namespace {

fs::path fresh_dir(const std::string& name) {
  return compare_test::fresh_dir("compare_verdict", name);
}

// One animation, one translation channel (glTF channel index `index`), x
// values at t = 0, 1, 2, ... (y = z = 0).
gs::SampledChannel translation_channel(std::size_t index, const std::string& target,
                                       const std::vector<double>& xs) {
  gs::SampledChannel c;
  c.index = index;
  c.target = target;
  c.interpolation = "STEP";
  for (std::size_t i = 0; i < xs.size(); ++i) c.add_sample(static_cast<double>(i), {xs[i], 0, 0});
  return c;
}

gs::SamplesFile file_of(const std::string& asset, std::vector<gs::SampledChannel> channels) {
  gs::SamplesFile f;
  f.asset = asset;
  f.animations.emplace_back().channels = std::move(channels);
  return f;
}

std::string render(const gc::CompareReport& r, const std::string& format) {
  std::ostringstream out;
  EXPECT_TRUE(gr::write_compare_report(out, r, format));
  return out.str();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

// ---------------------------------------------------------------- worst samples

// Golden x = 0 at t = 0..7; actual x = the errors below, so each sample's
// error is its x. Largest first: 0.5 (t=1), 0.5 (t=3, the later of the tie),
// 0.4 (t=6), 0.3 (t=2), 0.2 (t=5), 0.1 (t=0), 0.05 (t=7), 0 (t=4).
TEST(CompareWorstSamples, KeepsTheNLargestLargestFirstEarlierTimeOnTies) {
  const std::vector<double> errors = {0.1, 0.5, 0.3, 0.5, 0.0, 0.2, 0.4, 0.05};
  const auto golden = file_of(
      "a.gltf", {translation_channel(0, "/nodes/0/translation", std::vector<double>(8, 0.0))});
  const auto actual = file_of("a.gltf", {translation_channel(0, "/nodes/0/translation", errors)});

  auto r = gc::compare_samples(golden, actual, {}, gc::kDefaultTimeEpsilon, 3);
  ASSERT_EQ(r.channels.size(), 1u);
  const auto& worst = r.channels[0].worst;
  ASSERT_EQ(worst.size(), 3u);
  EXPECT_EQ(worst[0].t, 1);
  EXPECT_EQ(worst[0].error, 0.5);
  EXPECT_EQ(worst[0].golden, (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(worst[0].actual, (std::vector<double>{0.5, 0, 0}));
  EXPECT_EQ(worst[1].t, 3);
  EXPECT_EQ(worst[1].error, 0.5);
  EXPECT_EQ(worst[2].t, 6);
  EXPECT_EQ(worst[2].error, 0.4);

  // More rows asked than samples: all of them in the order above, but t = 4, whose actual
  // value is the golden one: a row of error 0 is no worst sample.
  r = gc::compare_samples(golden, actual, {}, gc::kDefaultTimeEpsilon, 50);
  std::vector<double> times;
  for (const auto& w : r.channels[0].worst) times.push_back(w.t);
  EXPECT_EQ(times, (std::vector<double>{1, 3, 6, 2, 5, 0, 7}));

  // None asked; above the bound, the bound.
  EXPECT_TRUE(gc::compare_samples(golden, actual, {}, gc::kDefaultTimeEpsilon, 0)
                  .channels[0]
                  .worst.empty());
  // A channel that passes keeps no rows.
  EXPECT_TRUE(gc::compare_samples(golden, golden, {}).channels[0].worst.empty());
}

TEST(CompareWorstSamples, MissingSamplesAreNotRowsNonFiniteErrorsAre) {
  const auto golden =
      file_of("a.gltf", {translation_channel(0, "/nodes/0/translation", {0, 0, 0})});
  gs::SamplesFile actual = file_of("a.gltf", {translation_channel(0, "/nodes/0/translation", {0})});
  actual.animations[0].channels[0].add_sample(2, {std::numeric_limits<double>::quiet_NaN(), 0, 0});
  const auto r = gc::compare_samples(golden, actual, {});
  const auto& worst = r.channels[0].worst;
  // t = 1 has no actual sample, t = 0 the golden value (error 0): neither is a row.
  ASSERT_EQ(worst.size(), 1u);
  EXPECT_EQ(worst[0].t, 2);
  EXPECT_TRUE(std::isinf(worst[0].error));
}

// A rotation of the right direction but the wrong length fails with an angle of 0: that
// row stays, the exact samples beside it do not.
TEST(CompareWorstSamples, ALengthFailureAtAngleZeroIsARowExactSamplesAreNot) {
  gs::SamplesFile golden;
  golden.asset = "a.gltf";
  auto& g = golden.animations.emplace_back().channels.emplace_back();
  g.target = "/nodes/0/rotation";
  g.measure = gs::Measure::kAngle;
  g.add_sample(0, {0, 0, 0, 1});
  g.add_sample(1, {0, 0, 0, 1});
  gs::SamplesFile actual = golden;
  actual.animations[0].channels[0].values[7] = 0.5;  // |q| = 0.5 at t = 1, same direction
  const auto r = gc::compare_samples(golden, actual, {});
  ASSERT_TRUE(r.failed());
  const auto& worst = r.channels[0].worst;
  ASSERT_EQ(worst.size(), 1u);
  EXPECT_EQ(worst[0].t, 1);
  EXPECT_EQ(worst[0].error, 0);
}

// ---------------------------------------------------------------- diagnosis

namespace {

// A STEP translation case (keys x = 0, 1, 2, 3 at t = 0..3, sampled at the
// keys) and an unrelated LINEAR scale channel. The manifest knows:
//  - divergence "previous-key": the previous key at an exact time: x = 0 at
//    t = 1, x = 1 at t = 2 (and at t = 3 the golden value 3 would be 2: listed
//    only at t = 1 and 2 here, so t = 3 stays the golden one);
//  - variant "half": x = 0.5 at t = 1 (an allowed reading, made up);
//  - divergence "same": the golden values themselves (differs nowhere);
//  - divergence "other": x = 9 at t = 2.
const char* kVerdictManifest = R"json({"assets": [
  {"id": "step", "file": "step.gltf", "samples": "step.samples.json", "tolerance": 0.001,
   "features": ["STEP"], "clauses": ["glTF 2.0 Appendix C.1"],
   "variants": {"half": {"description": "half way at the key (allowed: made up for the test)",
                         "samples": [{"animation": 0, "channel": 0, "t": 1, "value": [0.5, 0, 0]}]}},
   "knownDivergences": {
     "previous-key": {"description": "the previous key at an exact time; breaks glTF 2.0 Appendix C.1: \"its associated property value MUST be used as-is\"",
                      "samples": [{"animation": 0, "channel": 0, "t": 1, "value": [0, 0, 0]},
                                  {"animation": 0, "channel": 0, "t": 2, "value": [1, 0, 0]}]},
     "same": {"description": "no difference; breaks nothing",
              "samples": [{"animation": 0, "channel": 0, "t": 1, "value": [1, 0, 0]}]},
     "other": {"description": "something else; breaks glTF 2.0 3.11",
               "samples": [{"animation": 0, "channel": 0, "t": 2, "value": [9, 0, 0]}]}}}
]})json";

gs::SamplesFile step_file(const std::vector<double>& xs, const std::vector<double>& scale_xs) {
  return file_of("step.gltf", {translation_channel(0, "/nodes/0/translation", xs),
                               translation_channel(1, "/nodes/0/scale", scale_xs)});
}

// The report for an engine whose step case holds these translation and scale x values.
gc::CompareReport step_report(const std::string& name, const std::vector<double>& xs,
                              const std::vector<double>& scale_xs,
                              const gc::CompareOptions& options = {}) {
  const fs::path dir = fresh_dir(name);
  write(dir / "g/manifest.json", kVerdictManifest);
  save(dir / "g/step.samples.json", step_file({0, 1, 2, 3}, {1, 1, 1, 1}));
  save(dir / "a/step.samples.json", step_file(xs, scale_xs));
  return gc::compare_paths(dir / "g", dir / "a", options);
}

}  // namespace

// The engine reproduces "previous-key" at both of its times and also has an
// unrelated error at t = 3 (x = 3.25) and on the scale channel: the case fails,
// no divergence explains the whole case, but the translation channel is
// diagnosed as "previous-key" with one other failing sample (t = 3).
TEST(CompareDiagnosis, NamesTheDivergenceMatchedAtItsTimesDespiteOtherErrors) {
  const auto r = step_report("divergence_plus_error", {0, 0, 1, 3.25}, {1, 1, 1.5, 1});
  ASSERT_EQ(r.cases.size(), 1u);
  const auto& c = r.cases[0];
  EXPECT_TRUE(c.failed());
  EXPECT_EQ(c.matched_divergence, "");  // the whole case is not the divergence
  ASSERT_EQ(c.channels.size(), 2u);
  const auto& tr = c.channels[0];
  EXPECT_FALSE(tr.passed);
  ASSERT_EQ(tr.alternatives.size(), 1u);  // not "half" (0 at t=1, not 0.5), "same", "other"
  const auto& m = tr.alternatives[0];
  EXPECT_EQ(m.name, "previous-key");
  EXPECT_FALSE(m.allowed);
  EXPECT_EQ(m.times, 2u);
  EXPECT_EQ(m.first_times, (std::vector<double>{1, 2}));
  EXPECT_EQ(m.other_failing, 1u);
  EXPECT_EQ(m.first_other_times, (std::vector<double>{3}));
  EXPECT_EQ(m.breaks,
            "breaks glTF 2.0 Appendix C.1: \"its associated property value MUST be used as-is\"");
  // The scale channel fails on its own; no alternative has values there.
  EXPECT_FALSE(c.channels[1].passed);
  EXPECT_TRUE(c.channels[1].alternatives.empty());

  const std::string sentence =
      "your values match known divergence \"previous-key\" at all 2 of its times (t = 1, 2); it "
      "breaks "
      "glTF 2.0 Appendix C.1: \"its associated property value MUST be used as-is\"; 1 other sample "
      "fails (t = 3)";
  const std::string text = render(r, "text");
  EXPECT_TRUE(contains(text, "        " + sentence + "\n")) << text;
  const std::string junit = render(r, "junit");
  EXPECT_TRUE(
      contains(junit, "  your values match known divergence &quot;previous-key&quot; at all 2"))
      << junit;
  const std::string md = render(r, "md");
  EXPECT_TRUE(contains(
      md, "  - your values match known divergence \\\"previous\\-key\\\" at all 2 of its times"))
      << md;
  const std::string html = render(r, "html");
  EXPECT_TRUE(contains(
      html, "<li class=\"diagnosis\">your values match known divergence &quot;previous-key&quot;"))
      << html;
  gltf_anim::json::Document d;
  const std::string json = render(r, "json");
  d.Parse(json.c_str());
  ASSERT_FALSE(d.HasParseError()) << json;
  const auto& alt = d["cases"][0]["channels"][0]["alternatives"][0];
  EXPECT_EQ(std::string(alt["name"].GetString()), "previous-key");
  EXPECT_EQ(std::string(alt["kind"].GetString()), "knownDivergence");
  EXPECT_EQ(alt["times"].GetInt(), 2);
  EXPECT_EQ(alt["otherFailing"].GetInt(), 1);
  EXPECT_EQ(std::string(alt["sentence"].GetString()), sentence);
}

// Without the unrelated errors the divergence explains the whole case: the
// case still fails, named at case level too, and "no other sample fails".
TEST(CompareDiagnosis, DivergenceAloneNoOtherSampleFails) {
  const auto r = step_report("divergence_alone", {0, 0, 1, 3}, {1, 1, 1, 1});
  const auto& c = r.cases.at(0);
  EXPECT_TRUE(c.failed());
  EXPECT_EQ(c.matched_divergence, "previous-key");
  ASSERT_EQ(c.channels[0].alternatives.size(), 1u);
  EXPECT_EQ(c.channels[0].alternatives[0].other_failing, 0u);
  EXPECT_TRUE(contains(render(r, "text"),
                       "(t = 1, 2); it breaks glTF 2.0 Appendix C.1: \"its associated "
                       "property value MUST be used as-is\"; no other sample fails\n"));
}

// Half of a divergence is not the divergence, but it is named as a partial match: x = 0 at
// t = 1 but the golden 2 at t = 2 matches "previous-key" at one of its two times only. The
// case's divergence stays unnamed, and the golden file lists no keyframes to say where t = 2 is.
TEST(CompareDiagnosis, APartialMatchIsNamedAsPartial) {
  const auto r = step_report("partial", {0, 0, 2, 3}, {1, 1, 1, 1});
  const auto& c = r.cases.at(0);
  EXPECT_TRUE(c.failed());
  EXPECT_EQ(c.matched_divergence, "");
  ASSERT_EQ(c.channels[0].alternatives.size(), 1u);
  const auto& m = c.channels[0].alternatives[0];
  EXPECT_TRUE(m.partial);
  EXPECT_EQ(m.times, 1u);
  EXPECT_EQ(m.differs, 1u);
  EXPECT_EQ(m.first_differs, (std::vector<double>{2}));
  EXPECT_EQ(m.differs_where, "");
  EXPECT_TRUE(contains(render(r, "text"),
                       "        your values partly match known divergence \"previous-key\": at t = "
                       "1 (1 of its 2 times); differ from it (t = 2); it breaks glTF 2.0 Appendix "
                       "C.1: \"its associated property value MUST be used as-is\"; no other "
                       "sample fails\n"))
      << render(r, "text");
}

// A variant matched on a channel that also fails elsewhere: named as a
// reading the specs allow; the case fails (t = 3 is off).
TEST(CompareDiagnosis, NamesAnAllowedVariantWithTheOtherFailures) {
  const auto r = step_report("variant_plus_error", {0, 0.5, 2, 3.5}, {1, 1, 1, 1});
  const auto& c = r.cases.at(0);
  EXPECT_TRUE(c.failed());
  EXPECT_EQ(c.matched_variant, "");
  ASSERT_EQ(c.channels[0].alternatives.size(), 1u);
  const auto& m = c.channels[0].alternatives[0];
  EXPECT_EQ(m.name, "half");
  EXPECT_TRUE(m.allowed);
  EXPECT_EQ(m.breaks, "");
  EXPECT_TRUE(
      contains(render(r, "text"),
               "your values match variant \"half\" at its only time (t = 1), a reading the specs "
               "allow; 1 other sample fails (t = 3)\n"));
  // With t = 3 right, the variant makes the case pass (no diagnosis needed).
  const auto ok = step_report("variant_alone", {0, 0.5, 2, 3}, {1, 1, 1, 1});
  EXPECT_TRUE(ok.cases.at(0).passed());
  EXPECT_EQ(ok.cases.at(0).matched_variant, "half");
}

// The worst-samples table in every format: for the first test's actual
// values the translation errors are 0 (t=0), 1 (t=1), 1 (t=2), 0.25 (t=3).
TEST(CompareDiagnosis, WorstSamplesTableInEveryFormat) {
  gc::CompareOptions options;
  options.worst_samples = 2;
  const auto r = step_report("tables", {0, 0, 1, 3.25}, {1, 1, 1.5, 1}, options);
  const std::string text = render(r, "text");
  EXPECT_TRUE(contains(text,
                       "        worst samples:\n"
                       "        t  golden   actual   error\n"
                       "        1  1, 0, 0  0, 0, 0  1\n"
                       "        2  2, 0, 0  1, 0, 0  1\n"))
      << text;
  const std::string md = render(r, "md");
  EXPECT_TRUE(contains(md,
                       "| t | golden | actual | error |\n|---|---|---|---|\n"
                       "| 1 | 1, 0, 0 | 0, 0, 0 | 1 |\n| 2 | 2, 0, 0 | 1, 0, 0 | 1 |\n"))
      << md;
  const std::string junit = render(r, "junit");
  EXPECT_TRUE(contains(junit, "  1  1, 0, 0  0, 0, 0  1\n")) << junit;
  const std::string html = render(r, "html");
  EXPECT_TRUE(contains(html,
                       "<tr><td class=\"num\">1</td><td class=\"num\">1, 0, 0</td>"
                       "<td class=\"num\">0, 0, 0</td><td class=\"num\">1</td></tr>"))
      << html;
  EXPECT_EQ(strict_text::format_problem("html", html), "");
  EXPECT_EQ(strict_text::format_problem("junit", junit), "");
  gltf_anim::json::Document d;
  const std::string json = render(r, "json");
  d.Parse(json.c_str());
  ASSERT_FALSE(d.HasParseError()) << json;
  const auto& rows = d["cases"][0]["channels"][0]["worstSamples"];
  ASSERT_EQ(rows.Size(), 2u);
  EXPECT_EQ(rows[0]["t"].GetDouble(), 1);
  EXPECT_EQ(rows[0]["error"].GetDouble(), 1);
  EXPECT_EQ(rows[1]["actual"][0].GetDouble(), 1);
  // The scale channel: 0.5 at t = 2; its three exact samples are no rows.
  EXPECT_EQ(d["cases"][0]["channels"][1]["channel"].GetInt(), 1);  // the glTF channel index
  const auto& scale = d["cases"][0]["channels"][1]["worstSamples"];
  ASSERT_EQ(scale.Size(), 1u);
  EXPECT_EQ(scale[0]["t"].GetDouble(), 2);
  EXPECT_EQ(scale[0]["error"].GetDouble(), 0.5);
}

// ---------------------------------------------------------------- partial adoption

namespace {

// Three cases: "move" (core), "ptr" (needs KHR_animation_pointer and
// KHR_texture_transform), "spin" (core).
fs::path make_partial_suite(const fs::path& dir) {
  write(dir / "g/manifest.json", R"({"assets": [
    {"id": "move", "samples": "move.samples.json", "extensions": []},
    {"id": "ptr", "samples": "ptr.samples.json",
     "extensions": ["KHR_animation_pointer", "KHR_texture_transform"]},
    {"id": "spin", "samples": "spin.samples.json"}]})");
  save(dir / "g/move.samples.json",
       file_of("move.gltf", {translation_channel(0, "/nodes/0/translation", {0, 1})}));
  save(dir / "g/ptr.samples.json",
       file_of("ptr.gltf", {translation_channel(0, "/materials/0/x", {0, 1})}));
  save(dir / "g/spin.samples.json",
       file_of("spin.gltf", {translation_channel(0, "/nodes/1/translation", {0, 1})}));
  return dir / "g";
}

}  // namespace

TEST(ComparePartial, CasesWithoutActualFilesAreNotRun) {
  const fs::path dir = fresh_dir("not_run");
  const fs::path g = make_partial_suite(dir);
  save(dir / "a/move.samples.json",
       file_of("move.gltf", {translation_channel(0, "/nodes/0/translation", {0, 1})}));
  const auto r = gc::compare_paths(g, dir / "a", {});
  EXPECT_EQ(r.passed(), 1u);
  EXPECT_EQ(r.failed(), 0u);
  EXPECT_EQ(r.not_run(), 2u);
  EXPECT_EQ(find_case(r, "ptr").outcome, gc::CaseOutcome::kNotRun);
  EXPECT_EQ(gr::summary_line(r), "1 passed, 0 failed, 2 not run");
  const std::string text = render(r, "text");
  EXPECT_TRUE(contains(text, "NOT RUN  ptr\n      no actual samples file for this case\n")) << text;
  gltf_anim::json::Document d;
  const std::string json = render(r, "json");
  d.Parse(json.c_str());
  ASSERT_FALSE(d.HasParseError()) << json;
  EXPECT_EQ(d["summary"]["notRun"].GetInt(), 2);
  EXPECT_EQ(d["summary"]["excluded"].GetInt(), 0);
  const std::string junit = render(r, "junit");
  EXPECT_TRUE(contains(junit, "failures=\"0\" errors=\"0\" skipped=\"2\"")) << junit;
  EXPECT_TRUE(
      contains(junit, "<skipped message=\"not run: no actual samples file for this case\"/>"))
      << junit;
  const std::string md = render(r, "md");
  EXPECT_TRUE(contains(md, "### Not run\n\n- ptr: no actual samples file for this case\n")) << md;
}

// A core-only engine (--extensions none): "ptr" is excluded even with an
// actual file (its values are not judged); "move" and "spin" are compared.
TEST(ComparePartial, ExtensionsOutsideTheEnginesSetExcludeTheCase) {
  const fs::path dir = fresh_dir("excluded");
  const fs::path g = make_partial_suite(dir);
  save(dir / "a/move.samples.json",
       file_of("move.gltf", {translation_channel(0, "/nodes/0/translation", {0, 1})}));
  save(dir / "a/ptr.samples.json",
       file_of("ptr.gltf", {translation_channel(0, "/materials/0/x", {5, 5})}));
  gc::CompareOptions core;
  core.extensions = std::vector<std::string>{};
  auto r = gc::compare_paths(g, dir / "a", core);
  const auto& ptr = find_case(r, "ptr");
  EXPECT_EQ(ptr.outcome, gc::CaseOutcome::kExcluded);
  EXPECT_EQ(ptr.problem,
            "needs KHR_animation_pointer, KHR_texture_transform (not in --extensions)");
  EXPECT_EQ(find_case(r, "spin").outcome, gc::CaseOutcome::kNotRun);  // no "extensions": core
  EXPECT_EQ(gr::summary_line(r), "1 passed, 0 failed, 1 not run, 1 excluded");
  EXPECT_TRUE(contains(render(r, "text"), "\nextensions: none\n"));
  EXPECT_TRUE(contains(render(r, "md"), " Scope: extensions\\: none.\n"));
  EXPECT_TRUE(contains(render(r, "html"), "Scope: extensions: none<br>"));
  // One of the two is not enough.
  gc::CompareOptions pointer_only;
  pointer_only.extensions = std::vector<std::string>{"KHR_animation_pointer"};
  r = gc::compare_paths(g, dir / "a", pointer_only);
  EXPECT_EQ(find_case(r, "ptr").problem, "needs KHR_texture_transform (not in --extensions)");
  // Both: compared, and its wrong values fail.
  gc::CompareOptions both;
  both.extensions = std::vector<std::string>{"KHR_texture_transform", "KHR_animation_pointer"};
  r = gc::compare_paths(g, dir / "a", both);
  EXPECT_TRUE(find_case(r, "ptr").failed());
  // Unset: every extension.
  EXPECT_TRUE(find_case(gc::compare_paths(g, dir / "a", {}), "ptr").failed());
}

// A manifest that does not say which extensions a case needs cannot give a
// core view: the report says so instead of passing for one.
TEST(ComparePartial, ExtensionsWithoutManifestDataIsAWarning) {
  const fs::path dir = fresh_dir("no_extension_data");
  write(dir / "g/manifest.json", R"({"assets": [{"id": "move", "samples": "move.samples.json"}]})");
  save(dir / "g/move.samples.json",
       file_of("move.gltf", {translation_channel(0, "/nodes/0/translation", {0, 1})}));
  save(dir / "a/move.samples.json",
       file_of("move.gltf", {translation_channel(0, "/nodes/0/translation", {0, 1})}));
  gc::CompareOptions core;
  core.extensions = std::vector<std::string>{};
  auto r = gc::compare_paths(dir / "g", dir / "a", core);
  EXPECT_EQ(r.warnings,
            (std::vector<std::string>{
                "--extensions excludes nothing: the manifest does not say which extensions each "
                "case needs (no \"extensions\" member)"}));
  // Without a manifest at all.
  fs::remove(dir / "g/manifest.json");
  r = gc::compare_paths(dir / "g/move.samples.json", dir / "a/move.samples.json", core);
  EXPECT_EQ(
      r.warnings,
      (std::vector<std::string>{
          "--extensions excludes nothing: no manifest says which extensions each case needs"}));
  // The suite's manifest lists them: no warning.
  EXPECT_TRUE(
      gc::compare_paths(make_partial_suite(fresh_dir("with_extension_data")), dir / "a", core)
          .warnings.empty());
}

TEST(ComparePartial, CasesOptionSelectsByIdOrGlob) {
  const fs::path dir = fresh_dir("selection");
  const fs::path g = make_partial_suite(dir);
  save(dir / "a/move.samples.json",
       file_of("move.gltf", {translation_channel(0, "/nodes/0/translation", {0, 1})}));
  gc::CompareOptions options;
  options.cases = {"mo*", "sp?n"};
  auto r = gc::compare_paths(g, dir / "a", options);
  ASSERT_EQ(r.cases.size(), 2u);
  EXPECT_EQ(r.cases[0].id, "move");
  EXPECT_EQ(r.cases[1].id, "spin");
  EXPECT_TRUE(r.unmatched_selection.empty());
  EXPECT_TRUE(r.warnings.empty());  // move's actual file is used
  EXPECT_EQ(gr::summary_line(r), "1 passed, 0 failed, 1 not run");
  // A pattern selecting nothing is reported (the CLI makes it a usage error).
  options.cases = {"move", "nope*"};
  r = gc::compare_paths(g, dir / "a", options);
  EXPECT_EQ(r.cases.size(), 1u);
  EXPECT_EQ(r.unmatched_selection, (std::vector<std::string>{"nope*"}));
  // An actual file of a case not selected is no warning.
  options.cases = {"spin"};
  r = gc::compare_paths(g, dir / "a", options);
  EXPECT_TRUE(r.warnings.empty());
}

// ---------------------------------------------------------------- order and anchors

namespace {

gc::CaseResult with_outcome(const std::string& id, gc::CaseOutcome o) {
  gc::CaseResult c;
  c.id = id;
  c.outcome = o;
  if (o == gc::CaseOutcome::kNotRun) c.problem = "no actual samples file for this case";
  return c;
}

}  // namespace

TEST(CompareOrder, FailuresFirstThenNotRunThenPassed) {
  gc::CompareReport r;
  r.cases = {with_outcome("a_pass", gc::CaseOutcome::kPassed),
             with_outcome("b_fail", gc::CaseOutcome::kFailed),
             with_outcome("c_excl", gc::CaseOutcome::kExcluded),
             with_outcome("d_notrun", gc::CaseOutcome::kNotRun),
             with_outcome("e_fail", gc::CaseOutcome::kFailed),
             with_outcome("f_none", gc::CaseOutcome::kNothingCompared)};
  std::vector<std::string> ids;
  for (const auto* c : gc::failures_first(r)) ids.push_back(c->id);
  EXPECT_EQ(ids, (std::vector<std::string>{"b_fail", "e_fail", "d_notrun", "a_pass", "f_none",
                                           "c_excl"}));

  const auto in_order = [](const std::string& text, const std::vector<std::string>& parts) {
    std::size_t at = 0;
    for (const auto& p : parts) {
      at = text.find(p, at);
      if (at == std::string::npos) return false;
    }
    return true;
  };
  EXPECT_TRUE(in_order(render(r, "text"), {"FAIL  b_fail", "FAIL  e_fail", "NOT RUN  d_notrun",
                                           "PASS  a_pass", "NONE  f_none", "EXCLUDED  c_excl"}));
  EXPECT_TRUE(in_order(render(r, "md"),
                       {"| b\\_fail |", "| e\\_fail |", "| d\\_notrun |", "| a\\_pass |"}));
  const std::string html = render(r, "html");
  const std::string table = html.substr(html.find("<div id=\"cases\">"));
  EXPECT_TRUE(
      in_order(table, {">b_fail<", ">e_fail<", ">d_notrun<", ">a_pass<", ">f_none<", ">c_excl<"}))
      << table;
}

// Every case has one anchor, "case-" + its id (bytes outside [A-Za-z0-9._-]
// as ~XX), linked from the table of contents: a failure's section, else its
// row of the cases table; a repeated id gets "-2".
TEST(CompareOrder, HtmlAnchorsByCaseIdAndContents) {
  gc::CompareReport r;
  r.cases = {with_outcome("ok_1.a", gc::CaseOutcome::kPassed),
             with_outcome("x y/\xC3\xA9", gc::CaseOutcome::kFailed),
             with_outcome("ok_1.a", gc::CaseOutcome::kNotRun),
             with_outcome("<b>\"", gc::CaseOutcome::kPassed)};
  const std::string html = render(r, "html");
  EXPECT_TRUE(contains(html, "<section class=\"case\" id=\"case-x~20y~2F~C3~A9\">")) << html;
  EXPECT_TRUE(contains(html, "<tr class=\"pass\" id=\"case-ok_1.a\">")) << html;
  EXPECT_TRUE(contains(html, "<tr class=\"notrun\" id=\"case-ok_1.a-2\">")) << html;
  EXPECT_TRUE(contains(html, "<tr class=\"pass\" id=\"case-~3Cb~3E~22\">")) << html;
  EXPECT_TRUE(contains(html, "<nav class=\"toc\" id=\"contents\">")) << html;
  EXPECT_TRUE(
      contains(html, "<li>failed (1): <a href=\"#case-x~20y~2F~C3~A9\">x y/\xC3\xA9</a></li>"))
      << html;
  EXPECT_TRUE(contains(html, "<li>not run (1): <a href=\"#case-ok_1.a-2\">ok_1.a</a></li>"))
      << html;
  EXPECT_TRUE(contains(html,
                       "<li>passed (2): <a href=\"#case-ok_1.a\">ok_1.a</a> "
                       "<a href=\"#case-~3Cb~3E~22\">&lt;b&gt;&quot;</a></li>"))
      << html;
  // Each anchor is defined once.
  for (const char* id :
       {"id=\"case-ok_1.a\"", "id=\"case-ok_1.a-2\"", "id=\"case-x~20y~2F~C3~A9\""}) {
    const auto first = html.find(id);
    ASSERT_NE(first, std::string::npos) << id;
    EXPECT_EQ(html.find(id, first + 1), std::string::npos) << id;
  }
}

// A channel the engine cannot play, declared "unsupported" in its samples file, makes its
// case not run (unsupported: FEATURE), never failed; an engine's "error" fails the case with
// its message; cases that fail only on missing channels get the advice to declare them.
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/reports/compare_report.hpp>
#include <gltf_anim/samples/samples.hpp>

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "compare_test_util.hpp"

namespace gs = gltf_anim::samples;
namespace gc = gltf_anim::compare;
namespace gr = gltf_anim::reports;
using compare_test::find_case;
using compare_test::fresh_dir;
using compare_test::save;
using compare_test::write;

namespace {

// Two channels of node 0: translation x = t, and one morph weight w = 1 - t, at t = 0, 0.5, 1.
gs::SamplesFile two_channels(const std::string& asset) {
  gs::SamplesFile f;
  f.asset = asset;
  auto& a = f.animations.emplace_back();
  a.channels.resize(2);
  auto& move = a.channels[0];
  move.index = 0;
  move.target = "/nodes/0/translation";
  move.interpolation = "LINEAR";
  auto& weights = a.channels[1];
  weights.index = 1;
  weights.target = "/nodes/0/weights";
  weights.interpolation = "CUBICSPLINE";
  for (const double t : {0.0, 0.5, 1.0}) {
    move.add_sample(t, {t, 0, 0});
    weights.add_sample(t, {1 - t});
  }
  return f;
}

// `golden` with its weights channel declared unsupported (no samples) by the adapter.
gs::SamplesFile weights_unsupported(gs::SamplesFile f) {
  auto& weights = f.animations[0].channels[1];
  weights = gs::SampledChannel{};
  weights.index = 1;
  weights.target = "/nodes/0/weights";
  weights.unsupported = "morph weights";
  return f;
}

std::string text_report(const gc::CompareReport& r) {
  std::ostringstream out;
  gr::write_compare_text(out, r);
  return out.str();
}

}  // namespace

TEST(CompareNotRun, TheSamplesFileDeclaresUnsupportedChannelsAndErrorsAndReadsThemBack) {
  const gs::SamplesFile f = weights_unsupported(two_channels("a.gltf"));
  const std::string json = gs::write_samples_json(f);
  EXPECT_NE(json.find("\"unsupported\": \"morph weights\",\n          \"samples\": []"),
            std::string::npos)
      << json;
  const gs::SamplesFile back = gs::read_samples_json(json);
  EXPECT_EQ(back.animations[0].channels[1].unsupported, "morph weights");
  EXPECT_EQ(back.animations[0].channels[1].size(), 0u);
  EXPECT_EQ(back.animations[0].channels[0].unsupported, "");

  gs::SamplesFile failed;
  failed.asset = "a.gltf";
  failed.error = "KeyError: 'accessors'";
  EXPECT_EQ(gs::read_samples_json(gs::write_samples_json(failed)).error, "KeyError: 'accessors'");
}

TEST(CompareNotRun, AnUnsupportedChannelWithSamplesOrAnEmptyFeatureIsRefused) {
  const auto refused = [](const std::string& text) {
    try {
      gs::read_samples_json(text);
    } catch (const gs::SamplesFormatError& e) { return e.location() + ": " + e.message(); }
    return std::string("read");
  };
  EXPECT_EQ(refused(R"({"asset": "a", "animations": [{"index": 0, "channels": [
      {"target": "/nodes/0/weights", "unsupported": "morph weights",
       "samples": [{"t": 0, "value": [1]}]}]}]})"),
            "/animations/0/channels/0/samples: must be empty: the channel is declared "
            "unsupported (\"morph weights\")");
  EXPECT_EQ(refused(R"({"asset": "a", "animations": [{"index": 0, "channels": [
      {"target": "/nodes/0/weights", "unsupported": "", "samples": []}]}]})"),
            "/animations/0/channels/0/unsupported: must be a non-empty string");
  EXPECT_EQ(refused(R"({"asset": "a", "error": 3, "animations": []})"),
            "/error: must be a non-empty string");
}

TEST(CompareNotRun, ACaseWhoseOtherChannelsPassIsNotRunNeverFailed) {
  const auto golden = two_channels("a.gltf");
  const auto r = gc::compare_samples(golden, weights_unsupported(golden), gc::Tolerances{});
  EXPECT_EQ(r.outcome, gc::CaseOutcome::kNotRun);
  EXPECT_EQ(r.problem, "not run (unsupported: morph weights)");
  ASSERT_EQ(r.unsupported.size(), 1u);
  EXPECT_EQ(r.unsupported[0], "morph weights");
  ASSERT_EQ(r.channels.size(), 2u);
  EXPECT_TRUE(r.channels[0].passed);
  EXPECT_EQ(r.channels[1].unsupported, "morph weights");
  EXPECT_TRUE(r.missing_only.empty());
}

TEST(CompareNotRun, AnotherChannelOffItsValuesStillFailsTheCase) {
  const auto golden = two_channels("a.gltf");
  auto actual = weights_unsupported(golden);
  actual.animations[0].channels[0].values[3] += 0.5;  // x at t = 0.5
  const auto r = gc::compare_samples(golden, actual, gc::Tolerances{});
  EXPECT_EQ(r.outcome, gc::CaseOutcome::kFailed);
  EXPECT_TRUE(r.unsupported.empty());
  ASSERT_EQ(r.channels.size(), 2u);
  EXPECT_EQ(r.channels[1].problem, "not run (unsupported: morph weights)");
}

TEST(CompareNotRun, TheEnginesErrorFailsItsCaseWithItsMessage) {
  const auto golden = two_channels("a.gltf");
  gs::SamplesFile actual;
  actual.asset = "a.gltf";
  actual.error = "ValueError: bad accessor";
  const auto r = gc::compare_samples(golden, actual, gc::Tolerances{});
  EXPECT_EQ(r.outcome, gc::CaseOutcome::kFailed);
  EXPECT_EQ(r.problem, "the engine failed on this case: ValueError: bad accessor");
}

// Three cases: one with its weights declared unsupported (not run), one with its weights left
// out (fails only on a missing channel: the advice names what it needs), one pointer case
// left out (its manifest extension is what it needs, and --extensions is offered).
TEST(CompareNotRun, TheSummaryCountsUnsupportedFeaturesAndAdvisesOnMissingChannels) {
  const auto dir = fresh_dir("compare_not_run", "summary");
  const auto golden = two_channels("a.gltf");
  for (const char* id : {"declared", "left_out", "pointer"}) {
    auto g = golden;
    g.asset = std::string(id) + ".gltf";
    save(dir / "golden" / (std::string(id) + ".samples.json"), g);
  }
  write(dir / "golden/manifest.json", R"({"assets": [
    {"id": "declared", "file": "declared.gltf", "samples": "declared.samples.json", "features": ["weights"]},
    {"id": "left_out", "file": "left_out.gltf", "samples": "left_out.samples.json", "features": ["weights"]},
    {"id": "pointer", "file": "pointer.gltf", "samples": "pointer.samples.json", "features": ["KHR_animation_pointer"],
     "extensions": ["KHR_animation_pointer"]}]})");
  auto declared = weights_unsupported(golden);
  declared.asset = "declared.gltf";
  save(dir / "actual/declared.samples.json", declared);
  auto left_out = golden;
  left_out.asset = "left_out.gltf";
  left_out.animations[0].channels.pop_back();
  save(dir / "actual/left_out.samples.json", left_out);
  auto pointer = left_out;
  pointer.asset = "pointer.gltf";
  save(dir / "actual/pointer.samples.json", pointer);

  const auto r = gc::compare_paths(dir / "golden", dir / "actual", gc::CompareOptions{});
  EXPECT_EQ(find_case(r, "declared").outcome, gc::CaseOutcome::kNotRun);
  EXPECT_EQ(find_case(r, "left_out").outcome, gc::CaseOutcome::kFailed);
  ASSERT_EQ(find_case(r, "left_out").missing_only.size(), 1u);
  EXPECT_EQ(find_case(r, "left_out").missing_only[0], "morph weights");
  ASSERT_EQ(find_case(r, "pointer").missing_only.size(), 1u);
  EXPECT_EQ(find_case(r, "pointer").missing_only[0], "KHR_animation_pointer");

  EXPECT_EQ(gr::summary_line(r), "0 passed, 2 failed, 1 not run (unsupported: morph weights 1)");
  const std::string text = text_report(r);
  EXPECT_NE(text.find("NOT RUN  declared  max 0 (all 3 samples exact) (tolerance 1e-05)\n"
                      "      not run (unsupported: morph weights)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\n2 cases fail only on channels missing from the actual samples (what they "
                      "need: morph weights 1, KHR_animation_pointer 1). If your engine cannot "
                      "play them, have its adapter write each such channel with \"unsupported\": "
                      "\"FEATURE\" and no samples"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("; or give --extensions with the extensions your engine implements"),
            std::string::npos);

  std::ostringstream junit;
  gr::write_compare_junit(junit, r);
  EXPECT_NE(junit.str().find("<skipped message=\"not run (unsupported: morph weights)\"/>"),
            std::string::npos)
      << junit.str();

  // The HTML report leads with the cases per feature (before its contents): weights has one
  // failed and one not run, KHR_animation_pointer one failed.
  std::ostringstream html_out;
  gr::write_compare_html(html_out, r);
  const std::string html = html_out.str();
  const auto summary_at = html.find("<table id=\"feature-summary\">");
  ASSERT_NE(summary_at, std::string::npos) << html;
  EXPECT_LT(summary_at, html.find("id=\"contents\""));
  EXPECT_NE(html.find("<tr class=\"fail\"><td>KHR_animation_pointer</td><td class=\"num\">0</td>"
                      "<td class=\"num\">1</td><td class=\"num\">0</td><td class=\"num\">0</td>"
                      "</tr>\n<tr class=\"fail\"><td>weights</td><td class=\"num\">0</td>"
                      "<td class=\"num\">1</td><td class=\"num\">1</td><td class=\"num\">0</td>"
                      "</tr>\n</tbody></table>",
                      summary_at),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("<p class=\"warn\" id=\"advice\">2 cases fail only on channels missing"),
            std::string::npos);

  // A value off is not a missing channel: no advice.
  auto off = golden;
  off.asset = "left_out.gltf";
  off.animations[0].channels[1].values[0] = 7;
  save(dir / "actual/left_out.samples.json", off);
  std::filesystem::remove(dir / "actual/pointer.samples.json");
  const auto r2 = gc::compare_paths(dir / "golden", dir / "actual", gc::CompareOptions{});
  EXPECT_TRUE(find_case(r2, "left_out").missing_only.empty());
  EXPECT_EQ(text_report(r2).find("only on channels missing"), std::string::npos);
}

// STEP keys x = 0, 1, 2, 3 at t = 0..3, sampled at the keys and at t = 4.
// The known divergence "previous-key" (the previous key at an exact time, held after the last
// key: x = 0, 1, 2 at t = 1, 2, 3 and 2 at t = 4) computed here by hand; the engine takes the
// previous key at exact times but clamps after the last key as the specs say (x = 3 at t = 4).
// Named as a partial match: where it parts from the divergence is said against the keyframes.
TEST(CompareNotRun, APartialMatchSaysWhereItDiffersAgainstTheKeyframes) {
  const auto dir = fresh_dir("compare_not_run", "partial");
  const auto channel = [](const std::vector<double>& xs) {
    gs::SamplesFile f;
    f.asset = "step.gltf";
    auto& c = f.animations.emplace_back().channels.emplace_back();
    c.target = "/nodes/0/translation";
    c.interpolation = "STEP";
    c.keyframes = {0, 1, 2, 3};
    for (std::size_t i = 0; i < xs.size(); ++i) c.add_sample(static_cast<double>(i), {xs[i], 0, 0});
    return f;
  };
  save(dir / "g/step.samples.json", channel({0, 1, 2, 3, 3}));
  save(dir / "a/step.samples.json", channel({0, 0, 1, 2, 3}));
  write(dir / "g/manifest.json", R"({"assets": [{"id": "step", "file": "step.gltf",
    "samples": "step.samples.json", "knownDivergences": {"previous-key": {
      "description": "the previous key at an exact time; breaks glTF 2.0 Appendix C.1",
      "samples": [{"animation": 0, "channel": 0, "t": 1, "value": [0, 0, 0]},
                  {"animation": 0, "channel": 0, "t": 2, "value": [1, 0, 0]},
                  {"animation": 0, "channel": 0, "t": 3, "value": [2, 0, 0]},
                  {"animation": 0, "channel": 0, "t": 4, "value": [2, 0, 0]}]}}}]})");
  const auto r = gc::compare_paths(dir / "g", dir / "a", gc::CompareOptions{});
  const auto& c = find_case(r, "step");
  ASSERT_TRUE(c.failed());
  ASSERT_EQ(c.channels[0].alternatives.size(), 1u);
  EXPECT_EQ(c.channels[0].alternatives[0].differs_where, "after the last key");
  const std::string text = text_report(r);
  EXPECT_NE(text.find("your values partly match known divergence \"previous-key\": at t = 1, 2, 3 "
                      "(3 of its 4 times); differ after the last key (t = 4); it breaks glTF 2.0 "
                      "Appendix C.1; no other sample fails\n"),
            std::string::npos)
      << text;
}

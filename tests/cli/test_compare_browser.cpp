// The HTML conformance report in a real headless browser (Debian's chromium):
// it loads from a file:// URL with no console errors and no failed resource
// loads, and the rendered DOM holds the summary, the plots and the feature
// tables. Skipped (with a message) only when chromium is not installed.
#include "scratch.hpp"
#include <gltf_anim/samples/samples.hpp>

#include <gtest/gtest.h>

#include <cstdlib>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "compare_cli_util.hpp"

namespace gs = gltf_anim::samples;
namespace fs = std::filesystem;
using compare_cli::read_file;
using compare_cli::run;

namespace {

std::string find_chromium() {
  for (const char* name : {"chromium", "chromium-browser"}) {
    const auto r = run(std::string("command -v ") + name, false);
    if (r.exit_code == 0 && !r.out.empty()) return r.out.substr(0, r.out.find('\n'));
  }
  return {};
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

}  // namespace

TEST(CompareHtmlInBrowser, LoadsWithoutErrorsAndRendersPlots) {
  const std::string chromium = find_chromium();
  // chromium is a test dependency (scripts/run-tests.sh installs it): without it
  // the report would not be checked at all, so that is a failure, not a pass.
  ASSERT_FALSE(chromium.empty()) << "chromium is not installed (apt-get install chromium): the HTML "
                                    "report cannot be checked in a headless browser";
  const fs::path dir = gltf_anim_test::scratch_root() / "compare_browser";
  fs::remove_all(dir);
  fs::create_directories(dir / "golden");
  fs::create_directories(dir / "actual");
  // Two cases with hostile names and a manifest with features; one fails on
  // a rotation and a weights channel, one is missing a sample.
  std::ofstream(dir / "golden/manifest.json") << R"({"assets": [
    {"id": "spin <img src=x onerror=alert(1)>", "samples": "spin.samples.json",
     "features": ["rotation", "</table><script>alert(2)</script>"], "clauses": ["C.4"]},
    {"id": "morph", "samples": "morph.samples.json", "features": ["weights"]}]})";
  for (int actual = 0; actual < 2; ++actual) {
    const fs::path out = dir / (actual ? "actual" : "golden");
    gs::SamplesFile spin;
    spin.asset = "spin.gltf";
    auto& r = spin.animations.emplace_back().channels.emplace_back();
    r.target = "/nodes/0/rotation";
    r.interpolation = "LINEAR";
    r.keyframes = {0, 1, 2};
    for (int i = 0; i <= 40; ++i) {
      const double t = i * 0.05;
      const double a = t + (actual ? 0.05 * std::sin(6 * t) : 0.0);
      const double s = actual && i % 2 ? -1 : 1;  // sign flips must not show
      r.add_sample(t, {s * std::sin(a / 2) * 0.6, s * std::sin(a / 2) * 0.8, 0, s * std::cos(a / 2)});
    }
    auto& w = spin.animations.back().channels.emplace_back();
    w.index = 1;
    w.target = "/nodes/1/weights";
    for (int i = 0; i <= 8; ++i) {
      const double t = i * 0.25;
      w.add_sample(t, {t / 2, 1 - t / 2, actual && i == 5 ? 0.9 : 0.25});
    }
    gs::write_samples_file(out / "spin.samples.json", spin);
    gs::SamplesFile morph;
    morph.asset = "morph.gltf";
    auto& m = morph.animations.emplace_back().channels.emplace_back();
    m.target = "/nodes/0/weights";
    for (int i = 0; i < 5; ++i) {
      if (actual && i == 2) continue;
      m.add_sample(i * 0.5, {i * 0.1});
    }
    gs::write_samples_file(out / "morph.samples.json", morph);
  }
  const fs::path html = dir / "report.html";
  const auto cmp = run(" compare --golden '" + (dir / "golden").string() + "' --actual '" +
                       (dir / "actual").string() + "' --format html --output '" + html.string() + "'");
  ASSERT_EQ(cmp.exit_code, 1) << cmp.err;

  const std::string flags =
      " --headless --no-sandbox --disable-gpu --disable-background-networking "
      "--disable-component-update --disable-sync --no-first-run --disable-extensions "
      "--enable-logging=stderr --v=0 --user-data-dir='" + (dir / "profile").string() + "'";
  const std::string url = "'file://" + html.string() + "'";
  const auto dom = run("timeout 120 '" + chromium + "'" + flags + " --dump-dom " + url, false);
  ASSERT_EQ(dom.exit_code, 0) << dom.err;
  EXPECT_EQ(dom.err.find("Uncaught"), std::string::npos) << dom.err;
  EXPECT_EQ(dom.err.find("ERROR:CONSOLE"), std::string::npos) << dom.err;
  EXPECT_EQ(dom.err.find("net::ERR_"), std::string::npos) << dom.err;
  EXPECT_EQ(dom.err.find("Failed to load resource"), std::string::npos) << dom.err;
  // The parsed DOM: summary, three plots (rotation, weights, the missing
  // sample), feature tables, and the hostile text as text, not markup.
  EXPECT_NE(dom.out.find("<p class=\"summary\" id=\"summary\">0 passed, 2 failed</p>"),
            std::string::npos);
  EXPECT_EQ(count(dom.out, "<svg class=\"plot\""), 3u) << dom.out.substr(0, 2000);
  EXPECT_EQ(count(dom.out, "<h3 class=\"feature\">"), 3u);
  EXPECT_NE(dom.out.find("<table>"), std::string::npos);
  EXPECT_EQ(dom.out.find("<script"), std::string::npos);
  EXPECT_EQ(dom.out.find("<img"), std::string::npos);
  EXPECT_NE(dom.out.find("&lt;/table&gt;&lt;script&gt;alert(2)&lt;/script&gt;"), std::string::npos);

  // And it renders: a screenshot is written and is not trivially small.
  const fs::path png = dir / "report.png";
  const auto shot = run("timeout 120 '" + chromium + "'" + flags +
                            " --hide-scrollbars --window-size=1000,1600 --screenshot='" +
                            png.string() + "' " + url,
                        false);
  ASSERT_EQ(shot.exit_code, 0) << shot.err;
  EXPECT_EQ(shot.err.find("ERROR:CONSOLE"), std::string::npos) << shot.err;
  ASSERT_TRUE(fs::exists(png));
  EXPECT_GT(fs::file_size(png), 20000u);
  EXPECT_EQ(read_file(png).substr(1, 3), "PNG");
}

// Hostile text through every report writer: each output must be valid UTF-8
// and parse strictly in its format (strict_text.hpp), and the escaping policy
// of each format (text/include/gltf_anim/text/escape.hpp) holds on its own.
#include <gltf_anim/compare/compare.hpp>
#include <gltf_anim/reports/compare_report.hpp>
#include <gltf_anim/samples/samples.hpp>
#include <gltf_anim/reports/validation_report.hpp>

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <sstream>
#include <string>
#include <vector>

#include "strict_text.hpp"
#include <gltf_anim/text/escape.hpp>
#include <gltf_anim/gltf/json.hpp>

namespace gr = gltf_anim::reports;
namespace gs = gltf_anim::samples;
namespace gc = gltf_anim::compare;
namespace gd = gltf_anim::text;
using gltf_anim::gltf::Issue;
using gltf_anim::gltf::Severity;
using gltf_anim::validator::ValidationReport;

namespace {

// Each is a way input text has broken a report: invalid UTF-8 (a lone
// surrogate as the bytes RapidJSON makes of "\udc00", a stray byte, a cut
// sequence), terminal escapes and C1 controls, NUL, line and paragraph
// separators, a bidirectional override, a noncharacter XML forbids, and
// markup of every format.
const std::vector<std::string> kHostile = {
    "lone\xED\xB0\x80surrogate",
    "stray\xFF\xFE byte",
    "cut \xE2\x82",
    "\x1B[31mred\x1B[0m \x1B]0;title\x07",
    "csi\xC2\x9B" "2J",
    std::string("nul\0byte", 8),
    "line\xE2\x80\xA8sep\xE2\x80\xA9para",
    "rlo\xE2\x80\xAEtxt.exe",
    "nonchar\xEF\xBF\xBE",
    "cdata ]]> end",
    "</script><script>alert(1)</script>",
    "a|b`c`*d*_e_[l](http://x)\n# h\r\n",
    "amp & \"q\" 'a' <b>",
    "tab\there\vvt\x7F",
};

std::string all_hostile() {
  std::string s;
  for (const auto& h : kHostile) s += h + " ";
  return s;
}

ValidationReport hostile_validation_report() {
  ValidationReport r;
  r.uri = "dir/" + all_hostile() + ".gltf";
  r.mime_type = "model/gltf+json";
  for (const auto& h : kHostile) {
    r.issues.push_back(Issue{"UNEXPECTED_PROPERTY", Severity::kWarning, "message " + h, "/" + h, std::nullopt});
    r.issues.push_back(Issue{"INVALID_JSON", Severity::kError, h, "", std::nullopt});
  }
  gltf_anim::validator::AssetInfo info;
  info.version = "2.0";
  info.generator = all_hostile();
  info.extensions_used = kHostile;
  r.info = info;
  return r;
}

gs::SamplesFile hostile_samples() {
  gs::SamplesFile f;
  f.asset = all_hostile();
  f.generator = all_hostile();
  for (const auto& h : kHostile) {
    auto& a = f.animations.emplace_back();
    a.index = f.animations.size() - 1;
    a.name = h;
    auto& c = a.channels.emplace_back();
    c.target = "/nodes/0/translation" + h;
    c.interpolation = h;
    c.add_sample(0, {1, 2, 3});
  }
  return f;
}

// One failing case (every channel 0.5 off, one channel missing), one passing
// case, both named with all the hostile strings, and hostile warnings, notes,
// features, clauses and file names.
gc::CompareReport hostile_compare_report() {
  gc::CompareReport r;
  r.golden = all_hostile();
  r.actual = all_hostile();
  r.generator = all_hostile();
  const gs::SamplesFile golden = hostile_samples();
  gs::SamplesFile actual = golden;
  for (auto& a : actual.animations) {
    for (auto& c : a.channels) c.values[0] += 0.5;
  }
  actual.animations.back().channels.clear();
  gc::CaseResult bad = gc::compare_samples(golden, actual, {});
  bad.id = all_hostile();
  bad.golden_file = all_hostile();
  bad.actual_file = all_hostile();
  bad.features = kHostile;
  bad.clauses = kHostile;
  bad.notes = all_hostile();
  bad.warnings = kHostile;
  gc::CaseResult good = gc::compare_samples(golden, golden, {});
  good.id = "good " + all_hostile();
  good.features = kHostile;
  r.cases = {good, bad};
  r.warnings = kHostile;
  return r;
}

std::string validation(gr::ValidationFormat format) {
  const std::vector<ValidationReport> reports{hostile_validation_report(), hostile_validation_report()};
  std::ostringstream out;
  gr::write_validation(out, format, reports);
  return out.str();
}

std::string compare(const std::string& format) {
  std::ostringstream out;
  EXPECT_TRUE(gr::write_compare_report(out, hostile_compare_report(), format));
  return out.str();
}

const std::string kReplacement = "\xEF\xBF\xBD";

}  // namespace

TEST(ReportTextSafety, ValidationJsonAndSarifAreStrictJson) {
  for (const auto f : {gr::ValidationFormat::kJson, gr::ValidationFormat::kSarif}) {
    const std::string out = validation(f);
    EXPECT_EQ(strict_text::json_problem(out), "") << out;
  }
  // The text survives as its repaired form: invalid sequences are U+FFFD
  // (one per maximal subpart: ED B0 80 is three, FF and FE one each, the cut
  // E2 82 one), everything else as it was.
  gltf_anim::json::Document d;
  d.Parse(validation(gr::ValidationFormat::kJson).c_str());
  ASSERT_TRUE(d["reports"].IsArray());
  const auto& messages = d["reports"][0]["issues"]["messages"];
  EXPECT_EQ(std::string(messages[0]["message"].GetString()),
            "message lone" + kReplacement + kReplacement + kReplacement + "surrogate");
  EXPECT_EQ(std::string(messages[3]["message"].GetString()), "stray" + kReplacement + kReplacement + " byte");
  EXPECT_EQ(std::string(messages[5]["message"].GetString()), "cut " + kReplacement);
  const auto& nul = messages[11]["message"];
  EXPECT_EQ(std::string(nul.GetString(), nul.GetStringLength()), std::string("nul\0byte", 8));
}

TEST(ReportTextSafety, JUnitReportsAreWellFormedXml) {
  const std::string v = validation(gr::ValidationFormat::kJunit);
  EXPECT_EQ(strict_text::xml_problem(v), "") << v;
  const std::string c = compare("junit");
  EXPECT_EQ(strict_text::xml_problem(c), "") << c;
  for (const std::string& x : {v, c}) {
    EXPECT_EQ(x.find("]]>"), std::string::npos);
    EXPECT_EQ(x.find("<script>"), std::string::npos);
    // Control characters XML forbids are shown, not dropped.
    EXPECT_NE(x.find("\\x1b[31mred"), std::string::npos);
    EXPECT_NE(x.find("nul\\x00byte"), std::string::npos);
  }
}

TEST(ReportTextSafety, TextAndMarkdownHoldNoControlCharacters) {
  for (const std::string& out : {validation(gr::ValidationFormat::kText), compare("text"), compare("md")}) {
    EXPECT_EQ(strict_text::text_problem(out), "") << out;
    // Terminal escapes, C1 controls, separators and bidi overrides are shown
    // as escapes (Markdown doubles the backslash so that it renders as one).
    for (const char* visible : {"x1b", "x07", "u009b", "u2028", "u2029", "u202e", "ufffe", "x00byte", "x7f"}) {
      EXPECT_NE(out.find(visible), std::string::npos) << visible << "\n" << out;
    }
  }
  // No string breaks a line: 2 assets x 28 issues, grouped by code (2 codes,
  // each with 14 distinct messages, one per hostile string) is per asset its
  // line, then per code its line and one line per distinct message; then the
  // summary.
  const std::string text = validation(gr::ValidationFormat::kText);
  std::size_t lines = 0;
  for (char c : text) lines += c == '\n' ? 1 : 0;
  EXPECT_EQ(lines, 2 * (1 + 2 * (1 + 14)) + 1u) << text;
}

TEST(ReportTextSafety, MarkdownTableRowsKeepTheirColumns) {
  const std::string md = compare("md");
  // The cases table: header, separator, two cases; each with the 8 pipes of
  // 7 columns. Then the failing channels' worst-samples tables (under their
  // hostile target names): every row with the 5 pipes of 4 columns.
  const std::vector<std::size_t> pipes = strict_text::markdown_row_pipes(md);
  ASSERT_GT(pipes.size(), 4u) << md;
  EXPECT_EQ(std::vector<std::size_t>(pipes.begin(), pipes.begin() + 4),
            std::vector<std::size_t>(4, 8))
      << md;
  for (std::size_t i = 4; i < pipes.size(); ++i)
    EXPECT_EQ(pipes[i], 5u) << "row " << i << "\n" << md;
  EXPECT_EQ(md.find("<script>"), std::string::npos);
  EXPECT_EQ(md.find("](http"), std::string::npos);
}

TEST(ReportTextSafety, HtmlHasNoMarkupFromData) {
  const std::string html = compare("html");
  EXPECT_EQ(strict_text::text_problem(html), "");
  EXPECT_EQ(strict_text::xml_problem_own(html, true), "") << html;
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("</script"), std::string::npos);
  EXPECT_EQ(html.find("<b>"), std::string::npos);
  EXPECT_NE(html.find("&lt;b&gt;"), std::string::npos);
  EXPECT_EQ(html.find("'a'"), std::string::npos);  // quotes end attributes
  EXPECT_NE(html.find("&#39;a&#39;"), std::string::npos);
}

TEST(ReportTextSafety, CompareJsonIsStrictJson) {
  const std::string out = compare("json");
  EXPECT_EQ(strict_text::json_problem(out), "") << out;
  // One JSON policy: ESC is written as RapidJSON writes it in validation reports.
  EXPECT_NE(out.find("\\u001B[31mred"), std::string::npos);
  EXPECT_NE(validation(gr::ValidationFormat::kJson).find("\\u001B[31mred"), std::string::npos);
}

TEST(ReportTextSafety, SamplesFilesAreStrictAndReadBack) {
  const gs::SamplesFile f = hostile_samples();
  const std::string json = gs::write_samples_json(f);
  EXPECT_EQ(strict_text::json_problem(json), "") << json;
  const std::string csv = gs::write_samples_csv(f);
  EXPECT_TRUE(strict_text::utf8(csv));
  // Both read back (the readers refuse text that is not UTF-8), names repaired.
  const gs::SamplesFile j = gs::read_samples_json(json, {}, "hostile.json");
  ASSERT_EQ(j.animations.size(), kHostile.size());
  EXPECT_EQ(j.animations[0].name, "lone" + kReplacement + kReplacement + kReplacement + "surrogate");
  EXPECT_EQ(j.animations[5].name, std::string("nul\0byte", 8));
  const gs::SamplesFile c = gs::read_samples_csv(csv, {}, "hostile.csv");
  std::size_t channels = 0;
  for (const auto& a : c.animations) channels += a.channels.size();
  ASSERT_EQ(channels, kHostile.size());
  EXPECT_EQ(c.animations[1].channels[0].target, "/nodes/0/translationstray" + kReplacement + kReplacement + " byte");
}

TEST(ReportTextSafety, SamplesReadersRefuseLoneSurrogates) {
  // "\udc00" is a JSON escape RapidJSON 1.1.0 decodes to ED B0 80, which is
  // not UTF-8 (a surrogate code point), and so is any unpaired surrogate.
  for (const char* name : {R"("\udc00")", R"("a\udfffb")"}) {
    const std::string in = std::string(R"({"asset": "a", "animations": [{"name": )") + name + "}]}";
    EXPECT_THROW(gs::read_samples_json(in, {}, "s.json"), gs::SamplesFormatError) << in;
  }
  const std::string key = R"({"asset": "a", "\udc00": 1, "animations": []})";
  EXPECT_THROW(gs::read_samples_json(key, {}, "s.json"), gs::SamplesFormatError);
  // A pair is one character (U+1F600) and reads.
  const std::string pair = R"({"asset": "\ud83d\ude00", "animations": []})";
  EXPECT_EQ(gs::read_samples_json(pair, {}, "s.json").asset, "\xF0\x9F\x98\x80");
  // CSV: the bytes themselves.
  const std::string csv = "animation,channel,target,t,v0\n0,0,/nodes/0/\xED\xB0\x80,0,1\n";
  try {
    gs::read_samples_csv(csv, {}, "s.csv");
    ADD_FAILURE() << "invalid UTF-8 accepted";
  } catch (const gs::SamplesFormatError& e) {
    EXPECT_EQ(e.location(), "line 2");
  }
}

// The per-format policies on single characters, each expected from the
// format's own rules.
TEST(ReportTextSafety, EscapingPolicyPerFormat) {
  EXPECT_EQ(gd::json_string(std::string("a\"\\\n\x01\x1f\x7f", 7)), "\"a\\\"\\\\\\n\\u0001\\u001F\x7f\"");
  EXPECT_EQ(gd::json_string("\xFF"), "\"" + kReplacement + "\"");
  EXPECT_EQ(gd::xml_escape("<&>\"'"), "&lt;&amp;&gt;&quot;&#39;");
  EXPECT_EQ(gd::xml_escape("a\nb\tc\rd"), "a&#10;b&#9;c&#13;d");
  EXPECT_EQ(gd::xml_escape("a\nb\tc\rd", false), "a\nb\tc&#13;d");
  EXPECT_EQ(gd::xml_escape("\x1b\xC2\x85"), "\\x1b\\u0085");
  EXPECT_EQ(gd::visible_text("\x1b[2J\n\t\xE2\x80\xAE"), "\\x1b[2J\\n\\t\\u202e");
  EXPECT_EQ(gd::visible_text("\xC3\xA9\xE2\x82\xAC"), "\xC3\xA9\xE2\x82\xAC");  // é€ as they are
  EXPECT_EQ(gd::md_escape("a|b\x1b"), "a\\|b\\\\x1b");
  EXPECT_EQ(gd::csv_field("plain"), "plain");
  EXPECT_EQ(gd::csv_field("a,\"b\"\n"), "\"a,\"\"b\"\"\n\"");
  EXPECT_EQ(gd::csv_field("x\xFF"), "x" + kReplacement);
}

// The checkers above are only worth something if they refuse: each broken
// text is refused, each well-formed one accepted.
TEST(ReportTextSafety, StrictCheckersRefuseBrokenText) {
  EXPECT_EQ(strict_text::json_problem(R"({"a": ["\ud83d\ude00", "\u001b"]})"), "");
  EXPECT_NE(strict_text::json_problem("{\"a\": \"\xFF\"}"), "");
  EXPECT_NE(strict_text::json_problem(R"({"a": "\udc00"})"), "");
  EXPECT_NE(strict_text::json_problem("{\"a\": \"\x1b\"}"), "");
  EXPECT_EQ(strict_text::xml_problem_own("<?xml version=\"1.0\"?>\n<a b=\"&#10;&amp;\"><c/>&lt;]]&gt;</a>\n"), "");
  for (const char* bad : {"<a>&</a>", "<a></b>", "<a>\x1b</a>", "<a>]]></a>", "<a b=\"<\"/>", "<a b=c/>",
                          "<a>&nbsp;</a>", "<a>&#1;</a>", "<a/><b/>", "<a>\xEF\xBF\xBE</a>", "<a>< b</a>"}) {
    EXPECT_NE(strict_text::xml_problem_own(bad), "") << bad;
  }
  EXPECT_EQ(strict_text::xml_problem_own("<!DOCTYPE html><html><br><p>&mdash;</p></html>", true), "");
  EXPECT_NE(strict_text::xml_problem_own("<!DOCTYPE html><html><p><script></p></html>", true), "");
  EXPECT_NE(strict_text::text_problem("a\x1b[2J"), "");
  EXPECT_NE(strict_text::text_problem("a\xC2\x9B" "2J"), "");
  EXPECT_NE(strict_text::text_problem("a\r"), "");
  EXPECT_EQ(strict_text::text_problem("caf\xC3\xA9\n"), "");
}

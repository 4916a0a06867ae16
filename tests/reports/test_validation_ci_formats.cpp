// The CI job's page (reports/src/validation_ci.cpp): the job summary (md) leads
// with the failing assets and their issues, then counts the passing ones in a
// <details>; the annotations (github) are GitHub workflow commands escaped by
// GitHub's rules, capped with a note of what was left out, and no asset name or
// message can end one and start another. A GLB's place is its JSON pointer,
// never a line and column of a binary file (SARIF's region too).
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/text/escape.hpp>
#include <gltf_anim/validator/validate.hpp>
#include <gltf_anim/gltf/json.hpp>

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "strict_text.hpp"

namespace {

namespace gr = gltf_anim::reports;
using gltf_anim::gltf::Issue;
using gltf_anim::gltf::Severity;
using gltf_anim::validator::ValidationReport;

Issue issue(std::string_view code, Severity s, std::string pointer, std::string message) {
  Issue i;
  i.code = code;
  i.severity = s;
  i.pointer = std::move(pointer);
  i.message = std::move(message);
  return i;
}

ValidationReport passing(int k) {
  ValidationReport r;
  r.uri = "exports/ok_" + std::to_string(k) + ".gltf";
  r.mime_type = "model/gltf+json";
  return r;
}

ValidationReport failing(std::string uri) {
  ValidationReport r;
  r.uri = std::move(uri);
  r.mime_type = "model/gltf+json";
  r.issues.push_back(issue("ANIMATION_DUPLICATE_TARGETS", Severity::kError,
                           "/animations/0/channels/1",
                           "Two channels target the rotation of node 0"));
  return r;
}

// 121 assets, the 61st failing: what an exporter's CI validates.
std::vector<ValidationReport> run_of_121() {
  std::vector<ValidationReport> reports;
  for (int k = 0; k < 121; ++k)
    reports.push_back(k == 60 ? failing("exports/bad.gltf") : passing(k));
  return reports;
}

std::string write(gr::ValidationFormat format, const std::vector<ValidationReport>& reports,
                  gr::ValidationWriteOptions options = {}) {
  std::ostringstream out;
  gr::write_validation(out, format, reports, options);
  return out.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// GitHub's runner's reading of a workflow command line (actions/runner,
// ActionCommand.TryParseV2): "::NAME PROPS::DATA", PROPS split at ',' then at
// the first '=', each value and DATA unescaped (%25 last, as the runner does).
struct Command {
  std::string name;
  std::map<std::string, std::string> properties;
  std::string data;
};

std::string unescape(std::string s, bool property) {
  auto replace = [&s](const std::string& from, const std::string& to) {
    for (std::size_t at = s.find(from); at != std::string::npos;
         at = s.find(from, at + to.size())) {
      s.replace(at, from.size(), to);
    }
  };
  replace("%0D", "\r");
  replace("%0A", "\n");
  if (property) {
    replace("%3A", ":");
    replace("%2C", ",");
  }
  replace("%25", "%");
  return s;
}

std::optional<Command> parse_command(const std::string& line) {
  if (line.rfind("::", 0) != 0) return std::nullopt;
  const std::size_t end = line.find("::", 2);
  if (end == std::string::npos) return std::nullopt;
  Command c;
  const std::string head = line.substr(2, end - 2);
  c.data = unescape(line.substr(end + 2), false);
  const std::size_t space = head.find(' ');
  c.name = head.substr(0, space);
  if (space != std::string::npos) {
    std::istringstream props(head.substr(space + 1));
    for (std::string p; std::getline(props, p, ',');) {
      const std::size_t eq = p.find('=');
      if (eq == std::string::npos) continue;
      c.properties[p.substr(0, eq)] = unescape(p.substr(eq + 1), true);
    }
  }
  return c;
}

std::vector<Command> commands_of(const std::string& text) {
  std::vector<Command> commands;
  for (const std::string& line : lines_of(text)) {
    if (auto c = parse_command(line)) commands.push_back(*c);
  }
  return commands;
}

TEST(JobSummary, LeadsWithTheFailingAssetThenCountsThePassingOnes) {
  const std::string md = write(gr::ValidationFormat::kMarkdown, run_of_121());
  const std::vector<std::string> lines = lines_of(md);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "### gltf-anim validate: 1 of 121 assets failed");
  const std::size_t fail = md.find("bad");
  const std::size_t row = md.find(
      "| error | ANIMATION\\_DUPLICATE\\_TARGETS | /animations/0/channels/1 | Two channels target "
      "the rotation of node 0 |");
  const std::size_t details = md.find("<details><summary>120 assets passed</summary>");
  ASSERT_NE(fail, std::string::npos) << md;
  ASSERT_NE(row, std::string::npos) << md;
  ASSERT_NE(details, std::string::npos) << md;
  EXPECT_LT(fail, row);
  EXPECT_LT(row, details);
  // Every passing asset is in the folded list, none before the failure.
  EXPECT_EQ(md.rfind("ok\\_0\\.gltf", details), std::string::npos) << md;
  EXPECT_NE(md.find("- exports/ok\\_120\\.gltf", details), std::string::npos) << md;
  EXPECT_NE(md.find("</details>", details), std::string::npos);
  EXPECT_EQ(strict_text::text_problem(md), "");
}

TEST(JobSummary, AllPassingSaysNoneFailedAndFoldsThem) {
  std::vector<ValidationReport> reports;
  for (int k = 0; k < 3; ++k) reports.push_back(passing(k));
  const std::string md = write(gr::ValidationFormat::kMarkdown, reports);
  EXPECT_EQ(lines_of(md).at(0), "### gltf-anim validate: 0 of 3 assets failed");
  EXPECT_NE(md.find("<details><summary>3 assets passed</summary>"), std::string::npos) << md;
  EXPECT_EQ(md.find("| error"), std::string::npos) << md;
}

TEST(JobSummary, IsBoundedWhateverTheNumberOfIssues) {
  ValidationReport r = failing("huge.gltf");
  for (int k = 0; k < 1000; ++k) {
    r.issues.push_back(issue("ANIMATION_DUPLICATE_TARGETS", Severity::kError,
                             "/animations/" + std::to_string(k), std::string(200, 'x')));
  }
  std::vector<ValidationReport> reports(120, r);
  const std::string md = write(gr::ValidationFormat::kMarkdown, reports);
  EXPECT_LT(md.size(), 512u * 1024) << "GitHub takes 1 MiB of summary per step";
  EXPECT_NE(md.find("more issues of this asset are not listed here"), std::string::npos);
  EXPECT_NE(md.find("20 more failing assets are not listed here"), std::string::npos);
}

TEST(Annotations, OneErrorWithItsFileCodeMessageAndPointer) {
  const std::string text = write(gr::ValidationFormat::kGithub, run_of_121());
  const std::vector<std::string> lines = lines_of(text);
  ASSERT_EQ(lines.size(), 2u) << text;
  // No line and column here: the issue has no position (validation gives one, below).
  EXPECT_EQ(
      lines[0],
      "::error file=exports/bad.gltf,title=ANIMATION_DUPLICATE_TARGETS::Two channels target the "
      "rotation of node 0 (/animations/0/channels/1)");
  EXPECT_EQ(lines[1], "gltf-anim validate: 1 of 121 assets failed; 1 annotations");
}

TEST(Annotations, AreEscapedByGithubsRules) {
  ValidationReport r;
  r.uri = "a:b,c%d.gltf";
  r.mime_type = "model/gltf+json";
  r.issues.push_back(issue("ANIMATION_DUPLICATE_TARGETS", Severity::kError, "/x:y,z",
                           "100% sure\r\nsecond line: a, b"));
  r.issues.push_back(issue("UNEXPECTED_PROPERTY", Severity::kWarning, "/w", "w"));
  const std::string text = write(gr::ValidationFormat::kGithub, {r});
  const std::vector<std::string> lines = lines_of(text);
  ASSERT_EQ(lines.size(), 3u) << text;
  EXPECT_EQ(
      lines[0],
      "::error file=a%3Ab%2Cc%25d.gltf,title=ANIMATION_DUPLICATE_TARGETS::100%25 sure%0D%0Asecond "
      "line: a, b (/x:y,z)");
  EXPECT_EQ(lines[1], "::warning file=a%3Ab%2Cc%25d.gltf,title=UNEXPECTED_PROPERTY::w (/w)");
  // The runner reads them back as they were.
  const std::vector<Command> commands = commands_of(text);
  ASSERT_EQ(commands.size(), 2u);
  EXPECT_EQ(commands[0].properties.at("file"), "a:b,c%d.gltf");
  EXPECT_EQ(commands[0].data, "100% sure\r\nsecond line: a, b (/x:y,z)");
}

TEST(Annotations, AHostileNameOrMessageForgesNoCommand) {
  // Each tries to end the annotation's line and start a command of its own, or
  // to add a property: a new line, a carriage return, a line separator, '::'.
  const std::vector<std::string> hostile = {
      "x.gltf\n::error file=forged::forged",
      "x.gltf\r::add-mask::secret",
      "::warning title=forged::x.gltf",
      "a,title=FORGED,line=1.gltf",
      "x\xE2\x80\xA8::error::forged\xC2\x85::notice::forged\x1B[2J.gltf",
      "bad\xFF\xFEutf8.gltf",
  };
  std::vector<ValidationReport> reports;
  for (const std::string& name : hostile) {
    ValidationReport r;
    r.uri = name;
    r.mime_type = "model/gltf+json";
    r.issues.push_back(issue("ANIMATION_DUPLICATE_TARGETS", Severity::kError, name, name));
    reports.push_back(r);
  }
  const std::string text = write(gr::ValidationFormat::kGithub, reports);
  EXPECT_EQ(strict_text::ci_format_problem("github", text), "") << text;
  const std::vector<std::string> lines = lines_of(text);
  ASSERT_EQ(lines.size(), hostile.size() + 1) << text;
  const std::vector<Command> commands = commands_of(text);
  ASSERT_EQ(commands.size(), hostile.size()) << text;
  for (std::size_t k = 0; k < hostile.size(); ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(lines[k].rfind("::error file=", 0), 0u) << lines[k];
    EXPECT_EQ(commands[k].name, "error");
    // Only our properties, the title ours.
    EXPECT_EQ(commands[k].properties.size(), 2u);
    EXPECT_EQ(commands[k].properties.at("title"), "ANIMATION_DUPLICATE_TARGETS");
    // One line, no control character (what the runner's reading gives back).
    for (const char c : lines[k]) EXPECT_FALSE(c == '\n' || c == '\r' || c == '\x1B') << lines[k];
    EXPECT_EQ(lines[k].find("\xE2\x80\xA8"), std::string::npos);
  }
  // What can be kept is kept: the name with ':' and ',' comes back whole.
  EXPECT_EQ(commands[3].properties.at("file"), hostile[3]);
  EXPECT_EQ(commands[0].properties.at("file"), hostile[0]);
}

TEST(Annotations, AreCappedWithANoteOfWhatWasLeftOut) {
  ValidationReport r = failing("many.gltf");
  for (int k = 0; k < 24; ++k) {
    r.issues.push_back(
        issue("ANIMATION_DUPLICATE_TARGETS", Severity::kError, "/e/" + std::to_string(k), "e"));
  }
  for (int k = 0; k < 13; ++k) {
    r.issues.push_back(
        issue("UNEXPECTED_PROPERTY", Severity::kWarning, "/w/" + std::to_string(k), "w"));
  }
  r.issues.push_back(issue("UNUSED_OBJECT", Severity::kInfo, "/i", "below fail-on: not annotated"));
  const std::string text = write(gr::ValidationFormat::kGithub, {r});
  const std::vector<Command> commands = commands_of(text);
  std::map<std::string, int> kinds;
  for (const Command& c : commands) ++kinds[c.name];
  EXPECT_EQ(kinds["error"], 10);
  EXPECT_EQ(kinds["warning"], 10);
  EXPECT_EQ(kinds["notice"], 1);
  EXPECT_EQ(commands.back().name, "notice");
  EXPECT_EQ(
      commands.back().data,
      "18 more findings were not annotated (15 errors, 3 warnings): the job summary, the log and "
      "the report files list every issue");
  // Errors come first.
  EXPECT_EQ(commands.front().name, "error");
  // With fail-on info an info is a notice.
  gr::ValidationWriteOptions info;
  info.fail_on = Severity::kInfo;
  ValidationReport one;
  one.uri = "i.gltf";
  one.issues.push_back(issue("UNUSED_OBJECT", Severity::kInfo, "/i", "unused"));
  EXPECT_EQ(lines_of(write(gr::ValidationFormat::kGithub, {one}, info)).at(0),
            "::notice file=i.gltf,title=UNUSED_OBJECT::unused (/i)");
}

// `{"asset":{"version":"2.0","foo":1}}`: the 1 of the unexpected member is line 1,
// column 33 of the text; in a GLB, byte 52 of the file.
const std::string kJson = "{\"asset\":{\"version\":\"2.0\",\"foo\":1}}";

std::string glb_of(std::string chunk) {
  while (chunk.size() % 4 != 0) chunk += ' ';
  std::string glb = "glTF";
  auto u32 = [&glb](std::uint32_t v) {
    char b[4];
    std::memcpy(b, &v, 4);
    glb.append(b, 4);
  };
  u32(2);
  u32(static_cast<std::uint32_t>(20 + chunk.size()));
  u32(static_cast<std::uint32_t>(chunk.size()));
  u32(0x4E4F534A);
  return glb + chunk;
}

ValidationReport validate_text(const std::string& text, std::string uri) {
  const std::vector<std::uint8_t> bytes(text.begin(), text.end());
  return gltf_anim::validator::validate_bytes(bytes, std::move(uri), {}, {});
}

std::string line_with(const std::string& text, const std::string& part) {
  for (const std::string& line : lines_of(text)) {
    if (line.find(part) != std::string::npos) return line;
  }
  ADD_FAILURE() << "no line with " << part << " in:\n" << text;
  return {};
}

TEST(GlbPlaces, AreTheJsonPointerNotALineAndColumnOfABinaryFile) {
  gr::ValidationWriteOptions warnings;
  warnings.fail_on = Severity::kHint;
  const ValidationReport glb = validate_text(glb_of(kJson), "a.glb");
  const ValidationReport gltf = validate_text(kJson, "a.gltf");
  // The annotation: a .gltf's has the line and column, a GLB's the pointer only.
  const std::string glb_note =
      line_with(write(gr::ValidationFormat::kGithub, {glb}, warnings), "/asset/foo");
  EXPECT_EQ(glb_note.rfind("::", 0), 0u) << glb_note;
  EXPECT_NE(glb_note.find("file=a.glb,title="), std::string::npos) << glb_note;
  EXPECT_EQ(glb_note.find("line="), std::string::npos) << glb_note;
  EXPECT_EQ(glb_note.find("col="), std::string::npos) << glb_note;
  EXPECT_NE(glb_note.find(" (/asset/foo)"), std::string::npos) << glb_note;
  const std::string gltf_note =
      line_with(write(gr::ValidationFormat::kGithub, {gltf}, warnings), "/asset/foo");
  EXPECT_NE(gltf_note.find("file=a.gltf,line=1,col=33,title="), std::string::npos) << gltf_note;
  // The summary.
  const std::string glb_row =
      line_with(write(gr::ValidationFormat::kMarkdown, {glb}, warnings), "/asset/foo");
  EXPECT_EQ(glb_row.find("line"), std::string::npos) << glb_row;
  const std::string gltf_row =
      line_with(write(gr::ValidationFormat::kMarkdown, {gltf}, warnings), "/asset/foo");
  EXPECT_NE(gltf_row.find("/asset/foo, line 1, column 33"), std::string::npos) << gltf_row;
  // SARIF: line 1 stands for the file, no column; the byte offset and the pointer.
  const std::string sarif = write(gr::ValidationFormat::kSarif, {glb});
  gltf_anim::json::Document d;
  d.Parse(sarif.c_str());
  ASSERT_FALSE(d.HasParseError());
  const auto& results = d["runs"][0]["results"];
  bool found = false;
  for (rapidjson::SizeType k = 0; k < results.Size(); ++k) {
    const auto& location = results[k]["locations"][0];
    if (std::string(location["logicalLocations"][0]["fullyQualifiedName"].GetString()) !=
        "/asset/foo")
      continue;
    found = true;
    const auto& region = location["physicalLocation"]["region"];
    EXPECT_EQ(region["startLine"].GetUint(), 1u);
    EXPECT_FALSE(region.HasMember("startColumn"));
    EXPECT_EQ(region["byteOffset"].GetUint(), 52u);
    EXPECT_NE(std::string(region["message"]["text"].GetString()).find("/asset/foo"),
              std::string::npos);
  }
  EXPECT_TRUE(found) << sarif;
}

TEST(JobSummary, HostileTextStaysInItsCell) {
  ValidationReport r = failing("a|b\n# h\n<details>`x`.gltf");
  r.issues.push_back(issue("ANIMATION_DUPLICATE_TARGETS", Severity::kError, "/a|b",
                           "m|n\n| forged | row |\xFF</details>"));
  const std::string md = write(gr::ValidationFormat::kMarkdown, {r, passing(1)});
  EXPECT_EQ(strict_text::ci_format_problem("md", md), "") << md;
  // One <details> and its end: ours.
  EXPECT_EQ(md.find("<details>"), md.rfind("<details>")) << md;
  EXPECT_EQ(md.find("</details>"), md.rfind("</details>")) << md;
  for (const std::string& line : lines_of(md)) EXPECT_NE(line.rfind("# h", 0), 0u) << md;
}

}  // namespace

// libFuzzer target: the inputs of validate's CI policy that come from files,
// with a property check on what reaches a report. The first byte picks:
//   even  the project config (.gltf-anim.json): parse_run_config accepts or
//         refuses with a reason; an accepted config's words are applied to
//         IssueOptions exactly as the CLI does (they were checked);
//   odd   a glTF-Validator report: parsed, each report merged into an empty
//         one and into a copy of itself, then written with the tool marks by
//         the writer the second byte picks (json, text, junit, sarif), whose
//         output must be valid UTF-8 that parses strictly in its format;
//         the reports are matched to their own uris, and merged at once as
//         they merge one by one.
#include <gltf_anim/reports/formats.hpp>
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/validator/gltf_validator_report.hpp>
#include <gltf_anim/validator/issue_policy.hpp>
#include <gltf_anim/validator/run_config.hpp>

#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <string_view>

#include "../tests/strict_text.hpp"

namespace {

namespace gr = gltf_anim::reports;
namespace gv = gltf_anim::validator;
namespace gltf = gltf_anim::gltf;

void require(bool ok, const char* what, const std::string& detail) {
  if (ok) return;
  std::fprintf(stderr, "%s: %.4000s\n", what, detail.c_str());
  __builtin_trap();
}

void config(std::string_view text) {
  std::string why;
  const auto c = gv::parse_run_config(text, why);
  require(c.has_value() == why.empty(), "a config is accepted or refused with a reason", why);
  require(strict_text::utf8(why), "the refusal is UTF-8", why);
  if (!c) return;
  gltf::IssueOptions o;
  for (const auto& p : c->ignore) require(gv::ignore_codes(p, o).empty(), "checked ignore", p);
  for (const auto& p : c->enable) require(gv::enable_lints(p, o).empty(), "checked enable", p);
  for (const auto& [p, s] : c->severity_overrides) {
    require(gv::override_severity(p, s, o).empty(), "checked override", p);
  }
}

void gltf_validator(std::string_view text, unsigned writer) {
  std::string why;
  const auto reports = gv::parse_gltf_validator_reports(text, why);
  require(reports.has_value() == why.empty(), "a report is accepted or refused with a reason", why);
  require(strict_text::utf8(why), "the refusal is UTF-8", why);
  if (!reports) return;
  std::vector<gv::ValidationReport> merged;
  for (const auto& theirs : *reports) {
    gv::ValidationReport r;
    r.uri = theirs.uri.value_or("-");
    gv::merge_gltf_validator_report(r, theirs, gltf::IssueOptions{});
    const std::size_t once = r.issues.size();
    gv::merge_gltf_validator_report(r, theirs, gltf::IssueOptions{});
    require(r.issues.size() == once, "merging a report twice adds nothing", r.uri);
    merged.push_back(std::move(r));
    if (merged.size() == 8) break;  // a run stays short
  }
  // Every report matched to the assets their own uris name: each is matched
  // or refused with a reason (a uri that is another's tail is ambiguous), in
  // one walk over its uri; all merged at once equal merged one by one.
  std::vector<std::string> uris;
  for (const auto& theirs : *reports) {
    if (theirs.uri) uris.push_back(*theirs.uri);
  }
  const auto owners = gv::match_gltf_validator_reports(*reports, uris, why);
  require(owners.has_value() || !why.empty(), "reports are matched or refused with a reason", why);
  if (owners) require(owners->size() == reports->size(), "one owner per report", why);
  std::vector<const gv::GltfValidatorReport*> all;
  for (const auto& theirs : *reports) all.push_back(&theirs);
  gv::ValidationReport at_once, one_by_one;
  gv::merge_gltf_validator_reports(at_once, all, gltf::IssueOptions{});
  for (const auto& theirs : *reports) {
    gv::merge_gltf_validator_report(one_by_one, theirs, gltf::IssueOptions{});
  }
  require(at_once.issues.size() == one_by_one.issues.size() &&
              at_once.truncated == one_by_one.truncated,
          "all of an asset's reports merged at once equal one by one", at_once.uri);
  const auto formats = gr::validation_formats();
  const gr::ValidationFormatRow& row = formats[writer % formats.size()];
  gr::ValidationWriteOptions wopt;
  wopt.found_by = true;
  std::ostringstream out;
  gr::write_validation(out, row.format, merged, wopt);
  const std::string problem = strict_text::format_problem(std::string(row.name), out.str());
  require(problem.empty(), "the merged report is well formed", problem + "\n" + out.str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 2, size - 2);
  if (data[0] % 2 == 0) {
    config(rest);
  } else {
    gltf_validator(rest, data[1]);
  }
  return 0;
}

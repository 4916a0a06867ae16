// The JUnit XML validation report: one testcase per asset.
#include <gltf_anim/io/spool.hpp>
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/text/escape.hpp>
#include <gltf_anim/validator/validate.hpp>

#include <cstdio>
#include <sstream>
#include <string>

#include "validation_writers.hpp"

namespace gltf_anim::reports {
namespace {

using gltf::Issue;
using io::Spool;
using validator::ValidationReport;

// "[glTF-Validator]" or "[gltf-anim, glTF-Validator]": who found it, in a merged run.
std::string found_by_tag(const Issue& i) {
  std::string s = "[";
  for (const std::string_view tool : gltf::found_by_names(i.found_by)) {
    s += s.size() > 1 ? ", " : "";
    s += tool;
  }
  return s + "] ";
}

std::string issue_line(const Issue& i, bool found_by) {
  std::string s = found_by ? found_by_tag(i) : std::string();
  s += gltf::severity_name(i.severity);
  s += ' ';
  s += i.code;
  s += " at ";
  if (i.offset) {
    s += '@';
    s += std::to_string(*i.offset);
  } else {
    s += i.pointer.empty() ? std::string("\"\"") : i.pointer;
  }
  s += ": ";
  s += i.message;
  return s;
}

// Seconds for a JUnit time attribute (xs:decimal), microsecond resolution.
std::string junit_seconds(double s) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.6f", s < 0 ? 0.0 : s);
  return buffer;
}

class JunitStreamWriter final : public ValidationStreamWriter {
 public:
  JunitStreamWriter(std::ostream& out, const ValidationWriteOptions& options)
      : out_(out), options_(options), testcases_(options.spool_folder) {}
  void end() override {
    const std::string time = totals_.timed && totals_.assets != 0
                                 ? " time=\"" + junit_seconds(totals_.seconds) + "\""
                                 : "";
    out_ << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         << "<testsuites name=\"gltf-anim validate\" tests=\"" << totals_.assets << "\" failures=\""
         << totals_.failing << "\" errors=\"0\"" << time << ">\n"
         << "  <testsuite name=\"gltf-anim validate\" tests=\"" << totals_.assets
         << "\" failures=\"" << totals_.failing << "\" errors=\"0\" skipped=\"0\"" << time << ">\n";
    testcases_.copy_to(out_);
    out_ << "  </testsuite>\n</testsuites>\n";
  }

 protected:
  void write_asset(const ValidationReport& r, const IssueFacts& facts, const IssueSource& issues,
                   const AssetRun& run) override;

 private:
  std::ostream& out_;
  ValidationWriteOptions options_;
  Spool testcases_;
  ValidationTotals totals_;
};

// One testcase per asset: classname its folder as given ("." for none), name
// its file name, file its path, so CI views group assets by folder and link
// the file.
void JunitStreamWriter::write_asset(const ValidationReport& r, const IssueFacts& facts,
                                    const IssueSource& issues, const AssetRun& run) {
  totals_.add(r, facts, options_.fail_on, run);
  const std::string_view uri = r.uri;
  const std::size_t slash = uri.find_last_of('/');
  const std::string_view folder =
      slash == std::string_view::npos ? "." : uri.substr(0, slash == 0 ? 1 : slash);
  const std::string_view name = slash == std::string_view::npos ? uri : uri.substr(slash + 1);
  std::ostringstream out;
  out << "    <testcase classname=\"" << text::xml_escape(folder) << "\" name=\""
      << text::xml_escape(name) << "\" file=\"" << text::xml_escape(uri) << "\"";
  if (run.seconds) out << " time=\"" << junit_seconds(*run.seconds) << "\"";
  out << ">\n";
  testcases_.write(out.view());
  // The failing issues, then the others: two readings of the issues, each line
  // written as it comes (a merge holds one issue, not the asset's lines).
  const int fail_on = static_cast<int>(options_.fail_on);
  const bool found_by = options_.found_by;
  auto lines = [&](bool failing) {
    issues.for_each([&](const Issue& i) {
      if ((static_cast<int>(i.severity) <= fail_on) != failing) return;
      // One line per issue, whatever the message holds.
      testcases_.write(
          text::xml_escape(text::visible_text(issue_line(i, found_by)) + "\n", false));
    });
  };
  const std::uint64_t n_failing = facts.at_or_above(options_.fail_on);
  if (n_failing != 0) {
    std::ostringstream open;
    open << "      <failure type=\"" << text::xml_escape(facts.first_reaching(options_.fail_on))
         << "\" message=\"" << n_failing << (n_failing == 1 ? " issue" : " issues")
         << " at or above " << text::xml_escape(gltf::severity_name(options_.fail_on)) << "\">";
    testcases_.write(open.view());
    lines(true);
    testcases_.write("</failure>\n");
  }
  const std::uint64_t n_other = facts.counts[0] + facts.counts[1] + facts.counts[2] +
                                facts.counts[3] - n_failing;
  if (n_other != 0 || r.truncated) {
    testcases_.write("      <system-out>");
    lines(false);
    testcases_.write(r.truncated ? "(truncated by --max-issues or --max-issue-mb)\n" : "");
    testcases_.write("</system-out>\n");
  }
  testcases_.write("    </testcase>\n");
}

}  // namespace

std::unique_ptr<ValidationStreamWriter> make_validation_junit_writer(
    std::ostream& out, const ValidationWriteOptions& options) {
  return std::make_unique<JunitStreamWriter>(out, options);
}

void write_validation_junit(std::ostream& out, std::span<const ValidationReport> reports,
                            const ValidationWriteOptions& options) {
  JunitStreamWriter w(out, options);
  for (const ValidationReport& r : reports) w.asset(r);
  w.end();
}

}  // namespace gltf_anim::reports

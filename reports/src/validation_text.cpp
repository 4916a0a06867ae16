// The text format, for people (and CI logs). Per asset: a header line, then the
// issue codes in order of first appearance. A code raised once prints its
// pointer and message; a repeated code with one message prints its count, its
// first places and the message; a code with several distinct messages prints
// its count, then one line per distinct message (its count and first places),
// the first kMaxMessages of them and how many more the other formats hold.
// Then a summary over all assets.
#include <gltf_anim/reports/formats.hpp>
#include <gltf_anim/reports/validation_report.hpp>
#include <gltf_anim/validator/issue_policy.hpp>

#include "validation_writers.hpp"

#include <map>
#include <memory>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <gltf_anim/text/escape.hpp>

namespace gltf_anim::reports {
namespace {

using gltf::Issue;
using gltf::Severity;
using validator::ValidationReport;

constexpr std::size_t kFirstPlaces = 3;
// Distinct messages listed per code; a log stays readable when one code has
// thousands of different messages (the json report has every issue).
constexpr std::size_t kMaxMessages = 20;

const char* label(Severity s) {
  switch (s) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kInfo: return "info";
    case Severity::kHint: return "hint";
  }
  return "?";
}

std::string place(const Issue& i) {
  if (i.offset) {
    std::string s = "@";
    s += std::to_string(*i.offset);
    return s;
  }
  return i.pointer.empty() ? std::string("\"\"") : text::visible_text(i.pointer);
}

// " xN, first at P1, P2, P3, ..." for N issues (N > 1), or " at P" for one:
// `first` holds the first places (up to kFirstPlaces).
std::string places(std::uint64_t n, const std::vector<std::string>& first) {
  if (n == 1) return " at " + first.front();
  std::string s = " x" + std::to_string(n) + ", first at ";
  for (std::size_t k = 0; k < first.size() && k < kFirstPlaces; ++k) {
    if (k) s += ", ";
    s += first[k];
  }
  if (n > kFirstPlaces) s += ", ...";
  return s;
}

// A 64-bit digest of a message (FNV-1a, then a finalizer that spreads its
// bits): the distinct messages of a code past the listed ones are only counted,
// and a set of their digests counts them in 8 bytes each, not their text.
std::uint64_t digest(std::string_view text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : text) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

// A set of digests in one open-addressed table (at most half full): 16 bytes
// or less per digest, where a node-based set takes about 40.
class DigestSet {
 public:
  // True when `d` was not in the set.
  bool insert(std::uint64_t d) {
    if (d == 0) d = 1;  // 0 marks an empty slot
    if (2 * (size_ + 1) > slots_.size()) grow();
    if (place(slots_, d)) {
      ++size_;
      return true;
    }
    return false;
  }

 private:
  static bool place(std::vector<std::uint64_t>& slots, std::uint64_t d) {
    const std::size_t mask = slots.size() - 1;
    for (std::size_t at = static_cast<std::size_t>(d) & mask;; at = (at + 1) & mask) {
      if (slots[at] == d) return false;
      if (slots[at] == 0) {
        slots[at] = d;
        return true;
      }
    }
  }
  void grow() {
    std::vector<std::uint64_t> bigger(slots_.empty() ? 64 : 2 * slots_.size(), 0);
    for (const std::uint64_t d : slots_) {
      if (d != 0) place(bigger, d);
    }
    slots_.swap(bigger);
  }
  std::vector<std::uint64_t> slots_;
  std::size_t size_ = 0;
};

// One distinct message of a code, listed: its text, its issues and their first places.
struct ListedMessage {
  std::string message;
  std::uint64_t count = 0;
  std::vector<std::string> first_places;
};

// The issues of one (code, severity, who found it), read one at a time: what
// the text prints of them, bounded whatever their number (the first
// kMaxMessages distinct messages, the others' digests).
struct Group {
  const gltf::Issue* first_seen = nullptr;  // valid only while it is read
  std::string_view code;
  Severity severity = Severity::kError;
  gltf::FoundBy found_by = gltf::FoundBy::kGltfAnim;
  std::uint64_t size = 0;
  std::vector<ListedMessage> listed;
  std::uint64_t distinct = 0;  // distinct messages, the listed ones included
  DigestSet others;            // digests of the distinct messages not listed

  void add(const Issue& i) {
    ++size;
    for (ListedMessage& m : listed) {
      if (m.message == i.message) {
        ++m.count;
        if (m.first_places.size() < kFirstPlaces) m.first_places.push_back(place(i));
        return;
      }
    }
    if (listed.size() < kMaxMessages) {
      listed.push_back(ListedMessage{i.message, 1, {place(i)}});
      ++distinct;
    } else if (others.insert(digest(i.message))) {
      ++distinct;
    }
  }
};

std::string counts(std::uint64_t e, std::uint64_t w, std::uint64_t i, std::uint64_t h) {
  return std::to_string(e) + (e == 1 ? " error, " : " errors, ") + std::to_string(w) +
         (w == 1 ? " warning, " : " warnings, ") + std::to_string(i) +
         (i == 1 ? " info, " : " infos, ") + std::to_string(h) + (h == 1 ? " hint" : " hints");
}

class TextStreamWriter final : public ValidationStreamWriter {
 public:
  TextStreamWriter(std::ostream& out, const ValidationWriteOptions& options) : out_(out), options_(options) {}
  void end() override { out_ << totals_.line() << "\n"; }

 protected:
  void write_asset(const ValidationReport& r, const IssueFacts& facts, const IssueSource& issues,
                   const AssetRun& run) override;

 private:
  std::ostream& out_;
  ValidationWriteOptions options_;
  ValidationTotals totals_;
};

void TextStreamWriter::write_asset(const ValidationReport& r, const IssueFacts& facts,
                                   const IssueSource& issues, const AssetRun& run) {
  std::ostream& out = out_;
  totals_.add(r, facts, options_.fail_on, run);
  const bool fails = facts.reaches(options_.fail_on);
  out << text::visible_text(r.uri) << ": " << (fails ? "FAIL" : "ok") << " ("
      << counts(facts.counts[0], facts.counts[1], facts.counts[2], facts.counts[3])
      << (r.truncated ? "; truncated" : "") << ")\n";
  // Group by (code, severity, who found it), in order of first appearance.
  std::vector<Group> groups;
  std::map<std::tuple<std::string_view, int, int>, std::size_t> index;
  issues.for_each([&groups, &index](const Issue& i) {
    const auto k =
        std::make_tuple(i.code, static_cast<int>(i.severity), static_cast<int>(i.found_by));
    const auto found = index.emplace(k, groups.size());
    if (found.second) {
      groups.emplace_back();
      groups.back().code = i.code;
      groups.back().severity = i.severity;
      groups.back().found_by = i.found_by;
    }
    groups[found.first->second].add(i);
  });
  for (const Group& g : groups) {
    out << "  " << label(g.severity) << " " << text::visible_text(g.code);
    if (options_.found_by) {
      out << " [";
      const char* sep = "";
      for (const std::string_view tool : gltf::found_by_names(g.found_by)) {
        out << sep << tool;
        sep = ", ";
      }
      out << "]";
    }
    if (g.distinct == 1) {
      const ListedMessage& only = g.listed.front();
      out << places(g.size, only.first_places) << ": " << text::visible_text(only.message) << "\n";
      continue;
    }
    out << " x" << g.size << ", " << g.distinct << " distinct messages:\n";
    std::uint64_t shown_issues = 0;
    for (const ListedMessage& m : g.listed) {
      out << "    " << places(m.count, m.first_places).substr(1) << ": "
          << text::visible_text(m.message) << "\n";
      shown_issues += m.count;
    }
    if (g.distinct > kMaxMessages) {
      out << "    ... " << g.distinct - kMaxMessages << " more distinct messages ("
          << g.size - shown_issues << " issues) not listed here: the first " << kMaxMessages
          << " are; --format json lists every issue\n";
    }
  }
}

}  // namespace

void ValidationTotals::add(const ValidationReport& report, Severity fail_on, const AssetRun& run) {
  ++assets;
  failing += reaches(report, fail_on) ? 1 : 0;
  truncated += report.truncated ? 1 : 0;
  for (const Issue& i : report.issues) ++issues[static_cast<std::size_t>(i.severity) & 3];
  if (run.seconds) {
    seconds += *run.seconds;
  } else {
    timed = false;
  }
}

void ValidationTotals::add(const ValidationReport& header, const IssueFacts& facts,
                           Severity fail_on, const AssetRun& run) {
  ++assets;
  failing += facts.reaches(fail_on) ? 1 : 0;
  truncated += header.truncated ? 1 : 0;
  for (std::size_t s = 0; s < 4; ++s) issues[s] += facts.counts[s];
  if (run.seconds) {
    seconds += *run.seconds;
  } else {
    timed = false;
  }
}

void IssueFacts::add(const Issue& issue, std::uint64_t index) {
  const auto s = static_cast<std::size_t>(issue.severity) & 3;
  if (counts[s]++ == 0) {
    first_index[s] = index;
    first_code[s] = issue.code;
  }
}

bool IssueFacts::reaches(Severity fail_on) const { return at_or_above(fail_on) != 0; }

std::uint64_t IssueFacts::at_or_above(Severity fail_on) const {
  std::uint64_t n = 0;
  for (std::size_t s = 0; s < 4 && static_cast<int>(s) <= static_cast<int>(fail_on); ++s)
    n += counts[s];
  return n;
}

std::string_view IssueFacts::first_reaching(Severity fail_on) const {
  std::string_view code;
  bool found = false;
  std::uint64_t first = 0;
  for (std::size_t s = 0; s < 4 && static_cast<int>(s) <= static_cast<int>(fail_on); ++s) {
    if (counts[s] != 0 && (!found || first_index[s] < first)) {
      code = first_code[s];
      first = first_index[s];
      found = true;
    }
  }
  return code;
}

IssueFacts issue_facts(const ValidationReport& report) {
  IssueFacts facts;
  std::uint64_t k = 0;
  for (const Issue& i : report.issues) facts.add(i, k++);
  return facts;
}

std::string ValidationTotals::line() const {
  return std::to_string(assets) + (assets == 1 ? " asset, " : " assets, ") +
         std::to_string(failing) + " failed; " + counts(issues[0], issues[1], issues[2], issues[3]);
}

std::string_view fail_on_name(Severity s) { return validator::severity_word(s); }

std::unique_ptr<ValidationStreamWriter> make_validation_text_writer(std::ostream& out,
                                                                    const ValidationWriteOptions& options) {
  return std::make_unique<TextStreamWriter>(out, options);
}

void write_validation_text(std::ostream& out, std::span<const ValidationReport> reports,
                           const ValidationWriteOptions& options) {
  TextStreamWriter w(out, options);
  for (const ValidationReport& r : reports) w.asset(r);
  w.end();
}

bool reaches(const ValidationReport& report, Severity fail_on) {
  for (const Issue& i : report.issues) {
    if (static_cast<int>(i.severity) <= static_cast<int>(fail_on)) return true;
  }
  return false;
}

void write_validation(std::ostream& out, ValidationFormat format,
                      std::span<const ValidationReport> reports,
                      const ValidationWriteOptions& options) {
  switch (format) {
    case ValidationFormat::kText: write_validation_text(out, reports, options); break;
    case ValidationFormat::kJson: write_validation_json(out, reports, options); break;
    case ValidationFormat::kJunit: write_validation_junit(out, reports, options); break;
    case ValidationFormat::kSarif: write_validation_sarif(out, reports, options); break;
    case ValidationFormat::kMarkdown:
    case ValidationFormat::kGithub: {
      const auto w = make_validation_writer(out, format, options);
      for (const ValidationReport& r : reports) w->asset(r);
      w->end();
      break;
    }
  }
}

}  // namespace gltf_anim::reports

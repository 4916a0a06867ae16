// Conformance report writers: text, json, md, junit (html: compare_html.cpp).
#include <gltf_anim/reports/compare_report.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include <gltf_anim/text/escape.hpp>
#include <gltf_anim/text/words.hpp>

#include "compare_internal.hpp"
#include "json_writer.hpp"

namespace gltf_anim::reports {

using namespace compare;
using samples::format_double;
using text::md_escape;
using text::short_number;
using text::visible_text;
using text::xml_escape;

std::string summary_line(const OutcomeCounts& n) {
  std::string line = std::to_string(n.passed) + " passed, " + std::to_string(n.failed) + " failed";
  if (n.not_run) line += ", " + std::to_string(n.not_run) + " not run";
  if (n.excluded) line += ", " + std::to_string(n.excluded) + " excluded";
  if (n.nothing_compared)
    line += ", " + std::to_string(n.nothing_compared) + " with nothing to compare";
  return line;
}
std::string summary_line(const CompareReport& r) {
  std::string line = summary_line(
      OutcomeCounts{r.passed(), r.failed(), r.not_run(), r.excluded(), r.nothing_compared()});
  if (const std::string unsupported = detail::unsupported_text(r); !unsupported.empty()) {
    line += " (unsupported: " + unsupported + ")";
  }
  return line;
}

namespace detail {

namespace {
// Each name of `lists` with the number of lists holding it, in the order first met.
std::vector<std::pair<std::string, std::size_t>> count_names(
    const CompareReport& r, const std::vector<std::string> CaseResult::*lists) {
  std::vector<std::pair<std::string, std::size_t>> counts;
  std::map<std::string_view, std::size_t> at;
  for (const CaseResult& c : r.cases) {
    for (const std::string& name : c.*lists) {
      const auto [it, added] = at.try_emplace(name, counts.size());
      if (added) counts.emplace_back(name, 0);
      ++counts[it->second].second;
    }
  }
  return counts;
}
std::string counts_text(const std::vector<std::pair<std::string, std::size_t>>& counts) {
  std::string out;
  for (const auto& [name, n] : counts) {
    out += (out.empty() ? "" : ", ") + name + " " + std::to_string(n);
  }
  return out;
}
}  // namespace

std::string unsupported_text(const CompareReport& r) {
  return counts_text(count_names(r, &CaseResult::unsupported));
}

std::string missing_channels_advice(const CompareReport& r) {
  const auto needs = count_names(r, &CaseResult::missing_only);
  if (needs.empty()) return "";
  const auto cases = static_cast<std::size_t>(std::count_if(
      r.cases.begin(), r.cases.end(), [](const CaseResult& c) { return !c.missing_only.empty(); }));
  std::string out =
      std::to_string(cases) + (cases == 1 ? " case fails" : " cases fail") +
      " only on channels missing from the actual samples (what they need: " + counts_text(needs) +
      "). If your engine cannot play them, have its adapter write each such channel "
      "with \"unsupported\": \"FEATURE\" and no samples (docs/CONFORMANCE.md, "
      "\"Samples files\"): the case is then counted as not run, not failed";
  bool extension = false;
  for (const auto& [name, n] : needs)
    extension |= name.starts_with("KHR_") || name.starts_with("EXT_");
  if (extension) {
    out +=
        "; or give --extensions with the extensions your engine implements, which excludes "
        "the cases needing others";
  }
  return out + ".";
}

std::string values_text(std::span<const double> values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i) out += ", ";
    out += short_number(values[i], kValueDigits);
  }
  return out;
}

const char* outcome_word(CaseOutcome o) {
  switch (o) {
    case CaseOutcome::kPassed: return "passed";
    case CaseOutcome::kFailed: return "failed";
    case CaseOutcome::kNothingCompared: return "nothing compared";
    case CaseOutcome::kNotRun: return "not run";
    case CaseOutcome::kExcluded: return "excluded";
  }
  return "";
}

namespace {
// "(t = 1, 2, 3.5)" or "(t = 1, 2, 3.5, ...)" when more than listed.
std::string times_text(const std::vector<double>& listed, std::size_t total) {
  std::string out = "(t = " + values_text(listed);
  if (total > listed.size()) out += ", ...";
  return out + ")";
}
}  // namespace

std::string alternative_sentence(const AlternativeMatch& m) {
  const std::string kind = m.allowed ? "variant \"" : "known divergence \"";
  std::string out;
  if (m.partial) {
    // "partly matches ... at t = 1, 2 (2 of its 3 times); differs after the last key (t = 4)"
    const std::size_t all = m.times + m.differs;
    out = "your values partly match " + kind + m.name + "\": at " +
          times_text(m.first_times, m.times).substr(1);
    out.pop_back();
    out += " (" + std::to_string(m.times) + " of its " + std::to_string(all) + " times); differ " +
           (m.differs_where.empty() ? "from it" : m.differs_where) + " " +
           times_text(m.first_differs, m.differs);
  } else {
    out = "your values match " + kind + m.name + "\" at " +
          (m.times == 1 ? "its only time " : "all " + std::to_string(m.times) + " of its times ") +
          times_text(m.first_times, m.times);
  }
  if (m.allowed)
    out += ", a reading the specs allow";
  else if (!m.breaks.empty()) {
    // The description's sentence, without its full stop: the line goes on.
    std::string_view breaks = m.breaks;
    if (breaks.ends_with('.')) breaks.remove_suffix(1);
    out += "; it ";
    out += breaks;
  }
  if (m.other_failing == 0) {
    out += "; no other sample fails";
  } else {
    out += "; " + std::to_string(m.other_failing) +
           (m.other_failing == 1 ? " other sample fails " : " other samples fail ") +
           times_text(m.first_other_times, m.other_failing);
  }
  return out;
}

std::string scope_text(const CompareReport& r) {
  std::string out;
  if (!r.selection.empty()) {
    out += "cases: ";
    for (std::size_t i = 0; i < r.selection.size(); ++i) out += (i ? "," : "") + r.selection[i];
  }
  if (r.extensions) {
    if (!out.empty()) out += "; ";
    out += "extensions: ";
    if (r.extensions->empty()) out += "none";
    for (std::size_t i = 0; i < r.extensions->size(); ++i)
      out += (i ? "," : "") + (*r.extensions)[i];
  }
  return out;
}

namespace {
// A known divergence's or variant's description up to its first clause: "STEP over intervals
// (t_k-1, t_k] (glTF Sample Viewer)" of "STEP over intervals (t_k-1, t_k] (glTF Sample
// Viewer): at an exact key ...".
std::string first_clause(std::string_view description) {
  std::size_t end = description.size();
  for (const std::string_view stop : {": ", "; ", ". "}) end = std::min(end, description.find(stop));
  std::string out(description.substr(0, end));
  if (out.ends_with('.')) out.pop_back();
  return out;
}

// Why a failing case fails: per cause its key (what groups cases) and its label. A variant or
// known divergence is keyed by its name (and whether the values match it only in part),
// labelled with the first clause of its description.
struct Cause {
  std::string key, label;
};
std::vector<Cause> case_causes(const CaseResult& c) {
  std::vector<Cause> causes;
  const auto add = [&](std::string key, std::string label) {
    for (const Cause& have : causes)
      if (have.key == key) return;
    causes.push_back({std::move(key), std::move(label)});
  };
  for (const ChannelResult& ch : c.channels) {
    if (ch.passed) continue;
    bool matched = false;
    for (const AlternativeMatch& m : ch.alternatives) {
      // A partial match (kept only where none is full): its own cause, "partly matches ...".
      matched = true;
      std::string key = std::string(m.partial ? "partly matches " : "") +
                        (m.allowed ? "variant \"" : "known divergence \"") + m.name + "\"";
      std::string label = key;
      if (const std::string clause = first_clause(m.description); !clause.empty()) label += ": " + clause;
      add(std::move(key), std::move(label));
    }
    if (matched) continue;
    if (ch.missing)
      add("channels missing from the actual samples", "channels missing from the actual samples");
    else if (ch.compared > 0)
      add("no known divergence or variant matches", "no known divergence or variant matches");
    else
      add("samples missing from the actual samples", "samples missing from the actual samples");
  }
  if (causes.empty()) {
    // A case-level failure: the engine's error, a refused file; its words up to the first ':'.
    const std::string_view problem = c.problem;
    std::string words = problem.empty() ? std::string("no known divergence or variant matches")
                                        : std::string(problem.substr(0, problem.find(':')));
    add(words, words);
  }
  return causes;
}
}  // namespace

std::vector<FailureCause> failure_causes(const CompareReport& r) {
  std::vector<FailureCause> causes;
  std::vector<std::string> keys;  // causes[i]'s key
  for (const CaseResult& c : r.cases) {
    if (!c.failed()) continue;
    for (Cause& cause : case_causes(c)) {
      const auto it = std::find(keys.begin(), keys.end(), cause.key);
      if (it == keys.end()) {
        keys.push_back(cause.key);
        causes.push_back(FailureCause{std::move(cause.label), {c.id}});
        continue;
      }
      FailureCause& f = causes[static_cast<std::size_t>(it - keys.begin())];
      // Cases whose descriptions of one alternative differ (the same divergence on byte and
      // short keys, say) are labelled by its name alone.
      if (f.label != cause.label) f.label = cause.key;
      f.cases.push_back(c.id);
    }
  }
  // Most cases first; causes met first stay first among equals.
  std::stable_sort(causes.begin(), causes.end(), [](const FailureCause& a, const FailureCause& b) {
    return a.cases.size() > b.cases.size();
  });
  return causes;
}

std::string cause_cases_text(const FailureCause& cause,
                             const std::function<std::string(const std::string&)>& id_text) {
  const std::size_t n = cause.cases.size();
  std::string out = std::to_string(n) + (n == 1 ? " case (" : " cases (");
  for (std::size_t i = 0; i < n && i < kMaxCauseIds; ++i) {
    if (i != 0) out += ", ";
    out += id_text ? id_text(cause.cases[i]) : cause.cases[i];
  }
  if (n > kMaxCauseIds) out += ", ...";
  return out + ")";
}

}  // namespace detail

using detail::alternative_sentence;
using detail::outcome_word;
using detail::scope_text;
using detail::values_text;

namespace {

// "max 0.5 at t=1 (animation 0 /nodes/0/translation), mean 0.1" with a unit.
std::string describe(const ErrorStats& s, const char* unit) {
  if (s.samples == 0) return "";
  if (s.max == 0) return "max 0" + std::string(unit) + " (all " + std::to_string(s.samples) + " samples exact)";
  return "max " + short_number(s.max) + unit + " at t=" + short_number(s.worst_t, 6) +
         " (animation " + std::to_string(s.worst_animation) + " " + text::visible_text(s.worst_target) +
         "), mean " + short_number(s.mean) + unit;
}

using detail::JsonWriter;
using detail::json_key;
using detail::json_sample_number;
using detail::json_sample_numbers;
using detail::json_str;
using detail::json_strings;

void json_stats(JsonWriter& w, const ErrorStats& s) {
  if (s.samples == 0) {
    w.Null();
    return;
  }
  w.StartObject();
  json_key(w, "samples");
  w.Uint64(s.samples);
  json_key(w, "max");
  json_sample_number(w, s.max);
  json_key(w, "mean");
  json_sample_number(w, s.mean);
  json_key(w, "worstT");
  json_sample_number(w, s.worst_t);
  json_key(w, "worstAnimation");
  w.Uint64(s.worst_animation);
  json_key(w, "worstTarget");
  json_str(w, s.worst_target);
  w.EndObject();
}

// A failing channel's "worstSamples" and "alternatives" members.
void json_diagnosis(JsonWriter& w, const ChannelResult& ch) {
  json_key(w, "worstSamples");
  w.StartArray();
  for (const WorstSample& ws : ch.worst) {
    w.StartObject();
    json_key(w, "t");
    json_sample_number(w, ws.t);
    json_key(w, "golden");
    json_sample_numbers(w, ws.golden);
    json_key(w, "actual");
    json_sample_numbers(w, ws.actual);
    json_key(w, "error");
    json_sample_number(w, ws.error);
    w.EndObject();
  }
  w.EndArray();
  json_key(w, "alternatives");
  w.StartArray();
  for (const AlternativeMatch& m : ch.alternatives) {
    w.StartObject();
    json_key(w, "name");
    json_str(w, m.name);
    json_key(w, "kind");
    w.String(m.allowed ? "variant" : "knownDivergence");
    json_key(w, "times");
    w.Uint64(m.times);
    json_key(w, "firstTimes");
    json_sample_numbers(w, m.first_times);
    json_key(w, "otherFailing");
    w.Uint64(m.other_failing);
    json_key(w, "firstOtherTimes");
    json_sample_numbers(w, m.first_other_times);
    json_key(w, "partial");
    w.Bool(m.partial);
    json_key(w, "differs");
    w.Uint64(m.differs);
    json_key(w, "firstDiffers");
    json_sample_numbers(w, m.first_differs);
    json_key(w, "differsWhere");
    json_str(w, m.differs_where);
    json_key(w, "description");
    json_str(w, m.description);
    json_key(w, "breaks");
    json_str(w, m.breaks);
    json_key(w, "sentence");
    json_str(w, alternative_sentence(m));
    w.EndObject();
  }
  w.EndArray();
}

std::string joined(const std::vector<std::string>& v, std::string (*esc)(std::string_view)) {
  std::string out;
  for (const auto& s : v) {
    if (!out.empty()) out += ", ";
    out += esc(s);
  }
  return out;
}

std::string max_cell(const CaseResult& c) {
  std::string out;
  if (c.absolute.samples) out = short_number(c.absolute.max);
  if (c.angle.samples) out += (out.empty() ? "" : "; ") + short_number(c.angle.max) + " rad";
  return out.empty() ? "-" : out;
}

std::string mean_cell(const CaseResult& c) {
  std::string out;
  if (c.absolute.samples) out = short_number(c.absolute.mean);
  if (c.angle.samples) out += (out.empty() ? "" : "; ") + short_number(c.angle.mean) + " rad";
  return out.empty() ? "-" : out;
}

// The worst sample relative to its tolerance, for the "worst at" columns.
const ErrorStats* worst_of(const CaseResult& c) {
  if (!c.absolute.samples && !c.angle.samples) return nullptr;
  if (!c.angle.samples) return &c.absolute;
  if (!c.absolute.samples) return &c.angle;
  const double ra = c.tolerances.absolute > 0 ? c.absolute.max / c.tolerances.absolute
                                              : c.absolute.max;
  const double rg = c.tolerances.angle > 0 ? c.angle.max / c.tolerances.angle : c.angle.max;
  return rg > ra ? &c.angle : &c.absolute;
}

std::string channel_line(const ChannelResult& ch) {
  return "animation " + std::to_string(ch.animation) + " " + ch.target + ": " + ch.problem;
}

// A worst-samples table as rows of plain cells: t, golden, actual, error.
std::vector<std::array<std::string, 4>> worst_rows(const ChannelResult& ch) {
  std::vector<std::array<std::string, 4>> rows;
  for (const auto& w : ch.worst) {
    rows.push_back({short_number(w.t, detail::kValueDigits), values_text(w.golden),
                    values_text(w.actual),
                    short_number(w.error) + (ch.measure == ErrorMeasure::kAngle ? " rad" : "")});
  }
  return rows;
}
constexpr std::array<const char*, 4> kWorstHeader = {"t", "golden", "actual", "error"};

// The table in aligned columns, each line starting with `indent`.
std::string worst_table_text(const ChannelResult& ch, const std::string& indent) {
  const auto rows = worst_rows(ch);
  if (rows.empty()) return "";
  std::array<std::size_t, 4> width{};
  for (std::size_t k = 0; k < 4; ++k) width[k] = std::string_view(kWorstHeader[k]).size();
  for (const auto& row : rows) {
    for (std::size_t k = 0; k < 4; ++k) width[k] = std::max(width[k], row[k].size());
  }
  std::string out;
  const auto line = [&](const auto& cells) {
    std::string l = indent;
    for (std::size_t k = 0; k < 4; ++k) {
      const std::string_view cell = cells[k];
      l += cell;
      if (k < 3) l += std::string(width[k] - cell.size() + 2, ' ');
    }
    out += l + "\n";
  };
  out += indent + "worst samples:\n";
  line(kWorstHeader);
  for (const auto& row : rows) line(row);
  return out;
}

// The text report's result column: "PASS  id", "NOT RUN  id".
std::string text_word(CaseOutcome o) {
  std::string word;
  switch (o) {
    case CaseOutcome::kPassed: word = "PASS"; break;
    case CaseOutcome::kFailed: word = "FAIL"; break;
    case CaseOutcome::kNothingCompared: word = "NONE"; break;
    case CaseOutcome::kNotRun: word = "NOT RUN"; break;
    case CaseOutcome::kExcluded: word = "EXCLUDED"; break;
  }
  return word + "  ";
}

}  // namespace

void write_compare_text(std::ostream& out, const CompareReport& r) {
  out << "gltf-anim compare\ngolden: " << visible_text(r.golden)
      << "\nactual: " << visible_text(r.actual) << "\n";
  if (const std::string scope = scope_text(r); !scope.empty()) out << visible_text(scope) << "\n";
  out << "\n";
  for (const CaseResult* cp : failures_first(r)) {
    const CaseResult& c = *cp;
    out << text_word(c.outcome) << visible_text(c.id);
    std::string stats;
    if (c.absolute.samples) {
      stats += "  " + describe(c.absolute, "") + " (tolerance " +
               short_number(c.tolerances.absolute) + ")";
    }
    if (c.angle.samples) {
      stats += "  " + describe(c.angle, " rad") + " (tolerance " +
               short_number(c.tolerances.angle) + " rad)";
    }
    out << stats << "\n";
    if (!c.problem.empty()) out << "      " << text::visible_text(c.problem) << "\n";
    for (const auto& ch : c.channels) {
      // A case not run says why above; its channels would only repeat it.
      if (ch.passed || c.outcome == CaseOutcome::kNotRun) continue;
      out << "      " << visible_text(channel_line(ch)) << "\n";
      for (const auto& m : ch.alternatives)
        out << "        " << visible_text(alternative_sentence(m)) << "\n";
      out << worst_table_text(ch, "        ");
    }
    if (c.failed()) {
      if (!c.features.empty()) out << "      features: " << joined(c.features, visible_text) << "\n";
      if (!c.clauses.empty()) out << "      clauses: " << joined(c.clauses, visible_text) << "\n";
      if (!c.notes.empty()) out << "      notes: " << text::visible_text(c.notes) << "\n";
    }
    for (const auto& w : c.warnings) out << "      warning: " << text::visible_text(w) << "\n";
  }
  for (const auto& w : r.warnings) out << "warning: " << text::visible_text(w) << "\n";
  if (const auto causes = detail::failure_causes(r); !causes.empty()) {
    out << "\nfailures by cause:\n";
    for (const auto& cause : causes) {
      out << "  " << visible_text(cause.label) << ": " << visible_text(detail::cause_cases_text(cause))
          << "\n";
    }
  }
  out << "\n" << visible_text(summary_line(r)) << "\n";
  if (const std::string advice = detail::missing_channels_advice(r); !advice.empty())
    out << text::visible_text(advice) << "\n";
}

void json_channel(JsonWriter& w, const ChannelResult& ch) {
  w.StartObject();
  json_key(w, "animation");
  w.Uint64(ch.animation);
  json_key(w, "channel");
  w.Uint64(ch.channel);
  json_key(w, "target");
  json_str(w, ch.target);
  json_key(w, "interpolation");
  json_str(w, ch.interpolation);
  json_key(w, "measure");
  w.String(ch.measure == ErrorMeasure::kAngle ? "angle" : "absolute");
  json_key(w, "tolerance");
  json_sample_number(w, ch.tolerance);
  json_key(w, "passed");
  w.Bool(ch.passed);
  json_key(w, "missing");
  w.Bool(ch.missing);
  json_key(w, "unsupported");
  json_str(w, ch.unsupported);
  json_key(w, "width");
  w.Uint64(ch.width);
  json_key(w, "actualWidth");
  w.Uint64(ch.actual_width);
  json_key(w, "goldenSamples");
  w.Uint64(ch.golden_samples);
  json_key(w, "compared");
  w.Uint64(ch.compared);
  json_key(w, "overTolerance");
  w.Uint64(ch.over_tolerance);
  json_key(w, "missingSamples");
  w.Uint64(ch.missing_samples);
  json_key(w, "extraSamples");
  w.Uint64(ch.extra_samples);
  if (ch.measure == ErrorMeasure::kAngle) {
    // A rotation's length is judged too: how many samples are off, and the worst.
    json_key(w, "lengthTolerance");
    json_sample_number(w, ch.length_tolerance);
    json_key(w, "lengthFailures");
    w.Uint64(ch.length_failures);
    if (ch.length_failures) {
      json_key(w, "worstLength");
      w.StartObject();
      json_key(w, "t");
      json_sample_number(w, ch.worst_length_t);
      json_key(w, "actual");
      json_sample_number(w, ch.worst_length_actual);
      json_key(w, "expected");
      json_sample_number(w, ch.worst_length_expected);
      w.EndObject();
    }
  }
  // Stats only when something was compared (else there are none to give).
  const double none = std::numeric_limits<double>::quiet_NaN();
  json_key(w, "max");
  json_sample_number(w, ch.compared ? ch.stats.max : none);
  json_key(w, "mean");
  json_sample_number(w, ch.compared ? ch.stats.mean : none);
  json_key(w, "worstT");
  json_sample_number(w, ch.compared ? ch.stats.worst_t : none);
  json_key(w, "problem");
  json_str(w, ch.problem);
  json_diagnosis(w, ch);
  w.EndObject();
}

void json_case(JsonWriter& w, const CaseResult& c) {
  w.StartObject();
  json_key(w, "id");
  json_str(w, c.id);
  json_key(w, "asset");
  json_str(w, c.asset);
  json_key(w, "golden");
  json_str(w, c.golden_file);
  json_key(w, "actual");
  json_str(w, c.actual_file);
  json_key(w, "passed");
  w.Bool(c.passed());
  json_key(w, "outcome");
  w.String(outcome_word(c.outcome));
  json_key(w, "problem");
  json_str(w, c.problem);
  json_key(w, "matchedVariant");
  json_str(w, c.matched_variant);
  json_key(w, "matchedDivergence");
  json_str(w, c.matched_divergence);
  json_key(w, "unsupported");
  json_strings(w, c.unsupported);
  json_key(w, "missingOnly");
  json_strings(w, c.missing_only);
  json_key(w, "features");
  json_strings(w, c.features);
  json_key(w, "clauses");
  json_strings(w, c.clauses);
  json_key(w, "notes");
  json_str(w, c.notes);
  json_key(w, "tolerance");
  json_sample_number(w, c.tolerances.absolute);
  json_key(w, "angleTolerance");
  json_sample_number(w, c.tolerances.angle);
  json_key(w, "absolute");
  json_stats(w, c.absolute);
  json_key(w, "angle");
  json_stats(w, c.angle);
  json_key(w, "channels");
  w.StartArray();
  for (const ChannelResult& ch : c.channels) json_channel(w, ch);
  w.EndArray();
  json_key(w, "warnings");
  json_strings(w, c.warnings);
  w.EndObject();
}

void write_compare_json(std::ostream& out, const CompareReport& r) {
  detail::BlockOStream os(out);
  JsonWriter w(os);
  w.SetIndent(' ', 2);
  w.StartObject();
  json_key(w, "generator");
  json_str(w, r.generator);
  json_key(w, "golden");
  json_str(w, r.golden);
  json_key(w, "actual");
  json_str(w, r.actual);
  json_key(w, "summary");
  w.StartObject();
  json_key(w, "cases");
  w.Uint64(r.cases.size());
  json_key(w, "passed");
  w.Uint64(r.passed());
  json_key(w, "failed");
  w.Uint64(r.failed());
  json_key(w, "notRun");
  w.Uint64(r.not_run());
  json_key(w, "excluded");
  w.Uint64(r.excluded());
  json_key(w, "nothingCompared");
  w.Uint64(r.nothing_compared());
  json_key(w, "advice");
  json_str(w, detail::missing_channels_advice(r));
  w.EndObject();
  json_key(w, "selection");
  json_strings(w, r.selection);
  json_key(w, "extensions");
  if (r.extensions)
    json_strings(w, *r.extensions);
  else
    w.Null();
  json_key(w, "cases");
  w.StartArray();
  for (const CaseResult& c : r.cases) json_case(w, c);
  w.EndArray();
  json_key(w, "warnings");
  json_strings(w, r.warnings);
  json_key(w, "summaryLine");
  json_str(w, summary_line(r));
  w.EndObject();
  os.Put('\n');
  os.Flush();
}

void write_compare_markdown(std::ostream& out, const CompareReport& r) {
  out << "## glTF animation conformance: " << md_escape(summary_line(r)) << "\n\n"
      << "Golden " << text::md_escape(r.golden) << ", actual " << text::md_escape(r.actual) << " ("
      << md_escape(r.generator) << ").";
  if (const std::string scope = scope_text(r); !scope.empty())
    out << " Scope: " << md_escape(scope) << ".";
  if (const std::string advice = detail::missing_channels_advice(r); !advice.empty())
    out << "\n\n" << md_escape(advice);
  out << "\n\n"
      << "| Result | Case | Max error | Mean error | Worst at | Features | Clauses |\n"
      << "|---|---|---|---|---|---|---|\n";
  const std::vector<const CaseResult*> order = failures_first(r);
  for (const CaseResult* cp : order) {
    const CaseResult& c = *cp;
    const ErrorStats* w = worst_of(c);
    std::string worst = "-";
    if (w && w->max > 0) {
      worst = "t\\=" + short_number(w->worst_t, 6) + ", animation " +
              std::to_string(w->worst_animation) + " " + text::md_escape(w->worst_target);
    }
    const char* result = c.passed()                            ? "✅ pass"
                         : c.failed()                          ? "❌ **fail**"
                         : c.outcome == CaseOutcome::kNotRun   ? "⏸️ not run"
                         : c.outcome == CaseOutcome::kExcluded ? "➖ excluded"
                                                               : "⚪ nothing compared";
    out << "| " << result << " | " << md_escape(c.id) << " | " << max_cell(c) << " | "
        << mean_cell(c) << " | " << worst << " | "
        << (c.features.empty() ? "-" : joined(c.features, md_escape)) << " | "
        << (c.clauses.empty() ? "-" : joined(c.clauses, md_escape)) << " |\n";
  }
  if (const auto causes = detail::failure_causes(r); !causes.empty()) {
    out << "\n### Failures by cause\n\n";
    for (const auto& cause : causes)
      out << "- " << md_escape(cause.label) << ": " << md_escape(detail::cause_cases_text(cause)) << "\n";
  }
  bool header = false;
  for (const CaseResult* cp : order) {
    const CaseResult& c = *cp;
    if (!c.failed()) continue;
    if (!header) {
      out << "\n### Failures\n";
      header = true;
    }
    out << "\n#### " << text::md_escape(c.id) << "\n\n";
    out << "Tolerance " << short_number(c.tolerances.absolute) << ", angle tolerance "
        << short_number(c.tolerances.angle) << " rad.";
    if (!c.golden_file.empty()) out << " Golden " << text::md_escape(c.golden_file) << ".";
    if (!c.actual_file.empty()) out << " Actual " << text::md_escape(c.actual_file) << ".";
    out << "\n\n";
    if (!c.problem.empty()) out << "- " << text::md_escape(c.problem) << "\n";
    for (const auto& ch : c.channels) {
      if (ch.passed) continue;
      out << "- " << md_escape(channel_line(ch)) << "\n";
      for (const auto& m : ch.alternatives)
        out << "  - " << md_escape(alternative_sentence(m)) << "\n";
    }
    if (!c.notes.empty()) out << "- notes: " << text::md_escape(c.notes) << "\n";
    for (const auto& ch : c.channels) {
      const auto rows = worst_rows(ch);
      if (ch.passed || rows.empty()) continue;
      out << "\nWorst samples of animation " << ch.animation << " " << md_escape(ch.target)
          << ":\n\n"
          << "| t | golden | actual | error |\n|---|---|---|---|\n";
      for (const auto& row : rows) {
        out << "| " << md_escape(row[0]) << " | " << md_escape(row[1]) << " | " << md_escape(row[2])
            << " | " << md_escape(row[3]) << " |\n";
      }
    }
  }
  // Why a case was not compared, one line each.
  for (const CaseOutcome o : {CaseOutcome::kNotRun, CaseOutcome::kExcluded}) {
    bool any = false;
    for (const CaseResult* cp : order) {
      if (cp->outcome != o) continue;
      if (!any) out << "\n### " << (o == CaseOutcome::kNotRun ? "Not run" : "Excluded") << "\n\n";
      any = true;
      out << "- " << md_escape(cp->id) << ": " << md_escape(cp->problem) << "\n";
    }
  }
  bool warn_header = false;
  auto warn = [&](const std::string& prefix, const std::string& w) {
    if (!warn_header) {
      out << "\n### Warnings\n\n";
      warn_header = true;
    }
    out << "- " << prefix << text::md_escape(w) << "\n";
  };
  for (const auto& c : r.cases) {
    for (const auto& w : c.warnings) warn(text::md_escape(c.id) + ": ", w);
  }
  for (const auto& w : r.warnings) warn("", w);
  out << "\n" << md_escape(summary_line(r)) << "\n";
}

void write_compare_junit(std::ostream& out, const CompareReport& r) {
  const std::string n = std::to_string(r.cases.size());
  const std::string f = std::to_string(r.failed());
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"gltf-anim compare\" tests=\"" << n << "\" failures=\"" << f
      << "\" errors=\"0\">\n"
      << "  <testsuite name=\"conformance\" tests=\"" << n << "\" failures=\"" << f
      << "\" errors=\"0\" skipped=\"" << r.nothing_compared() + r.not_run() + r.excluded()
      << "\">\n"
      << "    <properties>\n"
      << "      <property name=\"generator\" value=\"" << text::xml_escape(r.generator) << "\"/>\n"
      << "      <property name=\"golden\" value=\"" << text::xml_escape(r.golden) << "\"/>\n"
      << "      <property name=\"actual\" value=\"" << text::xml_escape(r.actual) << "\"/>\n"
      << "    </properties>\n";
  for (const auto& c : r.cases) {
    out << "    <testcase classname=\"conformance\" name=\"" << text::xml_escape(c.id) << "\">\n";
    if (c.outcome == CaseOutcome::kNothingCompared) {
      out << "      <skipped message=\"" << text::xml_escape(c.problem) << "\"/>\n";
    } else if (c.outcome == CaseOutcome::kNotRun || c.outcome == CaseOutcome::kExcluded) {
      // "not run (unsupported: X)" says its outcome already.
      const bool says_outcome = c.problem.starts_with(outcome_word(c.outcome));
      out << "      <skipped message=\"" << (says_outcome ? "" : outcome_word(c.outcome))
          << (says_outcome ? "" : ": ") << xml_escape(c.problem) << "\"/>\n";
    }
    if (c.failed()) {
      std::string message = c.problem;
      if (message.empty()) {
        for (const auto& ch : c.channels) {
          if (!ch.passed && ch.unsupported.empty()) {
            message = channel_line(ch);
            if (!ch.alternatives.empty())
              message += "; " + alternative_sentence(ch.alternatives.front());
            break;
          }
        }
      }
      std::string body;
      if (!c.problem.empty()) body += c.problem + "\n";
      for (const auto& ch : c.channels) {
        if (ch.passed) continue;
        body += channel_line(ch) + "\n";
        for (const auto& m : ch.alternatives) body += "  " + alternative_sentence(m) + "\n";
        body += worst_table_text(ch, "  ");
      }
      body += "tolerance " + short_number(c.tolerances.absolute) + ", angle tolerance " +
              short_number(c.tolerances.angle) + " rad\n";
      if (!c.features.empty()) body += "features: " + joined(c.features, visible_text) + "\n";
      if (!c.clauses.empty()) body += "clauses: " + joined(c.clauses, visible_text) + "\n";
      if (!c.notes.empty()) body += "notes: " + c.notes + "\n";
      out << "      <failure message=\"" << text::xml_escape(message) << "\" type=\"conformance\">"
          << text::xml_escape(body, false) << "</failure>\n";
    }
    std::string sys;
    if (c.absolute.samples) sys += "absolute: " + describe(c.absolute, "") + "\n";
    if (c.angle.samples) sys += "angle: " + describe(c.angle, " rad") + "\n";
    for (const auto& w : c.warnings) sys += "warning: " + w + "\n";
    if (!sys.empty()) out << "      <system-out>" << text::xml_escape(sys, false) << "</system-out>\n";
    out << "    </testcase>\n";
  }
  std::string sys;
  for (const auto& w : r.warnings) sys += "warning: " + w + "\n";
  out << "    <system-out>\n"
      << xml_escape(sys, false) << xml_escape(summary_line(r), false) << "\n</system-out>\n"
      << "  </testsuite>\n</testsuites>\n";
}

}  // namespace gltf_anim::reports

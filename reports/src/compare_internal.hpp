#pragma once
// Words and sentences every compare report format uses (plain text: each
// writer escapes them for its format with gltf_anim/text/escape.hpp).
#include <gltf_anim/compare/compare.hpp>

#include <functional>
#include <span>
#include <string>
#include <vector>

namespace gltf_anim::reports::detail {

// Times and values of the worst-samples tables: 9 significant digits, enough
// to tell float32 values apart (the error column says by how much they differ).
inline constexpr int kValueDigits = 9;
// "0.5, 1, -2" (only digits, signs, '.', 'e', "inf", "nan").
std::string values_text(std::span<const double> values);

// Result word per outcome, for every writer: "passed", "failed", "not run", ...
const char* outcome_word(compare::CaseOutcome outcome);

// The diagnosis sentence of an alternative a failing channel matches: "your
// values match known divergence "X" at all 4 of its times (t = 1, 2, 3.5, 4);
// it breaks ...; 1 other sample fails (t = 2.5)".
std::string alternative_sentence(const compare::AlternativeMatch& match);

// The cases not run because their adapter declared channels unsupported, per
// feature: "KHR_animation_pointer 30, morph weights 10" ("" when none).
std::string unsupported_text(const compare::CompareReport& report);

// The advice for cases that fail only on channels missing from the actual
// samples: how many, what those channels need, and how to have them counted as
// not run ("" when no case is such).
std::string missing_channels_advice(const compare::CompareReport& report);

// "cases: a,b*; extensions: none" (the --cases and --extensions given), ""
// when neither was.
std::string scope_text(const compare::CompareReport& report);

// The failing cases rolled up by cause, most cases first: per cause its label
// ("known divergence \"previous-key-at-exact-time\": STEP over intervals ...",
// "partly matches variant \"loop-repeat\": ...", "no known divergence or variant
// matches", "the engine failed on this case", ...)
// and the ids of the cases it explains (a case with failing channels of several
// causes is under each). Empty when no case fails.
struct FailureCause {
  std::string label;
  std::vector<std::string> cases;
};
std::vector<FailureCause> failure_causes(const compare::CompareReport& report);
// "7 cases (a, b, c, ...)": at most kMaxCauseIds ids, each as `id_text` writes it (the
// HTML report: escaped and linked to the case; default: as it is).
inline constexpr std::size_t kMaxCauseIds = 8;
std::string cause_cases_text(const FailureCause& cause,
                             const std::function<std::string(const std::string&)>& id_text = {});

}  // namespace gltf_anim::reports::detail

#pragma once
// Helpers shared by the compare sources: number formatting, the words and
// sentences every report format uses; escaping for JSON, XML/HTML, Markdown
// and text is text_escape.hpp's (text from input files is never trusted).
#include <gltf_anim/reports/compare.hpp>

#include <cmath>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>

#include "text_escape.hpp"

namespace gltf_anim::reports::detail {

// Numbers for people: `digits` significant digits ("%.*g"), "inf", "nan".
inline std::string short_number(double v, int digits = 3) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

// Times and values of the worst-samples tables: 9 significant digits, enough
// to tell float32 values apart (the error column says by how much they differ).
inline constexpr int kValueDigits = 9;
// "0.5, 1, -2" (unescaped; only digits, signs, '.', 'e', "inf", "nan").
std::string values_text(std::span<const double> values);

// Result word per outcome, for every writer: "passed", "failed", "not run", ...
const char* outcome_word(CaseOutcome outcome);

// The diagnosis sentence of an alternative a failing channel matches, plain
// text (escape it for the format): "your values match known divergence "X" at
// all 4 of its times (t = 1, 2, 3.5, 4); it breaks ...; 1 other sample fails (t = 2.5)".
std::string alternative_sentence(const AlternativeMatch& match);

// "cases: a,b*; extensions: none" (the --cases and --extensions given,
// unescaped), "" when neither was.
std::string scope_text(const CompareReport& report);

}  // namespace gltf_anim::reports::detail

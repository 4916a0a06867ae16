#pragma once
// Helpers shared by the compare sources: number formatting; escaping for
// JSON, XML/HTML, Markdown and text is text_escape.hpp's (text from input
// files is never trusted).
#include <cmath>
#include <cstdio>
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

}  // namespace gltf_anim::reports::detail

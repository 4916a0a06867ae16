#pragma once
// Words for people in messages and reports: numbers to a few significant
// digits, and the system's words for an errno.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <string>
#include <system_error>

namespace gltf_anim::text {

// `digits` significant digits ("%.*g"), "inf", "nan".
inline std::string short_number(double v, int digits = 3) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

// "No such file or directory", "Permission denied", ... for a file that cannot
// be opened, read or written. std::strerror may share a buffer between
// threads; error_code does not.
inline std::string errno_text(int e = errno) { return std::error_code(e, std::generic_category()).message(); }

}  // namespace gltf_anim::text

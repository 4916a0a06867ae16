#pragma once
// XML escaping shared by the report writers: the JUnit reports of validate
// (validation_ci.cpp) and of compare, and the HTML report (compare_internal.hpp).
#include <string>
#include <string_view>

namespace gltf_anim::reports::detail {

// `s` with the characters markup reserves as entities: & < > " and ', the
// last as `apostrophe` ("&apos;" for XML only, "&#39;" where HTML 4 reads it
// too). Every other byte c goes through other(out, c): what a writer does with
// control characters and line breaks is its own.
template <class Other>
std::string xml_escape_with(std::string_view s, std::string_view apostrophe, Other other) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += apostrophe; break;
      default: other(out, c);
    }
  }
  return out;
}

}  // namespace gltf_anim::reports::detail

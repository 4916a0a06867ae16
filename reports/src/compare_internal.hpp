#pragma once
// Helpers shared by the compare sources: number formatting and escaping for
// JSON, XML/HTML and Markdown (text from input files is never trusted).
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

#include "xml_escape.hpp"

namespace gltf_anim::reports::detail {

// Numbers for people: `digits` significant digits ("%.*g"), "inf", "nan".
inline std::string short_number(double v, int digits = 3) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

// Replaces bytes that are not valid UTF-8 (and C0 controls other than \t \n)
// with U+FFFD, so every report stays valid UTF-8 / XML whatever the input held.
inline std::string clean_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (c < 0x20 && c != '\t' && c != '\n') out += "\xEF\xBF\xBD";
      else if (c == 0x7f) out += "\xEF\xBF\xBD";
      else out += static_cast<char>(c);
      ++i;
      continue;
    }
    std::size_t len = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
    bool ok = len > 0 && i + len <= s.size();
    for (std::size_t k = 1; ok && k < len; ++k) {
      ok = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
    }
    if (ok && len == 3) {  // no overlongs, no surrogates
      const auto c1 = static_cast<unsigned char>(s[i + 1]);
      ok = !(c == 0xE0 && c1 < 0xA0) && !(c == 0xED && c1 >= 0xA0);
    }
    if (ok && len == 4) {
      const auto c1 = static_cast<unsigned char>(s[i + 1]);
      ok = !(c == 0xF0 && c1 < 0x90) && !(c == 0xF4 && c1 >= 0x90);
    }
    if (ok) {
      out.append(s.substr(i, len));
      i += len;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

inline std::string json_string(std::string_view raw) {
  static constexpr char kHex[] = "0123456789abcdef";
  const std::string s = clean_utf8(raw);
  std::string out = "\"";
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"') out += "\\\"";
    else if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c < 0x20) {
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else if (c == '<') out += "\\u003c";  // safe inside <script> or HTML too
    else out += ch;
  }
  out += '"';
  return out;
}

// Escapes for HTML text and attribute values and for XML (JUnit).
// In attributes (the default) line breaks and tabs become character
// references; in element text (`attribute` false) they stay.
inline std::string xml_escape(std::string_view raw, bool attribute = true) {
  return xml_escape_with(clean_utf8(raw), "&#39;", [attribute](std::string& out, char c) {
    if (c == '\n') out += attribute ? "&#10;" : "\n";
    else if (c == '\t') out += attribute ? "&#9;" : "\t";
    else out += c;
  });
}

// Markdown (GitHub): every ASCII punctuation that can start markup is
// backslash-escaped, HTML-significant characters become entities, line
// breaks become spaces; safe in table cells and in running text.
inline std::string md_escape(std::string_view raw) {
  const std::string s = clean_utf8(raw);
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '\n': case '\t': out += ' '; break;
      case '\\': case '`': case '*': case '_': case '{': case '}': case '[': case ']':
      case '(': case ')': case '#': case '+': case '-': case '!': case '|': case '~':
      case '"': case '\'': case '.': case '=': case ':': case '@':
        out += '\\';
        out += c;
        break;
      default: out += c;
    }
  }
  return out;
}

// Plain text for terminals: no control characters (no ANSI escapes), one line.
inline std::string text_clean(std::string_view raw) {
  std::string s = clean_utf8(raw);
  for (char& c : s) {
    if (c == '\n' || c == '\t') c = ' ';
  }
  return s;
}

}  // namespace gltf_anim::reports::detail

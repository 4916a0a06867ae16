#pragma once
// Strict checks of report text, written independently of the code under test
// (text/include/gltf_anim/text/utf8.hpp, text/include/gltf_anim/text/escape.hpp): UTF-8 by the byte ranges
// of Unicode's table of well-formed sequences; JSON by RapidJSON with encoding
// validation plus the decoded strings (RapidJSON 1.1.0 decodes "\udc00" to
// invalid bytes); XML 1.0 well-formedness by a small checker of our own (and,
// in the tests, by xmllint too); HTML by the same checker with HTML's void
// elements and named entities; "no control characters" for the text formats.
// Used by the tests and by fuzz/fuzz_reports.cpp (no test framework here).
#include <gltf_anim/gltf/json.hpp>
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#ifdef GLTF_ANIM_TEST_TMP
#include <unistd.h>

#include "scratch.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#endif

namespace strict_text {

// Unicode 15, Table 3-7: every well-formed byte sequence.
inline bool utf8(std::string_view s) {
  struct Row {
    unsigned char first_lo, first_hi, second_lo, second_hi;
    std::size_t length;
  };
  static const Row rows[] = {
      {0x00, 0x7F, 0, 0, 1},       {0xC2, 0xDF, 0x80, 0xBF, 2}, {0xE0, 0xE0, 0xA0, 0xBF, 3},
      {0xE1, 0xEC, 0x80, 0xBF, 3}, {0xED, 0xED, 0x80, 0x9F, 3}, {0xEE, 0xEF, 0x80, 0xBF, 3},
      {0xF0, 0xF0, 0x90, 0xBF, 4}, {0xF1, 0xF3, 0x80, 0xBF, 4}, {0xF4, 0xF4, 0x80, 0x8F, 4}};
  std::size_t i = 0;
  while (i < s.size()) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    if (b(0) < 0x80) {  // the first row, without the table (the fuzz targets run this a lot)
      ++i;
      continue;
    }
    const Row* row = nullptr;
    for (const Row& r : rows) {
      if (b(0) >= r.first_lo && b(0) <= r.first_hi) row = &r;
    }
    if (row == nullptr || i + row->length > s.size()) return false;
    if (row->length > 1 && (b(1) < row->second_lo || b(1) > row->second_hi)) return false;
    for (std::size_t k = 2; k < row->length; ++k) {
      if (b(k) < 0x80 || b(k) > 0xBF) return false;
    }
    i += row->length;
  }
  return true;
}

inline void all_strings_utf8(const gltf_anim::json::Value& v, std::string& why) {
  if (v.IsString() && !utf8(std::string_view(v.GetString(), v.GetStringLength()))) {
    why = "a string decodes to invalid UTF-8";
  }
  if (v.IsArray()) {
    for (const auto& x : v.GetArray()) all_strings_utf8(x, why);
  }
  if (v.IsObject()) {
    for (const auto& m : v.GetObject()) {
      all_strings_utf8(m.name, why);
      all_strings_utf8(m.value, why);
    }
  }
}

// "" when `text` is strict JSON in UTF-8, else why not.
inline std::string json_problem(std::string_view text) {
  if (!utf8(text)) return "not valid UTF-8";
  gltf_anim::json::Document d;
  d.Parse<rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag>(text.data(), text.size());
  if (d.HasParseError()) {
    return std::string("JSON: ") + rapidjson::GetParseError_En(d.GetParseError()) + " at " +
           std::to_string(d.GetErrorOffset());
  }
  std::string why;
  all_strings_utf8(d, why);
  return why;
}

// "" when `text` is UTF-8 with no control character but line feeds (C0,
// DEL, C1: nothing a terminal would act on), else why not.
inline std::string text_problem(std::string_view text) {
  if (!utf8(text)) return "not valid UTF-8";
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\n') || c == 0x7F) {
      return "control byte " + std::to_string(c) + " at " + std::to_string(i);
    }
    if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) <= 0x9F) {
      return "C1 control at " + std::to_string(i);
    }
  }
  return "";
}

// "" when `text` is a well-formed XML 1.0 document (`html` false) or, with
// `html`, a document of the same shape where HTML's void elements need no end
// tag, <!DOCTYPE html> may lead and named entities are HTML's; else why not.
// Covers what our writers emit: ASCII names, quoted attributes, references,
// comments; no DTD internal subset.
inline std::string xml_problem_own(std::string_view x, bool html = false) {
  if (!utf8(x)) return "not valid UTF-8";
  // Characters XML 1.0 forbids even as references (section 2.2).
  for (std::size_t i = 0; i < x.size(); ++i) {
    const auto c = static_cast<unsigned char>(x[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return "control byte at " + std::to_string(i);
    if (c == 0xEF && i + 2 < x.size() && static_cast<unsigned char>(x[i + 1]) == 0xBF &&
        static_cast<unsigned char>(x[i + 2]) >= 0xBE) {
      return "U+FFFE or U+FFFF at " + std::to_string(i);
    }
  }
  const auto name_start = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == ':';
  };
  const auto name_char = [&](char c) { return name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.'; };
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  std::size_t i = 0;
  // A reference at x[i] == '&': "" or why it is not one.
  const auto reference = [&]() -> std::string {
    const std::size_t semi = x.find(';', i);
    if (semi == std::string_view::npos || semi - i > 12) return "'&' not starting a reference at " + std::to_string(i);
    const std::string_view ref = x.substr(i + 1, semi - i - 1);
    if (!ref.empty() && ref[0] == '#') {
      const bool hex = ref.size() > 1 && ref[1] == 'x';
      const std::string_view digits = ref.substr(hex ? 2 : 1);
      if (digits.empty()) return "empty character reference";
      unsigned long v = 0;
      for (char c : digits) {
        const bool dec = c >= '0' && c <= '9';
        const bool hx = hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'));
        if (!dec && !hx) return "bad character reference &" + std::string(ref) + ";";
        v = v * (hex ? 16 : 10) + static_cast<unsigned long>(dec ? c - '0' : (c | 0x20) - 'a' + 10);
        if (v > 0x10FFFF) return "character reference beyond U+10FFFF";
      }
      const bool legal = v == 0x9 || v == 0xA || v == 0xD || (v >= 0x20 && v <= 0xD7FF) ||
                         (v >= 0xE000 && v <= 0xFFFD) || v >= 0x10000;
      if (!legal) return "reference to a character XML forbids: &" + std::string(ref) + ";";
    } else if (html) {
      if (ref.empty()) return "empty entity";
      for (char c : ref) {
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return "bad entity";
      }
    } else if (ref != "amp" && ref != "lt" && ref != "gt" && ref != "quot" && ref != "apos") {
      return "undeclared entity &" + std::string(ref) + ";";
    }
    i = semi + 1;
    return "";
  };
  const auto skip_space = [&] {
    while (i < x.size() && space(x[i])) ++i;
  };
  const auto name = [&]() {
    const std::size_t b = i;
    if (i < x.size() && name_start(x[i])) {
      ++i;
      while (i < x.size() && name_char(x[i])) ++i;
    }
    return std::string(x.substr(b, i - b));
  };
  const auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>((c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c);
    return s;
  };
  static const char* const kVoid[] = {"area", "base", "br", "col", "embed", "hr", "img", "input",
                                      "link", "meta", "source", "track", "wbr"};
  const auto is_void = [&](const std::string& n) {
    for (const char* v : kVoid) {
      if (html && lower(n) == v) return true;
    }
    return false;
  };

  if (x.substr(0, 5) == "<?xml") {
    const std::size_t end = x.find("?>");
    if (end == std::string_view::npos) return "unclosed XML declaration";
    i = end + 2;
  }
  std::vector<std::string> open;
  std::size_t roots = 0;
  while (i < x.size()) {
    const char c = x[i];
    if (c == '&') {
      if (open.empty()) return "reference outside the root element";
      if (std::string why = reference(); !why.empty()) return why;
      continue;
    }
    if (c == ']' && x.substr(i, 3) == "]]>") return "\"]]>\" in text at " + std::to_string(i);
    if (c != '<') {
      if (open.empty() && !space(c)) return "text outside the root element at " + std::to_string(i);
      ++i;
      continue;
    }
    if (x.substr(i, 4) == "<!--") {
      const std::size_t end = x.find("-->", i + 4);
      if (end == std::string_view::npos) return "unclosed comment";
      i = end + 3;
      continue;
    }
    if (html && lower(std::string(x.substr(i, 9))) == "<!doctype") {
      const std::size_t end = x.find('>', i);
      if (end == std::string_view::npos || roots != 0 || !open.empty()) return "misplaced doctype";
      i = end + 1;
      continue;
    }
    if (x.substr(i, 2) == "</") {
      i += 2;
      const std::string n = name();
      skip_space();
      if (i >= x.size() || x[i] != '>') return "bad end tag </" + n;
      ++i;
      if (open.empty() || open.back() != n) return "end tag </" + n + "> does not match";
      open.pop_back();
      continue;
    }
    ++i;
    const std::string n = name();
    if (n.empty()) return "'<' not starting markup at " + std::to_string(i - 1);
    if (open.empty() && ++roots > 1) return "a second root element <" + n + ">";
    for (;;) {
      const std::size_t before = i;
      skip_space();
      if (i >= x.size()) return "unclosed tag <" + n;
      if (x[i] == '>' || x.substr(i, 2) == "/>") break;
      if (i == before) return "no space before an attribute in <" + n;
      const std::string a = name();
      if (a.empty()) return "bad attribute name in <" + n;
      skip_space();
      if (i >= x.size() || x[i] != '=') return "attribute " + a + " without a value";
      ++i;
      skip_space();
      if (i >= x.size() || (x[i] != '"' && x[i] != '\'')) return "unquoted attribute " + a;
      const char quote = x[i++];
      while (i < x.size() && x[i] != quote) {
        if (x[i] == '<') return "'<' in attribute " + a;
        if (x[i] == '&') {
          if (std::string why = reference(); !why.empty()) return why;
        } else {
          ++i;
        }
      }
      if (i >= x.size()) return "unclosed attribute " + a;
      ++i;
    }
    if (x[i] == '/') {
      i += 2;
      continue;
    }
    ++i;
    if (!is_void(n)) open.push_back(n);
    // Raw text elements of HTML end at their end tag only.
    if (html && (lower(n) == "style" || lower(n) == "script")) {
      const std::size_t end = x.find("</" + n, i);
      if (end == std::string_view::npos) return "unclosed <" + n + ">";
      i = end;
    }
  }
  if (!open.empty()) return "unclosed <" + open.back() + ">";
  if (roots == 0) return "no root element";
  return "";
}

#ifdef GLTF_ANIM_TEST_TMP
// "" when `text` is well-formed XML 1.0 for our checker and for xmllint
// (libxml2-utils, a test dependency installed by scripts/run-tests.sh).
inline std::string xml_problem(const std::string& text) {
  if (std::string why = xml_problem_own(text); !why.empty()) return why;
  if (std::system("command -v xmllint >/dev/null 2>&1") != 0) {
    return "xmllint is not installed (apt-get install libxml2-utils): XML cannot be checked";
  }
  const std::filesystem::path dir = gltf_anim_test::scratch_root() / "strict_text";
  std::filesystem::create_directories(dir);
  static int counter = 0;
  const std::string id = std::to_string(::getpid()) + "_" + std::to_string(counter++);
  const auto file = dir / ("report_" + id + ".xml"), err = dir / ("xmllint_" + id + ".txt");
  std::ofstream(file, std::ios::binary) << text;
  const std::string cmd = "xmllint --noout '" + file.string() + "' 2>'" + err.string() + "'";
  const int status = std::system(cmd.c_str());
  std::string why;
  if (status != 0) {
    std::ifstream in(err);
    why = "xmllint: " + std::string(std::istreambuf_iterator<char>(in), {});
  }
  std::filesystem::remove(file);
  std::filesystem::remove(err);
  return why;
}
#endif

inline std::vector<std::size_t> markdown_row_pipes(const std::string& md);

// The validation formats for a CI job's page: "md" is text whose table rows
// have four cells (the markup of a cell escaped); "github" is text whose every
// line is one of our workflow commands or the last, plain line.
inline std::string ci_format_problem(std::string_view format, const std::string& text) {
  if (std::string why = text_problem(text); !why.empty()) return why;
  if (format == "md") {
    for (const std::size_t pipes : markdown_row_pipes(text)) {
      if (pipes != 5) return "a table row of " + std::to_string(pipes) + " pipes, not 5";
    }
    return "";
  }
  std::size_t start = 0;
  bool last = false;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) return "no line feed ends the last line";
    const std::string_view line(text.data() + start, end - start);
    if (last) return "a line after the last one";
    if (line.rfind("gltf-anim validate: ", 0) == 0) {
      last = true;
    } else if (line.rfind("::error file=", 0) != 0 && line.rfind("::warning file=", 0) != 0 &&
               line.rfind("::notice file=", 0) != 0 && line.rfind("::notice title=gltf-anim::", 0) != 0) {
      return "a line that is not one of our commands: " + std::string(line);
    }
    start = end + 1;
  }
  return last ? "" : "no last line";
}

// The check of a report format by its name in the CLI ("json", "sarif",
// "junit", "html", "text", "md", "csv", "github"). "md" is the validation
// report's (compare's is checked by its own tests).
inline std::string format_problem(std::string_view format, const std::string& text) {
  if (format == "json" || format == "sarif") return json_problem(text);
  if (format == "github") return ci_format_problem(format, text);
#ifdef GLTF_ANIM_TEST_TMP
  if (format == "junit") return xml_problem(text);
#else
  if (format == "junit") return xml_problem_own(text);
#endif
  if (format == "html") return xml_problem_own(text, true);
  if (format == "csv") return utf8(text) ? "" : "not valid UTF-8";
  return text_problem(text);
}

// The number of unescaped '|' on each table row (a line starting with '|') of
// Markdown text: "\|" is a literal pipe, "\\|" a backslash and a pipe.
inline std::vector<std::size_t> markdown_row_pipes(const std::string& md) {
  std::vector<std::size_t> rows;
  std::size_t start = 0;
  while (start < md.size()) {
    std::size_t end = md.find('\n', start);
    if (end == std::string::npos) end = md.size();
    if (md[start] == '|') {
      std::size_t pipes = 0;
      for (std::size_t i = start; i < end; ++i) {
        if (md[i] != '|') continue;
        std::size_t backslashes = 0;
        for (std::size_t k = i; k > start && md[k - 1] == '\\'; --k) ++backslashes;
        pipes += backslashes % 2 == 0 ? 1 : 0;
      }
      rows.push_back(pipes);
    }
    start = end + 1;
  }
  return rows;
}

}  // namespace strict_text

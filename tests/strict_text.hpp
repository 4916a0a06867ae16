#pragma once
// Strict checks of report text, written independently of the code under test
// (validator/text.hpp): UTF-8 by the byte ranges of Unicode's table of
// well-formed sequences, JSON by RapidJSON with encoding validation (plus the
// decoded strings, since RapidJSON 1.1.0 decodes "\udc00" to invalid bytes),
// XML by xmllint, and "no control characters" for the text formats.
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace strict_text {

// Unicode 15, Table 3-7: every well-formed byte sequence.
inline bool utf8(const std::string& s) {
  struct Row {
    unsigned char first_lo, first_hi, second_lo, second_hi;
    int length;
  };
  static const Row rows[] = {
      {0x00, 0x7F, 0, 0, 1},       {0xC2, 0xDF, 0x80, 0xBF, 2}, {0xE0, 0xE0, 0xA0, 0xBF, 3},
      {0xE1, 0xEC, 0x80, 0xBF, 3}, {0xED, 0xED, 0x80, 0x9F, 3}, {0xEE, 0xEF, 0x80, 0xBF, 3},
      {0xF0, 0xF0, 0x90, 0xBF, 4}, {0xF1, 0xF3, 0x80, 0xBF, 4}, {0xF4, 0xF4, 0x80, 0x8F, 4}};
  std::size_t i = 0;
  while (i < s.size()) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
    const Row* row = nullptr;
    for (const Row& r : rows) {
      if (b(0) >= r.first_lo && b(0) <= r.first_hi) row = &r;
    }
    if (row == nullptr || i + static_cast<std::size_t>(row->length) > s.size()) return false;
    if (row->length > 1 && (b(1) < row->second_lo || b(1) > row->second_hi)) return false;
    for (int k = 2; k < row->length; ++k) {
      if (b(static_cast<std::size_t>(k)) < 0x80 || b(static_cast<std::size_t>(k)) > 0xBF) return false;
    }
    i += static_cast<std::size_t>(row->length);
  }
  return true;
}

inline void all_strings_utf8(const rapidjson::Value& v, std::string& why) {
  if (v.IsString() && !utf8(std::string(v.GetString(), v.GetStringLength()))) why = "a string decodes to invalid UTF-8";
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
inline std::string json_problem(const std::string& text) {
  if (!utf8(text)) return "not valid UTF-8";
  rapidjson::Document d;
  d.Parse<rapidjson::kParseValidateEncodingFlag>(text.data(), text.size());
  if (d.HasParseError()) {
    return std::string("JSON: ") + rapidjson::GetParseError_En(d.GetParseError()) + " at " +
           std::to_string(d.GetErrorOffset());
  }
  std::string why;
  all_strings_utf8(d, why);
  return why;
}

// "" when `text` is well-formed XML 1.0 in UTF-8 (xmllint --noout), else why not.
inline std::string xml_problem(const std::string& text) {
  if (!utf8(text)) return "not valid UTF-8";
  // xmllint (libxml2-utils) is a test dependency (scripts/run-tests.sh installs it).
  if (std::system("command -v xmllint >/dev/null 2>&1") != 0) {
    return "xmllint is not installed (apt-get install libxml2-utils): XML cannot be checked";
  }
  const std::filesystem::path dir = std::filesystem::path(GLTF_ANIM_TEST_TMP) / "strict_text";
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

// "" when `text` is UTF-8 with no control character but line feeds (C0,
// DEL, C1: nothing a terminal would act on), else why not.
inline std::string text_problem(const std::string& text) {
  if (!utf8(text)) return "not valid UTF-8";
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\n') || c == 0x7F) return "control byte " + std::to_string(c) + " at " + std::to_string(i);
    if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) <= 0x9F) {
      return "C1 control at " + std::to_string(i);
    }
  }
  return "";
}

}  // namespace strict_text

#include <gltf_anim/text/escape.hpp>

#include <gltf_anim/text/utf8.hpp>

namespace gltf_anim::text {

namespace {

// Visible escapes in lower case (\x1b, \u202e); JSON escapes in upper case
// (\u001B), as RapidJSON's writer makes them, so all JSON reports agree.
constexpr char kLowerHex[] = "0123456789abcdef";
constexpr char kUpperHex[] = "0123456789ABCDEF";

// Calls f(bytes, code point) for each character of `s`, an invalid sequence
// arriving as U+FFFD.
template <class F>
void for_each_character(std::string_view s, F f) {
  std::size_t i = 0;
  while (i < s.size()) {
    const CodePoint cp = decode_utf8(s, i);
    if (cp.length == 0) {
      f(kReplacement, char32_t{0xFFFD});
      i += cp.invalid_length;
    } else {
      f(s.substr(i, cp.length), cp.value);
      i += cp.length;
    }
  }
}

// Characters a reader of text, Markdown or XML must not get raw: C0 and C1
// controls and DEL (terminal escapes, line structure; XML 1.0 forbids most),
// line and paragraph separators, the bidirectional marks, embeddings,
// overrides and isolates (they reorder what is displayed), and the two
// noncharacters XML 1.0 forbids.
bool hidden(char32_t c) {
  return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x061C || c == 0x200E || c == 0x200F ||
         (c >= 0x2028 && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) || c == 0xFFFE ||
         c == 0xFFFF;
}

void append_hex(std::string& out, char32_t c, int digits, const char* hex = kLowerHex) {
  for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) out += hex[(c >> shift) & 15];
}

// The C-style visible form of a hidden character.
void append_visible(std::string& out, char32_t c) {
  switch (c) {
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    default: break;
  }
  if (c < 0x80) {
    out += "\\x";
    append_hex(out, c, 2);
  } else {
    out += "\\u";
    append_hex(out, c, 4);
  }
}

}  // namespace

std::string json_text(std::string_view raw) { return repair_utf8(raw); }

void append_json_string(std::string& out, std::string_view raw) {
  out += '"';
  for_each_character(raw, [&out](std::string_view bytes, char32_t c) {
    switch (c) {
      case '"': out += "\\\""; return;
      case '\\': out += "\\\\"; return;
      case '\n': out += "\\n"; return;
      case '\r': out += "\\r"; return;
      case '\t': out += "\\t"; return;
      case '\b': out += "\\b"; return;
      case '\f': out += "\\f"; return;
      default: break;
    }
    if (c < 0x20) {
      out += "\\u";
      append_hex(out, c, 4, kUpperHex);
    } else {
      out += bytes;
    }
  });
  out += '"';
}

std::string json_string(std::string_view raw) {
  std::string out;
  out.reserve(raw.size() + 2);
  append_json_string(out, raw);
  return out;
}

std::string xml_escape(std::string_view raw, bool attribute) {
  std::string out;
  out.reserve(raw.size());
  for_each_character(raw, [&](std::string_view bytes, char32_t c) {
    switch (c) {
      case '&': out += "&amp;"; return;
      case '<': out += "&lt;"; return;
      case '>': out += "&gt;"; return;
      case '"': out += "&quot;"; return;
      case '\'': out += "&#39;"; return;  // XML and HTML 4 alike
      // Attribute values are normalized (line breaks and tabs become spaces)
      // unless written as references; a raw CR is normalized everywhere.
      case '\n': out += attribute ? "&#10;" : "\n"; return;
      case '\t': out += attribute ? "&#9;" : "\t"; return;
      case '\r': out += "&#13;"; return;
      default: break;
    }
    if (hidden(c)) append_visible(out, c);
    else out += bytes;
  });
  return out;
}

std::string md_escape(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  const auto put = [&out](char c) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '\\': case '`': case '*': case '_': case '{': case '}': case '[': case ']':
      case '(': case ')': case '#': case '+': case '-': case '!': case '|': case '~':
      case '"': case '\'': case '.': case '=': case ':': case '@':
        out += '\\';
        out += c;
        break;
      default: out += c;
    }
  };
  for_each_character(raw, [&](std::string_view bytes, char32_t c) {
    if (hidden(c)) {
      std::string visible;
      append_visible(visible, c);
      for (char v : visible) put(v);
    } else if (c < 0x80) {
      put(static_cast<char>(c));
    } else {
      out += bytes;
    }
  });
  return out;
}

std::string visible_text(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for_each_character(raw, [&out](std::string_view bytes, char32_t c) {
    if (hidden(c)) append_visible(out, c);
    else out += bytes;
  });
  return out;
}

std::string csv_field(std::string_view raw) {
  const std::string s = repair_utf8(raw);
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += "\"\"";
    else out += c;
  }
  out += '"';
  return out;
}

namespace {

std::string github_command_text(std::string_view raw, bool property) {
  std::string out;
  out.reserve(raw.size());
  for_each_character(raw, [&out, property](std::string_view bytes, char32_t c) {
    switch (c) {
      case '%': out += "%25"; return;
      case '\r': out += "%0D"; return;
      case '\n': out += "%0A"; return;
      case ':':
        if (property) {
          out += "%3A";
          return;
        }
        break;
      case ',':
        if (property) {
          out += "%2C";
          return;
        }
        break;
      default: break;
    }
    if (hidden(c)) {
      append_visible(out, c);
    } else {
      out += bytes;
    }
  });
  return out;
}

}  // namespace

std::string github_command_data(std::string_view raw) { return github_command_text(raw, false); }
std::string github_command_property(std::string_view raw) { return github_command_text(raw, true); }

}  // namespace gltf_anim::text

#pragma once
// The one escaping policy of each report format. Every string that comes from
// an input (file names, asset and target names, messages quoting the input) is
// written through one of these; each first repairs UTF-8 (an invalid sequence
// becomes U+FFFD, gltf_anim/text/utf8.hpp), then escapes for its format:
//  - JSON: RFC 8259 escapes for '"', '\' and U+0000-U+001F (RapidJSON's own
//    writer does the same for the reports it writes: json_value);
//  - XML and HTML: the five markup characters as entities; characters XML 1.0
//    forbids or that move or hide text (other control characters, C1 controls,
//    U+2028/U+2029, bidirectional overrides, U+FFFE/U+FFFF) made visible;
//  - Markdown: the same characters made visible, every punctuation character
//    that can start markup backslash-escaped, '<' '>' '&' as entities;
//  - text (terminals): the same characters made visible, so no escape
//    sequence reaches a terminal and every record stays on one line;
//  - CSV: RFC 4180 quoting;
//  - GitHub workflow commands (`::error file=F,title=T::message`): GitHub's own
//    percent-escapes ('%' as %25, CR as %0D, LF as %0A; in a property also ':'
//    as %3A and ',' as %2C), which the runner undoes, so the value reads as it
//    was and no line of the log begins with what it holds; the other hidden
//    characters made visible.
// "Made visible" writes the character as C-style text: \n, \t, \r, \x1b for
// the rest of ASCII, \u202e above it. A visible escape is not reversible (a
// literal backslash is kept as it is): these formats are for people; the JSON
// reports carry the exact (repaired) text.
#include <string>
#include <string_view>

namespace gltf_anim::text {

// Repaired UTF-8, for a writer that escapes for JSON itself (RapidJSON's).
std::string json_text(std::string_view raw);
// A quoted JSON string.
std::string json_string(std::string_view raw);
void append_json_string(std::string& out, std::string_view raw);

// For a RapidJSON Writer: the repaired string as a JSON string value.
template <class Writer>
void json_value(Writer& w, std::string_view raw) {
  const std::string s = json_text(raw);
  w.String(s.data(), static_cast<unsigned>(s.size()));  // rapidjson::SizeType
}

// XML (JUnit) and HTML text. In attributes (the default) line breaks and tabs
// become character references; in element text (`attribute` false) they stay.
std::string xml_escape(std::string_view raw, bool attribute = true);

// Markdown (GitHub): safe in table cells and in running text, one line.
std::string md_escape(std::string_view raw);

// Plain text for terminals: one line, no control characters (and what the
// commands' messages on standard error quote: a file named with terminal
// escapes must not drive the user's terminal).
std::string visible_text(std::string_view raw);

// A CSV field: as it is when it needs no quotes, else RFC 4180 quoted.
std::string csv_field(std::string_view raw);

// The message of a GitHub workflow command (after its "::"), and a property
// value (file=, title=) of one: always one line of the log.
std::string github_command_data(std::string_view raw);
std::string github_command_property(std::string_view raw);

}  // namespace gltf_anim::text

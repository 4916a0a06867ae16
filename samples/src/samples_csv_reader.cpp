// Samples files: the CSV reader (RFC 4180 fields, header
// `animation,channel,target,t,v0,v1,...`). Errors name the line and field.
#include <gltf_anim/samples/samples.hpp>
#include <gltf_anim/text/utf8.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

namespace gltf_anim::samples {
namespace {

struct Field {
  std::string text;
  bool quoted = false;
};

// Splits the text into records of fields, tracking the line each record starts on.
class CsvScanner {
 public:
  CsvScanner(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {}

  // Reads the next record into `fields`; false at the end of the input.
  bool next(std::vector<Field>& fields, std::size_t& line) {
    fields.clear();
    // Skip blank lines.
    while (pos_ < text_.size() && (text_[pos_] == '\n' || text_[pos_] == '\r')) {
      if (text_[pos_] == '\n') ++line_;
      ++pos_;
    }
    if (pos_ >= text_.size()) return false;
    line = line_;
    Field field;
    while (true) {
      if (pos_ >= text_.size()) {
        fields.push_back(std::move(field));
        return true;
      }
      const char c = text_[pos_];
      if (c == '"' && field.text.find_first_not_of(" \t") == std::string::npos) {
        field.text.clear();
        field.quoted = true;
        ++pos_;
        const std::size_t start_line = line_;
        while (true) {
          if (pos_ >= text_.size()) {
            throw SamplesFormatError(file_, "line " + std::to_string(start_line),
                                     "unterminated quoted field");
          }
          const char q = text_[pos_++];
          if (q == '"') {
            if (pos_ < text_.size() && text_[pos_] == '"') {
              field.text += '"';
              ++pos_;
            } else {
              break;
            }
          } else {
            if (q == '\n') ++line_;
            field.text += q;
          }
        }
        while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
        if (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '\n' &&
            text_[pos_] != '\r') {
          throw SamplesFormatError(file_, "line " + std::to_string(line_),
                                   "unexpected text after a quoted field");
        }
        continue;
      }
      ++pos_;
      if (c == ',') {
        fields.push_back(std::move(field));
        field = Field{};
      } else if (c == '\n' || c == '\r') {
        if (c == '\r' && pos_ < text_.size() && text_[pos_] == '\n') ++pos_;
        ++line_;
        fields.push_back(std::move(field));
        return true;
      } else if (!field.quoted) {
        field.text += c;
      }
    }
  }

 private:
  std::string_view text_;
  std::string file_;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;
};

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t");
  return std::string(s.substr(b, e - b + 1));
}

bool parse_index(const std::string& s, std::size_t& out) {
  if (s.empty()) return false;
  const auto res = std::from_chars(s.data(), s.data() + s.size(), out);
  return res.ec == std::errc() && res.ptr == s.data() + s.size();
}

bool parse_number(std::string s, double& out) {
  if (!s.empty() && s[0] == '+') s.erase(0, 1);
  if (s.empty()) return false;
  const auto res = std::from_chars(s.data(), s.data() + s.size(), out);
  return res.ec == std::errc() && res.ptr == s.data() + s.size();
}

}  // namespace

SamplesFile read_samples_csv(std::string_view text, const ReadOptions& options,
                             const std::string& file) {
  if (text.size() > options.max_file_bytes) {
    throw SamplesFormatError(file, "", "input is " + std::to_string(text.size()) +
                                           " bytes, more than the limit of " +
                                           std::to_string(options.max_file_bytes));
  }
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  // Like the JSON reader: the text must be UTF-8, so names read from it are.
  if (const std::size_t bad = text::first_invalid_utf8(text); bad != std::string_view::npos) {
    const std::size_t bad_line =
        1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(bad), '\n'));
    throw SamplesFormatError(file, "line " + std::to_string(bad_line), "not valid UTF-8");
  }
  CsvScanner scanner(text, file);
  std::vector<Field> fields;
  std::size_t line = 0;
  auto where = [&](std::size_t field) {
    return "line " + std::to_string(line) + ", field " + std::to_string(field + 1);
  };
  if (!scanner.next(fields, line)) {
    throw SamplesFormatError(file, "", "empty file (expected the header line "
                                       "animation,channel,target,t,v0,...)");
  }
  static constexpr const char* kFixed[] = {"animation", "channel", "target", "t"};
  if (fields.size() < 5) {
    throw SamplesFormatError(file, "line " + std::to_string(line),
                             "the header must be animation,channel,target,t,v0[,v1,...]");
  }
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const std::string name = trim(fields[i].text);
    const std::string expected = i < 4 ? kFixed[i] : std::string("v").append(std::to_string(i - 4));
    if (name != expected) {
      throw SamplesFormatError(file, where(i), "header column is \"" + name + "\", expected \"" +
                                                   expected + "\"");
    }
  }
  const std::size_t columns = fields.size();

  SamplesFile result;
  std::map<std::size_t, std::size_t> animation_slot;  // animation index -> position
  std::map<std::pair<std::size_t, std::string>, std::size_t> channel_slot;  // (anim, target)
  std::map<std::pair<std::size_t, std::size_t>, std::string> channel_target;  // (anim, index)
  std::vector<std::vector<std::size_t>> lines;  // per channel (flattened order below)
  std::vector<std::pair<std::size_t, std::size_t>> channel_of_slot;  // slot -> (anim pos, ch pos)
  std::vector<double> value;

  while (scanner.next(fields, line)) {
    if (fields.size() > columns) {
      throw SamplesFormatError(file, where(columns), "more fields than the header has columns (" +
                                                         std::to_string(columns) + ")");
    }
    if (fields.size() < 5) {
      throw SamplesFormatError(file, "line " + std::to_string(line),
                               "a row needs animation,channel,target,t and at least one value");
    }
    std::size_t anim_index = 0, channel_index = 0;
    if (!parse_index(trim(fields[0].text), anim_index)) {
      throw SamplesFormatError(file, where(0), "animation must be a non-negative integer");
    }
    if (!parse_index(trim(fields[1].text), channel_index)) {
      throw SamplesFormatError(file, where(1), "channel must be a non-negative integer");
    }
    const std::string target = fields[2].quoted ? fields[2].text : trim(fields[2].text);
    if (target.empty() || target[0] != '/') {
      throw SamplesFormatError(file, where(2),
                               "target must be a JSON pointer starting with '/'");
    }
    double t = 0;
    if (!parse_number(trim(fields[3].text), t) || !std::isfinite(t)) {
      throw SamplesFormatError(file, where(3), "t must be a finite number");
    }
    value.clear();
    bool ended = false;
    for (std::size_t i = 4; i < fields.size(); ++i) {
      const std::string s = trim(fields[i].text);
      if (s.empty()) {
        ended = true;
        continue;
      }
      if (ended) {
        throw SamplesFormatError(file, where(i), "value after an empty value field");
      }
      double v = 0;
      if (!parse_number(s, v)) {
        throw SamplesFormatError(file, where(i), "\"" + s + "\" is not a number");
      }
      value.push_back(v);
    }
    if (value.empty()) {
      throw SamplesFormatError(file, where(4), "a row needs at least one value");
    }

    auto [a_it, a_new] = animation_slot.try_emplace(anim_index, result.animations.size());
    if (a_new) result.animations.emplace_back().index = anim_index;
    SampledAnimation& anim = result.animations[a_it->second];
    auto [t_it, t_new] = channel_target.try_emplace({anim_index, channel_index}, target);
    if (!t_new && t_it->second != target) {
      throw SamplesFormatError(file, where(2), "channel " + std::to_string(channel_index) +
                                                   " of animation " + std::to_string(anim_index) +
                                                   " had target \"" + t_it->second +
                                                   "\" on an earlier line");
    }
    auto [c_it, c_new] = channel_slot.try_emplace({anim_index, target}, lines.size());
    if (c_new) {
      SampledChannel& ch = anim.channels.emplace_back();
      ch.index = channel_index;
      ch.target = target;
      lines.emplace_back();
      channel_of_slot.emplace_back(a_it->second, anim.channels.size() - 1);
    }
    const auto [ap, cp] = channel_of_slot[c_it->second];
    SampledChannel& ch = result.animations[ap].channels[cp];
    if (ch.index != channel_index) {
      throw SamplesFormatError(file, where(1), "target \"" + target + "\" was channel " +
                                                   std::to_string(ch.index) +
                                                   " on an earlier line");
    }
    if (ch.width != 0 && value.size() != ch.width) {
      throw SamplesFormatError(file, where(4), "row has " + std::to_string(value.size()) +
                                                   " values, earlier rows of this channel have " +
                                                   std::to_string(ch.width));
    }
    ch.add_sample(t, value);
    lines[c_it->second].push_back(line);
  }

  for (std::size_t slot = 0; slot < channel_of_slot.size(); ++slot) {
    const auto [ap, cp] = channel_of_slot[slot];
    const SampledChannel& ch = result.animations[ap].channels[cp];
    std::vector<std::size_t> order(ch.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return ch.times[x] < ch.times[y]; });
    for (std::size_t k = 1; k < order.size(); ++k) {
      if (ch.times[order[k]] == ch.times[order[k - 1]]) {
        throw SamplesFormatError(file, "line " + std::to_string(lines[slot][order[k]]),
                                 "duplicate t " + format_double(ch.times[order[k]]) + " for \"" +
                                     ch.target + "\" (also on line " +
                                     std::to_string(lines[slot][order[k - 1]]) + ")");
      }
    }
  }
  return result;
}

}  // namespace gltf_anim::samples

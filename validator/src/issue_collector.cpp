#include <gltf_anim/validator/issue_collector.hpp>

#include <gltf_anim/validator/text.hpp>

#include <algorithm>
#include <stdexcept>

namespace gltf_anim::validator {

std::string format_message(std::string_view tmpl, std::initializer_list<std::string> args) {
  std::string out;
  out.reserve(tmpl.size() + 16);
  for (std::size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] == '{') {
      const std::size_t close = tmpl.find('}', i);
      if (close != std::string_view::npos && close > i + 1 && close - i <= 3) {
        std::size_t n = 0;
        bool digits = true;
        for (std::size_t j = i + 1; j < close; ++j) {
          if (tmpl[j] < '0' || tmpl[j] > '9') {
            digits = false;
            break;
          }
          n = n * 10 + static_cast<std::size_t>(tmpl[j] - '0');
        }
        if (digits) {
          // Arguments quote the input: valid UTF-8, cut on a character boundary.
          if (n < args.size()) out += text::truncate_utf8(*(args.begin() + n), kMaxArgumentBytes);
          i = close;
          continue;
        }
      }
    }
    out += tmpl[i];
  }
  return out;
}

IssueCollector::IssueCollector(IssueOptions options) : options_(std::move(options)) {}

void IssueCollector::push(const IssueType& type, std::string pointer,
                          std::optional<std::uint64_t> offset,
                          std::initializer_list<std::string> args,
                          std::optional<TextPosition> position) {
  if (options_.ignored.count(type.code) != 0) return;
  if (options_.max_issues != 0 && issues_.size() >= options_.max_issues) {
    truncated_ = true;
    return;
  }
  Severity severity = type.severity;
  if (auto it = options_.severity_overrides.find(type.code); it != options_.severity_overrides.end()) {
    severity = it->second;
  }
  issues_.push_back(Issue{type.code, severity, format_message(type.message, args),
                          offset ? std::string() : std::move(pointer), offset, position});
}

static const IssueType& lookup(std::string_view code) {
  const IssueType* type = find_issue_type(code);
  if (type == nullptr) throw std::logic_error("unregistered issue code: " + std::string(code));
  return *type;
}

void IssueCollector::add(std::string_view code, const JsonPointer& at,
                         std::initializer_list<std::string> args) {
  push(lookup(code), at.str(), std::nullopt, args);
}

void IssueCollector::add(std::string_view code, std::string_view pointer,
                         std::initializer_list<std::string> args) {
  push(lookup(code), std::string(pointer), std::nullopt, args);
}

void IssueCollector::add_at_offset(std::string_view code, std::uint64_t offset,
                                   std::initializer_list<std::string> args) {
  push(lookup(code), std::string(), offset, args);
}

void IssueCollector::add_at_position(std::string_view code, const TextPosition& position,
                                     std::initializer_list<std::string> args) {
  push(lookup(code), std::string(), std::nullopt, args, position);
}

std::size_t IssueCollector::count(Severity s) const {
  return static_cast<std::size_t>(std::count_if(
      issues_.begin(), issues_.end(), [s](const Issue& i) { return i.severity == s; }));
}

bool IssueCollector::has(std::string_view code) const {
  return std::any_of(issues_.begin(), issues_.end(),
                     [code](const Issue& i) { return i.code == code; });
}

}  // namespace gltf_anim::validator

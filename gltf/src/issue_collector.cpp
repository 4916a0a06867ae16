#include <gltf_anim/gltf/issue_collector.hpp>

#include <gltf_anim/text/utf8.hpp>

#include <algorithm>

namespace gltf_anim::gltf {

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

namespace {

void pack_argument(std::string& packed, std::string_view argument) {
  for (std::size_t n = argument.size();; n >>= 7) {
    const auto low = static_cast<char>(n & 0x7f);
    if (n < 0x80) {
      packed += low;
      break;
    }
    packed += static_cast<char>(low | 0x80);
  }
  packed += argument;
}

}  // namespace

std::optional<std::vector<std::string>> issue_arguments(const Issue& issue) {
  if (!issue.has_arguments) return std::nullopt;
  std::vector<std::string> out;
  const std::string& p = issue.packed_arguments;
  for (std::size_t i = 0; i < p.size();) {
    std::size_t n = 0;
    for (unsigned shift = 0; i < p.size(); shift += 7) {
      const auto b = static_cast<unsigned char>(p[i++]);
      n |= static_cast<std::size_t>(b & 0x7f) << shift;
      if (b < 0x80) break;
    }
    n = std::min(n, p.size() - i);  // packed here: never past the end, but never trusted either
    out.emplace_back(p, i, n);
    i += n;
  }
  return out;
}

void set_issue_arguments(Issue& issue, std::span<const std::string> arguments) {
  issue.has_arguments = true;
  issue.packed_arguments.clear();
  for (const std::string& a : arguments) pack_argument(issue.packed_arguments, a);
}

void cut_issue_text(std::string& text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return;
  // The shared cut (gltf_anim/text/utf8.hpp), with this collector's mark.
  const std::size_t room = max_bytes > kCutMark.size() ? max_bytes - kCutMark.size() : 0;
  text = text::truncate_utf8(text, room, kCutMark);
}

LintPolicy LintPolicy::every_lint() {
  LintPolicy policy;
  policy.level = LintLevel::kWarning;
  for (const IssueType& t : issue_types()) {
    if (t.enablement == Enablement::kOptIn) policy.opted_in.emplace(t.code);
  }
  return policy;
}

bool LintPolicy::reports(const IssueType& type) const {
  if (type.phase != Phase::kLint) return true;
  if (level == LintLevel::kOff) return false;
  return type.enablement == Enablement::kDefault || opted_in.count(type.code) != 0;
}

Severity LintPolicy::severity(const IssueType& type) const {
  if (type.phase != Phase::kLint) return type.severity;
  // Severity numbers grow as severity falls: the policy's level is a floor on the number.
  Severity least = Severity::kWarning;
  switch (level) {
    case LintLevel::kOff:  // not reported at all; the registry's value is as good as any
    case LintLevel::kWarning: least = Severity::kWarning; break;
    case LintLevel::kInfo: least = Severity::kInfo; break;
    case LintLevel::kHint: least = Severity::kHint; break;
  }
  return static_cast<int>(type.severity) < static_cast<int>(least) ? least : type.severity;
}

Severity IssueOptions::severity(const IssueType& type) const {
  if (auto it = severity_overrides.find(type.code); it != severity_overrides.end())
    return it->second;
  return lints.severity(type);
}

IssueCollector::IssueCollector(IssueOptions options) : options_(std::move(options)) {}

const IssueType* IssueCollector::admit(IssueCode code) {
  const IssueType& type = code.type();
  if (!keeps(type)) return nullptr;
  if ((options_.max_issues != 0 && issues_.size() >= options_.max_issues) ||
      (options_.max_issue_bytes != 0 && bytes_ >= options_.max_issue_bytes)) {
    truncated_ = true;
    return nullptr;
  }
  return &type;
}

void IssueCollector::push(const IssueType& type, std::string_view pointer_text,
                          std::optional<std::uint64_t> offset,
                          std::initializer_list<std::string> args,
                          std::optional<TextPosition> position) {
  const Severity severity = options_.severity(type);
  std::string message = format_message(type.message, args);
  cut_issue_text(message);
  // Only what can be kept is copied (the cut looks no further).
  std::string pointer(pointer_text.substr(0, kMaxIssueTextBytes + 1));
  cut_issue_text(pointer);
  std::string packed;
  for (const std::string& a : args) {
    // Cut as format_message cuts it, so an argument reads as the message quotes it.
    pack_argument(packed, text::truncate_utf8(a, kMaxArgumentBytes));
  }
  const std::size_t bytes = sizeof(Issue) + message.size() + pointer.size() + packed.size();
  // An issue that would cross the budget is not stored: the budget is a bound.
  if (options_.max_issue_bytes != 0 && bytes_ + bytes > options_.max_issue_bytes) {
    bytes_ = options_.max_issue_bytes;
    truncated_ = true;
    return;
  }
  bytes_ += bytes;
  issues_.push_back(Issue{type.code, severity, std::move(message),
                          offset ? std::string() : std::move(pointer), offset, position,
                          FoundBy::kGltfAnim, true, std::move(packed)});
}

void IssueCollector::add(IssueCode code, const JsonPointer& at,
                         std::initializer_list<std::string> args) {
  // Checked before anything is formatted or copied: once a limit is reached,
  // dropping an issue costs nothing per byte of its pointer.
  if (const IssueType* type = admit(code)) push(*type, at.str(), std::nullopt, args);
}

void IssueCollector::add(IssueCode code, std::string_view pointer,
                         std::initializer_list<std::string> args) {
  if (const IssueType* type = admit(code)) push(*type, pointer, std::nullopt, args);
}

void IssueCollector::add_at_offset(IssueCode code, std::uint64_t offset,
                                   std::initializer_list<std::string> args) {
  if (const IssueType* type = admit(code)) push(*type, {}, offset, args);
}

void IssueCollector::add_at_position(IssueCode code, const TextPosition& position,
                                     std::initializer_list<std::string> args) {
  if (const IssueType* type = admit(code)) push(*type, {}, std::nullopt, args, position);
}

std::size_t IssueCollector::count(Severity s) const {
  return static_cast<std::size_t>(std::count_if(issues_.begin(), issues_.end(),
                                                [s](const Issue& i) { return i.severity == s; }));
}

bool IssueCollector::keeps(const IssueType& type) const {
  return options_.ignored.count(type.code) == 0 && options_.lints.reports(type);
}

bool IssueCollector::reports(IssueCode code) const { return keeps(code.type()); }

bool IssueCollector::reports_any(Phase phase) const {
  return std::any_of(issue_types().begin(), issue_types().end(),
                     [&](const IssueType& t) { return t.phase == phase && keeps(t); });
}

bool IssueCollector::has(IssueCode code) const {
  return std::any_of(issues_.begin(), issues_.end(),
                     [code](const Issue& i) { return i.code == code.name(); });
}

}  // namespace gltf_anim::gltf

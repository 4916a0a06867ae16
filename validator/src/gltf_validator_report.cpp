// glTF-Validator reports: read (bounded), checked member by member, merged
// into ours with (code, place) de-duplication, matched to our assets by uri.
#include <gltf_anim/gltf/json.hpp>
#include <gltf_anim/validator/gltf_validator_report.hpp>
#include <gltf_anim/gltf/json_pointer.hpp>

#include <algorithm>
#include <mutex>
#include <set>
#include <unordered_map>

#include <gltf_anim/gltf/json_syntax.hpp>
#include <gltf_anim/io/resource_reader.hpp>

namespace gltf_anim::validator {

using gltf::cut_issue_text;
using gltf::find_issue_type;
using gltf::FoundBy;
using gltf::Issue;
using gltf::IssueCollector;
using gltf::IssueOptions;
using gltf::IssueType;
using gltf::Severity;
using io::FileIdentity;
using io::ReadResult;

namespace {

// A report of a folder of assets is large but flat.
constexpr std::size_t kMaxDepth = 16;
constexpr std::size_t kMaxValues = std::size_t{1} << 24;
constexpr std::size_t kMaxCodeLength = 64;

bool is_code(std::string_view s) {
  if (s.empty() || s.size() > kMaxCodeLength) return false;
  for (char c : s) {
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

std::string text_of(const gltf_anim::json::Value& v) {
  return std::string(v.GetString(), v.GetStringLength());
}

// Reads one report object at `at`; false with `why`.
bool read_report(const gltf_anim::json::Value& r, const std::string& at, GltfValidatorReport& out,
                 std::string& why) {
  auto fail = [&](const std::string& where, const char* what) {
    why = (where.empty() ? std::string("the document") : where) + ": " + what;
    return false;
  };
  if (!r.IsObject()) return fail(at, "not a report object");
  if (const auto u = r.FindMember("uri"); u != r.MemberEnd()) {
    if (!u->value.IsString()) return fail(at + "/uri", "not a string");
    out.uri = text_of(u->value);
  }
  const auto issues = r.FindMember("issues");
  if (issues == r.MemberEnd() || !issues->value.IsObject()) {
    return fail(at + "/issues", "missing or not an object (is this a glTF-Validator report?)");
  }
  if (const auto t = issues->value.FindMember("truncated"); t != issues->value.MemberEnd()) {
    if (!t->value.IsBool()) return fail(at + "/issues/truncated", "not a boolean");
    out.truncated = t->value.GetBool();
  }
  const auto messages = issues->value.FindMember("messages");
  if (messages == issues->value.MemberEnd() || !messages->value.IsArray()) {
    return fail(at + "/issues/messages", "missing or not an array");
  }
  out.messages.reserve(messages->value.Size());
  for (rapidjson::SizeType k = 0; k < messages->value.Size(); ++k) {
    const gltf_anim::json::Value& m = messages->value[k];
    const std::string mp = at + "/issues/messages/" + std::to_string(k);
    if (!m.IsObject()) return fail(mp, "not an object");
    const auto code = m.FindMember("code");
    if (code == m.MemberEnd() || !code->value.IsString() || !is_code(text_of(code->value))) {
      return fail(mp + "/code",
                  "missing or not an issue code (UPPER_SNAKE, at most 64 characters)");
    }
    const auto severity = m.FindMember("severity");
    if (severity == m.MemberEnd() || !severity->value.IsInt() || severity->value.GetInt() < 0 ||
        severity->value.GetInt() > 3) {
      return fail(mp + "/severity", "missing or not 0, 1, 2 or 3");
    }
    ForeignMessage f{};
    const auto interned = intern_gltf_validator_code(text_of(code->value));
    if (!interned) return fail(mp + "/code", "more distinct codes than glTF-Validator has (4096)");
    f.code = *interned;
    f.severity = static_cast<Severity>(severity->value.GetInt());
    if (const auto text = m.FindMember("message"); text != m.MemberEnd()) {
      if (!text->value.IsString()) return fail(mp + "/message", "not a string");
      f.message = text_of(text->value);
      cut_issue_text(f.message);
    }
    const auto pointer = m.FindMember("pointer");
    const auto offset = m.FindMember("offset");
    if (offset != m.MemberEnd()) {
      if (!offset->value.IsUint64()) return fail(mp + "/offset", "not a byte offset");
      f.offset = offset->value.GetUint64();
    } else if (pointer != m.MemberEnd()) {
      if (!pointer->value.IsString()) return fail(mp + "/pointer", "not a string");
      f.pointer = text_of(pointer->value);
      cut_issue_text(f.pointer);
    }
    out.messages.push_back(std::move(f));
  }
  return true;
}

// The place a message is about, with its code: what de-duplication compares.
std::string place_key(std::string_view code, const std::string& pointer,
                      const std::optional<std::uint64_t>& offset) {
  std::string k(code);
  k += offset ? '@' : '/';
  k += offset ? std::to_string(*offset) : pointer;
  return k;
}

// A report's uri is a URI reference: glTF-Validator's npm build percent-encodes
// the path it was given ("my assets" becomes "my%20assets"). Each %XX is the byte
// it names; a '%' without two hex digits stays as it is. One pass.
std::string percent_decoded(std::string_view uri) {
  const auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  out.reserve(uri.size());
  for (std::size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() && hex(uri[i + 1]) >= 0 && hex(uri[i + 2]) >= 0) {
      out += static_cast<char>(hex(uri[i + 1]) * 16 + hex(uri[i + 2]));
      i += 2;
    } else {
      out += uri[i];
    }
  }
  return out;
}

std::string normalized(std::string_view path) {
  while (path.starts_with("./")) path.remove_prefix(2);
  return std::string(path);
}

// The assets' paths as a trie of their components read from the end: the
// tails of "a/b/c" ("a/b/c", "b/c", "c": what follows a '/', or all of it) are
// the trie's paths from its root, so a report's uri is looked up in one walk
// over its own components, whatever the lengths. One hash map holds the edges
// (node, component) -> node, the components viewing the paths: memory and time
// are linear in the paths' length (keying a map on every tail's text was
// quadratic in a path's depth).
class TailTrie {
 public:
  explicit TailTrie(const std::vector<std::string>& paths) : nodes_(1) {
    for (std::size_t i = 0; i < paths.size(); ++i) {
      std::uint32_t node = 0;
      std::size_t depth = 0;
      for_each_component(paths[i], [&](std::string_view component, bool whole) {
        ++depth;
        const auto [edge, added] = edges_.try_emplace(Edge{node, component}, 0);
        if (added) {
          edge->second = static_cast<std::uint32_t>(nodes_.size());
          nodes_.emplace_back();
        }
        node = edge->second;
        // The empty tail after a trailing '/' names no file.
        if (!(depth == 1 && component.empty()) || whole) nodes_[node].add(i);
        if (whole && !nodes_[node].whole) nodes_[node].whole = i;
        return true;
      });
    }
  }

  // The first two paths that `uri` is a tail of (equal included).
  std::vector<std::size_t> paths_ending_with(std::string_view uri) const {
    std::optional<std::uint32_t> node = 0;
    for_each_component(uri, [&](std::string_view component, bool) {
      node = child(*node, component);
      return node.has_value();
    });
    if (!node || *node == 0) return {};
    return nodes_[*node].first_two();
  }

  // The path that is `uri`'s longest tail (an absolute uri of a relative path).
  std::optional<std::size_t> longest_path_ending(std::string_view uri) const {
    std::optional<std::size_t> found;
    std::uint32_t node = 0;
    std::size_t depth = 0;
    for_each_component(uri, [&](std::string_view component, bool whole) {
      const auto next = child(node, component);
      if (!next) return false;
      node = *next;
      if (!(++depth == 1 && component.empty() && !whole) && nodes_[node].whole) {
        found = nodes_[node].whole;
      }
      return true;
    });
    return found;
  }

 private:
  struct Edge {
    std::uint32_t parent;
    std::string_view component;
    bool operator==(const Edge&) const = default;
  };
  struct EdgeHash {
    std::size_t operator()(const Edge& e) const {
      return std::hash<std::string_view>()(e.component) * 31 + e.parent;
    }
  };
  struct Node {
    std::size_t count = 0;            // paths with this tail
    std::size_t first = 0, second = 0;  // the first two of them
    std::optional<std::size_t> whole;   // the first path that is all of this tail
    void add(std::size_t path) {
      if (count == 0) first = path;
      if (count == 1) second = path;
      ++count;
    }
    std::vector<std::size_t> first_two() const {
      if (count == 0) return {};
      if (count == 1) return {first};
      return {first, second};
    }
  };

  // `path`'s components from the last; `whole` on the first. Stops when `f` is false.
  template <class F>
  static void for_each_component(std::string_view path, F f) {
    std::size_t end = path.size();
    for (;;) {
      const std::size_t slash = end == 0 ? std::string_view::npos : path.rfind('/', end - 1);
      if (slash == std::string_view::npos) {
        f(path.substr(0, end), true);
        return;
      }
      if (!f(path.substr(slash + 1, end - slash - 1), false)) return;
      end = slash;
    }
  }

  std::optional<std::uint32_t> child(std::uint32_t node, std::string_view component) const {
    const auto it = edges_.find(Edge{node, component});
    if (it == edges_.end()) return std::nullopt;
    return it->second;
  }

  std::vector<Node> nodes_;  // [0] is the root: the empty sequence of components
  std::unordered_map<Edge, std::uint32_t, EdgeHash> edges_;
};

}  // namespace

// Codes as string_views with static storage, as Issue::code wants: ours point
// into the registry (so --ignore, overrides and SARIF rules find them), the
// others into a process-wide set (nodes never move), at most kMaxForeignCodes.
std::optional<std::string_view> intern_gltf_validator_code(std::string_view code) {
  if (!is_code(code)) return std::nullopt;
  if (const IssueType* t = find_issue_type(code)) return t->code;
  static std::mutex mutex;
  static std::set<std::string, std::less<>> codes;
  std::lock_guard lock(mutex);
  if (const auto it = codes.find(code); it != codes.end()) return std::string_view(*it);
  if (codes.size() >= kMaxForeignCodes) return std::nullopt;
  return std::string_view(*codes.emplace(code).first);
}

std::optional<std::vector<GltfValidatorReport>> parse_gltf_validator_reports(std::string_view text,
                                                                             std::string& why) {
  IssueCollector issues;
  const auto doc = parse_json({reinterpret_cast<const std::uint8_t*>(text.data()), text.size()}, 0,
                              kMaxDepth, kMaxValues, issues);
  if (!doc) {
    why = issues.issues().empty() ? "not JSON" : issues.issues().front().message;
    return std::nullopt;
  }
  std::vector<GltfValidatorReport> out;
  if (doc->IsArray()) {
    out.resize(doc->Size());
    for (rapidjson::SizeType i = 0; i < doc->Size(); ++i) {
      if (!read_report((*doc)[i], "/" + std::to_string(i), out[i], why)) return std::nullopt;
    }
  } else {
    out.emplace_back();
    if (!read_report(*doc, "", out.back(), why)) return std::nullopt;
  }
  return out;
}

std::optional<std::vector<GltfValidatorReport>> read_gltf_validator_reports(
    const std::filesystem::path& path, std::optional<FileIdentity>& identity, std::string& why) {
  const ReadResult r =
      io::read_regular_file(path, kMaxGltfValidatorReportBytes, /*no_follow=*/false);
  if (r.failure != ReadResult::Failure::kNone) {
    why = r.failure == ReadResult::Failure::kTooLarge
              ? "it is " + std::to_string(r.size) + " bytes, more than the limit of " +
                    std::to_string(kMaxGltfValidatorReportBytes)
              : r.detail;
    return std::nullopt;
  }
  identity = r.identity;
  const auto bytes = r.storage->bytes();
  return parse_gltf_validator_reports(
      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), why);
}

void merge_gltf_validator_reports(ValidationReport& ours,
                                  std::span<const GltfValidatorReport* const> theirs,
                                  const IssueOptions& options) {
  if (theirs.empty()) return;
  // Ours are indexed once for all of this asset's reports.
  std::unordered_map<std::string, std::size_t> at;  // place -> index in ours.issues
  std::size_t bytes = 0;
  for (std::size_t i = 0; i < ours.issues.size(); ++i) {
    const Issue& issue = ours.issues[i];
    at.emplace(place_key(issue.code, issue.pointer, issue.offset), i);
    bytes += sizeof(Issue) + issue.message.size() + issue.pointer.size();
  }
  for (const GltfValidatorReport* report : theirs) {
    for (const ForeignMessage& m : report->messages) {
      if (options.ignored.count(m.code) != 0) continue;
      std::string key = place_key(m.code, m.pointer, m.offset);
      if (const auto it = at.find(key); it != at.end()) {
        Issue& same = ours.issues[it->second];
        if (same.found_by == FoundBy::kGltfAnim) same.found_by = FoundBy::kBoth;
        continue;
      }
      const std::size_t size = sizeof(Issue) + m.message.size() + m.pointer.size();
      if ((options.max_issues != 0 && ours.issues.size() >= options.max_issues) ||
          (options.max_issue_bytes != 0 && bytes + size > options.max_issue_bytes)) {
        ours.truncated = true;
        return;
      }
      Severity severity = m.severity;
      if (const auto o = options.severity_overrides.find(m.code);
          o != options.severity_overrides.end()) {
        severity = o->second;
      }
      bytes += size;
      at.emplace(std::move(key), ours.issues.size());
      ours.issues.push_back(Issue{m.code, severity, m.message,
                                  m.offset ? std::string() : m.pointer, m.offset, std::nullopt,
                                  FoundBy::kGltfValidator});
    }
    // Their list stopped early: the merged one is incomplete too.
    ours.truncated = ours.truncated || report->truncated;
  }
}

void merge_gltf_validator_report(ValidationReport& ours, const GltfValidatorReport& theirs,
                                 const IssueOptions& options) {
  const GltfValidatorReport* one[] = {&theirs};
  merge_gltf_validator_reports(ours, one, options);
}

std::optional<std::vector<std::size_t>> match_gltf_validator_reports(
    const std::vector<GltfValidatorReport>& reports, const std::vector<std::string>& assets,
    std::string& why) {
  std::vector<std::string> paths;
  paths.reserve(assets.size());
  for (const std::string& a : assets) paths.push_back(normalized(a));
  const TailTrie tails(paths);
  std::vector<std::size_t> out;
  for (const GltfValidatorReport& r : reports) {
    if (!r.uri) {
      if (assets.size() != 1) {
        why = "a glTF-Validator report without uri, and " + std::to_string(assets.size()) +
              " assets validated: give glTF-Validator's reports their uri, or validate one asset";
        return std::nullopt;
      }
      out.push_back(0);
      continue;
    }
    const std::string uri = normalized(percent_decoded(*r.uri));
    std::vector<std::size_t> found = tails.paths_ending_with(uri);
    // Or theirs is the longer one (an absolute path): its longest tail that is one of ours.
    if (found.empty()) {
      if (const auto p = tails.longest_path_ending(uri)) found.push_back(*p);
    }
    if (found.empty()) {
      why = "the glTF-Validator report of '" + *r.uri + "' matches no validated asset";
      return std::nullopt;
    }
    if (found.size() > 1) {
      why = "the glTF-Validator report of '" + *r.uri + "' matches several validated assets ('" +
            assets[found[0]] + "', '" + assets[found[1]] +
            "'): give glTF-Validator the same paths as gltf-anim";
      return std::nullopt;
    }
    out.push_back(found.front());
  }
  return out;
}

namespace {

// `positions` null: the run validates every one of run_assets.
std::optional<GltfValidatorReportsByAsset> reports_by_asset(
    const std::vector<GltfValidatorReport>& reports, const std::vector<std::string>& run_assets,
    const std::vector<std::uint64_t>* positions, std::string& why) {
  const auto owners = match_gltf_validator_reports(reports, run_assets, why);
  if (!owners) return std::nullopt;
  GltfValidatorReportsByAsset out(positions != nullptr ? positions->size() : run_assets.size());
  for (std::size_t k = 0; k < reports.size(); ++k) {
    std::size_t owner = (*owners)[k];
    if (positions != nullptr) {  // run position -> index in the shard (binary search)
      const auto at = std::lower_bound(positions->begin(), positions->end(), owner);
      if (at == positions->end() || *at != owner) continue;  // another shard's asset
      owner = static_cast<std::size_t>(at - positions->begin());
    }
    out[owner].push_back(&reports[k]);
  }
  return out;
}

}  // namespace

std::optional<GltfValidatorReportsByAsset> gltf_validator_reports_by_asset(
    const std::vector<GltfValidatorReport>& reports, const std::vector<std::string>& run_assets,
    std::string& why) {
  return reports_by_asset(reports, run_assets, nullptr, why);
}

std::optional<GltfValidatorReportsByAsset> gltf_validator_reports_by_shard_asset(
    const std::vector<GltfValidatorReport>& reports, const std::vector<std::string>& run_assets,
    const std::vector<std::uint64_t>& positions, std::string& why) {
  return reports_by_asset(reports, run_assets, &positions, why);
}

}  // namespace gltf_anim::validator

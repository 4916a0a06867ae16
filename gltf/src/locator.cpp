// The locator: one pass over a JSON text with an explicit stack, the current
// pointer kept as text and as a hash extended token by token.
#include <gltf_anim/gltf/json_pointer.hpp>
#include <gltf_anim/gltf/locator.hpp>

#include <charconv>
#include <cstddef>
#include <unordered_map>

namespace gltf_anim::gltf {
namespace {

// FNV-1a, continued byte by byte: the hash of a value's pointer is its
// container's continued by "/token", in time proportional to the token only.
constexpr std::uint64_t kHashSeed = 0xcbf29ce484222325ull;
std::uint64_t hash_more(std::uint64_t h, std::string_view bytes) {
  for (const unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

// RFC 6901: "" or '/'-separated tokens in which '~' is only "~0" or "~1".
bool is_pointer(std::string_view p) {
  if (!p.empty() && p.front() != '/') return false;
  for (std::size_t k = 0; k < p.size(); ++k) {
    if (p[k] == '~' && (k + 1 == p.size() || (p[k + 1] != '0' && p[k + 1] != '1'))) return false;
  }
  return true;
}

// The wanted pointers, each distinct one once, found by the hash of their
// text. Memory is proportional to the number of pointers, whatever their
// length: the texts are the caller's.
class Wanted {
 public:
  explicit Wanted(std::span<const std::string> pointers) {
    for (std::size_t k = 0; k < pointers.size(); ++k) {
      const std::string_view p = pointers[k];
      if (!is_pointer(p)) continue;
      const std::uint64_t h = hash_more(kHashSeed, p);
      std::uint32_t group = kNone;
      const auto [first, last] = by_hash_.equal_range(h);
      for (auto it = first; it != last && group == kNone; ++it) {
        if (groups_[it->second].pointer == p) group = it->second;
      }
      if (group == kNone) {
        group = static_cast<std::uint32_t>(groups_.size());
        groups_.push_back(Group{p, {}});
        by_hash_.emplace(h, group);
      }
      groups_[group].indices.push_back(k);
    }
    remaining_ = groups_.size();
  }
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;

  // The group of pointer `text` (whose hash is `h`) not found yet, or kNone.
  std::uint32_t find(std::uint64_t h, std::string_view text) const {
    const auto [first, last] = by_hash_.equal_range(h);
    for (auto it = first; it != last; ++it) {
      const Group& g = groups_[it->second];
      if (!g.found && g.pointer == text) return it->second;
    }
    return kNone;
  }
  void found(std::uint32_t group, const Location& where,
             std::vector<std::optional<Location>>& out) {
    Group& g = groups_[group];
    if (g.found) return;
    g.found = true;
    --remaining_;
    for (const std::size_t k : g.indices) out[k] = where;
  }
  std::size_t remaining() const { return remaining_; }

 private:
  struct Group {
    std::string_view pointer;
    std::vector<std::size_t> indices;  // of the pointers with this text
    bool found = false;
  };
  std::vector<Group> groups_;
  std::unordered_multimap<std::uint64_t, std::uint32_t> by_hash_;
  std::size_t remaining_ = 0;
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// The text read once, front to back, knowing the line and column it is at.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}
  bool done() const { return at_ >= text_.size(); }
  // Offsets are 64-bit (a GLB's JSON chunk may sit past 4 GiB of file offsets in a
  // report) while the text held in memory is indexed by size_t (32-bit in wasm):
  // an index is always below text_.size(), so the narrowing loses nothing.
  char char_at(std::uint64_t i) const { return text_[static_cast<std::size_t>(i)]; }
  char peek() const { return char_at(at_); }
  TextPlace place() const { return TextPlace{at_, line_, column_}; }
  void take() {
    const auto c = static_cast<unsigned char>(char_at(at_++));
    if (c == '\n') {
      ++line_;
      column_ = 1;
    } else if ((c & 0xC0) != 0x80) {
      ++column_;
    }
  }
  void skip_space() {
    while (!done() && is_space(peek())) take();
  }
  // Takes a string from its opening quote to its closing one; its decoded
  // value goes to `decoded` when that is not null. False at the end of the
  // text (or a broken \u escape when decoding).
  bool take_string(std::string* decoded) {
    take();  // '"'
    while (!done()) {
      const char c = peek();
      if (c == '"') {
        take();
        return true;
      }
      if (c != '\\') {
        if (decoded != nullptr) *decoded += c;
        take();
        continue;
      }
      take();
      if (done()) return false;
      const char e = peek();
      take();
      if (decoded == nullptr) continue;  // \uXXXX: the digits are ordinary bytes
      switch (e) {
        case 'b': *decoded += '\b'; break;
        case 'f': *decoded += '\f'; break;
        case 'n': *decoded += '\n'; break;
        case 'r': *decoded += '\r'; break;
        case 't': *decoded += '\t'; break;
        case 'u': {
          std::uint32_t cp = 0;
          if (!take_hex4(cp)) return false;
          if (cp >= 0xD800 && cp < 0xDC00 && at_ + 1 < text_.size() && peek() == '\\' &&
              char_at(at_ + 1) == 'u') {
            take();
            take();
            std::uint32_t low = 0;
            if (!take_hex4(low)) return false;
            if (low >= 0xDC00 && low < 0xE000) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            } else {
              append_utf8(*decoded, cp);
              cp = low;
            }
          }
          append_utf8(*decoded, cp);
          break;
        }
        default: *decoded += e; break;  // " \ /
      }
    }
    return false;
  }
  // A number, true, false or null: up to the next delimiter.
  void take_scalar() {
    while (!done()) {
      const char c = peek();
      if (is_space(c) || c == ',' || c == ']' || c == '}') return;
      take();
    }
  }

 private:
  bool take_hex4(std::uint32_t& out) {
    for (int k = 0; k < 4; ++k) {
      if (done()) return false;
      const int d = hex_digit(peek());
      if (d < 0) return false;
      out = out * 16 + static_cast<std::uint32_t>(d);
      take();
    }
    return true;
  }
  std::string_view text_;
  std::uint64_t at_ = 0;
  std::uint64_t line_ = 1;
  std::uint64_t column_ = 1;
};

// The walk: the pointer of the value about to start is kept as text and as a
// hash, both extended by one token from its container's.
class Walk {
 public:
  Walk(std::string_view text, Wanted& wanted, std::vector<std::optional<Location>>& out)
      : in_(text), wanted_(wanted), out_(out) {}

  void run() {
    std::uint32_t group = wanted_.find(kHashSeed, "");  // of the value about to start
    std::optional<TextRange> name;
    while (wanted_.remaining() != 0) {
      in_.skip_space();
      if (in_.done()) return;
      const TextPlace begin = in_.place();
      const char c = in_.peek();
      if (c == '{' || c == '[') {
        in_.take();
        stack_.push_back(Frame{c == '[', 0, current_.size(), hash_, group, begin, name});
        if (!open_next(group, name)) return;
        continue;
      }
      if (c == '"') {
        if (!in_.take_string(nullptr)) return;
      } else {
        in_.take_scalar();
        if (in_.place().byte == begin.byte) return;  // not a value
      }
      record(group, Location{TextRange{begin, in_.place()}, name});
      if (!after_value(group, name)) return;
    }
  }

 private:
  struct Frame {
    bool array;
    std::uint64_t index;  // of the element being read (arrays)
    std::size_t length;   // of the container's own pointer in current_
    std::uint64_t hash;   // of the container's own pointer
    std::uint32_t group;  // of the container itself
    TextPlace begin;
    std::optional<TextRange> name;
  };

  void record(std::uint32_t group, const Location& where) {
    if (group != Wanted::kNone) wanted_.found(group, where, out_);
  }

  // Makes current_ the pointer of the innermost container's next value, from
  // its unescaped token, and returns its group.
  std::uint32_t enter(std::string_view token) {
    const Frame& top = stack_.back();
    current_.resize(top.length);
    current_ += '/';
    append_pointer_token(current_, token);
    hash_ = hash_more(top.hash, std::string_view(current_).substr(top.length));
    return wanted_.find(hash_, current_);
  }

  // After '{' or '[': the first value's group and name, or the container
  // closes here (and the walk goes on after it). False on broken text.
  bool open_next(std::uint32_t& group, std::optional<TextRange>& name) {
    in_.skip_space();
    if (in_.done()) return false;
    if (in_.peek() == (stack_.back().array ? ']' : '}')) return close_and_continue(group, name);
    return next_member(group, name);
  }

  // The group and name of the next element or member of the innermost container.
  bool next_member(std::uint32_t& group, std::optional<TextRange>& name) {
    Frame& top = stack_.back();
    if (top.array) {
      name.reset();
      char digits[24];
      const auto r = std::to_chars(digits, digits + sizeof digits, top.index);
      group = enter(std::string_view(digits, static_cast<std::size_t>(r.ptr - digits)));
      return true;
    }
    in_.skip_space();
    if (in_.done() || in_.peek() != '"') return false;
    const TextPlace key_begin = in_.place();
    key_.clear();
    if (!in_.take_string(&key_)) return false;
    name = TextRange{key_begin, in_.place()};
    group = enter(key_);
    in_.skip_space();
    if (in_.done() || in_.peek() != ':') return false;
    in_.take();
    return true;
  }

  // After a value: ',' and the next one, or the end of containers.
  bool after_value(std::uint32_t& group, std::optional<TextRange>& name) {
    while (true) {
      if (stack_.empty()) return false;  // the document is complete
      in_.skip_space();
      if (in_.done()) return false;
      Frame& top = stack_.back();
      const char c = in_.peek();
      if (c == ',') {
        in_.take();
        ++top.index;
        return next_member(group, name);
      }
      if (c != (top.array ? ']' : '}')) return false;
      in_.take();
      record(top.group, Location{TextRange{top.begin, in_.place()}, top.name});
      stack_.pop_back();
    }
  }

  // The innermost container is empty: close it and go on after it.
  bool close_and_continue(std::uint32_t& group, std::optional<TextRange>& name) {
    in_.take();
    const Frame top = stack_.back();
    stack_.pop_back();
    record(top.group, Location{TextRange{top.begin, in_.place()}, top.name});
    return after_value(group, name);
  }

  Cursor in_;
  Wanted& wanted_;
  std::vector<std::optional<Location>>& out_;
  std::vector<Frame> stack_;
  std::string current_;  // the pointer of the value about to start, escaped
  std::uint64_t hash_ = kHashSeed;
  std::string key_;
};

}  // namespace

std::vector<std::optional<Location>> locate(std::string_view json,
                                            std::span<const std::string> pointers) {
  std::vector<std::optional<Location>> out(pointers.size());
  Wanted wanted(pointers);
  if (wanted.remaining() != 0) Walk(json, wanted, out).run();
  return out;
}

std::optional<Location> locate(std::string_view json, std::string_view pointer) {
  const std::string one[] = {std::string(pointer)};
  return locate(json, one).front();
}

}  // namespace gltf_anim::gltf

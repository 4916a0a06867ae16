// The locator: one pass over a JSON text with an explicit stack, following
// only the branches some wanted pointer goes down (a trie of their tokens).
#include <gltf_anim/gltf/locator.hpp>

#include <charconv>
#include <cstddef>
#include <unordered_map>

namespace gltf_anim::gltf {
namespace {

constexpr std::uint32_t kNoNode = 0xFFFFFFFFu;

// The wanted pointers as a trie of their (unescaped) tokens: node 0 is the
// document; a node lists the pointers that end there. The edges are one hash
// map keyed by (parent, token), so a node costs no allocation of its own.
class PointerTrie {
 public:
  PointerTrie() : nodes_(1) {}

  // False when `pointer` is not RFC 6901.
  bool add(std::string_view pointer, std::size_t wanted) {
    if (!pointer.empty() && pointer.front() != '/') return false;
    std::uint32_t node = 0;
    std::size_t at = 0;
    std::string token;
    while (at < pointer.size()) {
      ++at;  // the '/'
      token.clear();
      while (at < pointer.size() && pointer[at] != '/') {
        const char c = pointer[at++];
        if (c != '~') {
          token += c;
          continue;
        }
        if (at == pointer.size() || (pointer[at] != '0' && pointer[at] != '1')) return false;
        token += pointer[at++] == '0' ? '~' : '/';
      }
      node = child_or_new(node, token);
    }
    nodes_[node].wanted.push_back(wanted);
    return true;
  }

  std::uint32_t child(std::uint32_t node, std::string_view token) const {
    if (node == kNoNode || !nodes_[node].has_children) return kNoNode;
    const auto it = edges_.find(edge(node, token));
    return it == edges_.end() ? kNoNode : it->second;
  }
  bool has_children(std::uint32_t node) const {
    return node != kNoNode && nodes_[node].has_children;
  }
  const std::vector<std::size_t>& wanted(std::uint32_t node) const { return nodes_[node].wanted; }
  std::size_t size() const { return nodes_.size(); }

 private:
  struct Node {
    std::vector<std::size_t> wanted;
    bool has_children = false;
  };
  // The parent's four bytes, then the token.
  const std::string& edge(std::uint32_t parent, std::string_view token) const {
    key_.assign(reinterpret_cast<const char*>(&parent), sizeof parent);
    key_ += token;
    return key_;
  }
  std::uint32_t child_or_new(std::uint32_t node, std::string_view token) {
    const auto id = static_cast<std::uint32_t>(nodes_.size());
    const auto [it, added] = edges_.emplace(edge(node, token), id);
    if (!added) return it->second;
    nodes_[node].has_children = true;
    nodes_.emplace_back();
    return id;
  }
  std::vector<Node> nodes_;
  std::unordered_map<std::string, std::uint32_t> edges_;
  mutable std::string key_;  // the edge being looked up, reused
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
  char peek() const { return text_[at_]; }
  TextPlace place() const { return TextPlace{at_, line_, column_}; }
  void take() {
    const auto c = static_cast<unsigned char>(text_[at_++]);
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
              text_[at_ + 1] == 'u') {
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

class Walk {
 public:
  Walk(std::string_view text, const PointerTrie& trie, std::vector<std::optional<Location>>& out,
       std::size_t remaining)
      : in_(text), trie_(trie), out_(out), remaining_(remaining), visited_(trie.size(), false) {}

  void run() {
    std::uint32_t node = 0;  // of the value about to start
    std::optional<TextRange> name;
    while (remaining_ != 0) {
      // A value.
      in_.skip_space();
      if (in_.done()) return;
      const TextPlace begin = in_.place();
      const char c = in_.peek();
      if (node != kNoNode) {
        // An object naming a member twice: the first one is the value (as the
        // parsed document's lookup finds it); the second is not followed.
        if (visited_[node])
          node = kNoNode;
        else
          visited_[node] = true;
      }
      if (c == '{' || c == '[') {
        in_.take();
        stack_.push_back(Frame{c == '[', 0, node, begin, name});
        if (!open_next(node, name)) return;
        if (node == kClosed) {
          if (!close_and_continue(node, name)) return;
        }
        continue;
      }
      if (c == '"') {
        if (!in_.take_string(nullptr)) return;
      } else {
        in_.take_scalar();
        if (in_.place().byte == begin.byte) return;  // not a value
      }
      record(node, Location{TextRange{begin, in_.place()}, name});
      if (!after_value(node, name)) return;
    }
  }

 private:
  static constexpr std::uint32_t kClosed = kNoNode - 1;  // the container just closed
  struct Frame {
    bool array;
    std::uint64_t index;  // of the element being read (arrays)
    std::uint32_t node;   // of the container itself
    TextPlace begin;
    std::optional<TextRange> name;
  };

  void record(std::uint32_t node, const Location& where) {
    if (node == kNoNode || node == kClosed) return;
    for (const std::size_t k : trie_.wanted(node)) {
      if (!out_[k]) {
        out_[k] = where;
        --remaining_;
      }
    }
  }

  // After '{' or '[' (or ','): the node and name of the next value, or
  // kClosed when the container ends here. False on broken text.
  bool open_next(std::uint32_t& node, std::optional<TextRange>& name) {
    in_.skip_space();
    if (in_.done()) return false;
    Frame& top = stack_.back();
    const char close = top.array ? ']' : '}';
    if (in_.peek() == close) {
      node = kClosed;
      return true;
    }
    return next_member(node, name);
  }

  // The node and name of the next element or member of the innermost container.
  bool next_member(std::uint32_t& node, std::optional<TextRange>& name) {
    Frame& top = stack_.back();
    const bool follow = trie_.has_children(top.node);
    if (top.array) {
      name.reset();
      node = kNoNode;
      if (follow) {
        char digits[24];
        const auto r = std::to_chars(digits, digits + sizeof digits, top.index);
        node = trie_.child(top.node,
                           std::string_view(digits, static_cast<std::size_t>(r.ptr - digits)));
      }
      return true;
    }
    in_.skip_space();
    if (in_.done() || in_.peek() != '"') return false;
    const TextPlace key_begin = in_.place();
    key_.clear();
    if (!in_.take_string(follow ? &key_ : nullptr)) return false;
    name = TextRange{key_begin, in_.place()};
    node = follow ? trie_.child(top.node, key_) : kNoNode;
    in_.skip_space();
    if (in_.done() || in_.peek() != ':') return false;
    in_.take();
    return true;
  }

  // After a value: ',' and the next one, or the end of containers.
  bool after_value(std::uint32_t& node, std::optional<TextRange>& name) {
    while (true) {
      if (stack_.empty()) {
        remaining_ = 0;  // the document is complete
        return false;
      }
      in_.skip_space();
      if (in_.done()) return false;
      Frame& top = stack_.back();
      const char c = in_.peek();
      if (c == ',') {
        in_.take();
        ++top.index;
        return next_member(node, name);
      }
      if (c != (top.array ? ']' : '}')) return false;
      in_.take();
      record(top.node, Location{TextRange{top.begin, in_.place()}, top.name});
      stack_.pop_back();
    }
  }

  // The container at the top of the stack is empty: close it and go on.
  bool close_and_continue(std::uint32_t& node, std::optional<TextRange>& name) {
    in_.take();
    const Frame top = stack_.back();
    stack_.pop_back();
    record(top.node, Location{TextRange{top.begin, in_.place()}, top.name});
    return after_value(node, name);
  }

  Cursor in_;
  const PointerTrie& trie_;
  std::vector<std::optional<Location>>& out_;
  std::size_t remaining_;
  std::vector<Frame> stack_;
  std::vector<bool> visited_;  // by trie node: its value was read
  std::string key_;
};

}  // namespace

std::vector<std::optional<Location>> locate(std::string_view json,
                                            std::span<const std::string> pointers) {
  std::vector<std::optional<Location>> out(pointers.size());
  PointerTrie trie;
  std::size_t remaining = 0;
  for (std::size_t k = 0; k < pointers.size(); ++k) remaining += trie.add(pointers[k], k) ? 1 : 0;
  if (remaining != 0) Walk(json, trie, out, remaining).run();
  return out;
}

std::optional<Location> locate(std::string_view json, std::string_view pointer) {
  const std::string one[] = {std::string(pointer)};
  return locate(json, one).front();
}

}  // namespace gltf_anim::gltf

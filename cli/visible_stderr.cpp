#include "visible_stderr.hpp"

#include <gltf_anim/text/escape.hpp>

#include <cstdlib>
#include <iostream>

namespace gltf_anim::cli {

void VisibleLinesBuf::flush_line() {
  if (line_.empty()) return;
  const std::string shown = text::visible_text(line_);
  target_->sputn(shown.data(), static_cast<std::streamsize>(shown.size()));
  line_.clear();
  target_->pubsync();
}

VisibleLinesBuf::int_type VisibleLinesBuf::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  const char ch = traits_type::to_char_type(c);
  if (ch == '\n') {
    flush_line();
    target_->sputc('\n');
    target_->pubsync();
  } else {
    line_ += ch;
  }
  return c;
}

std::streamsize VisibleLinesBuf::xsputn(const char* s, std::streamsize n) {
  for (std::streamsize i = 0; i < n; ++i) overflow(traits_type::to_int_type(s[i]));
  return n;
}

namespace {
VisibleLinesBuf* g_visible_stderr = nullptr;
}  // namespace

void make_stderr_visible() {
  if (g_visible_stderr != nullptr) return;
  // Never destroyed: std::cerr may be used until the process ends. At exit a
  // last line without a newline is still written.
  g_visible_stderr = new VisibleLinesBuf(std::cerr.rdbuf());
  std::cerr.rdbuf(g_visible_stderr);
  std::atexit([] { g_visible_stderr->flush_line(); });
}

}  // namespace gltf_anim::cli

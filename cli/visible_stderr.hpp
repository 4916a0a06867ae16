#pragma once
// Standard error, made safe for a terminal at one place: every message of
// every subcommand quotes paths and names that come from the user's files,
// and those may hold terminal escapes or bytes that are not UTF-8.
#include <streambuf>
#include <string>

namespace gltf_anim::cli {

// A streambuf in front of standard error's: it gathers each line and writes
// it through text::visible_text (valid UTF-8, control characters shown as
// escapes), the newline itself kept. A line is written whole when its newline
// arrives (std::cerr flushes after every insertion; sanitizing each insertion
// alone could split a UTF-8 sequence); what is left without a newline, by
// flush_line() (at exit, or when the buffer is destroyed).
class VisibleLinesBuf final : public std::streambuf {
 public:
  explicit VisibleLinesBuf(std::streambuf* target) : target_(target) {}
  ~VisibleLinesBuf() override { flush_line(); }
  VisibleLinesBuf(const VisibleLinesBuf&) = delete;
  VisibleLinesBuf& operator=(const VisibleLinesBuf&) = delete;

  void flush_line();

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;

 private:
  std::streambuf* target_;
  std::string line_;
};

// Puts a VisibleLinesBuf in front of std::cerr for the rest of the process.
void make_stderr_visible();

}  // namespace gltf_anim::cli

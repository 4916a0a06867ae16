// Standard error quotes what the user's files and arguments name: a path with
// terminal escapes or bytes that are not UTF-8 must reach the terminal as
// visible, valid UTF-8 text (cli/visible_stderr.hpp), for every command.
#include "scratch.hpp"
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cli/compare_cli_util.hpp"
#include "strict_text.hpp"

namespace {

namespace fs = std::filesystem;
using compare_cli::run;

// No byte below 0x20 but the newline, no DEL, no C1 control (U+0080-U+009F,
// encoded C2 80 - C2 9F), and valid UTF-8: nothing a terminal would act on.
void expect_terminal_safe(const std::string& err) {
  EXPECT_TRUE(strict_text::utf8(err)) << err;
  for (std::size_t i = 0; i < err.size(); ++i) {
    const auto c = static_cast<unsigned char>(err[i]);
    EXPECT_FALSE((c < 0x20 && c != '\n') || c == 0x7F) << "byte " << int(c) << " at " << i << ": " << err;
    if (c == 0xC2 && i + 1 < err.size()) {
      const auto d = static_cast<unsigned char>(err[i + 1]);
      EXPECT_FALSE(d >= 0x80 && d <= 0x9F) << "C1 control at " << i << ": " << err;
    }
  }
}

TEST(CliStderr, NamesWithTerminalEscapesAndInvalidUtf8AreShownEscaped) {
  const fs::path dir = gltf_anim_test::scratch_root() / "cli_stderr";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // ESC [ 2 J clears the screen; \xff is never UTF-8; \xc2\x9b is the C1 CSI.
  const std::string name = (dir / "a\x1b[2J\xff\xc2\x9b.gltf").string();
  const std::string q = "'" + name + "'";
  for (const std::string& args :
       {" validate " + q, " sample " + q, " compare --golden " + q + " --actual " + q,
        " validate --format json --output " + q + "/r.json " + q}) {
    SCOPED_TRACE(args);
    const auto r = run(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    ASSERT_FALSE(r.err.empty());
    expect_terminal_safe(r.err);
    // The escape is shown, not dropped: the user can still see the name.
    EXPECT_NE(r.err.find("\\x1b[2J"), std::string::npos) << r.err;
  }
}

}  // namespace

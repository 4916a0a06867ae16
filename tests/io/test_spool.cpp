// The spool: in memory within its bound, then an unnamed file beside the
// output, in $TMPDIR or /tmp, in that order; every byte back in order.
#include "scratch.hpp"
#include <gtest/gtest.h>
#include <gltf_anim/io/output_file.hpp>
#include <gltf_anim/io/spool.hpp>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;
namespace io = gltf_anim::io;

// Sets TMPDIR for one test and puts back what was there.
class TmpdirIs {
 public:
  explicit TmpdirIs(const std::string& value) {
    if (const char* old = std::getenv("TMPDIR")) old_ = old;
    ::setenv("TMPDIR", value.c_str(), 1);
  }
  ~TmpdirIs() {
    if (old_) {
      ::setenv("TMPDIR", old_->c_str(), 1);
    } else {
      ::unsetenv("TMPDIR");
    }
  }

 private:
  std::optional<std::string> old_;
};

fs::path fresh(const std::string& name) {
  const fs::path dir = gltf_anim_test::scratch_root() / "spool" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// 10,000 numbered lines through a spool whose memory holds 1,000 bytes.
std::string fill(io::Spool& spool) {
  std::string expected;
  for (int i = 0; i < 10000; ++i) {
    const std::string line = "<testcase n=\"" + std::to_string(i) + "\"/>\n";
    expected += line;
    if (i % 2 == 0) {
      spool.write(line);
    } else {
      for (char c : line) spool.put(c);
    }
  }
  return expected;
}

std::string drained(io::Spool& spool) {
  std::ostringstream out;
  spool.copy_to(out);
  return out.str();
}

TEST(Spool, SmallReportsStayInMemory) {
  TmpdirIs tmpdir("/nonexistent-tmpdir");
  io::Spool spool(fresh("memory"));
  spool.write("abc");
  spool.put('d');
  EXPECT_EQ(drained(spool), "abcd");
  EXPECT_TRUE(spool.folder().empty());
}

TEST(Spool, GoesBesideTheOutputWhenTmpdirIsUnusable) {
  // TMPDIR names no folder (like a full or missing /tmp): the spool never needs it.
  TmpdirIs tmpdir("/nonexistent-tmpdir");
  const fs::path out = fresh("beside");
  io::Spool spool(out, 1000);
  const std::string expected = fill(spool);
  EXPECT_EQ(spool.folder(), out);
  EXPECT_EQ(drained(spool), expected);
  // Unnamed: nothing is left in the output's folder.
  EXPECT_TRUE(fs::is_empty(out));
}

TEST(Spool, WithoutAnOutputFolderTmpdirIsRespected) {
  const fs::path dir = fresh("tmpdir");
  TmpdirIs tmpdir(dir.string());
  io::Spool spool({}, 1000);
  const std::string expected = fill(spool);
  EXPECT_EQ(spool.folder(), dir);
  EXPECT_EQ(drained(spool), expected);
}

TEST(Spool, AnOutputFolderThatTakesNoFileFallsBackToTmpdir) {
  const fs::path dir = fresh("fallback");
  TmpdirIs tmpdir(dir.string());
  io::Spool spool(dir / "missing", 1000);
  const std::string expected = fill(spool);
  EXPECT_EQ(spool.folder(), dir);
  EXPECT_EQ(drained(spool), expected);
}

}  // namespace

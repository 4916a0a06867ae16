// io/file_queries.hpp: what a name is and a folder's listing, the file-system questions
// the libraries ask through io/. Expected values follow from the files each test makes.
#include <gtest/gtest.h>
#include <gltf_anim/io/file_queries.hpp>

#include "scratch.hpp"

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace fs = std::filesystem;
namespace io = gltf_anim::io;

fs::path fresh(const std::string& name) {
  const fs::path dir = gltf_anim_test::scratch_root() / ("file_queries_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// (path relative to `root`, type) of each entry, sorted by path.
std::vector<std::pair<std::string, io::FileType>> named(const io::TreeListing& l,
                                                       const fs::path& root) {
  std::vector<std::pair<std::string, io::FileType>> out;
  for (const auto& e : l.entries) out.emplace_back(e.path.lexically_relative(root).generic_string(), e.type);
  std::sort(out.begin(), out.end());
  return out;
}

TEST(FileQueries, TypesOfAFileAFolderALinkAndAnAbsentName) {
  const fs::path dir = fresh("types");
  std::ofstream(dir / "a.json") << "{}";
  fs::create_symlink("a.json", dir / "link");
  fs::create_symlink("absent", dir / "dangling");
  std::error_code ec;
  EXPECT_EQ(io::file_type_of(dir / "a.json", ec), io::FileType::kRegular);
  EXPECT_EQ(io::file_type_of(dir, ec), io::FileType::kFolder);
  EXPECT_EQ(io::file_type_of(dir / "link", ec), io::FileType::kRegular);
  EXPECT_EQ(io::link_type_of(dir / "link", ec), io::FileType::kSymlink);
  EXPECT_EQ(io::file_type_of(dir / "missing", ec), io::FileType::kNotFound);
  EXPECT_EQ(ec.value(), ENOENT);
  EXPECT_TRUE(io::is_folder(dir));
  EXPECT_FALSE(io::is_folder(dir / "a.json"));
  EXPECT_FALSE(io::is_folder(dir / "missing"));
  // A dangling link is a name that exists: a new file there would replace the link.
  EXPECT_TRUE(io::name_exists(dir / "dangling"));
  EXPECT_FALSE(io::name_exists(dir / "missing"));
  EXPECT_TRUE(io::remove_file(dir / "dangling"));
  EXPECT_FALSE(io::name_exists(dir / "dangling"));
  EXPECT_FALSE(io::remove_file(dir / "dangling"));
}

TEST(FileQueries, ListTreeGivesEveryNameBeneathWithItsOwnTypeOrItsTargets) {
  const fs::path dir = fresh("tree");
  fs::create_directories(dir / "sub" / "deeper");
  std::ofstream(dir / "a.json") << "{}";
  std::ofstream(dir / "sub" / "deeper" / "b.csv") << "t";
  fs::create_symlink("../a.json", dir / "sub" / "to_a");
  fs::create_directory_symlink("sub", dir / "to_sub");  // listed, not entered

  const io::TreeListing own = io::list_tree(dir, /*follow_links=*/false, /*skip_unreadable=*/false);
  EXPECT_FALSE(own.error);
  const std::vector<std::pair<std::string, io::FileType>> want_own{
      {"a.json", io::FileType::kRegular},       {"sub", io::FileType::kFolder},
      {"sub/deeper", io::FileType::kFolder},    {"sub/deeper/b.csv", io::FileType::kRegular},
      {"sub/to_a", io::FileType::kSymlink},     {"to_sub", io::FileType::kSymlink}};
  EXPECT_EQ(named(own, dir), want_own);

  const io::TreeListing followed = io::list_tree(dir, /*follow_links=*/true, /*skip_unreadable=*/true);
  EXPECT_FALSE(followed.error);
  const std::vector<std::pair<std::string, io::FileType>> want_followed{
      {"a.json", io::FileType::kRegular},       {"sub", io::FileType::kFolder},
      {"sub/deeper", io::FileType::kFolder},    {"sub/deeper/b.csv", io::FileType::kRegular},
      {"sub/to_a", io::FileType::kRegular},     {"to_sub", io::FileType::kFolder}};
  EXPECT_EQ(named(followed, dir), want_followed);
}

TEST(FileQueries, ListTreeStopsWithTheErrorItMet) {
  const fs::path dir = fresh("errors");
  const io::TreeListing absent = io::list_tree(dir / "missing", false, false);
  EXPECT_EQ(absent.error.value(), ENOENT);
  EXPECT_TRUE(absent.entries.empty());
  // Following links, a dangling one has no type to give: the listing stops there.
  fs::create_symlink("absent", dir / "dangling");
  EXPECT_EQ(io::list_tree(dir, /*follow_links=*/true, false).error.value(), ENOENT);
  const io::TreeListing own = io::list_tree(dir, /*follow_links=*/false, false);
  EXPECT_FALSE(own.error);
  ASSERT_EQ(own.entries.size(), 1u);
  EXPECT_EQ(own.entries[0].type, io::FileType::kSymlink);
}

TEST(FileQueries, PathsResolvedOnDisk) {
  const fs::path dir = fresh("paths");
  fs::create_directories(dir / "real");
  fs::create_directory_symlink("real", dir / "alias");
  std::error_code ec;
  const fs::path real = fs::path(io::canonical_path(dir, ec)) / "real";
  EXPECT_EQ(io::canonical_path(dir / "alias", ec), real);
  EXPECT_EQ(io::weakly_canonical_path(dir / "alias" / "not_yet" / ".." / "x", ec), real / "x");
  EXPECT_EQ(io::relative_path(dir / "alias" / "f", dir, ec), fs::path("real/f"));
  EXPECT_TRUE(io::absolute_path("x", ec).is_absolute());
  EXPECT_EQ(io::absolute_path("x", ec).filename(), "x");
}

}  // namespace

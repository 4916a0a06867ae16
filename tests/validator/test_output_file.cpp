// Outputs written through a temporary renamed into place, write errors with
// their reason, the output target watched among the inputs, files read (never
// mapped) while their size changes, and names the system cannot resolve.
#include <gtest/gtest.h>
#include <gltf_anim/io/input_files.hpp>
#include <gltf_anim/io/output_file.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <vector>

#include <gltf_anim/io/resource_reader.hpp>
#include "validator/load_test_util.hpp"

namespace {

using namespace gltf_anim::gltf;
using namespace gltf_anim::io;
namespace io = gltf_anim::io;
using namespace load_test;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Every name in `dir`, sorted: a temporary left behind shows up here.
std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(OutputFile, CommitReplacesTheTargetAndLeavesNoTemporary) {
  const fs::path dir = scratch("output_commit");
  write_file(dir / "out.txt", std::string_view("old contents"));
  {
    OutputFile out(dir / "out.txt");
    out.stream() << "new";
    // Until commit the target is what it was.
    EXPECT_EQ(slurp(dir / "out.txt"), "old contents");
    out.commit();
  }
  EXPECT_EQ(slurp(dir / "out.txt"), "new");
  EXPECT_EQ(names_in(dir), std::vector<std::string>{"out.txt"});
}

TEST(OutputFile, WithoutCommitTheTargetIsUntouchedAndTheTemporaryRemoved) {
  const fs::path dir = scratch("output_abandon");
  write_file(dir / "out.txt", std::string_view("keep me"));
  {
    OutputFile out(dir / "out.txt");
    out.stream() << std::string(3 << 20, 'x');  // past the buffer: bytes reached the temporary
    EXPECT_EQ(names_in(dir).size(), 2u);
  }
  EXPECT_EQ(slurp(dir / "out.txt"), "keep me");
  EXPECT_EQ(names_in(dir), std::vector<std::string>{"out.txt"});
  // An absent target stays absent.
  { OutputFile out(dir / "new.txt"); out.stream() << "x"; }
  EXPECT_FALSE(fs::exists(dir / "new.txt"));
}

TEST(OutputFile, ASymlinkAtTheTargetIsReplacedNotWrittenThrough) {
  const fs::path dir = scratch("output_symlink");
  write_file(dir / "victim.txt", std::string_view("victim"));
  fs::create_symlink("victim.txt", dir / "out.txt");
  write_output_file(dir / "out.txt", "report");
  EXPECT_EQ(slurp(dir / "victim.txt"), "victim");
  EXPECT_FALSE(fs::is_symlink(fs::symlink_status(dir / "out.txt")));
  EXPECT_EQ(slurp(dir / "out.txt"), "report");
}

TEST(OutputFile, AMissingFolderOrAFolderTargetIsAnErrorWithItsReason) {
  const fs::path dir = scratch("output_missing");
  try {
    OutputFile out(dir / "no_such_folder" / "out.txt");
    FAIL() << "no error";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos) << e.what();
  }
  EXPECT_THROW(OutputFile out(dir), OutputError);
}

TEST(OutputFile, ADeviceTargetIsWrittenInPlaceNotReplaced) {
  // /dev/full: the write fails with ENOSPC and the device node stays a device.
  try {
    OutputFile out("/dev/full");
    out.stream() << "x";
    out.commit();
    FAIL() << "no error";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("No space left on device"), std::string::npos) << e.what();
  }
  struct stat st {};
  ASSERT_EQ(::stat("/dev/full", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(FdOstream, KeepsTheErrnoOfTheFirstFailedWrite) {
  const int fd = ::open("/dev/full", O_WRONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  {
    FdOstream out(fd, 16);
    out << std::string(100, 'x');
    EXPECT_FALSE(out.good());
    EXPECT_EQ(out.finish(), ENOSPC);
  }
  ::close(fd);
}

// In a child with RLIMIT_FSIZE (and SIGXFSZ ignored, as the CLI does): the
// write fails with EFBIG, commit says so, the target keeps its old bytes and no
// temporary is left. Exit code 0 when all of that held.
TEST(OutputFile, FileSizeLimitFailsWithEfbigAndLeavesNothingPartial) {
  const fs::path dir = scratch("output_fsize");
  write_file(dir / "out.txt", std::string_view("previous"));
  const pid_t pid = fork();
  if (pid == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{4096, 4096};
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0) _exit(3);
    try {
      OutputFile out(dir / "out.txt");
      out.stream() << std::string(1 << 16, 'y');
      out.commit();
      _exit(4);  // no error reported
    } catch (const OutputError& e) {
      _exit(std::string(e.what()).find("File too large") != std::string::npos ? 0 : 5);
    }
  }
  ASSERT_GT(pid, 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(slurp(dir / "out.txt"), "previous");
  EXPECT_EQ(names_in(dir), std::vector<std::string>{"out.txt"});
}

TEST(InputFiles, AHardLinkOrASymlinkToTheWatchedFileIsAClash) {
  const fs::path dir = scratch("input_files");
  write_file(dir / "asset.gltf", std::string_view("{}"));
  write_file(dir / "other.gltf", std::string_view("{}"));
  fs::create_hard_link(dir / "asset.gltf", dir / "hard.gltf");
  fs::create_symlink("asset.gltf", dir / "soft.gltf");
  for (const char* watched : {"asset.gltf", "hard.gltf", "soft.gltf"}) {
    InputFiles inputs(file_identity(dir / watched));
    inputs.record(dir / "other.gltf");
    EXPECT_FALSE(inputs.clash()) << watched;
    inputs.record(dir / "asset.gltf");
    ASSERT_TRUE(inputs.clash()) << watched;
    EXPECT_EQ(*inputs.clash(), (dir / "asset.gltf").string());
  }
  // Nothing watched (the output does not exist yet): never a clash.
  InputFiles none(file_identity(dir / "absent.json"));
  none.record(dir / "asset.gltf");
  EXPECT_FALSE(none.clash());
}

TEST(LoadFiles, TheLoaderRecordsTheAssetAndItsExternalBuffers) {
  const fs::path dir = scratch("load_records");
  write_file(dir / "data.bin", Bytes(4, 0));
  write_file(dir / "asset.gltf",
             std::string_view(R"({"asset":{"version":"2.0"},"buffers":[{"uri":"data.bin","byteLength":4}]})"));
  for (const char* watched : {"asset.gltf", "data.bin"}) {
    InputFiles inputs(file_identity(dir / watched));
    LoadOptions options;
    options.inputs = &inputs;
    IssueCollector issues;
    load_file(dir / "asset.gltf", options, issues);
    ASSERT_TRUE(inputs.clash()) << watched;
    EXPECT_EQ(fs::path(*inputs.clash()).filename(), watched);
  }
}

// A file that changes size between fstat and the read (the point where a
// mapping would have been made): shrunk, the bytes that remain are read and
// nothing faults; grown, only the size fstat gave is read.
struct SizeChange {
  ~SizeChange() { io::g_after_fstat_for_test = nullptr; }
};

TEST(LoadFiles, AFileThatShrinksOrGrowsWhileReadIsReadSafely) {
  const fs::path dir = scratch("load_size_change");
  const std::size_t size = std::size_t{2} << 20;  // above the old 1 MiB mapping threshold
  Bytes content(size);
  for (std::size_t i = 0; i < size; ++i) content[i] = static_cast<std::uint8_t>(i * 7);
  write_file(dir / "big.bin", content);
  SizeChange reset;

  const fs::path path = dir / "big.bin";
  io::g_after_fstat_for_test = [path](int) { ASSERT_EQ(::truncate(path.c_str(), 1000), 0); };
  io::ReadResult shrunk = io::read_regular_file(dir / "big.bin", size, false);
  ASSERT_EQ(shrunk.failure, io::ReadResult::Failure::kNone);
  ASSERT_EQ(shrunk.storage->bytes().size(), 1000u);
  EXPECT_TRUE(std::equal(content.begin(), content.begin() + 1000, shrunk.storage->bytes().begin()));

  write_file(dir / "big.bin", content);
  io::g_after_fstat_for_test = [path](int) {
    std::ofstream(path, std::ios::binary | std::ios::app) << std::string(4096, 'z');
  };
  io::ReadResult grown = io::read_regular_file(dir / "big.bin", 2 * size, false);
  ASSERT_EQ(grown.failure, io::ReadResult::Failure::kNone);
  ASSERT_EQ(grown.storage->bytes().size(), size);
  EXPECT_TRUE(std::equal(content.begin(), content.end(), grown.storage->bytes().begin()));
}

TEST(LoadFiles, AGlbThatShrinksWhileLoadedIsReportedNotACrash) {
  // The whole loader on a 2 MiB GLB cut to its first 20 bytes after fstat:
  // an issue about the container, not SIGBUS.
  const fs::path dir = scratch("load_glb_shrink");
  const Bytes bin(std::size_t{2} << 20, 1);
  write_file(dir / "big.glb",
             valid_glb(R"({"asset":{"version":"2.0"},"buffers":[{"byteLength":2097152}]})", bin));
  SizeChange reset;
  const fs::path path = dir / "big.glb";
  io::g_after_fstat_for_test = [path](int) { ASSERT_EQ(::truncate(path.c_str(), 20), 0); };
  IssueCollector issues;
  LoadedAsset a = load_file(dir / "big.glb", {}, issues);
  EXPECT_FALSE(issues.issues().empty());
  EXPECT_FALSE(a.document);
}

// Names longer than the system accepts: IO_ERROR with the reason, whether one
// component is too long (NAME_MAX) or the whole path (PATH_MAX).
TEST(LoadFiles, ANameTooLongIsAnIoErrorWithItsReason) {
  const fs::path dir = scratch("load_long_name");
  std::string long_path;
  for (int i = 0; i < 25; ++i) long_path += std::string(200, 'c') + "/";
  for (const std::string& uri : {std::string(5000, 'b') + ".bin", long_path + "x.bin"}) {
    write_file(dir / "asset.gltf", std::string_view(R"({"asset":{"version":"2.0"},"buffers":[{"uri":")" + uri +
                                                    R"(","byteLength":4}]})"));
    IssueCollector issues;
    load_file(dir / "asset.gltf", {}, issues);
    ASSERT_EQ(codes(issues), std::vector<std::string>{"IO_ERROR"}) << uri.size();
    EXPECT_EQ(issues.issues()[0].pointer, "/buffers/0/uri");
    EXPECT_NE(issues.issues()[0].message.find("File name too long"), std::string::npos)
        << issues.issues()[0].message;
  }
  // The asset's own name too long: IO_ERROR at "" with the reason.
  IssueCollector issues;
  load_file(dir / (std::string(5000, 'a') + ".gltf"), {}, issues);
  ASSERT_EQ(codes(issues), std::vector<std::string>{"IO_ERROR"});
  EXPECT_NE(issues.issues()[0].message.find("File name too long"), std::string::npos);
}

// Folder mode lists a folder, then opens each file: a file swapped for a link
// out of the folder between the two must not be read. With asset_folder the
// asset is opened beneath that folder (openat2 RESOLVE_BENEATH), so a link out
// of it present at open time is refused, while a file of the folder, or one in
// a subfolder, loads as before.
TEST(LoadFiles, AnAssetOpenedBeneathItsFolderIsNeverReadThroughALinkOutOfIt) {
  const fs::path dir = scratch("load_beneath");
  fs::create_directories(dir / "in" / "sub");
  fs::create_directories(dir / "out");
  const std::string asset = R"({"asset":{"version":"2.0"}})";
  write_file(dir / "out" / "x.gltf", std::string_view(asset));
  write_file(dir / "in" / "sub" / "ok.gltf", std::string_view(asset));
  fs::create_symlink(dir / "out" / "x.gltf", dir / "in" / "swapped.gltf");

  LoadOptions beneath;
  beneath.asset_folder = dir / "in";
  IssueCollector refused;
  load_file(dir / "in" / "swapped.gltf", beneath, refused);
  EXPECT_EQ(codes(refused), std::vector<std::string>{"IO_ERROR"});

  IssueCollector fine;
  const LoadedAsset a = load_file(dir / "in" / "sub" / "ok.gltf", beneath, fine);
  EXPECT_TRUE(codes(fine).empty());
  EXPECT_TRUE(a.document != nullptr);

  // The same link named directly by the user is the user's choice: followed.
  IssueCollector direct;
  load_file(dir / "in" / "swapped.gltf", LoadOptions{}, direct);
  EXPECT_TRUE(codes(direct).empty());
}

}  // namespace

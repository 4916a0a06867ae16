// gltf-anim validate, run as a process: exit codes, --fail-on, --ignore,
// --severity-override, --max-issues, --output, stdin, folder mode and
// --threads (byte-identical output). Assets are the hand-made ones of
// conformance_assets/invalid/ and rules_valid/, whose contents are known.
#include "scratch.hpp"
#include <gtest/gtest.h>
#include <gltf_anim/gltf/json.hpp>
#include <rapidjson/document.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace {

namespace fs = std::filesystem;

const fs::path kAssets = fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets";
const fs::path kTmp = gltf_anim_test::scratch_root() / "validate";

std::string q(const fs::path& p) {
  std::string s = "'";
  s += p.string();
  s += '\'';
  return s;
}

struct CliRun {
  int exit_code = -1;
  std::string out;
};

// Runs `gltf-anim validate <args>`, stdout to a file, stderr discarded.
// The output file is named after the test (CTest runs tests in parallel, each
// in its own process) plus a per-process counter, so no two runs share a file.
CliRun validate(const std::string& args, const std::string& name = "") {
  fs::create_directories(kTmp);
  static int calls = 0;
  std::string file = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  file += '_';
  file += name.empty() ? std::to_string(calls++) : name;
  const fs::path out = kTmp / (file + ".txt");
  const std::string cmd = std::string("'") + GLTF_ANIM_CLI + "' validate " + args + " > " + q(out) +
                          " 2>/dev/null";
  const int status = std::system(cmd.c_str());
  CliRun r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(out, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  r.out = s.str();
  return r;
}

gltf_anim::json::Document parse(const std::string& text) {
  gltf_anim::json::Document d;
  d.Parse(text.c_str());
  EXPECT_FALSE(d.HasParseError()) << text;
  return d;
}

const std::string kValid = q(kAssets / "rules_valid/translation_linear.gltf");
const std::string kDuplicates = q(kAssets / "invalid/channel/duplicate_targets.gltf");  // 2 errors
const std::string kUnused = q(kAssets / "invalid/sampler/unused.gltf");                 // 1 info
const std::string kUnknownPath = q(kAssets / "invalid/channel/target_path_unknown.gltf");  // 1 warning

TEST(CliValidate, ExitCodes) {
  EXPECT_EQ(validate(kValid).exit_code, 0);
  EXPECT_EQ(validate(kDuplicates).exit_code, 1);
  EXPECT_EQ(validate(q(kTmp / "does_not_exist.gltf")).exit_code, 2);
  EXPECT_EQ(validate("--format xml " + kValid).exit_code, 2);
  EXPECT_EQ(validate("").exit_code, 2);
  EXPECT_EQ(validate("--ignore NO_SUCH_CODE " + kValid).exit_code, 2);
  EXPECT_EQ(validate("--severity-override UNUSED_OBJECT=7 " + kValid).exit_code, 2);
  EXPECT_EQ(validate("--fail-on hint " + kValid).exit_code, 2);
  EXPECT_EQ(validate("--threads 0 " + kValid).exit_code, 2);
  EXPECT_EQ(validate("--threads 257 " + kValid).exit_code, 2);  // at most 256 (kMaxThreads)
  EXPECT_EQ(validate("--output /nonexistent-dir/x.json " + kValid).exit_code, 2);
}

TEST(CliValidate, FailOn) {
  EXPECT_EQ(validate(kUnused).exit_code, 0);
  EXPECT_EQ(validate("--fail-on warning " + kUnused).exit_code, 0);
  EXPECT_EQ(validate("--fail-on info " + kUnused).exit_code, 1);
  EXPECT_EQ(validate(kUnknownPath).exit_code, 0);
  EXPECT_EQ(validate("--fail-on warning " + kUnknownPath).exit_code, 1);
}

TEST(CliValidate, IgnoreRemovesTheCode) {
  const CliRun r = validate("--format json --ignore ANIMATION_DUPLICATE_TARGETS " + kDuplicates);
  EXPECT_EQ(r.exit_code, 0);
  const auto d = parse(r.out);
  EXPECT_EQ(d["reports"][0]["issues"]["messages"].Size(), 0u);
  EXPECT_EQ(d["reports"][0]["issues"]["numErrors"].GetInt(), 0);
}

TEST(CliValidate, SeverityOverride) {
  const CliRun r = validate("--format json --severity-override ANIMATION_DUPLICATE_TARGETS=1 " + kDuplicates);
  EXPECT_EQ(r.exit_code, 0);
  const auto d = parse(r.out);
  EXPECT_EQ(d["reports"][0]["issues"]["numErrors"].GetInt(), 0);
  EXPECT_EQ(d["reports"][0]["issues"]["numWarnings"].GetInt(), 2);
  EXPECT_EQ(d["reports"][0]["issues"]["messages"][0]["severity"].GetInt(), 1);
}

TEST(CliValidate, MaxIssuesTruncates) {
  const CliRun r = validate("--format json --max-issues 1 " + kDuplicates);
  EXPECT_EQ(r.exit_code, 1);
  const auto d = parse(r.out);
  EXPECT_EQ(d["reports"][0]["issues"]["messages"].Size(), 1u);
  EXPECT_TRUE(d["reports"][0]["issues"]["truncated"].GetBool());
}

TEST(CliValidate, OutputFileAndStdin) {
  const fs::path out = kTmp / "report.json";
  fs::create_directories(kTmp);
  fs::remove(out);
  EXPECT_EQ(validate("--format json --output " + q(out) + " " + kDuplicates).exit_code, 1);
  std::ifstream in(out);
  std::ostringstream s;
  s << in.rdbuf();
  EXPECT_EQ(parse(s.str())["reports"][0]["issues"]["numErrors"].GetInt(), 2);

  const CliRun r = validate("--format json - < " + kDuplicates, "stdin");
  EXPECT_EQ(r.exit_code, 1);
  const auto d = parse(r.out);
  EXPECT_STREQ(d["reports"][0]["uri"].GetString(), "-");
  EXPECT_EQ(d["reports"][0]["issues"]["numErrors"].GetInt(), 2);
}

TEST(CliValidate, FolderModeIsSortedAndThreadIndependent) {
  const std::string folder = q(kAssets / "invalid");
  // --no-timings: without the validation times the report is byte-reproducible.
  const CliRun one = validate("--format json --no-timings --threads 1 " + folder, "threads1");
  const CliRun two = validate("--format json --no-timings --threads 2 " + folder, "threads2");
  const CliRun four = validate("--format json --no-timings --threads 4 " + folder, "threads4");
  EXPECT_EQ(one.exit_code, 1);
  EXPECT_EQ(one.out, two.out);
  EXPECT_EQ(one.out, four.out);
  std::size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(kAssets / "invalid")) {
    files += e.path().extension() == ".gltf" ? 1 : 0;
  }
  const auto doc = parse(one.out);
  const auto& d = doc["reports"];
  ASSERT_TRUE(d.IsArray());
  EXPECT_EQ(d.Size(), files);
  EXPECT_EQ(doc["summary"]["assets"].GetUint64(), files);
  for (rapidjson::SizeType i = 1; i < d.Size(); ++i) {
    EXPECT_LT(std::string(d[i - 1]["uri"].GetString()), std::string(d[i]["uri"].GetString()));
  }
  // The text and sarif formats are thread-independent too.
  EXPECT_EQ(validate("--format sarif --threads 1 " + folder, "s1").out,
            validate("--format sarif --threads 3 " + folder, "s3").out);
}

TEST(CliValidate, HelpHasAnExample) {
  const CliRun r = validate("--help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("Example:"), std::string::npos);
  EXPECT_NE(r.out.find("--severity-override"), std::string::npos);
}

}  // namespace

// Every numeric option of every subcommand is range-checked: a negative value
// (which Boost would wrap to 2^64 - 1 for an unsigned option), zero where it
// means nothing, a value above the range and one beyond 64 bits are each a
// usage error (exit 2) naming the option, never a wrapped value obeyed.
// The list below is every po::value of cli/cmd_*.cpp that holds a number (the repair
// commands reduce and fit included).
#include "scratch.hpp"
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/cli_process.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path kAsset = fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets/valid/rotation_linear.gltf";
const fs::path kGolden = fs::path(GLTF_ANIM_SOURCE_DIR) / "conformance_assets/valid/rotation_linear.samples.json";
const fs::path kTmp = gltf_anim_test::scratch_root() / "options";

struct NumericOption {
  std::vector<std::string> command;  // subcommand and the arguments it needs
  std::string option;
  std::vector<std::string> refused;
  std::string accepted;  // a value at the edge of the range, accepted
};

const std::vector<NumericOption>& numeric_options() {
  const std::string huge = "99999999999999999999999";  // beyond 64 bits
  const std::string wrap = "18446744073709551615";     // what "-1" wraps to
  static const std::vector<NumericOption> all = {
      {{"validate", kAsset.string()}, "--threads", {"-1", "0", "257", wrap, huge}, "256"},
      {{"validate", kAsset.string()}, "--max-issues", {"-1", "4294967296", wrap, huge, "1.5"}, "0"},
      {{"validate", kAsset.string()}, "--max-file-mb", {"-1", "0", "1048577", wrap, huge}, "1"},
      {{"sample", kAsset.string()}, "--threads", {"-1", "0", "257", wrap, huge}, "256"},
      {{"sample", kAsset.string()}, "--animation", {"-1", "4294967296", wrap, huge}, "0"},
      {{"sample", kAsset.string()}, "--max-values", {"-1", "4611686018427387905", wrap, huge}, "0"},
      {{"sample", kAsset.string()}, "--rate", {"-1", "0", "nan", "inf", "1e10", "1e999", "x"}, "1e-300"},
      {{"sample", kAsset.string()}, "--max-times", {"-1", "0", "1048577", wrap, huge, "1.5"}, "1"},
      {{"compare", "--golden", kGolden.string(), "--actual", kGolden.string()},
       "--tolerance", {"-1", "nan", "inf", "1e999", "-0.5"}, "0"},
      {{"compare", "--golden", kGolden.string(), "--actual", kGolden.string()},
       "--angle-tolerance", {"-1", "nan", "inf", "1e999"}, "0"},
      {{"compare", "--golden", kGolden.string(), "--actual", kGolden.string()},
       "--time-epsilon", {"-1", "2", "nan", "inf"}, "1"},
      {{"compare", "--golden", kGolden.string(), "--actual", kGolden.string()},
       "--max-file-mb", {"-1", "0", "1048577", wrap, huge}, "1"},
      {{"squad-report"}, "--samples", {"-1", "0", "1000001", wrap, huge}, "1"},
      {{"reduce", kAsset.string(), "--dry-run"},
       "--max-error", {"-1", "-0.5", "nan", "inf", "1e999", "x"}, "0"},
      {{"reduce", kAsset.string(), "--dry-run", "--max-error", "1e-3"},
       "--max-angle", {"-1", "nan", "inf", "1e999"}, "0"},
      {{"fit", kAsset.string(), "--dry-run", "--to", "cubicspline"},
       "--max-error", {"-1", "-0.5", "nan", "inf", "1e999", "x"}, "0"},
      {{"fit", kAsset.string(), "--dry-run", "--to", "cubicspline", "--max-error", "1e-3"},
       "--max-angle", {"-1", "nan", "inf", "1e999"}, "0"},
  };
  return all;
}

TEST(NumericOptions, OutOfRangeValuesAreUsageErrorsNamingTheOption) {
  for (const NumericOption& o : numeric_options()) {
    for (const std::string& value : o.refused) {
      SCOPED_TRACE(o.command[0] + " " + o.option + " " + value);
      std::vector<std::string> args = o.command;
      // "--opt=-1": the value cannot be taken for an option name.
      args.push_back(o.option + "=" + value);
      const cli_process::Run r = cli_process::run(args, kTmp);
      ASSERT_TRUE(r.exited) << "signal " << r.signal;
      EXPECT_EQ(r.exit_code, 2);
      EXPECT_NE(r.err.find(o.option + " must be"), std::string::npos) << r.err;
      EXPECT_NE(r.err.find("'" + value + "'"), std::string::npos) << r.err;
      EXPECT_TRUE(r.out.empty());
    }
  }
}

TEST(NumericOptions, TheEdgesOfEachRangeAreAccepted) {
  for (const NumericOption& o : numeric_options()) {
    SCOPED_TRACE(o.command[0] + " " + o.option + " " + o.accepted);
    std::vector<std::string> args = o.command;
    args.push_back(o.option + "=" + o.accepted);
    const cli_process::Run r = cli_process::run(args, kTmp);
    ASSERT_TRUE(r.exited) << "signal " << r.signal;
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(r.out.empty());
  }
}

}  // namespace

namespace {

// The repair commands parse their command line as the others do: --help is exit 0 with the
// usage, an unknown option and an option without its value are usage errors naming it, and
// a value that begins with "-" is taken when joined as --opt=VALUE.
TEST(RepairOptions, HelpUnknownMissingAndDashValues) {
  const std::vector<std::vector<std::string>> commands = {
      {"fix"},
      {"reduce", "--max-error", "1e-3"},
      {"fit", "--to", "cubicspline", "--max-error", "1e-3"},
      {"migrate", "--to", "khr_animation_pointer"},
  };
  for (const auto& c : commands) {
    SCOPED_TRACE(c[0]);
    const cli_process::Run help = cli_process::run({c[0], "--help"}, kTmp);
    ASSERT_TRUE(help.exited);
    EXPECT_EQ(help.exit_code, 0) << help.err;
    EXPECT_NE(help.out.find("gltf-anim " + c[0] + " IN -o OUT"), std::string::npos) << help.out;

    std::vector<std::string> unknown = c;
    unknown.insert(unknown.end(), {kAsset.string(), "--dry-run", "--no-such-option"});
    const cli_process::Run u = cli_process::run(unknown, kTmp);
    ASSERT_TRUE(u.exited);
    EXPECT_EQ(u.exit_code, 2);
    EXPECT_NE(u.err.find("no-such-option"), std::string::npos) << u.err;
    EXPECT_TRUE(u.out.empty());

    std::vector<std::string> missing = c;
    missing.insert(missing.end(), {kAsset.string(), "--format"});
    const cli_process::Run m = cli_process::run(missing, kTmp);
    ASSERT_TRUE(m.exited);
    EXPECT_EQ(m.exit_code, 2);
    EXPECT_NE(m.err.find("format"), std::string::npos) << m.err;
    EXPECT_TRUE(m.out.empty());

    // --output=-out.gltf is a file name, not an option (a dry run: nothing is written).
    std::vector<std::string> dash = c;
    dash.insert(dash.end(), {kAsset.string(), "--dry-run", "--output=-out.gltf"});
    const cli_process::Run d = cli_process::run(dash, kTmp);
    ASSERT_TRUE(d.exited);
    EXPECT_EQ(d.exit_code, 0) << d.err;
    EXPECT_NE(d.out.find("-> -out.gltf"), std::string::npos) << d.out;
  }
}

}  // namespace

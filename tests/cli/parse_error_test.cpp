#include "cli/parse_error.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace openloop::cli {
namespace {

// A command line like openloop's, small: `run` and `simulate` share --rate, `--start-at` is run's alone, and
// `probe metastable` is a nested subcommand.
class ParseErrorTest : public ::testing::Test {
 protected:
  ParseErrorTest() {
    app.require_subcommand(1);
    CLI::App* run = app.add_subcommand("run", "");
    run->add_option("target", target);
    run->add_option("--rate", text);
    run->add_option("-d,--duration", text);
    run->add_option("--start-at", text);
    CLI::App* simulate = app.add_subcommand("simulate", "");
    simulate->add_option("target", target);
    simulate->add_option("--rate", text);
    CLI::App* probe = app.add_subcommand("probe", "");
    probe->require_subcommand(1);
    CLI::App* metastable = probe->add_subcommand("metastable", "");
    metastable->add_option("--base", text);
    metastable->add_option("--start-at", text);
  }

  /// The message for `args`, or "parsed" when CLI11 accepted them.
  std::string message(std::vector<const char*> args) {
    args.insert(args.begin(), "openloop");
    try {
      app.parse(static_cast<int>(args.size()), args.data());
    } catch (const CLI::ParseError& e) {
      return parse_error_message(app, e, static_cast<int>(args.size()), args.data());
    }
    return "parsed";
  }

  CLI::App app{"test", "openloop"};
  std::string target, text;
};

TEST_F(ParseErrorTest, AnUnknownOptionNamesTheNearestRegisteredOne) {
  EXPECT_EQ(message({"run", "http://x/", "--rat", "100/s"}),
            "openloop run: unknown option --rat; did you mean --rate?");
  EXPECT_EQ(message({"run", "http://x/", "--rtae=100/s"}),
            "openloop run: unknown option --rtae; did you mean --rate?");
  EXPECT_EQ(message({"run", "http://x/", "--dur", "5s"}),
            "openloop run: unknown option --dur; did you mean --duration?");
}

TEST_F(ParseErrorTest, AnOptionOfAnotherSubcommandIsNamedAsSuch) {
  EXPECT_EQ(message({"simulate", "http://x/", "--start-at", "2099-01-01T00:00:00Z"}),
            "openloop simulate: --start-at is an option of run and probe metastable, not of simulate");
  EXPECT_EQ(message({"probe", "metastable", "--duration", "5s"}),
            "openloop probe metastable: --duration is an option of run, not of probe metastable");
}

TEST_F(ParseErrorTest, AnOptionNobodyHasPointsToHelp) {
  EXPECT_EQ(message({"run", "http://x/", "--zzzzzz", "1"}),
            "openloop run: unknown option --zzzzzz; run `openloop run --help` for its options");
}

TEST_F(ParseErrorTest, OtherErrorsKeepCli11sTextAfterTheSubcommandNamedOnce) {
  const std::string m = message({"run", "http://x/", "--rate"});
  EXPECT_EQ(m.rfind("openloop run: ", 0), 0u) << m;
  EXPECT_NE(m.find("--rate"), std::string::npos) << m;
  EXPECT_NE(m.find("run `openloop run --help` for its options"), std::string::npos) << m;
  EXPECT_EQ(m.find("openloop run: run"), std::string::npos) << m;
}

TEST_F(ParseErrorTest, AWordAfterDoubleDashIsNotTakenForAnOption) {
  const std::string m = message({"run", "http://x/", "--", "--rat"});
  EXPECT_EQ(m.find("unknown option"), std::string::npos) << m;
  EXPECT_EQ(m.rfind("openloop run: ", 0), 0u) << m;
}

}  // namespace
}  // namespace openloop::cli

#include "cli/cli_reference.h"

#include <string>

#include <gtest/gtest.h>

namespace openloop::cli {
namespace {

// A command line like openloop's, small: `run` with a positional, grouped options, a default, a hidden option
// and a footer with examples; `probe metastable` nested; `help` hidden.
class CliReferenceTest : public ::testing::Test {
 protected:
  CliReferenceTest() {
    app.require_subcommand(1);
    CLI::App* run = app.add_subcommand("run", "Apply a load");
    run->add_option("target", text, "URL to load")->type_name("URL");
    run->add_option("--rate", text, "Arrivals per second")->type_name("RATE")->group("Load model");
    run->add_option("-d,--duration", duration, "Measured period")
        ->type_name("DURATION")
        ->capture_default_str()
        ->group("Load model");
    run->add_option("--targets", text, "A targets file or - (standard input)")
        ->type_name("FILE|-")
        ->group("Target");
    run->add_option("--secret", text, "Not shown")->group("");
    run->add_flag("-q,--quiet", flag, "Only the summary\nno live view")->group("Outputs");
    run->footer(
        "Examples:\n  openloop run http://127.0.0.1:8080/ --rate 500/s\n  openloop run plan.yaml\n\n"
        "Exit codes: 0 ok, 2 bad usage.");
    CLI::App* probe = app.add_subcommand("probe", "Procedures");
    probe->add_subcommand("metastable", "Does it recover?")
        ->add_option("--base", text, "The base rate")
        ->type_name("RATE");
    app.add_subcommand("help", "Hidden")->group("");
  }

  CLI::App app{"test", "openloop"};
  std::string text;
  std::string duration = "10s";
  bool flag = false;
};

TEST_F(CliReferenceTest, EveryVisibleOptionIsARowOfItsGroupsTable) {
  const std::string md = markdown_reference(app);
  EXPECT_NE(md.find("## openloop run\n\nApply a load\n"), std::string::npos) << md;
  EXPECT_NE(md.find("Usage: openloop run [OPTIONS] [target]"), std::string::npos) << md;
  EXPECT_NE(md.find("**Positionals**"), std::string::npos) << md;
  EXPECT_NE(md.find("| `target` | `URL` |  | URL to load |"), std::string::npos) << md;
  EXPECT_NE(md.find("**Load model**\n\n| option | value | default | meaning |\n|---|---|---|---|\n"
                    "| `--rate` | `RATE` |  | Arrivals per second |\n"
                    "| `-d,--duration` | `DURATION` | `10s` | Measured period |\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| `-q,--quiet` |  |  | Only the summary no live view |"), std::string::npos) << md;
  EXPECT_EQ(md.find("--secret"), std::string::npos) << md;
  EXPECT_EQ(md.find("| `-h,--help`"), std::string::npos)
      << "the help flag is not an option to document: " << md;
  EXPECT_EQ(md.find("Hidden"), std::string::npos) << md;
}

TEST_F(CliReferenceTest, GroupsAppearInRegistrationOrder) {
  const std::string md = markdown_reference(app);
  const auto load = md.find("**Load model**");
  const auto target = md.find("**Target**");
  const auto outputs = md.find("**Outputs**");
  ASSERT_NE(load, std::string::npos);
  ASSERT_NE(target, std::string::npos);
  ASSERT_NE(outputs, std::string::npos);
  EXPECT_LT(load, target);
  EXPECT_LT(target, outputs);
}

TEST_F(CliReferenceTest, APipeInAPlaceholderIsEscapedSoTheTableKeepsItsColumns) {
  EXPECT_NE(
      markdown_reference(app).find("| `--targets` | `FILE\\|-` |  | A targets file or - (standard input) |"),
      std::string::npos);
  EXPECT_EQ(markdown_cell("a|b\nc"), "a\\|b c");
}

TEST_F(CliReferenceTest, FooterExamplesBecomeAShellBlockAndTheRestStaysText) {
  const std::string md = markdown_reference(app);
  EXPECT_NE(md.find("Examples:\n\n```sh\nopenloop run http://127.0.0.1:8080/ --rate 500/s\nopenloop run "
                    "plan.yaml\n```\n\nExit codes: 0 ok, 2 bad usage.\n"),
            std::string::npos)
      << md;
}

TEST_F(CliReferenceTest, NestedSubcommandsAreListedAndDocumented) {
  const std::string md = markdown_reference(app);
  EXPECT_NE(md.find("- [openloop run](#openloop-run): Apply a load\n"), std::string::npos) << md;
  EXPECT_NE(md.find("  - [openloop probe metastable](#openloop-probe-metastable): Does it recover?\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("## openloop probe metastable\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| `--base` | `RATE` |  | The base rate |"), std::string::npos) << md;
}

TEST_F(CliReferenceTest, TheSameRegistrationsGiveTheSameBytes) {
  EXPECT_EQ(markdown_reference(app), markdown_reference(app));
}

}  // namespace
}  // namespace openloop::cli

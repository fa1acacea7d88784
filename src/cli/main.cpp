// openloop's entry point: dispatches to one subcommand and maps errors to exit codes (DESIGN.md).
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/command.h"
#include "core/error.h"

namespace {

struct Subcommand {
  const char* name;
  const char* description;
  openloop::cli::Action (*setup)(CLI::App&);
};

constexpr Subcommand k_subcommands[] = {
    {"run", "Apply a load (open model by default) to a target and measure it honestly",
     openloop::cli::setup_run},
    {"lab", "Serve the lab service: an HTTP target with configurable queueing behaviour",
     openloop::cli::setup_lab},
    {"validate", "Check a scenario file and describe its scenarios; sends nothing",
     openloop::cli::setup_validate},
    {"report", "Render a results file or an .hlog as text, JSON, CSV, .hgrm or a self-contained HTML page",
     openloop::cli::setup_report},
    {"merge", "Merge the results of several runs of one plan (threads, runs, hosts) exactly",
     openloop::cli::setup_merge},
    {"ramp", "Step the offered rate up and find the knee, the capacity and collapse",
     openloop::cli::setup_ramp},
    {"probe", "Procedures that probe failure modes: `probe metastable` (does it recover after a trigger?)",
     openloop::cli::setup_probe},
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"openloop: load testing that measures from the intended time", "openloop"};
  app.set_version_flag("--version", std::string("openloop ") + OPENLOOP_VERSION);
  app.require_subcommand(1);
  std::vector<std::pair<CLI::App*, openloop::cli::Action>> actions;
  for (const auto& s : k_subcommands) {
    CLI::App* sub = app.add_subcommand(s.name, s.description);
    actions.emplace_back(sub, s.setup(*sub));
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 names the flag in its messages; usage errors exit 2 as DESIGN.md requires.
    int code = app.exit(e);
    return code == 0 ? 0 : static_cast<int>(openloop::ExitCode::usage);
  }
  // Errors travel as Result values and end here as exit codes; an exception reaching this point is a bug, and
  // still ends the process with one line and exit 4 rather than an abort (and a core dump).
  try {
    for (auto& [sub, action] : actions) {
      if (sub->parsed()) return action();
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "openloop: internal error: {}\n", e.what());
    return static_cast<int>(openloop::ExitCode::runtime);
  } catch (...) {
    std::fputs("openloop: internal error: unknown exception\n", stderr);
    return static_cast<int>(openloop::ExitCode::runtime);
  }
  return static_cast<int>(openloop::ExitCode::usage);
}

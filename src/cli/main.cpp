// openloop's entry point: dispatches to one subcommand and maps errors to exit codes (DESIGN.md).
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/cli_reference.h"
#include "cli/command.h"
#include "cli/parse_error.h"
#include "cli/simulate.h"
#include "core/error.h"
#include "core/malloc_policy.h"

namespace {

struct Subcommand {
  const char* name;
  const char* description;
  openloop::cli::Action (*setup)(CLI::App&);
  const char* examples;    ///< for the --help footer, one command a line
  const char* exit_codes;  ///< this subcommand's own, for the --help footer
};

// run's exit codes (DESIGN.md); the other subcommands say their own below.
constexpr const char* k_load_exit_codes =
    "Exit codes: 0 ok, 1 an SLO failed, 2 bad usage or nothing sent, 3 invalid run (the generator did not "
    "apply the planned load), 4 runtime failure (e.g. target unreachable), 75 started later than --start-at "
    "allows (--max-late; nothing sent), 130 interrupted.";

constexpr Subcommand k_subcommands[] = {
    {"run", "Apply a load (open model by default) to a target and measure it honestly",
     openloop::cli::setup_run,
     "  openloop run http://127.0.0.1:8080/ --rate 500/s -d 30s\n"
     "  openloop run http://127.0.0.1:8080/ --rate 1500/s --timeout 2s --deadline 300ms --json out.json\n"
     "  openloop run plan.yaml --slo 'p99<=200ms' --report-dir results --junit results/junit.xml",
     k_load_exit_codes},
    {"lab", "Serve the lab service: an HTTP target with configurable queueing behaviour",
     openloop::cli::setup_lab,
     "  openloop lab --listen 127.0.0.1:8080 --workers 4 --service exp:2ms\n"
     "  openloop lab --listen 127.0.0.1:0 --workers 1 --service exp:1ms --queue lifo",
     "Exit codes: 0 stopped by SIGINT/SIGTERM or after --duration, 2 bad usage (nothing served), 4 runtime "
     "failure (e.g. the address cannot be bound)."},
    {"simulate", "Run a plan against the lab's service model in virtual time (seconds for minutes, exact)",
     openloop::cli::setup_simulate,
     "  openloop simulate http://127.0.0.1/ --rate 500/s -d 60s --lab '--workers 1 --service 1ms --stall "
     "500ms/2s'\n"
     "  openloop simulate http://127.0.0.1/ --vus 50 --think exp:100ms -d 10m --lab '--workers 4 --service "
     "exp:10ms' --json sim.json",
     "Exit codes: as run's: 0 valid and every SLO met, 1 an SLO failed, 2 bad usage (nothing run), 3 invalid "
     "run, 4 an output not written."},
    {"validate", "Check a scenario file and describe its scenarios; sends nothing",
     openloop::cli::setup_validate,
     "  openloop validate plan.yaml\n  openloop validate examples/open-zipf.yaml",
     "Exit codes: 0 the plan is valid, 2 it is refused (the message names the file, the place and what is "
     "accepted)."},
    {"report",
     "Render a results file, an .hlog or a ramp file as text, JSON, CSV, .hgrm or a self-contained HTML page",
     openloop::cli::setup_report,
     "  openloop report out.json\n"
     "  openloop report out.json -f html -o out.html\n"
     "  openloop report run.hlog -f hgrm --tag service_time",
     "Exit codes: 0 written, 2 bad usage or an input that is not a results file, an .hlog, a ramp or a probe "
     "file (the file and the place named), 4 an output not written."},
    {"merge", "Merge the results of several runs of one plan (threads, runs, hosts) exactly",
     openloop::cli::setup_merge,
     "  openloop merge host1.json host2.json -o all.json\n"
     "  openloop merge run-*.json -o all.json -q && openloop report all.json -f html -o all.html",
     "Exit codes: 0 merged, 2 inputs refused (the file at fault named: another plan, overlapping shards, not "
     "a "
     "results file), 4 an output not written."},
    {"compare",
     "Compare a run against a baseline: percentile changes with confidence intervals, gates for CI",
     openloop::cli::setup_compare,
     "  openloop compare baseline.json candidate.json\n"
     "  openloop compare baseline.json candidate.json --fail-on 'p99>+10%' --fail-on 'goodput<-1%' --junit "
     "compare.xml\n"
     "  openloop compare base.json cand.json --json diff.json --html diff.html",
     "Exit codes: 0 no gate tripped, 1 a --fail-on gate tripped, 2 bad input (runs of different plans, a "
     "file "
     "that is not a run or a ramp), 4 an output not written."},
    {"ramp", "Step the offered rate up and find the knee, the capacity and collapse",
     openloop::cli::setup_ramp,
     "  openloop ramp http://127.0.0.1:8080/ --from 100/s --to 2000/s --hold 10s\n"
     "  openloop ramp http://127.0.0.1:8080/ --from 200/s --step-add 100/s --slo 'p99<=50ms' --refine\n"
     "  openloop ramp plan.yaml --from 100/s --deadline 300ms --json ramp.json --html ramp.html",
     "Exit codes: 0 a capacity was found (bracketed or a lower bound), 1 no valid step met every SLO, 2 bad "
     "usage (nothing sent), 3 no step was valid (the generator never applied its load), 4 the target was "
     "unreachable, 130 interrupted (what was judged is printed and written)."},
    {"probe", "Procedures that probe failure modes: `probe metastable` (does it recover after a trigger?)",
     openloop::cli::setup_probe,
     "  openloop probe metastable http://127.0.0.1:8080/ --base 500/s --trigger load:1500/s\n"
     "  openloop probe metastable http://127.0.0.1:8080/ --base 500/s --trigger stall:1s --json probe.json",
     "Run `openloop probe metastable --help` for the probe's options, examples and exit codes."},
    {"audit", "Read another tool's results: the load model, the feedback and what coordinated omission hid",
     openloop::cli::setup_audit,
     "  openloop audit hey.csv\n"
     "  openloop audit results.jtl --json audit.json --target http://127.0.0.1:8080/",
     "Exit codes: 0 the file was read and audited, 2 bad input (the file, the line and what was expected "
     "named), 4 an output not written."},
    {"trace",
     "Recorded traffic offline: `trace convert` (any trace to canonical JSONL), `trace sort` (by time), `trace "
     "inspect` (its shape), `trace fit` (a plan that reproduces it)",
     openloop::cli::setup_trace,
     "  openloop trace convert rec.har -o rec.jsonl\n"
     "  openloop trace sort access.log -o sorted.log\n"
     "  openloop trace inspect access.log --json profile.json\n"
     "  openloop trace fit access.log -o plan.yaml --rate-scale 2",
     "Exit codes: 0 written (or read), 2 bad usage or a bad trace (nothing written), 4 an output not written. Run "
     "`openloop trace convert --help`, `trace sort --help`, `trace inspect --help` or `trace fit --help` for their options."},
};

// The word a user typed where a subcommand belongs, when it names none (CLI11 would only say that a
// subcommand is required).
const char* unknown_subcommand(int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-' || std::string(argv[1]) == "help") return nullptr;
  for (const auto& s : k_subcommands) {
    if (std::string(argv[1]) == s.name) return nullptr;
  }
  return argv[1];
}

}  // namespace

int main(int argc, char** argv) {
  openloop::keep_freed_memory();  // before any thread: no TLB flushes on the workers' cores mid-run
  CLI::App app{"openloop: load testing that measures from the intended time", "openloop"};
  app.set_version_flag("--version", std::string("openloop ") + OPENLOOP_VERSION);
  app.require_subcommand(1);
  std::vector<std::pair<CLI::App*, openloop::cli::Action>> actions;
  std::string names;
  for (const auto& s : k_subcommands) {
    CLI::App* sub = app.add_subcommand(s.name, s.description);
    actions.emplace_back(sub, s.setup(*sub));
    const std::string own = sub->get_footer();
    sub->footer(
        fmt::format("{}{}Examples:\n{}\n\n{}", own, own.empty() ? "" : "\n\n", s.examples, s.exit_codes));
    names += fmt::format("{}{}", names.empty() ? "" : ", ", s.name);
  }
  app.footer("Run `openloop SUBCOMMAND --help` for its options, examples and exit codes.");
  // Hidden (no group): `openloop help --markdown` writes docs/cli.md from the registrations above (make
  // cli-docs).
  CLI::App* help = app.add_subcommand("help", "Print this help, or the command-line reference in markdown");
  help->group("");
  bool markdown = false;
  help->add_flag("--markdown", markdown, "The whole reference (docs/cli.md) in markdown");
  actions.emplace_back(help, [&app, &markdown] {
    fmt::print("{}", markdown ? openloop::cli::markdown_reference(app) + "\n" : app.help());
    return 0;
  });
  if (const char* word = unknown_subcommand(argc, argv)) {
    fmt::print(stderr, "openloop: \"{}\" is not a subcommand; use one of {} (openloop --help)\n", word,
               names);
    return static_cast<int>(openloop::ExitCode::usage);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "errors" that exit 0: CLI11 prints them. Usage errors exit 2 (DESIGN.md) with
    // the subcommand named once and, for a typo, the option meant.
    if (e.get_exit_code() == 0) return app.exit(e);
    fmt::print(stderr, "{}\n", openloop::cli::parse_error_message(app, e, argc, argv));
    return static_cast<int>(openloop::ExitCode::usage);
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

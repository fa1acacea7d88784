// `openloop probe metastable`: push past the knee, come back to the base load, and say whether the system
// recovered.

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <thread>

#include <fmt/format.h>

#include "cli/command.h"
#include "cli/front_half.h"
#include "cli/junit_reports.h"
#include "procedures/probe/probe_metrics.h"
#include "cli/metrics_options.h"
#include "cli/observe_options.h"
#include "cli/option_checks.h"
#include "cli/plan_builder.h"
#include "cli/plan_host.h"
#include "cli/run_options.h"
#include "cli/run_pipeline.h"
#include "cli/start_options.h"
#include "core/redact.h"
#include "core/units.h"
#include "lab/control_endpoint.h"
#include "procedures/probe/probe_report.h"
#include "procedures/probe/probe_runner.h"
#include "report/observed_summary.h"
#include "sim/lab_options.h"
#include "sim/probe.h"
#include "sim/simulate.h"

namespace openloop::cli {
namespace {

// The probe's runs' results (its repeats), for the observed section of its summary.
std::vector<const results::RunResults*> probe_results(const procedures::ProbeReport& r) {
  std::vector<const results::RunResults*> out;
  for (const auto& run : r.runs) out.push_back(&run.results);
  return out;
}

using procedures::ProbeSettings;

/// The probe's own flags as typed; the client flags live in RunOptions.
struct ProbeFlags {
  std::string base, trigger, trigger_for = "60s", baseline_for = "60s", observe_for = "180s", warmup = "10s";
  std::string window = "30s", descend_step = "10%", descend_for, lab_control, arrival = "constant";
  unsigned descend = 0, repeats = 1;
  std::uint64_t seed = 1;
  std::string simulate;  ///< --simulate: the lab's flags of a simulated service
  CLI::Option* trigger_for_option = nullptr;
  CLI::Option* simulate_option = nullptr;
  bool simulated() const { return simulate_option != nullptr && simulate_option->count() > 0; }
};

void add_probe_options(CLI::App& sub, ProbeFlags& f) {
  sub.add_option("--base", f.base,
                 "Base load the system handles, e.g. 300/s: warm-up, baseline and observe run at it")
      ->required();
  sub.add_option(
         "--trigger", f.trigger,
         "What pushes it over: load:600/s (a spike), stall[:10s] (the lab freezes), dependency:+500ms (the "
         "lab's dependency slows; dependency:800ms sets it)")
      ->required();
  f.trigger_for_option =
      sub.add_option("--trigger-for", f.trigger_for, "How long the trigger lasts (a stall:D lasts D)")
          ->capture_default_str();
  sub.add_option("--baseline-for", f.baseline_for, "Baseline at the base load, measured (must be steady)")
      ->capture_default_str();
  sub.add_option("--observe-for", f.observe_for, "Observation at the base load after the trigger")
      ->capture_default_str();
  sub.add_option("--warmup", f.warmup, "Warm-up at the base load before the baseline, not measured")
      ->capture_default_str();
  sub.add_option("--window", f.window,
                 "Recovery window W: the first W after the trigger that meets every criterion")
      ->capture_default_str();
  sub.add_option("--descend", f.descend, "Descending steps after observe when not recovered (hysteresis)")
      ->capture_default_str();
  sub.add_option("--descend-step", f.descend_step,
                 "Each step lowers the load by this share of the base, e.g. 10%")
      ->capture_default_str();
  sub.add_option("--descend-for", f.descend_for, "Length of each descending step (default 2 × --window)");
  sub.add_option("--repeats", f.repeats, "Run the whole probe N times; the report says k of N")
      ->capture_default_str();
  sub.add_option(
      "--lab-control", f.lab_control,
      "The lab's control endpoint for stall/dependency triggers and its stats (default: the target's "
      "origin + /_lab/config); given explicitly, the lab's stats are polled for any trigger");
  sub.add_option("--arrival", f.arrival, "Arrival process: constant | poisson")->capture_default_str();
  sub.add_option("--seed", f.seed, "Seed for Poisson arrivals")->capture_default_str();
  f.simulate_option =
      sub.add_option("--simulate", f.simulate,
                     "Probe a simulated lab service in virtual time instead of the network: the flags of "
                     "`openloop lab` as one string, e.g. '--workers 1 --service 25ms --queue lifo' "
                     "(docs/simulate.md)")
          ->type_name("'LAB OPTIONS'");
}

Result<double> parse_fraction(const std::string& text, std::string_view what) {
  double v = 0;
  const bool percent = !text.empty() && text.back() == '%';
  const std::string number = percent ? text.substr(0, text.size() - 1) : text;
  std::size_t used = 0;
  try {
    v = std::stod(number, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != number.size()) {
    return usage_error(fmt::format("{}: \"{}\" is not a share; use e.g. 10% or 0.1", what, text));
  }
  return percent ? v / 100 : v;
}

Result<ProbeSettings> settings_from(const ProbeFlags& f) {
  ProbeSettings s;
  s.base_rate = OPENLOOP_TRY(parse_rate(f.base, "--base"));
  s.trigger = OPENLOOP_TRY(procedures::parse_trigger(f.trigger));
  s.trigger_for = OPENLOOP_TRY(parse_duration(f.trigger_for, "--trigger-for"));
  if (s.trigger.kind == procedures::Trigger::Kind::stall && s.trigger.length.count() > 0 &&
      f.trigger_for_option->count() > 0 && s.trigger_for != s.trigger.length) {
    return usage_error(fmt::format("--trigger-for: {} contradicts --trigger {}; give one of them",
                                   format_duration(s.trigger_for), s.trigger.text));
  }
  s.baseline = OPENLOOP_TRY(parse_duration(f.baseline_for, "--baseline-for"));
  s.observe = OPENLOOP_TRY(parse_duration(f.observe_for, "--observe-for"));
  s.warmup = OPENLOOP_TRY(parse_duration(f.warmup, "--warmup"));
  s.window = OPENLOOP_TRY(parse_duration(f.window, "--window"));
  s.descend = f.descend;
  s.descend_step = OPENLOOP_TRY(parse_fraction(f.descend_step, "--descend-step"));
  if (!f.descend_for.empty()) s.descend_for = OPENLOOP_TRY(parse_duration(f.descend_for, "--descend-for"));
  s.repeats = f.repeats;
  return s;
}

/// Everything a probe needs, validated before anything is sent.
struct Setup {
  procedures::ProbePlan plan;
  engine::RunPlan run_plan;
  procedures::ProbeContext ctx;
  std::optional<lab::LabConfig> simulated;  ///< --simulate: the simulated service
  std::string simulate_text;                ///< --simulate as given
};

// --simulate: the probe's run goes to a simulated lab of those flags, one worker on virtual time.
Result<void> simulated(RunOptions& o, const ProbeFlags& f, Setup& s) {
  if (!f.simulated()) return {};
  s.simulated = OPENLOOP_TRY(sim::parse_lab_options(f.simulate, "--simulate"));
  s.simulate_text = f.simulate.empty() ? std::string("(defaults)") : f.simulate;
  OPENLOOP_TRY_VOID(use_simulated_client(o));
  if (!f.lab_control.empty()) {
    return usage_error(
        "--lab-control: a simulated probe triggers and watches its simulated lab itself; drop it");
  }
  return {};
}

Result<Setup> prepare(RunOptions o, const ProbeFlags& f) {
  if (is_plan_file(o.url)) {
    return usage_error(
        "probe: give a URL or --targets FILE; scenario files are not supported by the probe yet (the probe "
        "sets the rate: a targets file gives the request mix)");
  }
  Setup s;
  OPENLOOP_TRY_VOID(simulated(o, f, s));
  ProbeSettings settings = OPENLOOP_TRY(settings_from(f));
  s.plan = OPENLOOP_TRY(procedures::make_probe_plan(std::move(settings)));
  o.stages = s.plan.stages_text();
  o.warmup = fmt::format(
      "{}ms", std::chrono::duration_cast<std::chrono::milliseconds>(s.plan.settings.warmup).count());
  o.arrival = f.arrival;
  o.seed = f.seed;
  s.run_plan = OPENLOOP_TRY(build_plan(o, host_facts()));
  if (s.simulated) {
    mark_simulated(s.run_plan);
  } else {
    OPENLOOP_TRY_VOID(resolve_target({&s.run_plan}));
  }
  s.run_plan.check_windows = s.plan.check_windows();  // each phase's intervals on its own effective n
  s.ctx.slos = OPENLOOP_TRY(parse_slos(o, {s.run_plan.requests.front().name}));
  if (s.ctx.slos.size() == 1 && s.ctx.slos.front().is_default) s.ctx.slos.clear();  // probe judges no default
  const bool needs_lab = s.plan.settings.trigger.needs_lab();
  if (s.simulated) {
    OPENLOOP_TRY_VOID(sim::check_simulable(s.run_plan, *s.simulated));
  } else if (needs_lab || !f.lab_control.empty()) {
    const std::string url =
        f.lab_control.empty() ? lab::default_control_url(s.run_plan.url) : f.lab_control;
    auto client = OPENLOOP_TRY(lab::ControlClient::create(url, std::chrono::seconds(2)));
    if (auto stats = client.stats(); !stats) {
      return runtime_error(fmt::format("--lab-control: the lab does not answer ({}); the {} trigger needs it",
                                       stats.error().message, s.plan.settings.trigger.text));
    }
    s.ctx.lab = std::move(client);
    s.ctx.poll_lab = true;
  }
  s.ctx.log = o.quiet ? nullptr : stderr;
  return s;
}

std::vector<OutputFile<procedures::ProbeReport>> probe_outputs(
    const RunOptions& o, const std::optional<lab::LabConfig>& simulated) {
  std::optional<nlohmann::json> service_model;
  if (simulated) {
    service_model = lab::config_to_json(*simulated);
    service_model->erase("listen");
    service_model->erase("duration");
  }
  return {
      {"--json", o.json,
       [service_model](const procedures::ProbeReport& r) -> Result<std::string> {
         nlohmann::json j = procedures::probe_json(r);
         if (service_model) {
           j["simulated"] = true;
           j["service_model"] = *service_model;
         }
         return json_text(j);
       }},
      {"--html", o.html,
       [](const procedures::ProbeReport& r) -> Result<std::string> {
         return procedures::render_probe_html(r);
       }},
      {"--junit", o.junit,
       [](const procedures::ProbeReport& r) -> Result<std::string> {
         return report::render_junit(probe_junit(r));
       }},
  };
}

// As for run and ramp: a target never reached (every run's requests failed to connect) is a runtime failure,
// not an inconclusive probe.
int exit_code(const procedures::ProbeReport& report) {
  const bool reached = std::any_of(report.runs.begin(), report.runs.end(),
                                   [](const procedures::ProbeRun& r) { return !r.results.unreachable(); });
  if (!report.interrupted && !report.runs.empty() && !reached) {
    fmt::print(stderr, "openloop probe metastable: no response from {}: every request failed to connect\n",
               report.target);
    return static_cast<int>(ExitCode::runtime);
  }
  return procedures::probe_exit_code(report);
}

void announce(const Setup& setup) {
  const auto& s = setup.plan.settings;
  fmt::print(stderr,
             "openloop probe metastable: {} at {}, trigger {}; {} warm-up, then {} measured per run {}\n",
             redact_url(setup.run_plan.url_text), format_rate(s.base_rate),
             procedures::describe(s.trigger, s.trigger_for), format_duration(s.warmup),
             format_duration(setup.plan.measured),
             setup.simulated ? fmt::format("in virtual time against lab {}", setup.simulate_text)
                             : fmt::format("on {} thread(s)", setup.run_plan.threads));
}

int probe_metastable(const RunOptions& o, const ProbeFlags& f) {
  const std::string command = "openloop probe metastable";
  auto setup = prepare(o, f);
  if (!setup) return report_error(command, setup.error());
  // The probe's id, made as run's and ramp's (OPENLOOP_RUN_ID, else random): its file's run_id, its runs' and
  // the run_id label of its metrics.
  const auto start = prepare_start(o, setup->run_plan.describe());
  if (!start) return report_error(command, start.error());
  const std::string run_id = start->run_id;
  // Bound before anything is sent: a bad address or a port in use ends the command with nothing sent.
  auto metrics = open_metrics(o, {}, command);
  if (!metrics) return report_error(command, metrics.error());
  std::optional<procedures::ProbeMetrics> probe_metrics;
  if (metrics->server) {
    std::vector<std::string> names;
    for (const auto& r : setup->run_plan.requests) names.push_back(r.name);
    probe_metrics.emplace(*metrics->server, setup->plan, run_id, std::move(names));
    setup->ctx.on_progress = [&probe_metrics](const results::RunResults& so_far) {
      probe_metrics->progress(so_far);
    };
  }
  Pipeline<procedures::ProbeReport> p;
  p.command = command;
  p.outputs = probe_outputs(o, setup->simulated);
  auto observer = make_observer(o.observe, setup->run_plan.url_text);
  if (!observer) return report_error(command, observer.error());
  p.run = [&](std::atomic<int>& stop) -> Result<procedures::ProbeReport> {
    procedures::ProbeReport report{setup->plan,
                                   redact_url(setup->run_plan.url_text),
                                   setup->ctx.lab ? setup->ctx.lab->config_url() : "",
                                   {},
                                   false,
                                   run_id};
    const auto& s = setup->plan.settings;
    if (setup->ctx.log != nullptr) announce(*setup);
    for (unsigned i = 0; i < s.repeats && stop.load() == 0; ++i) {
      if (s.repeats > 1 && setup->ctx.log != nullptr) fmt::print(stderr, "run {} of {}\n", i + 1, s.repeats);
      if (probe_metrics) probe_metrics->start_run(i + 1);
      auto run = OPENLOOP_TRY(observed(observer->get(), [&] {
        if (setup->simulated) {
          return sim::simulate_probe(setup->run_plan, setup->plan, setup->ctx, *setup->simulated, stop);
        }
        return procedures::run_probe(setup->run_plan, setup->plan, setup->ctx, stop);
      }));
      run.results.info.environment = run_environment();
      run.results.info.run_id = run_id;
      if (probe_metrics) probe_metrics->end_run(run.results, run.outcome);
      if (*observer) (*observer)->attach(run.results);
      report.runs.push_back(std::move(run));
    }
    report.interrupted = stop.load() != 0;
    return report;
  };
  p.summary = [](const procedures::ProbeReport& r) {
    return procedures::render_probe_text(r) + report::render_observed_runs(probe_results(r));
  };
  p.exit_code = exit_code;
  const int code = execute(p);
  metrics->linger_after();
  return code;
}

}  // namespace

Action setup_probe(CLI::App& sub) {
  sub.require_subcommand(1);
  CLI::App* metastable = sub.add_subcommand("metastable",
                                            "Baseline at a base load, a trigger (load spike, lab stall, "
                                            "slower dependency), then observe: did it recover?");
  auto options = std::make_shared<RunOptions>();
  auto flags = std::make_shared<ProbeFlags>();
  add_target_options(*metastable, *options);
  metastable->get_option("target")->required(false);  // the requests may come from --targets
  add_plan_input_options(*metastable, *options);
  add_client_options(*metastable, *options);
  add_retry_options(*metastable, options->retry);
  add_output_options(*metastable, *options);
  metastable->get_option("target")->description("Target URL (http:// or https://), or none with --targets");
  metastable->get_option("--json")->description(
      "Write the probe (schema openloop.probe/1: verdict, signals, and every run's results) to FILE, "
      "atomically");
  metastable->get_option("--html")->description(
      "Write a self-contained HTML report (phases shaded over goodput, throughput and p99) to FILE, "
      "atomically");
  for (const char* unsupported : {"--hlog", "--abort-on-slo", "--report-dir"}) {
    if (CLI::Option* opt = metastable->get_option_no_throw(unsupported)) metastable->remove_option(opt);
  }
  add_probe_options(*metastable, *flags);
  add_observe_option(*metastable, options->observe);
  add_metrics_options(*metastable, *options,
                      "each phase of each run (series labelled repeat and phase), the probe's verdict");
  metastable->footer(
      "Exit codes: 0 RECOVERED, 1 METASTABLE or RECOVERED-AT-LOWER-LOAD, 2 bad usage, 3 INCONCLUSIVE, "
      "4 runtime failure, 130 interrupted. --slo objectives are judged on the baseline. See docs/probe.md.");
  return [options, flags, metastable] {
    if (!metastable->parsed()) return static_cast<int>(ExitCode::usage);
    return probe_metastable(*options, *flags);
  };
}

}  // namespace openloop::cli

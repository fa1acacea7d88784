// `openloop probe metastable`: push past the knee, come back to the base load, and say whether the system
// recovered.

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "cli/command.h"
#include "cli/dead_target_runner.h"
#include "cli/front_half.h"
#include "cli/grpc_options.h"
#include "cli/junit_reports.h"
#include "cli/observe_options.h"
#include "cli/option_checks.h"
#include "cli/plan_builder.h"
#include "cli/plan_host.h"
#include "cli/probe_options.h"
#include "cli/run_options.h"
#include "cli/run_pipeline.h"
#include "core/redact.h"
#include "core/units.h"
#include "lab/control_endpoint.h"
#include "procedures/probe/probe_metrics.h"
#include "procedures/probe/probe_report.h"
#include "procedures/probe/probe_runner.h"
#include "report/observed_summary.h"
#include "sim/lab_options.h"
#include "sim/probe.h"
#include "sim/simulate.h"
#include "workload/grpc_call.h"

namespace openloop::cli {
namespace {

// The probe's runs' results (its repeats), for the observed section of its summary.
std::vector<const results::RunResults*> probe_results(const procedures::ProbeReport& r) {
  std::vector<const results::RunResults*> out;
  for (const auto& run : r.runs) out.push_back(&run.results);
  return out;
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
  // A grpc:// target: the call prepared once (the schema loaded, or asked of the server's reflection), the
  // probe's options the HTTP/2 request it is (docs/grpc.md).
  std::optional<GrpcCall> call;
  if (workload::is_grpc_url(o.url)) {
    if (f.simulated()) {
      return usage_error(
          "--simulate: the simulated lab answers HTTP requests, not gRPC calls; probe the grpc:// target "
          "against `openloop lab --grpc` instead (docs/grpc.md)");
    }
    call = OPENLOOP_TRY(prepare_grpc_call(o, f.grpc));
    o = call->options;
  } else {
    OPENLOOP_TRY_VOID(check_no_grpc_flags(f.grpc));
  }
  Setup s;
  OPENLOOP_TRY_VOID(simulated(o, f, s));
  procedures::ProbeSettings settings = OPENLOOP_TRY(settings_from(f));
  s.plan = OPENLOOP_TRY(procedures::make_probe_plan(std::move(settings)));
  o.stages = s.plan.stages_text();
  o.warmup = fmt::format(
      "{}ms", std::chrono::duration_cast<std::chrono::milliseconds>(s.plan.settings.warmup).count());
  o.arrival = f.arrival;
  o.seed = f.seed;
  s.run_plan = OPENLOOP_TRY(build_plan(o, host_facts()));
  if (call) OPENLOOP_TRY_VOID(apply_grpc_call(*call, s.run_plan));
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
    const std::string url = f.lab_control.empty() ? lab::default_control_url(s.run_plan.url) : f.lab_control;
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
int exit_code(const procedures::ProbeReport& report, const ProcedureDeadTarget& dead) {
  const bool reached = std::any_of(report.runs.begin(), report.runs.end(),
                                   [](const procedures::ProbeRun& r) { return !r.results.unreachable(); });
  if (!report.interrupted && !report.runs.empty() && !reached) {
    fmt::print(stderr, "openloop probe metastable: {}: every request failed to connect\n",
               dead.dead() ? dead.why() : "no response from " + report.target);
    return static_cast<int>(ExitCode::runtime);
  }
  return procedures::probe_exit_code(report);
}

void announce(const Setup& setup) {
  const auto& s = setup.plan.settings;
  fmt::print(stderr,
             "openloop probe metastable: {} at {}, trigger {}; {} warm-up, then {} measured per run {}\n",
             setup.run_plan.redact.url(setup.run_plan.url_text), format_rate(s.base_rate),
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
  auto front = open_procedure_front_half(o, command, setup->run_plan);
  if (!front) return report_error(command, front.error());
  const std::string run_id = front->run_id();
  // The endpoint serves the probe's own series: each phase of each run, and its verdict.
  std::optional<procedures::ProbeMetrics> probe_metrics;
  if (front->metrics.server) {
    std::vector<std::string> names;
    for (const auto& r : setup->run_plan.requests) names.push_back(r.name);
    probe_metrics.emplace(*front->metrics.server, setup->plan, run_id, std::move(names));
    setup->ctx.on_progress = [&probe_metrics](const results::RunResults& so_far) {
      probe_metrics->progress(so_far);
    };
  }
  // A target nothing answers at ends the probe at its first run's first interval (exit 4), as it ends a run.
  ProcedureDeadTarget dead(target_address(setup->run_plan));
  Pipeline<procedures::ProbeReport> p;
  p.command = command;
  p.outputs = probe_outputs(o, setup->simulated);
  p.run = [&](std::atomic<int>& stop) -> Result<procedures::ProbeReport> {
    procedures::ProbeReport report{setup->plan,
                                   setup->run_plan.redact.url(setup->run_plan.url_text),
                                   setup->ctx.lab ? setup->ctx.lab->config_url() : "",
                                   {},
                                   false,
                                   run_id};
    const auto& s = setup->plan.settings;
    if (setup->ctx.log != nullptr) announce(*setup);
    const auto metrics_progress = setup->ctx.on_progress;
    for (unsigned i = 0; i < s.repeats && stop.load() == 0; ++i) {
      if (s.repeats > 1 && setup->ctx.log != nullptr) fmt::print(stderr, "run {} of {}\n", i + 1, s.repeats);
      if (probe_metrics) probe_metrics->start_run(i + 1);
      const std::unique_ptr<results::DeadTargetWatch> watch = setup->simulated ? nullptr : dead.watch();
      setup->ctx.on_progress = metrics_progress;
      if (watch) {
        setup->ctx.on_progress = [&metrics_progress, &watch, &stop](const results::RunResults& so_far) {
          if (metrics_progress) metrics_progress(so_far);
          watch->stop_if_dead(so_far, stop);  // the probe passes the stop on to its run
        };
      }
      auto run = OPENLOOP_TRY(observed(front->observer.get(), [&] {
        if (setup->simulated) {
          return sim::simulate_probe(setup->run_plan, setup->plan, setup->ctx, *setup->simulated, stop);
        }
        return procedures::run_probe(setup->run_plan, setup->plan, setup->ctx, stop);
      }));
      dead.after(watch.get(), run.results, stop);
      // Judged while the watch's stop looked like a signal's: judged again, not interrupted.
      if (dead.dead()) OPENLOOP_TRY_VOID(procedures::judge_probe_run(run, setup->plan, setup->ctx, false, {}));
      front->stamp(run.results);
      if (probe_metrics) probe_metrics->end_run(run.results, run.outcome);
      report.runs.push_back(std::move(run));
    }
    if (dead.settle(stop) && !o.quiet) fmt::print(stderr, "\n{}: stopped early\n", dead.why());
    report.interrupted = stop.load() != 0;
    return report;
  };
  p.summary = [](const procedures::ProbeReport& r) {
    return procedures::render_probe_text(r) + report::render_observed_runs(probe_results(r));
  };
  p.exit_code = [&dead](const procedures::ProbeReport& r) { return exit_code(r, dead); };
  const int code = execute(p);
  front->metrics.linger_after();
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
  add_probe_options(*metastable, *options, *flags);
  metastable->footer(
      "Examples:\n"
      "  openloop probe metastable http://127.0.0.1:8080/ --base 300/s --trigger stall --quick\n"
      "  openloop probe metastable http://127.0.0.1:8080/ --base 300/s --trigger load:600/s --retry-attempts "
      "3 "
      "--json probe.json\n\n"
      "Exit codes: 0 RECOVERED, 1 METASTABLE or RECOVERED-AT-LOWER-LOAD, 2 bad usage, 3 INCONCLUSIVE, "
      "4 runtime failure, 130 interrupted. --slo objectives are judged on the baseline. See docs/probe.md.");
  return [options, flags, metastable] {
    if (!metastable->parsed()) return static_cast<int>(ExitCode::usage);
    return probe_metastable(*options, *flags);
  };
}

}  // namespace openloop::cli

// `openloop simulate`: a run's plan against the lab's service model in virtual time; the same results files.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <memory>
#include <thread>

#include <fmt/format.h>
#include <malloc.h>

#include "cli/run_options.h"
#include "cli/run_pipeline.h"
#include "cli/simulate.h"
#include "core/units.h"
#include "engine/scenario_plans.h"
#include "report/hlog_export.h"
#include "report/html.h"
#include "report/junit.h"
#include "report/summary.h"
#include "results/slo_abort.h"
#include "sim/lab_options.h"
#include "sim/simulate.h"
#include "workload/scenario_file.h"

namespace openloop::cli {
namespace {

using ProgressFn = std::function<void(const results::RunResults&)>;

struct SimulateOptions {
  RunOptions run;
  std::string lab;  ///< --lab: the lab's flags, as one string
};

// The run's plan with the client settings a simulation fixes: one worker, no spinning, no coalescing.
Result<engine::RunPlan> simulated_plan(const RunOptions& given) {
  if (given.threads > 1) {
    return usage_error(
        fmt::format("--threads: a simulated client is one worker in virtual time; drop "
                    "--threads {}",
                    given.threads));
  }
  if (given.coalesce != "0")
    return usage_error("--coalesce: a simulated client wakes exactly when due; drop it");
  RunOptions o = given;
  o.threads = 1;
  o.spin_below = "0";
  if (!is_plan_file(o.url)) {
    auto plan = OPENLOOP_TRY(build_plan(o));
    plan.dns_time = Nanos(-1);  // resolved for real, but no part of the simulation (nor of its determinism)
    return plan;
  }
  if (!o.rate.empty() || !o.stages.empty() || o.vus > 0 || !o.session_rate.empty()) {
    return usage_error(
        fmt::format("the workload comes from the plan file {}; set it there (see docs/scenarios.md)", o.url));
  }
  const workload::PlanInputs inputs = OPENLOOP_TRY(plan_inputs(o));
  auto file =
      std::make_shared<const workload::WorkloadPlan>(OPENLOOP_TRY(workload::load_plan_file(o.url, inputs)));
  engine::RunSettings s;
  s.threads = 1;
  s.warmup = OPENLOOP_TRY(parse_duration(o.warmup, "--warmup"));
  if (o.on_saturation != "drop" && o.on_saturation != "queue") {
    return usage_error(
        fmt::format("--on-saturation: \"{}\" is not accepted; use drop or queue", o.on_saturation));
  }
  s.on_saturation = o.on_saturation == "queue" ? engine::OnSaturation::queue : engine::OnSaturation::drop;
  s.max_connections = o.max_connections;
  s.spin_below = Nanos(0);
  s.fd_limit = raise_fd_limit();
  s.retry = o.retry;
  auto plans = OPENLOOP_TRY(engine::plans_from_workload(file, s));
  if (plans.size() != 1) {
    return usage_error(
        fmt::format("{}: has {} scenarios; simulate runs a file of one scenario (its scenarios "
                    "would share one service: not simulated yet)",
                    o.url, plans.size()));
  }
  plans.front().dns_time = Nanos(-1);
  return std::move(plans.front());
}

// run's outputs, the JSON labelled simulated with its service model.
std::vector<OutputFile<sim::SimulatedRun>> simulate_outputs(const RunOptions& o) {
  const std::string source = o.json.empty() ? std::string("this simulation") : o.json;
  return {
      {"--json", o.json,
       [](const sim::SimulatedRun& r) -> Result<std::string> { return json_text(sim::to_json(r)); }},
      {"--hlog", o.hlog, [](const sim::SimulatedRun& r) { return report::render_interval_log(r.results); }},
      {"--html", o.html,
       [source](const sim::SimulatedRun& r) -> Result<std::string> {
         report::ReportInput in;
         in.source = source;
         in.results = r.results;
         return report::render_html(in);
       }},
      {"--junit", o.junit,
       [](const sim::SimulatedRun& r) -> Result<std::string> {
         return report::render_junit(report::junit_for_run(r.results));
       }},
  };
}

int simulate_command(const SimulateOptions& so) {
  const std::string command = "openloop simulate";
  const RunOptions& o = so.run;
  // Everything is checked before anything runs: the lab's options, the plan, the SLOs, the output paths.
  auto lab = sim::parse_lab_options(so.lab, "--lab");
  if (!lab) return report_error(command, lab.error());
  if (o.url.empty() && o.targets.empty()) {
    return report_error(command,
                        usage_error("a target URL, a plan file or --targets is needed (a URL only labels the "
                                    "simulated service; its host must resolve)")
                            .value());
  }
  auto plan = simulated_plan(o);
  if (!plan) return report_error(command, plan.error());
  if (!o.log_requests.empty()) {
    return report_error(command, usage_error("--log-requests: not available in a simulation yet").value());
  }
  std::vector<std::string> names;
  for (const auto& r : plan->requests) names.push_back(r.name);
  auto slos = parse_slos(o, names);
  if (!slos) return report_error(command, slos.error());
  // --abort-on-slo: judged on every finalized interval of virtual time, as a run judges its intervals.
  std::optional<results::SloAbort> slo_abort;
  if (o.abort_on_slo) {
    slo_abort.emplace(*slos, std::vector{results::SloAbortPart{names, planned_intended(*plan)}});
  }
  if (auto ok = sim::check_simulable(*plan, *lab); !ok) return report_error(command, ok.error());
  // A simulation finishes an interval every few hundred microseconds, each freeing and allocating histograms
  // of 256 KB: above glibc's mmap threshold, each would be a fresh mmap (and its page faults, zeroed by the
  // kernel), and heap trimming would give back what the next interval takes again. Kept in the heap instead:
  // half the CPU of a 10-minute simulation was that.
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  Pipeline<sim::SimulatedRun> p;
  p.command = command;
  p.outputs = simulate_outputs(o);
  p.run = [&](std::atomic<int>& stop) -> Result<sim::SimulatedRun> {
    if (!o.quiet) {
      fmt::print(stderr, "openloop simulate: {} {} for {}s in virtual time against lab {}\n", plan->method,
                 plan->url_text, to_seconds(plan->duration), so.lab.empty() ? "(defaults)" : so.lab);
    }
    const auto began = std::chrono::system_clock::now();
    const double cpu_before = static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
    const auto judge_slos = [&](const results::RunResults& so_far) {
      if (!slo_abort->stop_if_certain({&so_far}, stop) || o.quiet) return;
      fmt::print(stderr, "openloop simulate: SLO {} is certain to fail: stopping early (--abort-on-slo)\n",
                 slo_abort->failed()->text);
    };
    auto ran = OPENLOOP_TRY(sim::simulate(*plan, *lab, stop, slo_abort ? judge_slos : ProgressFn()));
    if (slo_abort) slo_abort->mark(ran.results, stop.load());
    const double cpu = static_cast<double>(std::clock()) / CLOCKS_PER_SEC - cpu_before;
    results::RunResults& r = ran.results;
    r.slos = results::evaluate_slos(*slos, r);
    r.info.environment = run_environment();
    r.info.start_unix_s = std::chrono::duration<double>(began.time_since_epoch()).count();
    if (!o.quiet) {
      const auto attempts = r.totals.attempts + r.warmup.attempts;
      fmt::print(stderr, "openloop simulate: {} requests simulated in {:.2f} CPU-s ({:.2f} M/CPU-s)\n",
                 attempts, cpu, cpu > 0 ? static_cast<double>(attempts) / cpu / 1e6 : 0.0);
    }
    return ran;
  };
  p.summary = [](const sim::SimulatedRun& r) { return report::render_summary(r.results); };
  p.exit_code = [&command](const sim::SimulatedRun& r) { return run_exit_code(r.results, command); };
  return execute(p);
}

}  // namespace

Action setup_simulate(CLI::App& sub) {
  auto options = std::make_shared<SimulateOptions>();
  add_run_options(sub, options->run);
  sub.add_option(
         "--lab", options->lab,
         "The simulated service: the flags of `openloop lab` as one string, e.g. '--workers 4 --service "
         "exp:10ms --stall 500ms/2s --queue lifo' (default: the lab's defaults)")
      ->type_name("'LAB OPTIONS'");
  return [options] { return simulate_command(*options); };
}

}  // namespace openloop::cli

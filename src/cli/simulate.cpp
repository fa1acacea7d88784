// `openloop simulate`: a run's plan against the lab's service model in virtual time; the same results files.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <memory>

#include <fmt/format.h>
#include <malloc.h>

#include "cli/front_half.h"
#include "cli/option_checks.h"
#include "cli/plan_builder.h"
#include "cli/plan_host.h"
#include "cli/run_options.h"
#include "cli/run_pipeline.h"
#include "cli/simulate.h"
#include "cli/simulated_observer.h"
#include "core/redact.h"
#include "core/units.h"
#include "engine/request_log.h"
#include "engine/scenario_plans.h"
#include "observe/endpoint_sources.h"
#include "observe/observer.h"
#include "observe/series.h"
#include "report/hlog_export.h"
#include "report/html/html.h"
#include "report/junit.h"
#include "report/summary.h"
#include "report/summary_legend.h"
#include "results/judging/slo_abort.h"
#include "sim/lab_options.h"
#include "sim/simulate.h"
#include "sim/simulator.h"
#include "workload/grpc_call.h"
#include "workload/scenario_file.h"

namespace openloop::cli {
namespace {

using ProgressFn = std::function<void(const results::RunResults&)>;

struct SimulateOptions {
  RunOptions run;
  std::string lab;  ///< --lab: the lab's flags, as one string
};

// The run's plans with the client settings a simulation fixes: one worker, no spinning, no coalescing. A URL
// makes one plan; a scenario file one per scenario (they run at once against one simulated service). Nothing
// is resolved: the URL only labels the simulated service (mark_simulated).
Result<std::vector<engine::RunPlan>> simulated_plans(const RunOptions& given, const HostFacts& host) {
  RunOptions o = given;
  OPENLOOP_TRY_VOID(use_simulated_client(o, "one worker in virtual time"));
  std::vector<engine::RunPlan> plans;
  if (!is_plan_file(o.url)) {
    plans.push_back(OPENLOOP_TRY(build_plan(o, host)));
    mark_simulated(plans.front());
    return plans;
  }
  OPENLOOP_TRY_VOID(refuse_workload_flags(o));
  auto file = OPENLOOP_TRY(load_plan(o));
  OPENLOOP_TRY_VOID(refuse_once_steps(*file, "simulate"));
  if (file->grpc) {
    return usage_error(fmt::format("{}: {} is a gRPC call; the simulated lab answers HTTP requests only",
                                   file->source, file->requests[file->grpc->calls.front().request].name()));
  }
  // Each scenario gets one worker (its share, at least one), set by o.threads = 1 above.
  const engine::RunSettings settings = OPENLOOP_TRY(run_settings(o, host));
  plans = OPENLOOP_TRY(build_file_plans(o, file, settings));
  OPENLOOP_TRY_VOID(apply_shard(o, host, plans));
  for (auto& plan : plans) mark_simulated(plan);
  return plans;
}

// run's outputs, the JSON labelled simulated with its service model.
std::vector<OutputFile<sim::SimulatedRun>> simulate_outputs(const RunOptions& o) {
  const std::string source = o.json.empty() ? std::string("this simulation") : o.json;
  return {
      {"--json", o.json, nullptr,
       [](const sim::SimulatedRun& r, const WriteSink& sink) { return sim::write_json(r, sink); }},
      {"--hlog", o.hlog, nullptr,
       [](const sim::SimulatedRun& r, const WriteSink& sink) { return report::write_interval_log(r.results, sink); }},
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
                                    "simulated service: nothing is sent to it)")
                            .value());
  }
  auto plans = simulated_plans(o, host_facts());
  if (!plans) return report_error(command, plans.error());
  const bool plan_file = is_plan_file(o.url);
  // --abort-on-slo: judged on every finalized interval of virtual time, as a run judges its intervals.
  auto judging = prepare_judging(o, *plans);
  if (!judging) return report_error(command, judging.error());
  const std::vector<results::Slo>& slos = judging->slos;
  std::optional<results::SloAbort>& slo_abort = judging->abort;
  std::vector<std::string> observe_warnings;
  const auto observe_spec = simulated_observe_spec(o, *plans, observe_warnings);
  if (!observe_spec) return report_error(command, observe_spec.error());
  if (auto ok = sim::check_simulable(*plans, *lab); !ok) return report_error(command, ok.error());
  const auto began = std::chrono::system_clock::now();
  const double began_unix_s = std::chrono::duration<double>(began.time_since_epoch()).count();
  // --log-requests on virtual time: zero is the run's wall-clock start; the simulator drains the log.
  std::vector<engine::RunPlan*> each;
  for (auto& plan : *plans) each.push_back(&plan);
  auto request_log = open_request_log(o, each, VirtualLogClock{sim::k_epoch, began_unix_s});
  if (!request_log) return report_error(command, request_log.error());
  // A simulation finishes an interval every few hundred microseconds, each freeing and allocating histograms
  // of 256 KB: above glibc's mmap threshold, each would be a fresh mmap (and its page faults, zeroed by the
  // kernel), and heap trimming would give back what the next interval takes again. Kept in the heap instead:
  // half the CPU of a 10-minute simulation was that.
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  Pipeline<sim::SimulatedRun> p;
  p.command = command;
  p.outputs = simulate_outputs(o);
  // With the log on standard output, the summary goes to standard error so a pipe reads only log lines.
  p.summary_to = o.log_requests == "-" ? stderr : stdout;
  p.run = [&](std::atomic<int>& stop) -> Result<sim::SimulatedRun> {
    if (!o.quiet) {
      const engine::RunPlan& first = plans->front();
      if (plan_file) {
        fmt::print(stderr, "openloop simulate: {} ({} scenarios) in virtual time against lab {}\n", o.url,
                   plans->size(), so.lab.empty() ? "(defaults)" : so.lab);
      } else {
        fmt::print(stderr, "openloop simulate: {} {} for {}s in virtual time against lab {}\n", first.method,
                   first.redact.url(first.url_text), to_seconds(first.duration),
                   so.lab.empty() ? "(defaults)" : so.lab);
      }
    }
    const double cpu_before = static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
    engine::MultiProgressFn judge_slos;
    if (slo_abort) {
      judge_slos = [&](const std::vector<const results::RunResults*>& so_far) {
        if (!slo_abort->stop_if_certain(so_far, stop) || o.quiet) return;
        fmt::print(stderr, "openloop simulate: SLO {} is certain to fail: stopping early (--abort-on-slo)\n",
                   slo_abort->failed()->text);
      };
    }
    std::optional<SimulatedLabObserver> observer;
    if (!observe_spec->empty()) observer.emplace(*observe_spec, began_unix_s);
    engine::RequestLog* log = request_log->get();
    const auto setup = [log, &observer](sim::Simulator& world) {
      if (log != nullptr) world.on_poll([log] { log->drain(); });
      if (observer) observer->start(world);
    };
    auto ran = OPENLOOP_TRY(sim::simulate_all(*plans, *lab, stop, judge_slos, setup));
    const double cpu = static_cast<double>(std::clock()) / CLOCKS_PER_SEC - cpu_before;
    std::uint64_t attempts = 0;
    for (const auto& r : ran.results) attempts += r.totals.attempts + r.warmup.attempts;
    for (std::size_t i = 0; i < ran.results.size(); ++i) {
      const engine::RunPlan& plan = (*plans)[i];
      ran.results[i].info.start_unix_s = began_unix_s + to_seconds(plan.start_offset + plan.warmup);
    }
    sim::SimulatedRun out;
    out.service_model = std::move(ran.service_model);
    out.service_stats = std::move(ran.service_stats);
    if (plan_file) {
      out.results = plan_file_results(*plans, std::move(ran.results), slos,
                                      slo_abort ? &*slo_abort : nullptr, stop.load(), o.url);
      out.results.info.start_unix_s = began_unix_s;
      for (const auto& part : out.results.scenarios)
        out.results.info.start_unix_s =
            std::min(out.results.info.start_unix_s, part.results.info.start_unix_s);
    } else {
      out.results = std::move(ran.results.front());
      if (slo_abort) slo_abort->mark(out.results, stop.load());
      out.results.slos = results::evaluate_slos(slos, out.results);
      out.results.info.environment = run_environment();
    }
    // As a plan file's run, the whole run carries the observed signals (its intervals are the scenarios'
    // together).
    if (observer) observer->attach(out.results);
    for (auto& w : observe_warnings) out.results.warnings.push_back(std::move(w));
    finish_request_log(log, out.results);
    if (!o.quiet) {
      fmt::print(stderr, "openloop simulate: {} requests simulated in {:.2f} CPU-s ({:.2f} M/CPU-s)\n",
                 attempts, cpu, cpu > 0 ? static_cast<double>(attempts) / cpu / 1e6 : 0.0);
    }
    return out;
  };
  p.summary = [plan_file, legend = wants_legend(o, p.summary_to)](const sim::SimulatedRun& r) {
    return (plan_file ? report::render_run_summary(r.results) : report::render_summary(r.results)) +
           (legend ? report::render_legend(r.results) : std::string());
  };
  p.exit_code = [&command](const sim::SimulatedRun& r) { return run_exit_code(r.results, command); };
  return execute(p);
}

}  // namespace

Action setup_simulate(CLI::App& sub) {
  auto options = std::make_shared<SimulateOptions>();
  add_run_options(sub, options->run);
  // What a simulation does not take of run's flags: a metrics endpoint (nothing to scrape in virtual time), a
  // run id and a common wall-clock start (the front half's parts it does not ask for), --until.
  for (const char* unsupported : {"--metrics-listen", "--metrics-linger", "--run-id", "--start-at", "--max-late",
                                  "--until", "--max-duration"}) {
    if (CLI::Option* opt = sub.get_option_no_throw(unsupported)) sub.remove_option(opt);
  }
  sub.add_option(
         "--lab", options->lab,
         "The simulated service: the flags of `openloop lab` as one string, e.g. '--workers 4 --service "
         "exp:10ms --stall 500ms/2s --queue lifo' (default: the lab's defaults)")
      ->type_name("'LAB OPTIONS'");
  return [options] { return simulate_command(*options); };
}

}  // namespace openloop::cli

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
#include "results/judging/slo_abort.h"
#include "sim/lab_options.h"
#include "sim/simulate.h"
#include "sim/simulator.h"
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
  if (!o.rate.empty() || !o.stages.empty() || o.vus > 0 || !o.session_rate.empty()) {
    return usage_error(
        fmt::format("the workload comes from the plan file {}; set it there (see docs/scenarios.md)", o.url));
  }
  auto file = OPENLOOP_TRY(load_plan(o));
  // Each scenario gets one worker (its share, at least one), set by o.threads = 1 above.
  const engine::RunSettings settings = OPENLOOP_TRY(run_settings(o, host));
  plans = OPENLOOP_TRY(build_file_plans(o, file, settings));
  for (auto& plan : plans) mark_simulated(plan);
  return plans;
}

// --log-requests in a simulation: the run's log format, its times on the Unix clock from `began` (virtual
// time zero), and no writer thread: the simulator drains the rings on its own thread as the run fills them
// (Simulator::on_poll), so nothing is dropped however fast virtual time runs. Null without the flag.
Result<std::unique_ptr<engine::RequestLog>> open_simulated_log(const RunOptions& o,
                                                               std::vector<engine::RunPlan>& plans,
                                                               double began_unix_s) {
  const engine::LogFormat format = OPENLOOP_TRY(engine::parse_log_format(o.log_format, "--log-format"));
  if (o.log_requests.empty()) {
    if (o.log_format != "json") return usage_error("--log-format: has no effect without --log-requests FILE");
    return std::unique_ptr<engine::RequestLog>();
  }
  engine::LogContext context;
  for (const auto& r : plans.front().requests) context.request_names.push_back(r.name);
  context.steady_origin = sim::k_epoch;
  context.unix_origin_s = began_unix_s;
  const engine::RunPlan& first = plans.front();
  const unsigned workers = first.workers_total > 0 ? first.workers_total : first.threads;
  auto log = OPENLOOP_TRY(engine::RequestLog::open(o.log_requests, format, workers, std::move(context)));
  for (auto& plan : plans) plan.request_log = log.get();
  return log;
}

// --observe lab in a simulation: the simulated service's /_lab/stats, read as the `lab` source reads a real
// lab's (observe::lab_readings), every 100 ms of virtual time from its start; the readings stamped on the
// Unix clock from the run's start, so they align with the intervals as a real run's do.
class SimulatedLabObserver {
 public:
  static constexpr Nanos k_period = std::chrono::milliseconds(100);
  SimulatedLabObserver(std::string spec, double origin_unix_s)
      : m_spec(std::move(spec)), m_origin_unix_s(origin_unix_s) {}
  void start(sim::Simulator& world) {
    m_world = &world;
    schedule(sim::k_epoch);
  }
  void attach(results::RunResults& r) const {
    results::SamplerStats stats;
    stats.period_s = to_seconds(k_period);
    stats.samples = m_samples;
    stats.wall_s = static_cast<double>(m_samples) * stats.period_s;
    observe::attach_series(r, {m_spec}, m_series, stats, {});
  }

 private:
  void schedule(SteadyTime when) {
    m_world->at(when, [this] {
      sample();
      schedule(m_world->now() + k_period);
    });
  }
  void sample() {
    m_readings.clear();
    observe::lab_readings(sim::service_stats(*m_world), m_readings);
    const double t = m_origin_unix_s + to_seconds(m_world->now() - sim::k_epoch);
    for (const auto& reading : m_readings) {
      auto it = std::find_if(m_series.begin(), m_series.end(),
                             [&](const observe::Series& s) { return s.name == reading.name; });
      if (it == m_series.end()) {
        m_series.push_back({m_spec, reading.name, *reading.meta, to_seconds(k_period), {}});
        it = m_series.end() - 1;
      }
      it->points.emplace_back(t, reading.value);
    }
    ++m_samples;
  }

  std::string m_spec;
  double m_origin_unix_s;
  sim::Simulator* m_world = nullptr;
  std::vector<observe::Series> m_series;
  std::vector<observe::Reading> m_readings;
  std::uint64_t m_samples = 0;
};

// The --observe SPECs a simulation can follow: `lab` (or lab:URL, the URL ignored): its simulated service.
// Others (processes, the host, cgroups, metrics endpoints) have nothing to show in virtual time: refused from
// the flags, left out with a warning from a plan file's `observe:` list. Empty: nothing observed.
Result<std::string> simulated_observe_spec(const RunOptions& o, const std::vector<engine::RunPlan>& plans,
                                           std::vector<std::string>& warnings) {
  const auto is_lab = [](const std::string& spec) { return spec == "lab" || spec.rfind("lab:", 0) == 0; };
  std::string chosen;
  for (const auto& spec : o.observe) {
    if (!is_lab(spec)) {
      return usage_error(fmt::format(
          "--observe {}: a simulation observes only its simulated service (--observe lab: its /_lab/stats "
          "signals every 100 ms of virtual time); processes, the host, cgroups and metrics endpoints have "
          "nothing to show in virtual time",
          spec));
    }
    if (chosen.empty()) chosen = spec;
  }
  if (plans.front().workload) {
    for (const auto& spec : plans.front().workload->observe) {
      if (is_lab(spec)) {
        if (chosen.empty()) chosen = spec;
      } else {
        warnings.push_back(fmt::format(
            "observe: {} (in the plan file) is not observed in a simulation: only its service (lab) is",
            spec));
      }
    }
  }
  return chosen;
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
  auto request_log = open_simulated_log(o, *plans, began_unix_s);
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
                   first.url_text, to_seconds(first.duration), so.lab.empty() ? "(defaults)" : so.lab);
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
    if (log != nullptr) {
      auto finished = log->finish();
      out.results.logged = true;
      out.results.log_written = log->written();
      out.results.log_dropped = log->dropped();
      if (!finished) out.results.warnings.push_back(finished.error().message);
    }
    if (!o.quiet) {
      fmt::print(stderr, "openloop simulate: {} requests simulated in {:.2f} CPU-s ({:.2f} M/CPU-s)\n",
                 attempts, cpu, cpu > 0 ? static_cast<double>(attempts) / cpu / 1e6 : 0.0);
    }
    return out;
  };
  p.summary = [plan_file](const sim::SimulatedRun& r) {
    return plan_file ? report::render_run_summary(r.results) : report::render_summary(r.results);
  };
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

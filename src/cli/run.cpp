// `openloop run`: build the plan, run it with signal handling, print the summary, write the results, exit
// code.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <limits>
#include <optional>

#include <fmt/format.h>
#include <pthread.h>
#include <unistd.h>

#include "cli/command.h"
#include "cli/front_half.h"
#include "cli/grpc_options.h"
#include "cli/metrics_options.h"
#include "cli/observe_options.h"
#include "cli/option_checks.h"
#include "cli/plan_builder.h"
#include "cli/plan_host.h"
#include "cli/run_options.h"
#include "cli/run_pipeline.h"
#include "cli/run_repeats.h"
#include "cli/start_options.h"
#include "core/redact.h"
#include "core/units.h"
#include "engine/coordinator.h"
#include "engine/request_log.h"
#include "report/hlog_export.h"
#include "report/html/html.h"
#include "report/junit.h"
#include "report/live_ticker.h"
#include "report/observed_csv.h"
#include "report/summary.h"
#include "report/summary_legend.h"
#include "results/files/results_json.h"
#include "results/judging/dead_target.h"
#include "results/judging/slo_abort.h"
#include "results/judging/until.h"
#include "workload/grpc_call.h"

namespace openloop::cli {

namespace {

// run_with_live_view, and when `dead` is not null the dead-target watch fed every finalized interval too.
Result<results::RunResults> run_watched(const engine::RunPlan& plan, const RunOptions& o, std::atomic<int>& stop,
                                        results::SloAbort* slo_abort, MetricsServer* metrics,
                                        const observe::Observer* observer, results::UntilWatcher* until,
                                        results::DeadTargetWatch* dead) {
  const auto judge_slos = [&o, &stop, slo_abort, metrics, until, dead](const results::RunResults& so_far) {
    if (metrics != nullptr) metrics->update(so_far);
    if (dead != nullptr && dead->stop_if_dead(so_far, stop) && !o.quiet)
      fmt::print(stderr, "\n{}: stopping early\n", dead->why(so_far));
    if (until != nullptr && until->stop_if_done(so_far, stop) && !o.quiet) {
      fmt::print(stderr, "\nevery --until target holds: stopping; waiting for in-flight requests\n");
    }
    if (slo_abort == nullptr || !slo_abort->stop_if_certain({&so_far}, stop) || o.quiet) return;
    fmt::print(stderr,
               "\nSLO {} is certain to fail: stopping early (--abort-on-slo); waiting for in-flight "
               "requests\n",
               slo_abort->failed()->text);
  };
  if (o.quiet) {
    return engine::run(plan, stop,
                       slo_abort != nullptr || metrics != nullptr || until != nullptr || dead != nullptr
                           ? engine::ProgressFn(judge_slos)
                                                                  : engine::ProgressFn());
  }
  const std::string shard =
      plan.shard.sharded() ? fmt::format("shard {}/{}", plan.shard.index, plan.shard.count) : std::string();
  fmt::print(stderr, "openloop run: {} {} for {}s{} on {} thread(s){}\n", plan.method,
             plan.redact.url(plan.url_text), to_seconds(plan.duration),
             plan.warmup.count() > 0 ? fmt::format(" after {}s warm-up", to_seconds(plan.warmup)) : "",
             plan.threads,
             shard.empty() ? "" : fmt::format(", {} (share {:.3g}%)", shard, 100 * plan.shard.share()));
  const bool terminal = isatty(fileno(stderr)) != 0;
  report::LiveTicker live(
      report::LiveView({plan.warmup, plan.duration, plan.model == engine::Model::open, shard}), stderr, terminal,
      terminal ? std::chrono::seconds(1) : std::chrono::seconds(10), &stop,
      observer != nullptr ? [observer] { return observer->sampler().latest(); }
                          : std::function<std::vector<results::LatestObserved>()>());
  auto results = engine::run(plan, stop, [&live, &judge_slos](const results::RunResults& so_far) {
    live.update(so_far);
    judge_slos(so_far);
  });
  live.stop();
  return results;
}

}  // namespace

// Runs the plan with the live view on stderr (a terminal: redrawn every second; otherwise a line every 10 s;
// --quiet: none) and, with --abort-on-slo, `slo_abort` judging every finalized interval.
Result<results::RunResults> run_with_live_view(const engine::RunPlan& plan, const RunOptions& o,
                                               std::atomic<int>& stop, results::SloAbort* slo_abort,
                                               MetricsServer* metrics, const observe::Observer* observer,
                                               results::UntilWatcher* until) {
  return run_watched(plan, o, stop, slo_abort, metrics, observer, until, nullptr);
}

// Host, cores, version, and the wall-clock start of measurement: the engine's wall time ends about when run()
// returns, so start = now − wall + warm-up (unless the engine already set it).
void stamp_context(results::RunResults& r, const engine::RunPlan& plan,
                   std::chrono::system_clock::time_point ended) {
  r.info.environment.update(run_environment());  // keeps the engine's timer_floor
  if (r.info.start_unix_s == 0) {
    const double ended_s = std::chrono::duration<double>(ended.time_since_epoch()).count();
    r.info.start_unix_s = ended_s - r.generator.wall_seconds + to_seconds(plan.warmup);
  }
}

OutputFile<results::RunResults> observed_companion(const std::string& hlog) {
  return {"--hlog", report::observed_companion_path(hlog),
          [](const results::RunResults& r) -> Result<std::string> { return report::render_observed_csv(r); }};
}

std::vector<OutputFile<results::RunResults>> run_outputs(const RunOptions& o) {
  const std::string source = o.json.empty() ? std::string("this run") : o.json;
  return {
      {"--json", o.json, nullptr,
       [](const results::RunResults& r, const WriteSink& sink) { return results::write_json(r, sink); }},
      {"--hlog", o.hlog, nullptr,
       [](const results::RunResults& r, const WriteSink& sink) { return report::write_interval_log(r, sink); }},
      observed_companion(o.observe.empty() ? std::string() : o.hlog),
      {"--html", o.html, [source](const results::RunResults& r) -> Result<std::string> {
         report::ReportInput in;
         in.source = source;
         in.results = r;
         return report::render_html(in);
       }},
      {"--junit", o.junit, [](const results::RunResults& r) -> Result<std::string> {
         return report::render_junit(report::junit_for_run(r));
       }},
  };
}

int run_exit_code(const results::RunResults& r, const std::string& command) {
  const int code = exit_code_for(r);
  if (code == static_cast<int>(ExitCode::runtime)) {
    std::string why;
    for (const auto& [kind, message] : r.error_examples) why += fmt::format("; {}: {}", kind, message);
    fmt::print(stderr, "{}: no response from {}: every request failed to connect{}\n", command, r.info.target,
               why);
  }
  return code;
}

namespace {

int run_command(const RunOptions& o, const GrpcCall* grpc_call);

// A grpc:// target: the call is prepared (schema, method, message) before anything else, and the run sends it
// as the HTTP/2 request it becomes.
int run_command(const RunOptions& o, const GrpcOptions& g) {
  if (!workload::is_grpc_url(o.url)) {
    if (auto none = check_no_grpc_flags(g); !none) return report_error("openloop run", none.error());
    return run_command(o, nullptr);
  }
  const auto call = prepare_grpc_call(o, g);
  if (!call) return report_error("openloop run", call.error());
  return run_command(call->options, &*call);
}

int run_command(const RunOptions& o, const GrpcCall* grpc_call) {
  const std::string command = "openloop run";
  const auto repeat = parse_repeat_options(o);
  if (!repeat) return report_error(command, repeat.error());
  if (repeat->count > 0) return run_repeated(o, *repeat, grpc_call);
  if (is_plan_file(o.url)) {
    if (!o.until.empty() || !o.max_duration.empty()) {
      return report_error(command, usage_error("--until: not supported with a scenario file yet (use it with a "
                                               "run from flags at one --rate)")
                                       .value());
    }
    return run_plan_file(o);
  }
  std::vector<engine::RunPlan> plans;
  if (auto plan = build_plan(o, host_facts()); plan) {
    plans.push_back(std::move(*plan));
    if (grpc_call != nullptr) {
      if (auto applied = apply_grpc_call(*grpc_call, plans.front()); !applied)
        return report_error(command, applied.error());
    }
  } else {
    return report_error(command, plan.error());
  }
  if (auto resolved = resolve_target({&plans.front()}); !resolved)
    return report_error(command, resolved.error());
  const engine::RunPlan& plan = plans.front();
  std::optional<results::UntilWatcher> until;
  if (!o.until.empty()) {
    auto targets = parse_until_targets(o);
    if (!targets) return report_error(command, targets.error());
    const auto min = parse_duration(o.duration, "--duration");
    if (!min) return report_error(command, min.error());
    until.emplace(std::move(*targets), to_seconds(*min));
  }
  Pipeline<results::RunResults> p;
  p.command = command;
  p.outputs = run_outputs(o);
  auto front = open_front_half(o, command, plans, plan.describe(), o.observe, p.outputs);
  if (!front) return report_error(command, front.error());
  // On a terminal the live view shows the interruption in place of the watcher's own line.
  p.announce = o.quiet || isatty(fileno(stderr)) == 0;
  // With the log on standard output, the summary goes to standard error so a pipe reads only log lines.
  p.summary_to = o.log_requests == "-" ? stderr : stdout;
  p.list_written = !o.quiet;
  // A target nothing answers at is named after the first interval, not after the whole duration.
  results::DeadTargetWatch dead(target_address(plan));
  p.run = [&](std::atomic<int>& stop) -> Result<results::RunResults> {
    Judging& judging = front->judging;
    auto ran = observed(front->observer.get(), [&] {
      return run_watched(plan, o, stop, judging.abort_or_null(), front->metrics.get(), front->observer.get(),
                         until ? &*until : nullptr, &dead);
    });
    finish_request_log(front->request_log.get(), ran);
    auto r = OPENLOOP_TRY(std::move(ran));
    dead.mark(r, stop.load());
    if (judging.abort) judging.abort->mark(r, stop.load());
    if (until) {
      until->mark(r, stop.load());
      r.info.plan["until"] = o.until;
      r.info.plan["min_duration_s"] = until->min_measured_s();
    }
    r.slos = results::evaluate_slos(judging.slos, r);
    stamp_context(r, plan, std::chrono::system_clock::now());
    stamp_start(front->start, r);
    r.dns_ns = plan.dns_time.count();
    // The final totals, as the results file holds them.
    if (front->metrics.server) front->metrics.server->update(r, true);
    if (front->observer) front->observer->attach(r);
    return r;
  };
  p.summary = [legend = wants_legend(o, p.summary_to)](const results::RunResults& r) {
    return report::render_summary(r) + (legend ? report::render_legend(r) : std::string());
  };
  p.exit_code = [&command, &dead](const results::RunResults& r) {
    if (results::never_reached(r, 1)) fmt::print(stderr, "{}: {}\n", command, dead.why(r));
    return run_exit_code(r, command);
  };
  const int code = execute(p);
  front->metrics.linger_after();
  return code;
}

}  // namespace

int exit_code_for(const results::RunResults& r) {
  if (r.interrupted) return static_cast<int>(ExitCode::interrupted);
  if (r.unreachable()) return static_cast<int>(ExitCode::runtime);  // nothing was measured
  if (!r.verdict.valid) return static_cast<int>(ExitCode::invalid_run);
  if (!r.aborted_by_slo.empty() || !results::all_met(r.slos)) return static_cast<int>(ExitCode::slo_failed);
  return static_cast<int>(ExitCode::ok);
}

double planned_intended(const engine::RunPlan& plan) {
  if (plan.user_driven()) return std::numeric_limits<double>::infinity();
  const double expected =
      (plan.profile.total_expected() - plan.profile.cumulative(plan.warmup)) * plan.shard.share();
  // Constant arrivals land within a few of the expected count; a Poisson count varies by about √n, so six
  // standard deviations make the bound safe in practice (a bound too low would abort a run that could still
  // pass).
  const double margin = plan.arrival == workload::ArrivalKind::poisson
                            ? 6 * std::sqrt(expected) + 10
                            : static_cast<double>(plan.threads) + 2;
  const double steps = plan.model == engine::Model::sessions
                           ? static_cast<double>(std::max<std::size_t>(1, plan.steps.size()))
                           : 1.0;
  return (expected + margin) * steps;
}

Action setup_run(CLI::App& sub) {
  auto options = std::make_shared<RunOptions>();
  auto grpc = std::make_shared<GrpcOptions>();
  add_run_options(sub, *options);
  add_repeat_options(sub, *options);
  add_grpc_options(sub, *grpc);
  return [options, grpc] { return run_command(*options, *grpc); };
}

}  // namespace openloop::cli

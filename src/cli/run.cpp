// `openloop run`: build the plan, run it with signal handling, print the summary, write the results, exit code.
#include <atomic>
#include <csignal>
#include <cstdio>
#include <thread>

#include <fmt/format.h>
#include <pthread.h>
#include <unistd.h>

#include "cli/command.h"
#include "cli/run_options.h"
#include "cli/signal_watcher.h"
#include "core/atomic_file.h"
#include "engine/coordinator.h"
#include "report/hlog_export.h"
#include "report/html.h"
#include "report/live_ticker.h"
#include "report/summary.h"
#include "results/results_json.h"

namespace openloop::cli {
namespace {



// Runs the plan with the live view on stderr (a terminal: redrawn every second; otherwise a line every 10 s;
// --quiet: none).
Result<results::RunResults> run_with_live_view(const engine::RunPlan& plan, const RunOptions& o,
                                               std::atomic<int>& stop) {
  if (o.quiet) return engine::run(plan, stop);
  fmt::print(stderr, "openloop run: {} {} for {}s{} on {} thread(s)\n", plan.method, plan.url_text,
             to_seconds(plan.duration),
             plan.warmup.count() > 0 ? fmt::format(" after {}s warm-up", to_seconds(plan.warmup)) : "", plan.threads);
  const bool terminal = isatty(fileno(stderr)) != 0;
  report::LiveTicker live(report::LiveView({plan.warmup, plan.duration, plan.model == engine::Model::open}), stderr,
                          terminal, terminal ? std::chrono::seconds(1) : std::chrono::seconds(10));
  auto results = engine::run(plan, stop, [&live](const results::RunResults& so_far) { live.update(so_far); });
  live.stop();
  return results;
}

// Host, cores, version, and the wall-clock start of measurement: the engine's wall time ends about when run()
// returns, so start = now − wall + warm-up (unless the engine already set it).
void stamp_context(results::RunResults& r, const engine::RunPlan& plan, std::chrono::system_clock::time_point ended) {
  r.info.environment = {{"host", [] {
                           char name[256] = {};
                           gethostname(name, sizeof name - 1);
                           return std::string(name);
                         }()},
                        {"cores", std::thread::hardware_concurrency()},
                        {"openloop_version", OPENLOOP_VERSION}};
  if (r.info.start_unix_s == 0) {
    const double ended_s = std::chrono::duration<double>(ended.time_since_epoch()).count();
    r.info.start_unix_s = ended_s - r.generator.wall_seconds + to_seconds(plan.warmup);
  }
}

// --json, --hlog, --html, each written atomically; the first failure is reported (runtime).
Result<void> write_outputs(const RunOptions& o, const results::RunResults& r) {
  if (!o.json.empty()) OPENLOOP_TRY_VOID(write_file_atomically(o.json, results::to_json(r).dump(1) + "\n"));
  if (!o.hlog.empty()) {
    const std::string log = OPENLOOP_TRY(report::render_interval_log(r));
    OPENLOOP_TRY_VOID(write_file_atomically(o.hlog, log));
  }
  if (!o.html.empty()) {
    report::ReportInput in;
    in.source = o.json.empty() ? std::string("this run") : o.json;
    in.results = r;
    OPENLOOP_TRY_VOID(write_file_atomically(o.html, report::render_html(in)));
  }
  return {};
}

int run_command(const RunOptions& o) {
  if (is_plan_file(o.url)) return run_plan_file(o);
  auto plan = build_plan(o);
  if (!plan) {
    fmt::print(stderr, "openloop run: {}\n", plan.error().message);
    return static_cast<int>(plan.error().code);
  }
  std::atomic<int> stop{0};
  Result<results::RunResults> results;
  {
    SignalWatcher watcher(stop);
    results = run_with_live_view(*plan, o, stop);
  }
  if (!results) {
    fmt::print(stderr, "openloop run: {}\n", results.error().message);
    return static_cast<int>(results.error().code);
  }
  stamp_context(*results, *plan, std::chrono::system_clock::now());
  std::fputs(report::render_summary(*results).c_str(), stdout);
  std::fflush(stdout);
  if (auto written = write_outputs(o, *results); !written) {
    fmt::print(stderr, "openloop run: {}\n", written.error().message);
    return static_cast<int>(ExitCode::runtime);
  }
  const int code = exit_code_for(*results);
  if (code == static_cast<int>(ExitCode::runtime)) {
    std::string why;
    for (const auto& [kind, message] : results->error_examples) why += fmt::format("; {}: {}", kind, message);
    fmt::print(stderr, "openloop run: no response from {}: every request failed to connect{}\n", plan->url_text, why);
  }
  return code;
}

}  // namespace

int exit_code_for(const results::RunResults& r) {
  if (r.interrupted) return static_cast<int>(ExitCode::interrupted);
  const auto& c = r.totals;
  if (c.completed == 0 && c.errors_total() > 0 && c.error(results::ErrorKind::connect) + c.error(results::ErrorKind::tls) == c.errors_total()) {
    return static_cast<int>(ExitCode::runtime);  // the target was unreachable: nothing was measured
  }
  if (!r.verdict.valid) return static_cast<int>(ExitCode::invalid_run);
  return static_cast<int>(ExitCode::ok);
}

Action setup_run(CLI::App& sub) {
  auto options = std::make_shared<RunOptions>();
  add_run_options(sub, *options);
  return [options] { return run_command(*options); };
}

}  // namespace openloop::cli

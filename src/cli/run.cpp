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
#include "core/atomic_file.h"
#include "engine/coordinator.h"
#include "report/summary.h"
#include "results/results_json.h"

namespace openloop::cli {
namespace {

/// Turns SIGINT/SIGTERM into stop requests (first: graceful, second: immediate) on a dedicated thread, so worker
/// threads never see a signal. Blocks the signals for the whole process while alive.
class SignalWatcher {
 public:
  explicit SignalWatcher(std::atomic<int>& stop) : m_stop(stop) {
    sigemptyset(&m_set);
    sigaddset(&m_set, SIGINT);
    sigaddset(&m_set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &m_set, &m_old);
    m_thread = std::thread([this] { watch(); });
  }
  ~SignalWatcher() {
    m_done.store(true);
    m_thread.join();
    pthread_sigmask(SIG_SETMASK, &m_old, nullptr);
  }
  SignalWatcher(const SignalWatcher&) = delete;
  SignalWatcher& operator=(const SignalWatcher&) = delete;

 private:
  void watch() {
    const timespec poll{0, 100'000'000};
    while (!m_done.load()) {
      if (sigtimedwait(&m_set, nullptr, &poll) > 0) {
        const int now = m_stop.load() + 1;
        m_stop.store(now > 2 ? 2 : now);
        std::fputs(now == 1 ? "\ninterrupted: stopping; waiting for in-flight requests (interrupt again to stop now)\n"
                            : "\nstopping now\n",
                   stderr);
      }
    }
  }
  std::atomic<int>& m_stop;
  std::atomic<bool> m_done{false};
  sigset_t m_set{}, m_old{};
  std::thread m_thread;
};

int exit_code_for(const results::RunResults& r) {
  if (r.interrupted) return static_cast<int>(ExitCode::interrupted);
  const auto& c = r.totals;
  if (c.completed == 0 && c.errors_total() > 0 && c.error(results::ErrorKind::connect) + c.error(results::ErrorKind::tls) == c.errors_total()) {
    return static_cast<int>(ExitCode::runtime);  // the target was unreachable: nothing was measured
  }
  if (!r.verdict.valid) return static_cast<int>(ExitCode::invalid_run);
  return static_cast<int>(ExitCode::ok);
}

int run_command(const RunOptions& o) {
  auto plan = build_plan(o);
  if (!plan) {
    fmt::print(stderr, "openloop run: {}\n", plan.error().message);
    return static_cast<int>(plan.error().code);
  }
  std::atomic<int> stop{0};
  Result<results::RunResults> results;
  {
    SignalWatcher watcher(stop);
    if (!o.quiet) {
      fmt::print(stderr, "openloop run: {} {} for {}s{} on {} thread(s)\n", plan->method, plan->url_text,
                 to_seconds(plan->duration), plan->warmup.count() > 0 ? fmt::format(" after {}s warm-up", to_seconds(plan->warmup)) : "",
                 plan->threads);
    }
    results = engine::run(*plan, stop);
  }
  if (!results) {
    fmt::print(stderr, "openloop run: {}\n", results.error().message);
    return static_cast<int>(results.error().code);
  }
  results->info.environment = {{"host", [] {
                                  char name[256] = {};
                                  gethostname(name, sizeof name - 1);
                                  return std::string(name);
                                }()},
                               {"cores", std::thread::hardware_concurrency()},
                               {"openloop_version", OPENLOOP_VERSION}};
  std::fputs(report::render_summary(*results).c_str(), stdout);
  std::fflush(stdout);
  if (!o.json.empty()) {
    auto written = write_file_atomically(o.json, results::to_json(*results).dump(1) + "\n");
    if (!written) {
      fmt::print(stderr, "openloop run: {}\n", written.error().message);
      return static_cast<int>(ExitCode::runtime);
    }
  }
  const int code = exit_code_for(*results);
  if (code == static_cast<int>(ExitCode::runtime)) {
    fmt::print(stderr, "openloop run: no response from {}: every request failed to connect\n", plan->url_text);
  }
  return code;
}

}  // namespace

Action setup_run(CLI::App& sub) {
  auto options = std::make_shared<RunOptions>();
  add_run_options(sub, *options);
  return [options] { return run_command(*options); };
}

}  // namespace openloop::cli

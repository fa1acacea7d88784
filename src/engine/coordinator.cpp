// Worker threads, interval merging and the final results.
#include "engine/coordinator.h"

#include <memory>
#include <thread>
#include <vector>

#include <sys/resource.h>

#include "engine/worker.h"
#include "net/transport.h"
#include "results/aggregator.h"
#include "results/verdict.h"

namespace openloop::engine {

namespace {

void collect(std::vector<std::unique_ptr<Worker>>& workers, results::Aggregator& agg,
             std::vector<results::IntervalStats>& scratch) {
  for (unsigned i = 0; i < workers.size(); ++i) {
    workers[i]->take_intervals(scratch);
    if (!scratch.empty()) agg.add(i, scratch);
  }
}

results::RunInfo describe(const RunPlan& plan) {
  results::RunInfo info;
  info.model = plan.model == Model::open ? "open" : "closed";
  info.arrival = plan.arrival == workload::ArrivalKind::constant ? "constant" : "poisson";
  info.duration_s = to_seconds(plan.duration);
  info.warmup_s = to_seconds(plan.warmup);
  info.timeout_s = to_seconds(plan.timeout);
  info.users = plan.users;
  info.target = plan.url_text;
  if (plan.model == Model::open && plan.duration.count() > 0) {
    const double all = plan.profile.total_expected();
    const double warm = plan.profile.cumulative(plan.warmup);
    info.offered_rps = (all - warm) / info.duration_s;
  }
  info.plan = plan.describe();
  return info;
}

}  // namespace

Result<results::RunResults> run(const RunPlan& plan, std::atomic<int>& stop, const ProgressFn& progress) {
  std::optional<net::TlsContext> tls;
  if (plan.url.tls) tls.emplace(OPENLOOP_TRY(net::TlsContext::create_client(!plan.insecure, plan.ca_file)));

  // Start a little in the future so every worker is ready before the first intended time.
  const SteadyTime start = SteadyClock::now() + std::chrono::milliseconds(20);
  std::vector<std::unique_ptr<Worker>> workers;
  for (unsigned i = 0; i < plan.threads; ++i) {
    workers.push_back(std::make_unique<Worker>(plan, i, tls ? tls->get() : nullptr, stop, start));
    OPENLOOP_TRY_VOID(workers.back()->init());
  }
  std::vector<std::thread> threads;
  threads.reserve(workers.size());
  for (auto& w : workers) threads.emplace_back([&w] { w->run(); });

  results::Aggregator agg(plan.threads, plan.interval);
  std::vector<results::IntervalStats> scratch;
  std::size_t reported = 0;
  for (;;) {
    bool all_done = true;
    for (auto& w : workers) all_done = all_done && w->done();
    collect(workers, agg, scratch);
    if (progress && agg.finalized() != reported) {
      reported = agg.finalized();
      progress(agg.results());
    }
    if (all_done) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  for (auto& t : threads) t.join();
  collect(workers, agg, scratch);
  const SteadyTime finished = SteadyClock::now();

  SteadyTime stopped = start;
  results::GeneratorStats gen;
  gen.threads = plan.threads;
  gen.max_connections = plan.model == Model::open ? plan.max_connections : plan.users;
  for (auto& w : workers) {
    stopped = std::max(stopped, w->report().stopped_scheduling);
    gen.cpu_seconds += w->report().cpu_seconds;
    gen.peak_connections += w->report().peak_connections;
  }
  gen.wall_seconds = to_seconds(finished - start);
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  gen.max_rss_kb = ru.ru_maxrss;

  const bool interrupted = stop.load() != 0;
  const double measured = std::max(0.0, to_seconds(stopped - (start + plan.warmup)));
  results::RunResults r = agg.finish(interrupted ? measured : to_seconds(plan.duration));
  r.info = describe(plan);
  r.generator = gen;
  r.interrupted = interrupted;
  r.verdict = results::judge(r);
  return r;
}

}  // namespace openloop::engine

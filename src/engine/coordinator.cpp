// Worker threads for every plan, interval merging and the final results.
#include "engine/coordinator.h"

#include <algorithm>
#include <exception>
#include <functional>
#include <memory>
#include <semaphore>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <sys/resource.h>

#include "core/clock.h"
#include "core/contention.h"
#include "core/redact.h"
#include "core/thread_cpu.h"
#include "core/thread_name.h"
#include "core/thread_priority.h"
#include "engine/simulated_run.h"
#include "engine/self_checks.h"
#include "engine/timer_floor.h"
#include "engine/worker.h"
#include "net/descriptors.h"
#include "net/simulated_clients.h"
#include "net/transport.h"
#include "results/recording/aggregator.h"
#include "results/judging/generator_tail.h"
#include "results/judging/verdict.h"
#include "workload/key_tracker.h"

namespace openloop::engine {

namespace {

// `data: {order: unique}` ran out of rows: `rowless` sessions never started (not intended, as arrivals
// abandoned behind schedule are not), or closed and pacing users stopped. A warning names them; past the drop
// bound, the verdict too.
void name_spent_rows(const RunPlan& plan, std::uint64_t rowless, const results::VerdictBounds& b,
                     results::RunResults& r) {
  if (plan.model != Model::sessions) {
    r.warnings.push_back(
        fmt::format("users without a row: {} (data: order unique gives each row to one "
                    "iteration; the rows were spent and each of these users stopped there)",
                    rowless));
    return;
  }
  const std::uint64_t arrived = r.flows.sessions_intended + rowless;
  r.warnings.push_back(
      fmt::format("sessions without a row: {} of {} arriving sessions found no data row left "
                  "(data: order unique gives each row to one session) and never started; they "
                  "are not counted as intended",
                  rowless, arrived));
  const double share = static_cast<double>(rowless) / static_cast<double>(arrived);
  if (share <= b.max_dropped_fraction) return;
  r.verdict.valid = false;
  r.verdict.reasons.push_back(fmt::format(
      "{} of {} arriving sessions ({:.2f}% > {:.0f}%) found no data row left (data: order unique) and never "
      "started, so the load applied was not the load planned (add rows, or use order: sequential)",
      rowless, arrived, 100 * share, 100 * b.max_dropped_fraction));
}

/// One plan in flight: its workers, TLS context and aggregator.
struct PlanRun {
  const RunPlan* plan = nullptr;
  std::optional<net::TlsContext> tls;
  std::vector<std::unique_ptr<Worker>> workers;
  std::unique_ptr<results::Aggregator> aggregator;
  results::TimerFloor timer_floor;  // the host's, measured before the run (not in simulated runs)
};

/// CPU time of the calling thread, in ms.
double thread_cpu_ms() { return to_seconds(thread_cpu_time()) * 1e3; }

/// The coordinator's CPU per round and per piece of a round (GeneratorStats::coordinator_*).
struct CoordinatorCpu {
  std::uint64_t rounds = 0;
  double total_ms = 0, max_ms = 0, merge_max_ms = 0, clear_max_ms = 0, progress_max_ms = 0;
  double merge_ms = 0, clear_ms = 0, progress_ms = 0;  // the round in progress

  void end_round(double round_ms) {
    ++rounds;
    total_ms += round_ms;
    max_ms = std::max(max_ms, round_ms);
    merge_max_ms = std::max(merge_max_ms, merge_ms);
    clear_max_ms = std::max(clear_max_ms, clear_ms);
    progress_max_ms = std::max(progress_max_ms, progress_ms);
    merge_ms = clear_ms = progress_ms = 0;
  }
  void write(results::GeneratorStats& g) const {
    g.coordinator_rounds = rounds;
    g.coordinator_cpu_ms_mean = rounds > 0 ? total_ms / static_cast<double>(rounds) : 0.0;
    g.coordinator_cpu_ms_max = max_ms;
    g.coordinator_merge_ms_max = merge_max_ms;
    g.coordinator_clear_ms_max = clear_max_ms;
    g.coordinator_progress_ms_max = progress_max_ms;
  }
};

void collect(PlanRun& p, std::vector<results::IntervalStats>& scratch, CoordinatorCpu* cpu = nullptr) {
  std::vector<results::IntervalStats> spent;
  for (unsigned i = 0; i < p.workers.size(); ++i) {
    p.workers[i]->take_intervals(scratch);
    if (scratch.empty()) continue;
    const double t0 = cpu != nullptr ? thread_cpu_ms() : 0.0;
    p.aggregator->add(i, scratch, &spent);
    const double t1 = cpu != nullptr ? thread_cpu_ms() : 0.0;
    // Cleared here, on the coordinator's time, the spent intervals save the worker allocating new ones.
    for (auto& s : spent) s.clear();
    p.workers[i]->give_spares(spent);
    spent.clear();
    if (cpu != nullptr) {
      cpu->merge_ms += t1 - t0;
      cpu->clear_ms += thread_cpu_ms() - t1;
    }
  }
}

results::RunInfo describe(const RunPlan& plan) {
  results::RunInfo info;
  info.model = plan.model;
  info.arrival = plan.replay                                      ? "replay"
                 : plan.arrival == workload::ArrivalKind::constant ? "constant"
                                                                   : "poisson";
  info.duration_s = to_seconds(plan.duration);
  info.warmup_s = to_seconds(plan.warmup);
  info.timeout_s = to_seconds(plan.timeout);
  // A shard's info is its own part of the plan (users, rates), so its verdict and summary judge that part;
  // info.plan still describes the whole plan.
  info.users = plan.users_part();
  info.target = plan.redact.url(plan.url_text);  // shown in the summary, the HTML title, the .hlog header
  for (const auto& r : plan.requests) info.request_names.push_back(r.name);
  if (plan.model == Model::pacing) {
    const double cap = plan.max_rate_part();
    double rate =
        plan.pacing.count() > 0 ? static_cast<double>(plan.users_part()) / to_seconds(plan.pacing) : 0.0;
    if (cap > 0) rate = rate > 0 ? std::min(rate, cap) : cap;
    info.configured_iterations_per_s = rate;
  }
  if ((plan.model == Model::open || plan.model == Model::sessions) && plan.duration.count() > 0) {
    const double all = plan.profile.total_expected();
    const double warm = plan.profile.cumulative(plan.warmup);
    info.offered_rps = (all - warm) * plan.shard.share() / info.duration_s;
  }
  info.plan = plan.describe();
  return info;
}

// The host's floor as the run records it: measured before the run, with what --spin-below auto made of it
// (each worker's spin lead and budget, set when it was initialised) and, once the workers are done, how late
// their own timed waits woke during the run (every worker's merged).
results::TimerFloor run_timer_floor(const PlanRun& p) {
  results::TimerFloor floor = p.timer_floor;
  hdr::Histogram woke = results::make_latency_histogram();
  floor.spin_budget_low = p.workers.empty() ? 0.0 : p.workers.front()->report().spin_budget;
  for (const auto& w : p.workers) {
    floor.spin_lead_us = std::max(floor.spin_lead_us, to_seconds(w->report().spin_lead) * 1e6);
    floor.spin_budget = w->report().spin_budget;
    floor.spin_budget_low = std::min(floor.spin_budget_low, w->report().spin_budget_low);
    woke.add(w->report().wake_lateness);
  }
  if (floor.samples > 0 && woke.total_count() > 0) {
    floor.run_samples = static_cast<std::uint64_t>(woke.total_count());
    floor.run_p50_us = static_cast<double>(woke.value_at_percentile(50)) / 1e3;
    floor.run_p99_us = static_cast<double>(woke.value_at_percentile(99)) / 1e3;
    floor.run_max_us = static_cast<double>(woke.max()) / 1e3;
  }
  return floor;
}

// The workers start at a provisional time: run_all fixes the start once every plan's workers are set up.
Result<PlanRun> prepare(const RunPlan& plan, std::atomic<int>& stop, Nanos spin_below,
                        const results::TimerFloor& floor) {
  const SteadyTime start = SteadyClock::now();
  PlanRun p;
  p.plan = &plan;
  p.timer_floor = floor;
  const MeasuredWaits measured{spin_below, auto_spin_lead(floor, planned_lateness_bound(plan)), floor.given};
  if (plan.url.tls)
    p.tls.emplace(OPENLOOP_TRY(net::TlsContext::create_client(!plan.insecure, plan.ca_file, plan.alpn_offer())));
  for (unsigned i = 0; i < plan.threads; ++i) {
    p.workers.push_back(std::make_unique<Worker>(plan, i, p.tls ? p.tls->get() : nullptr, stop, start));
    OPENLOOP_TRY_VOID(p.workers.back()->init(measured));
  }
  p.aggregator = std::make_unique<results::Aggregator>(plan.threads, plan.interval);
  // The results so far carry the floor too: a step judged live (ramp) names the same cause as one judged
  // again from the file (`openloop report ramp.json`).
  results::RunInfo live;
  results::set_timer_floor(live, run_timer_floor(p));
  p.aggregator->set_info(std::move(live));
  return p;
}

// Every worker's key trackers merged per template, as single-key warnings (seed 000's single-SKU story).
std::vector<std::string> key_warnings(const RunPlan& plan,
                                      const std::vector<std::unique_ptr<Worker>>& workers,
                                      const results::Counters& totals) {
  if (!plan.workload) {
    // A run from flags sends one constant request: its key is the target itself.
    workload::KeyTracker one;
    if (totals.sent > 0) one.observe(plan.url_text, totals.sent);
    const workload::RequestKeys keys[] = {{plan.requests.front().name, false, &one}};
    return workload::single_key_warnings(keys);
  }
  const auto& templates = plan.workload->requests;
  std::vector<workload::KeyTracker> merged(templates.size());
  for (const auto& w : workers) {
    for (std::size_t i = 0; i < w->report().keys.size() && i < merged.size(); ++i)
      merged[i].merge(w->report().keys[i]);
  }
  std::vector<workload::RequestKeys> keys;
  for (std::size_t i = 0; i < templates.size(); ++i) {
    if (merged[i].requests() > 0)
      keys.push_back({templates[i].name(), templates[i].has_variables(), &merged[i]});
  }
  return workload::single_key_warnings(keys);
}

// The single-key warnings at the end of a run. A server whose every Server-Timing that spoke of a cache said it has
// none (`cache;desc=off`: the lab without --cache) was not measured through one: no warning. One that reported
// hits and misses gets its hit share beside the warning.
std::vector<std::string> single_key_warnings(const RunPlan& plan,
                                             const std::vector<std::unique_ptr<Worker>>& workers,
                                             const results::Counters& totals,
                                             const results::ServerTimingStats& timing) {
  if (timing.cache_off > 0 && timing.cache_hit == 0 && timing.cache_miss == 0) return {};
  std::vector<std::string> warnings = key_warnings(plan, workers, totals);
  if (const std::uint64_t looked_up = timing.cache_hit + timing.cache_miss; looked_up > 0) {
    for (std::string& w : warnings) {
      w += fmt::format(" (the server's Server-Timing reported {} of {} responses as cache hits)", timing.cache_hit,
                       looked_up);
    }
  }
  return warnings;
}

// --session-key: what the replayed sessions did to the trace's schedule, summed over the workers: records
// delayed by their session and by how much in all, the most sessions open and records held at once (each
// worker's peak, summed), and records dropped beyond the held limit.
results::ReplaySessionStats session_stats(const std::vector<std::unique_ptr<Worker>>& workers) {
  results::ReplaySessionStats sum;
  sum.replayed = true;
  for (const auto& w : workers) {
    const workload::SessionPacer::Counts& c = w->report().sessions;
    sum.delayed += c.delayed;
    sum.delay_s += to_seconds(c.delay);
    sum.sessions_peak += c.sessions_peak;
    sum.held_peak += c.held_peak;
    sum.dropped += c.overflow;
  }
  return sum;
}

// The same counts in one line of the run's warnings (the summary and the results' `warnings`).
std::string session_note(const results::ReplaySessionStats& sum) {
  std::string note = fmt::format(
      "replay sessions: {} records delayed by their session's earlier responses, {:.6f} s in all; at most {} "
      "sessions open and {} records held at once",
      sum.delayed, sum.delay_s, sum.sessions_peak, sum.held_peak);
  if (sum.dropped > 0) {
    note += fmt::format(
        "; {} records dropped because a worker already held as many as it may (65,536) waiting for their "
        "sessions' responses",
        sum.dropped);
  }
  return note;
}

results::RunResults finish(PlanRun& p, const std::atomic<int>& stop, SteadyTime start, SteadyTime finished,
                           bool simulated = false, std::optional<double> steal = std::nullopt) {
  const RunPlan& plan = *p.plan;
  SteadyTime stopped = start + plan.start_offset;
  results::GeneratorStats gen;
  gen.threads = plan.threads;
  gen.max_connections = plan.model == Model::open       ? plan.max_connections_part()
                        : plan.model == Model::sessions ? plan.max_sessions_part()
                                                        : plan.users_part();
  results::TimerFloor floor = run_timer_floor(p);
  for (auto& w : p.workers) {
    stopped = std::max(stopped, w->report().stopped_scheduling);
    gen.cpu_seconds += w->report().cpu_seconds;
    gen.spin_seconds += w->report().spin_seconds;
    gen.spin_below_us = std::max(gen.spin_below_us, to_seconds(w->report().spin_below) * 1e6);
    gen.peak_connections += w->report().peak_connections;
    gen.connections_h1 += w->report().ready_by_protocol[static_cast<std::size_t>(Protocol::http1)];
    gen.connections_h2 += w->report().ready_by_protocol[static_cast<std::size_t>(Protocol::http2)];
    gen.abandoned += w->report().abandoned;
    if (const auto d = w->report().run_delay)
      gen.run_delay_seconds = gen.run_delay_seconds.value_or(0.0) + to_seconds(*d);
  }
  gen.wall_seconds = to_seconds(finished - start);
  // Spinning is timed by the clock, so a preempted spinner's exceeds the CPU it got: counted up to that CPU.
  if (gen.wall_seconds > 0 && plan.threads > 0)
    floor.spin_spent = std::min(gen.spin_seconds, gen.cpu_seconds) / (gen.wall_seconds * plan.threads);
  if (simulated) {
    gen.cpu_seconds = gen.spin_seconds = 0;  // this process's, not the simulated client's
  } else {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    gen.max_rss_kb = ru.ru_maxrss;
    gen.steal_share = steal;
  }

  const bool interrupted = stop.load() != 0;
  const double measured = std::max(0.0, to_seconds(stopped - (start + plan.start_offset + plan.warmup)));
  results::RunResults r = p.aggregator->finish(interrupted ? std::min(measured, to_seconds(plan.duration))
                                                           : to_seconds(plan.duration));
  r.info = describe(plan);
  results::set_timer_floor(r.info, floor);  // before the verdict, which names it when sends were late
  r.dns_ns = plan.dns_time.count();  // every command's run, however its plan was built (−1: not timed)
  r.generator = gen;
  r.interrupted = interrupted;
  results::VerdictBounds bounds;
  if (plan.max_lateness.count() > 0) bounds.lateness_floor_ms = to_seconds(plan.max_lateness) * 1e3;
  r.checks = self_check(plan, p.workers, r.response_time,
                        {results::lateness_bound_ms(r, bounds) * 1e6, plan.accept_bunching});
  r.verdict = results::judge(r, bounds);
  for (std::size_t k = 0; k < results::k_error_kinds; ++k) {
    for (auto& w : p.workers) {
      if (w->report().first_error[k].empty()) continue;
      r.error_examples.emplace_back(results::to_string(static_cast<results::ErrorKind>(k)),
                                    w->report().first_error[k]);
      break;
    }
  }
  // Timeouts are no error kind, but when the protocol said what one waited for, that is their example.
  for (auto& w : p.workers) {
    if (w->report().first_stall.empty()) continue;
    r.error_examples.emplace_back("timeout", w->report().first_stall);
    break;
  }
  // Flow steps' failures: a few examples per step, each for another set of failed captures and checks, the
  // first worker's of each key.
  for (auto& w : p.workers) {
    for (const auto& example : w->report().flow_examples) {
      const auto same = [&](const auto& e) { return e.first == example.first; };
      if (std::none_of(r.error_examples.begin(), r.error_examples.end(), same))
        r.error_examples.push_back(example);
    }
  }
  for (auto& w : single_key_warnings(plan, p.workers, r.totals, r.server_timing))
    r.warnings.push_back(std::move(w));
  if (plan.replay)
    for (auto& note : plan.replay->notes()) r.warnings.push_back(std::move(note));
  if (plan.replay && plan.replay->request.options.session_key.any()) {
    r.replay_sessions = session_stats(p.workers);
    r.warnings.push_back(session_note(r.replay_sessions));
  }
  if (std::string tail = results::generator_tail_warning(r); !tail.empty()) r.warnings.push_back(std::move(tail));
  for (auto& w : p.workers) {
    if (w->report().loop_failure.empty()) continue;
    r.verdict.valid = false;
    r.verdict.reasons.push_back(w->report().loop_failure +
                                "; the worker stopped there and its requests in flight are unfinished");
  }
  std::uint64_t rowless = 0;
  for (auto& w : p.workers) rowless += w->report().sessions_without_row;
  if (rowless > 0) name_spent_rows(plan, rowless, bounds, r);
  return r;
}

// Merges the workers' intervals every 50 ms until every worker is done, reporting progress on the way; a worker
// that finishes (`worker_done` released) wakes it at once, so the run ends when its last worker does, not up to 50 ms
// later.
void coordinate(std::vector<PlanRun>& runs, const MultiProgressFn& progress, CoordinatorCpu& cpu,
                std::counting_semaphore<>& worker_done) {
  std::vector<results::IntervalStats> scratch;
  std::size_t reported = 0;
  for (;;) {
    const double round_start = thread_cpu_ms();
    bool all_done = true;
    std::size_t finalized = 0;
    for (auto& p : runs) {
      for (auto& w : p.workers) all_done = all_done && w->done();
      collect(p, scratch, &cpu);
      finalized += p.aggregator->finalized();
    }
    for (auto& p : runs) {
      std::uint64_t in_flight = 0, open = 0;
      for (auto& w : p.workers) {
        in_flight += w->in_flight();
        open += w->connections_open();
      }
      p.aggregator->set_in_flight(in_flight, open);
    }
    if (progress && finalized != reported) {
      reported = finalized;
      std::vector<const results::RunResults*> so_far;
      for (auto& p : runs) so_far.push_back(&p.aggregator->results());
      const double t0 = thread_cpu_ms();
      progress(so_far);
      cpu.progress_ms += thread_cpu_ms() - t0;
    }
    cpu.end_round(thread_cpu_ms() - round_start);
    if (all_done) break;
    (void)worker_done.try_acquire_for(std::chrono::milliseconds(50));
  }
}

}  // namespace

Result<std::vector<results::RunResults>> run_all(const std::vector<RunPlan>& plans, std::atomic<int>& stop,
                                                 const MultiProgressFn& progress) {
  // A plan the machine cannot generate is refused before anything is sent (or any descriptor reserved).
  const Nanos resolution = steady_clock_resolution();
  for (const auto& plan : plans) {
    OPENLOOP_TRY_VOID(check_feasible(plan, resolution));
    // The CLI resolves every plan's target; a plan built elsewhere may not have: say so, before any worker
    // dereferences an endpoint it does not have.
    if (plan.endpoints.empty()) {
      return usage_error(fmt::format("the target {} of {} was not resolved (RunPlan::endpoints is empty); "
                                     "resolve it first (net::resolve)",
                                     plan.url_text.empty() ? "(none)" : plan.url_text,
                                     plan.scenario.empty() ? "the plan" : "scenario \"" + plan.scenario + "\""));
    }
  }
  // Size the descriptor table for every connection the plans may open, before the run (growing it later would
  // stall the loop that opens the connection).
  // One descriptor per connection (not per slot: a multiplexed connection carries several).
  std::uint64_t descriptors = 64;
  for (const auto& plan : plans)
    descriptors += std::max({plan.max_connections, plan.max_sessions, plan.users});
  net::reserve_descriptor_table(descriptors);
  // Measure what a timed wait costs (a few ms) before the clock starts, for this run: the machine's load may
  // differ from an earlier run's in the same process.
  const Nanos spin_below =
      std::any_of(plans.begin(), plans.end(), [](const RunPlan& p) { return !p.spin_below; })
          ? auto_spin_below()
          : Nanos(0);
  // How late this host wakes a sleeping thread, at the plans' gap (at most 60 ms): recorded for the verdict,
  // which names it when sends were late, and the lead --spin-below auto spins through.
  const results::TimerFloor floor = host_timer_floor(calibration_gap(plans));
  std::vector<PlanRun> runs;
  for (const auto& plan : plans)
    runs.push_back(OPENLOOP_TRY(prepare(plan, stop, spin_below, floor)));
  // Start a little in the future so every worker is ready before the first intended time, fixed after the
  // workers' set-up (prepare), whose length grows with the cap (tens to hundreds of ms for thousands of
  // slots) and would otherwise make the first arrivals late. An anchor (--start-at, the probe's) is the start
  // exactly, even when the set-up ran past it: shards merge by interval index and the probe's trigger runs on
  // the anchor's clock, so their schedules must share its origin; sends the set-up made late count as send
  // lateness, as any other.
  const SteadyTime now = SteadyClock::now();
  const double now_unix_s =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  SteadyTime anchor{};
  for (const auto& plan : plans) anchor = std::max(anchor, plan.start_at);
  const SteadyTime start = anchor != SteadyTime{} ? anchor : now + k_start_delay;
  const double start_unix_s = now_unix_s + to_seconds(start - now);
  for (auto& p : runs)
    for (auto& w : p.workers) w->set_start(start);
  // The hypervisor's steal over the run, machine-wide: it stalls workers as surely as an overloaded core.
  const std::optional<CpuTicks> ticks_before = read_cpu_ticks();
  std::vector<std::thread> threads;
  std::counting_semaphore<> worker_done(0);
  for (auto& p : runs) {
    for (auto& w : p.workers) {
      threads.emplace_back([worker = w.get(), n = threads.size(), &worker_done] {
        name_this_thread(fmt::format("openloop-w{}", n));
        worker->run();
        worker_done.release();
      });
    }
  }
  // The coordinator's work (merging, the live view, the progress callback) comes in bursts each interval
  // (generator.coordinator_cpu_ms); on a thread of its own under SCHED_IDLE it waits for a worker sharing its
  // core instead of delaying that worker's sends: a waking normal thread always preempts a SCHED_IDLE one,
  // while under EEVDF it may wait out a nice-19 thread's slice (a few ms). Only that thread's policy changes:
  // threads inherit their creator's, so changing the caller's would start every later run's workers (ramp
  // --fresh, probe --repeats) under SCHED_IDLE too, and an unprivileged process cannot undo it.
  std::exception_ptr failed;
  CoordinatorCpu cpu;
  std::thread coordinator([&] {
    lower_this_thread_priority();
    name_this_thread("openloop-coord");  // after: a bench that finds it by name sees its policy settled
    try {
      coordinate(runs, progress, cpu, worker_done);
    } catch (...) {
      failed = std::current_exception();
      stop.store(static_cast<int>(StopRequest::immediate));
    }
  });
  coordinator.join();
  for (auto& t : threads) t.join();
  if (failed) std::rethrow_exception(failed);
  const SteadyTime finished = SteadyClock::now();
  std::optional<double> steal;
  if (const auto ticks_after = ticks_before ? read_cpu_ticks() : std::nullopt)
    steal = steal_share(*ticks_before, *ticks_after);
  std::vector<results::IntervalStats> scratch;
  std::vector<results::RunResults> out;
  for (auto& p : runs) {
    collect(p, scratch);
    out.push_back(finish(p, stop, start, finished, false, steal));
    cpu.write(out.back().generator);  // the one coordinator serves every plan: each result shows it whole
    out.back().info.start_unix_s = start_unix_s + to_seconds(p.plan->start_offset + p.plan->warmup);
  }
  return out;
}

Result<results::RunResults> run_simulated(const RunPlan& plan, net::SimulatedNetwork& net, SteadyTime start,
                                          std::atomic<int>& stop, const ProgressFn& progress) {
  if (plan.threads != 1) return usage_error("a simulated run has one worker thread (--threads 1)");
  PlanRun p;
  p.plan = &plan;
  p.workers.push_back(std::make_unique<Worker>(plan, 0, nullptr, stop, start));
  OPENLOOP_TRY_VOID(p.workers.back()->init({}, &net));
  p.aggregator = std::make_unique<results::Aggregator>(1, plan.interval);
  std::vector<results::IntervalStats> scratch;
  // The coordinator's merging, on virtual time: a worker's finished intervals are handed over as they would
  // be in a real run, and their memory is reused.
  std::size_t reported = 0;
  net.every(plan.interval, [&p, &scratch, &progress, &reported] {
    collect(p, scratch);
    if (progress && p.aggregator->finalized() != reported) {
      reported = p.aggregator->finalized();
      progress(p.aggregator->results());
    }
  });
  p.workers.front()->run();
  net.every(Nanos(0), {});
  collect(p, scratch);
  return finish(p, stop, start, net.now(), true);
}

Result<std::vector<results::RunResults>> run_simulated_all(const std::vector<RunPlan>& plans,
                                                           net::SimulatedNetwork& net, SteadyTime start,
                                                           std::atomic<int>& stop,
                                                           const MultiProgressFn& progress) {
  if (plans.empty()) return usage_error("nothing to simulate: no plan");
  for (const auto& plan : plans) {
    if (plan.threads != 1) return usage_error("a simulated run has one worker thread per plan (--threads 1)");
  }
  if (plans.size() == 1) {
    ProgressFn one;
    if (progress) one = [&progress](const results::RunResults& r) { progress({&r}); };
    auto r = OPENLOOP_TRY(run_simulated(plans.front(), net, start, stop, one));
    std::vector<results::RunResults> out;
    out.push_back(std::move(r));
    return out;
  }
  // Each plan's worker on a fiber of its own, all on the one network: the scenarios share the service as
  // they would share a real server.
  net::SimulatedClients clients(net, plans.size());
  std::vector<PlanRun> runs;
  Nanos period = plans.front().interval;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    PlanRun p;
    p.plan = &plans[i];
    p.workers.push_back(std::make_unique<Worker>(plans[i], 0, nullptr, stop, start));
    OPENLOOP_TRY_VOID(p.workers.back()->init({}, &clients.client(i)));
    p.aggregator = std::make_unique<results::Aggregator>(1, plans[i].interval);
    period = std::min(period, plans[i].interval);
    runs.push_back(std::move(p));
  }
  std::vector<results::IntervalStats> scratch;
  std::size_t reported = 0;
  net.every(period, [&runs, &scratch, &progress, &reported] {
    std::size_t finalized = 0;
    for (auto& p : runs) {
      collect(p, scratch);
      finalized += p.aggregator->finalized();
    }
    if (progress && finalized != reported) {
      reported = finalized;
      std::vector<const results::RunResults*> so_far;
      for (auto& p : runs) so_far.push_back(&p.aggregator->results());
      progress(so_far);
    }
  });
  std::vector<std::function<void()>> bodies;
  for (auto& p : runs) bodies.emplace_back([worker = p.workers.front().get()] { worker->run(); });
  clients.run(bodies);
  net.every(Nanos(0), {});
  std::vector<results::RunResults> out;
  for (auto& p : runs) {
    collect(p, scratch);
    out.push_back(finish(p, stop, start, net.now(), true));
  }
  return out;
}

Result<results::RunResults> run(const RunPlan& plan, std::atomic<int>& stop, const ProgressFn& progress) {
  MultiProgressFn each;
  if (progress)
    each = [&progress](const std::vector<const results::RunResults*>& so_far) { progress(*so_far.front()); };
  auto all = OPENLOOP_TRY(run_all({plan}, stop, each));
  return std::move(all.front());
}

}  // namespace openloop::engine

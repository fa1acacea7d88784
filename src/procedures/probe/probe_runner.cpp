// One probe run: the engine on the calling thread, a control thread for lab triggers, polling and early stop.
#include "procedures/probe/probe_runner.h"
#include "procedures/probe/probe_format.h"

#include <algorithm>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "core/units.h"
#include "engine/coordinator.h"
#include "procedures/probe/lab_driver.h"
#include "results/judging/verdict.h"
#include "results/merging/slice_run.h"

namespace openloop::procedures {
namespace {

constexpr auto k_tick = std::chrono::milliseconds(50);
constexpr auto k_poll_every = std::chrono::seconds(1);
constexpr int k_poll_failures_to_give_up = 3;
// From run_probe's call to the schedule's anchor: longer than the engine's calibrations before a run (the
// timer floor's ~60 ms of waits, the spin cost, the descriptor table) even on a loaded host.
constexpr auto k_calibration_margin = std::chrono::milliseconds(500);

}  // namespace

std::optional<LabSample> lab_sample_of(const nlohmann::json& s, double t_s) {
  if (!s.is_object() || !s.contains("queue_depth")) return std::nullopt;
  LabSample x;
  x.t_s = t_s;
  x.frozen = s.value("frozen", false);
  x.queue_depth = s.value("queue_depth", std::uint64_t{0});
  x.held = s.value("held", std::uint64_t{0});
  x.busy_workers = s.value("busy_workers", std::uint64_t{0});
  x.dependency_waiting = s.value("dependency_waiting", std::uint64_t{0});
  x.completed = s.value("completed", std::uint64_t{0});
  x.ok = s.value("ok", std::uint64_t{0});
  x.shed = s.value("shed", std::uint64_t{0});
  x.rejected = s.value("rejected", std::uint64_t{0});
  x.expired = s.value("expired", std::uint64_t{0});
  return x;
}

namespace {

/// The control thread: lab trigger at the phase boundaries, stats polling, stop forwarding, early stop.
class ControlLoop {
 public:
  ControlLoop(const ProbePlan& plan, const ProbeContext& ctx, SteadyTime measure_start,
              std::atomic<int>& engine_stop, std::atomic<int>& user_stop)
      : m_plan(plan),
        m_ctx(ctx),
        m_measure_start(measure_start),
        m_engine_stop(engine_stop),
        m_user_stop(user_stop) {
    if (plan.settings.trigger.needs_lab() && ctx.lab) {
      const Nanos length = plan.phase(Phase::Kind::trigger).length;
      m_driver.emplace(*ctx.lab, plan.settings.trigger, length);
    }
    m_thread = std::thread([this] { loop(); });
  }
  ~ControlLoop() { finish(); }
  ControlLoop(const ControlLoop&) = delete;
  ControlLoop& operator=(const ControlLoop&) = delete;

  /// What went wrong with the lab: applying the trigger (the probe measured nothing it meant to), or undoing
  /// it (the rest of the run, and the lab afterwards, may have kept the trigger's settings).
  struct LabErrors {
    std::optional<Error> begin, restore;
  };
  /// Ends the thread and undoes the trigger; idempotent. Returns the first error of each kind the lab gave.
  LabErrors finish() {
    m_done.store(true);
    if (m_thread.joinable()) m_thread.join();
    if (m_driver) note_restore(m_driver->end());
    return m_errors;
  }
  void recovered_at_base() { m_recovered.store(true); }
  bool stopped_early() const { return m_stopped_early; }
  std::vector<LabSample>& lab() { return m_lab; }
  std::vector<std::string> actions() const {
    return m_driver ? m_driver->actions() : std::vector<std::string>{};
  }

 private:
  void note_begin(const Result<void>& r) {
    if (!r && !m_errors.begin) m_errors.begin = r.error();
  }
  void note_restore(const Result<void>& r) {
    if (!r && !m_errors.restore) m_errors.restore = r.error();
  }
  void log_phase(double t) {
    for (; m_next_phase < m_plan.phases.size() && to_seconds(m_plan.phases[m_next_phase].start) <= t;
         ++m_next_phase) {
      const Phase& p = m_plan.phases[m_next_phase];
      if (m_ctx.log == nullptr) continue;
      const std::string what = p.kind == Phase::Kind::trigger ? describe(m_plan.settings.trigger, p.length)
                                                              : fmt::format("at {}", rate_of(p.rate));
      fmt::print(m_ctx.log, "[{:4.0f}s] {} {}\n", to_seconds(p.start), p.name(), what);
      std::fflush(m_ctx.log);
    }
  }
  void drive_trigger(double t) {
    if (!m_driver) return;
    const Phase& trigger = m_plan.phase(Phase::Kind::trigger);
    if (!m_begun && t >= to_seconds(trigger.start)) {
      m_begun = true;
      note_begin(m_driver->begin());
      if (m_errors.begin) m_engine_stop.store(2);  // a probe without its trigger measures nothing
    }
    // A stall ends by itself in the lab; a dependency change is undone here.
    if (m_begun && t >= to_seconds(trigger.end()) &&
        m_plan.settings.trigger.kind == Trigger::Kind::dependency) {
      note_restore(m_driver->end());
    }
  }
  void poll(double t) {
    if (!m_ctx.poll_lab || !m_ctx.lab || m_poll_failures >= k_poll_failures_to_give_up) return;
    const SteadyTime now = SteadyClock::now();
    if (now < m_next_poll) return;
    m_next_poll = now + k_poll_every;
    auto stats = m_ctx.lab->stats();
    auto sample = stats ? lab_sample_of(*stats, t) : std::nullopt;
    if (!sample) {
      ++m_poll_failures;
      return;
    }
    m_poll_failures = 0;
    m_lab.push_back(*sample);
  }
  void loop() {
    const bool descends = m_plan.phases.back().kind == Phase::Kind::descend;
    const double observe_end = to_seconds(m_plan.phase(Phase::Kind::observe).end());
    while (!m_done.load()) {
      const double t = to_seconds(SteadyClock::now() - m_measure_start);
      if (const int u = m_user_stop.load(); u > m_engine_stop.load()) m_engine_stop.store(u);
      if (m_user_stop.load() != 0 && m_driver) note_restore(m_driver->end());
      log_phase(t);
      drive_trigger(t);
      if (descends && m_recovered.load() && t >= observe_end && m_engine_stop.load() == 0) {
        m_stopped_early = true;
        m_engine_stop.store(1);
      }
      poll(t);
      std::this_thread::sleep_for(k_tick);
    }
  }

  const ProbePlan& m_plan;
  const ProbeContext& m_ctx;
  SteadyTime m_measure_start;
  std::atomic<int>& m_engine_stop;
  std::atomic<int>& m_user_stop;
  std::optional<LabDriver> m_driver;
  std::atomic<bool> m_done{false}, m_recovered{false};
  bool m_begun = false, m_stopped_early = false;
  std::size_t m_next_phase = 0;
  SteadyTime m_next_poll{};
  int m_poll_failures = 0;
  std::vector<LabSample> m_lab;
  LabErrors m_errors;
  std::thread m_thread;
};

std::vector<std::string> baseline_slo_failures(const std::vector<results::SloResult>& slos) {
  std::vector<std::string> out;
  for (const auto& s : slos) {
    if (!s.evaluated || !s.met) out.push_back(fmt::format("{} (measured {})", s.slo.text, s.measured_text));
  }
  return out;
}

}  // namespace

ProbeProgress::ProbeProgress(const ProbePlan& plan, std::FILE* log) : m_plan(plan), m_log(log) {}

bool ProbeProgress::update(const results::RunResults& so_far) {
  auto fresh = samples_of(so_far, m_samples.size());
  if (!fresh) return m_recovered;
  for (auto& s : *fresh) m_samples.push_back(std::move(s));
  log_status();
  if (!m_recovered) check_window();
  return m_recovered;
}

void ProbeProgress::log_status() {
  if (m_log == nullptr || m_samples.size() < m_logged + 5) return;
  m_logged = m_samples.size();
  const auto last = std::span<const Sample>(m_samples).last(5);
  const Stats s = stats_of(last);
  std::string phase = "?";
  for (const Phase& p : m_plan.phases) {
    if (last.back().start_s >= to_seconds(p.start) - 1e-6) phase = p.name();
  }
  fmt::print(m_log, "[{:4.0f}s] {:<9} goodput {:>9}  p99 {:>8}  in flight {:.1f}\n",
             last.back().start_s + last.back().length_s, phase, rate_of(s.goodput),
             format_duration(Nanos(s.p99_ns)), s.in_flight);
  std::fflush(m_log);
}

void ProbeProgress::check_window() {
  const Phase& baseline = m_plan.phase(Phase::Kind::baseline);
  const Phase& observe = m_plan.phase(Phase::Kind::observe);
  const ProbeSettings& s = m_plan.settings;
  if (!m_baseline) {
    const auto span = span_of(m_samples, baseline.start, baseline.end());
    if (span.size() < static_cast<std::size_t>(to_seconds(baseline.length) + 0.5)) return;
    m_baseline = judge_baseline(span);
  }
  if (!m_baseline->steady) return;
  const auto span = span_of(m_samples, observe.start, observe.end());
  const auto w = static_cast<std::size_t>(to_seconds(s.window) + 0.5);
  for (; m_next_window + w <= span.size(); ++m_next_window) {
    if (judge_window(span.subspan(m_next_window, w), observe.rate, m_baseline->stats, s.base_rate, s.criteria)
            .met) {
      m_recovered = true;
      return;
    }
  }
}

Result<results::RunResults> phase_results(const results::RunResults& r, Nanos start, Nanos end) {
  results::GoodputDeadline none;  // a phase counts the run's own ok responses
  return results::slice_run(r, to_seconds(start), to_seconds(end), none);
}

namespace {

// Everything classify() needs besides the samples; judges the baseline's SLOs into `run` on the way.
Result<RunFacts> facts_of(ProbeRun& run, const ProbePlan& plan, const ProbeContext& ctx, bool stopped_early) {
  RunFacts facts;
  // Drops and the sent share are judged per phase, send lateness per compared phase (classify): a whole-run
  // average would hide a baseline that missed the plan, and a generator busy opening connections during a
  // spike does not make the baseline and the observe phase incomparable. The CPU bound is the run's.
  results::VerdictBounds cpu_only;
  cpu_only.max_dropped_fraction = 1.0;
  cpu_only.min_sent_fraction = 0.0;
  cpu_only.lateness_floor_ms = 1e12;
  cpu_only.judge_arrivals = false;
  const results::Verdict applied = results::judge(run.results, cpu_only);
  facts.valid = applied.valid;
  facts.reasons = applied.reasons;
  facts.unreachable = run.results.unreachable();
  facts.interrupted = run.results.interrupted;
  facts.timeout_s = run.results.info.timeout_s;
  facts.stopped_after_recovery = stopped_early;
  facts.lab = run.lab;
  if (!ctx.slos.empty()) {
    const Phase& baseline = plan.phase(Phase::Kind::baseline);
    const auto base = OPENLOOP_TRY(phase_results(run.results, baseline.start, baseline.end()));
    run.baseline_slos = results::evaluate_slos(ctx.slos, base);
    facts.baseline_slo_failures = baseline_slo_failures(run.baseline_slos);
  }
  return facts;
}

}  // namespace

Result<ProbeRun> run_probe(const engine::RunPlan& run_plan, const ProbePlan& plan, const ProbeContext& ctx,
                           std::atomic<int>& user_stop) {
  std::atomic<int> engine_stop{0};
  ProbeProgress watch(plan, ctx.log);
  // The schedule is anchored at a start fixed here, so the trigger's clock and the engine's agree: the engine
  // would otherwise start k_start_delay after its calibrations (the timer floor alone takes about 60 ms), and
  // a stall begun on this clock would freeze the baseline's last requests, which at a short --baseline-for is
  // enough to make it unsteady. The margin outlasts the calibrations; phases count from the warm-up's end.
  engine::RunPlan anchored = run_plan;
  anchored.start_at = std::max(run_plan.start_at, SteadyClock::now() + k_calibration_margin);
  const SteadyTime measure_start = anchored.start_at + run_plan.warmup;
  ControlLoop control(plan, ctx, measure_start, engine_stop, user_stop);
  auto results = engine::run(anchored, engine_stop, [&](const results::RunResults& so_far) {
    if (watch.update(so_far)) control.recovered_at_base();
    if (ctx.on_progress) ctx.on_progress(so_far);
  });
  const auto lab_errors = control.finish();
  if (!results) return tl::unexpected(results.error());
  if (lab_errors.begin) return runtime_error("the lab trigger failed: " + lab_errors.begin->message);
  ProbeRun run;
  run.results = std::move(*results);
  if (lab_errors.restore) {
    // The run is kept, and says what went wrong: the trigger may have outlasted its phase.
    const std::string what = "could not restore the lab's settings after the trigger (" +
                             lab_errors.restore->message + "); the phases after it may have run with them";
    fmt::print(stderr, "openloop probe metastable: {}\n", what);
    run.results.warnings.push_back(what);
  }
  run.results.interrupted = user_stop.load() != 0;
  run.lab = std::move(control.lab());
  run.lab_actions = control.actions();
  std::vector<std::string> invalid;
  if (lab_errors.restore) invalid.push_back("the lab's settings could not be restored after the trigger");
  OPENLOOP_TRY_VOID(judge_probe_run(run, plan, ctx, control.stopped_early(), invalid));
  return run;
}

Result<void> judge_probe_run(ProbeRun& run, const ProbePlan& plan, const ProbeContext& ctx,
                             bool stopped_early, const std::vector<std::string>& invalid) {
  const auto samples = OPENLOOP_TRY(samples_of(run.results));
  RunFacts facts = OPENLOOP_TRY(facts_of(run, plan, ctx, stopped_early));
  if (!invalid.empty()) {
    facts.valid = false;
    facts.reasons.insert(facts.reasons.end(), invalid.begin(), invalid.end());
  }
  run.outcome = classify(plan, samples, facts);
  add_phase_intervals(run.outcome.phases, samples, run.results.checks);
  if (!run.results.verdict.valid && facts.valid) {
    for (const auto& reason : run.results.verdict.reasons) {
      run.outcome.notes.push_back("the run as a whole is INVALID (" + reason +
                                  "); the probe judges drops and the sent share per phase and send "
                                  "lateness per compared phase");
    }
  }
  return {};
}

}  // namespace openloop::procedures

// The ramp's runs: a staircase judged live from the coordinator's progress callback, or one run per step;
// then bisection runs for --refine.
#include "procedures/ramp/ramp_runner.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "engine/coordinator.h"
#include "procedures/ramp/ramp_repeats.h"
#include "procedures/ramp/ramp_until.h"

namespace openloop::procedures {
namespace {

constexpr double k_edge_slack_s = 1e-6;

// Judges the staircase's steps as their windows complete, and asks the run to stop when --stop-at fires.
class StaircaseTracker {
 public:
  StaircaseTracker(const RampSettings& s, const std::vector<double>& rates, std::size_t run, RampOutcome& out,
                   const StepFn& on_step)
      : m_settings(s), m_rates(rates), m_run(run), m_out(out), m_on_step(on_step) {}

  // The coordinator's progress callback: `so_far` holds the finalized intervals.
  void update(const results::RunResults& so_far, std::atomic<int>& stop) {
    if (m_stopping || !m_error.empty()) return;
    judge_complete(so_far, interval_end(so_far));
    if (m_stopping || !m_error.empty()) {
      int expected = 0;
      m_stopped_run = stop.compare_exchange_strong(expected, 1);
    }
  }

  // After the run: the windows it completed that were not judged yet (those finalized with the last
  // intervals).
  Result<void> finish(const results::RunResults& run) {
    if (!m_stopping) judge_complete(run, std::min(interval_end(run), run.measured_s));
    if (!m_error.empty()) return runtime_error(m_error);
    return {};
  }

  bool stopped_run() const { return m_stopped_run; }
  const std::string& reason() const { return m_reason; }

 private:
  static double interval_end(const results::RunResults& r) {
    return r.intervals.empty() ? 0.0 : r.intervals.back().start_s + r.intervals.back().length_s;
  }

  void judge_complete(const results::RunResults& run, double end_s) {
    while (m_next < m_rates.size() && !m_stopping && m_error.empty()) {
      StepWindow w = staircase_window(m_next, m_rates[m_next], m_settings.warmup, m_settings.hold);
      if (w.to_s > end_s + k_edge_slack_s) return;
      w.run = m_run;
      auto step = judge_step(run, w, m_settings, m_out.steps.size() + 1, false);
      if (!step) {
        m_error = step.error().message;
        return;
      }
      m_out.steps.push_back(std::move(*step));
      ++m_next;
      if (m_on_step) m_on_step(m_out.steps.back());
      m_reason = stop_reason(m_out.steps, m_settings.stop_at);
      m_stopping = !m_reason.empty();
    }
  }

  const RampSettings& m_settings;
  const std::vector<double>& m_rates;
  std::size_t m_run;
  RampOutcome& m_out;
  const StepFn& m_on_step;
  std::size_t m_next = 0;
  bool m_stopping = false;
  bool m_stopped_run = false;
  std::string m_reason, m_error;
};

// Steps judged while their run went on saw the results so far: the run's info as it stood at its start (the
// spin lead --spin-below auto took before the run, not the one it raised it to; no checks yet). Each is
// judged again from the finished run, as `openloop report` judges it from the file, so the ramp's table, its
// file and the report say the same.
Result<void> judge_again(RampOutcome& out, std::size_t run_index, const results::RunResults& run,
                         const RampSettings& s) {
  for (auto& step : out.steps) {
    if (step.analysis.window.run != run_index) continue;
    step = OPENLOOP_TRY(judge_step(run, step.analysis.window, s, step.number, step.refinement));
  }
  return {};
}

// One run, by the ramp's runner (the simulator) or on the network.
Result<results::RunResults> run_plan(const RampSettings& s, const engine::RunPlan& plan, std::atomic<int>& stop,
                                     const engine::ProgressFn& progress) {
  return s.runner ? s.runner(plan, stop, progress) : engine::run(plan, stop, progress);
}

Result<void> run_staircase(const engine::RunPlan& base, const RampSettings& s,
                           const std::vector<double>& rates, std::atomic<int>& stop, const StepFn& on_step,
                           RampOutcome& out) {
  const engine::RunPlan plan = staircase_plan(base, rates, s);
  StaircaseTracker tracker(s, rates, out.runs.size(), out, on_step);
  results::RunResults run = OPENLOOP_TRY(
      run_plan(s, plan, stop, [&](const results::RunResults& so_far) { tracker.update(so_far, stop); }));
  OPENLOOP_TRY_VOID(tracker.finish(run));
  out.stopped = tracker.reason();
  // The ramp's own stop is the plan working, not an interruption: taken back 1 → 0 in one step, so a signal
  // that raised it meanwhile is never lost.
  int own = 1;
  if (tracker.stopped_run() && stop.compare_exchange_strong(own, 0)) {
    run.interrupted = false;
    run.warnings.push_back(fmt::format("the ramp ended this run after {:.1f} s of its planned {:.0f} s: {}",
                                       run.measured_s, to_seconds(plan.duration), out.stopped));
  } else if (stop.load() != 0) {
    out.interrupted = true;
  }
  OPENLOOP_TRY_VOID(judge_again(out, out.runs.size(), run, s));
  out.runs.push_back(std::move(run));
  return {};
}

// --step-until: the step's window as measured. Stopped by its watcher: up to the end of the interval the
// targets were met on (the requests sent in the moment the stop took to act are left out, as a warm-up's
// are); else up to where the run's measurement ended (the plan's end, or earlier for a signal).
void fit_until_window(const StepUntilWatcher& until, results::RunResults& run, StepWindow& w) {
  const double planned_to = w.to_s;
  w.to_s = std::min(w.to_s, until.stopped() ? until.met_at_s() : run.measured_s);
  // The run checked the samples intended in the planned window, which past the stop are those of the step's
  // window and that short tail: the check is the step's (widen_intervals finds it by the window it judges).
  for (auto& cw : run.checks.windows) {
    if (std::abs(cw.from_s - w.from_s) <= 1e-3 && std::abs(cw.to_s - planned_to) <= 1e-3) cw.to_s = w.to_s;
  }
}

// One run of one step after `silence`, judged as step `number` when its hold was measured whole (nullopt
// when a signal came first). With --step-until the run is planned to --step-max-hold and a watcher stops it
// once the targets hold after --hold.
Result<std::optional<StepRecord>> measure_step(const engine::RunPlan& base, const RampSettings& s,
                                               double rate, Nanos silence, bool refinement,
                                               std::atomic<int>& stop, RampOutcome& out) {
  const engine::RunPlan plan = single_step_plan(base, rate, silence, s);
  StepWindow w = single_step_window(rate, silence, s);
  w.run = out.runs.size();
  const double min_to_s = w.from_s + to_seconds(s.hold);
  std::optional<StepUntilWatcher> until;
  engine::ProgressFn progress;
  if (!s.step_until.empty()) {
    until.emplace(s.step_until, w.from_s, min_to_s);
    progress = [&until, &stop](const results::RunResults& so_far) { until->update(so_far, stop); };
  }
  results::RunResults run = OPENLOOP_TRY(run_plan(s, plan, stop, progress));
  if (until) {
    if (!until->error().empty()) return runtime_error(until->error());
    // The watcher's stop is the plan working, not an interruption: taken back 1 → 0 in one step, so a signal
    // that raised it meanwhile is never lost.
    int own = 1;
    if (until->stopped() && stop.compare_exchange_strong(own, 0)) {
      run.interrupted = false;
      run.warnings.push_back(fmt::format(
          "the ramp ended this step's run after {:.1f} s of its planned {:.0f} s: every --step-until "
          "target held on the step's {:.1f} s window",
          run.measured_s, to_seconds(plan.duration), until->met_at_s() - w.from_s));
    }
    fit_until_window(*until, run, w);
  }
  out.interrupted = stop.load() != 0;
  std::optional<StepRecord> step;
  if (!out.interrupted || run.measured_s + k_edge_slack_s >= (until ? min_to_s : w.to_s)) {
    step = OPENLOOP_TRY(judge_step(run, w, s, out.steps.size() + 1, refinement));
  }
  out.runs.push_back(std::move(run));
  return step;
}

// --repeat: the step's rate run s.repeat times, repeat k with its own seed and `cooldown` of silence before
// it (the first after `silence`), the target reset before each run but the ramp's first; the repeats measured
// whole make the step (nullopt: none was).
Result<std::optional<StepRecord>> measure_repeats(const engine::RunPlan& base, const RampSettings& s,
                                                  double rate, Nanos silence, bool refinement,
                                                  std::atomic<int>& stop, RampOutcome& out) {
  results::RepeatSet set;
  set.planned = s.repeat;
  set.cooldown_s = to_seconds(s.cooldown);
  set.lab = static_cast<bool>(s.reset_between);
  std::vector<StepRecord> repeats;
  for (std::size_t k = 0; k < s.repeat; ++k) {
    results::RepeatContext c;
    c.seed = results::repeat_seed(base.seed, k + 1);
    const Nanos gap = k == 0 ? silence : s.cooldown;
    c.cooldown_s = to_seconds(gap);
    if (s.reset_between && !out.runs.empty()) {
      s.reset_between(stop, c);
      if (stop.load() != 0) {
        out.interrupted = true;
        break;
      }
    }
    engine::RunPlan plan = base;
    plan.seed = c.seed;
    auto step = OPENLOOP_TRY(measure_step(plan, s, rate, gap, refinement, stop, out));
    if (step) {
      repeats.push_back(std::move(*step));
      set.contexts.push_back(std::move(c));
    }
    if (out.interrupted) break;
  }
  if (repeats.empty()) return std::optional<StepRecord>();
  return std::optional<StepRecord>(combine_repeats(std::move(repeats), std::move(set)));
}

// One step, once or --repeat times, after `silence`; added to the outcome when measured. Returns false when
// interrupted.
Result<bool> run_single(const engine::RunPlan& base, const RampSettings& s, double rate, Nanos silence,
                        bool refinement, std::atomic<int>& stop, const StepFn& on_step, RampOutcome& out) {
  std::optional<StepRecord> step =
      s.repeat >= 2 ? OPENLOOP_TRY(measure_repeats(base, s, rate, silence, refinement, stop, out))
                    : OPENLOOP_TRY(measure_step(base, s, rate, silence, refinement, stop, out));
  if (step) {
    out.steps.push_back(std::move(*step));
    if (on_step) on_step(out.steps.back());
  }
  return !out.interrupted;
}

Result<void> run_fresh(const engine::RunPlan& base, const RampSettings& s, const std::vector<double>& rates,
                       std::atomic<int>& stop, const StepFn& on_step, RampOutcome& out) {
  for (std::size_t k = 0; k < rates.size(); ++k) {
    const Nanos silence = k == 0 ? Nanos(0) : s.cooldown;
    if (!OPENLOOP_TRY(run_single(base, s, rates[k], silence, false, stop, on_step, out))) return {};
    out.stopped = stop_reason(out.steps, s.stop_at);
    if (!out.stopped.empty()) return {};
  }
  return {};
}

Result<void> refine(const engine::RunPlan& base, const RampSettings& s, std::atomic<int>& stop,
                    const StepFn& on_step, RampOutcome& out) {
  std::size_t done = 0;
  for (; done < s.max_refinements; ++done) {
    const auto rate = next_refinement(out.steps, s.tolerance);
    if (!rate) break;
    if (!OPENLOOP_TRY(run_single(base, s, *rate, s.cooldown, true, stop, on_step, out))) return {};
  }
  if (!out.steps.empty() && out.steps.back().refinement &&
      out.steps.back().analysis.state == StepState::invalid) {
    out.notes.push_back(
        fmt::format("--refine stopped: the step at {:.0f}/s was INVALID (a generator problem), so "
                    "the bracket could not be narrowed further",
                    out.steps.back().analysis.window.offered_rps));
  } else if (done == s.max_refinements && next_refinement(out.steps, s.tolerance)) {
    out.notes.push_back(
        fmt::format("--refine stopped after {} bisection steps, short of a bracket {:.1f}% wide", done, 100 * s.tolerance));
  }
  return {};
}

}  // namespace

Result<StepRecord> judge_step(const results::RunResults& run, const StepWindow& w, const RampSettings& s,
                              std::size_t number, bool refinement) {
  StepRecord r;
  r.number = number;
  r.refinement = refinement;
  r.analysis = OPENLOOP_TRY(analyse_step(run, w, s.step));
  judge_slos(r, s.slos);
  if (!s.step_until.empty()) {
    const results::IndependenceCheck& c = r.analysis.independence;
    r.until = results::judge_until(s.step_until, r.analysis.results.response_time,
                                   r.analysis.results.measured_s, c.tested ? c.effective_fraction : 1.0);
  }
  return r;
}

Result<RampOutcome> run_ramp(const engine::RunPlan& base, const RampSettings& s, std::atomic<int>& stop,
                             const StepFn& on_step) {
  RampOutcome out;
  const std::vector<double> rates = planned_rates(s);
  if (rates.empty()) return usage_error("ramp: no step to run: --from is above --to");
  if (s.fresh) {
    OPENLOOP_TRY_VOID(run_fresh(base, s, rates, stop, on_step, out));
  } else {
    OPENLOOP_TRY_VOID(run_staircase(base, s, rates, stop, on_step, out));
  }
  if (s.refine && !out.interrupted) OPENLOOP_TRY_VOID(refine(base, s, stop, on_step, out));
  out.findings = analyse_ramp(out.steps);
  return out;
}

}  // namespace openloop::procedures

// The CPU a worker's spinning may use under --spin-below auto (--spin-budget): a share of one core, scaled down
// while the worker's thread waits for a CPU, because spinning on a contended host takes the core from the
// threads it waits behind and makes that wait longer.
#pragma once

#include "core/time.h"

namespace openloop::engine {

/// The share of one core a worker's spinning may use under --spin-below auto when --spin-budget is not given.
inline constexpr double k_default_spin_budget = 0.5;

/// A token bucket of spinning time: it fills at `share` of the time that passes (at most k_burst ahead) and each
/// spin drains it; a worker spins only while it holds time. The fill rate is the share scaled by the worker's
/// wait for a CPU over the last observation window (at least k_window long): share × (1 − wait / k_stop_wait),
/// none at all once the thread waits k_stop_wait of its time or more. Not thread-safe: one worker's.
class SpinBudget {
 public:
  /// Time the bucket holds at most (and at the start, so a run's first waits may spin at once).
  static constexpr Nanos k_burst = std::chrono::milliseconds(10);
  /// The shortest window the wait for a CPU is measured over.
  static constexpr Nanos k_window = std::chrono::milliseconds(100);
  /// The share of its time a thread waits for a CPU at which spinning stops.
  static constexpr double k_stop_wait = 0.25;

  /// No cap: spinning is never refused (an explicit --spin-below, or a simulated run).
  SpinBudget() = default;
  /// `share` of one core in (0, 1], from `start`.
  SpinBudget(double share, SteadyTime start);

  bool capped() const { return m_share > 0; }
  /// True while the bucket holds spinning time at `now` (always when not capped). `now` never goes back.
  bool may_spin(SteadyTime now);
  /// Drains `spun` (time spent spinning) from the bucket.
  void spend(Nanos spun);
  /// True when a new observation of the wait for a CPU is due at `now` (capped budgets only).
  bool observation_due(SteadyTime now) const { return capped() && now - m_observed_at >= k_window; }
  /// The thread's cumulative run delay (time runnable but waiting for a CPU) read at `now`: the first reading
  /// is the baseline; each later one sets the fill rate from the wait's share of the time since the one before.
  void observe_run_delay(SteadyTime now, Nanos run_delay);

  double share() const { return m_share; }    ///< as chosen (0: no cap)
  double current() const { return m_rate; }   ///< the fill rate now
  double lowest() const { return m_lowest; }  ///< the lowest fill rate of the run so far

 private:
  double m_share = 0;
  double m_rate = 0;
  double m_lowest = 0;
  double m_tokens_ns = 0;
  SteadyTime m_filled_at{};
  SteadyTime m_observed_at{};
  Nanos m_last_delay{-1};  // < 0: no reading yet
};

}  // namespace openloop::engine

// The spin budget: a token bucket of spinning time, filled at a share of a core scaled by the wait for a CPU.
#include "engine/spin_budget.h"

#include <algorithm>

namespace openloop::engine {

SpinBudget::SpinBudget(double share, SteadyTime start)
    : m_share(share),
      m_rate(share),
      m_lowest(share),
      m_tokens_ns(static_cast<double>(k_burst.count())),
      m_filled_at(start),
      m_observed_at(start) {}

bool SpinBudget::may_spin(SteadyTime now) {
  if (!capped()) return true;
  if (now > m_filled_at) {
    m_tokens_ns = std::min(static_cast<double>(k_burst.count()),
                           m_tokens_ns + m_rate * static_cast<double>((now - m_filled_at).count()));
    m_filled_at = now;
  }
  return m_tokens_ns > 0;
}

void SpinBudget::spend(Nanos spun) {
  if (capped()) m_tokens_ns -= static_cast<double>(spun.count());
}

void SpinBudget::observe_run_delay(SteadyTime now, Nanos run_delay) {
  if (!capped()) return;
  if (m_last_delay.count() >= 0 && now > m_observed_at) {
    // Fill at the old rate up to now, so the new rate applies only from here on.
    may_spin(now);
    const double wait = static_cast<double>((run_delay - m_last_delay).count()) /
                        static_cast<double>((now - m_observed_at).count());
    m_rate = m_share * std::clamp(1.0 - wait / k_stop_wait, 0.0, 1.0);
    m_lowest = std::min(m_lowest, m_rate);
  }
  m_last_delay = run_delay;
  m_observed_at = now;
}

}  // namespace openloop::engine

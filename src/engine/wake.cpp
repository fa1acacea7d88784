// The worker's wake policy: when the loop must wake next, and how it waits (sleep, spin, or coalesce); the
// horizon before which no request can still be intended.
#include <algorithm>

#include "engine/worker.h"

namespace openloop::engine {

SteadyTime Worker::next_wakeup() const {
  SteadyTime t = std::min({m_next_handover, m_grace_end, m_timers.next_deadline()});
  if (m_scheduling && m_next_arrival) t = std::min(t, m_start + *m_next_arrival);
  if (m_scheduling && m_plan.user_driven()) t = std::min(t, m_end);
  if (const Exchange* x = m_in_flight.earliest()) t = std::min(t, x->deadline);
  if (m_queue_size > 0) t = std::min(t, m_queue[m_queue_head].intended + m_plan.timeout);
  return t;
}

void Worker::wait_until(SteadyTime wake) {
  SteadyTime now = this->now();
  if (m_window.count() > 0) {
    // Arrivals beyond one round's batch are still due: read what is ready and go on issuing them, still
    // within this window.
    if (m_capped) {
      m_loop->poll(SteadyTime{});
      return;
    }
    // Wake at most once per window: sleep through responses (kernel-stamped) and send what fell due meanwhile
    // late. A longer wait (nothing due soon) sleeps on the descriptors as usual, so a response is never read
    // more than a window or a millisecond after it came.
    if (wake - now <= std::max<Nanos>(m_window, std::chrono::milliseconds(1))) {
      m_loop->poll_after(std::max(wake, m_woke + m_window));
    } else {
      m_loop->poll(wake);
    }
    m_woke = this->now();
    return;
  }
  const bool may_spin = spin_within_budget(now);
  if (!may_spin || wake - now > std::max(m_spin_below, m_spin_lead)) {
    if (!may_spin || m_spin_lead.count() == 0) {
      timed_wait(now, wake);
      return;
    }
    // This host wakes sleeping threads late (its timer floor): sleep until the lead before the deadline and
    // spin through the rest, so the overshoot lands inside the lead rather than on the send.
    if (!timed_wait(now, wake - m_spin_lead)) return;
    now = this->now();
  }
  // Poll without blocking until something happens or the deadline comes; the empty polls are idle time.
  for (;;) {
    if (m_loop->poll(SteadyTime{}) != 0) return;
    const SteadyTime t = this->now();
    if (t >= wake) return;
    m_spun += t - now;
    now = t;
  }
}

bool Worker::timed_wait(SteadyTime now, SteadyTime deadline) {
  if (m_loop->poll(deadline) != 0) return false;
  // Nothing to read: the wait ended on its timer, so how late it woke is the host's, as the floor measured before
  // the run is (a deadline already passed when the wait began says nothing about the timer).
  if (deadline > now) results::record_ns(m_report.wake_lateness, (this->now() - deadline).count());
  return true;
}

bool Worker::spin_within_budget(SteadyTime now) const {
  if (!(m_spin_budget > 0)) return true;
  // A little allowance (10 ms of run) so the first waits of a run may spin before any time has passed.
  const Nanos elapsed = std::max(Nanos(0), now - m_start) + std::chrono::milliseconds(10);
  return static_cast<double>(m_spun.count()) <= m_spin_budget * static_cast<double>(elapsed.count());
}

Nanos Worker::horizon(SteadyTime now) const {
  // Every request not yet issued will have an intended time at or after the horizon: the next arrival, the
  // next user timer (a user's next request is due when its timer fires) or, for users with no timer pending,
  // now.
  if (!m_scheduling) return Nanos::max();
  SteadyTime t = m_timers.next_deadline();
  // A user or session with a request in flight may send its next step as soon as the response arrives.
  if (m_plan.user_driven() || m_free_users.size() < m_users.size()) t = std::min(t, now);
  if (m_next_arrival) t = std::min(t, m_start + *m_next_arrival);
  return t == SteadyTime::max() ? Nanos::max() : t - m_measure_start;
}

}  // namespace openloop::engine

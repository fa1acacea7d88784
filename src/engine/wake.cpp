// The worker's wake policy: when the loop must wake next, and how it waits (sleep, spin, or coalesce); the
// horizon before which no request can still be intended.
#include <algorithm>
#include <array>

#include <time.h>

#include "engine/sleep_through.h"
#include "engine/worker.h"

namespace openloop::engine {

namespace {
// Sleeping through responses looks at each connection's state before a wait: not with more than this many.
constexpr std::size_t k_max_connections_looked_at = 16;

// Connections read directly after sleeping through, without asking epoll which are readable: at most this
// many.
constexpr std::size_t k_max_direct_reads = 2;

// After sleeping through to an arrival: what came meanwhile. When every open connection carries streams and
// there are at most two, each is read directly (a recvmsg, which finds the responses or nothing) instead of
// asking epoll first: one system call per wake-up fewer when responses came, as they mostly have at rates
// where arrivals are this close. The bytes and their receive stamps are the same either way. Otherwise (more
// connections, or one that carries nothing, where only the server's own frames can come: GOAWAY, SETTINGS, a
// close) epoll is asked as before. The worker's wake descriptor, not read here, stays readable
// (level-triggered) until the next wait that does not sleep through; the stop request is read every round
// anyway.
void read_slept_through(ConnectionPool& pool, net::EventLoop& loop) {
  std::array<Connection*, k_max_direct_reads> carriers{};
  std::size_t n = 0;
  for (std::size_t i = 0; i < pool.size(); ++i) {
    Connection& c = pool.at(i);
    if (c.state() == Connection::State::closed) continue;
    if (n == carriers.size() || c.state() != Connection::State::ready || !c.carries_exchange()) {
      loop.poll(SteadyTime{});
      return;
    }
    carriers[n++] = &c;
  }
  if (n == 0) {
    loop.poll(SteadyTime{});
    return;
  }
  // A callback run by one read may close the other: each is looked at again before its read.
  for (std::size_t i = 0; i < n; ++i) {
    if (carriers[i]->state() == Connection::State::ready) carriers[i]->on_io(EPOLLIN);
  }
}

// Sleeps until `t` on the steady clock (CLOCK_MONOTONIC), whatever becomes readable meanwhile.
void sleep_until(SteadyTime t) {
  const auto since = t.time_since_epoch();
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(since);
  const timespec until{static_cast<time_t>(seconds.count()), static_cast<long>((since - seconds).count())};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nullptr) == EINTR) {
  }
}
}  // namespace

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
  const bool may_spin = m_spin_budget.may_spin(now);
  // HTTP/2's open model: the next arrival is near, so what comes before it is read with it (kernel-stamped),
  // one wake-up per arrival rather than one more per response.
  const bool eligible = m_config.stamp_receipts && m_window.count() == 0 && m_plan.coalesce.count() == 0 &&
                        m_config.protocol == Protocol::http2 && m_plan.model == Model::open && !m_sessions;
  const auto connecting = [this] {
    if (m_pool.size() > k_max_connections_looked_at) return true;
    for (std::size_t i = 0; i < m_pool.size(); ++i) {
      const Connection::State s = m_pool.at(i).state();
      if (s == Connection::State::connecting || s == Connection::State::handshaking) return true;
    }
    return false;
  };
  // The connections are looked at only when everything else says yes: most waits end there.
  const bool through =
      sleeps_through_responses(
          {eligible, now, wake,
           m_scheduling && m_next_arrival ? std::optional(m_start + *m_next_arrival) : std::nullopt,
           m_queue_size, false}) &&
      !connecting();
  if (!may_spin || wake - now > std::max(m_spin_below, m_spin_lead)) {
    const SteadyTime until = !may_spin ? wake : wake - m_spin_lead;
    if (through) {
      sleep_until(until);
      // Nothing else ends this sleep: how late it woke is the host's.
      if (until > now) results::record_ns(m_report.wake_lateness, (this->now() - until).count());
      if (until == wake) {
        read_slept_through(m_pool, *m_loop);
        return;
      }
    } else {
      if (!may_spin || m_spin_lead.count() == 0) {
        timed_wait(now, wake);
        return;
      }
      // This host wakes sleeping threads late (its timer floor): sleep until the lead before the deadline and
      // spin through the rest, so the overshoot lands inside the lead rather than on the send.
      if (!timed_wait(now, until)) return;
    }
    now = this->now();
  }
  const SteadyTime spin_start = now;
  if (through) {
    // Spin on the clock alone, then read what came and send the arrival in the same round.
    while (now < wake) now = this->now();
    read_slept_through(m_pool, *m_loop);
  } else {
    // Poll without blocking until something happens or the deadline comes; the empty polls are idle time.
    while (m_loop->poll(SteadyTime{}) == 0) {
      const SteadyTime t = this->now();
      if (t >= wake) break;
      now = t;
    }
  }
  m_spun += now - spin_start;
  m_spin_budget.spend(now - spin_start);
}

bool Worker::timed_wait(SteadyTime now, SteadyTime deadline) {
  if (m_loop->poll(deadline) != 0) return false;
  // Nothing to read: the wait ended on its timer, so how late it woke is the host's, as the floor measured before
  // the run is (a deadline already passed when the wait began says nothing about the timer).
  if (deadline > now) results::record_ns(m_report.wake_lateness, (this->now() - deadline).count());
  return true;
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
  // A held session record goes when its session's response comes, intended at that time at the earliest.
  if (m_sessions && m_sessions->held() > 0) t = std::min(t, now);
  return t == SteadyTime::max() ? Nanos::max() : t - m_measure_start;
}

}  // namespace openloop::engine

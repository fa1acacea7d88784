// Users: closed-model and pacing users, and partly-open sessions. Each sends one request at a time, waits for
// its outcome, thinks on the worker's timer queue, and continues.
#include <algorithm>

#include "engine/worker.h"

namespace openloop::engine {

void Worker::start_users(SteadyTime now) {
  // Closed and pacing users start at once (staggered only by --max-rate); each holds one connection from
  // the pool for the run.
  for (std::uint32_t u = 0; u < m_users.size(); ++u) {
    User& user = m_users[u];
    user.conn = m_pool.acquire();
    user.conn->holder = static_cast<std::int32_t>(u);
    user.active = true;
    user.step = 0;
    user.wake_at = m_plan.max_rate > 0 ? rate_slot(now) : now;
    m_timers.schedule(user.wake_at, this, u);
  }
  m_free_users.clear();
}

SteadyTime Worker::rate_slot(SteadyTime wanted) {
  // --max-rate across all users: this worker's share of the rate hands out start slots one gap apart.
  const auto gap = from_seconds(static_cast<double>(m_plan.threads) / m_plan.max_rate_part());
  const SteadyTime slot = std::max(wanted, m_next_rate_slot);
  m_next_rate_slot = slot + gap;
  return slot;
}

void Worker::session_arrival(SteadyTime intended) {
  const std::int64_t interval = m_recorder.index_of(intended - m_measure_start);
  results::FlowCounters& f = stats(interval).flows;
  Connection* conn = m_free_users.empty() ? nullptr : free_connection();
  if (conn == nullptr) {  // the concurrent-sessions cap is reached: the session is dropped and counted
    ++f.sessions_intended;
    ++f.sessions_dropped;
    return;
  }
  const std::uint32_t u = m_free_users.back();
  if (m_flow && !m_flow->begin(u)) {
    // `data: {order: unique}` and this worker's rows are spent: the session never starts. Like an arrival
    // abandoned behind schedule it is not intended; the coordinator names the count (docs/flows.md).
    ++m_report.sessions_without_row;
    release(*conn);
    return;
  }
  ++f.sessions_intended;
  m_free_users.pop_back();
  User& user = m_users[u];
  user = User{conn, 0, intended, intended, interval, intended, true};
  conn->holder = static_cast<std::int32_t>(u);
  m_recorder.add_pending(interval);  // the session's own interval stays open until the session ends
  issue_step(u, intended);
}

void Worker::issue_step(std::uint32_t u, SteadyTime intended) {
  User& user = m_users[u];
  const std::uint32_t request =
      m_plan.steps.empty() ? pick_request() : static_cast<std::uint32_t>(m_plan.steps[user.step].request);
  const std::int64_t interval = m_recorder.index_of(intended - m_measure_start);
  const bool sessions = m_plan.model == Model::sessions;
  // A new iteration: no captures yet, its own data row (a session began in session_arrival).
  if (user.step == 0 && !sessions && m_flow && !m_flow->begin(u)) {
    // `data: {order: unique}` and this worker's rows are spent: the user stops here, counted once.
    ++m_report.sessions_without_row;
    user.active = false;
    return;
  }
  if (user.step == 0 && !sessions) ++stats(interval).flows.iterations;
  if (m_flow) m_flow->before_step(u, m_render->variables());
  account(interval, request, [](results::Counters& c, auto&, auto&) { ++c.intended; });
  start_request(*user.conn, intended, interval, request, static_cast<std::int32_t>(u));
}

void Worker::after_request(std::uint32_t u, SteadyTime now, Outcome outcome) {
  User& user = m_users[u];
  if (!user.active) return;
  const bool sessions = m_plan.model == Model::sessions;
  if (sessions && outcome == Outcome::failed) {
    end_session(u, now, false);  // a user whose request failed leaves
    return;
  }
  if (outcome == Outcome::stopped) {
    // A failed capture or check with on_fail: stop ends the session (failed), or the closed user's iteration.
    const std::int64_t interval =
        sessions ? user.session_interval : m_recorder.index_of(user.iteration_start - m_measure_start);
    FlowRunner::count_stopped(user.step, stats(interval).flows);
    if (sessions) {
      end_session(u, now, false);
    } else {
      next_iteration(u, now);
    }
    return;
  }
  const bool more_steps = !m_plan.steps.empty() && user.step + 1 < m_plan.steps.size();
  if (!more_steps) {
    if (sessions) {
      end_session(u, now, true);
    } else {
      next_iteration(u, now);
    }
    return;
  }
  const workload::DurationDistribution& think = m_plan.steps[user.step].think_after;
  ++user.step;
  user.wake_at = now + think.sample(m_rng);
  m_timers.schedule(user.wake_at, this, u);
}

void Worker::next_iteration(std::uint32_t u, SteadyTime now) {
  User& user = m_users[u];
  user.step = 0;
  // Closed users think after the iteration's last request (a step's own think, else the plan's).
  const workload::DurationDistribution& think =
      m_plan.steps.empty() ? m_plan.think : m_plan.steps.back().think_after;
  SteadyTime next = now + think.sample(m_rng);
  if (m_plan.model == Model::pacing && m_plan.pacing.count() > 0) {
    // Pacing: an iteration starts at most every `pacing`; one that overran is followed at once.
    next = std::max(user.iteration_start + m_plan.pacing, now);
  }
  if (m_plan.max_rate > 0) next = rate_slot(next);
  user.iteration_start = next;
  user.wake_at = next;
  m_timers.schedule(next, this, u);
}

void Worker::on_timer(std::uint64_t cookie) {
  if (m_sessions) {  // a replay (no users): a replayed session's held record may be due (replay_sessions.cpp)
    send_held(static_cast<std::uint32_t>(cookie), now());
    return;
  }
  const auto u = static_cast<std::uint32_t>(cookie);
  User& user = m_users[u];
  if (!user.active) return;
  if (!m_scheduling) {
    // The run is over: users stop; a session cut short is unfinished.
    if (m_plan.model == Model::sessions) end_session(u, user.wake_at, false, true);
    return;
  }
  if (user.step == 0 && m_plan.model != Model::sessions) user.iteration_start = user.wake_at;
  issue_step(u, user.wake_at);
}

void Worker::end_session(std::uint32_t u, SteadyTime now, bool completed, bool unfinished) {
  User& user = m_users[u];
  results::IntervalStats& s = stats(user.session_interval);
  if (unfinished) {
    ++s.flows.sessions_unfinished;
  } else if (completed) {
    ++s.flows.sessions_completed;
    results::record_ns(s.session_time, (now - user.session_intended).count());
  } else {
    ++s.flows.sessions_failed;
  }
  m_recorder.remove_pending(user.session_interval);
  user.active = false;
  Connection& c = *user.conn;
  c.holder = -1;
  user.conn = nullptr;
  m_free_users.push_back(u);
  if (c.carries_exchange())
    return;  // unfinished: the request is resolved (and the connection closed) elsewhere
  release(c);
}

void Worker::stop_users() {
  for (std::uint32_t u = 0; u < m_users.size(); ++u) {
    if (!m_users[u].active) continue;
    if (m_plan.model == Model::sessions) {
      end_session(u, now(), false, true);
    } else {
      m_users[u].active = false;
    }
  }
}

}  // namespace openloop::engine

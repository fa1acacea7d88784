// Replayed sessions (--session-key): a session's records held until the response to its previous record,
// then sent on the session's own time (workload/session_pacer.h holds the rule; this file the worker's side).
#include "engine/worker.h"

namespace openloop::engine {

using results::ErrorKind;

void Worker::session_record(SteadyTime at) {
  const SteadyTime now = this->now();
  const workload::SessionPacer::Arrival a = m_sessions->arrive(m_replay->session(), at - m_start, now - m_start);
  using Kind = workload::SessionPacer::Arrival::Kind;
  switch (a.kind) {
    case Kind::send:
      arrival(m_start + a.due, static_cast<std::int32_t>(a.session));
      return;
    case Kind::hold:
      // The record waits with its session; its request is kept rendered in the slot (capacity reused).
      if (m_held_requests.size() < m_sessions->slot_capacity()) m_held_requests.resize(m_sessions->slot_capacity());
      std::swap(m_held_requests[a.slot], m_replayed);
      if (a.due != Nanos::max()) m_timers.schedule(m_start + a.due, this, a.session);
      return;
    case Kind::full:  // too many records held at once: this one is dropped, the generator's limit
      drop_arrival(at, ErrorKind::generator);
      return;
  }
}

void Worker::session_ended(std::int32_t session, SteadyTime now) {
  if (session < 0 || !m_sessions) return;
  const Nanos due = m_sessions->done(static_cast<std::uint32_t>(session), now - m_start);
  // Never sent from here: a drop would end the next record at once and recurse through the whole session. The
  // timer fires in this loop round when it is already due.
  if (due != Nanos::max()) m_timers.schedule(m_start + due, this, static_cast<std::uint64_t>(session));
}

void Worker::send_held(std::uint32_t session, SteadyTime now) {
  if (!m_scheduling) return;  // the run's end: resolve_held() accounts for what is held
  const workload::SessionPacer::Taken t = m_sessions->take(session, now - m_start);
  if (t.slot == workload::SessionPacer::k_none) return;  // not due yet, or a stale timer
  arrival(m_start + t.due, static_cast<std::int32_t>(session), &m_held_requests[t.slot]);
}

void Worker::resolve_held(SteadyTime end) {
  if (!m_sessions) return;
  m_sessions->drain([&](std::uint32_t, Nanos at) {
    const SteadyTime intended = m_start + at;
    const std::int64_t interval = m_recorder.index_of(intended - m_measure_start);
    const std::uint32_t request = pick_request();
    const std::int64_t censored = (end - intended).count();
    account(interval, request, [censored](results::Counters& k, hdr::Histogram& rh, auto&) {
      ++k.intended;
      ++k.unfinished;
      results::record_ns(rh, censored);  // never sent: held by its session until the end
    });
    if (m_log != nullptr)
      push_record(intended, interval, request, nullptr, RecordOutcome::unfinished, end, 0, ErrorKind::connect);
  });
}

}  // namespace openloop::engine

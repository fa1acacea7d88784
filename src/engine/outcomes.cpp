// Outcome accounting: what the codecs report for each exchange (sent, completed, failed), cuts at the
// deadline, and what is still in flight when the run ends; every outcome to the interval of its intended time.
#include <algorithm>

#include "engine/worker.h"

namespace openloop::engine {

using results::ErrorKind;

void Worker::on_sent(Exchange& r, std::size_t bytes) {
  if (r.stamp_at_write) stamp_sent(r, m_writing ? m_write_time : now());
  const bool first_sent = !r.logical_sent, retry = r.attempt > 1 && !r.resending;
  account(r.interval, r.request, [=](results::Counters& k, auto&, auto&) {
    if (first_sent) ++k.sent;  // the logical request counts as sent once, whichever attempt went out first
    ++k.attempts;
    if (retry) ++k.retries;
    k.bytes_out += bytes;
  });
  r.logical_sent = true;
}

void Worker::stamp_sent(Exchange& r, SteadyTime at) {
  r.stamp_at_write = false;
  r.sent = at;
  r.write_start = std::max(r.write_start, at);
  results::record_ns(stats(r.interval).send_lateness, (at - r.intended).count());
}

void Worker::write_deferred() {
  if (m_deferred_writes.empty()) return;
  // One clock read for the round's write: every stream in it left at once. A write that fails reports its
  // streams' errors, whose callbacks may defer more writes: those join the list and go out in this call.
  m_write_time = now();
  m_writing = true;
  for (std::size_t i = 0; i < m_deferred_writes.size(); ++i) m_deferred_writes[i]->write_deferred();
  m_deferred_writes.clear();
  m_writing = false;
}

void Worker::on_ready(Connection& c) {
  if (c.holder < 0) release(c);
}

void Worker::on_complete(Exchange& r, const ExchangeResult& result) {
  Connection& c = *r.connection;
  const SteadyTime now = result.at;
  r.phases = c.phases(r, now);
  r.bytes_in = result.bytes_in;
  stats(r.interval).phases.record(r.phases);
  const RequestSpec& spec = m_plan.requests[r.request];
  account(r.interval, r.request,
          [bytes_in = result.bytes_in](results::Counters& k, auto&, auto&) { k.bytes_in += bytes_in; });
  record_attempt(r, now);
  const SteadyTime deadline = r.intended + m_plan.timeout;
  if (now > deadline) {
    // Read in the loop turn after its deadline passed, before expire() cut it: the client had given up by
    // then, so it is a timeout censored at the deadline, exactly as if expire() had come first. Counted as
    // completed it would be a success status that is not ok (completed N, ok N-1, 2xx N).
    settle(r, AttemptEnd{AttemptEnd::Kind::timeout, false, 0, ErrorKind::connect, false, deadline});
    finish_request(r, c, now, Outcome::failed);
    return;
  }
  if (result.server_timing != nullptr) record_server_timing(*result.server_timing, r, now);
  const int status = result.status;
  // A gRPC call succeeds by its grpc-status, one of the set --grpc-success names (the codec made every answer
  // without a status, or not HTTP 200, a protocol error).
  const int judged = result.protocol_status >= 0 ? result.protocol_status : status;
  const bool ok = result.protocol_status >= 0 && spec.grpc_success != 0
                      ? (spec.grpc_success >> judged & 1U) != 0
                      : judged >= spec.success_min && judged <= spec.success_max;
  const std::int32_t user = r.user;
  AttemptEnd end{AttemptEnd::Kind::response, ok, status, ErrorKind::connect, false, now};
  end.grpc_status = result.protocol_status;
  end.grpc_messages = result.messages;
  end.grpc_message_bytes = result.message_bytes;
  end.grpc_pushback_ms = result.retry_pushback_ms;
  if (retry_chosen(r, end, result.retry_after)) {
    detach(r, c, user);
    return;
  }
  // The request's last response: what the plan captured of it is read now, before the exchange is reused.
  if (r.sink != nullptr && m_plan.capture->reader != nullptr)
    m_plan.capture->reader->on_response(m_index, r, *r.sink);
  Outcome outcome = ok ? Outcome::ok : Outcome::failed;
  if (m_flow && user >= 0 && r.sink != nullptr) {
    // The flow step's captures and checks, counted in the step's interval, before settle() counts the
    // response: one whose capture or check failed is not ok, whatever its status (the retry decision above
    // went by the status alone, as without a flow). A session whose request failed fails for that reason;
    // otherwise a failure with on_fail: stop stops it.
    const auto u = static_cast<std::uint32_t>(user);
    m_flow->take_cookies(u, *r.sink, r.parts != nullptr ? r.parts->target : std::string_view("/"));
    const std::size_t step = m_users[u].step;
    const FlowRunner::StepResult result_of_step =
        m_flow->after_response(u, step, *r.sink, stats(r.interval).flows);
    end.flow_failed = result_of_step.failed != 0;
    if (auto example = m_flow->example(u, step, result_of_step.failed, *r.sink, spec.name))
      m_report.flow_examples.push_back(std::move(*example));  // allocates a few times per step at most
    if (result_of_step.stop && (ok || m_plan.model != Model::sessions)) outcome = Outcome::stopped;
  }
  settle(r, end);
  finish_request(r, c, now, outcome);
}

void Worker::on_error(Exchange& r, const ExchangeError& error) {
  Connection& c = *r.connection;
  const ErrorKind kind = error.kind;
  // Keep one example message per kind for the report (allocates at most once per kind).
  std::string& example = m_report.first_error[static_cast<std::size_t>(kind)];
  if (example.empty()) example = c.error_string();
  const SteadyTime now = this->now();
  record_reached_phases(r);
  record_attempt(r, now);
  const std::int32_t user = r.user;
  const AttemptEnd end{AttemptEnd::Kind::error, false, 0, kind, error.retryable || error.unprocessed, now};
  if (error.unprocessed && resend(r, c, end)) return;
  if (end_attempt(r, end)) {
    detach(r, c, user);
    return;
  }
  finish_request(r, c, now, Outcome::failed);
}

void Worker::on_closed_idle(Connection& c) {
  // A connection with no request closed (an idle keep-alive connection the server closed). A user's
  // connection stays with its user and reopens on the next request; a pooled one goes back to the pool.
  if (c.holder >= 0) return;
  m_pool.withdraw(c);
  release(c);
}

// Server-Timing of a response received in time: the server's reported time beside the response time (from
// the intended time, as the response-time histogram), or the count of a header set aside.
void Worker::record_server_timing(const http::ServerTimingValue& v, const Exchange& r, SteadyTime now) {
  results::ServerTimingStats& st = stats(r.interval).server_timing;
  switch (v.status) {
    case http::ServerTimingValue::Status::valid:
      st.record(v.duration, now - r.intended);
      break;
    case http::ServerTimingValue::Status::no_duration:
      ++st.no_duration;
      break;
    case http::ServerTimingValue::Status::malformed:
      ++st.malformed;
      break;
  }
  switch (v.cache) {
    case http::ServerTimingValue::Cache::off:
      ++st.cache_off;
      break;
    case http::ServerTimingValue::Cache::hit:
      ++st.cache_hit;
      break;
    case http::ServerTimingValue::Cache::miss:
      ++st.cache_miss;
      break;
    case http::ServerTimingValue::Cache::unsaid:
      break;
  }
}

// An attempt that ended without a response still took the phases it completed (a connect, a handshake, a
// first byte): they are the service's times as much as a successful attempt's, so they are recorded, not
// dropped.
void Worker::record_reached_phases(Exchange& r) {
  r.phases = r.connection->reached_phases(r);
  stats(r.interval).phases.record(r.phases);
}

void Worker::finish_request(Exchange& x, Connection& c, SteadyTime now, Outcome outcome) {
  m_in_flight.unlink(x);
  m_recorder.remove_pending(x.interval);
  const std::int32_t user = x.user;
  const std::int32_t session = x.replay_session;
  m_exchanges.release(x);
  if (user < 0) {
    release(c);
    session_ended(session, now);
  } else {
    after_request(static_cast<std::uint32_t>(user), now, outcome);
  }
}

void Worker::cut(Exchange& r, SteadyTime now) {
  Connection& c = *r.connection;
  if (m_report.first_stall.empty()) {
    // What the protocol held it back for, if it knows (an HTTP/2 window never opened): the timeouts' example.
    if (const char* why = c.stall_reason(r); *why != '\0') m_report.first_stall = why;  // allocates once
  }
  record_reached_phases(r);
  record_attempt(r, r.deadline);
  c.cancel(r);  // the client gave up on this attempt (HTTP/1.1: the connection cannot be reused mid-response)
  const std::int32_t user = r.user;
  if (end_attempt(r,
                  AttemptEnd{AttemptEnd::Kind::timeout, false, 0, ErrorKind::connect, false, r.deadline})) {
    detach(r, c, user);
    return;
  }
  finish_request(r, c, now, Outcome::failed);
}

void Worker::expire(SteadyTime now) {
  // Queued requests past their deadline go first: cutting an in-flight request frees its connection for the
  // queue's head, and an expired head would be started only to be cut at once, one connect per queued
  // request.
  while (m_queue_size > 0 && m_queue[m_queue_head].intended + m_plan.timeout <= now) {
    const Queued q = m_queue[m_queue_head];
    m_queue_head = (m_queue_head + 1) % m_queue.size();
    --m_queue_size;
    account(q.interval, q.request, [this](results::Counters& k, hdr::Histogram& rh, auto&) {
      ++k.timeouts;
      results::record_ns(rh, m_plan.timeout.count());
    });
    results::record_ns(stats(q.interval).slot_wait, (now - q.queued).count());
    if (m_log != nullptr)
      push_record(q.intended, q.interval, q.request, nullptr, RecordOutcome::timeout,
                  q.intended + m_plan.timeout, 0, ErrorKind::connect);
    m_recorder.remove_pending(q.interval);
    session_ended(q.replay_session, now);
  }
  while (m_in_flight.earliest() != nullptr && m_in_flight.earliest()->deadline <= now)
    cut(*m_in_flight.earliest(), now);
}

void Worker::unfinished(Exchange& r, SteadyTime end) {
  if (r.stamp_at_write) stamp_sent(r, r.sent);
  const std::int64_t censored = (end - r.intended).count();
  account(r.interval, r.request, [censored](results::Counters& k, hdr::Histogram& rh, auto&) {
    ++k.unfinished;
    results::record_ns(rh, censored);  // censored at the end
  });
  log_request(r, RecordOutcome::unfinished, end);
  m_in_flight.unlink(r);
  m_recorder.remove_pending(r.interval);
  if (r.connection != nullptr) r.connection->cancel(r);
  m_exchanges.release(r);
}

void Worker::resolve_unfinished(SteadyTime end) {
  resolve_held(end);
  while (m_in_flight.earliest() != nullptr) unfinished(*m_in_flight.earliest(), end);
  while (m_in_flight.any_timed() != nullptr) unfinished(*m_in_flight.any_timed(), end);
  resolve_waits(end);
  for (; m_queue_size > 0; --m_queue_size, m_queue_head = (m_queue_head + 1) % m_queue.size()) {
    const Queued& q = m_queue[m_queue_head];
    const std::int64_t censored = (end - q.intended).count();
    account(q.interval, q.request, [censored](results::Counters& k, hdr::Histogram& rh, auto&) {
      ++k.unfinished;
      results::record_ns(rh, censored);
    });
    results::record_ns(stats(q.interval).slot_wait, (end - q.queued).count());
    if (m_log != nullptr)
      push_record(q.intended, q.interval, q.request, nullptr, RecordOutcome::unfinished, end, 0,
                  ErrorKind::connect);
    m_recorder.remove_pending(q.interval);
  }
}

}  // namespace openloop::engine

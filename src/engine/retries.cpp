// Attempts and retries: each logical request's attempts (deadline header, per-try deadline, in-flight lists),
// the retry decision (policy, backoff, Retry-After, budget) and the wait between attempts on the timer queue.
#include <algorithm>

#include "engine/worker.h"

namespace openloop::engine {

using results::ErrorKind;

namespace {
// Timer cookies of RetryTimers: bit 63 tells a retry attempt's deadline from a backoff wake-up; bits 32..62
// hold the exchange id or wait slot, bits 0..31 its generation (the timer queue has no cancel: stale timers
// are ignored).
constexpr std::uint64_t k_deadline_bit = 1ULL << 63;
// The deadline header a gRPC call sends (cli's gRPC call sets it): the attempt's own deadline, in ms.
constexpr std::string_view k_grpc_timeout_header = "grpc-timeout";
// gRPC's statuses that its retry policies retry by default (gRFC A6 names them per service; these two are
// the overload answers, retried as their HTTP counterparts are).
constexpr int k_grpc_resource_exhausted = 8, k_grpc_unavailable = 14;
// How often one logical request is sent again after the server refused it unprocessed: a server that refuses
// every stream ends the request as that refusal after this many (about 0.5 s of waits between them), instead of
// a resend loop until its deadline.
constexpr std::uint8_t k_max_resends = 10;
// A resend that finds no free slot (every stream busy at the concurrency cap, or its connection draining after
// GOAWAY) looks again this much later, until its deadline; then it is a timeout, as a queued arrival's.
constexpr Nanos k_resend_recheck = std::chrono::milliseconds(1);

std::uint64_t cookie(bool deadline, std::uint32_t index, std::uint32_t generation) {
  return (deadline ? k_deadline_bit : 0) | (static_cast<std::uint64_t>(index) << 32) | generation;
}
}  // namespace

void Worker::RetryTimers::on_timer(std::uint64_t c) {
  const auto index = static_cast<std::uint32_t>((c & ~k_deadline_bit) >> 32);
  const auto generation = static_cast<std::uint32_t>(c);
  if ((c & k_deadline_bit) != 0) {
    m_worker.on_attempt_deadline(index, generation);
  } else {
    m_worker.on_backoff_over(index, generation);
  }
}

// ---- attempts
// -------------------------------------------------------------------------------------------------

void Worker::prepare_attempt(Exchange& r) {
  const RetryPolicy& p = m_plan.retry;
  const SteadyTime overall = r.intended + m_plan.timeout;
  r.deadline =
      p.per_try_timeout.count() > 0 ? std::min(overall, r.attempt_start + p.per_try_timeout) : overall;
  const RequestSpec& spec = m_plan.requests[r.request];
  // A templated or replayed request is in the exchange's buffer, as rendered; a constant one is the plan's.
  if (spec.templ != nullptr || m_replay || r.with_cookies) {
    r.parts = &r.rendered.parts();
    r.prebuilt_http1 = {};
  } else {
    r.parts = &spec.request.parts();
    r.prebuilt_http1 = spec.request.http1();
  }
  // A plan file's scenario may mix calls and HTTP requests: grpc-timeout goes with its calls only.
  const bool deadline_header =
      !p.send_deadline.empty() && (spec.grpc_success != 0 || p.send_deadline != k_grpc_timeout_header);
  r.extra_header = deadline_header ? std::string_view(p.send_deadline) : std::string_view();
  if (deadline_header) {
    // The remaining overall deadline in whole milliseconds, rounded down: the server never believes it has
    // more time than the client gives it. A header of this attempt: the codec serializes it. A gRPC call's
    // grpc-timeout is the attempt's own deadline (the per-try timeout's, when sooner), as gRPC clients send.
    const SteadyTime until = p.send_deadline == k_grpc_timeout_header ? r.deadline : overall;
    const auto remaining =
        std::chrono::duration_cast<std::chrono::milliseconds>(until - r.attempt_start).count();
    r.extra_header_value = std::max<std::int64_t>(0, remaining);
  }
}

void Worker::launch(Connection& c, Exchange& r) {
  r.bytes_out = static_cast<std::uint32_t>(c.request_size(r));
  if (c.state() == Connection::State::closed) {
    ++stats(r.interval).counters.connections_opened;
    if (!c.open()) {  // the socket could not even be created (e.g. out of file descriptors)
      const SteadyTime now = this->now();
      const ErrorKind kind = c.open_failure();
      std::string& example = m_report.first_error[static_cast<std::size_t>(kind)];  // allocates once per kind
      if (example.empty()) example = c.error_string();
      record_attempt(r, now);
      const std::int64_t interval = r.interval;
      const std::int32_t user = r.user;
      const std::int32_t session = r.replay_session;
      const bool retried = end_attempt(
          r, AttemptEnd{AttemptEnd::Kind::error, false, 0, kind, kind == ErrorKind::connect, now});
      if (!retried) {
        m_recorder.remove_pending(interval);
        m_exchanges.release(r);
      }
      // Pooled connections go straight back to the closed list: release() could start a queued request on it
      // and fail the same way, recursively.
      if (user < 0) {
        m_pool.release(c);
        if (!retried) session_ended(session, now);
      } else if (!retried) {
        after_request(static_cast<std::uint32_t>(user), now, Outcome::failed);
      }
      return;
    }
    m_report.peak_connections = std::max(m_report.peak_connections, m_open_count);
  }
  if (r.attempt == 1 && r.resends == 0) {
    m_in_flight.link_by_deadline(r);
  } else {
    m_in_flight.link_timed(r);
    m_timers.schedule(r.deadline, &m_retry_timers, cookie(true, r.id, r.generation));
  }
  c.start(r);
}

void Worker::record_attempt(Exchange& r, SteadyTime end) {
  if (r.stamp_at_write) stamp_sent(r, r.sent);  // never written: its lateness ends where it took a stream
  results::record_ns(stats(r.interval).attempt_time, (end - r.attempt_start).count());
}

void Worker::settle(const Exchange& r, const AttemptEnd& e) {
  switch (e.kind) {
    case AttemptEnd::Kind::response: {
      const std::int64_t rt = (e.at - r.intended).count(), st = (e.at - r.sent).count();
      const int status = e.status;
      const std::size_t status_class =
          status >= 100 && status < 600 ? static_cast<std::size_t>(status / 100) : 0;
      // A success past the goodput deadline (--deadline, shorter than the timeout) is a response, not ok; so
      // is one whose flow step's capture or check failed.
      const bool ok = e.ok && !e.flow_failed && e.at <= r.intended + m_plan.goodput_deadline();
      const int grpc = e.grpc_status;
      account(r.interval, r.request, [&](results::Counters& k, hdr::Histogram& rh, hdr::Histogram& sh) {
        ++k.completed;
        ++k.status_class[status_class];
        if (grpc >= 0) {
          ++k.grpc_status[static_cast<std::size_t>(grpc)];
          k.grpc_messages_in += e.grpc_messages;
          k.grpc_message_bytes_in += e.grpc_message_bytes;
        }
        if (ok) ++k.ok;
        results::record_ns(rh, rt);
        results::record_ns(sh, st);
      });
      if (r.interval >= 0) m_report.trace.add_latency(r.intended - m_start, rt);
      const RecordOutcome logged = ok                      ? RecordOutcome::ok
                                   : e.ok && e.flow_failed ? RecordOutcome::check_failed
                                                           : RecordOutcome::status;
      log_request(r, logged, e.at, status, ErrorKind::connect, e.grpc_status);
      return;
    }
    case AttemptEnd::Kind::error: {
      const ErrorKind kind = e.error;
      account(r.interval, r.request, [kind](results::Counters& k, auto&, auto&) { ++k.error(kind); });
      log_request(r, RecordOutcome::error, e.at, 0, kind);
      return;
    }
    case AttemptEnd::Kind::timeout: {
      const std::int64_t censored = (e.at - r.intended).count();
      account(r.interval, r.request, [censored](results::Counters& k, hdr::Histogram& rh, auto&) {
        ++k.timeouts;
        results::record_ns(rh, censored);  // censored at the deadline (or the last per-try cut)
      });
      if (r.interval >= 0) m_report.trace.add_latency(r.intended - m_start, censored);
      log_request(r, RecordOutcome::timeout, e.at);
      return;
    }
  }
}

// ---- the retry decision
// ---------------------------------------------------------------------------------------

std::uint8_t Worker::retry_class(const Exchange& r, const AttemptEnd& e) const {
  switch (e.kind) {
    case AttemptEnd::Kind::response:
      if (e.ok) return 0;
      // A gRPC call's HTTP status is 200: its grpc-status says whether the server was overloaded.
      if (e.grpc_status == k_grpc_resource_exhausted) return k_retry_429;
      if (e.grpc_status == k_grpc_unavailable) return k_retry_5xx;
      if (e.status == 429) return k_retry_429;
      return e.status >= 500 && e.status <= 599 ? k_retry_5xx : 0;
    case AttemptEnd::Kind::error:
      // Only an attempt the server cannot have acted on (today: a connection that was never made).
      return e.retryable ? k_retry_connect : 0;
    case AttemptEnd::Kind::timeout:
      // Only a per-try cut is retried: past the overall deadline nobody waits for the answer.
      return r.deadline < r.intended + m_plan.timeout ? k_retry_timeout : 0;
  }
  return 0;
}

bool Worker::end_attempt(Exchange& r, const AttemptEnd& e, std::string_view retry_after) {
  if (retry_chosen(r, e, retry_after)) return true;
  settle(r, e);
  return false;
}

bool Worker::retry_chosen(Exchange& r, const AttemptEnd& e, std::string_view retry_after) {
  const RetryPolicy& p = m_plan.retry;
  if (!p.enabled()) return false;
  if (e.kind == AttemptEnd::Kind::response && e.ok) {
    m_budget.on_success(r.retry_cost);
    return false;
  }
  if (!p.retries(retry_class(r, e))) return false;
  // A retryable failure counts against gRPC-style tokens whether or not a retry follows (as grpc-go does).
  m_budget.on_retryable_failure();
  if (r.attempt >= p.attempts) return false;
  Nanos wait{-1};
  if (p.honor_retry_after && e.kind == AttemptEnd::Kind::response && (e.status == 429 || e.status == 503)) {
    if (const auto after = parse_retry_after(retry_after)) wait = *after;
  }
  // gRPC's pushback, honoured as Retry-After is (the codec captures it only with --honor-retry-after): a
  // negative or malformed one says do not retry (gRFC A6).
  if (e.kind == AttemptEnd::Kind::response && e.grpc_pushback_ms != -1) {
    if (e.grpc_pushback_ms < 0) return false;
    wait = std::chrono::milliseconds(e.grpc_pushback_ms);
  }
  const bool from_header = wait.count() >= 0;
  if (!from_header) wait = p.backoff_delay(m_retry_rng, r.attempt, r.last_backoff);
  // The next attempt must start before the overall deadline; if it cannot, the request ends as this attempt
  // did.
  const SteadyTime wake = e.at + wait;
  if (wake >= r.intended + m_plan.timeout) return false;
  double cost = 0;
  if (!m_budget.try_withdraw(e.at, e.kind == AttemptEnd::Kind::timeout, cost)) {
    account(r.interval, r.request, [](results::Counters& k, auto&, auto&) { ++k.retry_budget_denied; });
    return false;
  }
  schedule_retry(r, e, wake, from_header ? r.last_backoff : wait, cost);
  return true;
}

void Worker::schedule_retry(Exchange& r, const AttemptEnd& e, SteadyTime wake, Nanos backoff, double cost) {
  r.attempt = static_cast<std::uint16_t>(r.attempt + 1);
  r.resending = false;
  r.last_backoff = backoff;
  r.retry_cost = cost;
  park(r, e, wake, false);
}

bool Worker::resend(Exchange& r, Connection& c, const AttemptEnd& e) {
  // The first resend goes at once (after a GOAWAY, on another connection); a stream refused again waits 1, 2,
  // 4 ... ms, so a server that refuses above a stream bound lower than its SETTINGS say gets time to free one
  // instead of a resend storm. A resend that could not start before the deadline is not made: the refusal is
  // the request's outcome, as it is after k_max_resends.
  const Nanos wait = r.resends == 0 ? Nanos{0} : k_resend_recheck * (1U << (r.resends - 1));
  if (r.resends >= k_max_resends || e.at + wait >= r.intended + m_plan.timeout) return false;
  ++r.resends;
  r.resending = true;
  account(r.interval, r.request, [](results::Counters& k, auto&, auto&) { ++k.resent; });
  const std::int32_t user = r.user;
  // Through the timer queue even at once: the refusal is reported from inside the codec's read, and a resend on
  // the same connection or a poll for another must not run within it.
  park(r, e, e.at + wait, true);
  detach(r, c, user);
  return true;
}

void Worker::park(Exchange& r, const AttemptEnd& e, SteadyTime wake, bool is_resend) {
  std::uint32_t slot = 0;
  if (m_free_waits.empty()) {
    slot = static_cast<std::uint32_t>(m_waits.size());
    m_waits.emplace_back();  // grows while warming up; slots are reused after
  } else {
    slot = m_free_waits.back();
    m_free_waits.pop_back();
  }
  RetryWait& w = m_waits[slot];
  // The exchange waits as the next attempt. A templated request resends the same rendered request (same
  // keys), with its own deadline header.
  r.parts = nullptr;
  r.prebuilt_http1 = {};
  r.bytes_out = 0;
  w.next = &r;
  w.last = e;
  w.active = true;
  w.resend = is_resend;
  ++w.generation;
  ++m_waiting;
  m_timers.schedule(wake, &m_retry_timers, cookie(false, slot, w.generation));
}

void Worker::detach(Exchange& x, Connection& c, std::int32_t user) {
  // The logical request waits without a connection: a pooled one goes back to the pool, a user's stays with
  // it.
  m_in_flight.unlink(x);
  x.connection = nullptr;
  if (user < 0) release(c);
}

void Worker::on_backoff_over(std::uint32_t slot, std::uint32_t generation) {
  if (!m_waits[slot].active || m_waits[slot].generation != generation) return;
  m_waits[slot].active = false;
  --m_waiting;
  Exchange& r = *m_waits[slot].next;
  const bool resending = m_waits[slot].resend;
  const SteadyTime now = this->now();
  const SteadyTime overall = r.intended + m_plan.timeout;
  Connection* c = nullptr;
  if (now < overall) {
    if (r.user >= 0) {
      const User& user = m_users[static_cast<std::size_t>(r.user)];
      if (user.active) c = user.conn;
      // A user's connection draining after GOAWAY takes no stream until it has closed (then it reopens).
      if (resending && c != nullptr && c->state() == Connection::State::ready && c->free_slots() == 0)
        c = nullptr;
    } else if (m_queue_size == 0 || resending) {
      c = free_connection();  // may poll I/O: callbacks may add wait slots, so m_waits is indexed afresh
                              // below
    }
  }
  if (c == nullptr && resending && now < overall &&
      (r.user < 0 || m_users[static_cast<std::size_t>(r.user)].active)) {
    // No slot for the resend yet: look again shortly (the request still ends by its deadline).
    RetryWait& again = m_waits[slot];
    again.active = true;
    ++again.generation;
    ++m_waiting;
    m_timers.schedule(std::min(now + k_resend_recheck, overall), &m_retry_timers,
                      cookie(false, slot, again.generation));
    return;
  }
  RetryWait& w = m_waits[slot];
  if (resending && c == nullptr && now >= overall) {
    // The deadline passed while the resend waited for a slot: a timeout censored at the deadline.
    w.last = AttemptEnd{AttemptEnd::Kind::timeout, false, 0, ErrorKind::connect, false, overall};
  }
  if (c == nullptr) {
    // The retry cannot start (the loop woke past the deadline, or no connection is free at the cap): the
    // request ends as its last attempt did, at the time that attempt ended.
    settle(r, w.last);
    m_free_waits.push_back(slot);
    m_recorder.remove_pending(r.interval);
    const std::int32_t user = r.user;
    const std::int32_t session = r.replay_session;
    m_exchanges.release(r);
    if (user >= 0) after_request(static_cast<std::uint32_t>(user), now, Outcome::failed);
    session_ended(session, now);
    return;
  }
  r.attempt_start = now;
  prepare_attempt(r);
  m_free_waits.push_back(slot);  // only now: launch() may need a slot
  launch(*c, r);
}

void Worker::on_attempt_deadline(std::uint32_t id, std::uint32_t generation) {
  Exchange& x = m_exchanges.at(id);
  if (x.list != Exchange::List::by_timer || x.generation != generation) return;
  cut(x, now());
}

void Worker::resolve_waits(SteadyTime end) {
  for (std::uint32_t slot = 0; slot < m_waits.size(); ++slot) {
    RetryWait& w = m_waits[slot];
    if (!w.active) continue;
    Exchange& r = *w.next;
    const std::int64_t censored = (end - r.intended).count();
    account(r.interval, r.request, [censored](results::Counters& k, hdr::Histogram& rh, auto&) {
      ++k.unfinished;
      results::record_ns(rh, censored);
    });
    log_request(r, RecordOutcome::unfinished, end);
    m_recorder.remove_pending(r.interval);
    w.active = false;
    --m_waiting;
    m_free_waits.push_back(slot);
    m_exchanges.release(r);
  }
}

}  // namespace openloop::engine

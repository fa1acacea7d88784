// Open-model arrivals and the shared request path: the schedule's due arrivals, the request mix, a connection
// from the pool (or the saturation queue, or a drop), and the start of a request's first attempt.
#include <algorithm>

#include <fmt/format.h>

#include "engine/worker.h"
#include "http/request_copy.h"

namespace openloop::engine {

using results::ErrorKind;

namespace {
// A templated request's body replaced by its encoding (RequestSpec::encoder) in place: a field ended again
// keeps its last value. False, with why in `encoded`, when it does not encode.
bool encode_body(const BodyEncoder& encoder, http::RequestBuffer& b, std::string& encoded) {
  if (!encoder.encode(b.parts().body, encoded)) return false;
  const http::RequestFlags flags = b.parts().flags;
  b.append(encoded);
  b.end(http::RequestBuffer::Field::body);
  b.finish(flags);
  return true;
}

// Due arrivals issued per loop round before the loop polls I/O, hands intervals over and reads the stop flag
// again: at a few µs each, well under a millisecond of work.
constexpr std::size_t k_max_arrivals_per_round = 256;

bool is_cookie(std::string_view name) {
  constexpr std::string_view k_cookie = "cookie";
  return name.size() == k_cookie.size() &&
         std::equal(name.begin(), name.end(), k_cookie.begin(),
                    [](char a, char b) { return (a >= 'A' && a <= 'Z' ? a - 'A' + 'a' : a) == b; });
}

// A flow step's request with its session's cookies: the rendered request (or a copy of the plan's constant
// one) and a Cookie header, in the exchange's buffer, which every attempt then sends. A request that gives
// its own Cookie header keeps it and gets nothing from the jar (one Cookie header per request, RFC 6265).
void add_cookies(FlowRunner& flow, std::uint32_t user, const RequestSpec& spec, Exchange& x) {
  const http::RequestParts& p = spec.templ != nullptr ? x.rendered.parts() : spec.request.parts();
  const auto own = [](const http::HeaderView& h) { return is_cookie(h.name); };
  if (std::any_of(p.headers.begin(), p.headers.end(), own)) return;
  const std::string_view cookies = flow.cookie_header(user, p.target);
  if (cookies.empty()) return;
  http::RequestBuffer& out = x.rendered;
  using Field = http::RequestBuffer::Field;
  if (spec.templ == nullptr) http::copy_request(p, p.body, out);  // the constant request (capacity reused)
  const http::RequestFlags flags = out.parts().flags;
  out.append("Cookie");
  out.end(Field::header_name);
  out.append(cookies);
  out.end(Field::header_value);
  out.finish(flags);
  x.with_cookies = true;
}
}  // namespace

void Worker::issue_due_arrivals(SteadyTime now) {
  // Intended times come from the schedule alone; a late loop issues the backlog with its original times. At
  // most a bounded batch per loop round: a backlog the worker cannot work off (a rate beyond the machine)
  // would otherwise keep it here for ever, never reading responses, handing intervals over or seeing a stop
  // request.
  m_capped = false;
  for (std::size_t issued = 0; m_next_arrival && m_start + *m_next_arrival <= now; ++issued) {
    if (issued == k_max_arrivals_per_round) {
      m_capped = true;
      return;
    }
    m_report.trace.add_arrival(*m_next_arrival, now - m_start);
    if (m_plan.model == Model::sessions) {
      session_arrival(m_start + *m_next_arrival);
    } else if (m_sessions && m_replay->session() != 0) {
      session_record(m_start + *m_next_arrival);
    } else {
      arrival(m_start + *m_next_arrival);
    }
    m_next_arrival = next_arrival();
  }
}

void Worker::abandon_schedule() {
  // Every arrival the schedule still holds was intended and is accounted for: dropped (never sent) in its own
  // interval, and counted in the report for the verdict's reason (the generator's fault, not the pool's or
  // the target's). A session's requests were never drawn, so an abandoned session is counted in the report
  // only.
  for (; m_next_arrival; m_next_arrival = next_arrival()) {
    ++m_report.abandoned;
    if (m_plan.model != Model::sessions) drop_arrival(m_start + *m_next_arrival, ErrorKind::generator);
  }
}

void Worker::drop_arrival(SteadyTime intended, ErrorKind why) {
  const std::int64_t interval = m_recorder.index_of(intended - m_measure_start);
  const std::uint32_t request = pick_request();
  account(interval, request, [](results::Counters& c, auto&, auto&) {
    ++c.intended;
    ++c.dropped;
  });
  if (m_log != nullptr)
    push_record(intended, interval, request, nullptr, RecordOutcome::dropped, SteadyTime{}, 0, why);
}

std::optional<Nanos> Worker::next_arrival() {
  if (!m_replay) return m_schedule.next();
  auto next = m_replay->next();
  if (!next) {
    // The trace read cleanly before the run (workload::scan_replay): it changed or vanished since. The
    // schedule ends here and the run says why (the coordinator makes it INVALID).
    if (m_report.loop_failure.empty())
      m_report.loop_failure = fmt::format("worker {}: reading the trace failed: {}", m_index, next.error().message);
    return std::nullopt;
  }
  if (*next) workload::render_record(m_replay->record(), m_plan.url.host_header, m_plan.headers, m_replayed);
  return *next;
}

std::uint32_t Worker::pick_request() {
  if (m_mix_cumulative.size() == 1) return 0;
  if (m_plan.round_robin) {
    const std::uint32_t pick = m_next_pick;
    m_next_pick = pick + 1 == m_mix_cumulative.size() ? 0 : pick + 1;
    return pick;
  }
  const double x = m_rng.uniform01() * m_mix_cumulative.back();
  const auto it = std::upper_bound(m_mix_cumulative.begin(), m_mix_cumulative.end(), x);
  return static_cast<std::uint32_t>(std::min<std::ptrdiff_t>(
      it - m_mix_cumulative.begin(), static_cast<std::ptrdiff_t>(m_mix_cumulative.size()) - 1));
}

Connection* Worker::free_connection() {
  // Before opening a new connection, collect responses that have already arrived: when the loop is behind,
  // the due arrivals are issued before I/O is polled, and opening a connection per arrival (socket, connect,
  // epoll_ctl) would slow the loop further and spiral. A zero-timeout poll returns connections to the idle
  // pool cheaply.
  if (!m_pool.has_ready()) m_loop->poll(SteadyTime{});   // an interrupted poll harvests nothing: use the pool
  if (m_in_flight.size() >= m_slot_cap) return nullptr;  // the concurrency cap, whatever the connections
  return m_pool.acquire();
}

void Worker::arrival(SteadyTime intended, std::int32_t replay_session, http::RequestBuffer* replayed) {
  const std::int64_t interval = m_recorder.index_of(intended - m_measure_start);
  const std::uint32_t request = pick_request();
  account(interval, request, [](results::Counters& c, auto&, auto&) { ++c.intended; });
  if (replayed == nullptr && m_replay) replayed = &m_replayed;
  Connection* conn =
      m_queue_size == 0 ? free_connection() : nullptr;  // a non-empty queue keeps arrivals in order
  if (conn != nullptr) {
    start_request(*conn, intended, interval, request, -1, replayed, replay_session);
    return;
  }
  if (m_plan.on_saturation == OnSaturation::queue && m_queue_size < m_queue.size()) {
    const std::size_t slot = (m_queue_head + m_queue_size) % m_queue.size();
    m_queue[slot] = Queued{intended, interval, request, now(), replay_session};
    if (replayed != nullptr) std::swap(m_queue_requests[slot], *replayed);  // the record waits with its arrival
    ++m_queue_size;
    account(interval, request, [](results::Counters& c, auto&, auto&) { ++c.slot_waits; });
    m_recorder.add_pending(interval);
    return;
  }
  account(interval, request, [](results::Counters& c, auto&, auto&) { ++c.dropped; });
  if (m_log != nullptr)
    push_record(intended, interval, request, nullptr, RecordOutcome::dropped, SteadyTime{}, 0,
                ErrorKind::connect);
  session_ended(replay_session, now());
}

void Worker::push_record(SteadyTime intended, std::int64_t interval, std::uint32_t request, const Exchange* r,
                         RecordOutcome outcome, SteadyTime end, int status, ErrorKind error,
                         int grpc_status) {
  RequestRecord rec;
  rec.intended = intended;
  rec.end = end;
  rec.request = request;
  rec.outcome = outcome;
  rec.error = error;
  rec.warmup = interval < 0;
  rec.worker = static_cast<std::uint16_t>(m_index);
  if (r != nullptr && r->carrier_id > 0 && r->carrier_id <= m_pool.size()) {
    rec.connection = r->carrier_id;
    rec.stream = r->stream_id;
    rec.protocol = static_cast<std::uint8_t>(m_pool.at(r->carrier_id - 1).protocol() == Protocol::http2 ? 2 : 1);
  }
  if (r != nullptr) {
    if (r->logical_sent) {
      rec.sent = r->sent;
      rec.attempts = r->attempt;
    }
    rec.bytes_out = r->bytes_out;
    rec.phases = r->phases;  // the last attempt's: all of them, or those it reached before failing
    if (status != 0) {       // a response: the bytes of the attempt that received it
      rec.status = static_cast<std::int16_t>(status);
      rec.grpc_status = static_cast<std::int8_t>(grpc_status);
      rec.bytes_in = r->bytes_in;
    }
  }
  m_log->push(rec);
}

void Worker::start_request(Connection& c, SteadyTime intended, std::int64_t interval, std::uint32_t request,
                           std::int32_t user, http::RequestBuffer* replayed, std::int32_t replay_session) {
  m_recorder.add_pending(interval);
  const RequestSpec& spec = m_plan.requests[request];
  // The generator starts working on the request now: on an idle connection it writes at once, otherwise it
  // first connects (and handshakes). Send lateness ends here, so it measures the generator's own delay, not
  // the protocol's; connection setup is part of service time, as it is for a real client on a fresh
  // connection.
  // On a ready HTTP/2 connection the write comes at the end of this loop round, with every stream started in
  // it: its lateness and service time start at that write instead (stamp_sent, from on_sent).
  const SteadyTime dispatched = now();
  results::IntervalStats& s = stats(interval);
  const bool at_write = c.defers_writes();
  if (!at_write) results::record_ns(s.send_lateness, (dispatched - intended).count());
  if (m_auto) s.coalesce_ns = std::max<std::int64_t>(s.coalesce_ns, m_window.count());
  m_budget.on_request(dispatched);
  Exchange& x = m_exchanges.acquire();
  x.intended = intended;
  x.sent = dispatched;
  x.stamp_at_write = at_write;
  x.deadline = intended + m_plan.timeout;
  x.interval = interval;
  x.request = request;
  x.user = user;
  x.replay_session = replay_session;
  x.head = spec.head();
  if (replayed != nullptr) {
    std::swap(x.rendered, *replayed);  // the exchange's old buffer goes back: capacity reused, nothing allocated
    x.head = x.rendered.parts().method == "HEAD";
  }
  x.attempt_start = dispatched;
  if (spec.templ != nullptr) spec.templ->render(*m_render, x.rendered);  // draws this request's variables
  if (spec.encoder != nullptr && !encode_body(*spec.encoder, x.rendered, m_encoded)) {
    // The rendered body does not encode (a templated gRPC message whose drawn values do not fit it): the
    // generator's failure (the run is INVALID), never sent; m_encoded says why.
    std::string& example = m_report.first_error[static_cast<std::size_t>(ErrorKind::generator)];
    if (example.empty()) example = m_encoded;  // allocates once
    const SteadyTime t = now();
    record_attempt(x, t);
    settle(x, AttemptEnd{AttemptEnd::Kind::error, false, 0, ErrorKind::generator, false, t});
    finish_request(x, c, t, Outcome::failed);
    return;
  }
  x.with_cookies = false;
  if (m_flow && user >= 0) add_cookies(*m_flow, static_cast<std::uint32_t>(user), spec, x);
  prepare_attempt(x);
  launch(c, x);
}

void Worker::release(Connection& c) {
  // The queue's head requests take every free slot of the connection, not one: an HTTP/2 connection that
  // becomes ready (one release) with the queue longer than its streams must not start only one, or the queue
  // would never drain (one in per arrival, one out per response, a single stream in use). It may have no free
  // stream right now (a cancelled stream's reset not yet out): the head then waits for the next release.
  bool started = false;
  while (m_queue_size > 0 && c.free_slots() > 0) {
    const Queued q = m_queue[m_queue_head];
    http::RequestBuffer* replayed = m_replay ? &m_queue_requests[m_queue_head] : nullptr;
    m_queue_head = (m_queue_head + 1) % m_queue.size();
    --m_queue_size;
    results::record_ns(stats(q.interval).slot_wait, (now() - q.queued).count());
    m_recorder.remove_pending(q.interval);  // start_request counts it again
    start_request(c, q.intended, q.interval, q.request, -1, replayed, q.replay_session);
    started = true;
  }
  // A connection the queue left free slots on goes back to the pool for the next arrival.
  if (!started || c.free_slots() > 0) m_pool.release(c);
}

}  // namespace openloop::engine

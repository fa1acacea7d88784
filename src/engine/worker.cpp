// The worker loop: issue due arrivals, fire user timers, expire deadlines, wait for I/O until the next
// deadline; account every outcome to the interval of its intended time.
#include "engine/worker.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include <fmt/format.h>
#include <sys/resource.h>

#include "core/contention.h"
#include "net/errno_text.h"

namespace openloop::engine {

using results::ErrorKind;

namespace {
constexpr std::size_t k_read_buffer = 64 * 1024;
constexpr auto k_handover_period = std::chrono::milliseconds(100);
// The measured cost of a timed wait is trusted up to this: spinning through longer waits would hold a core
// that a busy machine's other processes need.
constexpr Nanos k_max_auto_spin = std::chrono::microseconds(30);
// Spare intervals kept at hand (and as many waiting to be taken): two cover an interval opening before the
// next hand-over; more would only hold memory (about 1.3 MB each).
constexpr std::size_t k_max_spares = 2;
// Due arrivals issued per loop round before the loop polls I/O, hands intervals over and reads the stop flag
// again: at a few µs each, well under a millisecond of work.
constexpr std::size_t k_max_arrivals_per_round = 256;

std::uint64_t share(std::uint64_t total, unsigned threads, unsigned index) {
  return total / threads + (index < total % threads ? 1 : 0);
}

// The workers of every scenario of every host shard, numbered shard-major: this worker's number and how many
// there are (each shard running the same thread count). Unsharded: plan.worker_base + index of
// workers_total, as always. Variables' counters and streams, and scenarios' random streams, use it, so no
// two workers of any shard draw the same values, and sequences stay disjoint across shards.
std::pair<unsigned, unsigned> numbered_worker(const RunPlan& plan, unsigned index) {
  const unsigned per_shard = plan.workers_total > 0 ? plan.workers_total : plan.threads;
  return {plan.shard.index * per_shard + plan.worker_base + index, plan.shard.count * per_shard};
}

// Random streams of a run from flags (mix picks, think times; retry jitter), apart in every host shard; the
// same as ever in shard 0.
std::uint64_t shard_stream(const RunPlan& plan, std::uint64_t stream) {
  return stream + (static_cast<std::uint64_t>(plan.shard.index) << 48);
}

double thread_cpu_seconds() {
  rusage ru{};
  getrusage(RUSAGE_THREAD, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}
}  // namespace

Nanos auto_spin_below() {
  auto loop = net::EventLoop::create();
  return loop ? std::min<Nanos>(loop->timed_wait_cost(), k_max_auto_spin) : Nanos(0);
}

Worker::Worker(const RunPlan& plan, unsigned index, SSL_CTX* tls, const std::atomic<int>& stop,
               SteadyTime start)
    : m_plan(plan),
      m_index(index),
      m_stop(stop),
      m_start(start + plan.start_offset),
      m_measure_start(start + plan.start_offset + plan.warmup),
      m_end(start + plan.start_offset + plan.warmup + plan.duration),
      m_schedule(plan.profile, plan.arrival, plan.seed, plan.shard, index, plan.threads),
      m_recorder(plan.interval, plan.requests.size()),
      m_rng(plan.workload ? workload::scenario_rng(plan.workload->scenarios[plan.scenario_index],
                                                   plan.scenario_index, numbered_worker(plan, index).first)
                          : Rng(plan.seed, shard_stream(plan, 1000 + index))),
      m_read_buffer(k_read_buffer),
      m_budget(plan.retry.budget, plan.threads),
      m_retry_rng(plan.seed, shard_stream(plan, 3000 + index)) {
  m_config.endpoint = &plan.endpoints.front();
  m_config.tls = tls;
  m_config.host = plan.url.host;
  m_config.read_buffer = m_read_buffer.data();
  m_config.read_buffer_size = m_read_buffer.size();
  m_config.open_count = &m_open_count;
  m_config.callbacks = this;
  m_config.http1.capture_retry_after = plan.retry.honor_retry_after;
  m_config.http1.capture_server_timing = true;
  m_config.http1.server_timing_metric = plan.server_timing_metric;
  if (plan.request_log != nullptr) m_log = &plan.request_log->ring(plan.worker_base + index);
  double sum = 0;
  for (const auto& r : plan.requests) m_mix_cumulative.push_back(sum += r.weight);
  // Round-robin: each worker starts at its own request, so short runs spread over the targets too.
  const auto [worker, workers] = numbered_worker(plan, index);
  m_next_pick = static_cast<std::uint32_t>((plan.shard.sharded() ? worker : index) %
                                           std::max<std::size_t>(1, plan.requests.size()));
  if (plan.workload) {
    const auto& w = *plan.workload;
    // Variables are numbered across every scenario's workers (and every shard's), so sequences and streams
    // never repeat between them.
    m_render.emplace(w.variables, w.requests.size(), w.seed, worker, workers);
  }
}

Worker::~Worker() {
  for (auto& c : m_connections) c->close();
}

Result<void> Worker::init(Nanos measured_spin_below, net::SimulatedNetwork* sim) {
  if (sim != nullptr) {
    m_loop.emplace(net::EventLoop::simulated(*sim));
  } else {
    m_loop.emplace(OPENLOOP_TRY(net::EventLoop::create()));
  }
  // Sleeping until a deadline costs CPU (a kernel timer, two context switches): measured before each run,
  // that cost is the wait below which polling through is no dearer than sleeping, and far more punctual.
  // Coalesced wake-ups never spin: the point is to wake seldom.
  // --coalesce auto starts precise (window 0, spinning as usual) until service times are measured.
  m_spin_below = m_plan.coalesce.count() > 0 ? Nanos(0)
                 : m_plan.spin_below         ? *m_plan.spin_below
                                             : measured_spin_below;
  if (m_plan.coalesce == k_coalesce_auto) {
    m_auto.emplace(m_plan.max_lateness);
  } else {
    m_window = m_plan.coalesce;
  }
  m_config.stamp_receipts = m_plan.coalesce.count() != 0;
  m_report.spin_below = m_spin_below;
  // The first intervals come from these; later ones reuse spent intervals the coordinator gives back.
  m_recorder.make_spares(k_max_spares);
  // Self-check stamps: room for the lane's arrivals (users: 64 Ki samples), so recording never allocates.
  m_report.trace.reserve(m_plan.user_driven() ? 65536.0 : m_schedule.expected_total(), !m_plan.user_driven());
  std::uint64_t slots = 0;
  switch (m_plan.model) {
    case Model::open:
      slots = m_plan.max_connections_part();
      break;
    case Model::closed:
    case Model::pacing:
      slots = m_plan.users_part();
      break;
    case Model::sessions:
      slots = m_plan.max_sessions_part();
      break;
    case Model::mixed:  // results words only: make_run_plan never builds these
    case Model::unknown:
      break;
  }
  slots = share(slots, m_plan.threads, m_index);
  // A shard's part of a small cap can be below its thread count (the whole plan's threads, the same in every
  // shard): a worker with an arrival schedule still gets one connection, or it would drop every arrival.
  if (m_plan.model == Model::open || m_plan.model == Model::sessions)
    slots = std::max<std::uint64_t>(slots, 1);
  m_connections.reserve(slots);
  m_closed.reserve(slots);
  m_idle.reserve(slots);
  for (std::uint64_t i = 0; i < slots; ++i) {
    m_connections.push_back(std::make_unique<Connection>(*this, *m_loop, m_config));
    m_connections.back()->id = static_cast<std::uint32_t>(i);
    m_closed.push_back(m_connections.back().get());
  }
  std::reverse(m_closed.begin(), m_closed.end());
  m_exchanges.reserve(slots);  // one per connection in flight; backoffs add more while warming up
  if (m_plan.model != Model::open) {
    m_users.resize(slots);
    for (std::uint64_t i = slots; i > 0; --i) m_free_users.push_back(static_cast<std::uint32_t>(i - 1));
  }
  if (m_plan.on_saturation == OnSaturation::queue && m_plan.model == Model::open) {
    const double per_worker = m_plan.profile.max_rate() * m_plan.shard.share() / m_plan.threads;
    const double room = std::ceil(per_worker * to_seconds(m_plan.timeout) * 1.2) + 64;
    m_queue.resize(static_cast<std::size_t>(std::min(room, 4.0e6)));
  }
  return {};
}

// ---- the loop
// -------------------------------------------------------------------------------------------------

void Worker::run() {
  const bool users = m_plan.user_driven();
  const std::optional<Nanos> delay_before =
      m_loop->simulated_network() == nullptr ? thread_run_delay() : std::nullopt;
  m_next_arrival = users ? std::nullopt : m_schedule.next();
  const SteadyTime begin = now();
  if (users) {
    start_users(std::max(begin, m_start));
  } else {
    prewarm();
  }
  m_next_handover = begin + k_handover_period;
  for (;;) {
    const SteadyTime now = this->now();
    // A failed event loop cannot read responses any more: stop at once rather than spin and time out every
    // request (which would blame the target).
    const int stop = m_loop->failure() != 0 ? static_cast<int>(StopRequest::immediate)
                                            : m_stop.load(std::memory_order_relaxed);
    if (m_loop->failure() != 0 && m_report.loop_failure.empty())
      m_report.loop_failure =
          fmt::format("worker {}: waiting for I/O failed: {}", m_index, net::errno_text(m_loop->failure()));
    // An open schedule ends with its last arrival, or one timeout after the end when the worker is still that
    // far behind (a rate beyond this machine): every arrival left is then past its deadline, and issuing the
    // backlog would overrun --duration by as long again.
    const bool schedule_over = users ? now >= m_end : !m_next_arrival || now >= m_end + m_plan.timeout;
    if (m_scheduling && (stop != 0 || schedule_over)) {
      if (stop == 0 && m_next_arrival) abandon_schedule();
      m_scheduling = false;
      m_capped = false;
      m_report.stopped_scheduling = users || stop != 0 ? std::min(now, m_end) : m_end;
      m_grace_end = now + m_plan.timeout + std::chrono::milliseconds(100);
    }
    if (m_scheduling) issue_due_arrivals(now);
    m_timers.fire_due(now);
    expire(now);
    if (!m_scheduling && m_in_flight.empty() && m_waiting == 0 && m_queue_size == 0) break;
    if (!m_scheduling && (now >= m_grace_end || stop == static_cast<int>(StopRequest::immediate))) {
      resolve_unfinished(now);
      break;
    }
    if (now >= m_next_handover) {
      hand_over(false);
      m_next_handover = now + k_handover_period;
    }
    m_in_flight_now.store(m_in_flight.size() + m_queue_size, std::memory_order_relaxed);
    m_open_now.store(m_open_count, std::memory_order_relaxed);
    wait_until(next_wakeup());
  }
  stop_users();
  for (auto& c : m_connections) c->close();
  m_report.cpu_seconds = thread_cpu_seconds();
  if (const auto delay_after = delay_before ? thread_run_delay() : std::nullopt)
    m_report.run_delay = *delay_after - *delay_before;
  m_report.spin_seconds = to_seconds(m_spun);
  if (m_render) {
    for (std::size_t i = 0; i < m_plan.workload->requests.size(); ++i)
      m_report.keys.push_back(m_render->keys(i));
  }
  hand_over(true);
  m_done.store(true, std::memory_order_release);
}

void Worker::prewarm() {
  // Open a few connections before the first arrival, enough for about half a millisecond of this worker's
  // peak rate, so the first requests do not all pay for a connect. They are counted with the warm-up.
  const double rate = m_plan.profile.max_rate() * m_plan.shard.share() *
                      static_cast<double>(std::max<std::size_t>(1, m_plan.steps.size())) / m_plan.threads;
  const auto wanted = std::min<std::size_t>(m_closed.size(), static_cast<std::size_t>(rate * 0.0005) + 2);
  for (std::size_t i = 0; i < wanted; ++i) {
    Connection* c = m_closed.back();
    if (!c->open()) break;
    m_closed.pop_back();
    ++stats(-1).counters.connections_opened;
  }
  m_report.peak_connections = std::max(m_report.peak_connections, m_open_count);
}

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
  if (wake - now > m_spin_below) {
    m_loop->poll(wake);
    return;
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

void Worker::hand_over(bool all) {
  if (all) {
    m_recorder.take_all(m_finished);
  } else {
    m_recorder.take_finished(horizon(now()), m_finished);
  }
  // --coalesce auto: once per finished interval, off the per-request path, from its service times (the
  // kernel's stamps while coalescing, so the window does not feed on itself).
  if (m_auto) {
    for (const auto& s : m_finished) m_window = m_auto->update(s.service_time);
  }
  std::lock_guard lock(m_outbox_mutex);
  for (auto& s : m_finished) m_outbox.push_back(std::move(s));
  m_finished.clear();
  m_recorder.add_spares(m_returned, k_max_spares);
}

void Worker::give_spares(std::vector<results::IntervalStats>& spares) {
  std::lock_guard lock(m_outbox_mutex);
  while (!spares.empty() && m_returned.size() < k_max_spares) {
    m_returned.push_back(std::move(spares.back()));
    spares.pop_back();
  }
}

void Worker::take_intervals(std::vector<results::IntervalStats>& out) {
  std::lock_guard lock(m_outbox_mutex);
  for (auto& s : m_outbox) out.push_back(std::move(s));
  m_outbox.clear();
}

// ---- arrivals and the request path
// ----------------------------------------------------------------------------

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
    } else {
      arrival(m_start + *m_next_arrival);
    }
    m_next_arrival = m_schedule.next();
  }
}

void Worker::abandon_schedule() {
  // Every arrival the schedule still holds was intended and is accounted for: dropped (never sent) in its own
  // interval, and counted in the report for the verdict's reason (the generator's fault, not the pool's or
  // the target's). A session's requests were never drawn, so an abandoned session is counted in the report
  // only.
  for (; m_next_arrival; m_next_arrival = m_schedule.next()) {
    ++m_report.abandoned;
    if (m_plan.model == Model::sessions) continue;
    const SteadyTime intended = m_start + *m_next_arrival;
    const std::int64_t interval = m_recorder.index_of(intended - m_measure_start);
    const std::uint32_t request = pick_request();
    account(interval, request, [](results::Counters& c, auto&, auto&) {
      ++c.intended;
      ++c.dropped;
    });
    if (m_log != nullptr)
      push_record(intended, interval, request, nullptr, RecordOutcome::dropped, SteadyTime{}, 0,
                  ErrorKind::generator);
  }
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
  Connection* conn = nullptr;
  // Before opening a new connection, collect responses that have already arrived: when the loop is behind,
  // the due arrivals are issued before I/O is polled, and opening a connection per arrival (socket, connect,
  // epoll_ctl) would slow the loop further and spiral. A zero-timeout poll returns connections to the idle
  // pool cheaply.
  if (m_idle.empty()) m_loop->poll(SteadyTime{});  // an interrupted poll harvests nothing: use the pool
  if (!m_idle.empty()) {
    conn = m_idle.back();
    m_idle.pop_back();
  } else if (!m_closed.empty()) {
    conn = m_closed.back();
    m_closed.pop_back();
  }
  return conn;
}

void Worker::arrival(SteadyTime intended) {
  const std::int64_t interval = m_recorder.index_of(intended - m_measure_start);
  const std::uint32_t request = pick_request();
  account(interval, request, [](results::Counters& c, auto&, auto&) { ++c.intended; });
  Connection* conn =
      m_queue_size == 0 ? free_connection() : nullptr;  // a non-empty queue keeps arrivals in order
  if (conn != nullptr) {
    start_request(*conn, intended, interval, request, -1);
    return;
  }
  if (m_plan.on_saturation == OnSaturation::queue && m_queue_size < m_queue.size()) {
    m_queue[(m_queue_head + m_queue_size) % m_queue.size()] = Queued{intended, interval, request};
    ++m_queue_size;
    m_recorder.add_pending(interval);
    return;
  }
  account(interval, request, [](results::Counters& c, auto&, auto&) { ++c.dropped; });
  if (m_log != nullptr)
    push_record(intended, interval, request, nullptr, RecordOutcome::dropped, SteadyTime{}, 0,
                ErrorKind::connect);
}

void Worker::push_record(SteadyTime intended, std::int64_t interval, std::uint32_t request, const Exchange* r,
                         RecordOutcome outcome, SteadyTime end, int status, ErrorKind error) {
  RequestRecord rec;
  rec.intended = intended;
  rec.end = end;
  rec.request = request;
  rec.outcome = outcome;
  rec.error = error;
  rec.warmup = interval < 0;
  if (r != nullptr) {
    if (r->logical_sent) {
      rec.sent = r->sent;
      rec.attempts = r->attempt;
    }
    rec.bytes_out = static_cast<std::uint32_t>(r->bytes.size());
    rec.phases = r->phases;  // the last attempt's: all of them, or those it reached before failing
    if (status != 0) {       // a response: the bytes of the attempt that received it
      rec.status = static_cast<std::int16_t>(status);
      rec.bytes_in = r->bytes_in;
    }
  }
  m_log->push(rec);
}

void Worker::start_request(Connection& c, SteadyTime intended, std::int64_t interval, std::uint32_t request,
                           std::int32_t user) {
  m_recorder.add_pending(interval);
  const RequestSpec& spec = m_plan.requests[request];
  // The generator starts working on the request now: on an idle connection it writes at once, otherwise it
  // first connects (and handshakes). Send lateness ends here, so it measures the generator's own delay, not
  // the protocol's; connection setup is part of service time, as it is for a real client on a fresh
  // connection.
  const SteadyTime dispatched = now();
  results::IntervalStats& s = stats(interval);
  results::record_ns(s.send_lateness, (dispatched - intended).count());
  if (m_auto) s.coalesce_ns = std::max<std::int64_t>(s.coalesce_ns, m_window.count());
  m_budget.on_request(dispatched);
  Exchange& x = m_exchanges.acquire();
  x.intended = intended;
  x.sent = dispatched;
  x.deadline = intended + m_plan.timeout;
  x.interval = interval;
  x.request = request;
  x.user = user;
  x.head = spec.head();
  x.attempt_start = dispatched;
  if (spec.templ != nullptr) spec.templ->render(*m_render, x.out);  // draws this request's variables
  prepare_attempt(x);
  launch(c, x);
}

void Worker::release(Connection& c) {
  if (m_queue_size > 0) {
    const Queued q = m_queue[m_queue_head];
    m_queue_head = (m_queue_head + 1) % m_queue.size();
    --m_queue_size;
    m_recorder.remove_pending(q.interval);  // start_request counts it again
    start_request(c, q.intended, q.interval, q.request, -1);
    return;
  }
  if (c.state() == Connection::State::closed) {
    m_closed.push_back(&c);
  } else {
    m_idle.push_back(&c);
  }
}

// ---- outcomes
// -------------------------------------------------------------------------------------------------

void Worker::on_sent(Exchange& r, std::size_t bytes) {
  const bool first_sent = !r.logical_sent, retry = r.attempt > 1;
  account(r.interval, r.request, [=](results::Counters& k, auto&, auto&) {
    if (first_sent) ++k.sent;  // the logical request counts as sent once, whichever attempt went out first
    ++k.attempts;
    if (retry) ++k.retries;
    k.bytes_out += bytes;
  });
  r.logical_sent = true;
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
  const bool ok = status >= spec.success_min && status <= spec.success_max;
  const std::int32_t user = r.user;
  if (end_attempt(r, AttemptEnd{AttemptEnd::Kind::response, ok, status, ErrorKind::connect, false, now},
                  result.retry_after)) {
    detach(r, c, user);
    return;
  }
  finish_request(r, c, now, ok ? Outcome::ok : Outcome::failed);
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
  if (end_attempt(r, AttemptEnd{AttemptEnd::Kind::error, false, 0, kind, error.retryable, now})) {
    detach(r, c, user);
    return;
  }
  finish_request(r, c, now, Outcome::failed);
}

void Worker::on_closed_idle(Connection& c) {
  // A connection with no request closed (an idle keep-alive connection the server closed). A user's
  // connection stays with its user and reopens on the next request; a pooled one goes back to the pool.
  if (c.holder >= 0) return;
  auto it = std::find(m_idle.begin(), m_idle.end(), &c);
  if (it != m_idle.end()) m_idle.erase(it);
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
  m_exchanges.release(x);
  if (user < 0) {
    release(c);
  } else {
    after_request(static_cast<std::uint32_t>(user), now, outcome);
  }
}

void Worker::cut(Exchange& r, SteadyTime now) {
  Connection& c = *r.connection;
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
    if (m_log != nullptr)
      push_record(q.intended, q.interval, q.request, nullptr, RecordOutcome::timeout,
                  q.intended + m_plan.timeout, 0, ErrorKind::connect);
    m_recorder.remove_pending(q.interval);
  }
  while (m_in_flight.earliest() != nullptr && m_in_flight.earliest()->deadline <= now)
    cut(*m_in_flight.earliest(), now);
}

void Worker::unfinished(Exchange& r, SteadyTime end) {
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
    if (m_log != nullptr)
      push_record(q.intended, q.interval, q.request, nullptr, RecordOutcome::unfinished, end, 0,
                  ErrorKind::connect);
    m_recorder.remove_pending(q.interval);
  }
}

}  // namespace openloop::engine

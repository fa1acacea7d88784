// The worker loop: issue due arrivals, expire deadlines, wait for I/O until the next deadline; account everything.
#include "engine/worker.h"

#include <algorithm>
#include <cmath>

#include <sys/resource.h>

namespace openloop::engine {

using results::ErrorKind;

namespace {
constexpr std::size_t k_read_buffer = 64 * 1024;
constexpr auto k_handover_period = std::chrono::milliseconds(100);

std::uint64_t share(std::uint64_t total, unsigned threads, unsigned index) {
  return total / threads + (index < total % threads ? 1 : 0);
}

double thread_cpu_seconds() {
  rusage ru{};
  getrusage(RUSAGE_THREAD, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}
}  // namespace

Worker::Worker(const RunPlan& plan, unsigned index, SSL_CTX* tls, const std::atomic<int>& stop, SteadyTime start)
    : m_plan(plan),
      m_index(index),
      m_stop(stop),
      m_start(start),
      m_measure_start(start + plan.warmup),
      m_end(start + plan.warmup + plan.duration),
      m_schedule(plan.profile, plan.arrival, plan.seed, index, plan.threads),
      m_recorder(plan.interval),
      m_read_buffer(k_read_buffer) {
  m_config.endpoint = &plan.endpoints.front();
  m_config.tls = tls;
  m_config.host = plan.url.host;
  m_config.request_bytes = plan.request_bytes;
  m_config.head = plan.is_head();
  m_config.read_buffer = m_read_buffer.data();
  m_config.read_buffer_size = m_read_buffer.size();
  m_config.open_count = &m_open_count;
}

Worker::~Worker() {
  for (auto& c : m_connections) c->close();
}

Result<void> Worker::init() {
  m_loop.emplace(OPENLOOP_TRY(net::EventLoop::create()));
  const bool closed_model = m_plan.model == Model::closed;
  const std::uint64_t slots = share(closed_model ? m_plan.users : m_plan.max_connections, m_plan.threads, m_index);
  m_connections.reserve(slots);
  m_closed.reserve(slots);
  m_idle.reserve(slots);
  m_users_waiting.reserve(slots);
  for (std::uint64_t i = 0; i < slots; ++i) {
    m_connections.push_back(std::make_unique<Connection>(*this, *m_loop, m_config));
    m_closed.push_back(m_connections.back().get());
  }
  std::reverse(m_closed.begin(), m_closed.end());
  if (m_plan.on_saturation == OnSaturation::queue && !closed_model) {
    const double per_worker = m_plan.profile.max_rate() / m_plan.threads;
    const double room = std::ceil(per_worker * to_seconds(m_plan.timeout) * 1.2) + 64;
    m_queue.resize(static_cast<std::size_t>(std::min(room, 4.0e6)));
  }
  return {};
}

// ---- the loop -------------------------------------------------------------------------------------------------

void Worker::run() {
  const bool closed_model = m_plan.model == Model::closed;
  if (closed_model) {
    m_next_arrival.reset();
    m_users_waiting.assign(m_closed.rbegin(), m_closed.rend());
    m_closed.clear();
  } else {
    m_next_arrival = m_schedule.next();
  }
  m_next_handover = SteadyClock::now() + k_handover_period;
  for (;;) {
    const SteadyTime now = SteadyClock::now();
    const int stop = m_stop.load(std::memory_order_relaxed);
    if (m_scheduling && (stop != 0 || (closed_model ? now >= m_end : !m_next_arrival))) {
      m_scheduling = false;
      m_report.stopped_scheduling = closed_model || stop != 0 ? std::min(now, m_end) : m_end;
      m_grace_end = now + m_plan.timeout + std::chrono::milliseconds(100);
    }
    if (m_scheduling) {
      if (closed_model) {
        start_users(now);
      } else {
        issue_due_arrivals(now);
      }
    }
    expire(now);
    if (!m_scheduling && (m_head == nullptr && m_queue_size == 0)) break;
    if (!m_scheduling && (now >= m_grace_end || stop == static_cast<int>(StopRequest::immediate))) {
      resolve_unfinished(now);
      break;
    }
    if (now >= m_next_handover) {
      hand_over(false);
      m_next_handover = now + k_handover_period;
    }
    m_loop->poll(next_wakeup());
  }
  for (auto& c : m_connections) c->close();
  m_report.cpu_seconds = thread_cpu_seconds();
  hand_over(true);
  m_done.store(true, std::memory_order_release);
}

SteadyTime Worker::next_wakeup() const {
  SteadyTime t = std::min(m_next_handover, m_grace_end);
  if (m_scheduling && m_next_arrival) t = std::min(t, m_start + *m_next_arrival);
  if (m_scheduling && m_plan.model == Model::closed) t = std::min(t, m_end);
  if (m_head != nullptr) t = std::min(t, m_head->request().deadline);
  if (m_queue_size > 0) t = std::min(t, m_queue[m_queue_head].intended + m_plan.timeout);
  return t;
}

Nanos Worker::horizon(SteadyTime now) const {
  // Every request not yet issued will have an intended time at or after the horizon.
  if (!m_scheduling) return Nanos::max();
  if (m_plan.model == Model::closed) return now - m_measure_start;
  return m_next_arrival ? m_start + *m_next_arrival - m_measure_start : Nanos::max();
}

void Worker::hand_over(bool all) {
  if (all) {
    m_recorder.take_all(m_finished);
  } else {
    m_recorder.take_finished(horizon(SteadyClock::now()), m_finished);
  }
  if (m_finished.empty()) return;
  std::lock_guard lock(m_outbox_mutex);
  for (auto& s : m_finished) m_outbox.push_back(std::move(s));
  m_finished.clear();
}

void Worker::take_intervals(std::vector<results::IntervalStats>& out) {
  std::lock_guard lock(m_outbox_mutex);
  for (auto& s : m_outbox) out.push_back(std::move(s));
  m_outbox.clear();
}

// ---- arrivals -------------------------------------------------------------------------------------------------

void Worker::issue_due_arrivals(SteadyTime now) {
  // Intended times come from the schedule alone; a late loop issues the backlog with its original times.
  while (m_next_arrival && m_start + *m_next_arrival <= now) {
    arrival(m_start + *m_next_arrival);
    m_next_arrival = m_schedule.next();
  }
}

void Worker::arrival(SteadyTime intended) {
  const std::int64_t interval = m_recorder.index_of(intended - m_measure_start);
  results::Counters& c = stats(interval).counters;
  ++c.intended;
  Connection* conn = nullptr;
  if (m_queue_size == 0) {  // a non-empty queue keeps arrivals in order
    if (!m_idle.empty()) {
      conn = m_idle.back();
      m_idle.pop_back();
    } else if (!m_closed.empty()) {
      conn = m_closed.back();
      m_closed.pop_back();
    }
  }
  if (conn != nullptr) {
    start_request(*conn, intended, interval);
    return;
  }
  if (m_plan.on_saturation == OnSaturation::queue && m_queue_size < m_queue.size()) {
    m_queue[(m_queue_head + m_queue_size) % m_queue.size()] = Queued{intended, interval};
    ++m_queue_size;
    m_recorder.add_pending(interval);
    return;
  }
  ++c.dropped;
}

void Worker::start_request(Connection& c, SteadyTime intended, std::int64_t interval) {
  m_recorder.add_pending(interval);
  if (c.state() == Connection::State::closed) {
    ++stats(interval).counters.connections_opened;
    if (!c.open()) {
      ++stats(interval).counters.error(ErrorKind::connect);
      m_recorder.remove_pending(interval);
      m_closed.push_back(&c);
      return;
    }
    m_report.peak_connections = std::max(m_report.peak_connections, m_open_count);
  }
  link(c);
  c.assign(InFlight{intended, SteadyTime{}, intended + m_plan.timeout, interval});
}

void Worker::start_users(SteadyTime now) {
  // Closed model: every waiting user sends its next request now; its intended time is "now" (no schedule).
  std::size_t n = m_users_waiting.size();
  for (std::size_t i = 0; i < n; ++i) {
    Connection* c = m_users_waiting[i];
    const std::int64_t interval = m_recorder.index_of(now - m_measure_start);
    ++stats(interval).counters.intended;
    start_request(*c, now, interval);
  }
  m_users_waiting.erase(m_users_waiting.begin(), m_users_waiting.begin() + static_cast<std::ptrdiff_t>(n));
  // Users whose connection could not even be opened retry in the next round, not in a tight loop.
  if (!m_closed.empty()) {
    m_users_waiting.insert(m_users_waiting.end(), m_closed.begin(), m_closed.end());
    m_closed.clear();
  }
}

void Worker::release(Connection& c) {
  if (m_plan.model == Model::closed) {
    m_users_waiting.push_back(&c);
    return;
  }
  if (m_queue_size > 0) {
    const Queued q = m_queue[m_queue_head];
    m_queue_head = (m_queue_head + 1) % m_queue.size();
    --m_queue_size;
    m_recorder.remove_pending(q.interval);  // start_request counts it again
    start_request(c, q.intended, q.interval);
    return;
  }
  if (c.state() == Connection::State::closed) {
    m_closed.push_back(&c);
  } else {
    m_idle.push_back(&c);
  }
}

// ---- outcomes -------------------------------------------------------------------------------------------------

void Worker::on_sent(Connection& c, SteadyTime now, std::size_t bytes) {
  auto& s = stats(c.request().interval);
  ++s.counters.sent;
  s.counters.bytes_out += bytes;
  results::record_ns(s.send_lateness, (now - c.request().intended).count());
}

void Worker::on_ready(Connection& c) { release(c); }

void Worker::on_response(Connection& c, SteadyTime now, int status, std::uint64_t bytes_in) {
  const InFlight& r = c.request();
  auto& s = stats(r.interval);
  ++s.counters.completed;
  ++s.counters.status_class[status >= 100 && status < 600 ? static_cast<std::size_t>(status / 100) : 0];
  if (status >= m_plan.success_min && status <= m_plan.success_max && now <= r.deadline) ++s.counters.ok;
  s.counters.bytes_in += bytes_in;
  results::record_ns(s.response_time, (now - r.intended).count());
  results::record_ns(s.service_time, (now - r.sent).count());
  finish_request(c);
  release(c);
}

void Worker::on_failure(Connection& c, ErrorKind kind, bool had_request) {
  if (had_request) {
    ++stats(c.request().interval).counters.error(kind);
    finish_request(c);
  } else {
    // An idle keep-alive connection closed by the server, or one opened without a request: just free it.
    auto it = std::find(m_idle.begin(), m_idle.end(), &c);
    if (it != m_idle.end()) m_idle.erase(it);
  }
  release(c);
}

void Worker::finish_request(Connection& c) {
  unlink(c);
  m_recorder.remove_pending(c.request().interval);
}

void Worker::expire(SteadyTime now) {
  while (m_head != nullptr && m_head->request().deadline <= now) {
    Connection& c = *m_head;
    const InFlight& r = c.request();
    auto& s = stats(r.interval);
    ++s.counters.timeouts;
    results::record_ns(s.response_time, (r.deadline - r.intended).count());  // censored at the deadline
    finish_request(c);
    c.close();  // the client gave up: the connection cannot be reused mid-response
    release(c);
  }
  while (m_queue_size > 0 && m_queue[m_queue_head].intended + m_plan.timeout <= now) {
    const Queued q = m_queue[m_queue_head];
    m_queue_head = (m_queue_head + 1) % m_queue.size();
    --m_queue_size;
    auto& s = stats(q.interval);
    ++s.counters.timeouts;
    results::record_ns(s.response_time, m_plan.timeout.count());
    m_recorder.remove_pending(q.interval);
  }
}

void Worker::resolve_unfinished(SteadyTime end) {
  while (m_head != nullptr) {
    Connection& c = *m_head;
    auto& s = stats(c.request().interval);
    ++s.counters.unfinished;
    results::record_ns(s.response_time, (end - c.request().intended).count());  // censored at the end
    finish_request(c);
    c.close();
  }
  for (; m_queue_size > 0; --m_queue_size, m_queue_head = (m_queue_head + 1) % m_queue.size()) {
    const Queued& q = m_queue[m_queue_head];
    auto& s = stats(q.interval);
    ++s.counters.unfinished;
    results::record_ns(s.response_time, (end - q.intended).count());
    m_recorder.remove_pending(q.interval);
  }
}

// ---- in-flight list -------------------------------------------------------------------------------------------

void Worker::link(Connection& c) {
  c.prev = m_tail;
  c.next = nullptr;
  if (m_tail != nullptr) {
    m_tail->next = &c;
  } else {
    m_head = &c;
  }
  m_tail = &c;
  c.linked = true;
}

void Worker::unlink(Connection& c) {
  if (!c.linked) return;
  (c.prev != nullptr ? c.prev->next : m_head) = c.next;
  (c.next != nullptr ? c.next->prev : m_tail) = c.prev;
  c.prev = c.next = nullptr;
  c.linked = false;
}

}  // namespace openloop::engine

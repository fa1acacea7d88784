// The worker loop: issue due arrivals, fire user timers, expire deadlines, wait for I/O until the next
// deadline; hand finished intervals over. Arrivals (arrivals.cpp), outcomes (outcomes.cpp), the wake policy
// (wake.cpp), retries (retries.cpp) and users (users.cpp) are the worker's other rooms.
#include "engine/worker.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include <fmt/format.h>
#include <sys/resource.h>

#include "core/contention.h"
#include "engine/timer_floor.h"
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
// --session-key: records held by their sessions at once, per worker, before more are dropped (as the reorder
// window's 65,536, so memory stays bounded whatever the trace).
constexpr std::size_t k_max_held_session_records = 65536;

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
      m_schedule(plan.profile, plan.arrival, plan.seed, plan.shard, index, plan.threads),
      m_recorder(plan.interval, plan.requests.size()),
      m_rng(plan.workload ? workload::scenario_rng(plan.workload->scenarios[plan.scenario_index],
                                                   plan.scenario_index, numbered_worker(plan, index).first)
                          : Rng(plan.seed, shard_stream(plan, 1000 + index))),
      m_read_buffer(k_read_buffer),
      m_budget(plan.retry.budget, plan.threads),
      m_retry_rng(plan.seed, shard_stream(plan, 3000 + index)) {
  set_start(start);
  m_config.endpoint = &plan.endpoints.front();
  m_config.tls = tls;
  m_config.host = plan.url.host;
  m_config.read_buffer = m_read_buffer.data();
  m_config.read_buffer_size = m_read_buffer.size();
  m_config.open_count = &m_open_count;
  m_config.callbacks = this;
  m_config.protocol = fallback_protocol(plan.protocol);
  m_config.alpn_offered = plan.alpn_offer();  // what the coordinator's TLS context offers
  m_config.ready_count = &m_report.ready_by_protocol;
  m_config.http2.max_streams = plan.max_streams;
  m_config.http2.window = plan.h2_window;
  m_config.http2.scheme = plan.url.tls ? "https" : "http";
  m_config.http2.capture_retry_after = plan.retry.honor_retry_after;
  m_config.http2.capture_server_timing = true;
  m_config.http2.server_timing_metric = plan.server_timing_metric;
  m_config.http2.lowest_peer_streams = &m_lowest_peer_streams;
  // HTTP/2 by prior knowledge: a connection takes its first streams while it connects (ALPN's choice is
  // unknown until the handshake: one exchange waits).
  if (plan.protocol == ProtocolChoice::http2)
    m_config.slots_before_ready = std::min(plan.max_streams, k_h2_initial_peer_streams);
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
    // What the setup steps captured: the same value for every request (the plan's strings outlive the run).
    for (const auto& [variable, value] : plan.setup_values) m_render->variables().set(variable, value);
  }
}

Worker::~Worker() {
  m_pool.close_all();
}

Result<void> Worker::init(const MeasuredWaits& measured, net::SimulatedNetwork* sim) {
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
                                             : measured.spin_below;
  // Auto on a host whose timers wake late: end each sleep early and spin the rest, within a share of a core.
  m_spin_lead = m_plan.coalesce.count() > 0 || m_plan.spin_below ? Nanos(0) : measured.spin_lead;
  m_initial_spin_lead = m_spin_lead;
  m_lead_given = measured.lead_given;
  if (m_plan.coalesce.count() == 0 && !m_plan.spin_below && sim == nullptr)
    m_spin_budget = SpinBudget(m_plan.spin_budget, m_start);
  if (m_plan.coalesce == k_coalesce_auto) {
    m_auto.emplace(m_plan.max_lateness);
  } else {
    m_window = m_plan.coalesce;
  }
  // Coalesced wake-ups, and HTTP/2's precise open model, which sleeps through responses when an arrival is
  // near (wake.cpp), read responses later than they came: the kernel's receive stamps time them.
  m_config.stamp_receipts =
      m_plan.coalesce.count() != 0 ||
      (m_plan.model == Model::open && m_config.protocol == Protocol::http2 && sim == nullptr);
  m_report.spin_below = m_spin_below;
  m_report.spin_lead = m_spin_lead;
  m_report.spin_budget = m_spin_budget.share();
  m_report.spin_budget_low = m_spin_budget.lowest();
  // The first intervals come from these; later ones reuse spent intervals the coordinator gives back.
  m_recorder.make_spares(k_max_spares);
  // Self-check stamps: room for the lane's arrivals (users: 64 Ki samples), so recording never allocates.
  if (m_plan.replay) {
    // Host shards split the trace by the weighted stripe (a session by its key's hash), then a shard's workers
    // split its records (workload/replay_schedule.h ReplayLane): the shards merge to the whole trace, and a
    // session's records all reach one worker.
    const workload::ShardSpec& shard = m_plan.shard;
    m_replay.emplace(OPENLOOP_TRY(workload::open_lane(
        *m_plan.replay, workload::ReplayLane{workload::stripe_owners(shard.weights), shard.index, m_index, m_plan.threads},
        m_plan.warmup + m_plan.duration)));
    if (m_plan.replay->request.options.session_key.any()) m_sessions.emplace(k_max_held_session_records);
  }
  m_report.trace.reserve(m_plan.user_driven() ? 65536.0 : m_schedule.expected_total(), !m_plan.user_driven());
  std::uint64_t slots = 0;
  switch (m_plan.model) {
    case Model::open:
      slots = m_plan.max_in_flight_part();
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
  // HTTP/1.1 carries one exchange per connection: as many connections as slots. An open plan that may speak
  // HTTP/2 with --connections or prior knowledge has fewer connections than slots (engine::size_connections).
  std::uint64_t connections = slots;
  if (m_plan.model == Model::open && m_plan.max_in_flight > 0)
    connections = std::max<std::uint64_t>(1, share(m_plan.max_connections_part(), m_plan.threads, m_index));
  m_slot_cap = slots;
  m_deferred_writes.reserve(connections);
  m_config.deferred_writes = &m_deferred_writes;
  m_pool.create(connections, *this, *m_loop, m_config);
  if (m_plan.capture) m_exchanges.capture(*m_plan.capture);  // before the pool grows: one sink per exchange
  m_exchanges.reserve(slots);  // one per slot in flight; backoffs add more while warming up
  if (m_plan.model != Model::open) {
    m_users.resize(slots);
    for (std::uint64_t i = slots; i > 0; --i) m_free_users.push_back(static_cast<std::uint32_t>(i - 1));
    // Flow steps: each user's captured values, read by its later steps' renders.
    if (m_plan.capture && m_plan.workload && m_render) {
      const workload::WorkloadPlan& w = *m_plan.workload;
      const workload::ScenarioPlan& scenario = w.scenarios[m_plan.scenario_index];
      std::optional<workload::RowDealer> rows;
      if (auto data = workload::find_session_data(w.variables, scenario.name)) {
        // Rows are dealt by the worker's number among this scenario's workers of every host shard (each shard
        // running the same thread count), so the shards split the rows as the threads do.
        const unsigned worker = m_plan.shard.index * m_plan.threads + m_index;
        const unsigned workers = m_plan.shard.count * m_plan.threads;
        rows.emplace(std::move(*data), workload::data_rng(scenario.seed, m_plan.scenario_index, worker),
                     worker, workers);
      }
      m_flow.emplace(scenario, w.variables, *m_plan.capture, slots, m_plan.url, rows);
    }
  }
  if (m_plan.on_saturation == OnSaturation::queue && m_plan.model == Model::open) {
    const double per_worker = m_plan.profile.max_rate() * m_plan.shard.share() / m_plan.threads;
    const double room = std::ceil(per_worker * to_seconds(m_plan.timeout) * 1.2) + 64;
    m_queue.resize(static_cast<std::size_t>(std::min(room, 4.0e6)));
    if (m_replay) m_queue_requests.resize(m_queue.size());
  }
  return {};
}

void Worker::set_start(SteadyTime start) {
  m_start = start + m_plan.start_offset;
  m_measure_start = m_start + m_plan.warmup;
  m_end = m_measure_start + m_plan.duration;
  if (m_spin_budget.capped()) m_spin_budget = SpinBudget(m_spin_budget.share(), m_start);
}

// ---- the loop
// -------------------------------------------------------------------------------------------------

void Worker::run() {
  const bool users = m_plan.user_driven();
  const std::optional<Nanos> delay_before =
      m_loop->simulated_network() == nullptr ? thread_run_delay() : std::nullopt;
  m_next_arrival = users ? std::nullopt : next_arrival();
  const SteadyTime begin = now();
  if (users) {
    start_users(std::max(begin, m_start));
  } else {
    prewarm();
  }
  m_next_handover = begin + k_handover_period;
  m_lead_window = {begin, thread_cpu_seconds(), m_spun};
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
    // Replayed sessions' held records are still to be sent after the trace's last record.
    const bool held = m_sessions && m_sessions->held() > 0;
    const bool schedule_over =
        users ? now >= m_end : (!m_next_arrival && !held) || now >= m_end + m_plan.timeout;
    if (m_scheduling && (stop != 0 || schedule_over)) {
      if (stop == 0 && m_next_arrival) abandon_schedule();
      resolve_held(now);
      m_scheduling = false;
      m_capped = false;
      m_report.stopped_scheduling = users || stop != 0 ? std::min(now, m_end) : m_end;
      m_grace_end = now + m_plan.timeout + std::chrono::milliseconds(100);
    }
    if (m_scheduling) issue_due_arrivals(now);
    write_deferred();  // the arrivals just issued, before the timers' work delays them
    m_timers.fire_due(now);
    expire(now);
    write_deferred();
    if (!m_scheduling && m_in_flight.empty() && m_waiting == 0 && m_queue_size == 0) break;
    if (!m_scheduling && (now >= m_grace_end || stop == static_cast<int>(StopRequest::immediate))) {
      resolve_unfinished(now);
      break;
    }
    if (now >= m_next_handover) {
      hand_over(false);
      m_next_handover = now + k_handover_period;
    }
    // Spinning on a host where this thread waits for a CPU lengthens that wait: the budget follows it. And the
    // lead follows the host's wake-ups as this run meets them, which the floor measured before it may not show.
    if (m_spin_budget.observation_due(now)) {
      if (const auto delay = thread_run_delay()) {
        m_spin_budget.observe_run_delay(now, *delay);
        if (!m_lead_given) adapt_spin_lead(now);
      }
    }
    m_in_flight_now.store(m_in_flight.size() + m_queue_size, std::memory_order_relaxed);
    m_open_now.store(m_open_count, std::memory_order_relaxed);
    wait_until(next_wakeup());
  }
  stop_users();
  m_pool.close_all();
  m_report.cpu_seconds = thread_cpu_seconds();
  if (const auto delay_after = delay_before ? thread_run_delay() : std::nullopt)
    m_report.run_delay = *delay_after - *delay_before;
  m_report.spin_seconds = to_seconds(m_spun);
  if (m_sessions) m_report.sessions = m_sessions->counts();
  m_report.spin_budget_low = m_spin_budget.lowest();
  m_report.spin_lead = m_spin_lead;  // the run's last lead: adapted from its own wake-ups
  if (m_render) {
    for (std::size_t i = 0; i < m_plan.workload->requests.size(); ++i)
      m_report.keys.push_back(m_render->keys(i));
  }
  hand_over(true);
  m_done.store(true, std::memory_order_release);
}

void Worker::adapt_spin_lead(SteadyTime now) {
  const double cpu = thread_cpu_seconds();
  const double seconds = to_seconds(now - m_lead_window.since);
  const double busy =
      seconds > 0 ? (cpu - m_lead_window.cpu_s - to_seconds(m_spun - m_lead_window.spun)) / seconds : 0;
  m_lead_window = {now, cpu, m_spun};
  // The lead this run's own wake-ups call for, if the worker can afford to spin it; else back to the one the
  // floor measured before the run gave (a rate that rose, or a loop that got busier, can make a lead
  // unaffordable).
  const Nanos wanted =
      adapted_spin_lead(m_report.wake_lateness, m_initial_spin_lead, planned_lateness_bound(m_plan));
  m_spin_lead = spin_lead_fits(wanted, busy, worker_peak_rate(m_plan), m_spin_budget.current())
                    ? std::max(m_spin_lead, wanted)
                    : m_initial_spin_lead;
}

void Worker::prewarm() {
  // Open a few connections before the first arrival, enough for about half a millisecond of this worker's
  // peak rate, so the first requests do not all pay for a connect. They are counted with the warm-up.
  const double rate = m_plan.profile.max_rate() * m_plan.shard.share() *
                      static_cast<double>(std::max<std::size_t>(1, m_plan.steps.size())) / m_plan.threads;
  // HTTP/2 by prior knowledge: those requests share a connection's streams (its first ones, before SETTINGS).
  const std::size_t requests = static_cast<std::size_t>(rate * 0.0005) + 2;
  const std::size_t per_connection = std::max<std::uint32_t>(1, m_config.slots_before_ready);
  const auto wanted =
      std::min<std::size_t>(m_pool.closed_count(), (requests + per_connection - 1) / per_connection);
  for (std::size_t i = 0; i < wanted; ++i) {
    Connection* c = m_pool.take_closed();
    if (!c->open()) {
      m_pool.release(*c);
      break;
    }
    ++stats(-1).counters.connections_opened;
  }
  m_report.peak_connections = std::max(m_report.peak_connections, m_open_count);
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

}  // namespace openloop::engine

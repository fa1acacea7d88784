// One worker thread: its shard of the schedule and users, its event loop, connections and recorder (shared
// nothing).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/rng.h"
#include "engine/codec.h"
#include "engine/connection.h"
#include "engine/connection_pool.h"
#include "engine/exchange.h"
#include "engine/exchange_pool.h"
#include "engine/flow_runner.h"
#include "engine/in_flight.h"
#include "engine/request_log.h"
#include "engine/retry_budget.h"
#include "engine/run_plan.h"
#include "engine/self_checks.h"
#include "engine/spin_budget.h"
#include "engine/untouched_array.h"
#include "net/event_loop.h"
#include "net/timer_queue.h"
#include "results/recording/recorder.h"
#include "workload/request_template.h"
#include "workload/session_pacer.h"

namespace openloop::engine {

/// How the coordinator asks workers to stop (DESIGN.md invariant 6).
enum class StopRequest : int {
  none = 0,       ///< run the plan to its end
  graceful = 1,   ///< stop scheduling now; give in-flight requests the grace period (the timeout)
  immediate = 2,  ///< stop now; whatever is in flight is recorded as unfinished
};

/// What a worker reports after it has finished (read by the coordinator after join()).
struct WorkerReport {
  double cpu_seconds = 0;
  double spin_seconds = 0;  ///< polling through waits shorter than spin_below (idle, not work)
  Nanos spin_below{0};
  Nanos spin_lead{0};
  double spin_budget = 0;      ///< the share of a core chosen for spinning (0: no cap)
  double spin_budget_low = 0;  ///< the lowest the wait for a CPU scaled it to (engine/spin_budget.h)
  /// How late this worker's timed waits woke (woke − deadline) when they ended with nothing to read: the host's
  /// timer floor during the run. Empty when every wait was coalesced or spun through.
  hdr::Histogram wake_lateness = results::make_latency_histogram();
  std::uint64_t peak_connections = 0;
  /// Connections that became ready, by the protocol they spoke (engine::Protocol order: h1, h2).
  std::array<std::uint64_t, k_protocols> ready_by_protocol{};
  SteadyTime stopped_scheduling{};  ///< when the last arrival was issued (or scheduling was stopped)
  /// Arrivals (open) or sessions (partly open) still unsent one timeout after the end: the worker fell that
  /// far behind its schedule, so it stopped there rather than overrun the run by its backlog (counted as
  /// dropped).
  std::uint64_t abandoned = 0;
  /// `data: {order: unique}` once this worker's rows were spent: sessions that never started (not intended,
  /// as abandoned ones), or closed and pacing users that stopped at their next iteration.
  std::uint64_t sessions_without_row = 0;
  /// Time this worker's thread was runnable but waited for a CPU during run() (/proc/thread-self/schedstat);
  /// nullopt where the kernel lacks it and in simulated runs.
  std::optional<Nanos> run_delay;
  /// The first error message seen of each kind (e.g. "certificate verify failed: self-signed certificate").
  std::array<std::string, results::k_error_kinds> first_error;
  /// Flow steps' failure examples (FlowRunner::example()): ("step 1 login", "capture token: nothing at ..."),
  /// a few per step, each for another set of failed captures and checks.
  std::vector<std::pair<std::string, std::string>> flow_examples;
  /// --session-key: the replayed sessions' counts (workload/session_pacer.h); all 0 without sessions.
  workload::SessionPacer::Counts sessions;
  /// The first timeout whose protocol said what held it back (Connection::stall_reason), e.g. an HTTP/2 window
  /// the server never opened; empty when none did.
  std::string first_stall;
  /// Per request template: the keys this worker rendered (for the single-key warning). Empty without
  /// templates.
  std::vector<workload::KeyTracker> keys;
  /// Set when the worker's event loop failed (a wait that errs other than by EINTR): what failed. The worker
  /// stopped there and recorded what was in flight as unfinished; the run is not a measurement of the target.
  std::string loop_failure;
  /// Arrival issue times and response times for the run's self-checks (engine/self_checks.h).
  SelfCheckTrace trace;
};

/// How the coordinator measured this host's waits for a run, for the workers of a plan with spin_below auto.
struct MeasuredWaits {
  Nanos spin_below{0};  ///< auto_spin_below(): waits shorter than this are spun through
  /// engine/timer_floor.h auto_spin_lead(): timed waits end this much before their deadline and the rest is
  /// spun through, because the host wakes sleeping threads late; 0 = sleep to the deadline.
  Nanos spin_lead{0};
  /// The floor was given (OPENLOOP_TIMER_FLOOR_US), not measured: the lead stays as given for the whole run
  /// instead of following the run's own wake-ups, so a given floor reproduces its verdict on any host.
  bool lead_given = false;
};

/// What a timed wait costs on this machine now (net::EventLoop::timed_wait_cost on a loop of its own, capped
/// at 30 µs): the --spin-below default. Measured at every call, once per run before it starts (it takes a few
/// ms), so each run of a process (ramp --fresh, probe --repeats) gets the machine's cost at its own time.
Nanos auto_spin_below();

/// Runs one shard of the plan on the calling thread. The coordinator reads results only through
/// take_intervals() (locked, once per interval) and report() after the thread has ended (invariant 5).
///
/// Requests come from two kinds of sources: open-model arrivals (one request each, at the schedule's intended
/// times) and users (closed/pacing users, partly-open sessions) that send one request at a time, wait for its
/// outcome, think, and continue. Users wait on the worker's timer queue, never on a blocking call.
///
/// Each such logical request makes one attempt, or several under a retry policy (engine/retries.cpp): between
/// attempts it holds no connection and waits out its backoff on the timer queue; its outcome is accounted
/// once, when its last attempt ends.
class Worker final : public ConnectionOwner, public CodecCallbacks, public net::TimerHandler {
 public:
  /// `start` is the intended time of offset 0 (warm-up begins); `tls` is null for plain HTTP.
  Worker(const RunPlan& plan, unsigned index, SSL_CTX* tls, const std::atomic<int>& stop, SteadyTime start);
  ~Worker() override;
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  /// Creates the event loop and the connection pool. Call before run(). `measured` is used when the plan
  /// does not set spin_below (auto). With `sim`, the worker's clock, readiness and sockets are that simulated
  /// network's (which must outlive the worker), and run() runs on its virtual time.
  Result<void> init(const MeasuredWaits& measured, net::SimulatedNetwork* sim = nullptr);
  /// Moves offset 0 of the schedule to `start` (before run()). A run fixes its start once every worker's
  /// init() is done: set-up of a large cap (a connection and an exchange per slot) takes tens to hundreds
  /// of milliseconds, and a start fixed before it made the first arrivals late by the excess.
  void set_start(SteadyTime start);
  /// The thread body: runs until the plan ends (or a stop request) and every request is resolved.
  void run();
  /// Moves the intervals finished so far into `out` (thread-safe).
  void take_intervals(std::vector<results::IntervalStats>& out);
  /// Cleared intervals for the worker to reuse (locked; at most a few are kept, the rest stay in `spares`).
  void give_spares(std::vector<results::IntervalStats>& spares);
  /// True once run() has handed over its last interval.
  bool done() const { return m_done.load(std::memory_order_acquire); }
  /// Requests in flight or queued, as of this worker's last loop round (thread-safe, approximate).
  std::uint64_t in_flight() const { return m_in_flight_now.load(std::memory_order_relaxed); }
  /// Sockets open (connecting or connected), as of this worker's last loop round (thread-safe, approximate).
  std::uint64_t connections_open() const { return m_open_now.load(std::memory_order_relaxed); }
  const WorkerReport& report() const { return m_report; }

  // ConnectionOwner
  void on_ready(Connection& c) override;
  void on_closed_idle(Connection& c) override;
  // CodecCallbacks
  void on_sent(Exchange& x, std::size_t bytes) override;
  void on_complete(Exchange& x, const ExchangeResult& result) override;
  void on_error(Exchange& x, const ExchangeError& error) override;
  // TimerHandler: a user's think time or pacing wait is over (cookie = user index); with --replay, which has no
  // users, a replayed session's held record may be due (cookie = the session's index).
  void on_timer(std::uint64_t cookie) override;

 private:
  /// How one attempt ended.
  struct AttemptEnd {
    enum class Kind : std::uint8_t { response, error, timeout };
    Kind kind = Kind::response;
    bool ok = false;  // response: a success status within the overall deadline
    int status = 0;   // response
    results::ErrorKind error = results::ErrorKind::connect;  // error
    bool retryable = false;                                  // error: the server cannot have acted on it
    SteadyTime at{};  // when it ended (timeout: the attempt's deadline)
    /// response, the last one: a capture or check of its flow step failed, so it is not ok whatever its
    /// status. Set after the retry decision (which goes by the status alone), before settle() counts it.
    bool flow_failed = false;
    int grpc_status = -1;  // response to a gRPC call: its grpc-status (0..16); −1 for an HTTP request
    std::uint32_t grpc_messages = 0;       // response to a gRPC call: its messages
    std::uint64_t grpc_message_bytes = 0;  // and their bytes
    std::int64_t grpc_pushback_ms = -1;    // ExchangeResult::retry_pushback_ms
  };
  /// A logical request waiting out its backoff before its next attempt; it holds no connection.
  struct RetryWait {
    Exchange* next = nullptr;  // the next attempt (number, budget cost, last backoff set; the rendered bytes)
    AttemptEnd last;           // the attempt that failed: the final outcome if the retry cannot start
    std::uint32_t generation = 0;
    bool active = false;
    bool resend = false;  // the server never processed the last attempt: waits for a slot, not a backoff
  };
  /// Backoff wake-ups and retry attempts' deadlines, on the same timer queue as the users' timers.
  class RetryTimers final : public net::TimerHandler {
   public:
    explicit RetryTimers(Worker& w) : m_worker(w) {}
    void on_timer(std::uint64_t cookie) override;

   private:
    Worker& m_worker;
  };

  struct Queued {
    SteadyTime intended;
    std::int64_t interval;
    std::uint32_t request;
    SteadyTime queued;  // when it found no free connection or stream: its slot wait starts here
    std::int32_t replay_session = -1;
  };

  /// A closed/pacing user or a partly-open session.
  struct User {
    Connection* conn = nullptr;
    std::size_t step = 0;           // next step of the iteration/session
    SteadyTime iteration_start{};   // pacing: when the current iteration was due
    SteadyTime session_intended{};  // sessions: when the session arrived
    std::int64_t session_interval = 0;
    SteadyTime wake_at{};  // when the pending timer of this user fires
    bool active = false;
  };
  // stopped: the response's flow captures or checks failed and the step's on_fail is stop.
  enum class Outcome : std::uint8_t { ok, failed, stopped };

  // Open-model arrivals and the shared request path (worker.cpp).
  void issue_due_arrivals(SteadyTime now);
  void abandon_schedule();
  /// An open-model arrival intended at `intended` that is never sent: counted intended and dropped (and logged).
  void drop_arrival(SteadyTime intended, results::ErrorKind why);
  /// `replayed`: the replayed record's request (null: m_replayed with --replay, else the plan's);
  /// `replay_session`: its session (--session-key), told when the request ends.
  void arrival(SteadyTime intended, std::int32_t replay_session = -1, http::RequestBuffer* replayed = nullptr);
  // Replayed sessions (replay_sessions.cpp).
  /// A replayed record whose absolute time `at` has come: sent, or held by its session (--session-key).
  void session_record(SteadyTime at);
  /// The record in flight of replayed session `session` ended at `now` (any way): its next one may go.
  void session_ended(std::int32_t session, SteadyTime now);
  /// Sends `session`'s held record if it is due by `now`.
  void send_held(std::uint32_t session, SteadyTime now);
  /// The run's end: every held record is unfinished (never sent), censored at `end`.
  void resolve_held(SteadyTime end);
  /// The schedule's next intended offset (the trace's with --replay: its request rendered into m_replayed).
  std::optional<Nanos> next_arrival();
  Connection* free_connection();
  void prewarm();
  /// `replayed`: a replayed record's request, swapped into the exchange (null: the plan's request).
  void start_request(Connection& c, SteadyTime intended, std::int64_t interval, std::uint32_t request,
                     std::int32_t user, http::RequestBuffer* replayed = nullptr, std::int32_t replay_session = -1);
  void release(Connection& c);
  void expire(SteadyTime now);
  void cut(Exchange& x, SteadyTime now);
  void finish_request(Exchange& x, Connection& c, SteadyTime now, Outcome outcome);
  void record_server_timing(const http::ServerTimingValue& v, const Exchange& r, SteadyTime now);
  void record_reached_phases(Exchange& r);
  void settle(const Exchange& r, const AttemptEnd& e);
  void resolve_unfinished(SteadyTime end);
  void unfinished(Exchange& x, SteadyTime end);
  std::uint32_t pick_request();
  /// --log-requests: hands the logical request's record to this worker's ring (nothing without a log).
  void log_request(const Exchange& r, RecordOutcome outcome, SteadyTime end, int status = 0,
                   results::ErrorKind error = results::ErrorKind::connect, int grpc_status = -1) {
    if (m_log != nullptr)
      push_record(r.intended, r.interval, r.request, &r, outcome, end, status, error, grpc_status);
  }
  void push_record(SteadyTime intended, std::int64_t interval, std::uint32_t request, const Exchange* r,
                   RecordOutcome outcome, SteadyTime end, int status, results::ErrorKind error,
                   int grpc_status = -1);
  /// Applies f(counters, response_time, service_time) to the interval's totals and, when the plan has several
  /// requests, to that request's breakdown.
  template <class F>
  void account(std::int64_t interval, std::uint32_t request, F&& f) {
    results::IntervalStats& s = stats(interval);
    f(s.counters, s.response_time, s.service_time);
    if (!s.by_request.empty()) {
      results::RequestStats& b = s.by_request[request];
      f(b.counters, b.response_time, b.service_time);
    }
  }
  // Attempts and retries (retries.cpp).
  void prepare_attempt(Exchange& r);
  void launch(Connection& c, Exchange& r);
  /// Ends an attempt: schedules its retry (true) or settles the request as the attempt ended (false).
  bool end_attempt(Exchange& r, const AttemptEnd& e, std::string_view retry_after = {});
  /// The retry decision alone: true when a retry of r was scheduled; false when the attempt is the request's
  /// last, which the caller then settles.
  bool retry_chosen(Exchange& r, const AttemptEnd& e, std::string_view retry_after);
  std::uint8_t retry_class(const Exchange& r, const AttemptEnd& e) const;
  void schedule_retry(Exchange& r, const AttemptEnd& e, SteadyTime wake, Nanos backoff, double cost);
  /// Parks r in a wait slot until `wake` (RetryWait); `is_resend`: a resend, not a retry.
  void park(Exchange& r, const AttemptEnd& e, SteadyTime wake, bool is_resend);
  /// An attempt the server never processed (ExchangeError::unprocessed): parks it to be sent again at once,
  /// outside the retry policy and budget, and counts it resent. False (the caller ends the attempt as usual)
  /// once the request has been resent k_max_resends times or its deadline has passed.
  bool resend(Exchange& r, Connection& c, const AttemptEnd& e);
  void detach(Exchange& x, Connection& c, std::int32_t user);
  void on_backoff_over(std::uint32_t slot, std::uint32_t generation);
  void on_attempt_deadline(std::uint32_t id, std::uint32_t generation);
  /// Records the attempt's time to `end`, and the send lateness of a first attempt that ends unwritten.
  void record_attempt(Exchange& r, SteadyTime end);
  /// Takes the send lateness of r's first attempt at `at` (when it was written, or `sent` when it ended
  /// unwritten), once.
  void stamp_sent(Exchange& r, SteadyTime at);
  /// Writes every connection's output deferred in this loop round (Connection::write_deferred), stamping the
  /// requests it carries with the one time of the write.
  void write_deferred();
  void resolve_waits(SteadyTime end);
  // Users and sessions (users.cpp).
  void start_users(SteadyTime now);
  void session_arrival(SteadyTime intended);
  void issue_step(std::uint32_t user, SteadyTime intended);
  void after_request(std::uint32_t user, SteadyTime now, Outcome outcome);
  void end_session(std::uint32_t user, SteadyTime now, bool completed, bool unfinished = false);
  void stop_users();
  void next_iteration(std::uint32_t user, SteadyTime now);
  SteadyTime rate_slot(SteadyTime wanted);
  // Loop helpers.
  /// The worker's clock: its event loop's (the steady clock, or a simulated network's virtual time).
  SteadyTime now() const { return m_loop->now(); }
  void hand_over(bool all);
  SteadyTime next_wakeup() const;
  void wait_until(SteadyTime wake);
  /// Waits for events until `deadline` (`now` when the wait begins): true when it ended on its timer with
  /// nothing to read, whose lateness it records in m_report.wake_lateness.
  bool timed_wait(SteadyTime now, SteadyTime deadline);
  /// --spin-below auto, every observation window: the lead for the wake-ups this run has met, when the worker
  /// can afford to spin it (spin_lead_fits), else the one it started with.
  void adapt_spin_lead(SteadyTime now);
  Nanos horizon(SteadyTime now) const;
  results::IntervalStats& stats(std::int64_t interval) { return m_recorder.interval(interval); }

  const RunPlan& m_plan;
  const unsigned m_index;
  const std::atomic<int>& m_stop;
  SteadyTime m_start;          // offset 0 of the schedule
  SteadyTime m_measure_start;  // m_start + warm-up
  SteadyTime m_end;            // m_start + warm-up + duration
  std::optional<net::EventLoop> m_loop;
  net::TimerQueue m_timers;
  workload::ArrivalSchedule m_schedule;
  std::optional<workload::ReplaySchedule> m_replay;  // --replay: this worker's lane of the trace, not m_schedule
  http::RequestBuffer m_replayed;  // --replay: the request of the pending arrival (m_next_arrival), rendered
  std::vector<http::RequestBuffer> m_queue_requests;  // --replay, --on-saturation queue: each queued one's
  std::optional<workload::SessionPacer> m_sessions;  // --session-key: the replayed sessions
  std::vector<http::RequestBuffer> m_held_requests;  // --session-key: each held record's request, by slot
  std::optional<Nanos> m_next_arrival;  // offset of the next arrival, nullopt when the schedule is exhausted
  bool m_scheduling = true;
  bool m_capped =
      false;  // the last issue_due_arrivals() stopped at its per-round cap with arrivals still due
  SteadyTime m_grace_end = SteadyTime::max();
  Nanos m_spin_below{0};               // waits shorter than this are polled through, not slept
  Nanos m_spun{0};                     // time spent in polls that found nothing while spinning
  Nanos m_spin_lead{0};                // timed waits end this early; the rest is spun (MeasuredWaits)
  Nanos m_initial_spin_lead{0};        // the lead the floor measured before the run gave
  bool m_lead_given = false;           // MeasuredWaits::lead_given: the lead is never adapted
  struct LeadWindow {
    SteadyTime since{};
    double cpu_s = 0;
    Nanos spun{0};
  } m_lead_window;  // adapt_spin_lead(): the worker's CPU and spinning when the last window began
  SpinBudget m_spin_budget;            // the share of a core spinning may use (uncapped: no cap)
  SteadyTime m_woke{};                 // --coalesce: when the last wait ended
  Nanos m_window{0};                   // --coalesce: the wake-up window in use (0: precise)
  std::optional<AutoCoalesce> m_auto;  // --coalesce auto: the rule, applied at each hand-over
  results::Recorder m_recorder;
  Rng m_rng;                                        // request mix and think times
  std::optional<workload::RenderContext> m_render;  // templated requests: this worker's variable draws
  std::string m_encoded;  // a templated request's body encoded (RequestSpec::encoder); capacity reused
  std::vector<double> m_mix_cumulative;             // cumulative weights of the plan's requests
  std::uint32_t m_next_pick = 0;                    // round-robin mix: the request picked next

  ConnectionConfig m_config;
  std::vector<char> m_read_buffer;
  ConnectionPool m_pool;
  std::uint64_t m_slot_cap = 0;  // the concurrency cap: attempts in flight at once on this worker
  ExchangePool m_exchanges;      // every attempt in flight or in backoff
  InFlightLists m_in_flight;     // attempts in flight (first attempts by deadline; retries timed)
  UntouchedArray<Queued> m_queue;  // --on-saturation queue: ring buffer, its pages touched as it fills
  std::size_t m_queue_head = 0, m_queue_size = 0;
  std::uint64_t m_open_count = 0;
  std::vector<Connection*> m_deferred_writes;  // HTTP/2 connections with streams started and not yet written
  SteadyTime m_write_time{};                   // while write_deferred() runs: when it writes
  bool m_writing = false;
  std::uint32_t m_lowest_peer_streams = k_h2_initial_peer_streams;  // ConnectionConfig::http2's

  std::vector<User> m_users;
  std::vector<std::uint32_t> m_free_users;  // sessions: free session slots
  std::optional<FlowRunner> m_flow;         // flow steps' captured values and checks (a plan file's)
  SteadyTime m_next_rate_slot{};            // pacing --max-rate: earliest next iteration start

  RetryTimers m_retry_timers{*this};
  RetryBudget m_budget;            // this worker's share of --retry-budget
  Rng m_retry_rng;                 // backoff jitter
  std::vector<RetryWait> m_waits;  // logical requests in backoff (slots reused)
  std::vector<std::uint32_t> m_free_waits;
  std::size_t m_waiting = 0;

  std::mutex m_outbox_mutex;
  std::vector<results::IntervalStats> m_outbox;
  std::vector<results::IntervalStats> m_returned;  // spares from the coordinator, under m_outbox_mutex
  std::vector<results::IntervalStats> m_finished;  // scratch, reused
  SteadyTime m_next_handover{};
  std::atomic<bool> m_done{false};
  std::atomic<std::uint64_t> m_in_flight_now{0};  // published once per loop round for the live view
  std::atomic<std::uint64_t> m_open_now{0};       // m_open_count, published with it (--metrics-listen)
  WorkerReport m_report;
  RecordRing* m_log = nullptr;  // --log-requests: this worker's ring
};

}  // namespace openloop::engine

// The lab's queueing model (workers, queue, shedding, deadlines, stalls, cache, dependency pool) on explicit
// time.
#pragma once

#include <cstdint>
#include <vector>

#include "core/rng.h"
#include "core/time.h"
#include "lab/lru_cache.h"
#include "lab/model_config.h"
#include "lab/model_stats.h"
#include "lab/ring_deque.h"
#include "net/timer_queue.h"

namespace openloop::lab {

/// How the model answered one arrival (the lab maps these to HTTP statuses).
enum class Outcome : std::uint8_t {
  ok,         ///< served (200)
  error,      ///< served with an injected error (500)
  shed,       ///< refused at once, queue at --shed-at (429)
  rejected,   ///< refused, queue at --queue-limit (503)
  expired,    ///< deadline passed while queued, no work done (504)
  cancelled,  ///< client gone while queued (--cancel); nobody to answer
};

/// What the model's cache did for one arrival, sent in its Server-Timing as `cache;desc=off|hit|miss` so a client
/// can tell a service without a cache (no_cache) from one measured through it.
enum class CacheLookup : std::uint8_t {
  no_cache,       ///< the model has no cache (--cache 0)
  hit,            ///< served from the cache
  miss,           ///< looked up and missed
  not_looked_up,  ///< the model has a cache but never served this arrival (shed, rejected, expired)
};

/// One request as the model sees it. The tag is opaque to the model and handed back with the outcome.
struct Arrival {
  std::uint64_t tag = 0;
  /// When the client stops waiting; a request still queued at this time is dropped at dequeue (504).
  SteadyTime deadline = SteadyTime::max();
  /// Cache key (a hash of path and query); used only when the cache is on.
  std::uint64_t key = 0;
};

/// What the model drives: the lab's HTTP server, or a simulator's virtual clients.
class ModelSink {
 public:
  virtual ~ModelSink() = default;
  /// The single final outcome of arrival `tag`, at model time `at`. May be called from inside
  /// ServiceModel::submit() or configure() (shed, rejected, zero service time), so implementations must
  /// tolerate being called from inside their own submit() call. It must not call submit() or configure()
  /// itself (the model is in the middle of an event): defer such work, e.g. to a timer due now.
  virtual void on_outcome(std::uint64_t tag, Outcome outcome, SteadyTime at) = 0;
  /// How long arrival `tag` waited before a worker took it (queue wait: arrival → start of service, or →
  /// outcome when it was never served) and how long its service took (start of service → outcome, a
  /// dependency call included; 0 when never served). Called just before on_outcome() for the same tag, with
  /// the same restrictions; the lab sends both in a Server-Timing header.
  virtual void on_timing(std::uint64_t tag, Nanos queue_wait, Nanos service, CacheLookup cache) {
    (void)tag;
    (void)queue_wait;
    (void)service;
    (void)cache;
  }
  /// With --cancel: whether anyone still waits for `tag` (checked when it would be dequeued).
  virtual bool still_wanted(std::uint64_t tag) {
    (void)tag;
    return true;
  }
  /// With --burn: spend `work` of real CPU on the calling thread before returning.
  virtual void burn(Nanos work) { (void)work; }
};

/// A point-in-time view for /_lab/stats and tests.
struct ModelSnapshot {
  Nanos uptime{0};
  bool frozen = false;
  std::size_t queue_depth = 0;         ///< waiting for a worker
  std::size_t held = 0;                ///< arrived during a stall, admitted when it ends
  std::size_t busy_workers = 0;        ///< in service, waiting for or holding a dependency connection
  std::size_t dependency_in_use = 0;   ///< dependency connections held
  std::size_t dependency_waiting = 0;  ///< workers waiting for a dependency connection
  std::size_t cache_size = 0;
  ModelCounters totals;
  std::vector<SecondStats> history;
};

/// The model. It never reads a clock: every entry point takes the time, and it asks for wake-ups through
/// the TimerQueue it was given (whose owner calls fire_due(now) with real or virtual time). Events are
/// processed at the time they were scheduled for, so a late wake-up delays the answer but never the
/// model's own schedule: K workers with service S complete K/S per second exactly. Single-threaded; the
/// TimerQueue and sink must outlive the model.
///
/// Life of a request: admitted (or held while frozen, admitted at the stall's end) → shed (429) if the
/// queue is at shed_at, rejected (503) if at queue_limit, else queued → taken by a free worker in FIFO or
/// LIFO order → expired (504) if past its deadline, cancelled if unwanted (--cancel) → service (cache hit/
/// miss time if the cache is on) → dependency (waiting for a pool connection while holding the worker) →
/// ok, or error with probability error_rate.
///
/// During a stall nothing is admitted, dequeued or completed. Work in service resumes afterwards with the
/// stall added to its remaining time; a dependency call (external) completes no earlier than the stall's end.
class ServiceModel final : private net::TimerHandler {
 public:
  /// `start` is time zero for stall windows and per-second history.
  ServiceModel(ModelConfig config, net::TimerQueue& timers, ModelSink& sink, SteadyTime start);
  ServiceModel(const ServiceModel&) = delete;
  ServiceModel& operator=(const ServiceModel&) = delete;

  /// A request arrives at `now` (non-decreasing across calls, give or take events already scheduled).
  void submit(SteadyTime now, const Arrival& arrival);
  /// Replaces the configuration at `now` (the seed is kept). More workers or pool connections start work at
  /// once; fewer retire as they finish; a changed stall schedule ends any stall in progress and re-applies.
  void configure(const ModelConfig& config, SteadyTime now);
  /// Empties the cache (a cold start, as after a deploy).
  void flush_cache() { m_cache.clear(); }
  /// Starts the model afresh at `now`, as a restarted process would: the cache emptied and the stall windows
  /// counted from `now` (a stall in progress ends; a one-off stall at 10s comes 10 s after this). Work already
  /// queued or in service goes on; the random stream and the counters go on too (repeats draw anew).
  void restart(SteadyTime now);

  const ModelConfig& config() const { return m_config; }
  bool frozen() const { return m_frozen; }
  /// Counters and state at `now` (rolls the per-second history forward first).
  ModelSnapshot snapshot(SteadyTime now);
  const ModelCounters& totals() const { return m_stats.totals(); }

 private:
  enum class Phase : std::uint8_t { idle, service, dependency_wait, dependency };
  struct Job {
    Arrival arrival;
    SteadyTime arrived;
  };
  struct Worker {
    Phase phase = Phase::idle;
    std::uint32_t generation = 0;
    SteadyTime phase_end;
    SteadyTime service_start;  // when this worker took its job (for the job's queue wait and service time)
    CacheLookup cache = CacheLookup::not_looked_up;  // what the cache did for the job (begin_service)
    Job job;
  };
  enum class TimerKind : std::uint64_t { worker = 0, stall_begin = 1, stall_end = 2 };

  void on_timer(std::uint64_t cookie) override;
  void on_worker_timer(std::uint32_t w, std::uint32_t generation);
  void schedule_worker(std::uint32_t w);

  void admit(const Job& job, SteadyTime now);
  void dispatch(SteadyTime now);
  bool take_job(Job& out, SteadyTime now);
  void begin_service(std::uint32_t w, const Job& job, SteadyTime t);
  void end_service(std::uint32_t w, SteadyTime t);
  void begin_dependency(std::uint32_t w, SteadyTime t);
  void end_dependency(std::uint32_t w, SteadyTime t);
  void release_pool(SteadyTime t);
  void complete(std::uint32_t w, SteadyTime t);
  /// `service_start`: when a worker took the job; SteadyTime::max() when it was never served.
  void finish(const Job& job, Outcome outcome, SteadyTime t, SteadyTime service_start = SteadyTime::max(),
              CacheLookup cache = CacheLookup::not_looked_up);
  bool pool_available() const;
  void set_workers(std::uint32_t count);

  void schedule_next_stall(SteadyTime now);
  void begin_stall(SteadyTime t);
  void end_stall(SteadyTime t);

  void roll(SteadyTime t) { m_stats.roll(t - m_start, m_queue.size()); }
  std::uint64_t cookie(TimerKind kind, std::uint32_t index, std::uint32_t generation) const {
    return (static_cast<std::uint64_t>(kind) << 62) | (static_cast<std::uint64_t>(index) << 32) | generation;
  }

  ModelConfig m_config;
  net::TimerQueue& m_timers;
  ModelSink& m_sink;
  SteadyTime m_start;
  SteadyTime m_stall_origin;  // time zero of the stall windows: the start, or the latest restart()
  Rng m_rng;
  LruCache m_cache;
  ModelStats m_stats;
  RingDeque<Job> m_queue;
  RingDeque<Job> m_held;
  RingDeque<std::uint32_t> m_pool_waiters;
  std::vector<Worker> m_workers;
  std::vector<std::uint32_t> m_idle;  // idle workers with index < workers, used as a stack
  std::size_t m_busy = 0;
  std::size_t m_pool_in_use = 0;
  bool m_frozen = false;
  SteadyTime m_frozen_since;
  SteadyTime m_frozen_until;
  SteadyTime m_next_stall;
  std::uint32_t m_stall_generation = 0;
};

/// Short lower-case name ("ok", "shed", ...), for JSON and logs.
const char* to_string(Outcome outcome);

}  // namespace openloop::lab

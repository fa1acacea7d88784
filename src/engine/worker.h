// One worker thread: its shard of the schedule, its event loop, its connections and its recorder (shared nothing).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "engine/connection.h"
#include "engine/run_plan.h"
#include "net/event_loop.h"
#include "results/recorder.h"
#include "workload/arrival_schedule.h"
#include "workload/rate_profile.h"

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
  std::uint64_t peak_connections = 0;
  SteadyTime stopped_scheduling{};  ///< when the last arrival was issued (or scheduling was stopped)
};

/// Runs one shard of the plan on the calling thread. The coordinator reads results only through take_intervals()
/// (locked, once per interval) and report() after the thread has ended (invariant 5).
class Worker final : public ConnectionOwner {
 public:
  /// `start` is the intended time of offset 0 (warm-up begins); `tls` is null for plain HTTP.
  Worker(const RunPlan& plan, unsigned index, SSL_CTX* tls, const std::atomic<int>& stop, SteadyTime start);
  ~Worker() override;
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  /// Creates the event loop. Call before run().
  Result<void> init();
  /// The thread body: runs until the plan ends (or a stop request) and every request is resolved.
  void run();
  /// Moves the intervals finished so far into `out` (thread-safe).
  void take_intervals(std::vector<results::IntervalStats>& out);
  /// True once run() has handed over its last interval.
  bool done() const { return m_done.load(std::memory_order_acquire); }
  const WorkerReport& report() const { return m_report; }

  // ConnectionOwner
  void on_sent(Connection& c, SteadyTime now, std::size_t bytes) override;
  void on_ready(Connection& c) override;
  void on_response(Connection& c, SteadyTime now, int status, std::uint64_t bytes_in) override;
  void on_failure(Connection& c, results::ErrorKind kind, bool had_request) override;

 private:
  struct Queued {
    SteadyTime intended;
    std::int64_t interval;
  };

  void issue_due_arrivals(SteadyTime now);
  void arrival(SteadyTime intended);
  void start_request(Connection& c, SteadyTime intended, std::int64_t interval);
  void release(Connection& c);
  void start_users(SteadyTime now);
  void expire(SteadyTime now);
  void finish_request(Connection& c);
  void resolve_unfinished(SteadyTime end);
  void hand_over(bool all);
  SteadyTime next_wakeup() const;
  Nanos horizon(SteadyTime now) const;
  results::IntervalStats& stats(std::int64_t interval) { return m_recorder.interval(interval); }

  // In-flight list, ordered by deadline (every request gets deadline = intended + timeout and requests are
  // assigned in intended order, so appending keeps it sorted).
  void link(Connection& c);
  void unlink(Connection& c);

  const RunPlan& m_plan;
  const unsigned m_index;
  const std::atomic<int>& m_stop;
  const SteadyTime m_start;          // offset 0 of the schedule
  const SteadyTime m_measure_start;  // m_start + warm-up
  const SteadyTime m_end;            // m_start + warm-up + duration
  std::optional<net::EventLoop> m_loop;
  workload::ArrivalSchedule m_schedule;
  std::optional<Nanos> m_next_arrival;  // offset of the next arrival, nullopt when the schedule is exhausted
  bool m_scheduling = true;
  SteadyTime m_grace_end = SteadyTime::max();
  results::Recorder m_recorder;

  ConnectionConfig m_config;
  std::vector<char> m_read_buffer;
  std::vector<std::unique_ptr<Connection>> m_connections;
  std::vector<Connection*> m_closed;  // free, not connected
  std::vector<Connection*> m_idle;    // free, connected (LIFO keeps hot connections busy)
  std::vector<Connection*> m_users_waiting;  // closed model: users to (re)start in the next loop round
  Connection* m_head = nullptr;       // in-flight list
  Connection* m_tail = nullptr;
  std::vector<Queued> m_queue;        // --on-saturation queue: ring buffer
  std::size_t m_queue_head = 0, m_queue_size = 0;
  std::uint64_t m_open_count = 0;

  std::mutex m_outbox_mutex;
  std::vector<results::IntervalStats> m_outbox;
  std::vector<results::IntervalStats> m_finished;  // scratch, reused
  SteadyTime m_next_handover{};
  std::atomic<bool> m_done{false};
  WorkerReport m_report;
};

}  // namespace openloop::engine

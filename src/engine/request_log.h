// The per-request log (--log-requests): workers append fixed-size records to a ring of their own; a writer
// thread formats them (JSON lines or CSV) and writes them. A full ring drops the record and counts it: the
// log never slows the run.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/error.h"
#include "core/time.h"
#include "results/recording/counters.h"
#include "results/recording/phase_stats.h"

namespace openloop::engine {

/// How a logical request ended, as the log names it ("ok", "status", ...).
enum class RecordOutcome : std::uint8_t {
  ok,            ///< a success status within the deadline
  status,        ///< a response, but not a success (status outside the success range)
  check_failed,  ///< a success status, but a capture or check of its flow step failed (not ok)
  timeout,       ///< the deadline passed first (sent or still queued)
  error,         ///< no usable response; `error` says which kind
  dropped,       ///< never sent: no connection free with the pool at its cap
  unfinished,    ///< still in flight when the run ended
};
std::string_view to_string(RecordOutcome o);

/// One logical request's line, as the worker hands it over: trivially copyable, no pointers, no allocation.
/// Times are steady-clock points; `sent` and `end` are the epoch (zero) when they did not happen.
struct RequestRecord {
  SteadyTime intended{};
  SteadyTime sent{};  ///< when the generator started on it (its first attempt took a connection)
  SteadyTime end{};   ///< response, error, deadline (timeout) or end of run (unfinished); zero when dropped
  results::AttemptPhases phases{};  ///< the last attempt's: those it reached (−1: not reached)
  std::uint64_t bytes_in = 0;       ///< the last attempt's response bytes
  std::uint32_t bytes_out = 0;      ///< the last attempt's request bytes
  std::uint32_t request = 0;        ///< index into the plan's requests
  std::int16_t status = 0;          ///< HTTP status; 0 without a response
  std::int8_t grpc_status = -1;     ///< a gRPC call's grpc-status (0..16); −1 without one
  std::uint16_t attempts = 0;       ///< attempts made (0 when never sent)
  RecordOutcome outcome = RecordOutcome::ok;
  results::ErrorKind error = results::ErrorKind::connect;  ///< outcome error only
  bool warmup = false;                                     ///< intended during the warm-up
  std::uint8_t protocol = 0;    ///< of the last attempt's connection: 0 none, 1 HTTP/1.1, 2 HTTP/2
  std::uint16_t worker = 0;     ///< the worker (thread) that ran it
  std::uint32_t connection = 0;  ///< 1 + the last attempt's connection id within its worker (0: none)
  std::int32_t stream = 0;      ///< the last attempt's HTTP/2 stream id (0: none, or HTTP/1.1)
};

/// Single-producer, single-consumer ring of records: one per worker (the producer), drained by the log's
/// writer thread (the consumer). push() never blocks, locks or allocates; a full ring refuses the record and
/// counts it.
class RecordRing {
 public:
  /// `capacity` is rounded up to a power of two (at least 2).
  explicit RecordRing(std::size_t capacity);
  /// Producer thread only. False (and the record counted in dropped()) when the ring is full.
  bool push(const RequestRecord& r) {
    const std::uint64_t head = m_head.load(std::memory_order_relaxed);
    if (head - m_cached_tail >= m_slots.size()) {
      m_cached_tail = m_tail.load(std::memory_order_acquire);
      if (head - m_cached_tail >= m_slots.size()) {
        m_dropped.store(m_dropped.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        return false;
      }
    }
    m_slots[head & m_mask] = r;
    m_head.store(head + 1, std::memory_order_release);
    return true;
  }
  /// Consumer thread only: moves up to `max` records, oldest first, to `out`; returns how many.
  std::size_t pop(RequestRecord* out, std::size_t max);
  /// Records refused because the ring was full (any thread).
  std::uint64_t dropped() const { return m_dropped.load(std::memory_order_relaxed); }
  std::size_t capacity() const { return m_slots.size(); }

 private:
  std::vector<RequestRecord> m_slots;
  std::size_t m_mask;
  alignas(64) std::atomic<std::uint64_t> m_head{0};  // next slot the producer writes
  std::uint64_t m_cached_tail = 0;                   // the producer's last look at m_tail
  alignas(64) std::atomic<std::uint64_t> m_tail{0};  // next slot the consumer reads
  alignas(64) std::atomic<std::uint64_t> m_dropped{0};
};

enum class LogFormat : std::uint8_t { json, csv };
/// "json" or "csv"; a usage error naming `flag` and both choices otherwise.
Result<LogFormat> parse_log_format(std::string_view text, std::string_view flag);

/// What turns records into lines: request names, and the Unix time of one steady-clock point (records carry
/// steady times; the log shows wall-clock seconds).
struct LogContext {
  std::vector<std::string> request_names;
  SteadyTime steady_origin{};
  double unix_origin_s = 0;
};

/// The CSV header line (with '\n'); the columns are the JSON fields, in the same order.
std::string_view csv_header();
/// Appends one line for `r` (with '\n'). JSON: {"intended_s":..., "sent_s":..., "response_ms":...,
/// "connect_ms":..., "tls_ms":..., "ttfb_ms":..., "body_ms":..., "new_connection":..., "status":...,
/// "bytes_in":..., "bytes_out":..., "attempts":..., "outcome":"ok", "error":..., "request":"...",
/// "warmup":..., "protocol":"h2", "connection":"0.3", "stream":5}; a value that does not apply is null (JSON) or
/// empty (CSV). `connection` is "WORKER.ID" (connection ids are per worker thread), `stream` HTTP/2's stream id. Times in seconds since the Unix
/// epoch, durations in milliseconds, both to the microsecond. Allocation-free once `out` has grown.
void format_record(const RequestRecord& r, const LogContext& ctx, LogFormat format, std::string& out);

/// The log itself: one ring per worker and the writer thread that drains them to a file or standard output.
class RequestLog {
 public:
  /// Default records each worker's ring holds: about 1.6 s of 20 000 requests/s (3 MB).
  static constexpr std::size_t k_default_ring = 32 * 1024;

  /// Opens `path` ("-": standard output) for writing, truncating it; a usage error naming --log-requests when
  /// it cannot be opened. `workers` rings of `ring_capacity` records.
  static Result<std::unique_ptr<RequestLog>> open(const std::string& path, LogFormat format, unsigned workers,
                                                  LogContext context,
                                                  std::size_t ring_capacity = k_default_ring);
  ~RequestLog();
  RequestLog(const RequestLog&) = delete;
  RequestLog& operator=(const RequestLog&) = delete;

  /// Worker `index`'s ring (index < workers).
  RecordRing& ring(unsigned index) { return *m_rings[index]; }
  unsigned workers() const { return static_cast<unsigned>(m_rings.size()); }
  /// Starts the writer thread (it polls the rings every few milliseconds).
  void start();
  /// Without start(): formats and writes what the rings hold now, on the calling thread (which must be the
  /// workers' own, or they must have ended). A simulation drains this way as its run fills the rings, so
  /// no record is dropped for a writer that polls on wall time. True when it found records.
  bool drain() { return drain_once(); }
  /// Call after every worker has ended: drains what is left, stops the writer, flushes and closes. The first
  /// write error, if any (the records it could not write are counted as dropped).
  Result<void> finish();
  /// Lines written so far (records formatted and handed to the file).
  std::uint64_t written() const { return m_written.load(std::memory_order_relaxed); }
  /// Records lost: refused by a full ring, or not written after a write error.
  std::uint64_t dropped() const;

 private:
  RequestLog(int fd, bool owns_fd, std::string path, LogFormat format, LogContext context);
  void writer();
  bool drain_once();  // true when it found records
  void flush();

  int m_fd;
  bool m_owns_fd;
  std::string m_path;
  LogFormat m_format;
  LogContext m_context;
  std::vector<std::unique_ptr<RecordRing>> m_rings;
  std::vector<RequestRecord> m_batch;
  std::string m_buffer;
  std::string m_error;  // the first write error
  std::atomic<bool> m_stop{false};
  std::atomic<std::uint64_t> m_written{0};
  std::uint64_t m_lost = 0;  // records formatted but not written (write error)
  std::thread m_thread;
};

}  // namespace openloop::engine

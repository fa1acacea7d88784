// One client connection: connect, TLS handshake, write the request, read and parse the response.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/time.h"
#include "http/response_parser.h"
#include "net/event_loop.h"
#include "net/resolver.h"
#include "net/transport.h"
#include "results/counters.h"
#include "results/phase_stats.h"

namespace openloop::engine {

class Connection;

/// The worker side of a connection: told of every state change that matters for accounting.
class ConnectionOwner {
 public:
  virtual ~ConnectionOwner() = default;
  /// The request's first bytes were handed to the transport (`bytes`: the whole request's size).
  virtual void on_sent(Connection& c, std::size_t bytes) = 0;
  /// A connection became ready (connected and, for TLS, handshaken) with no request assigned.
  virtual void on_ready(Connection& c) = 0;
  /// A final response arrived. The connection is idle (keep-alive) or already closed.
  virtual void on_response(Connection& c, SteadyTime now, int status, std::uint64_t bytes_in) = 0;
  /// The connection failed; it is closed. `had_request` says whether a request was assigned.
  virtual void on_failure(Connection& c, results::ErrorKind kind, bool had_request) = 0;
};

/// Fixed per-worker settings shared by its connections.
struct ConnectionConfig {
  const net::Endpoint* endpoint = nullptr;
  SSL_CTX* tls = nullptr;       ///< null for plain HTTP
  std::string_view host;        ///< for SNI and certificate verification
  char* read_buffer = nullptr;  ///< shared by the worker's connections (reads are synchronous)
  std::size_t read_buffer_size = 0;
  std::uint64_t* open_count = nullptr;  ///< the worker's count of open sockets (connecting or connected)
  bool capture_retry_after = false;     ///< keep each response's Retry-After (--honor-retry-after)
  /// Read each response's Server-Timing (always on in a run): empty = the sum of every metric's dur, else the
  /// named metric's (--server-timing-metric). The view must outlive the connection (the plan's string).
  bool capture_server_timing = false;
  std::string_view server_timing_metric;
  /// A response completes when the kernel received its last bytes, not when the worker read them
  /// (--coalesce: the worker sleeps while responses come in).
  bool stamp_receipts = false;
};

/// One attempt of a logical request, in flight on a connection. Times are absolute (steady clock). A logical
/// request is one intended arrival (or user step); with retries it makes several attempts, one at a time.
struct InFlight {
  SteadyTime intended{};
  SteadyTime
      sent{};  ///< when the generator started on the logical request (its first attempt took a connection)
  SteadyTime deadline{};  ///< this attempt's: min(attempt start + per-try timeout, intended + timeout)
  std::int64_t interval = 0;
  std::string_view bytes;     ///< the request to write (the plan's, or the connection's `out`)
  std::uint32_t request = 0;  ///< index into the plan's requests
  std::int32_t user = -1;     ///< the user or session that sent it; −1 for an open-model arrival
  bool head = false;          ///< HEAD: the response has no body
  // Retries (engine/retries.cpp).
  bool logical_sent = false;  ///< some attempt's bytes went out (the logical request counts as sent once)
  std::uint16_t attempt = 1;  ///< 1 = the first attempt
  std::uint32_t header_at = 0, header_length = 0;  ///< the deadline header line inside `out` (length 0: none)
  SteadyTime attempt_start{};                      ///< when this attempt took its connection
  Nanos last_backoff{0};  ///< the wait before this attempt (decorrelated jitter grows from it)
  double retry_cost = 0;  ///< what the budget charged for this attempt (0 for the first)
  /// The phases of the last attempt: all of them when it received a response, those it reached when it failed
  /// or timed out (Connection::reached_phases()); all −1 before any attempt ended.
  results::AttemptPhases phases{};
  std::uint64_t bytes_in = 0;  ///< that response's bytes (for the per-request log)
};

/// State machine over one socket, driven by the worker's event loop. One request at a time (no pipelining).
/// Allocation-free after open(); never throws.
class Connection final : public net::IoHandler {
 public:
  enum class State : std::uint8_t { closed, connecting, handshaking, idle, busy };

  Connection(ConnectionOwner& owner, net::EventLoop& loop, const ConnectionConfig& config);
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  /// Starts connecting (closed → connecting). Returns false when the socket could not even be started; the
  /// caller accounts the failure as open_failure() (errno is kept in last_errno()).
  bool open();
  /// Assigns a request: sent at once when idle, once connected otherwise. Precondition: no request assigned.
  void assign(const InFlight& request);
  /// Closes the socket; any assigned request is forgotten (the caller accounted for it).
  void close();

  void on_io(std::uint32_t events) override;

  State state() const { return m_state; }
  bool has_request() const { return m_has_request; }
  const InFlight& request() const { return m_request; }
  InFlight& request() { return m_request; }
  /// The last response's Retry-After value (empty when absent or not captured); valid until the next
  /// assign().
  std::string_view retry_after() const { return m_parser.retry_after(); }
  /// The last response's Server-Timing (http::ResponseParser::server_timing); valid in on_response.
  http::ServerTimingValue server_timing() const { return m_parser.server_timing(); }
  bool has_server_timing() const { return m_parser.has_server_timing(); }
  /// The phases of the response just completed (valid in on_response until the next assign()). On the first
  /// request a connection carries (new_connection), the connection's setup: connect (open → connected) and,
  /// for TLS, the handshake (connected → ready), whether the request waited for them or the connection was
  /// opened ahead (pre-warm). For every request: time to first byte from the send, body from the first byte
  /// to `done` (the response's completion time, as passed to on_response).
  results::AttemptPhases phases(SteadyTime done) const;
  /// The phases the current attempt reached when it ends without a response (a failure, or cut at its
  /// deadline): on a new connection, connect and TLS when they completed; time to first byte when a first
  /// byte arrived; never body (it did not complete). All −1 when nothing completed (e.g. the connect failed).
  /// Valid after close() too, until the next open() or assign().
  results::AttemptPhases reached_phases() const;
  int last_errno() const { return m_errno; }
  /// The kind of the last open() failure: generator when this process ran out of its own resources (file
  /// descriptors, memory, local ports: EMFILE, ENFILE, ENOBUFS, ENOMEM, EADDRNOTAVAIL, ...), connect otherwise.
  results::ErrorKind open_failure() const;
  /// Why the connection last failed, for the report's one example per error kind (builds a string: call once
  /// per kind, not per event): TLS's reason, the errno's text, or ours ("connection closed before a response was
  /// received", llhttp's "Expected HTTP/", ...).
  std::string error_string() const;

  // Intrusive links for the worker's in-flight lists. Owned by the worker.
  enum class List : std::uint8_t { none, by_deadline, by_timer };
  Connection* prev = nullptr;
  Connection* next = nullptr;
  List list = List::none;
  std::uint32_t id = 0;          ///< index in the worker's pool (timer cookies)
  std::uint32_t generation = 0;  ///< bumped per timed attempt, so a stale deadline timer is ignored
  std::int32_t holder = -1;      ///< the user holding this connection between requests, −1 when pooled
  std::string out;               ///< a templated request rendered for this connection (capacity reused)

 private:
  void on_connected();
  void become_ready();
  void continue_handshake();
  void send();
  void receive();
  void fail(results::ErrorKind kind);
  void watch(std::uint32_t events);

  ConnectionOwner& m_owner;
  net::EventLoop& m_loop;
  const ConnectionConfig& m_config;
  net::Transport m_transport;
  http::ResponseParser m_parser;
  State m_state = State::closed;
  int m_fd = -1;
  std::uint32_t m_events = 0;
  bool m_has_request = false;
  bool m_fresh = true;  // no response read yet on this connection
  InFlight m_request;
  std::size_t m_written = 0;
  std::uint64_t m_bytes_in = 0;
  int m_errno = 0;
  const char* m_reason = "";  // a failure without an errno (a static string)
  results::ErrorKind m_failed = results::ErrorKind::connect;  // the kind of the last failure
  // Phase edges of the current request (steady clock). Clock reads are taken only at edges no other code
  // reads: open, connect and handshake completion (once per connection) and the first byte of a response that
  // arrives in several reads; the send reuses the worker's dispatch time (idle connection) or the ready time.
  bool m_first_request = false;  // the current request is the first this connection carries
  SteadyTime m_opened{}, m_connected{}, m_ready{}, m_sent{}, m_first_byte{};
  bool m_first_byte_seen = false;
  bool m_connect_done = false, m_ready_done = false;  // this socket connected / finished its handshake
};

}  // namespace openloop::engine

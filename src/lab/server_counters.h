// What the lab's HTTP layer counts (connections and bad requests), next to the model's counters.
#pragma once

#include <cstdint>

namespace openloop::lab {

/// Counters of the HTTP/2 layer (--http2 only). Single-threaded (the server's loop thread).
struct Http2Counters {
  std::uint64_t connections = 0;  ///< HTTP/2 connections accepted (bad_preface included)
  std::uint64_t http1_connections = 0;  ///< connections that opened with an HTTP/1.1 request line instead
  std::uint64_t bad_preface = 0;  ///< connections that did not open with the preface: GOAWAY, closed
  std::uint64_t streams = 0;      ///< streams the clients opened (refused ones included)
  std::uint64_t refused = 0;      ///< streams answered RST_STREAM REFUSED_STREAM (--refuse-streams-above)
  std::uint64_t goaways = 0;      ///< GOAWAY frames sent (--goaway-after, bad preface, protocol errors)
  std::uint64_t resets = 0;       ///< RST_STREAM frames received from clients
  std::uint64_t grpc_calls = 0;   ///< --grpc: calls of openloop.lab.v1.Lab/Call handed to the router
  std::uint64_t grpc_reflection_streams = 0;  ///< --grpc: server reflection streams answered
};

/// Counters of the socket/HTTP layer. Single-threaded (the server's loop thread).
struct ServerCounters {
  std::uint64_t connections_accepted = 0;
  std::uint64_t connections_open = 0;
  std::uint64_t accept_errors = 0;      ///< accept() failures, e.g. out of file descriptors
  std::uint64_t requests = 0;           ///< well-formed requests, model and control
  std::uint64_t control_requests = 0;   ///< /_lab/* requests (subset of requests)
  std::uint64_t malformed = 0;          ///< not HTTP: answered 400, closed
  std::uint64_t headers_too_large = 0;  ///< request line + headers over 16 KiB: answered 431, closed
  std::uint64_t body_too_large = 0;     ///< body over the limit: answered 413, closed
  std::uint64_t bad_deadline = 0;       ///< unreadable deadline header: answered 400 (connection kept)
  std::uint64_t read_timeouts = 0;      ///< slow senders cut off by --header-timeout: answered 408, closed
  Http2Counters http2;                  ///< with --http2 (every request above is also counted there)
  /// All bad requests: malformed + headers_too_large + body_too_large + bad_deadline + read_timeouts.
  std::uint64_t bad_requests() const {
    return malformed + headers_too_large + body_too_large + bad_deadline + read_timeouts;
  }
};

}  // namespace openloop::lab

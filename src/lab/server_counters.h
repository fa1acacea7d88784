// What the lab's HTTP layer counts (connections and bad requests), next to the model's counters.
#pragma once

#include <cstdint>

namespace openloop::lab {

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
  /// All bad requests: malformed + headers_too_large + body_too_large + bad_deadline + read_timeouts.
  std::uint64_t bad_requests() const {
    return malformed + headers_too_large + body_too_large + bad_deadline + read_timeouts;
  }
};

}  // namespace openloop::lab

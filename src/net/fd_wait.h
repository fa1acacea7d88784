// A blocking wait for one descriptor, and a blocking connect, for the blocking exchanges outside the event
// loop (the lab's control client, a plan's setup and teardown steps, gRPC's reflection stream).
#pragma once

#include <string>
#include <vector>

#include "core/error.h"
#include "core/time.h"
#include "net/resolver.h"

namespace openloop::net {

/// Waits until `events` (poll(2)'s POLLIN, POLLOUT) on `fd`, or the deadline: false on timeout or a poll
/// error.
/// Waits in slices of at most a second, rounding the last one up so it never spins.
bool wait_fd(int fd, short events, SteadyTime deadline);

class Transport;
class TlsContext;

/// Connects `t` to the first of `endpoints` that accepts by the deadline, over TLS (SNI `host`) when `tls` is
/// given. Errors: "cannot connect: 127.0.0.1:9: Connection refused" (the last endpoint's), "TLS handshake
/// failed: ...", "the TLS handshake timed out".
Result<void> connect_blocking(const std::vector<Endpoint>& endpoints, const std::string& host,
                              const TlsContext* tls, Transport& t, SteadyTime deadline);

}  // namespace openloop::net

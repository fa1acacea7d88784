// Name resolution, done once at start so no DNS lookup ever happens on the hot path.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <sys/socket.h>

#include "core/error.h"

namespace openloop::net {

/// One TCP address to connect to (IPv4 or IPv6).
struct Endpoint {
  sockaddr_storage addr{};
  socklen_t addr_len = 0;
  /// "127.0.0.1:8080" or "[::1]:80".
  std::string to_string() const;
};

/// Resolves host (a name or an IP literal) for TCP on `port` with getaddrinfo, in the system's preferred
/// order, duplicates removed. Blocking: call at setup, never on a worker's hot path. Error (runtime, message
/// starts "DNS: ") names the host and the resolver's reason; never an empty vector.
Result<std::vector<Endpoint>> resolve(const std::string& host, std::uint16_t port);

}  // namespace openloop::net

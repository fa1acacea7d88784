// grpc-timeout's value (grpc/doc/PROTOCOL-HTTP2.md: a TimeoutValue of at most 8 digits and a TimeoutUnit):
// the deadline a gRPC client sends with each call.
#pragma once

#include <array>
#include <cstdint>
#include <utility>

namespace openloop {

/// A grpc-timeout: `value` (1 to 99,999,999) in `unit` ('m' milliseconds, 'S' seconds, 'M' minutes, 'H'
/// hours).
struct GrpcTimeout {
  std::int64_t value = 0;
  char unit = 'm';
};

/// grpc-timeout for a deadline `ms` milliseconds from now (deadline headers here count milliseconds): `ms`
/// itself up to 99,999,999 ms (27.7 h), past it the first coarser unit that fits, rounded up so the server
/// never sees a shorter deadline than the client keeps; 99,999,999 H at most. `ms` ≥ 0. Allocation-free (the
/// request path).
constexpr GrpcTimeout grpc_timeout_ms(std::int64_t ms) {
  constexpr std::int64_t k_max_value = 99'999'999;
  constexpr std::array<std::pair<char, std::int64_t>, 4> k_units = {
      {{'m', 1}, {'S', 1'000}, {'M', 60'000}, {'H', 3'600'000}}};
  for (const auto& [unit, unit_ms] : k_units) {
    const std::int64_t value = ms / unit_ms + (ms % unit_ms != 0 ? 1 : 0);
    if (value <= k_max_value) return {value, unit};
  }
  return {k_max_value, 'H'};
}

}  // namespace openloop

// The length prefix of gRPC messages and the grpc-timeout value.
#include "grpc/framing.h"

#include <array>
#include <cstdint>

namespace openloop::grpc {

void append_framed(std::string_view message, std::string& out) {
  const auto n = static_cast<std::uint32_t>(message.size());
  const std::array<char, k_prefix_size> prefix = {0, static_cast<char>(n >> 24), static_cast<char>(n >> 16),
                                                  static_cast<char>(n >> 8), static_cast<char>(n)};
  out.append(prefix.data(), prefix.size());
  out.append(message);
}

std::string grpc_timeout(Nanos timeout) {
  // The units grpc-timeout allows, finest first, and their length in nanoseconds.
  struct Unit {
    char name;
    std::int64_t ns;
  };
  constexpr std::array<Unit, 6> k_units = {{{'n', 1},
                                            {'u', 1'000},
                                            {'m', 1'000'000},
                                            {'S', 1'000'000'000},
                                            {'M', 60'000'000'000},
                                            {'H', 3'600'000'000'000}}};
  constexpr std::int64_t k_max_value = 99'999'999;  // 8 digits
  const std::int64_t ns = timeout.count();
  // The coarsest unit that says the deadline exactly ("50m"), else the finest that fits, rounded up.
  for (auto u = k_units.rbegin(); u != k_units.rend(); ++u)
    if (ns % u->ns == 0 && ns / u->ns <= k_max_value) return std::to_string(ns / u->ns) + u->name;
  for (const Unit& u : k_units) {
    const std::int64_t value = (ns + u.ns - 1) / u.ns;
    if (value <= k_max_value) return std::to_string(value) + u.name;
  }
  return std::to_string(k_max_value) + 'H';
}

}  // namespace openloop::grpc

// The length prefix of gRPC messages.
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

}  // namespace openloop::grpc

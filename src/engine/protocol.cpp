// ALPN ids of the protocols a connection can speak.
#include "engine/protocol.h"

#include <algorithm>

namespace openloop::engine {

namespace {
constexpr std::string_view k_http1_offer[] = {"http/1.1"};
}  // namespace

std::string_view alpn_id(Protocol p) {
  switch (p) {
    case Protocol::http1:
      return "http/1.1";
  }
  return "";
}

std::span<const std::string_view> alpn_offer(Protocol p) {
  switch (p) {
    case Protocol::http1:
      return k_http1_offer;
  }
  return {};
}

std::optional<Protocol> alpn_choice(std::string_view chosen, std::span<const std::string_view> offered) {
  if (std::find(offered.begin(), offered.end(), chosen) == offered.end()) return std::nullopt;
  if (chosen == alpn_id(Protocol::http1)) return Protocol::http1;
  return std::nullopt;
}

}  // namespace openloop::engine

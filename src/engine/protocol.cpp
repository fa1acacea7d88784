// ALPN ids of the protocols a connection can speak, and the names of what a plan asks for.
#include "engine/protocol.h"

#include <algorithm>

namespace openloop::engine {

namespace {
constexpr std::string_view k_http1_offer[] = {"http/1.1"};
constexpr std::string_view k_http2_offer[] = {"h2"};
constexpr std::string_view k_auto_offer[] = {"h2", "http/1.1"};
}  // namespace

std::string_view to_string(Protocol p) {
  return p == Protocol::http2 ? "h2" : "h1";
}

std::string_view to_string(ProtocolChoice c) {
  switch (c) {
    case ProtocolChoice::automatic:
      return "auto";
    case ProtocolChoice::http1:
      return "h1";
    case ProtocolChoice::http2:
      return "h2";
  }
  return "auto";
}

std::optional<ProtocolChoice> parse_protocol_choice(std::string_view text) {
  if (text == "auto") return ProtocolChoice::automatic;
  if (text == "h1" || text == "http/1.1" || text == "http1.1") return ProtocolChoice::http1;
  if (text == "h2" || text == "http2") return ProtocolChoice::http2;
  return std::nullopt;
}

Protocol fallback_protocol(ProtocolChoice c) {
  return c == ProtocolChoice::http2 ? Protocol::http2 : Protocol::http1;
}

std::string_view alpn_id(Protocol p) {
  switch (p) {
    case Protocol::http1:
      return "http/1.1";
    case Protocol::http2:
      return "h2";
  }
  return "";
}

std::span<const std::string_view> alpn_offer(Protocol p) {
  switch (p) {
    case Protocol::http1:
      return k_http1_offer;
    case Protocol::http2:
      return k_http2_offer;
  }
  return {};
}

std::span<const std::string_view> alpn_offer(ProtocolChoice c) {
  switch (c) {
    case ProtocolChoice::automatic:
      return k_auto_offer;
    case ProtocolChoice::http1:
      return k_http1_offer;
    case ProtocolChoice::http2:
      return k_http2_offer;
  }
  return {};
}

std::optional<Protocol> alpn_choice(std::string_view chosen, std::span<const std::string_view> offered) {
  if (std::find(offered.begin(), offered.end(), chosen) == offered.end()) return std::nullopt;
  if (chosen == alpn_id(Protocol::http1)) return Protocol::http1;
  if (chosen == alpn_id(Protocol::http2)) return Protocol::http2;
  return std::nullopt;
}

}  // namespace openloop::engine

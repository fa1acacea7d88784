// The protocols a connection can speak, and their names in TLS's ALPN (RFC 7301): what a plan offers and
// how the server's choice maps back to a codec.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace openloop::engine {

/// The protocols a connection can speak. Only HTTP/1.1 exists; HTTP/2 plugs in here (issue 28: "h2" over
/// TLS by ALPN, h2c by prior knowledge).
enum class Protocol : std::uint8_t { http1 };

/// The ALPN protocol id of `p` ("http/1.1").
std::string_view alpn_id(Protocol p);

/// What a plan configured for `p` offers by ALPN over TLS, most preferred first (HTTP/1.1: {"http/1.1"}).
/// Static storage: valid for the whole process.
std::span<const std::string_view> alpn_offer(Protocol p);

/// The protocol the server chose by ALPN, when it is one of `offered` and has a codec; nullopt otherwise
/// (a choice nobody offered: only a broken server makes one).
std::optional<Protocol> alpn_choice(std::string_view chosen, std::span<const std::string_view> offered);

}  // namespace openloop::engine

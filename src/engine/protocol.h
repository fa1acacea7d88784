// The protocols a connection can speak, what a plan asks for (--protocol), and their names in TLS's ALPN
// (RFC 7301): what a plan offers and how the server's choice maps back to a codec.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace openloop::engine {

/// The protocols a connection can speak: HTTP/1.1, and HTTP/2 ("h2" over TLS by ALPN, h2c by prior
/// knowledge over plain TCP).
enum class Protocol : std::uint8_t { http1, http2 };
inline constexpr std::size_t k_protocols = 2;

/// What a plan asks for (--protocol). automatic: HTTP/1.1 over plain TCP; over TLS, ALPN offers h2 and
/// http/1.1 and the server's choice is used. http1: HTTP/1.1 only. http2: HTTP/2 only (over plain TCP by
/// prior knowledge, as h2load; over TLS, ALPN offers h2 alone).
enum class ProtocolChoice : std::uint8_t { automatic, http1, http2 };

/// "h1" / "h2", as results files and the summary name them.
std::string_view to_string(Protocol p);
/// "auto" / "h1" / "h2", as --protocol and plan files spell them.
std::string_view to_string(ProtocolChoice c);
/// --protocol's and plan files' values: auto, h1 (also http/1.1), h2 (also http2); nullopt for any other.
std::optional<ProtocolChoice> parse_protocol_choice(std::string_view text);
/// The accepted values, for error messages.
inline constexpr std::string_view k_protocol_values = "auto, h1 or h2";

/// The protocol spoken where nothing else decides (plain TCP, or TLS when the server chose nothing by ALPN).
Protocol fallback_protocol(ProtocolChoice c);

/// The ALPN protocol id of `p` ("http/1.1", "h2").
std::string_view alpn_id(Protocol p);

/// What a plan configured for `p` offers by ALPN over TLS, most preferred first (HTTP/1.1: {"http/1.1"}).
/// Static storage: valid for the whole process.
std::span<const std::string_view> alpn_offer(Protocol p);
/// What a plan asking for `c` offers (automatic: {"h2", "http/1.1"}). Static storage.
std::span<const std::string_view> alpn_offer(ProtocolChoice c);

/// The protocol the server chose by ALPN, when it is one of `offered` and has a codec; nullopt otherwise
/// (a choice nobody offered: only a broken server makes one).
std::optional<Protocol> alpn_choice(std::string_view chosen, std::span<const std::string_view> offered);

}  // namespace openloop::engine

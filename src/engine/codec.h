// The protocol seam: what a connection's codec does for the exchanges it carries, and how it reports to the
// worker. The shape of Envoy's envoy/http/codec.h, small: one codec per connection, chosen when the
// connection becomes ready; the worker above it never learns which protocol carries an exchange.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/time.h"
#include "engine/protocol.h"
#include "http/server_timing.h"
#include "results/recording/counters.h"

namespace openloop::engine {

struct Exchange;

/// How an exchange ended with a response. Views are valid during the callback only.
struct ExchangeResult {
  SteadyTime at{};               ///< when the response completed (the kernel's receipt stamp when coalescing)
  int status = 0;                ///< the HTTP status of the final response
  int protocol_status = -1;      ///< a protocol's own status beside the HTTP one (gRPC's 0..16); −1 = none
  std::uint64_t bytes_in = 0;    ///< response bytes on the wire (head and body)
  std::string_view retry_after;  ///< the Retry-After value when captured (--honor-retry-after), else empty
  /// The response's Server-Timing when captured and present, else null.
  const http::ServerTimingValue* server_timing = nullptr;
  std::uint32_t messages = 0;       ///< a gRPC call's response messages
  std::uint64_t message_bytes = 0;  ///< their bytes, without the length prefixes
  /// A gRPC call's grpc-retry-pushback-ms when captured (--honor-retry-after): the milliseconds; −1 none;
  /// −2 negative or not a number (gRFC A6: the server says do not retry).
  std::int64_t retry_pushback_ms = -1;
};

/// How an exchange ended without a response. A connection failure fails every exchange on it.
struct ExchangeError {
  results::ErrorKind kind = results::ErrorKind::connect;
  /// The server cannot have acted on the request (the connection never carried it, or a multiplexed
  /// protocol says the stream was refused): a retry cannot duplicate work.
  bool retryable = false;
  /// The server says it never processed the request (HTTP/2: RST_STREAM REFUSED_STREAM, or a stream above a
  /// GOAWAY's last stream id): the worker sends it again on a connection that can take it, outside the retry
  /// policy and its budget (counted as resent). Implies retryable.
  bool unprocessed = false;
};

/// The worker side of a codec: told, per exchange, of what it needs for accounting. Every exchange started on
/// a codec gets exactly one of on_complete or on_error, unless it is cancelled (Codec::cancel) or its
/// connection is closed by the worker first. A callback may start new exchanges (on this connection too).
class CodecCallbacks {
 public:
  /// The exchange's first request bytes were handed to the transport (`bytes`: the whole request's size).
  virtual void on_sent(Exchange& x, std::size_t bytes) = 0;
  /// A final response arrived. On HTTP/1.1 the connection is ready for another exchange or already closed.
  /// The exchange's phase stamps (first byte) are set.
  virtual void on_complete(Exchange& x, const ExchangeResult& result) = 0;
  /// The exchange failed (its connection failed, or its stream was reset).
  virtual void on_error(Exchange& x, const ExchangeError& error) = 0;

 protected:
  ~CodecCallbacks() = default;
};

/// What a codec may ask of the connection that owns it.
class CodecHost {
 public:
  /// When the bytes just fed were received: the kernel's stamp when coalescing, else now (one clock read).
  virtual SteadyTime receipt_time() = 0;
  /// Closes the socket reporting nothing (HTTP/1.1: a response that ends the connection, a cancel). The codec
  /// must have forgotten its exchanges first.
  virtual void close_transport() = 0;

 protected:
  ~CodecHost() = default;
};

/// A protocol over one connection's byte stream. Driven by its Connection: the connection writes output(),
/// feeds what it reads to on_data(), and tells the codec of the end of the stream. Single-threaded;
/// allocation-free per exchange; never throws.
class Codec {
 public:
  /// What a feed did.
  enum class Feed : std::uint8_t {
    more,   ///< keep reading
    done,   ///< an exchange was completed (the connection may be closed or reused now): stop this read round
    failed  ///< the stream is unusable: the connection must fail (failure_kind(), failure_reason())
  };

  virtual ~Codec() = default;
  virtual Protocol protocol() const = 0;
  /// How many more exchanges can start now (HTTP/1.1: 1 when idle, else 0; a multiplexed protocol: the
  /// peer's stream limit minus the streams open).
  virtual std::uint32_t free_slots() const = 0;
  bool can_start() const { return free_slots() > 0; }
  /// True while some exchange is started and not yet ended.
  virtual bool busy() const = 0;
  /// Starts an exchange (precondition: can_start()): its request (x.parts, or
  /// x.prebuilt_http1, and x.extra_header) becomes output.
  virtual void start(Exchange& x) = 0;
  /// The size of x's request on the wire, as start() would write it.
  virtual std::size_t request_size(const Exchange& x) const = 0;
  /// Gives up on a started exchange without reporting it. HTTP/1.1 closes the connection (it cannot be reused
  /// mid-response); a multiplexed protocol resets the stream and keeps the connection.
  virtual void cancel(Exchange& x) = 0;
  /// The bytes to write next (empty: nothing to write).
  virtual std::string_view output() const = 0;
  /// `n` bytes of output() were written (reports on_sent for an exchange whose first bytes went out).
  virtual void wrote(std::size_t n) = 0;
  /// Bytes read from the connection.
  virtual Feed on_data(const char* data, std::size_t n) = 0;
  /// The peer closed the stream: completes a response delimited by the close (done) or fails (failed).
  virtual Feed on_eof() = 0;
  /// Forgets every started exchange and returns them (a list through Exchange::carrier_next), for the
  /// connection to fail each once the socket is closed.
  virtual Exchange* detach_all() = 0;
  /// The kind and reason of the last failed feed (the reason: a static string, "" when none).
  virtual results::ErrorKind failure_kind() const = 0;
  virtual const char* failure_reason() const = 0;
  /// Why a started exchange is held back by the protocol itself, when it is (a static string; "" when not or
  /// unknown): asked when its deadline cuts it, so a timeout's example can say what it waited for (HTTP/2: a
  /// flow-control window the server never opened). Not per event: at most once per timeout.
  virtual const char* stall_reason(const Exchange& x) const {
    (void)x;
    return "";
  }
};

}  // namespace openloop::engine

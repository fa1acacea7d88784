// The HTTP/1.1 codec: one exchange at a time on a connection (no pipelining), its request written as the
// plan's prebuilt bytes or serialized from its parts, its response framed by the llhttp parser.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "engine/codec.h"
#include "http/response_parser.h"

namespace openloop::engine {

/// What an HTTP/1.1 codec reads from each response beyond its framing.
struct Http1Settings {
  bool capture_retry_after = false;  ///< keep each response's Retry-After (--honor-retry-after)
  bool capture_server_timing = false;
  /// Empty: the sum of every metric's dur; else the named metric's. Must outlive the codec (the plan's).
  std::string_view server_timing_metric;
};

/// HTTP/1.1 over one connection. Lives in engine/, not http/, because it speaks the engine's Exchange and
/// callbacks; http/ keeps the protocol's parts (the response parser, request rendering) that it uses.
/// A response completes an exchange; the connection stays for the next one when the response allows
/// keep-alive and nothing followed it, else the codec closes it before reporting. A constant request without
/// an extra header is written as its prebuilt bytes (no copy); any other is serialized from its parts
/// (http::write_http1, the extra header as its last header) into the codec's buffer. Allocation-free once
/// warm.
class Http1Codec final : public Codec {
 public:
  Http1Codec(CodecHost& host, CodecCallbacks& callbacks, const Http1Settings& settings);

  /// A new socket: no response read on it yet, no exchange.
  void reset();

  Protocol protocol() const override { return Protocol::http1; }
  std::uint32_t free_slots() const override { return m_exchange == nullptr ? 1 : 0; }
  bool busy() const override { return m_exchange != nullptr; }
  void start(Exchange& x) override;
  std::size_t request_size(const Exchange& x) const override;
  void cancel(Exchange& x) override;
  std::string_view output() const override;
  void wrote(std::size_t n) override;
  Feed on_data(const char* data, std::size_t n) override;
  Feed on_eof() override;
  Exchange* detach_all() override;
  results::ErrorKind failure_kind() const override { return m_failure; }
  const char* failure_reason() const override { return m_reason; }

 private:
  /// The exchange's prebuilt bytes are its request as they are (constant, no extra header).
  static bool sends_prebuilt(const Exchange& x);
  Feed complete(bool keep);
  Feed fail(results::ErrorKind kind, const char* reason);

  CodecHost& m_host;
  CodecCallbacks& m_callbacks;
  http::ResponseParser m_parser;
  Exchange* m_exchange = nullptr;
  std::string_view m_request;  // what start() writes: the exchange's prebuilt bytes, or m_out
  std::string m_out;           // a serialized request (capacity reused)
  std::size_t m_written = 0;
  std::uint64_t m_bytes_in = 0;
  results::ErrorKind m_failure = results::ErrorKind::parse;
  const char* m_reason = "";
};

}  // namespace openloop::engine

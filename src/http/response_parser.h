// Incremental HTTP/1.1 response parsing (llhttp): finds where each response ends, counts body bytes, stores
// none (except, on request, a short Retry-After value).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include <llhttp.h>

#include "http/response_sink.h"
#include "http/server_timing.h"

namespace openloop::http {

/// Parses the responses on one client connection, one at a time (no pipelining). Single-threaded. No
/// allocation, exceptions or logging in any member. Movable (the engine may keep parsers in containers), not
/// copyable.
class ResponseParser {
 public:
  enum class State : std::uint8_t { incomplete, complete, error };

  ResponseParser();
  ResponseParser(ResponseParser&&) noexcept = default;
  ResponseParser& operator=(ResponseParser&&) noexcept = default;
  ResponseParser(const ResponseParser&) = delete;
  ResponseParser& operator=(const ResponseParser&) = delete;

  /// Prepares for the next response on this connection (keep-alive) or on a new connection
  /// (new_connection=true). head_request: the response has no body whatever its headers say.
  void reset(bool head_request, bool new_connection);

  /// Feeds received bytes. Returns complete once a FINAL response (status ≥ 200; 1xx interim responses are
  /// skipped, 101 is final) has been fully read: Content-Length and chunked bodies to their end (body bytes
  /// counted, not stored). error on malformed input (sticky until reset). Once complete, further bytes fed
  /// before reset() are only counted in trailing_bytes().
  State feed(const char* data, std::size_t len);

  /// Call on EOF: completes a response delimited by connection close; error if the response was cut short or
  /// none was received. Returns the current state unchanged when already complete or in error.
  State finish();

  /// Captures the Retry-After header of each final response (off by default: no header callbacks run). Call
  /// between responses (it re-initialises the parser).
  void capture_retry_after(bool on);
  /// The Retry-After value of the final response (first occurrence, at most 31 bytes; longer values are cut),
  /// or empty when absent or not captured. Meaningful once complete, until the next reset().
  std::string_view retry_after() const { return {m_retry_after, m_retry_after_len}; }

  /// Reads the Server-Timing header(s) of each final response (off by default). `metric` empty: the sum of
  /// every metric's dur; else the dur of the metric so named (http/server_timing.h). The view must outlive
  /// the parser (the plan's string). Call between responses (it re-initialises the parser).
  void capture_server_timing(bool on, std::string_view metric = {});
  /// The final response's Server-Timing: no_duration when absent (or not captured) or without the duration
  /// sought; malformed when a header was unreadable (bad grammar, or a value over 255 bytes). Several
  /// Server-Timing lines add up (sum) or the first holding the metric counts. Meaningful once complete, until
  /// the next reset().
  ServerTimingValue server_timing() const { return m_server_timing; }
  /// Whether the final response carried a Server-Timing header at all.
  bool has_server_timing() const { return m_server_timing_seen; }

  /// Feeds each final response's status, headers and body to `sink` (null: none, the default; no code runs
  /// for it). The sink must outlive its use. Cheap when only the sink changes; switching between none and one
  /// re-initialises the parser, so call it before reset().
  void set_sink(ResponseSink* sink);

  State state() const { return m_state; }
  /// Status code of the final response (meaningful once complete).
  int status() const { return m_status; }
  /// False when the connection cannot carry another request: Connection: close, HTTP/1.0 without keep-alive,
  /// a close-delimited body, or a 101 upgrade. Meaningful once complete.
  bool keep_alive() const { return m_keep_alive; }
  /// Body bytes of the final response (after de-chunking).
  std::uint64_t body_bytes() const { return m_body_bytes; }
  /// Why feed()/finish() returned error: llhttp's reason (e.g. "Invalid status code") or ours; a static
  /// string.
  const char* error_reason() const { return m_error_reason; }
  /// Bytes after the end of the final response in the last feed() (unexpected for a client without
  /// pipelining).
  std::size_t trailing_bytes() const { return m_trailing; }

 private:
  static int on_message_begin(llhttp_t* p);
  static int on_headers_complete(llhttp_t* p);
  static int on_body(llhttp_t* p, const char* at, std::size_t len);
  static int on_message_complete(llhttp_t* p);
  static int on_header_field(llhttp_t* p, const char* at, std::size_t len);
  static int on_header_field_complete(llhttp_t* p);
  static int on_header_value(llhttp_t* p, const char* at, std::size_t len);
  static int on_header_value_complete(llhttp_t* p);
  static const llhttp_settings_t& settings(bool headers);
  void apply_settings();
  void clear_headers();
  void add_server_timing();

  llhttp_t m_parser{};
  State m_state = State::incomplete;
  bool m_head = false;
  bool m_keep_alive = false;
  bool m_started = false;  // bytes of a response arrived since reset
  int m_status = 0;
  std::uint64_t m_body_bytes = 0;
  std::size_t m_trailing = 0;
  const char* m_error_reason = "";
  // Retry-After capture: how much of "retry-after" the current field name matched (−1: it does not), whether
  // the current value is Retry-After's, and the value (fixed buffer: no allocation).
  int m_field_match = 0;
  bool m_in_retry_after = false;
  bool m_has_retry_after = false;
  char m_retry_after[31] = {};
  std::size_t m_retry_after_len = 0;
  bool m_capture_retry_after = false;
  // Server-Timing capture: the same incremental name match, the current value (fixed buffer; longer values
  // are unreadable and counted as malformed) and the result so far.
  bool m_capture_server_timing = false;
  std::string_view m_server_timing_metric;
  int m_st_match = 0;
  bool m_in_server_timing = false;
  bool m_server_timing_seen = false;
  char m_st_value[255] = {};
  std::size_t m_st_len = 0;
  bool m_st_overflow = false;
  ServerTimingValue m_server_timing;
  ResponseSink* m_sink = nullptr;
};

}  // namespace openloop::http

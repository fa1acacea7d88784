// The HTTP/2 codec: many exchanges at once on one connection, each a stream of an nghttp2 client session
// driven through memory (mem_send into the connection's transport, mem_recv from it); streams are slots, never
// more than the peer accepts, so nghttp2's own queue of streams is never used and every wait is openloop's.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nghttp2/nghttp2.h>

#include "engine/codec.h"
#include "http/server_timing.h"

namespace openloop::engine {

/// What an HTTP/2 codec asks of its peer and reads from each response.
struct Http2Settings {
  /// The most streams this client opens at once on a connection (--max-streams), ≥ 1; the codec's slots are
  /// the smaller of this and the peer's SETTINGS_MAX_CONCURRENT_STREAMS.
  std::uint32_t max_streams = 100;
  /// The flow-control window this client opens for each stream and for the connection, in bytes (h2load's
  /// default: 2^30 − 1), so a body is never held back by the client's window.
  std::uint32_t window = (1U << 30) - 1;
  std::string_view scheme = "http";  ///< :scheme of every request ("https" over TLS)
  bool capture_retry_after = false;  ///< keep each response's Retry-After (--honor-retry-after)
  bool capture_server_timing = false;
  /// Empty: the sum of every metric's dur; else the named metric's. Must outlive the codec (the plan's).
  std::string_view server_timing_metric;
  /// The allocator nghttp2's sessions use (null: its default, malloc); must outlive the codec. Tests count
  /// nghttp2's allocations per stream with it.
  nghttp2_mem* mem = nullptr;
  /// The lowest SETTINGS_MAX_CONCURRENT_STREAMS any of the worker's peers stated (its connections reach one
  /// server), k_h2_initial_peer_streams before the first: a codec assumes it before its own peer's SETTINGS
  /// (so a new connection takes no more streams than the server grants the others) and lowers it. Null: each
  /// codec assumes k_h2_initial_peer_streams.
  std::uint32_t* lowest_peer_streams = nullptr;
};

/// Before the peer's first SETTINGS frame, the streams a connection assumes its peer accepts (RFC 9113
/// recommends a limit of no less than 100; nghttp2's own default before SETTINGS is the same figure).
inline constexpr std::uint32_t k_h2_initial_peer_streams = 100;

/// The largest gRPC response message a call accepts (gRPC's default receive limit, 4 MiB): a length prefix
/// over it fails the call at once (its stream reset), nothing of it kept or waited for.
inline constexpr std::uint32_t k_grpc_max_message = 4U << 20;

/// Heap allocations nghttp2 made on the calling thread so far: the blocks its sessions took from malloc (or
/// realloc), a recycled block not counted (http2_codec.cpp's nghttp2_mem). What the steady-state allocation
/// test counts beside operator new.
std::uint64_t http2_library_allocations();

/// Why a request timed out when the server never opened the flow-control window its body needed: the stream's
/// window (SETTINGS_INITIAL_WINDOW_SIZE 0 and no WINDOW_UPDATE), or the connection's.
inline constexpr const char* k_h2_stream_window_closed =
    "the server never opened the HTTP/2 stream's flow-control window for the request body (window 0, no "
    "WINDOW_UPDATE before the deadline)";
inline constexpr const char* k_h2_connection_window_closed =
    "the server never opened the HTTP/2 connection's flow-control window for request bodies (window 0, no "
    "WINDOW_UPDATE before the deadline)";

/// Why a connection fails when the server's first bytes are not an HTTP/2 SETTINGS frame: a server that
/// speaks only HTTP/1.1, reached with prior knowledge.
inline constexpr const char* k_h2_no_preface =
    "the server did not answer the HTTP/2 connection preface with SETTINGS (an HTTP/1.1-only server "
    "reached with prior knowledge?): use --protocol h1, or --protocol auto over https to let ALPN choose";

/// HTTP/2 over one connection (RFC 9113), client side. reset() starts a session for a new socket: the
/// preface and SETTINGS (push off, the windows of Http2Settings) become output at once. start() submits a
/// stream whose HEADERS (and DATA, for a body) frames become output; on_sent is reported when the bytes of
/// its HEADERS frame have all been handed to the transport (wrote()), so that is where a stream's request
/// leaves. A response's HEADERS frame stamps the exchange's first byte; its END_STREAM completes it (the
/// report comes when nghttp2 closes the stream, after the slot is free again). A stream reset by the server
/// fails its exchange as `reset` (REFUSED_STREAM: retryable, the server did not act on it). GOAWAY: streams
/// above its last stream id fail retryable (nghttp2 closes them as refused), the others finish, no new
/// stream starts (free_slots() 0), and the connection closes when the last one ends. A connection error (a
/// first frame that is not SETTINGS, a frame that breaks the protocol, the server's GOAWAY with an error
/// code) fails the feed that found it, so the connection fails every stream it carries at once.
/// Single-threaded; a callback may start exchanges on this codec (the submit is written after the bytes being
/// read are processed). Allocation-free per exchange once warm, beyond what nghttp2 allocates per stream.
///
/// A stream whose request says `content-type: application/grpc` (or a subtype, `application/grpc+proto`) is a
/// gRPC call (docs/grpc.md): its response must be HTTP 200 with a grpc-status (in the trailers, or in the
/// HEADERS of a Trailers-Only response) and a body of 5-byte length-prefixed messages. The status is the
/// result's protocol_status; any other answer fails the exchange as a `parse` error naming what was wrong.
class Http2Codec final : public Codec {
 public:
  Http2Codec(CodecHost& host, CodecCallbacks& callbacks, const Http2Settings& settings);
  ~Http2Codec() override;
  Http2Codec(const Http2Codec&) = delete;
  Http2Codec& operator=(const Http2Codec&) = delete;

  /// A new socket: a new session, its preface and SETTINGS as output, no stream.
  void reset();

  Protocol protocol() const override { return Protocol::http2; }
  std::uint32_t free_slots() const override;
  bool busy() const override { return m_open > 0; }
  void start(Exchange& x) override;
  /// An estimate (HPACK's compression is known only once encoded): the headers' names and values, the body
  /// and one frame header per frame.
  std::size_t request_size(const Exchange& x) const override;
  /// Resets the stream (RST_STREAM CANCEL) and keeps the connection; its slot is free once the reset is out.
  void cancel(Exchange& x) override;
  std::string_view output() const override;
  void wrote(std::size_t n) override;
  Feed on_data(const char* data, std::size_t n) override;
  Feed on_eof() override;
  Exchange* detach_all() override;
  results::ErrorKind failure_kind() const override { return m_failure; }
  const char* failure_reason() const override { return m_reason; }
  /// k_h2_stream_window_closed or k_h2_connection_window_closed while x's request body waits for a window the
  /// server keeps at 0; else "".
  const char* stall_reason(const Exchange& x) const override;

  /// The peer's SETTINGS_MAX_CONCURRENT_STREAMS once its SETTINGS arrived, else what it assumes (the lowest
  /// any peer stated, Http2Settings::lowest_peer_streams, or k_h2_initial_peer_streams).
  std::uint32_t peer_max_streams() const { return m_peer_max; }
  /// True once the peer's first SETTINGS frame arrived.
  bool settings_received() const { return m_settings_seen; }
  /// True once the peer sent GOAWAY: no new stream starts on this connection.
  bool going_away() const { return m_goaway; }

  // nghttp2's callbacks (a C API) reach the codec through these; not for other callers.
  struct Callbacks;

 private:
  /// One stream slot: the exchange it carries and what its response said so far.
  struct Slot {
    Exchange* x = nullptr;       // null: cancelled or detached (the stream may still be open in nghttp2)
    std::int32_t stream = -1;    // −1: free
    std::uint32_t generation = 0;
    int status = 0;              // the final response's status (1xx interim ones are skipped)
    bool remote_ended = false;   // END_STREAM received
    bool final_block = false;    // the header block being read is the final response's
    std::uint64_t bytes_in = 0;  // frames received on the stream (9-byte headers included)
    std::size_t body_sent = 0;   // of the request's body, handed to nghttp2
    std::array<char, 64> retry_after{};
    std::size_t retry_after_len = 0;
    http::ServerTimingValue server_timing{};
    bool has_server_timing = false;
    // A gRPC call (its request's content-type is application/grpc...): the status read, and where the body's
    // framing stands.
    bool grpc = false;
    int grpc_status = -1;          // −1: none read; −2: a value that is not a code 0..16
    std::uint8_t grpc_prefix = 0;  // bytes of the current message's 5-byte prefix read so far
    std::uint32_t grpc_left = 0;   // bytes of the current message still to come after its prefix
    bool grpc_bad_frame = false;   // a compressed-flag byte other than 0 or 1
    bool grpc_too_large = false;   // a length prefix over k_grpc_max_message: the stream is reset
    std::uint32_t grpc_messages = 0;       // messages whose prefix was read
    std::uint64_t grpc_message_bytes = 0;  // their lengths, summed
    std::int64_t grpc_pushback_ms = -1;    // grpc-retry-pushback-ms (ExchangeResult::retry_pushback_ms)
  };
  /// A HEADERS frame serialized into m_out: on_sent is due once m_out is written up to `end`.
  struct PendingSent {
    std::size_t end = 0;
    std::uint32_t slot = 0;
    std::uint32_t generation = 0;
    std::size_t bytes = 0;
  };

  void pump();
  void end_session();
  void close_slot(std::uint32_t index, std::uint32_t error_code);
  Feed fail(results::ErrorKind kind, const char* reason);
  SteadyTime receipt_time();
  Slot* slot_of(std::int32_t stream);
  /// Empty when a completed gRPC call's response is well-formed; else why not (in m_reason_buf or static).
  const char* grpc_violation(const Slot& s);

  CodecHost& m_host;
  CodecCallbacks& m_callbacks;
  Http2Settings m_settings;
  nghttp2_session* m_session = nullptr;
  std::vector<Slot> m_slots;             // max_streams of them, made once
  std::vector<std::uint32_t> m_free;     // free slot indices (a stack)
  std::vector<PendingSent> m_pending;    // in m_out order
  std::size_t m_pending_head = 0;
  std::string m_out;                     // serialized frames not yet written (capacity reused)
  std::size_t m_written = 0;
  std::string m_scratch;                 // lower-cased header names, the extra header's value
  std::vector<nghttp2_nv> m_nva;         // a request's header list (capacity reused)
  std::uint32_t m_open = 0;              // slots in use (a stream submitted and not yet closed)
  std::uint32_t m_peer_max = k_h2_initial_peer_streams;
  bool m_settings_seen = false;
  bool m_goaway = false;
  bool m_in_recv = false;                // inside nghttp2_session_mem_recv: no mem_send now
  bool m_detached = false;               // detach_all() ran: the connection is closing or closed
  bool m_now_valid = false;
  SteadyTime m_now{};
  results::ErrorKind m_failure = results::ErrorKind::parse;
  const char* m_reason = "";
  std::array<char, 160> m_reason_buf{};   // a reason that names a number (a gRPC response's HTTP status)
  const char* m_session_error = nullptr;  // a fatal error met while sending (reported by the next feed)
  // A connection error (a static reason): the server's GOAWAY with an error code, or ours (local) when nghttp2
  // ended the session on a frame the server should not have sent. The next feed fails the connection.
  const char* m_connection_error = nullptr;
  bool m_connection_error_local = false;
};

}  // namespace openloop::engine

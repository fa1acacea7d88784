// One HTTP/2 client connection of the lab (h2c with prior knowledge): an nghttp2 server session driven by the
// lab's event loop, each stream's request routed to the same model as an HTTP/1.1 request.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/time.h"
#include "lab/request_router.h"
#include "lab/served_connection.h"

struct nghttp2_session;

namespace openloop::lab {

/// An HTTP/2 connection. The client must open with the HTTP/2 preface (prior knowledge, as h2load and
/// `nghttp` do; there is no Upgrade from HTTP/1.1): any other first bytes get GOAWAY PROTOCOL_ERROR and the
/// socket is closed once it is written. (The server gives HTTP/1.1 request lines to an HTTP/1.1 Connection
/// instead: protocol_sniffer.h.) The server's SETTINGS advertise --max-streams; --refuse-streams-above
/// answers a stream that finds that many open with RST_STREAM REFUSED_STREAM; --goaway-after sends GOAWAY
/// (NO_ERROR, last stream id = the Nth stream) once N streams have arrived, serves those N and closes.
///
/// Answers go out as the model gives them (no ordering between streams), with the headers and body an
/// HTTP/1.1 answer has (:status, content-type, content-length, server-timing). With --grpc, a stream whose
/// content-type is application/grpc is a gRPC call (grpc_service.h): openloop.lab.v1.Lab/Call goes through
/// the model (its key is the cache key, its grpc-timeout the deadline) and answers 200 with the reply and
/// grpc-status 0 in the trailers, or a Trailers-Only grpc-status for any other outcome; the reflection method
/// is answered message by message as the client sends them, never queued; another method is UNIMPLEMENTED.
/// A stream the client resets
/// while the model holds its request keeps its slot until the model answers, so a tag never reaches the wrong
/// stream. Protocol errors are nghttp2's to answer (GOAWAY), after which the connection closes.
/// The object outlives its socket: the server reuses it for later connections in the same slot.
class Http2Connection final : public ServedConnection {
 public:
  /// Request slots per connection (a tag's sequence number is 16 bits); a stream past them is refused.
  static constexpr std::size_t k_max_slots = 65536;

  Http2Connection(ConnectionHost& host, std::uint32_t slot);
  ~Http2Connection() override;
  Http2Connection(const Http2Connection&) = delete;
  Http2Connection& operator=(const Http2Connection&) = delete;

  void open(int fd) override;
  bool is_open() const override { return m_fd >= 0; }
  std::uint32_t generation() const override {
    return (m_generation & (k_http2_generation_bit - 1)) | k_http2_generation_bit;
  }
  /// True while stream `seq` is open and waiting for the model's answer.
  bool still_waiting(std::uint16_t seq) const override;
  void on_outcome(std::uint16_t seq, Outcome outcome) override;
  void on_timing(std::uint16_t seq, Nanos queue_wait, Nanos service, CacheLookup cache) override;
  void watch_header(std::string_view name) override;
  void close() override;

  void on_io(std::uint32_t events) override;
  void on_timer(std::uint64_t cookie) override;

  /// Processes bytes as if read from the socket, then writes what the session has to send (what on_io does
  /// with each read; the fuzz target and tests call it directly). Closes the connection when it is finished.
  void receive(std::string_view data);

 private:
  enum class StreamState : std::uint8_t {
    free,       ///< no stream
    receiving,  ///< headers or body still arriving
    waiting,    ///< in the model
    dropped,    ///< in the model, but the stream is gone: freed when the model answers
    answering,  ///< response submitted, until nghttp2 closes the stream
  };
  struct Stream {
    StreamState state = StreamState::free;
    std::int32_t id = 0;
    bool head = false;
    bool has_deadline = false;
    bool body_too_large = false;
    bool timed = false;
    bool grpc = false;              // --grpc and content-type application/grpc...
    bool reflection = false;        // the reflection method: answered as its messages arrive
    bool responded = false;         // the response HEADERS were submitted (reflection)
    bool in_ended = false;          // the request's END_STREAM arrived (reflection)
    bool bad_grpc_timeout = false;  // a grpc-timeout that does not parse
    std::optional<Nanos> grpc_timeout;
    Nanos queue_wait{0};
    Nanos service{0};
    CacheLookup cache = CacheLookup::not_looked_up;
    // Strings keep their capacity when the slot is reused.
    std::string method;
    std::string target;
    std::string body;
    std::string deadline;
    std::string authorization;
    std::string cookie;
    std::string out_body;  // the answer's body
    std::size_t out_offset = 0;
  };
  struct Callbacks;

  void feed(std::string_view data);
  bool check_preface(std::string_view& data);
  void begin_stream(std::int32_t stream_id);
  void on_header(std::int32_t stream_id, std::string_view name, std::string_view value);
  void on_request_complete(std::int32_t stream_id);
  void on_stream_closed(std::int32_t stream_id);
  Stream* stream_for(std::int32_t stream_id);
  void answer(std::uint16_t seq, int status, std::string_view content_type, std::string_view body,
              std::string_view set_cookie = {});
  void answer_reply(std::uint16_t seq, Reply reply);
  /// A Trailers-Only gRPC answer: HEADERS with :status 200, grpc-status and grpc-message, END_STREAM.
  void answer_grpc_status(std::uint16_t seq, int status, std::string_view message);
  /// A call's OK answer: the reply message, then grpc-status 0 in the trailers.
  void answer_grpc_ok(std::uint16_t seq);
  /// Answers the reflection requests received so far (and ends the answer once the request ended).
  void on_reflection_data(std::uint16_t seq);
  /// Submits the response HEADERS of a gRPC answer with a body (the reply, or reflection's answers).
  void submit_grpc_response(std::uint16_t seq);
  void free_slot(std::uint16_t seq);
  /// After any progress (not inside nghttp2's callbacks): sends, writes, closes when finished.
  void settle();
  void write_out();
  void update_interest();

  ConnectionHost& m_host;
  RequestRouter m_router;
  const std::uint32_t m_slot;
  std::uint32_t m_generation = 0;
  int m_fd = -1;
  nghttp2_session* m_session = nullptr;
  std::vector<Stream> m_streams;
  std::vector<std::uint16_t> m_free_streams;
  std::string m_deadline_header;  // lower case, as HTTP/2 sends names
  std::string m_out;
  std::size_t m_out_offset = 0;
  std::size_t m_preface_seen = 0;   // bytes of the client preface checked so far
  std::uint32_t m_received = 0;     // streams begun on this connection (refused ones included)
  std::uint32_t m_open = 0;         // streams begun and not closed, refused ones excluded
  std::int32_t m_goaway_last = -1;  // last stream id of a --goaway-after GOAWAY; -1 = none sent
  std::uint32_t m_interest = 0;
  bool m_in_io = false;
  bool m_finishing = false;    // no more input: close once the output is written
  bool m_lingering = false;    // output written and half-closed: waiting for the client to close
  bool m_flush_armed = false;  // a timer due now will send the answers given since the last write
};

}  // namespace openloop::lab

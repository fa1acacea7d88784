// HTTP/2 codec: an nghttp2 client session through memory, streams as slots, reports per stream.
#include "engine/http2_codec.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <utility>

#include "core/grpc_status.h"
#include "core/grpc_timeout.h"
#include "engine/exchange.h"
#include "http/request.h"

namespace openloop::engine {

using results::ErrorKind;

namespace {
// Serialized output held before the transport takes it: past this, a large body waits for the socket.
constexpr std::size_t k_out_high_water = 256 * 1024;
// A frame header's size (RFC 9113 §4.1) and the default maximum DATA payload per frame.
constexpr std::size_t k_frame_header = 9;
constexpr std::size_t k_max_frame = 16384;
// The last stream id a client may open (odd, below 2^31): past it the connection is spent.
constexpr std::int32_t k_last_stream_id = std::numeric_limits<std::int32_t>::max() - 2;

bool is_hop_by_hop(std::string_view lower) {
  return lower == "connection" || lower == "keep-alive" || lower == "proxy-connection" ||
         lower == "transfer-encoding" || lower == "upgrade" || lower == "host" || lower == "te";
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return (x | 0x20) == (y | 0x20);
         });
}

// The bytes an HTTP/1.1 server answers a preface with ("HTTP/1.1 400 Bad Request", ...).
bool looks_like_http1(const char* data, std::size_t n) {
  constexpr std::string_view k_http = "HTTP/";
  const std::size_t m = std::min(n, k_http.size());
  return m > 0 && std::memcmp(data, k_http.data(), m) == 0;
}

// Why a stream was reset, by the RST_STREAM code (static strings: the report keeps one example per kind).
const char* reset_reason(std::uint32_t code) {
  switch (code) {
    case NGHTTP2_REFUSED_STREAM:
      return "the server refused the stream (RST_STREAM REFUSED_STREAM; it did not act on the request)";
    case NGHTTP2_PROTOCOL_ERROR:
      return "the stream was reset with PROTOCOL_ERROR (a malformed response, or the server saw one)";
    case NGHTTP2_CANCEL:
      return "the server cancelled the stream (RST_STREAM CANCEL)";
    case NGHTTP2_INTERNAL_ERROR:
      return "the server reset the stream with INTERNAL_ERROR";
    case NGHTTP2_FLOW_CONTROL_ERROR:
      return "the stream was reset with FLOW_CONTROL_ERROR";
    case NGHTTP2_STREAM_CLOSED:
      return "the stream was reset with STREAM_CLOSED";
    case NGHTTP2_ENHANCE_YOUR_CALM:
      return "the server reset the stream with ENHANCE_YOUR_CALM";
    case NGHTTP2_NO_ERROR:
      return "the server ended the stream before a complete response (RST_STREAM NO_ERROR)";
    default:
      return "the server reset the stream (RST_STREAM)";
  }
}

// Why a connection ended on an error, by the GOAWAY's code: `local` when nghttp2 ended it (the server broke the
// protocol: a bad frame, a SETTINGS violation), else the server sent it. Static strings, as reset_reason's.
const char* goaway_reason(std::uint32_t code, bool local) {
  if (local) {
    switch (code) {
      case NGHTTP2_FLOW_CONTROL_ERROR:
        return "the server broke HTTP/2 flow control (sent past a window): openloop ended the connection with "
               "GOAWAY FLOW_CONTROL_ERROR";
      case NGHTTP2_FRAME_SIZE_ERROR:
        return "the server sent an HTTP/2 frame of a wrong size: openloop ended the connection with GOAWAY "
               "FRAME_SIZE_ERROR";
      case NGHTTP2_COMPRESSION_ERROR:
        return "the server sent a header block HPACK cannot decode (or too large): openloop ended the "
               "connection with GOAWAY COMPRESSION_ERROR";
      case NGHTTP2_SETTINGS_TIMEOUT:
        return "the server did not acknowledge SETTINGS: openloop ended the connection with GOAWAY "
               "SETTINGS_TIMEOUT";
      case NGHTTP2_ENHANCE_YOUR_CALM:
        return "the server flooded the connection (SETTINGS, PING or RST_STREAM frames): openloop ended it with "
               "GOAWAY ENHANCE_YOUR_CALM";
      default:
        return "the server broke the HTTP/2 protocol (a bad frame): openloop ended the connection with GOAWAY "
               "PROTOCOL_ERROR";
    }
  }
  switch (code) {
    case NGHTTP2_PROTOCOL_ERROR:
      return "the server ended the connection with GOAWAY PROTOCOL_ERROR (it saw a protocol error)";
    case NGHTTP2_INTERNAL_ERROR:
      return "the server ended the connection with GOAWAY INTERNAL_ERROR";
    case NGHTTP2_FLOW_CONTROL_ERROR:
      return "the server ended the connection with GOAWAY FLOW_CONTROL_ERROR";
    case NGHTTP2_SETTINGS_TIMEOUT:
      return "the server ended the connection with GOAWAY SETTINGS_TIMEOUT";
    case NGHTTP2_FRAME_SIZE_ERROR:
      return "the server ended the connection with GOAWAY FRAME_SIZE_ERROR";
    case NGHTTP2_COMPRESSION_ERROR:
      return "the server ended the connection with GOAWAY COMPRESSION_ERROR";
    case NGHTTP2_ENHANCE_YOUR_CALM:
      return "the server ended the connection with GOAWAY ENHANCE_YOUR_CALM";
    default:
      return "the server ended the connection with a GOAWAY error code";
  }
}

nghttp2_nv make_nv(std::string_view name, std::string_view value) {
  // NGHTTP2_NV_FLAG_NONE: nghttp2 copies both, so the views only need to outlive the submit.
  return nghttp2_nv{reinterpret_cast<std::uint8_t*>(const_cast<char*>(name.data())),
                    reinterpret_cast<std::uint8_t*>(const_cast<char*>(value.data())), name.size(),
                    value.size(), NGHTTP2_NV_FLAG_NONE};
}

// nghttp2's heap. Blocks of up to 1 KiB are recycled per thread in size classes (16 B, 32 B, ... 1 KiB), so
// each stream's allocations (4 a request from malloc, measured) reuse the blocks earlier streams freed;
// larger blocks, and the first of each block, come from malloc, counted per thread
// (http2_library_allocations). A block freed on another thread (a session ended by the coordinator) joins
// that thread's lists.
constexpr std::size_t k_block_header = alignof(std::max_align_t);  // the class, before the block
constexpr std::size_t k_block_classes = 7;                         // 16 B << 0 .. 6; 7: malloc's own size
struct FreeBlock {
  FreeBlock* next;
};
struct LibraryHeap {
  std::array<FreeBlock*, k_block_classes> free{};
  std::uint64_t allocations = 0;
  ~LibraryHeap() {
    for (FreeBlock*& head : free) {
      while (head != nullptr)
        std::free(reinterpret_cast<char*>(std::exchange(head, head->next)) - k_block_header);
    }
  }
};
thread_local LibraryHeap t_heap;

std::size_t block_capacity(std::size_t c) {
  return std::size_t{16} << c;
}
std::size_t block_class(std::size_t size) {
  std::size_t c = 0;
  while (c < k_block_classes && block_capacity(c) < size) ++c;
  return c;
}
std::size_t& class_of_block(void* p) {
  return *reinterpret_cast<std::size_t*>(static_cast<char*>(p) - k_block_header);
}

void* library_malloc(std::size_t size, void* = nullptr) {
  const std::size_t c = block_class(size);
  if (c < k_block_classes && t_heap.free[c] != nullptr)
    return std::exchange(t_heap.free[c], t_heap.free[c]->next);
  ++t_heap.allocations;
  char* raw =
      static_cast<char*>(std::malloc(k_block_header + (c < k_block_classes ? block_capacity(c) : size)));
  if (raw == nullptr) return nullptr;
  void* p = raw + k_block_header;
  class_of_block(p) = c;
  return p;
}
void library_free(void* p, void* = nullptr) {
  if (p == nullptr) return;
  const std::size_t c = class_of_block(p);
  if (c == k_block_classes) {
    std::free(static_cast<char*>(p) - k_block_header);
    return;
  }
  auto* b = static_cast<FreeBlock*>(p);
  b->next = t_heap.free[c];
  t_heap.free[c] = b;
}
void* library_calloc(std::size_t n, std::size_t size, void*) {
  if (size != 0 && n > std::numeric_limits<std::size_t>::max() / size) return nullptr;
  void* p = library_malloc(n * size);
  if (p != nullptr) std::memset(p, 0, n * size);
  return p;
}
void* library_realloc(void* p, std::size_t size, void*) {
  if (p == nullptr) return library_malloc(size);
  const std::size_t c = class_of_block(p);
  if (c < k_block_classes && size <= block_capacity(c)) return p;
  if (c == k_block_classes) {
    ++t_heap.allocations;
    char* raw =
        static_cast<char*>(std::realloc(static_cast<char*>(p) - k_block_header, k_block_header + size));
    return raw == nullptr ? nullptr : raw + k_block_header;
  }
  void* q = library_malloc(size);
  if (q == nullptr) return nullptr;
  std::memcpy(q, p, block_capacity(c));
  library_free(p);
  return q;
}
nghttp2_mem k_library_mem{nullptr, library_malloc, library_free, library_calloc, library_realloc};
}  // namespace

std::uint64_t http2_library_allocations() {
  return t_heap.allocations;
}

namespace {
// Why a gRPC call failed whose response announced a message over k_grpc_max_message.
constexpr const char* k_grpc_too_large =
    "the gRPC response's length prefix announced a message over the 4 MiB limit: the stream was reset, the "
    "message neither read nor kept";

// grpc-status: a code 0..16 in decimal; −2 for anything else.
int parse_grpc_status(std::string_view value) {
  int code = 0;
  if (value.empty() || value.size() > 2) return -2;
  for (const char ch : value) {
    if (ch < '0' || ch > '9') return -2;
    code = code * 10 + (ch - '0');
  }
  return code < static_cast<int>(k_grpc_status_codes) ? code : -2;
}

// grpc-retry-pushback-ms: a non-negative decimal count of milliseconds; −2 for anything else (gRFC A6: a
// negative or malformed pushback means do not retry).
std::int64_t parse_grpc_pushback(std::string_view value) {
  std::int64_t ms = 0;
  if (value.empty() || value.size() > 12) return -2;
  for (const char ch : value) {
    if (ch < '0' || ch > '9') return -2;
    ms = ms * 10 + (ch - '0');
  }
  return ms;
}

// gRPC's content type: application/grpc, or with a subtype (+proto, +json) or parameters; not grpc-web, whose
// trailers travel in the body.
bool is_grpc_content_type(std::string_view value) {
  constexpr std::string_view k_grpc = "application/grpc";
  return value.size() >= k_grpc.size() && iequals(value.substr(0, k_grpc.size()), k_grpc) &&
         (value.size() == k_grpc.size() || value[k_grpc.size()] == '+' || value[k_grpc.size()] == ';');
}
}  // namespace

// ---- nghttp2's callbacks: each finds the codec in user_data and the slot in the stream's user data.
struct Http2Codec::Callbacks {
  static Http2Codec& codec(void* user_data) { return *static_cast<Http2Codec*>(user_data); }

  static int on_begin_headers(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    Http2Codec& c = codec(user_data);
    if (frame->hd.type != NGHTTP2_HEADERS) return 0;
    Slot* s = c.slot_of(frame->hd.stream_id);
    if (s == nullptr) return 0;
    s->final_block = false;
    if (s->x != nullptr && !s->x->first_byte_seen) {  // the response's first HEADERS: its first byte
      s->x->first_byte = c.receipt_time();
      s->x->first_byte_seen = true;
    }
    return 0;
  }

  static int on_header(nghttp2_session*, const nghttp2_frame* frame, const std::uint8_t* name_p,
                       std::size_t name_len, const std::uint8_t* value_p, std::size_t value_len, std::uint8_t,
                       void* user_data) {
    Http2Codec& c = codec(user_data);
    if (frame->hd.type != NGHTTP2_HEADERS) return 0;
    Slot* s = c.slot_of(frame->hd.stream_id);
    if (s == nullptr || s->x == nullptr) return 0;
    const std::string_view name(reinterpret_cast<const char*>(name_p), name_len);
    const std::string_view value(reinterpret_cast<const char*>(value_p), value_len);
    if (name == ":status") {
      int status = 0;
      for (const char ch : value) status = ch >= '0' && ch <= '9' && status < 1000 ? status * 10 + (ch - '0') : 1000;
      if (status >= 200 && status < 1000 && s->status == 0) {  // 1xx interim responses are skipped
        s->status = status;
        s->final_block = true;
        if (http::ResponseSink* sink = s->x->sink) {
          sink->clear();
          sink->set_status(status);
        }
      }
      return 0;
    }
    // gRPC's status comes in the trailers (a header block without :status after the response's), or in the
    // response's own HEADERS when it is Trailers-Only.
    if (s->grpc && s->status != 0 && name == "grpc-status") s->grpc_status = parse_grpc_status(value);
    if (s->grpc && s->status != 0 && c.m_settings.capture_retry_after && name == "grpc-retry-pushback-ms")
      s->grpc_pushback_ms = parse_grpc_pushback(value);
    if (!s->final_block) return 0;
    if (http::ResponseSink* sink = s->x->sink) {
      sink->header_name(name);
      sink->header_name_done();
      sink->header_value(value);
    }
    if (c.m_settings.capture_retry_after && name == "retry-after") {
      s->retry_after_len = std::min(value.size(), s->retry_after.size());
      std::copy_n(value.data(), s->retry_after_len, s->retry_after.data());
    } else if (c.m_settings.capture_server_timing && name == "server-timing" && !s->has_server_timing) {
      s->server_timing = http::parse_server_timing(value, c.m_settings.server_timing_metric);
      s->has_server_timing = true;
    }
    return 0;
  }

  static int on_data_chunk(nghttp2_session* session, std::uint8_t, std::int32_t stream,
                           const std::uint8_t* data, std::size_t len, void* user_data) {
    Http2Codec& c = codec(user_data);
    Slot* s = c.slot_of(stream);
    if (s == nullptr || s->x == nullptr) return 0;
    if (s->x->sink != nullptr && s->status != 0)
      s->x->sink->body(std::string_view(reinterpret_cast<const char*>(data), len));
    if (s->grpc && !s->grpc_too_large) {
      frame_grpc(*s, data, len);
      if (s->grpc_too_large) nghttp2_submit_rst_stream(session, NGHTTP2_FLAG_NONE, stream, NGHTTP2_CANCEL);
    }
    return 0;
  }

  // Walks a gRPC body's length-prefixed messages (a compressed flag, a 4-byte big-endian length, the
  // message): only the framing is checked, the messages themselves are not kept.
  static void frame_grpc(Slot& s, const std::uint8_t* data, std::size_t len) {
    std::size_t i = 0;
    while (i < len) {
      if (s.grpc_prefix == 0 && s.grpc_left > 0) {  // inside a message
        const std::size_t n = std::min<std::size_t>(s.grpc_left, len - i);
        s.grpc_left -= static_cast<std::uint32_t>(n);
        i += n;
        continue;
      }
      const std::uint8_t byte = data[i++];
      if (s.grpc_prefix == 0) {
        if (byte > 1) s.grpc_bad_frame = true;  // the compressed flag
      } else {
        s.grpc_left = (s.grpc_left << 8) | byte;  // the length, big-endian
      }
      s.grpc_prefix = static_cast<std::uint8_t>((s.grpc_prefix + 1) % 5);
      if (s.grpc_prefix == 0 && s.grpc_left > k_grpc_max_message) {
        s.grpc_too_large = true;  // the rest is not read: the caller resets the stream
        return;
      }
      if (s.grpc_prefix == 0) {  // a whole prefix read: one more message, of grpc_left bytes
        ++s.grpc_messages;
        s.grpc_message_bytes += s.grpc_left;
      }
    }
  }

  static int on_frame_recv(nghttp2_session* session, const nghttp2_frame* frame, void* user_data) {
    Http2Codec& c = codec(user_data);
    switch (frame->hd.type) {
      case NGHTTP2_SETTINGS:
        if ((frame->hd.flags & NGHTTP2_FLAG_ACK) == 0) {
          c.m_settings_seen = true;
          const std::uint32_t peer =
              nghttp2_session_get_remote_settings(session, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS);
          c.m_peer_max = peer;  // nghttp2 keeps "unlimited" (2^32 − 1) when the peer states no limit
          if (std::uint32_t* lowest = c.m_settings.lowest_peer_streams; lowest != nullptr && peer < *lowest)
            *lowest = peer;
        }
        return 0;
      case NGHTTP2_GOAWAY:
        c.m_goaway = true;  // nghttp2 closes the streams above last_stream_id as refused
        if (frame->goaway.error_code != NGHTTP2_NO_ERROR && c.m_connection_error == nullptr)
          c.m_connection_error = goaway_reason(frame->goaway.error_code, false);
        return 0;
      case NGHTTP2_HEADERS:
      case NGHTTP2_DATA:
        if (Slot* s = c.slot_of(frame->hd.stream_id)) {
          s->bytes_in += frame->hd.length + k_frame_header;
          if ((frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0) s->remote_ended = true;
        }
        return 0;
      default:
        return 0;
    }
  }

  static int on_frame_send(nghttp2_session*, const nghttp2_frame* frame, void* user_data) {
    Http2Codec& c = codec(user_data);
    if (frame->hd.type == NGHTTP2_GOAWAY && frame->goaway.error_code != NGHTTP2_NO_ERROR &&
        c.m_connection_error == nullptr) {
      // openloop sends GOAWAY with an error only when nghttp2 terminates the session on a connection error the
      // server caused; its streams will never be answered. Before the server's SETTINGS: it does not speak HTTP/2.
      const std::uint32_t code = frame->goaway.error_code;
      c.m_connection_error =
          !c.m_settings_seen && code == NGHTTP2_PROTOCOL_ERROR ? k_h2_no_preface : goaway_reason(code, true);
      c.m_connection_error_local = true;
      return 0;
    }
    if (frame->hd.type != NGHTTP2_HEADERS || frame->headers.cat != NGHTTP2_HCAT_REQUEST) return 0;
    Slot* s = c.slot_of(frame->hd.stream_id);
    if (s == nullptr || s->x == nullptr) return 0;
    // nghttp2 (1.52) reports a frame sent before mem_send returns its bytes: the frame ends one frame length
    // past what is buffered now (clamped to the buffer once the bytes are appended, in pump()).
    const std::size_t body = s->x->parts != nullptr ? s->x->parts->body.size() : 0;
    const std::size_t data_frames = (body + k_max_frame - 1) / k_max_frame;
    c.m_pending.push_back(PendingSent{c.m_out.size() + frame->hd.length + k_frame_header,
                                      static_cast<std::uint32_t>(s - c.m_slots.data()), s->generation,
                                      frame->hd.length + k_frame_header + body + data_frames * k_frame_header});
    return 0;
  }

  static int on_stream_close(nghttp2_session*, std::int32_t stream, std::uint32_t error_code, void* user_data) {
    Http2Codec& c = codec(user_data);
    if (Slot* s = c.slot_of(stream)) c.close_slot(static_cast<std::uint32_t>(s - c.m_slots.data()), error_code);
    return 0;
  }

  static ssize_t read_body(nghttp2_session*, std::int32_t, std::uint8_t* buf, std::size_t length,
                           std::uint32_t* flags, nghttp2_data_source* source, void*) {
    Slot& s = *static_cast<Slot*>(source->ptr);
    if (s.x == nullptr || s.x->parts == nullptr) return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;  // cancelled
    const std::string_view body = s.x->parts->body;
    const std::size_t n = std::min(length, body.size() - s.body_sent);
    std::memcpy(buf, body.data() + s.body_sent, n);
    s.body_sent += n;
    if (s.body_sent == body.size()) *flags |= NGHTTP2_DATA_FLAG_EOF;
    return static_cast<ssize_t>(n);
  }
};

Http2Codec::Http2Codec(CodecHost& host, CodecCallbacks& callbacks, const Http2Settings& settings)
    : m_host(host), m_callbacks(callbacks), m_settings(settings) {
  m_settings.max_streams = std::max<std::uint32_t>(1, m_settings.max_streams);
}

Http2Codec::~Http2Codec() {
  end_session();
}

void Http2Codec::end_session() {
  if (m_session != nullptr) nghttp2_session_del(m_session);
  m_session = nullptr;
}

void Http2Codec::reset() {
  end_session();
  // The slots are allocated by the first session, not with the connection: every connection carries this
  // codec, and an HTTP/1.1 run's thousands of pooled connections must not each hold --max-streams slots (their
  // allocation, about 25 KB a connection, once delayed a run's first sends by 50-120 ms).
  if (m_slots.empty()) {
    m_slots.resize(m_settings.max_streams);
    m_free.reserve(m_slots.size());
    m_pending.reserve(m_slots.size());
    m_nva.reserve(16);
  }
  m_free.clear();
  for (std::size_t i = m_slots.size(); i > 0; --i) {
    Slot& s = m_slots[i - 1];
    s.x = nullptr;
    s.stream = -1;
    ++s.generation;
    m_free.push_back(static_cast<std::uint32_t>(i - 1));
  }
  m_pending.clear();
  m_pending_head = 0;
  m_out.clear();
  m_written = 0;
  m_open = 0;
  // At least one: the connection may hold an exchange for it already (Connection::free_slots before ready).
  m_peer_max = m_settings.lowest_peer_streams != nullptr
                   ? std::max<std::uint32_t>(1, *m_settings.lowest_peer_streams)
                   : k_h2_initial_peer_streams;
  m_settings_seen = m_goaway = m_in_recv = m_detached = false;
  m_reason = "";
  m_session_error = nullptr;
  m_connection_error = nullptr;
  m_connection_error_local = false;

  nghttp2_session_callbacks* cbs = nullptr;
  if (nghttp2_session_callbacks_new(&cbs) != 0) {
    m_session_error = "out of memory creating the HTTP/2 session";
    return;
  }
  nghttp2_session_callbacks_set_on_begin_headers_callback(cbs, &Callbacks::on_begin_headers);
  nghttp2_session_callbacks_set_on_header_callback(cbs, &Callbacks::on_header);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cbs, &Callbacks::on_data_chunk);
  nghttp2_session_callbacks_set_on_frame_recv_callback(cbs, &Callbacks::on_frame_recv);
  nghttp2_session_callbacks_set_on_frame_send_callback(cbs, &Callbacks::on_frame_send);
  nghttp2_session_callbacks_set_on_stream_close_callback(cbs, &Callbacks::on_stream_close);
  // nghttp2's heap: a test's counting allocator when given, else the library's recycled blocks (k_library_mem).
  const int rv = nghttp2_session_client_new3(&m_session, cbs, this, nullptr,
                                             m_settings.mem != nullptr ? m_settings.mem : &k_library_mem);
  nghttp2_session_callbacks_del(cbs);
  if (rv != 0) {
    m_session = nullptr;
    m_session_error = "out of memory creating the HTTP/2 session";
    return;
  }
  const nghttp2_settings_entry settings[] = {
      {NGHTTP2_SETTINGS_ENABLE_PUSH, 0},
      {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, m_settings.window},
  };
  nghttp2_submit_settings(m_session, NGHTTP2_FLAG_NONE, settings, std::size(settings));
  nghttp2_session_set_local_window_size(m_session, NGHTTP2_FLAG_NONE, 0,
                                        static_cast<std::int32_t>(m_settings.window));
  pump();  // the preface and SETTINGS go out as soon as the connection writes
}

std::uint32_t Http2Codec::free_slots() const {
  if (m_session == nullptr || m_goaway || m_detached || m_session_error != nullptr || m_connection_error != nullptr)
    return 0;
  if (nghttp2_session_get_next_stream_id(m_session) > static_cast<std::uint32_t>(k_last_stream_id)) return 0;
  const std::uint32_t limit = std::min(m_settings.max_streams, m_peer_max);
  return limit > m_open ? limit - m_open : 0;
}

Http2Codec::Slot* Http2Codec::slot_of(std::int32_t stream) {
  if (m_session == nullptr) return nullptr;
  auto* s = static_cast<Slot*>(nghttp2_session_get_stream_user_data(m_session, stream));
  return s != nullptr && s->stream == stream ? s : nullptr;
}

SteadyTime Http2Codec::receipt_time() {
  // One clock read per feed however many streams it completes (the bytes were received together).
  if (!m_now_valid) {
    m_now = m_host.receipt_time();
    m_now_valid = true;
  }
  return m_now;
}

std::size_t Http2Codec::request_size(const Exchange& x) const {
  const http::RequestParts& p = *x.parts;
  std::size_t n = k_frame_header + p.method.size() + p.target.size() + p.authority.size() + 32;
  for (const http::HeaderView& h : p.headers) n += h.name.size() + h.value.size() + 2;
  if (!p.flags.given_user_agent) n += 12 + http::default_user_agent().size();
  if (!x.extra_header.empty()) n += x.extra_header.size() + 21;
  n += p.body.size() + (p.body.size() + k_max_frame - 1) / k_max_frame * k_frame_header;
  return n;
}

void Http2Codec::start(Exchange& x) {
  const std::uint32_t index = m_free.back();
  m_free.pop_back();
  Slot& s = m_slots[index];
  s = Slot{&x, -1, s.generation + 1};
  ++m_open;
  const http::RequestParts& p = *x.parts;
  // Pseudo-headers from the URL, then the user's headers with lower-case names and without HTTP/1.1's
  // connection-specific ones (RFC 9113 §8.2.2): a Host the user gave becomes :authority.
  std::string_view authority = p.authority;
  for (const http::HeaderView& h : p.headers)
    if (iequals(h.name, "host")) authority = h.value;
  m_scratch.clear();
  for (const http::HeaderView& h : p.headers) m_scratch.append(h.name);
  m_scratch.append(x.extra_header);
  // Header names lower-case; the deadline's value (appended after) keeps grpc-timeout's upper-case units.
  std::transform(m_scratch.begin(), m_scratch.end(), m_scratch.begin(),
                 [](char ch) { return ch >= 'A' && ch <= 'Z' ? static_cast<char>(ch | 0x20) : ch; });
  std::size_t value_len = 0;
  if (!x.extra_header.empty()) {
    char digits[24];
    // grpc-timeout (docs/grpc.md) says its unit (milliseconds, as every deadline header here counts, while
    // they fit in its 8 digits); another deadline header carries the number alone.
    const bool grpc = iequals(x.extra_header, "grpc-timeout");
    const GrpcTimeout t = grpc ? grpc_timeout_ms(x.extra_header_value) : GrpcTimeout{x.extra_header_value};
    value_len = static_cast<std::size_t>(std::to_chars(digits, digits + sizeof digits, t.value).ptr - digits);
    if (grpc) digits[value_len++] = t.unit;
    m_scratch.append(digits, value_len);
  }
  m_nva.clear();
  m_nva.push_back(make_nv(":method", p.method));
  m_nva.push_back(make_nv(":scheme", m_settings.scheme));
  m_nva.push_back(make_nv(":authority", authority));
  m_nva.push_back(make_nv(":path", p.target.empty() ? std::string_view("/") : p.target));
  std::size_t at = 0;
  for (const http::HeaderView& h : p.headers) {
    const std::string_view lower(m_scratch.data() + at, h.name.size());
    at += h.name.size();
    if (is_hop_by_hop(lower) && !(lower == "te" && iequals(h.value, "trailers"))) continue;
    if (lower == "content-type") s.grpc = is_grpc_content_type(h.value);
    m_nva.push_back(make_nv(lower, h.value));
  }
  if (!p.flags.given_user_agent) m_nva.push_back(make_nv("user-agent", http::default_user_agent()));
  if (!x.extra_header.empty()) {
    const std::string_view name(m_scratch.data() + at, x.extra_header.size());
    const std::string_view value(m_scratch.data() + at + name.size(), value_len);
    m_nva.push_back(make_nv(name, value));
  }
  nghttp2_data_provider body{};
  body.source.ptr = &s;
  body.read_callback = &Callbacks::read_body;
  const std::int32_t id = nghttp2_submit_request(m_session, nullptr, m_nva.data(), m_nva.size(),
                                                 p.body.empty() ? nullptr : &body, &s);
  if (id < 0) {  // only when stream ids ran out or memory did: the request was never sent
    s.x = nullptr;
    m_free.push_back(index);
    --m_open;
    m_reason = "the HTTP/2 session could not open another stream";
    m_callbacks.on_error(x, ExchangeError{ErrorKind::reset, true, true});
    return;
  }
  s.stream = id;
  x.stream_id = id;
  pump();
}

void Http2Codec::cancel(Exchange& x) {
  for (Slot& s : m_slots) {
    if (s.x != &x) continue;
    s.x = nullptr;  // forgotten: nothing is reported for it; the slot frees when the stream closes
    if (m_session != nullptr && s.stream > 0)
      nghttp2_submit_rst_stream(m_session, NGHTTP2_FLAG_NONE, s.stream, NGHTTP2_CANCEL);
    pump();
    return;
  }
}

const char* Http2Codec::stall_reason(const Exchange& x) const {
  if (m_session == nullptr) return "";
  for (const Slot& s : m_slots) {
    if (s.x != &x || s.stream <= 0) continue;
    // A body nghttp2 has not taken whole waits for a window (or, rarely, for the socket: then no window is 0).
    if (x.parts == nullptr || s.body_sent >= x.parts->body.size()) return "";
    if (nghttp2_session_get_stream_remote_window_size(m_session, s.stream) <= 0) return k_h2_stream_window_closed;
    if (nghttp2_session_get_remote_window_size(m_session) <= 0) return k_h2_connection_window_closed;
    return "";
  }
  return "";
}

void Http2Codec::close_slot(std::uint32_t index, std::uint32_t error_code) {
  Slot& s = m_slots[index];
  Exchange* x = std::exchange(s.x, nullptr);
  if (m_session != nullptr) nghttp2_session_set_stream_user_data(m_session, s.stream, nullptr);
  s.stream = -1;
  ++s.generation;
  m_free.push_back(index);
  --m_open;
  if (x == nullptr) return;  // cancelled or detached: reported by whoever gave it up
  if (s.grpc && s.grpc_too_large) {  // reset by us, whatever the server sent after the prefix
    m_reason = k_grpc_too_large;
    m_callbacks.on_error(*x, ExchangeError{ErrorKind::parse, false, false});
    return;
  }
  if (s.remote_ended && s.status != 0) {
    if (s.grpc) {
      if (const char* violation = grpc_violation(s)) {
        m_reason = violation;
        m_callbacks.on_error(*x, ExchangeError{ErrorKind::parse, false, false});
        return;
      }
    }
    ExchangeResult result;
    result.at = receipt_time();
    result.status = s.status;
    result.bytes_in = s.bytes_in;
    result.retry_after = std::string_view(s.retry_after.data(), s.retry_after_len);
    if (s.has_server_timing) result.server_timing = &s.server_timing;
    if (s.grpc) {
      result.protocol_status = s.grpc_status;
      result.messages = s.grpc_messages;
      result.message_bytes = s.grpc_message_bytes;
      result.retry_pushback_ms = s.grpc_pushback_ms;
    }
    m_callbacks.on_complete(*x, result);
    return;
  }
  if (!m_settings_seen) {
    // nghttp2 ended the session before the peer's first SETTINGS (its first frame was something else) and closed
    // the streams as refused: the server does not speak HTTP/2, so resending them would only meet it again.
    m_reason = k_h2_no_preface;
    m_callbacks.on_error(*x, ExchangeError{ErrorKind::parse, true, false});
    return;
  }
  m_reason = reset_reason(error_code);
  const bool refused = error_code == NGHTTP2_REFUSED_STREAM;  // also every stream above a GOAWAY's last id
  m_callbacks.on_error(*x, ExchangeError{ErrorKind::reset, refused, refused});
}

const char* Http2Codec::grpc_violation(const Slot& s) {
  if (s.status != 200) {
    std::snprintf(
        m_reason_buf.data(), m_reason_buf.size(),
        "the gRPC server answered with HTTP status %d, not 200 (a proxy or a server that is not gRPC?)",
        s.status);
    return m_reason_buf.data();
  }
  if (s.grpc_status == -1)
    return "the gRPC response carried no grpc-status (neither in its trailers nor as a Trailers-Only "
           "response)";
  if (s.grpc_status == -2) return "the gRPC response's grpc-status is not a status code 0..16";
  if (s.grpc_bad_frame)
    return "the gRPC response's body has a malformed length prefix (compressed flag not 0 or 1)";
  if (s.grpc_prefix != 0 || s.grpc_left != 0)
    return "the gRPC response's body has a malformed length prefix (it ended inside a message)";
  return nullptr;
}

void Http2Codec::pump() {
  if (m_session == nullptr || m_in_recv) return;  // inside mem_recv nghttp2 refuses to send: after it
  const std::size_t before = m_out.size();
  while (m_out.size() - m_written < k_out_high_water) {
    const std::uint8_t* data = nullptr;
    const ssize_t n = nghttp2_session_mem_send(m_session, &data);
    if (n < 0) {
      m_session_error = "the HTTP/2 session failed while sending (out of memory)";
      break;
    }
    if (n == 0) break;
    m_out.append(reinterpret_cast<const char*>(data), static_cast<std::size_t>(n));
  }
  if (m_out.size() != before) {
    for (std::size_t i = m_pending_head; i < m_pending.size(); ++i)
      m_pending[i].end = std::min(m_pending[i].end, m_out.size());
  }
}

std::string_view Http2Codec::output() const {
  return std::string_view(m_out).substr(m_written);
}

void Http2Codec::wrote(std::size_t n) {
  m_written += n;
  while (m_pending_head < m_pending.size() && m_pending[m_pending_head].end <= m_written) {
    const PendingSent p = m_pending[m_pending_head++];
    const Slot& s = m_slots[p.slot];
    if (s.generation == p.generation && s.x != nullptr) m_callbacks.on_sent(*s.x, p.bytes);
  }
  if (m_written < m_out.size()) return;
  m_out.clear();
  m_written = 0;
  m_pending.clear();
  m_pending_head = 0;
  pump();  // a body held back by the high-water mark
}

Codec::Feed Http2Codec::fail(ErrorKind kind, const char* reason) {
  m_failure = kind;
  m_reason = reason;
  return Feed::failed;
}

Codec::Feed Http2Codec::on_data(const char* data, std::size_t n) {
  m_now_valid = false;
  if (m_session == nullptr) return fail(ErrorKind::generator, m_session_error ? m_session_error : "no session");
  if (!m_settings_seen && looks_like_http1(data, n)) return fail(ErrorKind::parse, k_h2_no_preface);
  m_in_recv = true;
  const ssize_t rv = nghttp2_session_mem_recv(m_session, reinterpret_cast<const std::uint8_t*>(data), n);
  m_in_recv = false;
  if (m_detached) return Feed::done;  // a callback closed the connection: nothing of it is left to read
  if (rv < 0) {
    if (!m_settings_seen) return fail(ErrorKind::parse, k_h2_no_preface);
    return fail(ErrorKind::parse, nghttp2_strerror(static_cast<int>(rv)));
  }
  pump();  // what reading made due (SETTINGS and PING acks, window updates, requests started by callbacks)
  if (m_session_error != nullptr) return fail(ErrorKind::generator, m_session_error);
  // A connection error (ours: the server broke the protocol; or the server's GOAWAY with an error code): no
  // stream on the connection will be answered, so the connection fails now, and every stream with it, rather
  // than each waiting for its deadline. Streams above a server GOAWAY's last stream id were already closed as
  // refused (resent).
  if (m_connection_error != nullptr)
    return fail(m_connection_error_local ? ErrorKind::parse : ErrorKind::reset, m_connection_error);
  if (m_goaway && m_open == 0) return fail(ErrorKind::reset, "the server sent GOAWAY (no new streams)");
  if (nghttp2_session_want_read(m_session) == 0 && nghttp2_session_want_write(m_session) == 0 &&
      output().empty())
    return fail(ErrorKind::parse, "the HTTP/2 session ended (a connection error)");
  return Feed::more;
}

Codec::Feed Http2Codec::on_eof() {
  if (m_connection_error != nullptr)
    return fail(m_connection_error_local ? ErrorKind::parse : ErrorKind::reset, m_connection_error);
  if (!m_settings_seen) return fail(ErrorKind::parse, k_h2_no_preface);
  if (m_goaway && m_open == 0) return fail(ErrorKind::reset, "the server sent GOAWAY (no new streams)");
  return fail(ErrorKind::reset, "the server closed the HTTP/2 connection");
}

Exchange* Http2Codec::detach_all() {
  m_detached = true;
  Exchange* list = nullptr;
  m_free.clear();
  for (std::size_t i = m_slots.size(); i > 0; --i) {
    Slot& s = m_slots[i - 1];
    if (s.x != nullptr) {
      s.x->carrier_next = list;
      list = s.x;
    }
    s.x = nullptr;
    s.stream = -1;  // streams nghttp2 still closes later find no slot
    ++s.generation;
    m_free.push_back(static_cast<std::uint32_t>(i - 1));
  }
  m_open = 0;
  return list;
}

}  // namespace openloop::engine

// The lab's HTTP/2 connection: nghttp2's server session fed from the socket, its callbacks routing streams.
#include "lab/http2_connection.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include <nghttp2/nghttp2.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lab/grpc_service.h"

namespace openloop::lab {
namespace {

constexpr std::size_t k_read_chunk = 64 * 1024;
// Stop producing frames (and reading) while this much output waits for a client that does not read.
constexpr std::size_t k_max_unwritten = 1 << 20;
// Reads per readiness event, so one busy connection cannot starve the others.
constexpr int k_reads_per_event = 4;
// Request body bytes kept per stream (the HTTP/1.1 parser's limit); a larger body is answered 413.
constexpr std::size_t k_max_body = 64 * 1024;
// How long a finished connection waits for the client to close after its last frame (GOAWAY) was written.
constexpr Nanos k_linger = std::chrono::seconds(1);

thread_local char t_read_buffer[k_read_chunk];
// Marks the timer that sends the answers the model gave since the last write (the other timer is the linger).
constexpr std::uint64_t k_flush_cookie = 1ULL << 63;

constexpr std::string_view k_preface{NGHTTP2_CLIENT_MAGIC, NGHTTP2_CLIENT_MAGIC_LEN};
constexpr std::string_view k_bad_preface_reason =
    "expected the HTTP/2 connection preface: this lab serves h2c with prior knowledge (openloop lab --http2)";

std::string_view view(const std::uint8_t* data, std::size_t length) {
  return {reinterpret_cast<const char*>(data), length};
}

nghttp2_nv header(std::string_view name, std::string_view value) {
  // nghttp2 copies names and values when the frame is submitted, so views into the caller's buffers do.
  return nghttp2_nv{reinterpret_cast<std::uint8_t*>(const_cast<char*>(name.data())),
                    reinterpret_cast<std::uint8_t*>(const_cast<char*>(value.data())), name.size(),
                    value.size(), NGHTTP2_NV_FLAG_NONE};
}

// A timed answer's Server-Timing header, the same header and format as the HTTP/1.1 answer's
// (append_with_server_timing), written into `text` and added to `headers` at `count`; nothing when it does
// not fit.
template <std::size_t N>
void add_server_timing(const ServerTiming& timing, char (&text)[N], nghttp2_nv* headers, std::size_t& count) {
  const int n = format_server_timing(text, N, timing);
  if (n > 0 && static_cast<std::size_t>(n) < N)
    headers[count++] = header("server-timing", {text, static_cast<std::size_t>(n)});
}

}  // namespace

// nghttp2's C callbacks, forwarding to the connection (user_data).
struct Http2Connection::Callbacks {
  static Http2Connection& self(void* user) { return *static_cast<Http2Connection*>(user); }

  static int begin_headers(nghttp2_session*, const nghttp2_frame* frame, void* user) {
    if (frame->hd.type == NGHTTP2_HEADERS && frame->headers.cat == NGHTTP2_HCAT_REQUEST) {
      self(user).begin_stream(frame->hd.stream_id);
    }
    return 0;
  }
  static int header(nghttp2_session*, const nghttp2_frame* frame, const std::uint8_t* name,
                    std::size_t name_length, const std::uint8_t* value, std::size_t value_length,
                    std::uint8_t /*flags*/, void* user) {
    if (frame->hd.type == NGHTTP2_HEADERS) {
      self(user).on_header(frame->hd.stream_id, view(name, name_length), view(value, value_length));
    }
    return 0;
  }
  static int data_chunk(nghttp2_session*, std::uint8_t /*flags*/, std::int32_t stream_id,
                        const std::uint8_t* data, std::size_t length, void* user) {
    Stream* s = self(user).stream_for(stream_id);
    if (s == nullptr || s->state != StreamState::receiving) return 0;
    if (s->body.size() + length > k_max_body) {
      s->body_too_large = true;
    } else {
      s->body.append(reinterpret_cast<const char*>(data), length);
    }
    if (s->grpc && is_reflection_path(s->target))
      self(user).on_reflection_data(static_cast<std::uint16_t>(s - self(user).m_streams.data()));
    return 0;
  }
  static int frame_recv(nghttp2_session*, const nghttp2_frame* frame, void* user) {
    if ((frame->hd.type == NGHTTP2_HEADERS || frame->hd.type == NGHTTP2_DATA) &&
        (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0) {
      self(user).on_request_complete(frame->hd.stream_id);
    } else if (frame->hd.type == NGHTTP2_RST_STREAM) {
      ++self(user).m_host.counters().http2.resets;
    }
    return 0;
  }
  static int frame_send(nghttp2_session*, const nghttp2_frame* frame, void* user) {
    if (frame->hd.type == NGHTTP2_GOAWAY) ++self(user).m_host.counters().http2.goaways;
    return 0;
  }
  static int stream_close(nghttp2_session*, std::int32_t stream_id, std::uint32_t /*error_code*/,
                          void* user) {
    self(user).on_stream_closed(stream_id);
    return 0;
  }
  static ssize_t read_body(nghttp2_session* session, std::int32_t stream_id, std::uint8_t* buffer,
                           std::size_t length, std::uint32_t* data_flags, nghttp2_data_source*, void* user) {
    Stream* s = self(user).stream_for(stream_id);
    if (s == nullptr) return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
    const std::size_t n = std::min(length, s->out_body.size() - s->out_offset);
    std::memcpy(buffer, s->out_body.data() + s->out_offset, n);
    s->out_offset += n;
    if (s->out_offset < s->out_body.size()) return static_cast<ssize_t>(n);
    if (!s->grpc) {
      *data_flags |= NGHTTP2_DATA_FLAG_EOF;
    } else if (s->reflection && !s->in_ended) {
      // More requests may come: their answers resume the stream.
      s->out_body.clear();
      s->out_offset = 0;
      if (n == 0) return NGHTTP2_ERR_DEFERRED;
    } else {
      // gRPC's status goes in trailers after the message.
      *data_flags |= NGHTTP2_DATA_FLAG_EOF | NGHTTP2_DATA_FLAG_NO_END_STREAM;
      const nghttp2_nv trailers[] = {lab::header("grpc-status", "0")};
      nghttp2_submit_trailer(session, stream_id, trailers, std::size(trailers));
    }
    return static_cast<ssize_t>(n);
  }

  // One callbacks table for every session (read-only after construction).
  static const nghttp2_session_callbacks* table() {
    static nghttp2_session_callbacks* callbacks = [] {
      nghttp2_session_callbacks* c = nullptr;
      nghttp2_session_callbacks_new(&c);
      nghttp2_session_callbacks_set_on_begin_headers_callback(c, begin_headers);
      nghttp2_session_callbacks_set_on_header_callback(c, header);
      nghttp2_session_callbacks_set_on_data_chunk_recv_callback(c, data_chunk);
      nghttp2_session_callbacks_set_on_frame_recv_callback(c, frame_recv);
      nghttp2_session_callbacks_set_on_frame_send_callback(c, frame_send);
      nghttp2_session_callbacks_set_on_stream_close_callback(c, stream_close);
      return c;
    }();
    return callbacks;
  }
};

Http2Connection::Http2Connection(ConnectionHost& host, std::uint32_t slot)
    : m_host(host), m_router(host), m_slot(slot) {}

Http2Connection::~Http2Connection() {
  if (m_session != nullptr) nghttp2_session_del(m_session);
}

void Http2Connection::open(int fd) {
  m_fd = fd;
  m_streams.clear();
  m_free_streams.clear();
  m_out.clear();
  m_out_offset = 0;
  m_preface_seen = 0;
  m_received = m_open = 0;
  m_goaway_last = -1;
  m_in_io = m_finishing = m_lingering = m_flush_armed = false;
  watch_header(m_host.config().deadline_header);
  if (m_session != nullptr) nghttp2_session_del(m_session);
  m_session = nullptr;
  if (nghttp2_session_server_new(&m_session, Callbacks::table(), this) != 0) {
    m_session = nullptr;
    ::close(fd);
    m_fd = -1;
    ++m_generation;
    return m_host.on_closed(m_slot);
  }
  const nghttp2_settings_entry settings[] = {
      {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, m_host.config().http2.max_streams}};
  nghttp2_submit_settings(m_session, NGHTTP2_FLAG_NONE, settings, std::size(settings));
  m_interest = EPOLLIN;
  if (!m_host.loop().add(fd, m_interest, this)) return close();
  settle();  // the server's SETTINGS go out at once
}

void Http2Connection::close() {
  if (m_fd < 0) return;
  m_host.loop().remove(m_fd);
  ::close(m_fd);
  m_fd = -1;
  ++m_generation;  // the model's answers for this connection are now stale
  nghttp2_session_del(m_session);
  m_session = nullptr;
  m_host.on_closed(m_slot);
}

void Http2Connection::watch_header(std::string_view name) {
  m_deadline_header.assign(name);
  for (char& c : m_deadline_header) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

bool Http2Connection::still_waiting(std::uint16_t seq) const {
  return m_fd >= 0 && seq < m_streams.size() && m_streams[seq].state == StreamState::waiting;
}

void Http2Connection::on_io(std::uint32_t events) {
  if (m_fd < 0) return;  // spurious: closed earlier in this poll round
  if ((events & (EPOLLIN | EPOLLERR | EPOLLHUP)) != 0) {
    for (int i = 0; i < k_reads_per_event && m_fd >= 0; ++i) {
      const ssize_t n = ::recv(m_fd, t_read_buffer, k_read_chunk, 0);
      if (n > 0) {
        m_in_io = true;
        if (!m_lingering) feed(std::string_view(t_read_buffer, static_cast<std::size_t>(n)));
        m_in_io = false;
        if (static_cast<std::size_t>(n) < k_read_chunk) break;
        continue;
      }
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) break;
      // The client closed or reset the connection: nobody reads answers any more (see Connection).
      return close();
    }
  }
  if (m_fd >= 0) settle();
}

void Http2Connection::on_timer(std::uint64_t cookie) {
  if ((cookie & ~k_flush_cookie) != m_generation || m_fd < 0) return;  // an earlier connection's timer
  if ((cookie & k_flush_cookie) != 0) {
    m_flush_armed = false;
    return settle();
  }
  // The linger timer: the client did not close after the last frame.
  if (m_lingering) close();
}

void Http2Connection::receive(std::string_view data) {
  if (m_fd < 0) return;
  m_in_io = true;
  feed(data);
  m_in_io = false;
  settle();
}

void Http2Connection::feed(std::string_view data) {
  if (m_finishing || m_session == nullptr) return;
  if (!check_preface(data)) return;
  const auto consumed =
      nghttp2_session_mem_recv(m_session, reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
  // A fatal error (a flood, or memory): nghttp2 has queued what it can say (GOAWAY); finish the connection.
  if (consumed < 0) m_finishing = true;
}

bool Http2Connection::check_preface(std::string_view& data) {
  if (m_preface_seen >= k_preface.size()) return true;
  const std::size_t n = std::min(data.size(), k_preface.size() - m_preface_seen);
  if (data.substr(0, n) == k_preface.substr(m_preface_seen, n)) {
    m_preface_seen += n;
    return true;
  }
  // Not HTTP/2 with prior knowledge (an HTTP/1.1 request, TLS, noise): say why in a GOAWAY and close.
  ++m_host.counters().http2.bad_preface;
  nghttp2_submit_goaway(m_session, NGHTTP2_FLAG_NONE, 0, NGHTTP2_PROTOCOL_ERROR,
                        reinterpret_cast<const std::uint8_t*>(k_bad_preface_reason.data()),
                        k_bad_preface_reason.size());
  m_finishing = true;
  return false;
}

Http2Connection::Stream* Http2Connection::stream_for(std::int32_t stream_id) {
  if (m_session == nullptr) return nullptr;
  const auto seq_plus_one =
      reinterpret_cast<std::uintptr_t>(nghttp2_session_get_stream_user_data(m_session, stream_id));
  if (seq_plus_one == 0 || seq_plus_one > m_streams.size()) return nullptr;
  return &m_streams[seq_plus_one - 1];
}

void Http2Connection::begin_stream(std::int32_t stream_id) {
  const Http2Config& h2 = m_host.config().http2;
  if (m_goaway_last >= 0 && stream_id > m_goaway_last) {
    // Past our GOAWAY: never processed, so the client may send it again elsewhere.
    nghttp2_submit_rst_stream(m_session, NGHTTP2_FLAG_NONE, stream_id, NGHTTP2_REFUSED_STREAM);
    return;
  }
  ++m_received;
  ++m_host.counters().http2.streams;
  const bool over_bound = h2.refuse_streams_above > 0 && m_open >= h2.refuse_streams_above;
  const bool out_of_slots = m_free_streams.empty() && m_streams.size() >= k_max_slots;
  if (over_bound || out_of_slots) {
    ++m_host.counters().http2.refused;
    nghttp2_submit_rst_stream(m_session, NGHTTP2_FLAG_NONE, stream_id, NGHTTP2_REFUSED_STREAM);
  } else {
    std::uint16_t seq = 0;
    if (!m_free_streams.empty()) {
      seq = m_free_streams.back();
      m_free_streams.pop_back();
    } else {
      seq = static_cast<std::uint16_t>(m_streams.size());
      m_streams.emplace_back();
    }
    Stream& s = m_streams[seq];
    s.state = StreamState::receiving;
    s.id = stream_id;
    nghttp2_session_set_stream_user_data(m_session, stream_id,
                                         reinterpret_cast<void*>(static_cast<std::uintptr_t>(seq) + 1));
    ++m_open;
  }
  if (h2.goaway_after > 0 && m_received == h2.goaway_after) {
    nghttp2_submit_goaway(m_session, NGHTTP2_FLAG_NONE, stream_id, NGHTTP2_NO_ERROR, nullptr, 0);
    m_goaway_last = stream_id;
  }
}

void Http2Connection::on_header(std::int32_t stream_id, std::string_view name, std::string_view value) {
  Stream* s = stream_for(stream_id);
  if (s == nullptr || s->state != StreamState::receiving) return;
  if (name == ":method") {
    s->method.assign(value);
  } else if (name == ":path") {
    s->target.assign(value);
  } else if (!m_deadline_header.empty() && name == m_deadline_header) {
    // HTTP/2 header names arrive in lower case (nghttp2 refuses others), hence the lower-cased name.
    s->has_deadline = true;
    s->deadline.assign(value);
  } else if (name == "content-type" && m_host.config().http2.grpc) {
    s->grpc = is_grpc_content_type(value);
  } else if (name == "grpc-timeout" && m_host.config().http2.grpc) {
    s->grpc_timeout = parse_grpc_timeout(value);
    s->bad_grpc_timeout = !s->grpc_timeout;
  } else if (name == "authorization") {
    if (!s->authorization.empty()) s->authorization.push_back(',');
    s->authorization.append(value);
  } else if (name == "cookie") {
    // HTTP/2 may split the Cookie header into one field per pair (RFC 9113 8.2.3): join them back.
    if (!s->cookie.empty()) s->cookie.append("; ");
    s->cookie.append(value);
  }
}

void Http2Connection::on_request_complete(std::int32_t stream_id) {
  Stream* s = stream_for(stream_id);
  if (s == nullptr || s->state != StreamState::receiving) return;
  const auto seq = static_cast<std::uint16_t>(s - m_streams.data());
  s->head = s->method == "HEAD";
  if (s->grpc && is_reflection_path(s->target)) {
    s->in_ended = true;
    s->state = StreamState::answering;
    if (!s->responded) return submit_grpc_response(seq);  // no request: no answer, only the trailers
    nghttp2_session_resume_data(m_session, s->id);
    return;
  }
  if (s->body_too_large) {
    ++m_host.counters().body_too_large;
    return answer_reply(seq, Reply::payload_too_large);
  }
  ParsedRequest request;
  request.method = s->method;
  request.target = s->target;
  request.body = s->body;
  request.has_deadline = s->has_deadline;
  request.deadline = s->deadline;
  request.authorization = s->authorization;
  request.cookie = s->cookie;
  if (s->grpc) {
    if (s->target != k_lab_call_path) {
      return answer_grpc_status(seq, 12,  // UNIMPLEMENTED
                                "the lab serves openloop.lab.v1.Lab/Call and server reflection only");
    }
    const auto key = lab_call_key(s->body);
    if (!key || s->bad_grpc_timeout) {
      if (s->bad_grpc_timeout) ++m_host.counters().bad_deadline;
      return answer_reply(seq, Reply::bad_request);
    }
    request.cache_key = *key;
    request.budget = s->grpc_timeout;
    ++m_host.counters().http2.grpc_calls;
  }
  const Routing routing = m_router.route(request, make_tag(m_slot, generation(), seq));
  switch (routing.kind) {
    case Routing::Kind::control:
      if (s->grpc) {
        // Only --auth's 401 reaches here (the call's path is not a control path).
        return answer_grpc_status(seq, routing.control.status == 401 ? 16 : 13, routing.control.body);
      }
      return answer(seq, routing.control.status, routing.control.content_type, routing.control.body,
                    routing.control.set_cookie);
    case Routing::Kind::reply:
      return answer_reply(seq, routing.reply);
    case Routing::Kind::model:
      s->state = StreamState::waiting;
      m_router.submit(routing);  // may answer at once, inside this callback (sent by settle after it)
      return;
  }
}

void Http2Connection::on_stream_closed(std::int32_t stream_id) {
  Stream* s = stream_for(stream_id);
  if (s == nullptr) return;  // a refused stream
  --m_open;
  const auto seq = static_cast<std::uint16_t>(s - m_streams.data());
  if (s->state == StreamState::waiting) {
    s->state = StreamState::dropped;  // the model still holds its tag: the slot is freed by its answer
  } else {
    free_slot(seq);
  }
}

void Http2Connection::free_slot(std::uint16_t seq) {
  Stream& s = m_streams[seq];
  s.state = StreamState::free;
  s.id = 0;
  s.head = s.has_deadline = s.body_too_large = s.timed = false;
  s.grpc = s.reflection = s.responded = s.in_ended = s.bad_grpc_timeout = false;
  s.grpc_timeout.reset();
  s.method.clear();
  s.target.clear();
  s.body.clear();
  s.deadline.clear();
  s.authorization.clear();
  s.cookie.clear();
  s.out_body.clear();
  s.out_offset = 0;
  m_free_streams.push_back(seq);
}

void Http2Connection::on_timing(std::uint16_t seq, Nanos queue_wait, Nanos service, CacheLookup cache) {
  if (seq >= m_streams.size() || m_streams[seq].state != StreamState::waiting) return;
  Stream& s = m_streams[seq];
  s.timed = true;
  s.queue_wait = queue_wait;
  s.service = service;
  s.cache = cache;
}

void Http2Connection::on_outcome(std::uint16_t seq, Outcome outcome) {
  if (m_fd < 0 || seq >= m_streams.size()) return;
  Stream& s = m_streams[seq];
  if (s.state == StreamState::dropped) return free_slot(seq);
  if (s.state != StreamState::waiting) return;
  if (outcome == Outcome::cancelled) {
    // Only for streams nobody waits for (--cancel): the stream is already gone or going.
    nghttp2_submit_rst_stream(m_session, NGHTTP2_FLAG_NONE, s.id, NGHTTP2_CANCEL);
    s.state = StreamState::answering;
  } else {
    answer_reply(seq, reply_for(outcome));
  }
  if (!m_in_io && !m_flush_armed) {
    // Answers from the model's timers come one at a time: send them together, after the timers due now have
    // fired, instead of one write per answer (20,000 sendto for 20,000 requests at -m100 before this).
    m_host.timers().schedule(m_host.now(), this, k_flush_cookie | m_generation);
    m_flush_armed = true;
  }
}

void Http2Connection::answer_reply(std::uint16_t seq, Reply reply) {
  if (m_streams[seq].grpc) {
    if (reply == Reply::ok) return answer_grpc_ok(seq);
    return answer_grpc_status(seq, grpc_status_for(reply), grpc_message_for(reply));
  }
  const ResponseCatalog& responses = m_host.responses();
  answer(seq, ResponseCatalog::status(reply), "text/plain", responses.body(reply));
}

void Http2Connection::answer(std::uint16_t seq, int status, std::string_view content_type,
                             std::string_view body, std::string_view set_cookie) {
  Stream& s = m_streams[seq];
  s.state = StreamState::answering;
  s.out_body.assign(s.head ? std::string_view()
                           : body);  // capacity kept across streams: no allocation once warm
  s.out_offset = 0;
  char status_text[8];
  char length_text[24];
  char timing_text[128];
  const int status_length = std::snprintf(status_text, sizeof status_text, "%d", status);
  const int length_length = std::snprintf(length_text, sizeof length_text, "%zu", body.size());
  nghttp2_nv headers[5] = {
      header(":status", {status_text, static_cast<std::size_t>(status_length)}),
      header("content-type", content_type),
      header("content-length", {length_text, static_cast<std::size_t>(length_length)}),
  };
  std::size_t count = 3;
  if (!set_cookie.empty()) headers[count++] = header("set-cookie", set_cookie);
  if (s.timed) add_server_timing({s.queue_wait, s.service, s.cache}, timing_text, headers, count);
  nghttp2_data_provider provider{};
  provider.read_callback = Callbacks::read_body;
  if (nghttp2_submit_response(m_session, s.id, headers, count, s.out_body.empty() ? nullptr : &provider) !=
      0) {
    // The stream is gone (closed under us): nothing to send, and nghttp2 will not report its close again.
    free_slot(seq);
  }
}

void Http2Connection::answer_grpc_status(std::uint16_t seq, int status, std::string_view message) {
  Stream& s = m_streams[seq];
  s.state = StreamState::answering;
  char status_text[8];
  const int status_length = std::snprintf(status_text, sizeof status_text, "%d", status);
  // grpc-message is percent-encoded on the wire: the lab's messages are plain ASCII without '%'; a control
  // body (JSON) is cut at its first line.
  message = message.substr(0, message.find('\n'));
  const nghttp2_nv headers[] = {
      header(":status", "200"),
      header("content-type", "application/grpc"),
      header("grpc-status", {status_text, static_cast<std::size_t>(status_length)}),
      header("grpc-message", message),
  };
  if (nghttp2_submit_response(m_session, s.id, headers, std::size(headers), nullptr) != 0) free_slot(seq);
}

void Http2Connection::answer_grpc_ok(std::uint16_t seq) {
  Stream& s = m_streams[seq];
  const auto key = lab_call_key(s.body);  // read when the call arrived: it parses
  write_lab_reply(key.value_or(std::string_view()), m_host.responses().body(Reply::ok), s.out_body);
  s.out_offset = 0;
  s.state = StreamState::answering;
  submit_grpc_response(seq);
}

void Http2Connection::on_reflection_data(std::uint16_t seq) {
  Stream& s = m_streams[seq];
  if (!s.reflection) ++m_host.counters().http2.grpc_reflection_streams;
  s.reflection = true;
  const std::size_t before = s.out_body.size();
  if (!answer_reflection(s.body, s.out_body)) {
    s.state = StreamState::answering;  // the rest of the request is ignored
    if (!s.responded) return answer_grpc_status(seq, 13, "a malformed reflection request");
    nghttp2_submit_rst_stream(m_session, NGHTTP2_FLAG_NONE, s.id, NGHTTP2_INTERNAL_ERROR);
    return;
  }
  if (s.out_body.size() == before) return;
  if (!s.responded) return submit_grpc_response(seq);
  nghttp2_session_resume_data(m_session, s.id);
}

void Http2Connection::submit_grpc_response(std::uint16_t seq) {
  Stream& s = m_streams[seq];
  s.responded = true;
  char timing_text[128];
  nghttp2_nv headers[3] = {header(":status", "200"), header("content-type", "application/grpc")};
  std::size_t count = 2;
  if (s.timed) add_server_timing({s.queue_wait, s.service, s.cache}, timing_text, headers, count);
  nghttp2_data_provider provider{};
  provider.read_callback = Callbacks::read_body;
  if (nghttp2_submit_response(m_session, s.id, headers, count, &provider) != 0) free_slot(seq);
}

void Http2Connection::settle() {
  if (m_fd < 0 || m_session == nullptr) return;
  // Frames are produced up to k_max_unwritten at a time and written; when the socket took them all and more
  // remain, again (a bounded number of rounds, then the flush timer), so output never waits for an event that
  // will not come: EPOLLOUT is asked for only while bytes are unwritten.
  for (int round = 0;; ++round) {
    bool full = false;
    while (!full) {
      const std::uint8_t* data = nullptr;
      const ssize_t n = nghttp2_session_mem_send(m_session, &data);
      if (n < 0) {
        m_finishing = true;  // fatal: nothing more can be said on this connection
        break;
      }
      if (n == 0) break;
      m_out.append(reinterpret_cast<const char*>(data), static_cast<std::size_t>(n));
      full = m_out.size() - m_out_offset >= k_max_unwritten;
    }
    write_out();
    if (m_fd < 0) return;
    if (!full || m_out_offset < m_out.size()) break;
    if (round == 16) {
      if (!m_flush_armed) m_host.timers().schedule(m_host.now(), this, k_flush_cookie | m_generation);
      m_flush_armed = true;
      break;
    }
  }
  const bool finished = m_finishing || (nghttp2_session_want_read(m_session) == 0 &&
                                        nghttp2_session_want_write(m_session) == 0);
  if (finished && m_out_offset == m_out.size() && !m_lingering) {
    // Everything is written: half-close and let the client close, so our last frame (a GOAWAY) is read
    // rather than lost to a reset; a client that stays is cut off after k_linger.
    m_lingering = true;
    ::shutdown(m_fd, SHUT_WR);
    m_host.timers().schedule(m_host.now() + k_linger, this, m_generation);
  }
  update_interest();
}

void Http2Connection::write_out() {
  if (!send_pending(m_fd, m_out, m_out_offset)) close();
}

void Http2Connection::update_interest() {
  if (m_fd < 0) return;
  std::uint32_t want = 0;
  if (m_lingering || m_out.size() - m_out_offset < k_max_unwritten) want |= EPOLLIN;
  if (m_out_offset < m_out.size()) want |= EPOLLOUT;
  if (want != m_interest) {
    m_host.loop().modify(m_fd, want, this);
    m_interest = want;
  }
}

}  // namespace openloop::lab

// A blocking gRPC stream on a connection of its own: nghttp2 driven through memory, the transport polled.
#include "engine/grpc_stream.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <optional>

#include <fmt/format.h>
#include <nghttp2/nghttp2.h>

#include "net/fd_wait.h"
#include "net/resolver.h"
#include "net/transport.h"

namespace openloop::engine {
namespace {

constexpr std::size_t k_prefix = 5;
// A response message larger than this ends the exchange (gRPC's default receive limit; a file descriptor is
// kilobytes).
constexpr std::uint32_t k_max_message = 4U << 20;

nghttp2_nv nv(std::string_view name, std::string_view value) {
  return nghttp2_nv{reinterpret_cast<std::uint8_t*>(const_cast<char*>(name.data())),
                    reinterpret_cast<std::uint8_t*>(const_cast<char*>(value.data())), name.size(),
                    value.size(), NGHTTP2_NV_FLAG_NONE};
}

std::string millis(Nanos d) {
  return fmt::format("{} ms", std::chrono::duration_cast<std::chrono::milliseconds>(d).count());
}

Error runtime(std::string message) {
  return Error{ExitCode::runtime, std::move(message)};
}

// The stream's state, shared with nghttp2's callbacks.
struct Stream {
  GrpcStreamPeer* peer = nullptr;
  std::int32_t id = -1;
  std::string out;       // request bytes not yet handed to nghttp2
  bool end_out = false;  // half-close once `out` is sent
  std::string in;        // response body bytes not yet cut into messages
  GrpcStreamEnd end;
  bool closed = false;
  std::optional<Error> error;

  void fail(Error e) {
    if (!error) error = std::move(e);
  }

  // Cuts whole messages out of `in` and hands them to the peer.
  void deliver() {
    std::size_t at = 0;
    while (!error && in.size() - at >= k_prefix) {
      const auto* p = reinterpret_cast<const unsigned char*>(in.data() + at);
      const std::uint32_t len = (std::uint32_t{p[1]} << 24) | (std::uint32_t{p[2]} << 16) |
                                (std::uint32_t{p[3]} << 8) | std::uint32_t{p[4]};
      if (p[0] > 1 || len > k_max_message) {
        fail(runtime(fmt::format("a malformed length prefix (flag {}, length {})", unsigned{p[0]}, len)));
        break;
      }
      if (p[0] == 1) {
        fail(runtime("the server compressed a message, which openloop did not ask for"));
        break;
      }
      if (in.size() - at - k_prefix < len) break;
      bool half_close = false;
      auto r = peer->on_message(std::string_view(in).substr(at + k_prefix, len), out, half_close);
      if (!r) fail(std::move(r.error()));
      end_out = end_out || half_close;
      at += k_prefix + len;
    }
    in.erase(0, at);
  }
};

int on_header(nghttp2_session*, const nghttp2_frame* frame, const std::uint8_t* name_p, std::size_t name_len,
              const std::uint8_t* value_p, std::size_t value_len, std::uint8_t, void* user) {
  auto& s = *static_cast<Stream*>(user);
  if (frame->hd.stream_id != s.id) return 0;
  const std::string_view name(reinterpret_cast<const char*>(name_p), name_len);
  const std::string_view value(reinterpret_cast<const char*>(value_p), value_len);
  if (name == ":status") {
    int status = 0;
    for (char c : value) status = c >= '0' && c <= '9' ? status * 10 + (c - '0') : 999;
    if (status >= 200 || s.end.http_status == 0) s.end.http_status = status;
  } else if (name == "grpc-status") {
    int code = 0;
    for (char c : value) code = c >= '0' && c <= '9' && code < 100 ? code * 10 + (c - '0') : 100;
    s.end.grpc_status = value.empty() || code > 16 ? -2 : code;
  } else if (name == "grpc-message") {
    s.end.grpc_message.assign(value.substr(0, 300));
  }
  return 0;
}

int on_data_chunk(nghttp2_session*, std::uint8_t, std::int32_t id, const std::uint8_t* data, std::size_t len,
                  void* user) {
  auto& s = *static_cast<Stream*>(user);
  if (id != s.id || s.error) return 0;
  s.in.append(reinterpret_cast<const char*>(data), len);
  s.deliver();
  return 0;
}

int on_stream_close(nghttp2_session*, std::int32_t id, std::uint32_t error_code, void* user) {
  auto& s = *static_cast<Stream*>(user);
  if (id != s.id) return 0;
  s.closed = true;
  if (error_code != NGHTTP2_NO_ERROR)
    s.fail(runtime(fmt::format("the server reset the stream ({})", nghttp2_http2_strerror(error_code))));
  return 0;
}

ssize_t read_out(nghttp2_session*, std::int32_t, std::uint8_t* buf, std::size_t length, std::uint32_t* flags,
                 nghttp2_data_source*, void* user) {
  auto& s = *static_cast<Stream*>(user);
  const std::size_t n = std::min(length, s.out.size());
  std::memcpy(buf, s.out.data(), n);
  s.out.erase(0, n);
  if (s.out.empty() && s.end_out) {
    *flags |= NGHTTP2_DATA_FLAG_EOF;
    return static_cast<ssize_t>(n);
  }
  return n == 0 ? ssize_t{NGHTTP2_ERR_DEFERRED} : static_cast<ssize_t>(n);
}

// A connected (and, for TLS, handshaken) transport, or why not.
Result<void> connect(const GrpcStreamTarget& target, const net::TlsContext* tls, net::Transport& t,
                     SteadyTime deadline) {
  const auto endpoints = OPENLOOP_TRY(net::resolve(target.host, target.port));
  return net::connect_blocking(endpoints, target.host, tls, t, deadline);
}

struct SessionDeleter {
  void operator()(nghttp2_session* s) const { nghttp2_session_del(s); }
};

}  // namespace

Result<GrpcStreamEnd> grpc_stream_exchange(const GrpcStreamTarget& target, std::string_view path,
                                           std::string first, bool end_first, GrpcStreamPeer& peer) {
  const SteadyTime deadline = SteadyClock::now() + target.timeout;
  std::optional<net::TlsContext> tls;
  if (target.tls) {
    const std::array<std::string_view, 1> alpn{"h2"};
    tls.emplace(OPENLOOP_TRY(net::TlsContext::create_client(!target.insecure, target.ca_file, alpn)));
  }
  net::Transport t;
  OPENLOOP_TRY_VOID(connect(target, tls ? &*tls : nullptr, t, deadline));

  Stream s;
  s.peer = &peer;
  s.out = std::move(first);
  s.end_out = end_first;
  nghttp2_session_callbacks* cbs = nullptr;
  if (nghttp2_session_callbacks_new(&cbs) != 0) return runtime_error("nghttp2: out of memory");
  nghttp2_session_callbacks_set_on_header_callback(cbs, &on_header);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cbs, &on_data_chunk);
  nghttp2_session_callbacks_set_on_stream_close_callback(cbs, &on_stream_close);
  nghttp2_session* raw = nullptr;
  const int rv = nghttp2_session_client_new(&raw, cbs, &s);
  nghttp2_session_callbacks_del(cbs);
  if (rv != 0) return runtime_error("nghttp2: cannot start a session");
  const std::unique_ptr<nghttp2_session, SessionDeleter> session(raw);

  const nghttp2_settings_entry settings[] = {{NGHTTP2_SETTINGS_ENABLE_PUSH, 0}};
  nghttp2_submit_settings(raw, NGHTTP2_FLAG_NONE, settings, std::size(settings));
  const std::string authority = fmt::format("{}:{}", target.host, target.port);
  const std::array<nghttp2_nv, 6> headers{
      nv(":method", "POST"),       nv(":scheme", target.tls ? "https" : "http"), nv(":path", path),
      nv(":authority", authority), nv("content-type", "application/grpc"),       nv("te", "trailers")};
  nghttp2_data_provider body{};
  body.read_callback = &read_out;
  s.id = nghttp2_submit_request(raw, nullptr, headers.data(), headers.size(), &body, nullptr);
  if (s.id < 0) return runtime_error(fmt::format("nghttp2: {}", nghttp2_strerror(s.id)));

  std::array<char, 16384> buf;
  const auto timed_out = [&] {
    return runtime_error(fmt::format("no answer within {} (--timeout)", millis(target.timeout)));
  };
  while (!s.closed && !s.error) {
    // A server that keeps sending (a trickle, an endless stream) still ends at the deadline.
    if (SteadyClock::now() >= deadline) return timed_out();
    if (!s.out.empty() || s.end_out) nghttp2_session_resume_data(raw, s.id);
    // Everything nghttp2 has to send, written out.
    for (;;) {
      const std::uint8_t* data = nullptr;
      const ssize_t n = nghttp2_session_mem_send(raw, &data);
      if (n < 0) return runtime_error(fmt::format("HTTP/2: {}", nghttp2_strerror(static_cast<int>(n))));
      if (n == 0) break;
      std::string_view bytes(reinterpret_cast<const char*>(data), static_cast<std::size_t>(n));
      while (!bytes.empty()) {
        const net::IoResult r = t.write(bytes.data(), bytes.size());
        if (r.status == net::IoStatus::ok) {
          bytes.remove_prefix(r.bytes);
        } else if (r.status == net::IoStatus::error || r.status == net::IoStatus::closed) {
          return runtime_error("the connection failed while writing: " + t.error_string());
        } else if (!net::wait_fd(t.fd(), r.status == net::IoStatus::want_write ? POLLOUT : POLLIN,
                                 deadline)) {
          return timed_out();
        }
      }
    }
    if (s.closed || s.error) break;
    const net::IoResult r = t.read(buf.data(), buf.size());
    if (r.status == net::IoStatus::ok) {
      const ssize_t used =
          nghttp2_session_mem_recv(raw, reinterpret_cast<const std::uint8_t*>(buf.data()), r.bytes);
      if (used < 0)
        return runtime_error(
            fmt::format("not an HTTP/2 server? ({})", nghttp2_strerror(static_cast<int>(used))));
    } else if (r.status == net::IoStatus::closed) {
      return runtime_error("the server closed the connection before the stream ended");
    } else if (r.status == net::IoStatus::error) {
      return runtime_error("the connection failed: " + t.error_string());
    } else if (!net::wait_fd(t.fd(), r.status == net::IoStatus::want_write ? POLLOUT : POLLIN, deadline)) {
      return timed_out();
    }
    if (nghttp2_session_want_read(raw) == 0 && nghttp2_session_want_write(raw) == 0 && !s.closed)
      return runtime_error("the server ended the HTTP/2 session (GOAWAY) before the stream ended");
  }
  t.close();
  if (s.error) return tl::unexpected(std::move(*s.error));
  if (!s.in.empty()) return runtime_error("the stream ended inside a message (a malformed length prefix)");
  return s.end;
}

}  // namespace openloop::engine

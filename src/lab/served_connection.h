// What the lab server holds a client connection by (HTTP/1.1 or HTTP/2), and what a connection needs from it.
#pragma once

#include <sys/socket.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "core/time.h"
#include "lab/auth_store.h"
#include "lab/model_config.h"
#include "lab/responses.h"
#include "lab/server_counters.h"
#include "lab/service_model.h"
#include "net/event_loop.h"
#include "net/timer_queue.h"

namespace openloop::lab {

/// Writes what `out` holds past `offset` while the socket `fd` takes it (a negative `fd` writes nothing; EINTR is
/// retried, EAGAIN stops), advancing `offset`; `out` is emptied once all of it is written. False when the socket
/// failed: the caller closes the connection. Both protocols' connections write through it.
inline bool send_pending(int fd, std::string& out, std::size_t& offset) {
  while (offset < out.size() && fd >= 0) {
    const ssize_t n = ::send(fd, out.data() + offset, out.size() - offset, MSG_NOSIGNAL);
    if (n > 0) {
      offset += static_cast<std::size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      break;
    } else {
      return false;
    }
  }
  if (offset == out.size()) {
    out.clear();
    offset = 0;
  }
  return true;
}

/// A /_lab/* answer, protocol-neutral: HTTP/1.1 renders it with render_response, HTTP/2 as HEADERS + DATA.
struct ControlResponse {
  ControlResponse() = default;
  ControlResponse(int status_code, std::string type, std::string text, std::string cookie = {})
      : status(status_code),
        content_type(std::move(type)),
        body(std::move(text)),
        set_cookie(std::move(cookie)) {}

  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::string set_cookie;  ///< a Set-Cookie header's value ("" for none)
};

/// What a RequestRouter needs from the service it routes for: the lab server, or the simulator's service on
/// virtual time. All calls on that service's one thread.
class RouterHost {
 public:
  virtual SteadyTime now() const = 0;
  virtual const LabConfig& config() const = 0;
  virtual ServerCounters& counters() = 0;
  /// The auth flow's tokens, orders and counters (--auth, /_lab/login, /_lab/orders).
  virtual AuthStore& auth() = 0;
  /// A data-plane request for the model; its outcome comes back through the model's sink (the lab server's
  /// ServedConnection::on_outcome).
  virtual void submit(SteadyTime now, const Arrival& arrival) = 0;
  /// A /_lab/* request: returns the whole answer at once (never queued, never frozen).
  virtual ControlResponse control(std::string_view method, std::string_view target,
                                  std::string_view body) = 0;

 protected:
  ~RouterHost() = default;
};

/// What a connection needs from its server. All calls on the server's loop thread.
class ConnectionHost : public RouterHost {
 public:
  virtual ~ConnectionHost() = default;
  virtual net::EventLoop& loop() = 0;
  virtual net::TimerQueue& timers() = 0;
  virtual const ResponseCatalog& responses() const = 0;
  /// The connection in `slot` has closed its socket and may be reused.
  virtual void on_closed(std::uint32_t slot) = 0;
};

/// Model tags: which connection (slot and generation, so a reused slot ignores old answers) and which of
/// its requests. Slots < 2^24; generations and sequence numbers wrap.
/// The top bit of a generation names the protocol (set: HTTP/2): an h2c lab's slot holds one connection
/// object per protocol, each counting its own sockets, so without it an answer owed to a closed HTTP/1.1
/// socket could match the generation of the HTTP/2 connection now in the slot, and the other way round.
inline constexpr std::uint32_t k_http2_generation_bit = 1u << 23;
inline std::uint64_t make_tag(std::uint32_t slot, std::uint32_t generation, std::uint16_t seq) {
  return (static_cast<std::uint64_t>(slot) << 40) |
         (static_cast<std::uint64_t>(generation & 0xffffff) << 16) | seq;
}
inline std::uint32_t tag_slot(std::uint64_t tag) {
  return static_cast<std::uint32_t>(tag >> 40);
}
inline std::uint32_t tag_generation(std::uint64_t tag) {
  return static_cast<std::uint32_t>((tag >> 16) & 0xffffff);
}
inline std::uint16_t tag_seq(std::uint64_t tag) {
  return static_cast<std::uint16_t>(tag & 0xffff);
}

/// One client connection as the server sees it, whatever its protocol. The object outlives its socket: the
/// server reuses it for later connections in the same slot. All calls on the server's loop thread.
class ServedConnection : public net::IoHandler, public net::TimerHandler {
 public:
  ~ServedConnection() override = default;
  /// Starts serving a freshly accepted non-blocking socket (the connection takes ownership of fd).
  virtual void open(int fd) = 0;
  virtual bool is_open() const = 0;
  /// A tag's generation: the low 23 bits of the count of sockets this object has served, with
  /// k_http2_generation_bit set by the HTTP/2 connection.
  virtual std::uint32_t generation() const = 0;
  /// False once nobody will read the answer to request `seq` (the client went away or reset the stream).
  virtual bool still_waiting(std::uint16_t seq) const = 0;
  /// The model's answer to request `seq`.
  virtual void on_outcome(std::uint16_t seq, Outcome outcome) = 0;
  /// The model's queue wait and service time of request `seq` (before its on_outcome) and what its cache did,
  /// sent with its answer as `Server-Timing: queue;dur=X, app;dur=Y, cache;desc=off|hit|miss` (milliseconds).
  virtual void on_timing(std::uint16_t seq, Nanos queue_wait, Nanos service, CacheLookup cache) = 0;
  /// Applies a changed deadline header name.
  virtual void watch_header(std::string_view name) = 0;
  /// Closes the socket now (server shutdown).
  virtual void close() = 0;
};

}  // namespace openloop::lab

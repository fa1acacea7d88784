// An h2c lab's accepted socket until its first bytes say which protocol it speaks (HTTP/2 or HTTP/1.1).
#pragma once

#include <cstdint>
#include <string_view>

#include "lab/served_connection.h"

namespace openloop::lab {

/// What a connection's first bytes say.
enum class FirstBytes : std::uint8_t {
  undecided,  ///< none yet, or a proper prefix of "PRI " (the HTTP/2 connection preface's first 4 bytes)
  http2,      ///< they begin with "PRI ": the HTTP/2 preface (prior knowledge)
  http1,      ///< an upper-case letter that departs from "PRI ": a request line's method (GET, POST, PUT...)
  other,      ///< anything else (TLS's 0x16, noise): the HTTP/2 connection refuses it (GOAWAY, bad_preface)
};

/// Classifies `first`, the bytes a connection has sent so far (any length; only the first 4 matter).
FirstBytes classify_first_bytes(std::string_view first);

/// Receives a socket whose protocol is decided.
class SniffSink {
 public:
  /// The socket `fd` of `slot` opened with `kind` (http2, http1 or other; never undecided); the sink takes
  /// it.
  virtual void on_sniffed(std::uint32_t slot, int fd, FirstBytes kind) = 0;

 protected:
  ~SniffSink() = default;
};

/// Holds a freshly accepted socket of an h2c lab (--http2) until its first bytes decide its protocol, then
/// hands it to the sink, which gives it to the slot's HTTP/2 or HTTP/1.1 connection: so one port serves h2c
/// with prior knowledge and HTTP/1.1 (the lab's control client among others), as nginx and Go's h2c do. It
/// reads nothing: it peeks (MSG_PEEK, edge-triggered, so bytes that leave it undecided wait for more), so the
/// connection it hands the socket to reads every byte. One peek per connection in the usual case, none per
/// request. A client that sends nothing, or too little to decide, is closed after --header-timeout
/// (counted in read_timeouts); one that closes first is closed. The object outlives its socket, as the
/// connections do. All calls on the server's loop thread.
class ProtocolSniffer final : public net::IoHandler, public net::TimerHandler {
 public:
  ProtocolSniffer(ConnectionHost& host, SniffSink& sink, std::uint32_t slot);

  /// Starts watching a freshly accepted non-blocking socket (takes ownership of fd until it is handed over).
  void open(int fd);
  bool is_open() const { return m_fd >= 0; }
  /// Closes the socket now (server shutdown, or the client gave up): the slot is free again.
  void close();

  void on_io(std::uint32_t events) override;
  void on_timer(std::uint64_t cookie) override;

 private:
  ConnectionHost& m_host;
  SniffSink& m_sink;
  const std::uint32_t m_slot;
  int m_fd = -1;
  std::uint64_t m_generation = 0;  // sockets watched so far: a timer of an earlier one is stale
};

}  // namespace openloop::lab

// One client connection of the lab server: reading and parsing requests, ordering and writing responses.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/time.h"
#include "http/request_parser.h"
#include "lab/request_router.h"
#include "lab/served_connection.h"

namespace openloop::lab {

/// An HTTP/1.1 keep-alive connection. Requests may be pipelined (up to k_max_pending unanswered); answers
/// are written in request order whatever order the model completes them in. A malformed request, oversized
/// headers or a slow sender gets its error response after the earlier answers, then the connection closes.
/// When the client closes its side the socket is closed at once, whatever the model still owes it.
/// The object outlives its socket: the server reuses it for later connections in the same slot.
class Connection final : public ServedConnection {
 public:
  static constexpr std::size_t k_max_pending = 32;

  Connection(ConnectionHost& host, std::uint32_t slot);

  void open(int fd) override;
  bool is_open() const override { return m_fd >= 0; }
  std::uint32_t generation() const override { return m_generation & (k_http2_generation_bit - 1); }
  /// False once the client has gone: its side was closed (the socket is then closed at once), so nobody will
  /// read answers (for --cancel).
  bool still_waiting(std::uint16_t /*seq*/) const override { return m_fd >= 0; }
  /// Written as soon as every earlier answer is.
  void on_outcome(std::uint16_t seq, Outcome outcome) override;
  void on_timing(std::uint16_t seq, Nanos queue_wait, Nanos service, CacheLookup cache) override;
  void watch_header(std::string_view name) override { m_parser.watch_header(name); }
  void close() override;

  void on_io(std::uint32_t events) override;
  void on_timer(std::uint64_t cookie) override;

 private:
  enum class SlotState : std::uint8_t { free, waiting, ready, dropped };
  struct Pending {
    SlotState state = SlotState::free;
    Reply reply = Reply::ok;
    bool head = false;
    bool close = false;
    bool timed = false;  // the model reported queue_wait and service (a Server-Timing header goes out)
    Nanos queue_wait{0};
    Nanos service{0};
    CacheLookup cache = CacheLookup::not_looked_up;
    std::string control;  // whole response for /_lab/* requests
  };

  void read_available();
  void process(std::string_view data);
  void handle_request();
  void handle_parse_error();
  void note_partial_request();
  Pending& push_pending(bool close);
  std::size_t pending() const { return static_cast<std::uint16_t>(m_next_seq - m_head_seq); }
  /// After any progress (not inside on_io): writes answers, parses a backlog, closes when finished.
  /// `may_submit` is false when called back from inside the model, which must not be re-entered: then a
  /// backlog is parsed later, from the timer queue.
  void settle(bool may_submit);
  void parse_backlog();
  void flush();
  void write_out();
  void update_interest();

  ConnectionHost& m_host;
  RequestRouter m_router;
  const std::uint32_t m_slot;
  std::uint32_t m_generation = 0;
  int m_fd = -1;
  http::RequestParser m_parser;
  std::array<Pending, k_max_pending> m_pending;
  std::uint16_t m_next_seq = 0;
  std::uint16_t m_head_seq = 0;
  std::string m_out;             // bytes not yet written
  std::size_t m_out_offset = 0;  // written prefix of m_out
  std::string m_backlog;         // received bytes not yet parsed (pipeline full)
  std::uint32_t m_interest = 0;
  bool m_in_io = false;
  bool m_stop_reading = false;  // no more requests: close when the answers are written
  bool m_partial = false;
  bool m_timer_armed = false;
  SteadyTime m_partial_since;
};

}  // namespace openloop::lab

// Connection I/O: non-blocking reads fed to the request parser, in-order answers, backpressure, read timeout.
#include "lab/connection.h"

#include <cerrno>
#include <cstdio>

#include <sys/socket.h>
#include <unistd.h>

namespace openloop::lab {
namespace {

constexpr std::size_t k_read_chunk = 64 * 1024;
// Stop reading requests from a client that does not read its answers.
constexpr std::size_t k_max_unwritten = 1 << 20;
// Reads per readiness event, so one busy connection cannot starve the others.
constexpr int k_reads_per_event = 4;

thread_local char t_read_buffer[k_read_chunk];
// Marks the timer that resumes parsing a backlog (the other connection timer is the read timeout).
constexpr std::uint64_t k_resume_cookie = 1ULL << 63;


}  // namespace

Connection::Connection(ConnectionHost& host, std::uint32_t slot)
    : m_host(host), m_router(host), m_slot(slot) {}

void Connection::open(int fd) {
  m_fd = fd;
  m_next_seq = m_head_seq = 0;
  for (Pending& p : m_pending) p = Pending{};
  m_out.clear();
  m_out_offset = 0;
  m_backlog.clear();
  m_in_io = m_stop_reading = m_partial = m_timer_armed = false;
  m_parser.reset();
  m_parser.watch_header(m_host.config().deadline_header);
  m_interest = EPOLLIN;
  if (!m_host.loop().add(fd, m_interest, this)) close();
}

void Connection::close() {
  if (m_fd < 0) return;
  m_host.loop().remove(m_fd);
  ::close(m_fd);
  m_fd = -1;
  ++m_generation;  // answers and timers for this connection are now stale
  m_host.on_closed(m_slot);
}

void Connection::on_io(std::uint32_t events) {
  if (m_fd < 0) return;  // spurious: closed earlier in this poll round
  m_in_io = true;
  if ((events & (EPOLLIN | EPOLLERR | EPOLLHUP)) != 0) read_available();
  m_in_io = false;
  if (m_fd >= 0) settle(true);
}

void Connection::read_available() {
  for (int i = 0; i < k_reads_per_event && m_fd >= 0 && (m_interest & EPOLLIN) != 0; ++i) {
    const ssize_t n = ::recv(m_fd, t_read_buffer, k_read_chunk, 0);
    if (n > 0) {
      process(std::string_view(t_read_buffer, static_cast<std::size_t>(n)));
      update_interest();
      if (static_cast<std::size_t>(n) < k_read_chunk) return;  // drained (level-triggered: more is reported)
      continue;
    }
    if (n == 0) {
      // The client has closed its side, so nobody reads answers any more (HTTP/1.1 clients do not half-close;
      // Go's net/http and nginx treat this as the client going away too). The socket goes now: its requests
      // stay in the model, which does their work anyway unless --cancel drops them at dequeue, and their
      // answers are discarded by generation. Keeping it until then would pin one descriptor per abandoned
      // request, so an overload's backlog, not the number of clients, would exhaust the open-file limit.
      return close();
    }
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return;
    return close();  // ECONNRESET and friends
  }
}

void Connection::process(std::string_view data) {
  while (!data.empty() && m_fd >= 0 && !m_stop_reading) {
    if (pending() >= k_max_pending) {
      m_backlog.append(data);  // pipeline full: parse the rest when answers have gone out
      break;
    }
    const auto r = m_parser.feed(data);
    data.remove_prefix(r.consumed);
    if (r.status == http::RequestParser::Status::request) {
      handle_request();
    } else if (r.status == http::RequestParser::Status::error) {
      handle_parse_error();
      return;
    }
  }
  note_partial_request();
}

Connection::Pending& Connection::push_pending(bool close) {
  Pending& p = m_pending[m_next_seq % k_max_pending];
  p.state = SlotState::waiting;
  p.reply = Reply::ok;
  p.head = false;
  p.close = close;
  p.timed = false;
  p.control.clear();
  ++m_next_seq;
  if (close) m_stop_reading = true;  // nothing after a closing answer is read
  return p;
}

void Connection::handle_request() {
  m_partial = false;
  const bool close = !m_parser.keep_alive();
  Routing routing = m_router.route(parsed_request(m_parser), make_tag(m_slot, generation(), m_next_seq));
  Pending& p = push_pending(close);
  switch (routing.kind) {
    case Routing::Kind::control:
      p.control = render_response(routing.control.status, routing.control.content_type, routing.control.body,
                                  close, routing.control.set_cookie);
      p.state = SlotState::ready;
      return;
    case Routing::Kind::reply:
      p.reply = routing.reply;
      p.state = SlotState::ready;
      return;
    case Routing::Kind::model:
      p.head = m_parser.is_head();
      m_router.submit(routing);  // may answer at once (on_outcome is deferred while m_in_io)
      return;
  }
}

void Connection::handle_parse_error() {
  ServerCounters& counters = m_host.counters();
  Reply reply = Reply::bad_request;
  switch (m_parser.error()) {
    case http::RequestError::header_too_large:
      ++counters.headers_too_large;
      reply = Reply::headers_too_large;
      break;
    case http::RequestError::body_too_large:
      ++counters.body_too_large;
      reply = Reply::payload_too_large;
      break;
    case http::RequestError::malformed:
    case http::RequestError::none:
      ++counters.malformed;
      break;
  }
  Pending& p = push_pending(true);
  p.reply = reply;
  p.state = SlotState::ready;
}

void Connection::note_partial_request() {
  if (!m_parser.in_progress()) {
    m_partial = false;
    return;
  }
  if (!m_partial) {
    m_partial = true;
    m_partial_since = m_host.now();
  }
  if (!m_timer_armed) {
    m_host.timers().schedule(m_partial_since + m_host.config().header_timeout, this, m_generation);
    m_timer_armed = true;
  }
}

void Connection::on_timer(std::uint64_t cookie) {
  if ((cookie & ~k_resume_cookie) != m_generation || m_fd < 0) return;  // an earlier connection's timer
  if ((cookie & k_resume_cookie) != 0) return settle(true);
  m_timer_armed = false;
  if (!m_partial || !m_parser.in_progress() || m_stop_reading) return;
  const SteadyTime due = m_partial_since + m_host.config().header_timeout;
  if (m_host.now() < due || pending() >= k_max_pending) {
    m_host.timers().schedule(std::max(due, m_host.now() + m_host.config().header_timeout), this,
                             m_generation);
    m_timer_armed = true;
    return;
  }
  ++m_host.counters().read_timeouts;
  Pending& p = push_pending(true);
  p.reply = Reply::request_timeout;
  p.state = SlotState::ready;
  settle(true);
}

void Connection::on_outcome(std::uint16_t seq, Outcome outcome) {
  Pending& p = m_pending[seq % k_max_pending];
  if (p.state != SlotState::waiting) return;
  if (outcome == Outcome::cancelled) {
    p.state = SlotState::dropped;  // only for clients that are gone: nobody reads the gap
  } else {
    p.state = SlotState::ready;
    p.reply = reply_for(outcome);
  }
  if (!m_in_io) settle(false);
}

void Connection::on_timing(std::uint16_t seq, Nanos queue_wait, Nanos service, CacheLookup cache) {
  Pending& p = m_pending[seq % k_max_pending];
  if (p.state != SlotState::waiting) return;
  p.timed = true;
  p.queue_wait = queue_wait;
  p.service = service;
  p.cache = cache;
}

void Connection::settle(bool may_submit) {
  flush();
  if (m_fd < 0) return;
  // Each round parses at least one request or consumes the whole backlog, so this ends.
  while (!m_backlog.empty() && pending() < k_max_pending && !m_stop_reading) {
    if (!may_submit) {
      // Called back from inside the model: parsing now would re-enter it, so resume from the timer queue.
      m_host.timers().schedule(m_host.now(), this, k_resume_cookie | m_generation);
      return update_interest();
    }
    parse_backlog();
    if (m_fd < 0) return;
  }
  if (m_stop_reading && pending() == 0 && m_out_offset == m_out.size()) return close();
  update_interest();
}

void Connection::parse_backlog() {
  std::string data;
  data.swap(m_backlog);
  m_in_io = true;
  process(data);
  m_in_io = false;
  if (m_backlog.empty()) {
    data.clear();
    m_backlog.swap(data);  // keep the capacity
  }
  flush();
}

void Connection::flush() {
  const ResponseCatalog& responses = m_host.responses();
  while (pending() > 0) {
    Pending& p = m_pending[m_head_seq % k_max_pending];
    if (p.state == SlotState::waiting) break;
    if (p.state == SlotState::ready) {
      if (!p.control.empty()) {
        m_out.append(p.control);
      } else if (p.timed) {
        append_with_server_timing(m_out, responses.get(p.reply, p.close, p.head),
                                  {p.queue_wait, p.service, p.cache});
      } else {
        m_out.append(responses.get(p.reply, p.close, p.head));
      }
    }
    p.state = SlotState::free;
    ++m_head_seq;
  }
  write_out();
}

void Connection::write_out() {
  if (!send_pending(m_fd, m_out, m_out_offset)) close();
}

void Connection::update_interest() {
  if (m_fd < 0) return;
  std::uint32_t want = 0;
  const bool can_read = !m_stop_reading && pending() < k_max_pending && m_backlog.empty() &&
                        m_out.size() - m_out_offset < k_max_unwritten;
  if (can_read) want |= EPOLLIN;
  if (m_out_offset < m_out.size()) want |= EPOLLOUT;
  if (want != m_interest) {
    m_host.loop().modify(m_fd, want, this);
    m_interest = want;
  }
}

}  // namespace openloop::lab

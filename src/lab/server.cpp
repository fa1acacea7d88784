// The lab server's loop, accept path, model routing and control plane.
#include "lab/server.h"

#include <cerrno>
#include <random>

#include <fmt/format.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "lab/connection.h"
#include "lab/control_endpoint.h"
#include "lab/http2_connection.h"

namespace openloop::lab {
namespace {

constexpr std::uint64_t k_timer_resume_accept = 1;
constexpr std::uint64_t k_timer_stop = 2;
constexpr std::uint32_t k_max_slots = 1u << 24;
constexpr int k_accepts_per_event = 256;
constexpr Nanos k_accept_backoff = std::chrono::milliseconds(100);

void raise_fd_limit() {
  rlimit r{};
  if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
    r.rlim_cur = r.rlim_max;
    setrlimit(RLIMIT_NOFILE, &r);
  }
}

std::string json_error(std::string_view message) {
  return nlohmann::json{{"error", message}}.dump() + "\n";
}

}  // namespace

Result<std::unique_ptr<Server>> Server::create(LabConfig config, const Clock& clock) {
  raise_fd_limit();
  auto listen = OPENLOOP_TRY(net::ListenSocket::open(config.listen, "--listen"));
  auto loop = OPENLOOP_TRY(net::EventLoop::create());
  return std::unique_ptr<Server>(new Server(std::move(config), clock, std::move(loop), std::move(listen)));
}

Server::Server(LabConfig config, const Clock& clock, net::EventLoop loop, net::ListenSocket listen)
    : m_config(std::move(config)),
      m_clock(clock),
      m_loop(std::move(loop)),
      m_listen(std::move(listen)),
      m_responses(m_config.body_size),
      m_auth(std::random_device{}() ^ (static_cast<std::uint64_t>(std::random_device{}()) << 32)),
      m_model(std::make_unique<ServiceModel>(m_config.model, m_timers, *this, clock.now())) {
  m_loop.add(m_listen.fd(), EPOLLIN, this);
}

Server::~Server() {
  for (Slot& s : m_slots) s.close();
  m_loop.remove(m_listen.fd());
}

void Server::Slot::close() {
  if (sniffer) sniffer->close();
  for_each([](ServedConnection& c) { c.close(); });
}

void Server::run() {
  if (m_config.duration) m_timers.schedule(m_clock.now() + *m_config.duration, this, k_timer_stop);
  while (!m_stop.load(std::memory_order_relaxed)) {
    m_timers.fire_due(m_clock.now());
    if (m_stop.load(std::memory_order_relaxed)) break;
    m_loop.poll(m_timers.next_deadline());
  }
  for (Slot& s : m_slots) s.close();
}

void Server::request_stop() {
  m_stop.store(true, std::memory_order_relaxed);
  m_loop.wake();
}

void Server::on_timer(std::uint64_t cookie) {
  if (cookie == k_timer_stop) {
    m_stop.store(true, std::memory_order_relaxed);
  } else if (cookie == k_timer_resume_accept) {
    m_loop.modify(m_listen.fd(), EPOLLIN, this);
    accept_all();
  }
}

void Server::on_io(std::uint32_t /*events*/) {
  accept_all();
}

void Server::accept_all() {
  for (int i = 0; i < k_accepts_per_event; ++i) {
    const int fd = ::accept4(m_listen.fd(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) return;
      ++m_counters.accept_errors;
      // Out of fds or memory: stop accepting for a moment instead of spinning on a listener that stays ready.
      return pause_accepting();
    }
    const int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    std::uint32_t slot = 0;
    if (!m_free_slots.empty()) {
      slot = m_free_slots.back();
      m_free_slots.pop_back();
    } else if (m_slots.size() < k_max_slots) {
      slot = static_cast<std::uint32_t>(m_slots.size());
      Slot& s = m_slots.emplace_back();
      if (m_config.http2.enabled) {
        s.sniffer = std::make_unique<ProtocolSniffer>(*this, static_cast<SniffSink&>(*this), slot);
      } else {
        s.http1 = std::make_unique<Connection>(*this, slot);
      }
    } else {
      ::close(fd);
      ++m_counters.accept_errors;
      continue;
    }
    ++m_counters.connections_accepted;
    ++m_counters.connections_open;
    Slot& s = m_slots[slot];
    if (s.sniffer) {
      s.sniffer->open(fd);
    } else {
      s.http1->open(fd);
    }
  }
}

void Server::on_sniffed(std::uint32_t slot, int fd, FirstBytes kind) {
  Slot& s = m_slots[slot];
  if (kind == FirstBytes::http1) {
    if (!s.http1) s.http1 = std::make_unique<Connection>(*this, slot);
    ++m_counters.http2.http1_connections;
    return s.http1->open(fd);
  }
  // The preface, or bytes that are neither it nor HTTP/1.1: the HTTP/2 connection serves the one and refuses
  // the other (GOAWAY, bad_preface), as an h2c-only port would.
  if (!s.http2) s.http2 = std::make_unique<Http2Connection>(*this, slot);
  ++m_counters.http2.connections;
  s.http2->open(fd);
}

void Server::pause_accepting() {
  m_loop.modify(m_listen.fd(), 0, this);
  m_timers.schedule(m_clock.now() + k_accept_backoff, this, k_timer_resume_accept);
}

void Server::on_closed(std::uint32_t slot) {
  m_free_slots.push_back(slot);
  --m_counters.connections_open;
}

ServedConnection* Server::connection_for(std::uint64_t tag) {
  const std::uint32_t slot = tag_slot(tag);
  if (slot >= m_slots.size()) return nullptr;
  const std::uint32_t generation = tag_generation(tag);
  Slot& s = m_slots[slot];
  ServedConnection* c = (generation & k_http2_generation_bit) != 0 ? s.http2.get() : s.http1.get();
  return c != nullptr && c->is_open() && c->generation() == generation ? c : nullptr;
}

void Server::on_outcome(std::uint64_t tag, Outcome outcome, SteadyTime /*at*/) {
  // A closed connection's answers are dropped here: the work was done anyway unless --cancel.
  if (ServedConnection* c = connection_for(tag)) c->on_outcome(tag_seq(tag), outcome);
}

void Server::on_timing(std::uint64_t tag, Nanos queue_wait, Nanos service, CacheLookup cache) {
  if (ServedConnection* c = connection_for(tag)) c->on_timing(tag_seq(tag), queue_wait, service, cache);
}

bool Server::still_wanted(std::uint64_t tag) {
  const ServedConnection* c = connection_for(tag);
  return c != nullptr && c->still_waiting(tag_seq(tag));
}

void Server::burn(Nanos work) {
  // Real CPU: spin on the clock (the loop thread is busy, as a CPU-bound handler would keep it).
  const SteadyTime end = m_clock.now() + work;
  while (m_clock.now() < end) {
  }
}

ControlResponse Server::control(std::string_view method, std::string_view target, std::string_view body) {
  const std::string_view path = target.substr(0, target.find('?'));
  const bool get = method == "GET" || method == "HEAD";
  if (path == "/_lab/stats" && get) {
    return {200, "application/json",
            stats_json(m_model->snapshot(m_clock.now()), m_counters, m_config, m_auth.counters()) + "\n"};
  }
  if (path == "/_lab/config" && get) return {200, "application/json", config_to_json(m_config).dump() + "\n"};
  if (path == "/_lab/config" && method == "POST") return handle_config_post(body);
  if (path == "/_lab/stats" || path == "/_lab/config") {
    return {405, "application/json",
            json_error("use GET /_lab/stats, GET /_lab/config or POST /_lab/config")};
  }
  return {404, "application/json",
          json_error(fmt::format("unknown control path \"{}\"; use GET /_lab/stats, GET or POST /_lab/config",
                                 path))};
}

ControlResponse Server::handle_config_post(std::string_view body) {
  auto change = apply_config_json(m_config, body);
  if (!change) return {400, "application/json", json_error(change.error().message)};
  const bool header_changed = change->config.deadline_header != m_config.deadline_header;
  const bool body_changed = change->config.body_size != m_config.body_size;
  m_config = std::move(change->config);
  if (header_changed) {
    for (Slot& s : m_slots)
      s.for_each([&](ServedConnection& c) { c.watch_header(m_config.deadline_header); });
  }
  if (body_changed) m_responses.build(m_config.body_size);
  if (change->flush_cache) m_model->flush_cache();
  // Last: more workers may start (and finish zero-time) work at once, answering other connections.
  m_model->configure(m_config.model, m_clock.now());
  if (change->restart) m_model->restart(m_clock.now());
  return {200, "application/json", config_to_json(m_config).dump() + "\n"};
}

}  // namespace openloop::lab

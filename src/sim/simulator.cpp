// The simulator's event loop, sockets and the request/response path to the service model.
#include "sim/simulator.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>

#include <sys/epoll.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "lab/control_endpoint.h"
#include "net/transport.h"

namespace openloop::sim {

namespace {
// Tags the service model hands back: the socket, its generation (a reused descriptor's earlier connection
// is another generation) and the request's sequence number on it.
std::uint64_t make_tag(int fd, std::uint32_t generation, std::uint64_t seq) {
  return (static_cast<std::uint64_t>(fd) << 32) | (static_cast<std::uint64_t>(generation & 0xffff) << 16) |
         (seq & 0xffff);
}
int tag_fd(std::uint64_t tag) {
  return static_cast<int>(tag >> 32);
}
std::uint32_t tag_generation(std::uint64_t tag) {
  return static_cast<std::uint32_t>((tag >> 16) & 0xffff);
}
std::uint16_t tag_seq(std::uint64_t tag) {
  return static_cast<std::uint16_t>(tag & 0xffff);
}
}  // namespace

Simulator::Simulator(const lab::LabConfig& config, SteadyTime start)
    : m_config(config),
      m_now(start),
      m_timers(4096),
      m_responses(config.body_size),
      m_model(std::make_unique<lab::ServiceModel>(config.model, m_timers, static_cast<lab::ModelSink&>(*this),
                                                  start)),
      // The tokens' key: the lab server draws one per start; here the model's seed, so a run is a function of
      // the plan and the configuration.
      m_auth(config.model.seed ^ 0x6c61622d746f6b65),
      m_router(static_cast<lab::RouterHost&>(*this)) {}

Simulator::~Simulator() = default;

void Simulator::every(Nanos period, std::function<void()> f) {
  m_tick = std::move(f);
  m_tick_period = period;
  ++m_tick_generation;  // an earlier callback's pending timer is ignored
  if (m_tick && period.count() > 0) m_timers.schedule(m_now + period, this, m_tick_generation);
}

namespace {
constexpr std::uint64_t k_action_bit = std::uint64_t{1} << 63;  // a timer cookie naming an at() action
}  // namespace

void Simulator::at(SteadyTime when, std::function<void()> f) {
  m_actions.push_back(std::move(f));
  m_timers.schedule(std::max(when, m_now), this, k_action_bit | (m_actions.size() - 1));
}

void Simulator::reconfigure(const lab::LabConfig& config) {
  const bool header_changed = config.deadline_header != m_config.deadline_header;
  m_config = config;
  m_model->configure(config.model, m_now);
  if (!header_changed) return;
  m_cache_valid = false;  // a request's bytes may mean another deadline now
  for (auto& s : m_sockets) {
    if (s.parser) s.parser->watch_header(m_config.deadline_header);
  }
}

void Simulator::on_timer(std::uint64_t cookie) {
  if ((cookie & k_action_bit) != 0) {
    const std::size_t i = static_cast<std::size_t>(cookie & ~k_action_bit);
    if (i < m_actions.size() && m_actions[i]) {
      auto f = std::move(m_actions[i]);
      m_actions[i] = nullptr;
      f();
    }
    return;
  }
  if (cookie != m_tick_generation || !m_tick) return;
  m_timers.schedule(m_now + m_tick_period, this, m_tick_generation);
  m_tick();
}

Simulator::Socket* Simulator::socket(int fd) {
  if (fd < 0 || static_cast<std::size_t>(fd) >= m_sockets.size()) return nullptr;
  Socket& s = m_sockets[static_cast<std::size_t>(fd)];
  return s.open ? &s : nullptr;
}

std::uint32_t Simulator::readiness(const Socket& s) const {
  std::uint32_t r = EPOLLOUT;  // connected at once, and the service reads whatever is written
  if (s.rx_offset < s.rx.size()) r |= EPOLLIN;
  if (s.eof) r |= EPOLLIN | EPOLLRDHUP;
  return r;
}

void Simulator::mark(int fd) {
  Socket& s = m_sockets[static_cast<std::size_t>(fd)];
  if (!s.open || !s.registered || s.queued || (readiness(s) & s.events) == 0) return;
  s.queued = true;
  m_ready.push_back(fd);
}

int Simulator::dispatch_ready() {
  // A handler polling again (the engine does not; epoll's loop could not take it either) finds nothing: what
  // is ready stays queued for the next round.
  if (m_dispatching_now) return 0;
  m_dispatching_now = true;
  int dispatched = 0;
  m_dispatching.swap(m_ready);
  for (const int fd : m_dispatching) {
    Socket& s = m_sockets[static_cast<std::size_t>(fd)];
    s.queued = false;
    if (!s.open || !s.registered) continue;
    const std::uint32_t ready = readiness(s) & (s.events | EPOLLERR | EPOLLHUP);
    if (ready == 0) continue;
    s.handler->on_io(ready);
    ++dispatched;
    mark(fd);  // level-triggered: still ready after the handler ran, dispatched again next round
  }
  m_dispatching.clear();
  m_dispatching_now = false;
  return dispatched;
}

int Simulator::poll(SteadyTime deadline) {
  if (m_on_poll) m_on_poll();
  for (;;) {
    if (const int n = dispatch_ready(); n > 0) return n;
    const SteadyTime next = m_timers.next_deadline();
    if (next > deadline) {
      if (deadline > m_now && deadline != SteadyTime::max()) m_now = deadline + m_wake_delay;
      return 0;
    }
    m_now = std::max(m_now, next);
    m_timers.fire_due(m_now);
  }
}

bool Simulator::add(int fd, std::uint32_t events, net::IoHandler* handler) {
  Socket* s = socket(fd);
  if (s == nullptr) {
    errno = EBADF;
    return false;
  }
  s->registered = true;
  s->events = events;
  s->handler = handler;
  mark(fd);
  return true;
}

bool Simulator::modify(int fd, std::uint32_t events, net::IoHandler* handler) {
  Socket* s = socket(fd);
  if (s == nullptr || !s->registered) {
    errno = s == nullptr ? EBADF : ENOENT;
    return false;
  }
  s->events = events;
  s->handler = handler;
  mark(fd);
  return true;
}

void Simulator::remove(int fd) {
  if (Socket* s = socket(fd)) s->registered = false;
}

int Simulator::connect(const net::Endpoint& /*ep*/) {
  int fd = 0;
  if (!m_free.empty()) {
    fd = m_free.back();
    m_free.pop_back();
  } else {
    fd = static_cast<int>(m_sockets.size());
    m_sockets.emplace_back();
  }
  Socket& s = m_sockets[static_cast<std::size_t>(fd)];
  ++m_counters.connections_accepted;
  ++m_counters.connections_open;
  s.open = true;
  s.registered = s.queued = s.eof = s.stop_reading = false;
  s.events = 0;
  s.handler = nullptr;
  ++s.generation;
  s.rx.clear();
  s.rx_offset = 0;
  if (!s.parser) {
    s.parser = std::make_unique<http::RequestParser>();
  } else {
    s.parser->reset();
  }
  s.parser->watch_header(m_config.deadline_header);
  s.head_seq = s.next_seq = 0;
  return fd;
}

int Simulator::connect_result(int fd) {
  return socket(fd) != nullptr ? 0 : EBADF;
}

net::IoResult Simulator::read(int fd, char* buf, std::size_t cap) {
  Socket* s = socket(fd);
  if (s == nullptr) return {net::IoStatus::error, EBADF};
  if (s->rx_offset < s->rx.size()) {
    const std::size_t n = std::min(cap, s->rx.size() - s->rx_offset);
    std::memcpy(buf, s->rx.data() + s->rx_offset, n);
    s->rx_offset += n;
    if (s->rx_offset == s->rx.size()) {
      s->rx.clear();  // keeps its capacity
      s->rx_offset = 0;
    }
    return {net::IoStatus::ok, n};
  }
  return {s->eof ? net::IoStatus::closed : net::IoStatus::want_read};
}

net::IoResult Simulator::write(int fd, const char* buf, std::size_t len) {
  Socket* s = socket(fd);
  if (s == nullptr) return {net::IoStatus::error, EBADF};
  if (s->eof) return {net::IoStatus::error, EPIPE};  // the service closed its end
  std::string_view data(buf, len);
  // The same bytes parse the same way: a plan's constant request is parsed once, not once per request (llhttp
  // was a fifth of a simulation's CPU). Only a whole request written at a request boundary is cached.
  // Under --auth every request is routed (its token checked, counted): none is taken from the cache.
  const bool fresh = !s->parser->in_progress();
  if (fresh && m_cache_valid && !m_config.auth && data == m_cached_bytes) {
    receive_model_request(fd, *s, m_cached);
    return {net::IoStatus::ok, len};
  }
  while (!data.empty() && !s->stop_reading) {
    const auto r = s->parser->feed(data);
    data.remove_prefix(r.consumed);
    if (r.status == http::RequestParser::Status::request) {
      receive_request(fd, *s, fresh && r.consumed == len ? std::string_view(buf, len) : std::string_view());
      s = &m_sockets[static_cast<std::size_t>(fd)];  // the model may have answered at once
    } else if (r.status == http::RequestParser::Status::error) {
      ++m_counters.malformed;
      if (s->next_seq - s->head_seq < k_max_pending) {
        Pending& p = s->pending[s->next_seq++ % k_max_pending];
        p = Pending{};
        p.reply = lab::Reply::bad_request;
        p.close = p.ready = true;
      }
      s->stop_reading = true;
      flush(fd, *s);
      break;
    }
  }
  return {net::IoStatus::ok, len};
}

bool Simulator::admit(int fd, Socket& s, bool close) {
  ++m_requests;
  if (m_now != m_instant) {
    m_instant = m_now;
    m_at_instant = 0;
  }
  // Closed users answered in zero time (429s, 503s, a zero-time service) send again at the same virtual
  // instant, without end: a simulation with no network delay would never advance. Stopped, and the run says
  // why.
  if ((m_requests > m_request_limit || ++m_at_instant > k_max_at_one_instant) && !m_limit_reached &&
      m_stop != nullptr) {
    m_limit_reached = true;
    m_stop->store(2);  // StopRequest::immediate
  }
  if (close) s.stop_reading = true;
  if (s.next_seq - s.head_seq >= k_max_pending) {  // a client pipelining beyond the lab's window
    s.stop_reading = true;
    s.eof = true;
    mark(fd);
    return false;
  }
  return true;
}

void Simulator::receive_request(int fd, Socket& s, std::string_view whole) {
  const http::RequestParser& parser = *s.parser;
  const bool close = !parser.keep_alive();
  if (!admit(fd, s, close)) return;
  const lab::ParsedRequest request = lab::parsed_request(parser);
  const std::uint64_t seq = s.next_seq++;
  Pending& p = s.pending[seq % k_max_pending];
  p = Pending{};
  p.close = close;
  const lab::Routing routing = m_router.route(request, make_tag(fd, s.generation, seq));
  switch (routing.kind) {
    case lab::Routing::Kind::control:
      p.control = lab::render_response(routing.control.status, routing.control.content_type,
                                       routing.control.body, close, routing.control.set_cookie);
      p.ready = true;
      return flush(fd, s);
    case lab::Routing::Kind::reply:
      p.reply = routing.reply;
      p.ready = true;
      return flush(fd, s);
    case lab::Routing::Kind::model:
      p.head = parser.is_head();
      if (!whole.empty() && !m_config.auth) {
        m_cached_bytes.assign(whole);
        m_cached = ModelRequest{close, p.head, routing.arrival.deadline != SteadyTime::max(),
                                routing.arrival.deadline - routing.now, routing.arrival.key};
        m_cache_valid = true;
      }
      m_router.submit(routing);  // may answer at once (shed, rejected, zero service time)
      return;
  }
}

void Simulator::receive_model_request(int fd, Socket& s, const ModelRequest& request) {
  ++m_counters.requests;  // as the router counts every request
  if (!admit(fd, s, request.close)) return;
  const std::uint64_t seq = s.next_seq++;
  Pending& p = s.pending[seq % k_max_pending];
  p = Pending{};
  p.head = request.head;
  p.close = request.close;
  lab::Arrival arrival;
  arrival.tag = make_tag(fd, s.generation, seq);
  if (request.has_budget) arrival.deadline = m_now + request.budget;
  arrival.key = request.key;
  m_model->submit(m_now, arrival);  // may answer at once (shed, rejected, zero service time)
}

lab::ControlResponse Simulator::control(std::string_view method, std::string_view target,
                                        std::string_view /*body*/) {
  const std::string_view path = target.substr(0, target.find('?'));
  const bool get = method == "GET" || method == "HEAD";
  if (path == "/_lab/stats" && get) {
    return {200, "application/json",
            lab::stats_json(m_model->snapshot(m_now), m_counters, m_config, m_auth.counters()) + "\n"};
  }
  if (path == "/_lab/config" && get)
    return {200, "application/json", lab::config_to_json(m_config).dump() + "\n"};
  const nlohmann::json error{
      {"error", fmt::format("\"{} {}\" is not simulated: a simulated lab answers GET /_lab/stats, GET "
                            "/_lab/config and the auth flow (POST /_lab/login, POST /_lab/orders, GET "
                            "/_lab/orders/ID)",
                            method, path)}};
  return {404, "application/json", error.dump() + "\n"};
}

void Simulator::on_outcome(std::uint64_t tag, lab::Outcome outcome, SteadyTime at) {
  const int fd = tag_fd(tag);
  Socket* s = socket(fd);
  if (s == nullptr || (s->generation & 0xffff) != tag_generation(tag)) return;  // the client has gone
  m_now = std::max(m_now, at);
  Pending& p = s->pending[tag_seq(tag) % k_max_pending];
  if (outcome == lab::Outcome::cancelled) {
    p.dropped = true;
  } else {
    p.reply = lab::reply_for(outcome);
  }
  p.ready = true;
  flush(fd, *s);
}

// The model's queue wait and service time, answered as the lab answers them (a Server-Timing header); comes
// just before on_outcome for the same request.
void Simulator::on_timing(std::uint64_t tag, Nanos queue_wait, Nanos service, lab::CacheLookup cache) {
  Socket* s = socket(tag_fd(tag));
  if (s == nullptr || (s->generation & 0xffff) != tag_generation(tag)) return;
  Pending& p = s->pending[tag_seq(tag) % k_max_pending];
  p.timed = true;
  p.queue_wait = queue_wait;
  p.service = service;
  p.cache = cache;
}

bool Simulator::still_wanted(std::uint64_t tag) {
  const Socket* s = socket(tag_fd(tag));
  return s != nullptr && (s->generation & 0xffff) == tag_generation(tag);
}

void Simulator::flush(int fd, Socket& s) {
  // Responses leave in request order, as the lab's connection writes them.
  while (s.head_seq < s.next_seq) {
    Pending& p = s.pending[s.head_seq % k_max_pending];
    if (!p.ready) break;
    if (!p.control.empty()) {
      s.rx.append(p.control);
    } else if (!p.dropped && p.timed) {
      lab::append_with_server_timing(s.rx, m_responses.get(p.reply, p.close, p.head),
                                     {p.queue_wait, p.service, p.cache});
    } else if (!p.dropped) {
      s.rx.append(m_responses.get(p.reply, p.close, p.head));
    }
    if (p.close) s.eof = true;
    p = Pending{};
    ++s.head_seq;
  }
  mark(fd);
}

void Simulator::close(int fd) {
  Socket* s = socket(fd);
  if (s == nullptr) return;
  --m_counters.connections_open;
  s->open = false;
  s->registered = false;
  s->rx.clear();
  s->rx_offset = 0;
  m_free.push_back(fd);
}

}  // namespace openloop::sim

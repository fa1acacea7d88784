// The simulated world behind `openloop simulate`: a discrete-event loop on a virtual clock whose sockets
// carry the engine's HTTP requests to the lab's own service model and bring its responses back.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "http/request_parser.h"
#include "lab/auth_store.h"
#include "lab/model_config.h"
#include "lab/request_router.h"
#include "lab/responses.h"
#include "lab/server_counters.h"
#include "lab/service_model.h"
#include "net/event_loop.h"
#include "net/simulated_network.h"
#include "net/timer_queue.h"

namespace openloop::sim {

/// One lab service and the network to it, on virtual time. The engine's Worker runs on it through
/// net::EventLoop::simulated(*this): every connection it opens reaches the service at once (no network
/// delay, no TLS), every request it writes is parsed as the lab server parses it and routed by the lab's own
/// lab::RequestRouter: a data-plane request (deadline header, cache key from the target, a token under
/// --auth) is submitted to the same lab::ServiceModel at the virtual time it was written, and the model's
/// outcome comes back as the lab's response bytes (200/500/429/503/504) at the virtual time the model
/// completes it; the auth flow's /_lab/login and /_lab/orders (and GET /_lab/stats, /_lab/config) are
/// answered at once, as the lab answers them. The virtual clock jumps from event to event: nothing here reads
/// a real clock, so a run is a function of the plan, the lab configuration and their seeds. Single-threaded.
class Simulator final : public net::SimulatedNetwork,
                        private lab::ModelSink,
                        private lab::RouterHost,
                        private net::TimerHandler {
 public:
  /// `start` is the virtual time the world begins at (the model's time zero).
  Simulator(const lab::LabConfig& config, SteadyTime start);
  ~Simulator() override;
  Simulator(const Simulator&) = delete;
  Simulator& operator=(const Simulator&) = delete;

  const lab::ServiceModel& model() const { return *m_model; }
  /// Requests at one virtual instant beyond which the world is taken to be stuck (closed users answered in
  /// zero time).
  static constexpr std::uint64_t k_max_at_one_instant = 1'000'000;
  /// Past `max` requests received, or k_max_at_one_instant at one virtual instant, sets `stop` to an
  /// immediate stop (2) and limit_reached() to true.
  void limit_requests(std::uint64_t max, std::atomic<int>& stop) {
    m_request_limit = max;
    m_stop = &stop;
  }
  bool limit_reached() const { return m_limit_reached; }
  /// Requests the service received so far.
  std::uint64_t requests() const { return m_requests; }

  /// The service's configuration now (as GET /_lab/config would show it).
  const lab::LabConfig& config() const override { return m_config; }
  /// What the service's HTTP layer and auth flow counted (GET /_lab/stats "server" and "auth").
  const lab::ServerCounters& server_counters() const { return m_counters; }
  const lab::AuthCounters& auth_counters() const { return m_auth.counters(); }
  /// Replaces the service's configuration at the current virtual instant, as POST /_lab/config does on the
  /// lab server (lab::ServiceModel::configure: the seed is kept, a changed stall schedule re-applies).
  void reconfigure(const lab::LabConfig& config);
  /// The model's state now, as GET /_lab/stats reports it.
  lab::ModelSnapshot snapshot() { return m_model->snapshot(m_now); }
  /// Every wait that ends at its deadline (no event before it) ends `delay` after it instead, as an
  /// oversleeping epoll_wait does on a busy machine: the client's sends that were due then go out late by
  /// `delay`. For tests of the verdict's lateness rule on virtual time; 0 (the default) wakes exactly when
  /// due.
  void delay_wakeups(Nanos delay) { m_wake_delay = delay; }
  /// Calls `f` at the start of every poll() (empty: nothing): what must keep pace with the run's volume
  /// rather than with wall time, e.g. the request log's rings drained on this thread (a simulation fills
  /// them far faster than a writer thread polling every few milliseconds would empty them).
  void on_poll(std::function<void()> f) { m_on_poll = std::move(f); }
  /// Runs `f` once at virtual time `when` (at once on the next event if `when` has passed), in the order
  /// scheduled among actions due at one instant. `f` may call at() again (a periodic action).
  void at(SteadyTime when, std::function<void()> f);

  // net::SimulatedNetwork
  SteadyTime now() const override { return m_now; }
  void every(Nanos period, std::function<void()> f) override;
  int poll(SteadyTime deadline) override;
  bool add(int fd, std::uint32_t events, net::IoHandler* handler) override;
  bool modify(int fd, std::uint32_t events, net::IoHandler* handler) override;
  void remove(int fd) override;
  int connect(const net::Endpoint& ep) override;
  int connect_result(int fd) override;
  net::IoResult read(int fd, char* buf, std::size_t cap) override;
  net::IoResult write(int fd, const char* buf, std::size_t len) override;
  void close(int fd) override;

 private:
  static constexpr std::size_t k_max_pending =
      16;  // pipelined requests per connection (the engine sends one)
  struct Pending {
    lab::Reply reply = lab::Reply::ok;
    bool head = false;
    bool close = false;
    bool ready = false;
    bool dropped = false;
    bool timed = false;  // the model reported its queue wait and service: a Server-Timing header goes out
    Nanos queue_wait{0}, service{0};
    lab::CacheLookup cache = lab::CacheLookup::not_looked_up;
    std::string control;  // a whole answer of the router's (the auth flow, /_lab/*, 401): sent as it is
  };
  /// What the model takes from a data-plane request the router let through (kept for the same bytes again).
  struct ModelRequest {
    bool close = false, head = false;
    bool has_budget = false;  // the deadline header gave a budget
    Nanos budget{0};
    std::uint64_t key = 0;  // cache key: hash of the target (path and query)
  };
  struct Socket {
    bool open = false;
    bool registered = false;
    bool queued = false;  // on the ready list
    bool eof = false;     // the service closed its end after its last response
    bool stop_reading = false;
    std::uint32_t events = 0;
    net::IoHandler* handler = nullptr;
    std::uint32_t generation = 0;
    std::string rx;  // response bytes not yet read by the client
    std::size_t rx_offset = 0;
    std::unique_ptr<http::RequestParser> parser;
    std::array<Pending, k_max_pending> pending{};
    std::uint64_t head_seq = 0, next_seq = 0;
  };

  // lab::ModelSink
  void on_outcome(std::uint64_t tag, lab::Outcome outcome, SteadyTime at) override;
  void on_timing(std::uint64_t tag, Nanos queue_wait, Nanos service, lab::CacheLookup cache) override;
  bool still_wanted(std::uint64_t tag) override;
  // lab::RouterHost (now() and config() above)
  lab::ServerCounters& counters() override { return m_counters; }
  lab::AuthStore& auth() override { return m_auth; }
  void submit(SteadyTime now, const lab::Arrival& arrival) override { m_model->submit(now, arrival); }
  lab::ControlResponse control(std::string_view method, std::string_view target,
                               std::string_view body) override;
  // net::TimerHandler (the periodic callback)
  void on_timer(std::uint64_t cookie) override;

  Socket* socket(int fd);
  std::uint32_t readiness(const Socket& s) const;
  void mark(int fd);
  int dispatch_ready();
  /// Counts a request and takes it into `s`'s window of answers: false when it is not taken (the window is
  /// full, and the service closes the connection).
  bool admit(int fd, Socket& s, bool close);
  /// A whole request `s`'s parser has read, routed as the lab routes it; `whole`: its bytes when they were
  /// written in one piece at a request boundary (kept, for the same bytes again, when the model takes it).
  void receive_request(int fd, Socket& s, std::string_view whole);
  /// The same bytes as the last data-plane request kept: its parse again, without the parser.
  void receive_model_request(int fd, Socket& s, const ModelRequest& request);
  void flush(int fd, Socket& s);

  lab::LabConfig m_config;
  SteadyTime m_now;
  net::TimerQueue m_timers;
  lab::ResponseCatalog m_responses;
  std::unique_ptr<lab::ServiceModel> m_model;
  lab::ServerCounters m_counters;
  lab::AuthStore m_auth;
  lab::RequestRouter m_router;
  std::vector<Socket> m_sockets;
  std::vector<int> m_free;
  std::vector<int> m_ready, m_dispatching;
  bool m_dispatching_now = false;
  std::vector<std::function<void()>> m_actions;  // at(): indexed by the timer cookie's low bits
  std::function<void()> m_tick;
  std::function<void()> m_on_poll;
  Nanos m_tick_period{0};
  std::uint64_t m_tick_generation = 0;
  std::uint64_t m_requests = 0;
  std::string m_cached_bytes;  // the last whole data-plane request parsed, and what it said
  ModelRequest m_cached;
  bool m_cache_valid = false;
  Nanos m_wake_delay{0};
  std::uint64_t m_request_limit = UINT64_MAX;
  std::atomic<int>* m_stop = nullptr;
  bool m_limit_reached = false;
  SteadyTime m_instant{};
  std::uint64_t m_at_instant = 0;
};

}  // namespace openloop::sim

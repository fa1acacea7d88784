// The lab HTTP service: one event-loop thread that owns the listening socket, the connections and the model.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/error.h"
#include "lab/model_config.h"
#include "lab/protocol_sniffer.h"
#include "lab/responses.h"
#include "lab/served_connection.h"
#include "lab/server_counters.h"
#include "lab/service_model.h"
#include "net/event_loop.h"
#include "net/listen_socket.h"
#include "net/timer_queue.h"

namespace openloop::lab {

/// Serves HTTP/1.1, or with --http2 both HTTP/2 (h2c, prior knowledge) and HTTP/1.1 on the same port, chosen
/// per connection by its first bytes (protocol_sniffer.h), on one thread. Why one: the model is a
/// single shared queue and its capacity comes from its virtual workers, not from the CPU, so a second thread
/// would only add a lock or a hand-off around the queue; one epoll thread already serves far more requests
/// per second than a lab experiment needs (see bench/lab_vs_nginx.sh). With --burn the CPU work also runs on
/// this thread, so burn capacity is one core.
///
/// Data-plane requests go through the model; /_lab/stats and /_lab/config are answered at once, never
/// queued and never frozen. A stall freezes the model (no admission, dequeue or completion), while the
/// socket layer keeps accepting and parsing so that the control plane stays observable during a stall: a
/// client of the data plane cannot tell the difference, because the kernel accepts connections and buffers
/// requests for a frozen process too, and requests received during a stall are admitted only when it ends.
class Server final : public ConnectionHost,
                     public ModelSink,
                     private SniffSink,
                     private net::IoHandler,
                     private net::TimerHandler {
 public:
  /// Raises RLIMIT_NOFILE to its hard limit (many idle connections must not run the server out of fds),
  /// binds config.listen and builds the model with time zero = now. Errors: usage for a bad address,
  /// runtime when the socket or event loop cannot be set up.
  static Result<std::unique_ptr<Server>> create(LabConfig config, const Clock& clock);
  ~Server() override;
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// The bound address, e.g. "127.0.0.1:41234".
  const std::string& address() const { return m_listen.name(); }
  /// Serves on the calling thread until request_stop() or config.duration has passed; then closes
  /// every connection and returns.
  void run();
  /// Ends run() soon. Callable from any thread and from a signal handler.
  void request_stop();

  const ServerCounters& server_counters() const { return m_counters; }
  ServiceModel& model() { return *m_model; }

  // ConnectionHost
  net::EventLoop& loop() override { return m_loop; }
  net::TimerQueue& timers() override { return m_timers; }
  SteadyTime now() const override { return m_clock.now(); }
  const LabConfig& config() const override { return m_config; }
  const ResponseCatalog& responses() const override { return m_responses; }
  ServerCounters& counters() override { return m_counters; }
  AuthStore& auth() override { return m_auth; }
  void submit(SteadyTime now, const Arrival& arrival) override { m_model->submit(now, arrival); }
  ControlResponse control(std::string_view method, std::string_view target, std::string_view body) override;
  void on_closed(std::uint32_t slot) override;

  // ModelSink
  void on_outcome(std::uint64_t tag, Outcome outcome, SteadyTime at) override;
  void on_timing(std::uint64_t tag, Nanos queue_wait, Nanos service, CacheLookup cache) override;
  bool still_wanted(std::uint64_t tag) override;
  void burn(Nanos work) override;

 private:
  Server(LabConfig config, const Clock& clock, net::EventLoop loop, net::ListenSocket listen);
  void on_io(std::uint32_t events) override;  // the listening socket
  void on_timer(std::uint64_t cookie) override;
  void accept_all();
  void pause_accepting();
  void on_sniffed(std::uint32_t slot, int fd, FirstBytes kind) override;
  ControlResponse handle_config_post(std::string_view body);
  ServedConnection* connection_for(std::uint64_t tag);

  LabConfig m_config;
  const Clock& m_clock;
  net::EventLoop m_loop;
  net::TimerQueue m_timers;
  net::ListenSocket m_listen;
  ResponseCatalog m_responses;
  ServerCounters m_counters;
  AuthStore m_auth;
  std::unique_ptr<ServiceModel> m_model;
  /// One client connection's room. Without --http2 only `http1`; with it, the sniffer holds each new socket
  /// until its first bytes decide, and each protocol's object is made on first use.
  struct Slot {
    std::unique_ptr<ProtocolSniffer> sniffer;
    std::unique_ptr<ServedConnection> http1;
    std::unique_ptr<ServedConnection> http2;
    template <typename F>
    void for_each(F f) {
      if (http1) f(*http1);
      if (http2) f(*http2);
    }
    void close();
  };
  std::vector<Slot> m_slots;
  std::vector<std::uint32_t> m_free_slots;
  std::atomic<bool> m_stop{false};
};

}  // namespace openloop::lab

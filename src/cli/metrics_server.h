// `--metrics-listen ADDR`: an HTTP endpoint on a thread of its own serving the run's live state for
// Prometheus (GET /metrics), never on a worker's loop.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "core/error.h"
#include "lab/listen_socket.h"
#include "report/metrics_exposition.h"
#include "results/run_results.h"

namespace openloop::cli {

/// Binds at construction (start()), serves until destroyed. update() is called from the coordinator's
/// progress callback (once per finalized interval) and copies the few totals a scrape shows under a mutex; a
/// scrape renders from that copy on the server's thread. One connection at a time, each answered and closed
/// (a scraper reconnects every scrape); a client that sends nothing within 2 s is dropped.
class MetricsServer {
 public:
  /// Binds `address` ("127.0.0.1:9464"; port 0 = any free port). A bad address is a usage error naming
  /// --metrics-listen; a failure to bind (the port in use) a runtime error.
  static Result<std::unique_ptr<MetricsServer>> start(std::string_view address,
                                                      report::MetricsContext context);
  ~MetricsServer();
  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;

  void update(const results::RunResults& so_far);
  /// The address bound ("127.0.0.1:PORT").
  const std::string& address() const { return m_socket.name(); }

 private:
  MetricsServer(lab::ListenSocket socket, report::MetricsContext context, int wake_fd);
  void loop();
  void serve(int fd);

  lab::ListenSocket m_socket;
  report::MetricsContext m_context;
  int m_wake_fd = -1;
  std::atomic<bool> m_stop{false};
  std::mutex m_mutex;
  report::MetricsState m_state;  // guarded by m_mutex
  std::thread m_thread;
};

}  // namespace openloop::cli

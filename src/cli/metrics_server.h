// `--metrics-listen ADDR`: an HTTP endpoint on a thread of its own serving the run's live state for
// Prometheus (GET /metrics), never on a worker's loop.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/error.h"
#include "core/time.h"
#include "lab/listen_socket.h"
#include "report/live_view.h"
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
  /// The same for several parts served together (a plan file's scenarios), each with its own labels and
  /// state; at least one.
  static Result<std::unique_ptr<MetricsServer>> start(std::string_view address,
                                                      std::vector<report::MetricsContext> parts);
  ~MetricsServer();
  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;

  /// `final`: `so_far` is the finished run (its verdict is the run's own); otherwise the results so far,
  /// judged by the live view's bounds. Called by one thread at a time.
  void update(const results::RunResults& so_far, bool final = false, std::size_t part = 0);
  /// Keeps serving the last state for `d` after the run (--metrics-linger), for a scraper's last look; SIGINT
  /// or SIGTERM ends the wait at once (they are blocked on the server's thread and waited for here).
  void linger(Nanos d);
  /// The address bound ("127.0.0.1:PORT").
  const std::string& address() const { return m_socket.name(); }

 private:
  MetricsServer(lab::ListenSocket socket, std::vector<report::MetricsContext> parts, int wake_fd);
  void loop();
  void serve(int fd);

  lab::ListenSocket m_socket;
  std::vector<report::MetricsContext> m_contexts;  // one per part
  std::vector<report::LiveView> m_views;           // each part's verdict so far; touched by update() only
  int m_wake_fd = -1;
  std::atomic<bool> m_stop{false};
  std::mutex m_mutex;
  std::vector<report::MetricsState> m_states;  // one per part; guarded by m_mutex
  std::thread m_thread;
};

struct RunOptions;

/// --metrics-linger of `o`: a duration, refused (usage) without --metrics-listen.
Result<Nanos> parse_metrics_linger(const RunOptions& o);
/// The endpoint of --metrics-listen (nullptr without it), announced on stderr as `command`'s unless quiet.
Result<std::unique_ptr<MetricsServer>> start_metrics(const RunOptions& o,
                                                     std::vector<report::MetricsContext> parts,
                                                     const std::string& command);

}  // namespace openloop::cli

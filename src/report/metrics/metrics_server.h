// `--metrics-listen ADDR`: an HTTP endpoint on a thread of its own serving the run's live state for
// Prometheus (GET /metrics), never on a worker's loop.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/error.h"
#include "core/time.h"
#include "net/listen_socket.h"
#include "report/live_view.h"
#include "report/metrics/metrics_board.h"
#include "report/metrics/metrics_exposition.h"
#include "results/run_results.h"

namespace openloop::report {

/// Binds at construction (start()), serves until destroyed. update() is called from the coordinator's
/// progress callback (once per finalized interval): it copies the totals a scrape shows and publishes them as
/// an immutable snapshot (report::MetricsBoard); a scrape renders the latest snapshot on the server's thread,
/// with no lock the coordinator waits on, and never copies a histogram. One connection at a time, each answered and closed
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
  /// An endpoint whose state is not a run's (the lab's): `source` builds the families at each scrape, on the
  /// server's thread (series without histograms; its errors are its own to render, e.g. as a gauge).
  using FamilySource = std::function<std::vector<report::MetricFamily>()>;
  static Result<std::unique_ptr<MetricsServer>> start(std::string_view address, FamilySource source);
  ~MetricsServer();
  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;

  /// `final`: `so_far` is the finished run (its verdict is the run's own); otherwise the results so far,
  /// judged by the live view's bounds. Called by one thread at a time.
  void update(const results::RunResults& so_far, bool final = false, std::size_t part = 0);
  /// The same with the verdict given (a ramp's judged step: invalid when the step is INVALID).
  void update(const results::RunResults& so_far, report::MetricsState::Verdict verdict, std::size_t part);
  /// Adds a part served from now on (a ramp's step, a probe's phase: `context.extra_labels` say which); its
  /// series appear once update() has given it a state. Returns its index for update(). Called by the thread
  /// that calls update().
  std::size_t add_part(report::MetricsContext context);
  /// Families served beside the parts' (a ramp's current step, its capacity so far): gauges and counters
  /// only (no histograms), replacing the previous ones.
  void set_extra(std::vector<report::MetricFamily> families);
  /// Keeps serving the last state for `d` after the run (--metrics-linger), for a scraper's last look; SIGINT
  /// or SIGTERM ends the wait at once (they are blocked on the server's thread and waited for here).
  void linger(Nanos d);
  /// The address bound ("127.0.0.1:PORT").
  const std::string& address() const { return m_socket.name(); }

 private:
  MetricsServer(net::ListenSocket socket, std::vector<report::MetricsContext> parts, int wake_fd,
                FamilySource source = {});
  void loop();
  void serve(int fd);

  net::ListenSocket m_socket;
  std::vector<report::LiveView> m_views;  // each part's verdict so far; touched by update() only
  int m_wake_fd = -1;
  FamilySource m_source;  // set: the families come from it, not from the board
  std::atomic<bool> m_stop{false};
  // What the scrapes render: update() publishes a new snapshot, a scrape reads the latest without waiting.
  report::MetricsBoard m_board;
  std::thread m_thread;
};

}  // namespace openloop::report

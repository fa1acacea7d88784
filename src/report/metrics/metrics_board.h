// The live state a metrics endpoint serves, published by the run's side and read by the scrapes without a lock
// either side waits on: each change publishes a new immutable snapshot, a scrape renders the latest one.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "report/metrics/metric_families.h"
#include "report/metrics/metrics_exposition.h"

namespace openloop::report {

/// What one scrape renders: every part's labels and state, and the families served beside them. Immutable once
/// published; unchanged parts are shared with the previous snapshot, not copied.
struct MetricsSnapshot {
  struct Part {
    std::shared_ptr<const MetricsContext> context;
    std::shared_ptr<const MetricsState> state;  ///< state->updates == 0: nothing given yet
    bool added_later = false;                   ///< add_part()'s, not the board's initial parts
  };
  std::vector<Part> parts;
  std::shared_ptr<const std::vector<MetricFamily>> extra;  ///< gauges and counters only (never null)
  std::uint64_t version = 0;                               ///< publications before this one

  /// The families a scrape shows: `extra`'s, then each part's run_metric_families(), a part added later only
  /// once it has been given a state (a scrape in between would show a ramp step's counters at 0). The
  /// histograms point into this snapshot: it must outlive the families.
  std::vector<MetricFamily> families() const;
};

/// The latest MetricsSnapshot. Publishers (update, add_part, set_extra: the run's progress callback, a ramp's
/// step callback) serialize among themselves on a mutex of their own and build the next snapshot outside any
/// lock a reader takes; latest() only loads a pointer (std::atomic<std::shared_ptr>), so a scrape never waits
/// for a publisher's work, nor a publisher for a scrape, however long the scrape's rendering takes.
class MetricsBoard {
 public:
  explicit MetricsBoard(std::vector<MetricsContext> initial_parts = {});

  /// The latest snapshot (never null); it stays valid and unchanged while held, whatever is published after.
  std::shared_ptr<const MetricsSnapshot> latest() const { return m_latest.load(std::memory_order_acquire); }

  /// Part `part`'s state from now on (`state.updates` is set: the part's previous count + 1).
  void update(std::size_t part, MetricsState state);
  /// Adds a part (its series appear once update() has given it a state); returns its index.
  std::size_t add_part(MetricsContext context);
  /// Replaces the families served beside the parts'.
  void set_extra(std::vector<MetricFamily> families);

 private:
  void publish(MetricsSnapshot next);  // m_publish held
  std::mutex m_publish;                // publishers only; a reader never takes it
  std::atomic<std::shared_ptr<const MetricsSnapshot>> m_latest;
};

}  // namespace openloop::report

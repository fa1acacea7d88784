// Drives a LiveView from its own thread: redraws in place on a terminal every second, or logs a line every 10
// s.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <mutex>
#include <thread>

#include "core/time.h"
#include "report/live_view.h"

namespace openloop::report {

/// Starts a display thread at construction; stop() (or the destructor) ends it. On a terminal the view's two
/// lines are redrawn in place (ANSI cursor-up and erase-line) as soon as update() brings a newly finalized
/// interval (and every `period` when none comes), and erased at stop, so the
/// summary that follows starts on a clean screen. Elsewhere a plain line is written every `period` and at
/// once when the verdict so far turns INVALID. update() may be called from any thread (the coordinator's
/// ProgressFn).
class LiveTicker {
 public:
  /// `stop`, when given, is the run's stop request (1: interrupted, finishing in-flight requests; 2: stopping
  /// now): on a terminal the view shows it as a line of its own, so the caller's signal handling need not
  /// write between the redrawn lines (which would leave stale live lines above the summary).
  /// `observed`, when given, is called on the ticker's thread before each line is drawn (--observe: the
  /// sampler's latest values; never a worker's work).
  LiveTicker(LiveView view, std::FILE* out, bool terminal, Nanos period,
             const std::atomic<int>* stop = nullptr,
             std::function<std::vector<results::LatestObserved>()> observed = {});
  ~LiveTicker();
  LiveTicker(const LiveTicker&) = delete;
  LiveTicker& operator=(const LiveTicker&) = delete;

  /// Hands the results so far to the view (copies a few numbers under the lock); on a terminal they are drawn
  /// at once (the caller calls it once per finalized interval).
  void update(const results::RunResults& so_far);
  /// Stops the thread and erases the live lines (terminal). Idempotent.
  void stop();

 private:
  void loop();
  void draw(Nanos elapsed);  // with m_mutex held
  std::size_t terminal_width() const;

  LiveView m_view;
  std::FILE* m_out;
  bool m_terminal;
  Nanos m_period;
  const std::atomic<int>* m_stop;
  std::function<std::vector<results::LatestObserved>()> m_observed;
  SteadyTime m_start;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  bool m_stopping = false;
  bool m_turned_invalid = false;  // plain mode: report a verdict change at once
  bool m_told_invalid = false;    // ... once: a verdict so far that flips back and forth is not news each time
  bool m_fresh = false;           // terminal: update() brought results not drawn yet
  std::size_t m_drawn_lines = 0;
  std::thread m_thread;
};

}  // namespace openloop::report

// The sampler: a thread of its own that reads every source every 100 ms (endpoints every second) and keeps
// each signal's timed readings; never on a worker's loop.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "observe/series.h"
#include "observe/source.h"
#include "results/recording/observed.h"

namespace openloop::observe {

class Sampler {
 public:
  explicit Sampler(std::vector<std::unique_ptr<Source>> sources,
                   std::chrono::milliseconds period = std::chrono::milliseconds(100));
  ~Sampler();
  Sampler(const Sampler&) = delete;
  Sampler& operator=(const Sampler&) = delete;

  /// Starts the thread (at nice 19 like the coordinator: it must not delay a worker's sends); it opens every
  /// source, then samples at once and every period after.
  void start();
  /// Stops and joins the thread (idempotent). The results below are read after it.
  void stop();
  /// Runs one round on the calling thread (tests: no thread, no sleeping). `unix_s` stamps the readings.
  void sample_once(double unix_s);
  /// Opens every source on the calling thread (tests); start() does it on the sampler's.
  void open_all();

  const std::vector<Series>& series() const { return m_series; }
  /// The main signals' latest values for the live view, from the readings so far (any thread; the sampler's
  /// lock is held while they are computed, never by a worker): each process's CPU of its allowed cores and
  /// run-queue wait, the host's and a cgroup's CPU, the generator's own CPU. Counters as their rate over
  /// the last `window`; a signal without readings that far back is left out.
  std::vector<results::LatestObserved> latest(
      std::chrono::milliseconds window = std::chrono::seconds(1)) const;
  /// One sentence per source that failed to open, failed samples or went away.
  std::vector<std::string> warnings() const;
  const results::SamplerStats& stats() const { return m_stats; }
  /// The SPECs, in order.
  std::vector<std::string> specs() const;

 private:
  struct Slot {
    std::unique_ptr<Source> source;
    bool enabled = true;
    bool opened = false;
    std::chrono::steady_clock::time_point next_due{};
    std::uint64_t samples = 0, failures = 0;
    std::string first_failure, open_failure;
    bool went_away = false;
  };
  void loop();
  void sample_slot(Slot& slot, double unix_s, std::vector<Reading>& scratch);

  std::vector<Slot> m_slots;
  std::chrono::milliseconds m_period;
  std::vector<Series> m_series;
  std::vector<std::vector<std::pair<std::string, std::size_t>>> m_index;  ///< per slot: name → series
  results::SamplerStats m_stats;
  std::thread m_thread;
  std::mutex m_mutex;
  mutable std::mutex m_series_mutex;  ///< m_series while the thread samples and latest() reads
  std::condition_variable m_wake;
  bool m_stop = false;
};

}  // namespace openloop::observe

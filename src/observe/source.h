// One thing --observe samples (a process, the host, a cgroup, the lab, a metrics endpoint, openloop itself):
// what its readings mean, and the interface the sampler calls.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "core/error.h"
#include "results/recording/observed.h"

namespace openloop::observe {

/// How readings of a signal become one value per interval.
enum class Kind {
  counter,     ///< cumulative: the interval's value is its rate (increase / length; a decrease counts as 0)
  gauge,       ///< a level: the interval's value is the mean of its samples
  bucket,      ///< a cumulative histogram bucket (Prometheus `le`): quantiles of the family per interval
  per_thread,  ///< a counter of one of several threads: the interval's value is the largest rate among them
};

/// What a signal is. Sources keep these in storage that outlives the sampler's run (static tables or
/// node-based maps), and readings point at them.
struct SignalMeta {
  Kind kind = Kind::gauge;
  std::string unit;  ///< of the interval's value: "cores", "share", "/s", "bytes", "count", "s"
  results::SignalRole role = results::SignalRole::other;
  std::string label;  ///< a few words for people
  /// bucket: the histogram family's name; per_thread: the name of the derived column (its largest rate).
  std::string group;
  double le = 0;  ///< bucket: its upper bound (+inf for the last)
};

/// One reading of one signal at one sample.
struct Reading {
  std::string name;
  double value = 0;
  const SignalMeta* meta = nullptr;
};

/// A source of readings. Not thread-safe: the sampler's thread alone calls it once started.
class Source {
 public:
  explicit Source(std::string spec) : m_spec(std::move(spec)) {}
  virtual ~Source() = default;
  Source(const Source&) = delete;
  Source& operator=(const Source&) = delete;

  /// The SPEC as given ("pid:123", "host").
  const std::string& spec() const { return m_spec; }
  /// Once, before the first sample: finds what the source needs (a process by name, a cgroup's files).
  /// Errors (runtime) are warnings in the results; the source is then not sampled.
  virtual Result<void> open() { return {}; }
  /// One sample: appends a reading per signal. An error (runtime: the process exited, the endpoint did
  /// not answer) is one failed sample; `gone()` says whether to stop sampling the source.
  virtual Result<void> sample(std::vector<Reading>& out) = 0;
  /// True once the source can never answer again (its process exited).
  virtual bool gone() const { return false; }
  /// Time between two samples of this source: /proc and /sys every sampler tick; endpoints over the
  /// network less often, so the target is not loaded by being watched.
  virtual std::chrono::milliseconds period() const { return std::chrono::milliseconds(100); }

 private:
  std::string m_spec;
};

}  // namespace openloop::observe

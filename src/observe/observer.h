// --observe: the SPECs parsed into sources, the sampler run beside the load, and its signals attached to a
// run's results, one value per latency interval.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "observe/proc_context.h"
#include "observe/sampler.h"
#include "results/run_results.h"

namespace openloop::observe {

/// The forms --observe accepts, for messages: "pid:N, process:NAME, host, cgroup:PATH, ...".
extern const char* const k_accepted_specs;

/// One SPEC as a source. `target_url`: the run's target (`lab` alone reads its control endpoint). Errors
/// (usage): an unknown form, a PID that is not a positive integer, an empty NAME or PATH, a URL that is not
/// plain http; each names the SPEC and lists the accepted forms.
Result<std::unique_ptr<Source>> make_source(std::string_view spec, std::string_view target_url,
                                            const ProcContext& ctx);

class Observer {
 public:
  /// Every SPEC as a source, plus `self` (openloop's own USE signals) unless given. No SPEC: null (nothing
  /// to observe). Errors as make_source().
  static Result<std::unique_ptr<Observer>> create(const std::vector<std::string>& specs,
                                                  std::string_view target_url,
                                                  const ProcContext& ctx = ProcContext::system());
  /// Starts sampling (a thread of its own).
  void start() { m_sampler.start(); }
  /// Stops sampling; idempotent.
  void stop() { m_sampler.stop(); }
  /// Fills r.observed and every r.intervals[i].observed (the interval [start_unix_s + start_s, + length_s)),
  /// and adds the sampler's warnings to r.warnings. Call after stop(). A run without a wall-clock start
  /// gets a warning instead.
  void attach(results::RunResults& r) const;
  const Sampler& sampler() const { return m_sampler; }
  Sampler& sampler() { return m_sampler; }

 private:
  explicit Observer(std::vector<std::unique_ptr<Source>> sources) : m_sampler(std::move(sources)) {}
  Sampler m_sampler;
};

/// Interval windows of `r` in Unix seconds (empty without a wall-clock start).
std::vector<Window> interval_windows(const results::RunResults& r);
/// Attaches aligned signals to `r` (what Observer::attach does once the series are known; for tests).
void attach_series(results::RunResults& r, const std::vector<std::string>& specs,
                   const std::vector<Series>& series, const results::SamplerStats& stats,
                   const std::vector<std::string>& warnings);

}  // namespace openloop::observe

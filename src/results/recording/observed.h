// What --observe saw of the target and the generator, per interval: the columns (signals) and their values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"

namespace openloop::results {

/// What a signal says in the USE method's terms, for the ramp's naming of what saturated at the knee.
enum class SignalRole {
  utilization,  ///< a share of a resource's capacity (1.0 = all of it), e.g. CPU of the allowed cores
  saturation,   ///< work waiting for a resource (run-queue wait, throttling, pressure, a queue's length)
  errors,       ///< events that mean a resource refused work (listen overflows, resets, shed requests)
  other,        ///< context (RSS, threads, a rate from a metrics endpoint)
};
/// "utilization", "saturation", "errors", "other".
const char* to_string(SignalRole r);
/// The inverse of to_string; `other` for anything else.
SignalRole parse_signal_role(std::string_view text);

/// One observed signal: a column of every interval's `observed` values.
struct ObservedSignal {
  std::string source;  ///< the --observe SPEC that produced it ("pid:123", "host", "self", ...)
  std::string name;    ///< within the source: "cpu", "runq_wait", "ListenOverflows", a metric's series
  std::string unit;    ///< "cores", "share", "/s", "bytes", "count", "s"
  SignalRole role = SignalRole::other;
  std::string label;  ///< a few words for people: "CPU of one core", "run-queue wait"
};

/// A signal's latest value while the run goes on (the live view): the rate over the last second for a
/// counter, the last reading for a gauge.
struct LatestObserved {
  std::string source, name, label, unit;
  double value = 0;
};

/// The sampler's own cost and reach.
struct SamplerStats {
  double period_s = 0.1;      ///< time between samples
  std::uint64_t samples = 0;  ///< rounds of sampling taken
  double cpu_s = 0;           ///< the sampler thread's own CPU time
  double wall_s = 0;          ///< how long it sampled
  double cpu_share() const { return wall_s > 0 ? cpu_s / wall_s : 0.0; }  ///< of one core
};

/// The observed signals of a run. Interval values live in IntervalResult::observed, one per signal (NaN: no
/// sample covered the interval, e.g. a process that had exited).
struct Observed {
  std::vector<std::string> sources;  ///< the SPECs as given, in order
  std::vector<ObservedSignal> signals;
  SamplerStats sampler;
  /// Set by `openloop merge`: what it did with the inputs' observations (each kept under its shard's or
  /// file's label, nothing summed); empty for a run's own results.
  std::string merged;
  bool empty() const { return sources.empty(); }
  /// The column of `source`/`name`, if observed.
  std::optional<std::size_t> find(std::string_view source, std::string_view name) const;
};

/// True for the generator's own source: "self", or "self [LABEL]" in merged results.
bool is_self_source(std::string_view source);
/// A source as `openloop merge` labels it: "SPEC [LABEL]" (e.g. "host [shard 1/2]", "self [b.json]").
std::string labelled_source(std::string_view spec, std::string_view label);

/// One signal over the measured period: mean and max of the intervals that have a value (NaN: none).
struct ObservedSummary {
  double mean = 0, max = 0;
  std::size_t intervals = 0;  ///< intervals with a value
};
/// The summary of column `column` over `values[i][column]` for every interval i.
ObservedSummary summarize_column(const std::vector<std::vector<double>>& values, std::size_t column);

/// `summary.observed` of the results file: sources, sampler, each signal with unit, role, mean and max.
nlohmann::json observed_summary_json(const Observed& o, const std::vector<std::vector<double>>& values);
/// `intervals[i].observed`: {source: {name: value or null}}.
nlohmann::json observed_interval_json(const Observed& o, const std::vector<double>& values);
/// Reads `summary.observed` back (signals, sources, sampler); errors (usage) name the field.
Result<Observed> observed_from_json(const nlohmann::json& summary_observed);
/// Reads `intervals[i].observed` back into one value per signal of `o` (NaN where absent or null).
Result<std::vector<double>> observed_values_from_json(const Observed& o,
                                                      const nlohmann::json& interval_observed);

}  // namespace openloop::results

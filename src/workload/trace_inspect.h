// What a trace holds, read once as a stream: its span and rate over time, how bursty it is, the endpoint mix
// with ids normalised, payload sizes and the status mix (`openloop trace inspect`).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "workload/trace_reader.h"

namespace openloop::workload {

/// Sizes in powers of two: bucket k counts sizes in [2^(k-1), 2^k) (bucket 0: size 0). Percentiles are a
/// bucket's upper bound: within a factor of two, which is what a payload mix needs.
struct SizeSpread {
  std::uint64_t count = 0;
  std::uint64_t total = 0;
  std::uint64_t max = 0;
  std::array<std::uint64_t, 65> buckets{};

  void add(std::uint64_t bytes);
  /// The upper bound of the bucket holding quantile q (0 < q ≤ 1); 0 when empty.
  std::uint64_t quantile_bound(double q) const;
};

/// The endpoint mix keeps this many distinct endpoints; the rest are counted together.
inline constexpr std::size_t k_max_endpoints = 10000;
/// The rate series keeps this many distinct seconds (11.5 days); later seconds are counted as beyond it.
inline constexpr std::size_t k_max_seconds = 1'000'000;

/// A trace's shape.
struct TraceProfile {
  std::uint64_t records = 0;
  Nanos first{0}, last{0};                           ///< the earliest and latest stamps
  std::map<std::int64_t, std::uint64_t> per_second;  ///< records per whole second of the trace's clock
  std::uint64_t seconds_beyond = 0;                  ///< records of seconds past k_max_seconds distinct ones
  std::map<std::string, std::uint64_t> endpoints;    ///< "METHOD /path/{n}" → records
  std::uint64_t other_endpoints = 0;                 ///< records of endpoints past k_max_endpoints
  SizeSpread request_bodies, response_bodies;        ///< response_bodies: only records that logged one
  std::map<int, std::uint64_t> statuses;             ///< only records that logged one
  bool spreads_seconds = false;

  /// Seconds from the first to the last stamp.
  double span_s() const;
  /// Records per second over every second from the first to the last (empty seconds count as 0).
  std::vector<std::uint64_t> rate_series() const;
  /// The index of dispersion of the per-second counts (variance / mean over rate_series()): about 1 for
  /// Poisson arrivals, below 1 for evenly paced ones, above for bursts. 0 with fewer than two seconds.
  double dispersion() const;
};

/// A path with its query dropped and each segment that is an id replaced by a placeholder: digits → {n},
/// a UUID → {uuid}, 16 or more hex digits (with at least one digit) → {hex}, other mixes of letters and
/// digits of 20 or more characters → {id}.
std::string normalise_path(std::string_view target);

/// Adds one record to `p` (what inspect_trace() does per record; the caller sets spreads_seconds at the end).
/// `scratch` is left holding the record's endpoint ("GET /item/{n}").
void add_to_profile(TraceProfile& p, const TraceRecord& r, std::string& scratch);
/// Reads every record of `reader` into a profile. Errors: the reader's.
Result<TraceProfile> inspect_trace(TraceReader& reader);

/// The profile as text for people: `name` and the lines above, the rate over time in at most `rows` rows.
std::string render_profile_text(const TraceProfile& p, std::string_view name, std::size_t rows = 30);
/// The profile as JSON (openloop.trace-inspect/1): every number above, the whole per-second series.
nlohmann::json profile_json(const TraceProfile& p, std::string_view name);

}  // namespace openloop::workload

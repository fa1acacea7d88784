// Reading a response's Server-Timing header (W3C Server Timing): the server's own account of its time.
#pragma once

#include <cstdint>
#include <string_view>

#include "core/time.h"

namespace openloop::http {

/// What one Server-Timing header value said.
struct ServerTimingValue {
  enum class Status : std::uint8_t {
    valid,        ///< parsed, and a duration was found (the selected metric's, or at least one metric's)
    no_duration,  ///< well-formed, but no metric (or not the selected one) carries `dur`
    malformed,    ///< not the header's grammar (or a negative / non-numeric dur): ignored
  };
  /// What a `cache` metric's `desc` said about a cache in front of the work (`cache;desc=hit`, the convention
  /// CDNs and the lab follow): hit or stale → hit; miss, expired or bypass → miss; off or none → the server has
  /// no cache (the lab without --cache says so); anything else, or no such metric → unsaid.
  enum class Cache : std::uint8_t { unsaid, off, hit, miss };
  Status status = Status::no_duration;
  Nanos duration{0};  ///< valid: the selected metric's dur, or the sum of every metric's dur
  Cache cache = Cache::unsaid;
};

/// Parses one Server-Timing field value, e.g. `queue;dur=0.4, app;dur=12.3;desc="GET /x"`. Metrics are
/// comma-separated: a name (token), then `;param[=token or quoted-string]` parameters; `dur` is in
/// milliseconds (a non-negative decimal, fractions allowed). With an empty `metric` the result is the sum of
/// the durations of every metric that carries one (the server's total reported time, for servers that
/// report disjoint parts); otherwise the dur of the first metric named `metric` (case-insensitive). The first
/// metric named `cache` (or `cdn-cache`) with a `desc` sets `cache`, whatever its dur.
/// Allocation-free and never throws; any input is safe.
ServerTimingValue parse_server_timing(std::string_view value, std::string_view metric = {});

}  // namespace openloop::http

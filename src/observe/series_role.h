// What a Prometheus/OpenMetrics series measures, inferred from its type, family name and labels: utilisation,
// a queue (waiting, pending, backlog, pressure), work in flight, errors, or nothing to judge at a knee.
#pragma once

#include <string>
#include <string_view>

#include "observe/prometheus_text.h"
#include "results/recording/observed.h"

namespace openloop::observe {

/// A series' role, finer than the results' SignalRole: the word a knee sentence names it by.
enum class SeriesRole : unsigned char {
  utilisation,  ///< a share of a resource in use (a gauge named *utilization*, *utilisation*, *_busy_ratio)
  queue,        ///< work waiting for a resource: *queue*, *waiting*, *pending*, *backlog*, *pressure*, *saturation*
  in_flight,    ///< work being served (*in_flight*, *inflight*, *active*, *current_sessions*): grows with load
  errors,       ///< a counter of failures (*error*, *fail*, *denied*, *refused*, *reject*, *timeout*, *drop*,
                ///< *shed*, *abort*), or of responses with a 5xx status label (code="5xx", status="503")
  other,
};

/// "utilisation", "queue", "in flight", "errors", "other".
const char* to_string(SeriesRole r);

/// The role of the series `name` (as written, e.g. "haproxy_backend_current_queue") in `family` with `labels`
/// (canonical `{a="x"}`, MetricSample::labels) of `type`. Counters (and untyped *_total) are only ever errors
/// or other; a gauge with "percent" in its name is not a utilisation share (its scale is 0–100).
SeriesRole series_role(std::string_view name, std::string_view labels, MetricType type);

/// How the sampler and the knee judge a role: utilisation → utilization, queue → saturation, errors →
/// errors; in flight and other → other (work in flight rises with the offered load itself, so its rise alone
/// does not say a resource was full).
results::SignalRole signal_role(SeriesRole r);

}  // namespace openloop::observe

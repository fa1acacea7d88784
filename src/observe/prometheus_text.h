// The Prometheus text exposition format (0.0.4) and OpenMetrics text, parsed into typed samples.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace openloop::observe {

/// What a family's TYPE line says (OpenMetrics' unknown, info and stateset read as untyped).
enum class MetricType { counter, gauge, histogram, summary, untyped };

/// One sample line.
struct MetricSample {
  std::string family;  ///< the family it belongs to (name without _total, _bucket, _count, _sum, _created)
  std::string name;    ///< as written: "http_requests_total"
  std::string labels;  ///< canonical `{a="x",b="y"}` without `le`; empty when there are none
  MetricType type = MetricType::untyped;
  double value = 0;
  bool has_le = false;  ///< a histogram bucket: `le` holds its bound (+Inf as infinity)
  double le = 0;
};

/// Parses the whole exposition. Comments other than TYPE are skipped, as are `_created` samples and
/// timestamps. Errors (runtime) name the line number and what was expected.
Result<std::vector<MetricSample>> parse_metrics(std::string_view text);

}  // namespace openloop::observe

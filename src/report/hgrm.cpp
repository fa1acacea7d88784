// .hgrm rendering: HistogramLogProcessor's accumulation and StartTime line over hdr::percentile_distribution.
#include "report/hgrm.h"

#include <chrono>
#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "hdr/interval_log.h"
#include "hdr/percentile_output.h"
#include "report/hlog_export.h"

namespace openloop::report {
namespace {

// The start HistogramLogProcessor prints: the log's StartTime, or the run's wall-clock start (millisecond
// precision, as the .hlog writer stores it).
std::optional<double> start_seconds(const ReportInput& in) {
  if (in.log) return in.log->start_time_seconds;
  if (in.results.info.start_unix_s > 0) return in.results.info.start_unix_s;
  return std::nullopt;
}

}  // namespace

Result<std::string> render_hgrm(const ReportInput& in, const HgrmOptions& options) {
  if (options.ticks_per_half_distance < 1) {
    return usage_error(
        fmt::format("--ticks-per-half: {} must be at least 1", options.ticks_per_half_distance));
  }
  if (!(options.value_unit_ratio > 0) || !std::isfinite(options.value_unit_ratio)) {
    return usage_error(fmt::format("--unit-ratio: {} must be a positive number, e.g. 1e6 for ms from ns",
                                   options.value_unit_ratio));
  }
  const std::vector<hdr::Histogram> intervals = OPENLOOP_TRY(interval_histograms(in, options.tag));
  std::string out;
  if (const auto start = start_seconds(in)) {
    std::ostringstream line;
    hdr::IntervalLogWriter(line).write_start_time(wall_clock_ms(*start));
    out = line.str();
  }
  if (intervals.empty()) return out;
  hdr::Histogram accumulated = intervals.front();
  accumulated.reset();
  accumulated.set_auto_resize(true);
  for (const hdr::Histogram& h : intervals) accumulated.add(h);
  out +=
      hdr::percentile_distribution(accumulated, {.ticks_per_half_distance = options.ticks_per_half_distance,
                                                 .value_unit_scaling_ratio = options.value_unit_ratio,
                                                 .csv = false});
  return out;
}

}  // namespace openloop::report

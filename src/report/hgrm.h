// The percentile spectrum of a report input (.hgrm), byte-identical to what Java's HistogramLogProcessor
// prints.
#pragma once

#include <string>

#include "core/error.h"
#include "report/report_input.h"

namespace openloop::report {

struct HgrmOptions {
  std::string tag =
      "response_time";  ///< which histogram: response_time | service_time | send_lateness, or an .hlog tag
  int ticks_per_half_distance = 5;  ///< ≥ 1 (Java's percentileTicksPerHalfDistance)
  double value_unit_ratio = 1e6;    ///< values (ns) are divided by this: 1e6 prints milliseconds
};

/// Accumulates the tag's interval histograms as HistogramLogProcessor does (a reset, auto-resizing copy of
/// the first one's layout, every interval added in order) and prints `#[StartTime: ...]` (when the start is
/// known) followed by the .hgrm text of hdr::percentile_distribution. For the same intervals this equals
/// `java org.HdrHistogram.HistogramLogProcessor -i run.hlog -tag TAG -outputValueUnitRatio RATIO` byte for
/// byte. Errors (usage): unknown tag, undecodable histogram, bad options.
Result<std::string> render_hgrm(const ReportInput& in, const HgrmOptions& options = {});

}  // namespace openloop::report

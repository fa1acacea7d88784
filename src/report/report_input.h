// What a report renders: a run's results file, or an HdrHistogram interval log (.hlog) from openloop or
// another tool.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"
#include "hdr/interval_log.h"
#include "results/run_results.h"

namespace openloop::report {

/// The histogram tags openloop writes, in the order each interval's lines appear in its .hlog.
inline constexpr const char* k_latency_tags[] = {"response_time", "service_time", "send_lateness"};

/// A loaded input. From a results file everything is known (a scenario file's scenarios are in
/// results.scenarios, the per-request breakdown in results.by_request). From an .hlog only latencies are:
/// `results` then holds one interval per distinct start time with the histograms of the known tags (an
/// untagged line counts as response_time), counters are zero, and `has_counts` is false; `log` keeps every
/// line for `--format hgrm --tag`.
struct ReportInput {
  std::string source;  ///< the file, as named on the command line
  results::RunResults results;
  bool has_counts = true;
  std::optional<hdr::IntervalLog> log;
  nlohmann::json document;  ///< a results file as read, re-emitted verbatim by `report --format json`
};

/// Loads `path`: a results JSON when its first non-blank character is '{', otherwise an .hlog.
/// Errors (usage) name the file and the line (hlog, malformed JSON) or the JSON path of the bad value.
Result<ReportInput> load_report_input(const std::string& path);

/// Builds a ReportInput from a parsed .hlog (see ReportInput). Errors (usage) name `source` and the line of
/// an interval whose histogram cannot be summed.
Result<ReportInput> from_interval_log(hdr::IntervalLog log, std::string source);

/// The histograms of one tag in interval order: decoded from a results file's intervals, or the lines of an
/// .hlog carrying that tag ("" = untagged lines). Errors (usage) for an unknown tag name the tags that exist.
Result<std::vector<hdr::Histogram>> interval_histograms(const ReportInput& in, std::string_view tag);

}  // namespace openloop::report

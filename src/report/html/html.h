// The HTML report: one self-contained page (uPlot, data, script and style inline) that opens offline.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "report/report_input.h"

namespace openloop::report {

/// The whole page. At the top the verdict and its reasons, the SLOs (if any), the headline numbers, a
/// scenario file's scenarios side by side (each with its requests), the plan, outcomes and latency tables,
/// the run's requests side by side, the sessions (partly-open models); then four charts (per-interval
/// response-time percentiles with offered and sent rates; throughput vs goodput; outcomes per interval; the
/// percentile spectrum of response and service time on a 1/(1−p) axis), each with a caption for readers new
/// to HdrHistogram. For an .hlog input the count-based parts say they are absent and the throughput and
/// outcome charts are left out. A Content-Security-Policy forbids every network request; once every chart has
/// drawn, the root element carries data-charts-drawn="N" (N = data-charts-expected), and any script error is
/// recorded in data-errors (both for automated checks).
std::string render_html(const ReportInput& in);

/// What a procedure (ramp, probe) adds to the page it builds on a run's report: a title replacing "Load test
/// report", HTML placed first in <main>, and a script run after uPlot and the report's own script. Both are
/// trusted: the procedure builds and escapes them. Charts they add must not use the class "plot" (the
/// report's script counts those for data-charts-drawn).
struct HtmlExtras {
  std::string title;
  std::string lead_html;
  std::string script;
};
/// render_html() with `extras`.
std::string render_html(const ReportInput& in, const HtmlExtras& extras);

/// The data the page's script draws, embedded as JSON (exposed for tests): "t" (interval starts, s), "len",
/// "rt" {p50, p90, p99, max} (ms, null for intervals without samples), "rate" {offered, sent} or {recorded}
/// (/s), "throughput", "goodput" (/s), "outcomes" {ok, bad_status, errors, timeouts, dropped, unfinished}
/// (counts), "spectrum" {x = 1/(1−p), response, service (ms), gap (co_gap())}, "has_counts", "model".
nlohmann::json chart_data(const ReportInput& in);

/// Smallest response/service ratio the spectrum chart labels as a coordinated-omission gap.
inline constexpr double k_co_gap_min_ratio = 1.5;
/// The coordinated-omission gap worth labelling on the spectrum chart: at p99 or p99.9 (the percentiles that
/// matter; p99.9 only with 1,000 samples or more), the one where response time / service time is largest,
/// when that ratio exceeds k_co_gap_min_ratio and the difference exceeds the send lateness a valid
/// generator may have on its own (results::lateness_bound_ms). Open model only. An object {percentile, x =
/// 1/(1−p), ratio, response_ms, service_ms, own_lateness_ms}, or null: nothing to say.
nlohmann::json co_gap(const results::RunResults& r);

}  // namespace openloop::report

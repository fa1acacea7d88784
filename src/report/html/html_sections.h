// The HTML report's server-rendered sections (verdict, headline numbers, plan, outcomes, latency table).
#pragma once

#include <string>
#include <string_view>

#include "report/report_input.h"

namespace openloop::report::html {

/// The verdict banner: VALID / INVALID with every reason, interrupted and closed-model notes; "no verdict"
/// for .hlog.
std::string verdict_section(const ReportInput& in);
/// The SLO table (objective, measured, threshold, met or failed) and whether --abort-on-slo stopped the run;
/// empty when the run had no SLOs.
std::string slo_section(const ReportInput& in);
/// Headline tiles: offered, sent, goodput, response-time p99 and max, share of requests not ok.
std::string headline_section(const ReportInput& in);
/// The plan (every option of the run; for a scenario file, the first scenario's) and the outcome counts, side
/// by side.
std::string plan_and_outcomes_section(const ReportInput& in);
/// Percentiles of response time, service time and send lateness, with a caption defining each.
std::string latency_section(const ReportInput& in);
/// Per-phase timings (connect, TLS, first byte, body) of attempts on new and on reused connections, with the
/// one DNS resolution and the per-request log's counts; empty when the results hold no phases.
std::string phases_section(const ReportInput& in);
/// Server-Timing: server-reported time and time outside the server (empty when no response carried it).
std::string server_timing_section(const ReportInput& in);

}  // namespace openloop::report::html

// The interval series as CSV: one row per interval and scope, named columns, for spreadsheets and plotting
// tools.
#pragma once

#include <string>

#include "report/report_input.h"

namespace openloop::report {

/// Header row then, per scope, one row per interval and one for the whole measured period ("all" in the
/// interval column). Columns: scope, interval, start_unix_s (empty when unknown), start_s, length_s; from a
/// results file the counts (intended, sent, completed, ok, timeouts, errors, dropped, unfinished) and rates
/// (offered_rps, sent_rps, throughput_rps, goodput_rps); then for each latency (response_time, service_time,
/// send_lateness; from an .hlog only those it holds) <name>_count and
/// <name>_{p50,p90,p99,p999,p9999,max,mean}_ms. Scopes, in order: "total" (the run; for a scenario file the
/// scenarios combined), "request:<name>" for each request the run sent when it keeps a per-request
/// breakdown, then for each scenario "scenario:<name>" and its "scenario:<name>/request:<name>". A request's
/// interval rows have counts only (its latencies are kept for the whole period: response and service time on
/// its "all" row). Latencies are milliseconds; a count of 0 leaves the latencies empty, an unknown count
/// leaves every latency cell empty. Scenario rows start from the scenario's own start (start_unix_s is
/// absolute). Lines end with "\n"; a scope with a comma or quote is quoted (RFC 4180).
std::string render_csv(const ReportInput& in);

}  // namespace openloop::report

// The interval series as CSV: one row per interval, named columns, for spreadsheets and plotting tools.
#pragma once

#include <string>

#include "report/report_input.h"

namespace openloop::report {

/// Header row then one row per interval. Columns: interval, start_unix_s (empty when unknown), start_s,
/// length_s; from a results file the counts (intended, sent, completed, ok, timeouts, errors, dropped,
/// unfinished) and rates (offered_rps, sent_rps, throughput_rps, goodput_rps); then for each latency
/// (response_time, service_time, send_lateness; from an .hlog only those it holds) <name>_count and
/// <name>_{p50,p90,p99,p999,p9999,max,mean}_ms. Latencies are milliseconds; an interval without samples
/// leaves them empty. Lines end with "\n".
std::string render_csv(const ReportInput& in);

}  // namespace openloop::report

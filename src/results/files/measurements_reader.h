// Reading a results file's measurements (counts, flows, intervals with their histograms, the per-request
// breakdown, the connection phases): the parts of parse_results() that rebuild what RunResults::add adds up.
// Internal to results/files/results_reader.cpp; every error names the reader's source and the JSON path.
#pragma once

#include "core/error.h"
#include "results/json_reader.h"
#include "results/run_results.h"

namespace openloop::results {

/// A "counts" object: every count, the errors by kind adding up to `errors`, conservation (intended =
/// completed
/// + timeouts + errors + dropped + unfinished) and ok ≤ completed ≤ sent ≤ intended; refused otherwise.
Result<Counters> read_counters(const JsonReader& rd, const JsonNode& counts);
/// read_counters() of obj["counts"] (required).
Result<Counters> counts_at(const JsonReader& rd, const JsonNode& obj);
/// Users and sessions (closed, pacing and sessions models); every field optional (0).
Result<FlowCounters> read_flows(const JsonReader& rd, const JsonNode& flows);
/// The outcome counts a total and the sum of its parts must agree on (intended, sent, completed, ok,
/// timeouts, errors, dropped, unfinished).
bool same_outcomes(const Counters& a, const Counters& b);
/// root["intervals"] into r.intervals, each interval's histograms decoded and added into r's totals; the
/// intervals must start in increasing order and add up to r.totals (read before).
Result<void> read_intervals(const JsonReader& rd, const JsonNode& root, RunResults& r);
/// "summary.by_request" and "intervals[].by_request": totals in the plan's request order (r.info.plan read
/// before), each interval's counts, which must add up to the totals. Requests absent from an interval count
/// zero there; a breakdown written before per-request histograms were kept is left out.
Result<void> read_by_request(const JsonReader& rd, const JsonNode& root, RunResults& r);
/// "summary.phases" (absent in files written before phases were timed): the histograms are the data, the
/// summaries are derived from them again.
Result<void> read_phases(const JsonReader& rd, const JsonNode& summary, RunResults& r);

}  // namespace openloop::results

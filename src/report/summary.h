// The terminal summary of a run: verdict first, then rates, latencies, outcomes and the generator's own
// error.
#pragma once

#include <string>

#include "report/report_input.h"
#include "results/run_results.h"

namespace openloop::report {

/// The service's outcome in one line, the second headline under the verdict (which is about the generator):
/// "the target: 77% of 4500 requests timed out or failed (timeouts 3463); goodput 346/s of 1500/s offered",
/// or "the target: all 4500 requests ok; goodput ...". Not ok = intended − ok: timeouts, errors, completed
/// with a status outside --success ("bad status"), dropped and unfinished, each named when not zero. Empty
/// when nothing was intended.
std::string target_headline(const results::RunResults& r);

/// Renders the end-of-run summary as plain text (no colour codes), one block per topic.
std::string render_summary(const results::RunResults& r);

/// What `openloop run` prints at the end: render_summary() of the run; for a scenario file with several
/// scenarios, each scenario's summary under "=== scenario NAME ===" (followed by a blank line), then the
/// combined run's under "=== all scenarios together ===".
std::string render_run_summary(const results::RunResults& r);

/// The summary of a report input: render_run_summary() for a results file; for an .hlog (latencies only) the
/// source, the time span and the latency table of the histograms it holds, saying that counts and the verdict
/// are absent.
std::string render_summary(const ReportInput& in);

}  // namespace openloop::report

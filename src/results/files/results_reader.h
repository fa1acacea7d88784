// Reads a results file (schema "openloop.results/1") back into RunResults, checking it as it goes.
#pragma once

#include <string>
#include <string_view>

#include "core/error.h"
#include "results/run_results.h"

namespace openloop::results {

/// Parses a results document as to_json() writes it. What reports and merging need is read back: verdict,
/// SLOs, counts, rates, generator, plan, environment (with the wall-clock start), flows, error examples,
/// every interval with its histograms (session time included), the per-request breakdown (totals with their
/// histograms, in the plan's request order, and every interval's counts) and, for a scenario file, `source`
/// and every scenario (RunResults::scenarios, each read the same way). Interval histograms are decoded (their
/// summaries are recomputed from them) and summed into the run's histograms; counters must obey conservation,
/// the intervals must add up to the summary (per request too) and the scenarios to the combined run, so a
/// corrupted or hand-broken file is refused rather than misreported. A per-request breakdown written before
/// its histograms were kept is left out (info.request_names then lists the plan's requests). `source` names
/// the input in errors. Errors (ExitCode::usage) name the source and either the line and column (malformed or
/// truncated JSON) or the JSON path of the bad value, e.g. "r.json: /intervals/3/histograms/response_time:
/// not a histogram: ...".
Result<RunResults> parse_results(std::string_view text, std::string_view source);

/// Reads and parses the file at `path` (errors name the path; usage when it cannot be read).
Result<RunResults> read_results(const std::string& path);

}  // namespace openloop::results

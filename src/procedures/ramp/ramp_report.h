// What a ramp shows: the terminal table and sentence, a line per step while it runs, the JSON document
// ("openloop.ramp/1") and the HTML report with the knee chart.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "procedures/ramp/ramp_plan.h"
#include "procedures/ramp/ramp_runner.h"

namespace openloop::procedures {

inline constexpr const char* k_ramp_schema = "openloop.ramp/1";

/// Marks of step `i` (index into o.steps): "capacity", "ceiling", "knee p99", "knee goodput", "peak goodput",
/// "collapse", "collapse confirmed", "refined".
std::vector<std::string> step_marks(const RampOutcome& o, std::size_t i);

/// Indices into o.steps by increasing offered rate (the order tables list them in).
std::vector<std::size_t> steps_by_offered(const RampOutcome& o);

/// A latency in milliseconds as tables print it: 3 significant digits, no exponent ("7.23", "13.2", "1498").
std::string format_ms(double ms);

/// One line for a step just judged (live progress on stderr).
std::string step_line(const StepRecord& step);

/// The step table under a line naming its bases (offered | sent | completed | goodput | resp/s | p99 [95 %
/// CI] | dropped | errors | timeouts | state | SLO | mark), rows by offered rate. completed and goodput count
/// the step's own requests (by intended time), so goodput ≤ completed in every row; resp/s counts responses
/// that arrived while the step ran (wall clock), whichever step's requests they answered.
std::string ramp_table(const RampOutcome& o);

/// ramp_table(); then the findings sentence, the largest gap between throughput and
/// goodput seen, why steps were UNSTEADY or INVALID, why the ramp stopped, and notes.
std::string render_ramp_summary(const RampOutcome& o, const RampSettings& s);

/// The whole ramp as JSON: settings, every step's summary (counts, rates, percentiles with CIs, steadiness
/// checks, SLOs, marks, its response-time histogram), findings with the sentence, and every run's full
/// results document (openloop.results/1) under "runs". Documented in docs/ramp.md.
nlohmann::json ramp_to_json(const RampOutcome& o, const RampSettings& s);

/// The self-contained HTML page: the knee chart (offered vs completed vs goodput, p99 with its CI on a second
/// axis), the findings and the step table, followed by the per-second report of the staircase run (with
/// --fresh, of the last step's run). `source` names where the results are (a file, or "this ramp").
std::string render_ramp_html(const RampOutcome& o, const RampSettings& s, const std::string& source);

}  // namespace openloop::procedures

// A Comparison rendered: the terminal text, `openloop.compare/1` JSON, the JUnit report and the HTML page.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "compare/comparison.h"
#include "compare/text_table.h"
#include "report/junit.h"

namespace openloop::compare {

inline constexpr const char* k_compare_schema = "openloop.compare/1";

/// The terminal text: the files and plans, the finding, a table (baseline, candidate, change, interval,
/// judgement) of the percentiles, rates and fractions, both verdicts and SLOs, the gates and notes.
std::string render_text(const Comparison& c);

/// The six columns of a comparison's text table (name, baseline, candidate, change, interval, judgement),
/// each at least as wide as the usual values (`name_width`, `value_width` for baseline and candidate) and
/// wider when a cell is: shared by run and ramp comparisons.
TextTable comparison_table(std::size_t name_width, std::size_t value_width);

/// `openloop.compare/1`: sources, plan hashes, confidence, finding, every quantity (values in ms, rates in
/// /s, fractions as fractions; changes as fractions: 0.18 = +18 %, points for fractions: 0.005 = +0.5 point;
/// null where unknown), verdicts, SLOs, fail_on (fail_on_json()), failed and notes.
nlohmann::json to_json(const Comparison& c);

/// One case per --fail-on gate (failed when it tripped or could not be judged); without gates, one case
/// "compare" that passes and carries the finding. Properties: both files, plans, confidence, the finding.
report::JunitReport junit_for_compare(const Comparison& c);
/// The JUnit cases of a comparison: one per --fail-on gate (failed as the gate did), or one passing "compare"
/// case when there is none; each carries the finding. Shared by run and ramp comparisons.
void add_gate_cases(report::JunitReport& r, const std::vector<FailOnResult>& gates,
                    const std::string& finding);

/// The page every comparison renders: both sources' legend, the finding, `chart_title` (HTML) over `chart`
/// (inline SVG) and the text table; `css` is added to the common style.
std::string comparison_page(const std::string& heading, const std::string& css, const std::string& baseline,
                            const std::string& candidate, const std::string& finding,
                            const std::string& chart_title, const std::string& chart,
                            const std::string& table);

/// A self-contained page (no script): the finding, the table, and both response-time spectra overlaid
/// (latency against percentile on the usual 1/(1 − p) axis, as an inline SVG).
std::string render_html(const Comparison& c);

}  // namespace openloop::compare

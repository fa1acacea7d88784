// The checks of single flags shared by run, scenario files, simulate, ramp and probe: each turns one value as
// typed into what the plan holds, or refuses it (usage) naming the flag, the value and what is accepted.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/run_options.h"
#include "core/error.h"
#include "core/units.h"
#include "engine/run_plan.h"
#include "results/judging/slo.h"
#include "results/judging/until.h"
#include "workload/scenario_file.h"

namespace openloop::cli {

/// --spin-below: "auto" (nullopt: measure the cost of a timed wait) or a duration up to 10ms.
Result<std::optional<Nanos>> parse_spin_below(const std::string& text);
/// --spin-budget: a share of one core in (0, 1], as a number (0.5) or a percentage (50%); empty: the default
/// (engine::k_default_spin_budget). Given with an explicit --spin-below (every short wait spun, no budget) or
/// with --coalesce (never spins): refused, naming both flags.
Result<double> parse_spin_budget(const std::string& text, const std::string& spin_below,
                                 const std::string& coalesce);
/// --coalesce: 0 (off) up to 100ms, or auto (engine::k_coalesce_auto).
Result<Nanos> parse_coalesce(const std::string& text);
/// --protocol (auto, h1, h2) with curl's --http2 and --http1.1: the one protocol asked for; two that disagree
/// are a usage error naming both.
Result<engine::ProtocolChoice> parse_protocol(const std::string& text, bool http2, bool http1_1);
/// --on-saturation: drop or queue.
Result<engine::OnSaturation> parse_on_saturation(const std::string& text);
/// --success: a status range "200-299" or one status "200", within 100..599; (low, high).
Result<std::pair<int, int>> parse_success(const std::string& text);
/// --server-timing-metric's value, checked: empty or a token (usage error naming the flag otherwise).
Result<std::string> check_server_timing_metric(const std::string& name);
/// --until targets, checked (empty without --until).
Result<std::vector<results::UntilTarget>> parse_until_targets(const RunOptions& o);

/// -e and --target for loading a plan file (workload::make_plan_inputs); refuses a URL or plan file given
/// together with --targets. Errors (usage) name the flag.
Result<workload::PlanInputs> plan_inputs(const RunOptions& o);

/// Parses every --slo. An SLO naming a request must name one of `request_names` (the plan's), or, with `flow`
/// (a plan with a sessions scenario's steps), the flow's time (results::k_flow_slo, latency metrics only).
/// None given: results::default_slo() (goodput>=99%); `--slo none` alone: no objective (measure without
/// judging). Errors (usage, nothing is sent) name the flag and the SLO, and list the accepted forms or the
/// plan's requests; --abort-on-slo without an explicit --slo is refused, as is none beside other objectives.
Result<std::vector<results::Slo>> parse_slos(const RunOptions& o,
                                             const std::vector<std::string>& request_names,
                                             bool flow = false);

/// Settles the output files once flags are parsed: --report-dir DIR sets DIR/results.json, DIR/results.hlog
/// and DIR/report.html (creating DIR; its parent must exist; refused beside --json, --hlog or --html); --json
/// FILE alone implies --html beside it (FILE with .html for its extension); --no-html drops the HTML. Errors
/// (usage) name the flag.
Result<void> resolve_output_paths(RunOptions& o);

}  // namespace openloop::cli

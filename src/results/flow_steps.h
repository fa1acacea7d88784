// A flow's steps as its results show them: each step's request's counts and response times (from the step's
// due time: the previous response plus its think), beside the step's failed captures, checks and stops.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "hdr/histogram.h"
#include "results/recording/counters.h"
#include "results/recording/interval_stats.h"

namespace openloop::results {

struct RunResults;
struct Slo;

/// One step of a run's flow (docs/flows.md). A step is named by its request: the counts and the histogram are
/// the request's own breakdown (RunResults::by_request, or the run's totals when the plan has one request),
/// merged exactly across threads, scenarios of one file, shards and merges as every breakdown is. A request
/// that several steps send is one breakdown: `shared` says so, and those steps show the same numbers.
struct FlowStep {
  std::size_t step = 0;  ///< 1-based, in the scenario's order
  std::string request;
  const Counters* counters = nullptr;             ///< null: no breakdown of the request in these results
  const hdr::Histogram* response_time = nullptr;  ///< from the step's due time
  StepFlowCounts failures;  ///< this step's failed captures and checks and the sessions it stopped
  bool shared = false;      ///< another step of the flow sends the same request
};

/// The steps of `r`'s flow, from its plan (info.plan's "steps": a run of one scenario with `steps:`, or one
/// scenario of a scenario file); empty for a run without steps (an open model, a mix, or several scenarios
/// combined, whose steps are each scenario's). Points into `r`: valid while `r` is unchanged.
std::vector<FlowStep> flow_steps(const RunResults& r);

/// The name an SLO gives a flow's own time (`--slo 'flow:p99<2s'`), judged on RunResults::session_time: the
/// sessions' intended start to their last response. A request named "flow" keeps the name.
inline constexpr std::string_view k_flow_slo = "flow";
/// Whether `slo` judges the flow's time: it names k_flow_slo and no request of `request_names` has that name.
bool slo_names_the_flow(const Slo& slo, const std::vector<std::string>& request_names);

}  // namespace openloop::results

// The HTML report's breakdowns: the run by scenario and by request, and the sessions of partly-open models.
#pragma once

#include <string>

#include "report/report_input.h"

namespace openloop::report::html {

/// A scenario file's scenarios side by side, one row each (model, offered, sent, throughput and goodput
/// rates, counts by outcome, response-time p50/p90/p99/p99.9/max, verdict) above a row of the scenarios
/// combined; then, for each scenario that sent several requests, its by-request table. Every row carries
/// data-scope ("scenario:NAME", "scenario:NAME/request:NAME", "total") and its counts as data-* attributes,
/// for automated checks. Empty unless the run has two scenarios or more.
std::string scenarios_section(const ReportInput& in);

/// The run's requests side by side (the same columns, without model and verdict; data-scope
/// "request:NAME"), when it keeps a per-request breakdown and sent two requests or more; empty otherwise.
std::string requests_section(const ReportInput& in);

/// Sessions (partly-open model): intended, completed, failed, dropped, unfinished and the session time
/// percentiles, one row per scenario with sessions plus their total, or one row for a single run; empty when
/// no session arrived.
std::string sessions_section(const ReportInput& in);
/// Flow steps (results/flow_steps.h): a table per flow, one row per step (data-scope "step:N", or
/// "scenario:NAME/step:N" for each scenario of a file) with its counts by outcome, failed captures and
/// checks, the sessions it stopped and its response-time percentiles from its due time, then a row for the
/// flow (sessions by outcome and the flow's time). Empty when no run or scenario has steps.
std::string steps_section(const ReportInput& in);

}  // namespace openloop::report::html

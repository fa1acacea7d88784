// The .hlog's companion for --observe: the observed signals, one row per interval, on the .hlog's time axis.
#pragma once

#include <string>

#include "core/error.h"
#include "results/run_results.h"

namespace openloop::report {

/// The companion's path beside an .hlog: "run.hlog" → "run.observed.csv" (any other name gets
/// ".observed.csv" appended); empty for "" or "-" (standard output has no beside).
std::string observed_companion_path(const std::string& hlog_path);

/// CSV (RFC 4180) of the observed signals: a comment line "#[StartTime: S (seconds since epoch)]" with the
/// .hlog's StartTime (the start of measurement truncated to the millisecond, as the .hlog header has it),
/// then the header `start,length,SOURCE/NAME,...` and one row per interval: `start` and `length` exactly as
/// the .hlog's interval columns (seconds since StartTime, %.3f), then each signal's value (empty where none
/// was sampled). A run without --observe gives the header with no signal columns.
std::string render_observed_csv(const results::RunResults& r);

}  // namespace openloop::report

// Adding an interval's Server-Timing, as the results hold it (histogram texts and counts), back into stats: how
// merged shards and a plan file's scenarios add up their intervals' server-reported and outside-the-server times.
#pragma once

#include "core/error.h"
#include "results/run_results.h"
#include "results/recording/server_timing_stats.h"

namespace openloop::results {

/// Adds `from`'s Server-Timing histograms and counts to `into`; an unreadable histogram is an error naming it.
Result<void> add_interval_server_timing(ServerTimingStats& into, const IntervalResult& from);

}  // namespace openloop::results

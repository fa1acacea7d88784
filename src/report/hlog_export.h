// A run's interval series as an HdrHistogram interval log (.hlog, format 1.3), as Java's HistogramLogWriter
// writes it.
#pragma once

#include <chrono>
#include <string>

#include "core/atomic_file.h"
#include "core/error.h"
#include "results/run_results.h"

namespace openloop::report {

/// Wall-clock time of `unix_s` seconds since the epoch, truncated to the millisecond the .hlog header stores.
std::chrono::system_clock::time_point wall_clock_ms(double unix_s);

/// The .hlog text: the 1.3 header with StartTime = BaseTime = the start of measurement (info.start_unix_s;
/// the epoch when unknown), a comment naming the run, then for every interval three lines, Tag=response_time,
/// Tag=service_time and Tag=send_lateness (and, in intervals with Server-Timing responses, Tag=server_time
/// and Tag=outside_server), each `start,length,max_ms,histogram` with start relative to
/// StartTime. Histograms are re-encoded exactly as Java's writer would (compressed V2, zlib level 9). Errors
/// (usage): an interval histogram that does not decode.
Result<std::string> render_interval_log(const results::RunResults& r);
/// The same log written to `sink` one interval at a time (a long run's log is never held whole). Errors: as
/// render_interval_log(), or the sink's.
Result<void> write_interval_log(const results::RunResults& r, const WriteSink& sink);

}  // namespace openloop::report

// A run's interval series as an HdrHistogram interval log (.hlog, format 1.3), as Java's HistogramLogWriter
// writes it.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include "core/atomic_file.h"
#include "core/error.h"
#include "results/run_results.h"

namespace openloop::report {

/// Wall-clock time of `unix_s` seconds since the epoch, truncated to the millisecond the .hlog header stores.
std::chrono::system_clock::time_point wall_clock_ms(double unix_s);

/// The tag of a flow step's histogram in an .hlog: "step_1:login" (the step's number and its request, any
/// comma or white space in the name written as '_': a tag holds neither). `report --format hgrm --tag` takes
/// these and k_flow_tag from a results file too (report::interval_histograms: the whole run's histogram).
std::string step_tag(std::size_t step, std::string_view request);
/// The tag of a flow's own time (a session's intended start to its last response) in an .hlog.
inline constexpr std::string_view k_flow_tag = "flow";

/// The .hlog text: the 1.3 header with StartTime = BaseTime = the start of measurement (info.start_unix_s;
/// the epoch when unknown), a comment naming the run, then for a run with a flow one line per step
/// (Tag=step_tag(): the step's response times over the whole measured period, start 0) and one for the flow
/// (Tag=flow: its sessions' times, likewise), then for every interval three lines, Tag=response_time,
/// Tag=service_time and Tag=send_lateness (and, in intervals with Server-Timing responses, Tag=server_time
/// and Tag=outside_server), each `start,length,max_ms,histogram` with start relative to
/// StartTime. Histograms are re-encoded exactly as Java's writer would (compressed V2, zlib level 9). Errors
/// (usage): an interval histogram that does not decode.
Result<std::string> render_interval_log(const results::RunResults& r);
/// The same log written to `sink` one interval at a time (a long run's log is never held whole). Errors: as
/// render_interval_log(), or the sink's.
Result<void> write_interval_log(const results::RunResults& r, const WriteSink& sink);

}  // namespace openloop::report

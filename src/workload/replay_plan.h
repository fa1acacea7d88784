// A replay as a run plans it: the trace, how it is replayed, and what one pass over the whole file found
// before any load (every line checked, the records counted, the span measured), so each worker can open its
// own lane of the same schedule.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "workload/rate_profile.h"
#include "workload/replay_schedule.h"
#include "workload/trace_reader.h"

namespace openloop::workload {

/// What the command line asks of a replay.
struct ReplayRequest {
  TraceInput input;
  ReplayOptions options;  ///< loop_period and end are derived by scan_replay()
  bool loop = false;
  std::vector<std::string> keep_headers;   ///< --keep-header
  std::vector<std::string> redact_params;  ///< --redact-param
};

/// A checked replay. Immutable once built; shared by the workers (each opens its own reader).
struct ReplayPlan {
  ReplayRequest request;
  ReplayCounts counts;         ///< of one pass over the whole trace (records: one pass's)
  std::uint64_t skipped = 0;   ///< bad lines skipped (--skip-bad)
  std::string first_skipped;   ///< the first one's message
  std::uint64_t no_requests = 0;  ///< log lines of connections that sent no request (`"" 400`), skipped
  std::string first_no_request;   ///< the first one's place (file:line)
  bool spreads_seconds = false;  ///< one-second stamps spread within their second by the seed
  Nanos span{0};               ///< the last record's offset in one pass (replay time: after speed and gaps)
  std::uint64_t credentials_dropped = 0;  ///< records that had Authorization/Cookie/... dropped
  std::uint64_t params_redacted = 0;

  /// The options a worker's schedule uses: request.options with the loop period and `end` set.
  ReplayOptions lane_options(Nanos end) const;
  /// The loop period: one pass's span plus its mean gap (span / (records − 1)), so a looped trace keeps its
  /// rate across the seam. 0 without --loop.
  Nanos loop_period() const;
  /// How long a replay lasts without --loop: the last record's offset plus 1 ms, so it falls inside the run.
  Nanos once_length() const { return span + std::chrono::milliseconds(1); }
  /// The trace's mean rate as the profile of a run lasting `total` (warm-up included): one pass's records over
  /// the loop period (--loop) or over `total`.
  RateProfile mean_profile(Nanos total) const;
  /// Remarks for the run's warnings: sessions keyed (or no record with the key), one-second stamps spread, records late beyond the window, gaps
  /// compressed, lines skipped, lines without a request, records outside --from/--to, credentials dropped
  /// (empty when none applies).
  std::vector<std::string> notes() const;
};

/// A replay speed: a factor above 0 and at most 10^6, with an optional trailing x ("2", "0.5", "2x"). Error
/// (usage): names `what` (the flag or the plan file's place) and what is accepted.
Result<double> parse_replay_speed(std::string_view text, std::string_view what);

/// Reads the whole trace once (memory bounded by the window) with `request`'s options and no end: every bad
/// line is refused here (or counted with skip_bad), before any load. Errors (usage): those of open_trace()
/// and of the lines; a trace with no record to replay (after --from/--to).
Result<ReplayPlan> scan_replay(ReplayRequest request);

/// One lane of the plan's schedule (workload/replay_schedule.h ReplayLane), ending at `end` (from the run's
/// start). Errors: those of open_trace() (the file changed or vanished since the scan).
Result<ReplaySchedule> open_lane(const ReplayPlan& plan, ReplayLane lane, Nanos end);

}  // namespace openloop::workload

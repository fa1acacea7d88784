// A common start for shards that do not talk: an RFC 3339 start time, the wall clock (injectable), the wait
// until then, and the wall clock's own error bound as the kernel reports it.
#pragma once

#include <chrono>
#include <functional>
#include <string_view>

#include "core/error.h"
#include "core/time.h"

namespace openloop {

using WallTime = std::chrono::system_clock::time_point;

/// Source of wall-clock time (CLOCK_REALTIME). Injected so a test can fake a late start without sleeping.
class WallClock {
 public:
  virtual ~WallClock() = default;
  virtual WallTime now() const = 0;
};

/// The system's wall clock.
class RealWallClock final : public WallClock {
 public:
  WallTime now() const override { return std::chrono::system_clock::now(); }
};

/// A wall clock that moves only when told to. Not thread-safe.
class ManualWallClock final : public WallClock {
 public:
  explicit ManualWallClock(WallTime start) : m_now(start) {}
  WallTime now() const override { return m_now; }
  void advance(Nanos d) { m_now += std::chrono::duration_cast<WallTime::duration>(d); }

 private:
  WallTime m_now;
};

/// Parses an RFC 3339 date-time: `2026-12-01T10:00:00Z`, with optional fractional seconds (to the
/// nanosecond) and a `Z` or `±HH:MM` offset (`t` and `z` accepted, a space instead of `T` too). Errors
/// (usage) name `flag`, the text and the accepted form.
Result<WallTime> parse_rfc3339(std::string_view text, std::string_view flag);
/// `t` as RFC 3339 in UTC with microseconds: `2026-12-01T10:00:00.000000Z`.
std::string format_rfc3339(WallTime t);
/// Seconds since the Unix epoch.
double unix_seconds(WallTime t);

/// How far the kernel says the wall clock may be from true time (adjtimex(2), read-only): `maxerror` is
/// the worst case, `esterror` the estimate; `synchronized` false when the kernel reports TIME_ERROR (no time
/// daemon disciplines the clock, so the bounds mean nothing and shards may disagree by any amount).
struct ClockBound {
  bool known = false;  ///< adjtimex answered
  bool synchronized = false;
  double maxerror_s = 0, esterror_s = 0;
};
ClockBound wall_clock_bound();

/// What the wait for a common start needs.
struct StartPlan {
  WallTime at;                               ///< --start-at
  Nanos max_late = std::chrono::seconds(1);  ///< --max-late: later than this → ExitCode::late_start
  /// How long after the wait ends the run's schedule begins (the engine starts its clock that much after
  /// it is called), so the wait ends this much before `at`.
  Nanos lead{0};
  Nanos max_wait = std::chrono::hours(24);  ///< a start further ahead is refused (usage)
};

/// Sleeps for `d` unless interrupted; returns false when a stop request (Ctrl-C) ended the sleep.
using InterruptibleSleep = std::function<bool(Nanos d)>;

/// Waits on `clock` until `plan.at − plan.lead`: one timed sleep (a few more only if the wall clock is
/// stepped during the wait; at most 8), no spinning. Returns the lateness at wake-up (`now − at`,
/// negative when early: by about the lead). Errors: usage when `at` is more than max_wait ahead (nothing
/// waited for); interrupted (130) when `sleep` reports a stop request; late_start (75) when the start would
/// be later than max_late, naming --start-at, the lateness and --max-late.
Result<Nanos> wait_for_start(const StartPlan& plan, const WallClock& clock, const InterruptibleSleep& sleep);

/// The real sleep: blocks SIGINT and SIGTERM in the calling thread and waits for one of them for `d`
/// (sigtimedwait); false when one came (it is consumed). Call it while no other thread takes those signals.
bool sleep_unless_signalled(Nanos d);

}  // namespace openloop

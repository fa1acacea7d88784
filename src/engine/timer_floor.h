// The host's timer floor: how late this machine wakes a thread that sleeps to an absolute deadline with nothing
// else to do, and what --spin-below auto makes of it (how long before each deadline a worker stops sleeping and
// spins through the rest).
#pragma once

#include <vector>

#include "core/time.h"
#include "engine/run_plan.h"
#include "hdr/histogram.h"
#include "results/judging/timer_floor.h"

namespace openloop::engine {

/// Summarizes wake-up lateness samples (each `woke − deadline`, negative counted as 0) measured at deadlines
/// `gap` apart: p50, p99 (nearest rank) and max in µs. Sorts `lateness`. Empty: samples 0.
results::TimerFloor summarize_timer_floor(std::vector<Nanos>& lateness, Nanos gap);

/// Whether the floor's measurement goes on after `waits` timed waits over `elapsed`: up to 1,200 waits within
/// 60 ms, and past 60 ms (to 150 ms at most) while it has fewer than 100, so that its p99 (nearest rank) is
/// not the single worst wake-up: a host that stalled the measurement once (20 ms in 60 at 500-µs gaps leaves
/// 80 waits) would otherwise have that stall read as its p99 and --spin-below auto spin the run's longest
/// lead.
bool timer_floor_measuring(std::size_t waits, Nanos elapsed);

/// Measures the floor now on the calling thread and a fresh event loop: timed waits to deadlines `gap` apart
/// (clamped to 50 µs..500 µs), each deadline fixed in advance so a late wake-up does not move the next, for
/// as long as timer_floor_measuring() says (a deadline already passed is skipped, not waited for). Samples 0
/// when no event loop can be created.
results::TimerFloor measure_timer_floor(Nanos gap);

/// The floor a run records: measure_timer_floor(gap), unless the environment variable OPENLOOP_TIMER_FLOOR_US
/// holds a number of µs (0 to 1e6), taken as this host's wake-up lateness (p50, p99 and max alike, 1 sample)
/// instead of measuring: to reproduce a verdict that named the floor, or to test the paths that name it on a host
/// whose timers are good; the floor then says so (TimerFloor::given). Anything else in it is ignored (measured
/// as usual).
results::TimerFloor host_timer_floor(Nanos gap);

/// The spacing to calibrate at for `plans`: the smallest mean gap between one worker's arrivals at a plan's
/// peak rate (open and sessions plans); 1 ms when no plan has a schedule.
Nanos calibration_gap(const std::vector<RunPlan>& plans);

/// The send-lateness p99 bound the verdict will hold `plan` to at its peak rate (results::lateness_bound_ms:
/// max(plan.max_lateness or 1 ms, 10 % of the mean gap between arrivals)).
Nanos planned_lateness_bound(const RunPlan& plan);

/// How long before each deadline a worker under --spin-below auto stops sleeping and spins, so that the host's
/// late wake-ups stay within the send-lateness bound `bound` (results::lateness_bound_ms): 0 when the floor's
/// p99 is at most half the bound (sleeping keeps the schedule; or the floor was not measured), else
/// 1.5 × p99 − bound / 2 (what a wake-up overshoots beyond half the bound, with a margin for the load's own
/// activity), at most 10 ms.
Nanos auto_spin_lead(const results::TimerFloor& floor, Nanos bound);

/// Waits a worker must have timed before adapted_spin_lead() reads their lateness.
inline constexpr std::int64_t k_adapt_min_waits = 200;

/// --spin-below auto during a run: the lead for the wake-up lateness a worker's own timed waits have met so far
/// (`wake_lateness`: each wait's overshoot in ns, the floor as the run finds it), as auto_spin_lead() makes of the
/// floor measured before the run, and never below `current`: the floor measured before a run can be low while the
/// host wakes the run's threads late (a quiet VM: 43 µs measured, send lateness p99 1.5 ms at 1000/s), and a host
/// that woke a thread late will again. `current` until k_adapt_min_waits waits were timed. Allocation-free.
Nanos adapted_spin_lead(const hdr::Histogram& wake_lateness, Nanos current, Nanos bound);

/// The share of one core a worker's own work and its spinning may take together. Past it the spinning takes
/// the CPU the loop needs, and the sends it was meant to make punctual come late instead (stop 46: at
/// 20,000/s over h2c, a lead adapted past the 50-µs gap between arrivals spun through every wait, and 5 of 24
/// runs went from a send lateness p99 under 1 ms to 9–37 ms).
inline constexpr double k_spin_fit = 0.9;

/// Whether a worker can afford to spin `lead` before each wait: its busy share of a core (its CPU less its
/// spinning, over the last observation window) and the share spinning would take, `lead` × `waits_per_s` (its
/// arrivals per second; unknown, 0, for a worker without a schedule) but no more than the spin budget lets it
/// (`budget_share`), within k_spin_fit.
bool spin_lead_fits(Nanos lead, double busy_share, double waits_per_s, double budget_share);

/// One worker's peak arrivals per second under `plan` (open and sessions plans: this shard's peak rate over
/// its threads); 0 for plans without a schedule.
double worker_peak_rate(const RunPlan& plan);

}  // namespace openloop::engine

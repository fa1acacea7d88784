// Verdict rules.
#include "results/judging/verdict.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/units.h"
#include "results/judging/timer_floor.h"

namespace openloop::results {

double lateness_bound_ms(const RunResults& r, const VerdictBounds& b) {
  if (r.totals.intended == 0 || !(r.measured_s > 0)) return b.lateness_floor_ms;
  const double gap_ms = 1000.0 * r.measured_s / static_cast<double>(r.totals.intended);
  return std::max(b.lateness_floor_ms, b.lateness_gap_fraction * gap_ms);
}

namespace {

// What took CPU from the generator while it ran late, when it is enough to explain stalls (2 % of the
// machine's time stolen by the hypervisor, or of the workers' time spent waiting for a CPU): "" otherwise.
std::string contention_note(const GeneratorStats& g) {
  constexpr double k_worth_naming = 0.02;
  std::vector<std::string> parts;
  if (g.steal_share && *g.steal_share >= k_worth_naming)
    parts.push_back(
        fmt::format("the hypervisor stole {:.1f}% of this machine's CPU time (steal)", 100 * *g.steal_share));
  const double thread_s = g.wall_seconds * g.threads;
  if (g.run_delay_seconds && thread_s > 0 && *g.run_delay_seconds / thread_s >= k_worth_naming) {
    parts.push_back(fmt::format(
        "its worker thread(s) waited {} ({:.1f}% of their time) for a CPU held by "
        "other threads or processes",
        format_duration(from_seconds(*g.run_delay_seconds)), 100 * *g.run_delay_seconds / thread_s));
  }
  if (parts.empty()) return "";
  return fmt::format("; during the run {}: the rig, not the target (a quieter host or dedicated cores; "
                     "--observe host shows when)",
                     fmt::join(parts, " and "));
}

// The generator's own CPU share of its threads' wall time, spinning through short waits left out; nullopt when
// not measured.
std::optional<double> own_cpu_share(const GeneratorStats& g) {
  if (g.threads == 0 || !(g.wall_seconds > 0) || !(g.cpu_seconds > 0)) return std::nullopt;
  return std::max(0.0, g.cpu_seconds - g.spin_seconds) / (g.wall_seconds * g.threads);
}

// True when steal or the workers' wait for a CPU is large enough to name (contention_note is not empty).
bool contended(const GeneratorStats& g) { return !contention_note(g).empty(); }

// Why sends were late, as far as the figures say: the generator's own CPU, then (named by contention_note)
// the CPU taken from it, then the host's timer floor; the old list of suspects only when nothing was measured.
std::string lateness_cause(const GeneratorStats& g, const TimerFloor& f, double bound_ms) {
  constexpr double k_cpu_bound = 0.75;  // busier than this, a worker's sends queue behind its own work
  const std::optional<double> cpu = own_cpu_share(g);
  if (cpu && *cpu >= k_cpu_bound) {
    return fmt::format(": the generator was CPU-bound, its {} thread(s) busy {:.0f}% of the time (spinning not "
                       "counted): more --threads, --coalesce, or a lower rate",
                       g.threads, 100 * *cpu);
  }
  if (contended(g)) return "";  // contention_note names it
  // What the figures say of the generator's CPU: not CPU-bound when measured; unknown (a ramp's step, a slice
  // of a run: the CPU is measured per run) is said as such, never read as "not CPU-bound".
  const std::string cpu_state =
      cpu ? fmt::format("the generator was not CPU-bound (CPU {:.0f}% of its {} thread(s))", 100 * *cpu,
                        g.threads)
          : std::string("the generator's CPU was not measured for this part of the run");
  // The floor's origin, as every reason below names it: measured before the run, or given for a test.
  const std::string before = f.given ? "given by OPENLOOP_TIMER_FLOOR_US" : "before the run";
  const bool late_before = f.samples > 0 && f.p99_us / 1e3 > bound_ms / 2;
  const bool late_during = f.run_samples > 0 && f.run_p99_us / 1e3 > bound_ms / 2;
  if (late_during && !late_before) {
    return fmt::format(
        ": the host woke sleeping threads later during the run than before it (the workers' timed waits woke "
        "p99 {}, max {} late over {} waits; {} p99 {}) and {}: "
        "--spin-below 10ms (spinning through every wait, up to a full core) or a quieter host",
        format_duration(from_seconds(f.run_p99_us / 1e6)), format_duration(from_seconds(f.run_max_us / 1e6)),
        f.run_samples, before, format_duration(from_seconds(f.p99_us / 1e6)), cpu_state);
  }
  if (late_before) {
    const std::string advice =
        f.spin_lead_us > 0
            ? fmt::format(
                  "--spin-below auto spun through the last {} of each wait within {:.0f}% of a "
                  "core{}; use {}--spin-below 10ms (spinning through every wait, up to a full core) or a quieter "
                  "host",
                  format_duration(from_seconds(f.spin_lead_us / 1e6)), 100 * f.spin_budget,
                  f.spin_budget_low < f.spin_budget
                      ? fmt::format(" (down to {:.0f}% while the workers waited for a CPU)",
                                    100 * f.spin_budget_low)
                      : std::string(),
                  f.spin_budget < 1 ? "--spin-budget 100%, " : "")
            : std::string("use --spin-below auto or a quieter host");
    const std::string source =
        f.given ? before + ", not measured"
                : fmt::format("measured before the run at {} gaps",
                              format_duration(from_seconds(f.gap_us / 1e6)));
    return fmt::format(
        ": the host wakes sleeping threads late (timer floor p99 {}, p50 {}, max {}, {}) and {}: {}",
        format_duration(from_seconds(f.p99_us / 1e6)), format_duration(from_seconds(f.p50_us / 1e6)),
        format_duration(from_seconds(f.max_us / 1e6)), source, cpu_state, advice);
  }
  if (cpu && f.samples > 0 && f.run_samples > 0) {
    return fmt::format(
        " (neither the generator's CPU, {:.0f}% of its {} thread(s), nor the host's timers, floor p99 {} {} "
        "and {} during the run, explain it: slow connects or too few connections)",
        100 * *cpu, g.threads, format_duration(from_seconds(f.p99_us / 1e6)), before,
        format_duration(from_seconds(f.run_p99_us / 1e6)));
  }
  if (cpu && f.samples > 0) {
    return fmt::format(
        " (neither the generator's CPU, {:.0f}% of its {} thread(s), nor the host's timers, "
        "floor p99 {} {}, explain it: slow connects, too few connections, "
        "or timers that woke later during the run than before it)",
        100 * *cpu, g.threads, format_duration(from_seconds(f.p99_us / 1e6)), before);
  }
  return " (overloaded generator, too few threads, or slow connects)";
}

}  // namespace

Verdict judge(const RunResults& r, const VerdictBounds& b) {
  Verdict v;
  const auto& c = r.totals;
  const bool open = r.info.model == Model::open || r.info.model == Model::sessions;
  // A target never reached: every attempt failed to connect, so the sends that did not happen and their
  // lateness are the target's doing; nothing was measured, and that is the one reason to give.
  const bool unreachable = r.unreachable();
  if (unreachable) {
    v.reasons.push_back(fmt::format(
        "the target was never reached: all {} attempts failed to connect, so nothing about it was measured "
        "(the target's failure, not the generator's)",
        c.error(ErrorKind::connect) + c.error(ErrorKind::tls)));
  }
  if (open && c.intended > 0 && !unreachable) {
    const double intended = static_cast<double>(c.intended);
    // Arrivals a worker abandoned, too far behind its schedule, are dropped too: the pool's share is the rest.
    const std::uint64_t abandoned = r.info.model == Model::open ? r.generator.abandoned : 0;
    const std::uint64_t pool_dropped = c.dropped - std::min(c.dropped, abandoned);
    const double dropped = static_cast<double>(pool_dropped) / intended;
    if (dropped > b.max_dropped_fraction) {
      v.reasons.push_back(fmt::format(
          "dropped {} of {} intended requests ({:.2f}% > {:.0f}%): the connection pool was full, so the load "
          "applied was not the load planned (raise --max-connections or use --on-saturation queue)",
          pool_dropped, c.intended, 100 * dropped, 100 * b.max_dropped_fraction));
    }
    const double sent = static_cast<double>(c.sent) / intended;
    if (sent < b.min_sent_fraction) {
      v.reasons.push_back(fmt::format("sent {} of {} intended requests ({:.2f}% < {:.0f}%)", c.sent,
                                      c.intended, 100 * sent, 100 * b.min_sent_fraction));
    }
    // Arrivals queued for a free connection or stream went out when one freed: the run's connections, not the
    // generator's timers or CPU, set their send times, and that reason replaces the lateness one.
    const double waited = static_cast<double>(c.slot_waits) / intended;
    if (waited > b.max_slot_wait_fraction) {
      // Over HTTP/2 with --connections (the plan's concurrency cap then differs from its connections) they
      // are the fix; else, as over HTTP/1.1, the cap on connections opened as needed.
      const bool fixed = r.generator.connections_h2 > 0 && r.info.plan.contains("max_in_flight");
      v.reasons.push_back(fmt::format(
          "{:.1f}% of sends ({} of {} intended) waited for a free stream/connection (slot wait p99 {}, send "
          "lateness p99 {}): the connections, not the generator, set when they went out: raise {}",
          100 * waited, c.slot_waits, c.intended, format_duration(Nanos(r.slot_wait.value_at_percentile(99))),
          format_duration(Nanos(r.send_lateness.value_at_percentile(99))),
          fixed ? "--connections or --max-streams" : "--max-connections"));
    } else if (r.send_lateness.total_count() > 0 && r.measured_s > 0) {
      const double bound_ms = lateness_bound_ms(r, b);
      const double p99_ms = static_cast<double>(r.send_lateness.value_at_percentile(99)) / 1e6;
      if (p99_ms > bound_ms) {
        v.reasons.push_back(fmt::format(
            "send lateness p99 {} > {}: the generator could not send on schedule{}{}",
            format_duration(from_seconds(p99_ms / 1e3)), format_duration(from_seconds(bound_ms / 1e3)),
            lateness_cause(r.generator, timer_floor_of(r.info), bound_ms), contention_note(r.generator)));
      }
    }
  }
  const auto& f = r.flows;
  if (r.info.model == Model::sessions && f.sessions_intended > 0) {
    const double dropped = static_cast<double>(f.sessions_dropped) / static_cast<double>(f.sessions_intended);
    if (dropped > b.max_dropped_fraction) {
      v.reasons.push_back(
          fmt::format("dropped {} of {} arriving sessions ({:.2f}% > {:.0f}%): the concurrent-sessions cap "
                      "was reached, so the "
                      "load applied was not the load planned (raise --max-sessions)",
                      f.sessions_dropped, f.sessions_intended, 100 * dropped, 100 * b.max_dropped_fraction));
    }
  }
  // Arrivals a worker abandoned, still unsent one timeout after the end, under the same bound as the pool's drops.
  if (const std::uint64_t abandoned = r.generator.abandoned; abandoned > 0) {
    const bool sessions = r.info.model == Model::sessions;
    const std::uint64_t planned = sessions ? r.flows.sessions_intended + abandoned : std::max(c.intended, abandoned);
    const double share = static_cast<double>(abandoned) / static_cast<double>(planned);
    if (share > b.max_dropped_fraction) {
      v.reasons.push_back(fmt::format(
          "the generator fell behind its schedule: {} of {} {} ({:.2f}% > {:.0f}%) were still unsent one timeout "
          "({:g} s) after the end, so it stopped there ({}) rather than overrun the run; the load applied was not "
          "the load planned (more --threads, --coalesce, a lower rate, or several generator hosts: "
          "docs/distributed.md){}",
          abandoned, planned, sessions ? "arriving sessions" : "intended requests", 100 * share,
          100 * b.max_dropped_fraction, r.info.timeout_s, sessions ? "they never started" : "counted as dropped",
          contention_note(r.generator)));
    }
  }
  // Whatever the model: a request that failed because the generator could not open a socket says nothing about
  // the target, and the load planned was not applied.
  if (const std::uint64_t own = c.error(ErrorKind::generator); own > 0) {
    v.reasons.push_back(fmt::format(
        "the generator itself failed {} of {} intended requests: it could not open a socket (out of file "
        "descriptors, memory or local ports; see the generator error example), so the load applied was not the "
        "load planned (raise the open-file limit, ulimit -n, or lower --max-connections)",
        own, c.intended));
  }
  const auto& g = r.generator;
  if (g.threads > 0 && g.wall_seconds > 0) {
    const double cpu = std::max(0.0, g.cpu_seconds - g.spin_seconds) / (g.wall_seconds * g.threads);
    if (cpu > b.max_cpu_fraction) {
      v.reasons.push_back(fmt::format(
          "generator CPU {:.0f}% of its {} thread(s) > {:.0f}%: the generator was "
          "saturated, so it measured itself (spinning through short waits not counted): more "
          "--threads, or --coalesce (arrivals due together then share a wake-up and, over HTTP/2, "
          "a write: docs/http2.md)",
          100 * cpu, g.threads, 100 * b.max_cpu_fraction));
    }
  }
  // The counts must add up in the totals and in every interval (DESIGN.md invariant 2); if they do not, no
  // number in the run can be trusted. Reported once, at the first place they disagree.
  std::string imbalance = c.imbalance();
  std::string where = "the totals";
  for (std::size_t i = 0; imbalance.empty() && i < r.intervals.size(); ++i) {
    imbalance = r.intervals[i].counters.imbalance();
    where = fmt::format("the interval at {:g}s", r.intervals[i].start_s);
  }
  if (!imbalance.empty()) {
    v.reasons.push_back(fmt::format(
        "the counts do not add up in {}: {} (a bug in openloop: please report it with the results file)",
        where, imbalance));
  }
  // A target never reached leaves the arrival self-check nothing to judge (its "sends" were failed connects).
  // The arrival process (results/judging/run_checks.h).
  if (b.judge_arrivals && !unreachable) add_check_reasons(r.checks, v.reasons);
  v.valid = v.reasons.empty();
  return v;
}

}  // namespace openloop::results

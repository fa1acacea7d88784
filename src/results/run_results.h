// The results of one run: interval series, totals, verdict and context; what reports render and JSON stores.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "hdr/histogram.h"
#include "results/recording/counters.h"
#include "results/recording/interval_stats.h"
#include "results/judging/model.h"
#include "results/recording/encoded_histogram.h"
#include "results/recording/interval_result.h"
#include "results/recording/interval_series.h"
#include "results/recording/observed.h"
#include "results/judging/run_checks.h"
#include "results/judging/slo.h"

namespace openloop::results {

/// Fills an interval's latency summaries and its compressed V2 base64 histograms from the four histograms.
void set_latencies(IntervalResult& r, const hdr::Histogram& response_time, const hdr::Histogram& service_time,
                   const hdr::Histogram& send_lateness, const hdr::Histogram& attempt_time);
/// Fills an interval's Server-Timing summaries, histograms and counts (histograms left empty when no
/// response carried a usable header).
void set_server_timing(IntervalResult& r, const ServerTimingStats& s);
/// Fills an interval's session-time summary and histogram (left empty when no session ended in it).
void set_session_time(IntervalResult& r, const hdr::Histogram& session_time);
/// Fills an interval's slot-wait summary and histogram (left empty when no arrival waited in the queue).
void set_slot_wait(IntervalResult& r, const hdr::Histogram& slot_wait);

/// One named request's totals over the measured period.
struct RequestTotals {
  std::string name;
  Counters counters;
  hdr::Histogram response_time = make_latency_histogram();
  hdr::Histogram service_time = make_latency_histogram();
  /// Adds another part of the same request's totals (counts and histograms; the name is kept).
  void add(const RequestTotals& other);
};

/// Did the rig apply the load it was asked to? (DESIGN.md invariant 7)
struct Verdict {
  bool valid = true;
  std::vector<std::string>
      reasons;  ///< why INVALID, one sentence each naming the measured value and the bound
};

/// The generator's own resource use, for the verdict and the bench.
struct GeneratorStats {
  unsigned threads = 0;
  double cpu_seconds = 0;  ///< user + system CPU of the worker threads
  /// Part of cpu_seconds spent polling through waits too short to sleep on (--spin-below): idle time, not
  /// work, and left out of the CPU-saturation check.
  double spin_seconds = 0;
  double spin_below_us = 0;            ///< the threshold the workers used (measured unless given)
  double wall_seconds = 0;             ///< from the first arrival to the end of the grace period
  std::uint64_t max_connections = 0;   ///< the pool cap (open) or users (closed)
  std::uint64_t peak_connections = 0;  ///< most connections open at once (sum of per-worker peaks)
  /// Connections that became ready speaking HTTP/1.1 and HTTP/2 (over TLS, the server's ALPN choice); the
  /// protocol actually used. Both 0 in files written before they were counted.
  std::uint64_t connections_h1 = 0, connections_h2 = 0;
  /// Arrivals (or sessions) the workers had still not sent one timeout after the end of the run, when they
  /// stopped rather than overrun it (engine/worker.cpp); counted as dropped. More than 0: the load applied was
  /// not the load planned.
  std::uint64_t abandoned = 0;
  std::int64_t max_rss_kb = 0;
  /// CPU time of the coordinator thread's rounds (one every 50 ms: merging the workers' intervals, the live
  /// view, the progress callback), in ms; `coordinator_rounds` 0 when not measured (simulated runs, old
  /// files). The max is the burst a worker sharing the coordinator's core may wait behind.
  std::uint64_t coordinator_rounds = 0;
  double coordinator_cpu_ms_mean = 0, coordinator_cpu_ms_max = 0;
  /// The largest of each piece of a round: merging (Aggregator::add, finalizing intervals), clearing the
  /// spent intervals for reuse, and the progress callback.
  double coordinator_merge_ms_max = 0, coordinator_clear_ms_max = 0, coordinator_progress_ms_max = 0;
  /// The share of the machine's CPU time the hypervisor stole during the run (0 to 1; /proc/stat, see
  /// core/contention.h); nullopt where unknown (no /proc/stat, simulated runs, files written before it).
  std::optional<double> steal_share;
  /// Time the worker threads were runnable but waited for a CPU, summed over them, in seconds
  /// (/proc/thread-self/schedstat); nullopt where unknown.
  std::optional<double> run_delay_seconds;
};

/// How the parts added into one run ran: side by side (the scenarios of one file, the hosts or shards of a
/// merge) or one after another (repeats).
enum class PartsRan : unsigned char { side_by_side, one_after_another };

/// Adds another part's generator stats (a scenario's, a merge input's, a repeat's) to `into`, which starts
/// as GeneratorStats{} or as the first part. CPU, spin and run delay seconds and `abandoned` are summed;
/// thread-seconds (wall × threads) are summed, so the CPU share of the whole is the parts' aggregate one:
/// side by side, threads, max_connections and peak_connections are summed and wall_seconds is the
/// thread-weighted mean wall time; one after another, they are the largest part's and wall_seconds the summed
/// thread-seconds over those threads (the summed wall time when every part had as many threads). The worst
/// steal share, the largest max_rss_kb and spin threshold; coordinator rounds summed, their mean weighted by
/// rounds, each max the largest.
void add_generator(GeneratorStats& into, const GeneratorStats& part, PartsRan how);

/// A replay with --session-key: what its sessions did to the trace's schedule (docs/replay.md "Sessions"),
/// summed over the workers. `replayed` false for every other run (and files written before these were saved).
struct ReplaySessionStats {
  bool replayed = false;
  std::uint64_t delayed = 0;        ///< records sent later than their absolute time because of their session
  double delay_s = 0;               ///< Σ (due − absolute time) over them, seconds
  std::uint64_t sessions_peak = 0;  ///< most sessions open at once (sum of the workers' peaks)
  std::uint64_t held_peak = 0;      ///< most records held at once for a response (sum of the workers' peaks)
  std::uint64_t dropped = 0;        ///< records dropped because a worker held as many as it may
};

/// Adds another part's session counts: delayed, delay and dropped are summed; the peaks are summed side by
/// side (as a run sums its workers' peaks, so shards merge to the whole run's number) and the largest part's
/// one after another. A part that did not replay sessions adds nothing.
void add_replay_sessions(ReplaySessionStats& into, const ReplaySessionStats& part, PartsRan how);

/// How the run was started together with other shards (--start-at); `at_unix_s` 0 when it was not.
struct StartTiming {
  double at_unix_s = 0;  ///< --start-at, seconds since the Unix epoch
  double lag_s = 0;      ///< when the schedule actually began (wall clock) − at_unix_s; negative = early
  bool clock_known = false;         ///< adjtimex answered
  bool clock_synchronized = false;  ///< false: no time daemon disciplines the clock, the bounds mean nothing
  double clock_maxerror_s = 0, clock_esterror_s = 0;  ///< adjtimex maxerror / esterror
};

/// What the run was (plan summary used by the verdict and the reports; the full plan is in `plan`).
struct RunInfo {
  Model model = Model::open;
  std::string arrival;         ///< "constant" / "poisson" (open only)
  double offered_rps = 0;      ///< mean offered rate over the measured period (open); 0 for closed
  double duration_s = 0;       ///< measured period as planned
  double warmup_s = 0;
  double timeout_s = 0;
  std::uint64_t users = 0;                 ///< closed/pacing models: virtual users
  double configured_iterations_per_s = 0;  ///< pacing model: users / pacing (or the --max-rate cap, if lower)
  std::vector<std::string> request_names;  ///< the plan's requests, in index order
  std::string target;                      ///< URL
  std::string source;  ///< the scenario file of `run plan.yaml`; empty for a run from flags
  /// Wall-clock time at which measurement began (after the warm-up), seconds since the Unix epoch; 0 =
  /// unknown (files written before this field existed). Interval i covers [start_unix_s + start_s, ... +
  /// length_s).
  double start_unix_s = 0;
  nlohmann::json plan;         ///< every option of the plan, for the results file
  /// Names the run all shards of one run share (--run-id, OPENLOOP_RUN_ID, derived or random); empty in files
  /// written before run ids existed.
  std::string run_id;
  /// SHA-256 of the canonical plan without `shard` (results/run_identity.h); empty: computed from `plan`.
  std::string plan_hash;
  StartTiming start;
  nlohmann::json environment;  ///< host, cores, version, start time
};

struct ScenarioResults;

/// Everything a run produced.
struct RunResults {
  RunInfo info;
  /// Every finished interval; on a long run all but the latest few are parked in a spill file (IntervalSeries).
  IntervalSeries intervals;
  Counters totals;                                            ///< measured period only
  Counters warmup;                                            ///< the warm-up, reported apart
  hdr::Histogram response_time, service_time, send_lateness;  ///< totals over the measured period
  hdr::Histogram attempt_time = make_latency_histogram();     ///< every attempt (retries included)
  FlowCounters flows;  ///< iterations and sessions over the measured period
  hdr::Histogram session_time = make_latency_histogram();
  /// Queued arrivals' waits for a free connection or stream (Counters::slot_waits; IntervalStats::slot_wait).
  hdr::Histogram slot_wait = make_latency_histogram();
  std::vector<RequestTotals> by_request;  ///< per request when the plan has several; empty otherwise
  PhaseStats phases;  ///< connect, TLS, first byte, body: attempts that received a response (measured period)
  /// Server-Timing: server-reported time and time outside the server (measured period); empty when no
  /// response carried the header.
  ServerTimingStats server_timing;
  /// How long resolving the target's name took, once before the run (requests never resolve it again), in
  /// nanoseconds; −1 when unknown (a file without it, a merge or a scenario file's run).
  std::int64_t dns_ns = -1;
  /// --log-requests: records written, and records dropped because the writer could not keep up (each
  /// counted, never silently lost). Both 0 without a log.
  std::uint64_t log_written = 0, log_dropped = 0;
  bool logged = false;  ///< whether the run wrote a per-request log
  GeneratorStats generator;
  double measured_s = 0;  ///< actual measured period (shorter when interrupted)
  bool interrupted = false;
  /// While the run goes (live view only, not saved): requests in flight or queued at the last progress
  /// report.
  std::uint64_t in_flight_now = 0;
  std::uint64_t connections_open_now = 0;  ///< likewise: sockets open (connecting or connected)
  Verdict verdict;
  /// The statistical self-checks (arrival process, independence, percentile intervals); empty for results
  /// that did not run them (merges, combinations, older files). Not added by add(): they belong to one run.
  RunChecks checks;
  /// One example message per error kind that occurred (kind name → message), e.g. {"tls", "certificate verify
  /// failed: self-signed certificate"}.
  std::vector<std::pair<std::string, std::string>> error_examples;
  /// Things the reader should know that do not invalidate the run (e.g. "every request used the same key: you
  /// may have measured a cache").
  std::vector<std::string> warnings;
  /// The --slo objectives judged on this run (empty when none were given), in the order given.
  std::vector<SloResult> slos;
  /// --abort-on-slo: the SLO (its text) that was certain to fail and stopped the run early; empty otherwise.
  std::string aborted_by_slo;
  /// A scenario file's run: each scenario's own results, in file order (their own `scenarios` empty); this
  /// run is then those scenarios combined (results/merging/combine.h). Empty for a run from flags.
  std::vector<ScenarioResults> scenarios;
  /// --observe: the signals sampled beside the run (values per interval in IntervalResult::observed).
  Observed observed;
  /// A replay with --session-key: its sessions' counts (added by add_metadata()).
  ReplaySessionStats replay_sessions;

  RunResults();
  double offered_rps() const;  ///< intended / measured_s
  double sent_rps() const;
  double throughput_rps() const;  ///< completed / measured_s
  double goodput_rps() const;     ///< ok / measured_s
  /// Adds the measured numbers of `other` as if both runs had been one: counters (measured and warm-up),
  /// flows, every latency histogram, and the per-request breakdown matched by name (`names`: the requests of
  /// `other` in its index order, for results that do not carry their RunInfo yet; a request new to this run is
  /// appended to info.request_names and by_request, and a run without a breakdown counts as its one request's
  /// totals). The one place that lists what a run adds up: a new counter or histogram is added here. Intervals,
  /// measured_s, generator, verdict and context are left alone: aligning intervals and combining generators
  /// depend on how the runs relate (results/merging/combine, results/merging/merge).
  void add(const RunResults& other, const std::vector<std::string>& names);
  void add(const RunResults& other) { add(other, other.info.request_names); }
  /// Adds what describes `part` rather than measures it, the same way for scenarios, merges and repeats:
  /// generator stats (add_generator()), error examples (one per error kind, the first seen kept) and warnings
  /// (add_warning()). The one place that lists the run metadata parts add up; add() does the measured
  /// numbers.
  void add_metadata(const RunResults& part, std::string_view label, PartsRan how);
  /// Adds a part's warning prefixed with `label` and ": " ("checkout: ...", "repeat 2: ...", "b.json: ...";
  /// as written when `label` is empty), once: a warning an earlier part gave word for word gains the label
  /// instead ("repeat 1, repeat 2: ..."), so a command says each thing once.
  void add_warning(const std::string& warning, std::string_view label);
  /// The totals of the request named `name`, appended (and named in info.request_names) when new.
  RequestTotals& request(const std::string& name);
  /// The target was never reached: no request completed and every error was a connect or TLS failure (so
  /// nothing was measured; exit 4 for every command).
  bool unreachable() const;
};

/// The spill files `r`'s intervals and its scenarios' are parked in, each once (none for a run held in
/// memory): what a ReadBackCheck watches while an output is rendered from `r`.
std::vector<std::shared_ptr<const SpillFile>> spill_files(const RunResults& r);
/// Adds `r`'s spill files to `into`, those already there left out (for outcomes that hold several runs).
void add_spill_files(const RunResults& r, std::vector<std::shared_ptr<const SpillFile>>& into);

/// One interval as a run of its own, for adding intervals up with RunResults::add: its counters (measured), flows,
/// the per-request counters, and its histograms decoded (an empty text is an empty histogram). Errors (usage) name
/// the interval's start and the histogram that does not decode.
Result<RunResults> interval_as_run(const IntervalResult& in, const std::vector<std::string>& request_names);

/// One scenario's results and where its measured period began, relative to the common start of all scenarios.
struct ScenarioResults {
  std::string name;
  double offset_s = 0;  ///< start offset + warm-up of this scenario
  RunResults results;
};

}  // namespace openloop::results

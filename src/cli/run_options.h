// `openloop run` options as typed by the user and their CLI11 declarations by group (cli/run_options.cpp);
// their checks are in cli/option_checks.h, the plan built from them in cli/plan_builder.h.
#pragma once

#include <string>
#include <vector>

#include <cstdio>

#include <CLI/CLI.hpp>

#include "core/error.h"
#include "engine/run_plan.h"
#include "results/run_results.h"
#include "results/judging/slo.h"
#include "workload/scenario_file.h"
#include "workload/shard_env.h"

namespace openloop::results {
class SloAbort;
}  // namespace openloop::results

namespace openloop::cli {

/// Help groups of run's options, in the order a newcomer needs them (CLI11 prints groups in order of first
/// use); ramp and probe put their own flags in the same groups.
namespace help_group {
inline constexpr const char* target = "Target";
inline constexpr const char* load = "Load model";
inline constexpr const char* client = "Client";
inline constexpr const char* retries = "Retries";
inline constexpr const char* outputs = "Outputs";
inline constexpr const char* judging = "Judging";
inline constexpr const char* advanced = "Advanced";
inline constexpr const char* sharding = "Sharding";  ///< run's own: --shard, --start-at and their kin
}  // namespace help_group

/// Raw option values (strings where units are parsed by openloop, so errors can name the flag).
struct RunOptions {
  std::string url;
  std::string rate, arrival = "constant", stages, duration = "10s", warmup = "0", timeout = "5s";
  std::uint64_t seed = 1;
  std::uint64_t vus = 0;
  std::string think = "0", pacing, max_rate, session_rate;
  std::uint64_t max_sessions = 0;
  std::uint64_t session_steps = 1;
  unsigned threads = 0;
  std::uint64_t max_connections = 0;
  std::uint64_t connections = 0;    ///< --connections: fixed connections for the run (0: derived)
  std::string protocol = "auto";    ///< --protocol auto|h1|h2
  bool http2 = false;               ///< --http2 (curl's spelling of --protocol h2)
  bool http1_1 = false;             ///< --http1.1 (curl's spelling of --protocol h1)
  std::uint32_t max_streams = 100;  ///< --max-streams: HTTP/2 streams open at once per connection
  std::uint32_t h2_window = (1U << 30) - 1;  ///< --h2-window: HTTP/2 stream and connection windows, bytes
  bool max_streams_given = false;  ///< --max-streams was on the command line (it wins over a plan file's)
  bool h2_window_given = false;    ///< --h2-window was on the command line (it wins over a plan file's)
  std::string on_saturation = "drop";
  std::string spin_below = "auto";
  std::string spin_budget;  ///< --spin-budget: a share of a core (empty: engine::k_default_spin_budget)
  std::string coalesce = "0";
  bool accept_bunching = false;
  std::string method = "GET";
  std::vector<std::string> headers;
  std::string body;
  bool insecure = false;
  std::string cacert;
  std::string server_timing_metric;  ///< --server-timing-metric (empty: the sum of every metric's dur)
  std::string success = "100-399";
  std::string deadline;      ///< --deadline: goodput counts successes within it (empty: the timeout)
  std::string max_lateness;  ///< --max-lateness: the verdict's send-lateness floor (empty: 1ms)
  std::string json;
  std::string hlog;        ///< HdrHistogram interval log of the run (empty: none)
  std::string html;        ///< self-contained HTML report (empty: none)
  bool no_html = false;    ///< --no-html: no HTML report, not even the one --json implies
  std::string report_dir;  ///< --report-dir: json, hlog and html together in this directory
  std::string junit;       ///< --junit: JUnit XML report for CI (empty: none)
  std::string metrics_listen;  ///< --metrics-listen: HOST:PORT of the live metrics endpoint (run only; empty: none)
  std::string metrics_linger = "0";  ///< --metrics-linger: serve the final totals this long after the run
  bool quiet = false;
  bool explain = false;     ///< --explain: the summary's legend even when not on a terminal
  bool no_explain = false;  ///< --no-explain: no legend, even on a terminal
  engine::RetryOptions retry;     ///< --retry-* flags, --per-try-timeout, --backoff*, --send-deadline
  std::vector<std::string> slos;  ///< --slo, as typed (parsed by parse_slos)
  bool abort_on_slo = false;      ///< --abort-on-slo: stop once an SLO is certain to fail
  std::vector<std::string> until;  ///< --until p99:±5% (repeatable): run past --duration until met
  std::string max_duration;        ///< --max-duration: the cap of a run with --until
  std::vector<std::string> env;   ///< -e NAME=value: ${NAME} in a plan or targets file (wins over the environment)
  std::string retarget;           ///< --target URL: replaces the plan's or targets' scheme://host:port
  std::string targets;            ///< --targets FILE|-: the requests, in Vegeta's targets format
  // --replay (cli/replay_options.cpp): a recorded trace as the arrivals and their requests.
  std::string replay;                      ///< --replay FILE (empty: none)
  std::string replay_format = "auto";      ///< --replay-format auto|nginx|jsonl
  std::string replay_log_format;           ///< --replay-log-format: nginx log_format (empty: combined)
  std::string speed = "1";                 ///< --speed X
  bool loop = false;                       ///< --loop
  std::string max_gap;                     ///< --max-gap D (empty: gaps kept)
  std::string replay_from, replay_to;      ///< --from, --to: trace time after its first record
  std::string reorder_window = "5s";       ///< --reorder-window D
  std::vector<std::string> keep_headers;   ///< --keep-header NAME
  std::vector<std::string> redact_params;  ///< --redact-param NAME
  bool skip_bad = false;                   ///< --skip-bad
  std::string session_key;                 ///< --session-key ip|header:NAME|cookie:NAME|field (empty: none)

  std::string shard;                    ///< --shard I/N (empty: from the environment, else unsharded)
  std::string shard_weights;            ///< --shard-weights 2,1,1 (empty: equal)
  std::string poisson_split = "stripe";  ///< --poisson-split stripe|thin
  std::string run_id;           ///< --run-id (else OPENLOOP_RUN_ID; cli/start_options.h)
  std::string start_at;         ///< --start-at: RFC 3339 wall-clock start (empty: at once)
  std::string max_late = "1s";  ///< --max-late: a later start exits 75

  std::string log_requests;         ///< --log-requests FILE|-: one line per request (empty: no log)
  std::string log_format = "json";  ///< --log-format json|csv
  std::vector<std::string> observe;  ///< --observe SPEC (cli/observe_options.h)
  std::string repeat;    ///< --repeat N: run the plan N times (empty: once; cli/run_repeats.h)
  std::string cooldown;  ///< --cooldown: idle between repeats (empty: 0)
};

/// Registers the options on `sub`, one group per function.
void add_run_options(CLI::App& sub, RunOptions& o);
/// Whether the summary printed to `to` ends with its legend (report/summary_legend): --explain, or a terminal
/// without --no-explain.
bool wants_legend(const RunOptions& o, std::FILE* to);
/// Registers the client retry policy flags (--retry-attempts, --retry-on, --per-try-timeout, --backoff,
/// --backoff-base, --backoff-max, --honor-retry-after, --retry-budget, --send-deadline) on `sub`; run, ramp
/// and probe share them. Validate with engine::parse_retry_policy.
void add_retry_options(CLI::App& sub, engine::RetryOptions& o);
/// Registers -e/--env, --target and --targets (what a plan or targets file takes from the command line).
void add_plan_input_options(CLI::App& sub, RunOptions& o);
/// The groups add_run_options() registers, for subcommands that share some of them (ramp, probe): the target
/// and request; the workload model and its length; the client policy (threads, connections, timeout,
/// success); outputs.
void add_target_options(CLI::App& sub, RunOptions& o);
void add_workload_options(CLI::App& sub, RunOptions& o);
void add_client_options(CLI::App& sub, RunOptions& o);
void add_output_options(CLI::App& sub, RunOptions& o);
/// `run`'s own judging flags (--deadline, --max-lateness); ramp registers its own with the same meaning.
void add_judging_options(CLI::App& sub, RunOptions& o);

/// Registers --shard, --shard-weights and --poisson-split (cli/shard_options.cpp).
void add_shard_options(CLI::App& sub, RunOptions& o);
/// This process's shard: --shard or the engines' variables in `env` (workload::detect_shard), the weights
/// and the Poisson split. Errors (usage): a malformed or conflicting source, weights without a shard or not
/// one per shard, a bad --poisson-split.
Result<workload::ShardSpec> shard_spec(const RunOptions& o, const workload::Environment& env);
/// Refuses (usage) a sharded closed or pacing plan that leaves this shard no users.
Result<void> check_shard_part(const engine::RunPlan& plan);

/// True when `target` names a scenario file (*.yaml, *.yml) rather than a URL.
bool is_plan_file(const std::string& target);
/// Refuses (usage) the flags a scenario file's run (run, simulate) does not take, naming the first: the workload
/// model's (--rate, --stages, --vus, --session-rate, --pacing, --max-rate: the file sets them) and --deadline
/// and --max-lateness (a file's runs use the timeout and the default lateness bound).
Result<void> refuse_workload_flags(const RunOptions& o);
/// A scenario file's run as its results file holds it (cli/run_scenarios.cpp): each scenario's results in
/// `scenarios` (--abort-on-slo marked), combined into the whole run; the SLOs judged on the scenarios
/// together; `source` the file. `ran` holds one result per plan, in order.
results::RunResults plan_file_results(const std::vector<engine::RunPlan>& plans,
                                      std::vector<results::RunResults> ran, const std::vector<results::Slo>& slos,
                                      const results::SloAbort* slo_abort, int stop, const std::string& source);
/// `openloop run plan.yaml`: runs every scenario of the file (cli/run_scenarios.cpp); returns the exit code.
int run_plan_file(const RunOptions& o);
/// The exit code of a finished run (DESIGN.md), first that applies: interrupted by a signal 130, unreachable
/// 4, invalid 3 (an invalid run's SLOs say nothing about the target), stopped by --abort-on-slo or an SLO not
/// met (or not evaluated) in r.slos 1, else 0.
int exit_code_for(const results::RunResults& r);

/// Upper bound of the requests `plan` intends over its measured period, for --abort-on-slo: the schedule's
/// expected count (open, sessions × steps) plus a margin for Poisson arrivals; infinity when users drive the
/// load (closed, pacing), which has no planned total.
double planned_intended(const engine::RunPlan& plan);

}  // namespace openloop::cli

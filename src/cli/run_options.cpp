// The option groups of `openloop run` as CLI11 declarations, one function per group (ramp and probe reuse
// some); their values are checked by cli/option_checks.h and built into a plan by cli/plan_builder.h.
#include "cli/run_options.h"

#include <unistd.h>

#include <algorithm>

#include <fmt/format.h>

#include "cli/observe_options.h"
#include "cli/option_checks.h"
#include "cli/replay_options.h"
#include "cli/start_options.h"
#include "core/units.h"

namespace openloop::cli {

namespace {

// Help groups (run_options.h), shared with ramp and probe.
constexpr const char* k_target = help_group::target;
constexpr const char* k_load = help_group::load;
constexpr const char* k_client = help_group::client;
constexpr const char* k_retries = help_group::retries;
constexpr const char* k_outputs = help_group::outputs;
constexpr const char* k_judging = help_group::judging;
constexpr const char* k_advanced = help_group::advanced;

// A count that must be at least 1 when given (0 would mean "none", which the flag cannot mean); refused at
// parse time naming the 0, with what to give instead.
CLI::Validator at_least_one(const std::string& instead) {
  return CLI::Validator(
      [instead](std::string& value) -> std::string {
        const auto first = value.find_first_not_of('0');
        if (!value.empty() && first == std::string::npos) return "0 is not accepted: " + instead;
        return {};
      },
      "");
}

}  // namespace

void add_target_options(CLI::App& sub, RunOptions& o) {
  sub.add_option(
         "target", o.url,
         "Target URL (http:// or https://; grpc:// or grpcs:// with --call), or a scenario file (plan.yaml)")
      ->required()
      ->type_name("URL|PLAN.yaml");
  sub.add_option("-X,--method", o.method, "HTTP method")
      ->capture_default_str()
      ->type_name("METHOD")
      ->group(k_target);
  sub.add_option("-H,--header", o.headers, "Request header 'Name: value' (repeatable)")
      ->type_name("'NAME: VALUE'")
      ->group(k_target);
  sub.add_option("--body", o.body, "Request body: TEXT, or @FILE to read it from a file")
      ->type_name("TEXT|@FILE")
      ->group(k_target);
  sub.add_flag("--insecure", o.insecure, "Do not verify the server's TLS certificate")->group(k_target);
  sub.add_option("--cacert", o.cacert, "Extra CA certificate (PEM) to trust")
      ->type_name("FILE")
      ->group(k_target);
  sub.add_option("--server-timing-metric", o.server_timing_metric,
                 "Which metric of a Server-Timing response header is the server's time (default: the sum of "
                 "every metric's dur); the rest of the response time is reported as outside the server")
      ->type_name("NAME")
      ->group(k_target);
  sub.add_option("--redact-param", o.redact_params,
                 "Write this query parameter's value as [redacted] in every output, as api_key, token, password "
                 "... always are (repeatable); a replayed trace's records are also sent with it REDACTED")
      ->type_name("NAME")
      ->group(k_target);
}

void add_plan_input_options(CLI::App& sub, RunOptions& o) {
  sub.add_option("-e,--env", o.env,
                 "NAME=value for ${NAME} in a plan or targets file (repeatable; wins over the environment)")
      ->type_name("NAME=VALUE")
      ->group(k_target);
  sub.add_option("--target", o.retarget,
                 "Send a plan's or targets file's requests to this scheme://host:port instead (paths kept)")
      ->type_name("URL")
      ->group(k_target);
  sub.add_option("--targets", o.targets,
                 "Requests from a targets file, Vegeta's format (METHOD URL, headers, @body), or - for "
                 "standard input; sent in turn, or by weight=N (docs/scenarios.md)")
      ->type_name("FILE|-")
      ->group(k_target);
}

void add_workload_options(CLI::App& sub, RunOptions& o) {
  sub.add_option("--rate", o.rate, "Open model: arrivals per second, e.g. 500/s or 30000/m")
      ->type_name("RATE")
      ->group(k_load);
  sub.add_option("--arrival", o.arrival, "Arrival process: constant | poisson")
      ->capture_default_str()
      ->type_name("KIND")
      ->group(k_load);
  sub.add_option("--stages", o.stages, "Rate stages, k6-style: 30s:100/s,1m:500/s (ramps between targets)")
      ->type_name("STAGES")
      ->group(k_load);
  sub.add_option("--seed", o.seed, "Seed for Poisson arrivals (same seed, same schedule)")
      ->capture_default_str()
      ->type_name("N")
      ->group(k_load);
  sub.add_option(
         "--vus", o.vus,
         "Closed model (the naive baseline): N users, each sends as soon as its last response arrives")
      ->type_name("N")
      ->check(at_least_one("give at least 1 user, or --rate R for an open model"))
      ->group(k_load);
  sub.add_option(
         "--think", o.think,
         "Think time after each iteration (closed) or step (sessions): 1s, exp:1s, uniform:0.5s..1.5s")
      ->type_name("DURATION")
      ->group(k_load);
  sub.add_option(
         "--pacing", o.pacing,
         "With --vus: each user starts an iteration at most every D (an overrun starts the next at once)")
      ->type_name("DURATION")
      ->group(k_load);
  sub.add_option("--max-rate", o.max_rate,
                 "With --vus: all users together start at most R iterations per second")
      ->type_name("RATE")
      ->group(k_load);
  sub.add_option("--session-rate", o.session_rate,
                 "Partly-open model: sessions arrive at R per second (constant or Poisson)")
      ->type_name("RATE")
      ->group(k_load);
  sub.add_option("--max-sessions", o.max_sessions,
                 "Partly-open model: concurrent sessions cap; a session that cannot start is dropped (default: "
                 "session rate × steps × (timeout + think) by Little's law, capped by the open-file limit; plan "
                 "files' max_sessions the same)")
      ->type_name("N")
      ->check(at_least_one("give at least 1 session, or leave it out for the default"))
      ->group(k_load);
  sub.add_option(
         "--session-steps", o.session_steps,
         "Partly-open model: requests per session, each after the previous response and the think time")
      ->capture_default_str()
      ->type_name("N")
      ->group(k_load);
  sub.add_option("-d,--duration", o.duration, "Measured duration, e.g. 30s, 2m")
      ->capture_default_str()
      ->type_name("DURATION")
      ->group(k_load);
  sub.add_option("--warmup", o.warmup, "Warm-up before measuring: sent, but reported apart")
      ->capture_default_str()
      ->type_name("DURATION")
      ->group(k_load);
}

void add_client_options(CLI::App& sub, RunOptions& o) {
  sub.add_option("-t,--threads", o.threads, "Worker threads (default: available cores)")
      ->type_name("N")
      ->check(at_least_one("give at least 1 worker thread, or leave it out for one per core"))
      ->group(k_client);
  sub.add_option("--max-connections", o.max_connections,
                 "Connection cap (default: rate × timeout by Little's law, capped by the open-file limit)")
      ->type_name("N")
      ->check(at_least_one("give at least 1 connection, or leave it out for the Little's-law default"))
      ->group(k_client);
  sub.add_option("--protocol", o.protocol,
                 "auto: HTTP/1.1 over http, ALPN's choice of h2 or http/1.1 over https | h1 | h2 (over http: "
                 "prior knowledge, h2c)")
      ->capture_default_str()
      ->type_name("auto|h1|h2")
      ->group(k_client);
  sub.add_flag("--http2", o.http2, "Same as --protocol h2 (curl's spelling)")->group(k_client);
  sub.add_flag("--http1.1", o.http1_1, "Same as --protocol h1 (curl's spelling)")->group(k_client);
  sub.add_option("--max-streams", o.max_streams,
                 "HTTP/2: streams open at once per connection, at most (the server's limit lowers it); an arrival "
                 "finding every stream of every connection busy follows --on-saturation")
      ->capture_default_str()
      ->type_name("N")
      ->check(CLI::Validator(
          [](std::string& value) -> std::string {
            const bool digits = !value.empty() && value.size() <= 7 &&
                                value.find_first_not_of("0123456789") == std::string::npos;
            if (digits && std::stoul(value) >= 1 && std::stoul(value) <= (1UL << 20)) return {};
            return "give 1 to 1048576 streams per connection (HTTP/2 allows no more)";
          },
          ""))
      ->each([&o](const std::string&) { o.max_streams_given = true; })
      ->group(k_client);
  sub.add_option("--h2-window", o.h2_window,
                 "HTTP/2: the flow-control window this client opens per stream and for the connection, in "
                 "bytes (default as h2load: 2^30 - 1)")
      ->capture_default_str()
      ->type_name("BYTES")
      ->check(CLI::Validator(
          [](std::string& value) -> std::string {
            const bool digits = !value.empty() && value.size() <= 10 &&
                                value.find_first_not_of("0123456789") == std::string::npos;
            if (digits && std::stoull(value) >= 1 && std::stoull(value) <= 2147483647ULL) return {};
            return "give a window of 1 to 2147483647 bytes (2^31 - 1, HTTP/2's largest)";
          },
          ""))
      ->each([&o](const std::string&) { o.h2_window_given = true; })
      ->group(k_client);
  sub.add_option("--connections", o.connections,
                 "Connections for the run, spread over the threads (default: opened as needed, up to one per "
                 "slot of the cap; over HTTP/2 each carries the streams the server allows)")
      ->type_name("N")
      ->check(at_least_one("give at least 1 connection, or leave it out for the default"))
      ->group(k_client);
  sub.add_option(
         "--on-saturation", o.on_saturation,
         "When every connection is busy at the cap: drop (count it) | queue (wait; latency still from the "
         "intended time)")
      ->capture_default_str()
      ->type_name("drop|queue")
      ->group(k_client);
  sub.add_option("--timeout", o.timeout,
                 "The client's patience per request, from its intended time (see --deadline for goodput)")
      ->capture_default_str()
      ->type_name("DURATION")
      ->group(k_client);
  sub.add_option("--success", o.success, "Statuses that count as success, e.g. 200-299")
      ->capture_default_str()
      ->type_name("STATUSES")
      ->group(k_client);
  sub.add_option("--spin-below", o.spin_below,
                 "Poll without sleeping through waits shorter than D, e.g. 20us; auto: what one timed sleep "
                 "costs in CPU on this machine, and where this host wakes sleeping threads too late for the "
                 "lateness bound, end each sleep early and spin the rest (within --spin-budget); both measured "
                 "at start (0: always sleep)")
      ->capture_default_str()
      ->type_name("DURATION|auto")
      ->group(k_advanced);
  sub.add_option("--spin-budget", o.spin_budget,
                 "--spin-below auto: the share of one core each worker may spend spinning, e.g. 0.25 or 25% "
                 "(default 50%), scaled down while the worker waits for a CPU and none once it waits a quarter "
                 "of its time; the summary says what was chosen and spent")
      ->type_name("SHARE")
      ->group(k_advanced);
  sub.add_option(
         "--coalesce", o.coalesce,
         "Open model: wake at most once per D, e.g. 100us, sending every arrival due by then (up to D "
         "late, measured) and timing responses by the kernel's receive stamps; cuts CPU per request "
         "(0: wake for each arrival and response; auto: a tenth of the measured p10 service time, at most "
         "half the lateness bound or 1ms, chosen per interval)")
      ->capture_default_str()
      ->type_name("DURATION")
      ->group(k_advanced);
  sub.add_flag("--accept-bunching", o.accept_bunching,
               "Report a failed arrival-process check (sends bunched or uneven against the plan, e.g. by a "
               "--coalesce window much longer than the gap) without making the run INVALID")
      ->group(k_advanced);
}

void add_retry_options(CLI::App& sub, engine::RetryOptions& o) {
  sub.add_option(
         "--retry-attempts", o.attempts,
         "Attempts per request in total, the first included (1 = no retries); the --timeout deadline from "
         "the intended time spans them all, and latency runs from the first intended time to the last "
         "outcome")
      ->capture_default_str()
      ->type_name("N")
      ->group(k_retries);
  sub.add_option(
         "--retry-on", o.retry_on,
         "What is retried: a comma list of timeout (a --per-try-timeout cut), connect, 5xx (and gRPC's "
         "UNAVAILABLE), 429 (and RESOURCE_EXHAUSTED) (default with retries: connect,5xx)")
      ->type_name("LIST")
      ->group(k_retries);
  sub.add_option("--per-try-timeout", o.per_try_timeout,
                 "Abandon an attempt (closing its connection) after D, or at the overall deadline if sooner "
                 "(default: none)")
      ->type_name("DURATION")
      ->group(k_retries);
  sub.add_option("--backoff", o.backoff,
                 "Jitter between attempts (AWS's variants): full | equal | decorrelated (default full)")
      ->type_name("KIND")
      ->group(k_retries);
  sub.add_option("--backoff-base", o.backoff_base,
                 "Backoff base: retry k waits up to base·2^(k-1) (default 25ms)")
      ->type_name("DURATION")
      ->group(k_retries);
  sub.add_option("--backoff-max", o.backoff_max, "Backoff cap (default 250ms)")
      ->type_name("DURATION")
      ->group(k_retries);
  sub.add_flag(
         "--honor-retry-after", o.honor_retry_after,
         "A 429 or 503 with Retry-After: SECONDS waits that long instead of the backoff (no retry when that "
         "passes the deadline); so does a gRPC call with grpc-retry-pushback-ms (negative or malformed: no "
         "retry)")
      ->group(k_retries);
  sub.add_option("--retry-budget", o.budget,
                 "Retry budget, each worker holding its share: ratio:20%[,min=10/s][,ttl=10s] (Finagle), "
                 "tokens:max=10[,ratio=0.1] (gRPC), quota:500[,cost=5][,timeout-cost=10] (AWS SDK)")
      ->type_name("BUDGET")
      ->group(k_retries);
  sub.add_option(
         "--send-deadline", o.send_deadline,
         "Send each attempt's remaining deadline in milliseconds in header NAME (as gRPC's grpc-timeout), "
         "e.g. X-Deadline, so the target can drop work nobody waits for")
      ->type_name("NAME")
      ->group(k_retries);
}

void add_output_options(CLI::App& sub, RunOptions& o) {
  sub.add_option("--json", o.json,
                 "Write the results (schema openloop.results/1) to FILE, atomically; the HTML report goes "
                 "beside it (results.json -> results.html) unless --html or --no-html says otherwise")
      ->type_name("FILE")
      ->group(k_outputs);
  sub.add_option(
         "--hlog", o.hlog,
         "Write an HdrHistogram interval log (format 1.3; tags response_time, service_time, send_lateness; "
         "server_time and outside_server with Server-Timing) to FILE, atomically")
      ->type_name("FILE")
      ->group(k_outputs);
  sub.add_option("--html", o.html, "Write a self-contained HTML report (opens offline) to FILE, atomically")
      ->type_name("FILE")
      ->group(k_outputs);
  sub.add_option("--junit", o.junit,
                 "Write a JUnit XML report to FILE, atomically: one test case per --slo and one for the verdict "
                 "(for CI; see docs/ci.md)")
      ->type_name("FILE")
      ->group(k_outputs);
  sub.add_flag("--no-html", o.no_html, "Do not write the HTML report that --json and --report-dir imply")
      ->group(k_outputs);
  sub.add_option("--report-dir", o.report_dir,
                 "Write results.json, results.hlog and report.html into DIR (created if missing; its parent "
                 "must exist)")
      ->type_name("DIR")
      ->group(k_outputs);
  sub.add_flag("-q,--quiet", o.quiet, "Print only the summary: no live view")->group(k_outputs);
  sub.add_option(
         "--slo", o.slos,
         "Service-level objective, repeatable: p99<=200ms, mean<50ms, max<=2s, errors<=0.1%, timeouts<1%, "
         "dropped<1%, goodput>=99%, throughput>=500/s; NAME:... for one request. Exit 1 when one is not met")
      ->type_name("SLO")
      ->group(k_judging);
  sub.add_flag(
         "--abort-on-slo", o.abort_on_slo,
         "Stop the run early (exit 1) once an --slo is certain to fail whatever the rest of the run does")
      ->group(k_judging);
  // Output paths are settled once parsing completes, so every command sees the files it will write.
  sub.parse_complete_callback([&o] {
    if (auto resolved = resolve_output_paths(o); !resolved)
      throw CLI::ValidationError(resolved.error().message);
  });
}

void add_judging_options(CLI::App& sub, RunOptions& o) {
  sub.add_option("--until", o.until,
                 "Run past --duration until the response time's PERCENTILE is known within ±PERCENT (its 95 % "
                 "interval), e.g. p99:±5% (repeatable: all must hold); needs --max-duration, an open run at one "
                 "--rate")
      ->type_name("PRECISION")
      ->group(k_judging);
  sub.add_option("--max-duration", o.max_duration,
                 "With --until: the longest the measured period may last; the summary says how much longer a "
                 "target not met would have needed")
      ->type_name("DURATION")
      ->group(k_judging);
  sub.add_option("--deadline", o.deadline,
                 "Goodput counts successes within D of their intended time; the client still waits up to "
                 "--timeout, so later responses count as throughput only (default: --timeout)")
      ->type_name("DURATION")
      ->group(k_judging);
  sub.add_option("--max-lateness", o.max_lateness,
                 "The run is INVALID when send-lateness p99 exceeds max(D, 10% of the arrival gap) (default "
                 "1ms; the arrival-process check is measured in this bound too); raise it only on a machine "
                 "too busy to send on time, and say so")
      ->type_name("DURATION")
      ->group(k_advanced);
}

bool wants_legend(const RunOptions& o, std::FILE* to) {
  return o.explain || (!o.no_explain && isatty(fileno(to)) != 0);
}

void add_run_options(CLI::App& sub, RunOptions& o) {
  add_target_options(sub, o);
  sub.get_option("target")->required(false);  // run also takes its requests from --targets
  add_plan_input_options(sub, o);
  add_workload_options(sub, o);
  add_client_options(sub, o);
  add_retry_options(sub, o.retry);
  add_output_options(sub, o);
  add_judging_options(sub, o);
  add_shard_options(sub, o);
  add_replay_options(sub, o);
  sub.add_option("--metrics-listen", o.metrics_listen,
                 "Serve the run's live state for Prometheus at http://ADDR/metrics (text format and OpenMetrics; "
                 "a thread of its own), e.g. 127.0.0.1:9464; a bad address exits 2 before any load")
      ->type_name("ADDR")
      ->group(k_outputs);
  sub.add_option("--metrics-linger", o.metrics_linger,
                 "With --metrics-listen: keep serving the final totals this long after the run (e.g. 3s, two "
                 "scrape intervals), so a scraper records the counts the results file holds (default 0)")
      ->type_name("DURATION")
      ->group(k_outputs);
  sub.add_flag("--explain", o.explain,
               "Under the summary, say what each of its numbers means (default: on a terminal)")
      ->group(k_outputs);
  sub.add_flag("--no-explain", o.no_explain, "No legend under the summary, even on a terminal")
      ->group(k_outputs)
      ->excludes("--explain");
  add_observe_option(sub, o.observe);
  sub.add_option("--log-requests", o.log_requests,
                 "Write one line per request to FILE (- = standard output; the summary then goes to standard "
                 "error): intended and send time, phases, status, bytes, outcome, request name. Records the "
                 "writer cannot keep up with are dropped and counted, never slowing the run")
      ->type_name("FILE")
      ->group(k_outputs);
  sub.add_option("--log-format", o.log_format, "Format of --log-requests: json (JSON lines, default) or csv")
      ->type_name("FORMAT")
      ->group(k_outputs);
  add_start_options(sub, o, help_group::sharding);
}

}  // namespace openloop::cli

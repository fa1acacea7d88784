// Option groups and validation for `openloop run`.
#include "cli/run_options.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <thread>

#include <fmt/format.h>

#include "cli/observe_options.h"
#include "cli/start_options.h"
#include "core/atomic_file.h"
#include "core/units.h"
#include "engine/scenario_plans.h"
#include "workload/command_line_request.h"
#include "workload/duration_distribution.h"
#include "workload/target_override.h"
#include "workload/targets_file.h"

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
  sub.add_option("target", o.url, "Target URL (http:// or https://), or a scenario file (plan.yaml)")
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
                 "Partly-open model: concurrent sessions cap; a session that cannot start is dropped")
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
                 "costs in CPU on this machine, measured at start (0: always sleep)")
      ->capture_default_str()
      ->type_name("DURATION|auto")
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
  sub.add_option("--retry-on", o.retry_on,
                 "What is retried: a comma list of timeout (a --per-try-timeout cut), connect, 5xx, 429 "
                 "(default with retries: connect,5xx)")
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
         "passes the deadline)")
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
      ->type_name("P:±W%")
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
                 "1ms); raise it only on a machine too busy to send on time, and say so")
      ->type_name("DURATION")
      ->group(k_advanced);
}

Result<void> resolve_output_paths(RunOptions& o) {
  if (!o.report_dir.empty()) {
    std::filesystem::path dir(o.report_dir);
    if (!dir.has_filename() && dir.has_relative_path()) dir = dir.parent_path();  // "results/" is "results"
    const std::pair<std::string*, const char*> files[] = {
        {&o.json, "results.json"}, {&o.hlog, "results.hlog"}, {&o.html, "report.html"}};
    for (const auto& [path, name] : files) {
      if (!path->empty()) {
        return usage_error(fmt::format(
            "--report-dir: writes {} itself; give either --report-dir or the single output flags", name));
      }
    }
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) {
      const std::filesystem::path parent = dir.parent_path();
      if (!parent.empty() && !std::filesystem::is_directory(parent, ec)) {
        return usage_error(
            fmt::format("--report-dir: the parent directory of \"{}\" does not exist", o.report_dir));
      }
      if (!std::filesystem::create_directory(dir, ec) && ec) {
        return usage_error(fmt::format("--report-dir: cannot create \"{}\": {}", o.report_dir, ec.message()));
      }
    }
    for (const auto& [path, name] : files) *path = (dir / name).string();
  } else if (!o.json.empty() && o.html.empty()) {
    std::filesystem::path html(o.json);
    html.replace_extension(".html");
    if (html.string() == o.json) html = o.json + ".html";
    o.html = html.string();
  }
  if (o.no_html) o.html.clear();
  return {};
}

Result<std::optional<Nanos>> parse_spin_below(const std::string& text) {
  if (text == "auto") return std::optional<Nanos>();
  const Nanos d = OPENLOOP_TRY(parse_duration(text, "--spin-below"));
  if (d > std::chrono::milliseconds(10)) {
    return usage_error(
        fmt::format("--spin-below: \"{}\" is more than 10ms; use auto, 0 or a wait such as 20us", text));
  }
  return std::optional<Nanos>(d);
}

Result<Nanos> parse_coalesce(const std::string& text) {
  if (text == "auto") return engine::k_coalesce_auto;
  const Nanos d = OPENLOOP_TRY(parse_duration(text, "--coalesce"));
  if (d > std::chrono::milliseconds(100)) {
    return usage_error(
        fmt::format("--coalesce: \"{}\" is more than 100ms; use 0 (off), auto or a window such as 100us", text));
  }
  return d;
}

namespace {

Result<std::pair<int, int>> parse_success(const std::string& text) {
  int lo = 0, hi = 0;
  char dash = 0;
  if (std::sscanf(text.c_str(), "%d%c%d", &lo, &dash, &hi) == 3 && dash == '-' && 100 <= lo && lo <= hi &&
      hi <= 599) {
    return std::pair{lo, hi};
  }
  if (std::sscanf(text.c_str(), "%d", &lo) == 1 && text.find('-') == std::string::npos && 100 <= lo &&
      lo <= 599 && std::to_string(lo) == text) {
    return std::pair{lo, lo};
  }
  return usage_error(fmt::format("--success: \"{}\" is not a status range; use e.g. 200-299 or 200", text));
}

// The plan's requests from a workload built here (templates on the command line): one per template, picked by
// the scenario's mix; templated ones render per request, the others are sent as rendered once.
void use_workload(engine::RunPlan& plan, std::shared_ptr<const workload::WorkloadPlan> w) {
  plan.url = w->target;
  // Each request's success range is set from --success afterwards (build_client).
  plan.requests = engine::requests_of(*w, w->scenarios.front());
  plan.workload = std::move(w);
  plan.scenario_index = 0;
}

// --targets: a request mix from a targets file or standard input, -H added to every target.
Result<void> build_targets(const RunOptions& o, engine::RunPlan& plan) {
  if (!o.body.empty()) return usage_error("--body: with --targets each target gives its body (an @file line)");
  if (o.method != "GET") return usage_error("-X: with --targets each target gives its method (METHOD URL)");
  const workload::PlanInputs inputs = OPENLOOP_TRY(plan_inputs(o));
  const bool from_stdin = o.targets == "-";
  const std::string source = from_stdin ? "stdin" : o.targets;
  std::filesystem::path base_dir = from_stdin ? std::filesystem::path(".") : std::filesystem::path(o.targets);
  base_dir = from_stdin ? base_dir : base_dir.parent_path();
  if (base_dir.empty()) base_dir = ".";
  const std::string raw = OPENLOOP_TRY(workload::read_targets_input(o.targets));
  const std::string text = OPENLOOP_TRY(workload::substitute_variables(raw, source, inputs.variables));
  const auto targets = OPENLOOP_TRY(workload::parse_targets(text, source, base_dir));
  workload::TargetsOptions options;
  options.headers = plan.headers;
  if (!inputs.target.empty()) options.target = OPENLOOP_TRY(workload::parse_target_override(inputs.target));
  options.seed = o.seed;
  auto w = std::make_shared<const workload::WorkloadPlan>(
      OPENLOOP_TRY(workload::plan_from_targets(targets, source, options, base_dir)));
  plan.url_text = w->target_text;
  plan.method = w->requests.front().method();
  plan.round_robin = !workload::weighted(targets);
  use_workload(plan, std::move(w));
  return {};
}

Result<void> build_request(const RunOptions& o, engine::RunPlan& plan) {
  if (o.url.empty() && o.targets.empty()) {
    return usage_error(
        "no target: give a URL (http://host:port/path), a plan file (plan.yaml) or --targets FILE");
  }
  if (o.targets.empty() && (!o.env.empty() || !o.retarget.empty())) {
    return usage_error(fmt::format(
        "{}: applies to a plan file or --targets; a run of one URL sends to that URL as given",
        o.env.empty() ? "--target" : "-e"));
  }
  plan.url_text = o.url;
  plan.method = o.method;
  plan.insecure = o.insecure;
  plan.ca_file = o.cacert;
  plan.server_timing_metric = OPENLOOP_TRY(check_server_timing_metric(o.server_timing_metric));
  for (const auto& h : o.headers) plan.headers.push_back(OPENLOOP_TRY(http::parse_header_arg(h)));
  if (!o.targets.empty()) return build_targets(o, plan);
  const bool body_file = !o.body.empty() && o.body.front() == '@';
  if (body_file) {
    auto content = read_file(o.body.substr(1));
    if (!content) return usage_error(fmt::format("--body: {}", content.error().message));
    plan.body = std::move(*content);
  } else {
    plan.body = o.body;
  }
  const bool templated =
      workload::has_template(o.url) || (!body_file && workload::has_template(o.body)) ||
      std::any_of(plan.headers.begin(), plan.headers.end(),
                  [](const http::Header& h) { return workload::has_template(h.value); });
  if (templated) {
    workload::CommandLineRequest r{o.url, o.method, plan.headers, plan.body, !body_file, {}, o.seed};
    use_workload(plan, std::make_shared<const workload::WorkloadPlan>(
                           OPENLOOP_TRY(workload::plan_from_command_line(r, "."))));
    return {};
  }
  plan.url = OPENLOOP_TRY(net::parse_url(o.url, "URL"));
  engine::RequestSpec spec;
  spec.name = plan.method + " " + plan.url.target;
  spec.method = plan.method;
  spec.bytes = OPENLOOP_TRY(http::render_request(plan.method, plan.url, plan.headers, plan.body));
  plan.requests.push_back(std::move(spec));
  return {};
}

Result<void> build_users(const RunOptions& o, engine::RunPlan& plan) {
  plan.model = engine::Model::closed;
  plan.users = o.vus;
  if (plan.duration.count() == 0) return usage_error("--duration: must be greater than 0 for a closed run");
  if (!o.pacing.empty()) {
    plan.model = engine::Model::pacing;
    plan.pacing = OPENLOOP_TRY(parse_duration(o.pacing, "--pacing"));
    if (plan.pacing.count() == 0) return usage_error("--pacing: must be greater than 0, e.g. 2s");
  }
  if (!o.max_rate.empty()) {
    plan.model = engine::Model::pacing;
    plan.max_rate = OPENLOOP_TRY(parse_rate(o.max_rate, "--max-rate"));
    if (plan.max_rate <= 0)
      return usage_error(fmt::format("--max-rate: \"{}\" must be greater than 0", o.max_rate));
  }
  return {};
}

Result<void> build_sessions(const RunOptions& o, engine::RunPlan& plan) {
  plan.model = engine::Model::sessions;
  const double rate = OPENLOOP_TRY(parse_rate(o.session_rate, "--session-rate"));
  if (rate <= 0)
    return usage_error(fmt::format("--session-rate: \"{}\" must be greater than 0", o.session_rate));
  if (plan.duration.count() == 0) return usage_error("--duration: must be greater than 0");
  if (o.session_steps == 0 || o.session_steps > 10000) {
    return usage_error(fmt::format("--session-steps: {} is not accepted; use 1..10000", o.session_steps));
  }
  plan.profile = workload::RateProfile::constant(rate, plan.warmup + plan.duration);
  for (std::uint64_t i = 0; i < o.session_steps; ++i) plan.steps.push_back(engine::Step{0, plan.think});
  return {};
}

Result<void> build_workload(const RunOptions& o, engine::RunPlan& plan) {
  plan.duration = OPENLOOP_TRY(parse_duration(o.duration, "--duration"));
  plan.warmup = OPENLOOP_TRY(parse_duration(o.warmup, "--warmup"));
  plan.arrival = OPENLOOP_TRY(workload::parse_arrival_kind(o.arrival, "--arrival"));
  plan.seed = o.seed;
  const int models = (o.vus > 0 ? 1 : 0) + (!o.rate.empty() ? 1 : 0) + (!o.stages.empty() ? 1 : 0) +
                     (!o.session_rate.empty() ? 1 : 0);
  if (models != 1) {
    return usage_error(
        "run: give exactly one of --rate R (open model), --stages S (open model with ramps), --vus N (closed "
        "model) or --session-rate R (partly-open model)");
  }
  plan.think = OPENLOOP_TRY(workload::DurationDistribution::parse(o.think, "--think"));
  if (o.vus > 0) return build_users(o, plan);
  if ((!o.pacing.empty() || !o.max_rate.empty()))
    return usage_error("--pacing and --max-rate need --vus N (users to pace)");
  if (!o.session_rate.empty()) return build_sessions(o, plan);
  if (!o.stages.empty()) {
    // Stages define the whole run; the warm-up is the leading part of it.
    plan.profile = OPENLOOP_TRY(workload::RateProfile::parse_stages(o.stages, "--stages"));
    if (plan.warmup >= plan.profile.duration()) {
      return usage_error(fmt::format("--warmup: {} leaves nothing to measure in --stages lasting {}",
                                     format_duration(plan.warmup), format_duration(plan.profile.duration())));
    }
    plan.duration = plan.profile.duration() - plan.warmup;
    return {};
  }
  const double rate = OPENLOOP_TRY(parse_rate(o.rate, "--rate"));
  if (rate <= 0) return usage_error(fmt::format("--rate: \"{}\" must be greater than 0", o.rate));
  if (plan.duration.count() == 0) return usage_error("--duration: must be greater than 0");
  if (!o.until.empty()) {
    // Planned to the cap; the run stops earlier once every target holds (results/until.h).
    const Nanos cap = OPENLOOP_TRY(parse_duration(o.max_duration, "--max-duration"));
    if (cap < plan.duration) {
      return usage_error(fmt::format("--max-duration: {} is shorter than --duration {}; the run lasts at least "
                                     "--duration and at most --max-duration",
                                     format_duration(cap), format_duration(plan.duration)));
    }
    plan.duration = cap;
  }
  plan.profile = workload::RateProfile::constant(rate, plan.warmup + plan.duration);
  return {};
}

// --until and --max-duration go together, on an open run at one --rate from flags.
Result<void> check_until_model(const RunOptions& o) {
  if (o.until.empty() && o.max_duration.empty()) return {};
  if (o.until.empty()) return usage_error("--max-duration: applies with --until (e.g. --until p99:±5%)");
  if (o.max_duration.empty())
    return usage_error("--until: needs --max-duration D, the longest the run may go on (e.g. --max-duration 5m)");
  if (o.rate.empty()) {
    return usage_error(
        "--until: applies to an open run at one --rate (not --stages, --vus or --session-rate: their shape "
        "is the plan)");
  }
  return {};
}

// --deadline (within --timeout: the client may wait longer than goodput counts, never shorter) and
// --max-lateness; needs plan.timeout.
Result<void> build_judging(const RunOptions& o, engine::RunPlan& plan) {
  if (!o.deadline.empty()) {
    plan.deadline = OPENLOOP_TRY(parse_duration(o.deadline, "--deadline"));
    if (plan.deadline.count() == 0) return usage_error("--deadline: must be greater than 0, e.g. 100ms");
    if (plan.deadline > plan.timeout) {
      return usage_error(
          fmt::format("--deadline {} is longer than --timeout {}: the client would give up before the "
                      "deadline; raise --timeout",
                      o.deadline, o.timeout));
    }
  }
  if (!o.max_lateness.empty()) {
    plan.max_lateness = OPENLOOP_TRY(parse_duration(o.max_lateness, "--max-lateness"));
    if (plan.max_lateness.count() == 0)
      return usage_error("--max-lateness: must be greater than 0, e.g. 5ms (the default is 1ms)");
  }
  return {};
}

Result<void> build_client(const RunOptions& o, engine::RunPlan& plan) {
  plan.spin_below = OPENLOOP_TRY(parse_spin_below(o.spin_below));
  plan.coalesce = OPENLOOP_TRY(parse_coalesce(o.coalesce));
  plan.accept_bunching = o.accept_bunching;
  if (plan.coalesce.count() != 0 && plan.model != engine::Model::open) {
    return usage_error(
        fmt::format("--coalesce: applies to the open model (--rate or --stages); a {} run sends "
                    "on responses, which it must not sleep through",
                    engine::to_string(plan.model)));
  }
  plan.timeout = OPENLOOP_TRY(parse_duration(o.timeout, "--timeout"));
  if (plan.timeout.count() == 0) return usage_error("--timeout: must be greater than 0, e.g. 5s");
  OPENLOOP_TRY_VOID(build_judging(o, plan));
  plan.retry = OPENLOOP_TRY(engine::parse_retry_policy(o.retry, plan.timeout));
  const auto [lo, hi] = OPENLOOP_TRY(parse_success(o.success));
  plan.success_min = lo;
  plan.success_max = hi;
  for (auto& r : plan.requests) {
    r.success_min = lo;
    r.success_max = hi;
  }
  if (o.on_saturation == "drop") {
    plan.on_saturation = engine::OnSaturation::drop;
  } else if (o.on_saturation == "queue") {
    plan.on_saturation = engine::OnSaturation::queue;
  } else {
    return usage_error(
        fmt::format("--on-saturation: \"{}\" is not accepted; use drop or queue", o.on_saturation));
  }
  const unsigned cores = std::max(1U, std::thread::hardware_concurrency());
  plan.threads = o.threads > 0 ? o.threads : cores;
  if (plan.threads > 1024)
    return usage_error(fmt::format("--threads: {} is too many; use 1..1024", o.threads));
  const std::uint64_t fd_limit = raise_fd_limit();
  if (plan.user_driven()) {
    plan.threads = static_cast<unsigned>(std::min<std::uint64_t>(plan.threads, plan.users));
    plan.max_connections = plan.users;
  } else if (plan.model == engine::Model::sessions) {
    // Default cap by Little's law: session rate × (steps × (timeout + mean think)), with headroom.
    const double per_session =
        static_cast<double>(plan.steps.size()) * (to_seconds(plan.timeout) + to_seconds(plan.think.mean()));
    plan.max_sessions = o.max_sessions > 0
                            ? o.max_sessions
                            : engine::default_max_connections(
                                  plan.profile.max_rate() * per_session / to_seconds(plan.timeout),
                                  plan.timeout, plan.threads, fd_limit);
    plan.max_connections = plan.max_sessions;
    if (plan.max_sessions < plan.threads) plan.threads = static_cast<unsigned>(plan.max_sessions);
  } else {
    plan.max_connections =
        o.max_connections > 0
            ? o.max_connections
            : engine::default_max_connections(plan.profile.max_rate(), plan.timeout, plan.threads, fd_limit);
    if (plan.max_connections < plan.threads) plan.threads = static_cast<unsigned>(plan.max_connections);
  }
  if (plan.max_connections + 64 > fd_limit) {
    return usage_error(fmt::format("--max-connections: {} needs more open files than the limit {} allows",
                                   plan.max_connections, fd_limit));
  }
  return {};
}

}  // namespace

nlohmann::json run_environment() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return {{"host", std::string(name)},
          {"cores", std::thread::hardware_concurrency()},
          {"openloop_version", OPENLOOP_VERSION}};
}

std::uint64_t raise_fd_limit() {
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return 1024;
  if (rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    getrlimit(RLIMIT_NOFILE, &rl);
  }
  return rl.rlim_cur;
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

Result<workload::PlanInputs> plan_inputs(const RunOptions& o) {
  if (!o.targets.empty() && !o.url.empty()) {
    return usage_error(fmt::format(
        "--targets: the requests come from {}; drop \"{}\" (to send them to another host, use --target URL)",
        o.targets == "-" ? "standard input" : o.targets, o.url));
  }
  return workload::make_plan_inputs(o.env, o.retarget);
}

Result<std::vector<results::Slo>> parse_slos(const RunOptions& o,
                                             const std::vector<std::string>& request_names) {
  const bool none = std::find(o.slos.begin(), o.slos.end(), "none") != o.slos.end();
  if (none && o.slos.size() > 1) {
    return usage_error(
        "--slo none: measures without judging, so it cannot be given with other --slo objectives (drop "
        "either)");
  }
  if (o.abort_on_slo && (o.slos.empty() || none)) {
    return usage_error("--abort-on-slo: needs at least one --slo to judge, e.g. --slo 'p99<=200ms'");
  }
  if (none) return std::vector<results::Slo>{};
  if (o.slos.empty()) return std::vector<results::Slo>{results::default_slo()};
  std::vector<results::Slo> out;
  for (const auto& text : o.slos) {
    results::Slo slo = OPENLOOP_TRY(results::parse_slo(text, "--slo"));
    if (!slo.request.empty() &&
        std::find(request_names.begin(), request_names.end(), slo.request) == request_names.end()) {
      std::string names;
      for (const auto& n : request_names) names += fmt::format("{}\"{}\"", names.empty() ? "" : ", ", n);
      return usage_error(fmt::format("--slo \"{}\": the plan has no request named \"{}\" (its requests: {})",
                                     text, slo.request, names));
    }
    out.push_back(std::move(slo));
  }
  return out;
}

Result<std::string> check_server_timing_metric(const std::string& name) {
  const bool token = std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || std::string_view("!#$%&'*+-.^_`|~").find(c) !=
                                                                   std::string_view::npos;
  });
  if (!token) {
    return usage_error(fmt::format("--server-timing-metric: \"{}\" is not a metric name (letters, digits and "
                                   "!#$%&'*+-.^_`|~, as in `app;dur=12.3`)",
                                   name));
  }
  return name;
}

Result<std::vector<results::UntilTarget>> parse_until_targets(const RunOptions& o) {
  std::vector<results::UntilTarget> out;
  for (const auto& t : o.until) out.push_back(OPENLOOP_TRY(results::parse_until(t)));
  return out;
}

Result<engine::RunPlan> build_plan(const RunOptions& o) {
  engine::RunPlan plan;
  OPENLOOP_TRY_VOID(check_until_model(o));
  OPENLOOP_TRY_VOID(parse_until_targets(o));
  OPENLOOP_TRY_VOID(build_request(o, plan));
  OPENLOOP_TRY_VOID(build_workload(o, plan));
  OPENLOOP_TRY_VOID(build_client(o, plan));
  plan.shard = OPENLOOP_TRY(shard_spec(o, workload::shard_environment()));
  OPENLOOP_TRY_VOID(check_shard_part(plan));
  const SteadyTime resolving = SteadyClock::now();
  plan.endpoints = OPENLOOP_TRY(net::resolve(plan.url.host, plan.url.port));
  plan.dns_time =
      SteadyClock::now() - resolving;  // the one resolution of the run (reported as the DNS phase)
  return plan;
}

}  // namespace openloop::cli

// Option groups and validation for `openloop run`.
#include "cli/run_options.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <thread>

#include <fmt/format.h>

#include "core/atomic_file.h"
#include "core/units.h"
#include "workload/duration_distribution.h"

namespace openloop::cli {

void add_target_options(CLI::App& sub, RunOptions& o) {
  sub.add_option("target", o.url, "Target URL (http:// or https://), or a scenario file (plan.yaml)")
      ->required();
  sub.add_option("-X,--method", o.method, "HTTP method")->capture_default_str();
  sub.add_option("-H,--header", o.headers, "Request header 'Name: value' (repeatable)");
  sub.add_option("--body", o.body, "Request body: TEXT, or @FILE to read it from a file");
  sub.add_flag("--insecure", o.insecure, "Do not verify the server's TLS certificate");
  sub.add_option("--cacert", o.cacert, "Extra CA certificate (PEM) to trust");
}

void add_workload_options(CLI::App& sub, RunOptions& o) {
  sub.add_option("--rate", o.rate, "Open model: arrivals per second, e.g. 500/s or 30000/m");
  sub.add_option("--arrival", o.arrival, "Arrival process: constant | poisson")->capture_default_str();
  sub.add_option("--stages", o.stages, "Rate stages, k6-style: 30s:100/s,1m:500/s (ramps between targets)");
  sub.add_option("--seed", o.seed, "Seed for Poisson arrivals (same seed, same schedule)")
      ->capture_default_str();
  sub.add_option(
      "--vus", o.vus,
      "Closed model (the naive baseline): N users, each sends as soon as its last response arrives");
  sub.add_option(
      "--think", o.think,
      "Think time after each iteration (closed) or step (sessions): 1s, exp:1s, uniform:0.5s..1.5s");
  sub.add_option(
      "--pacing", o.pacing,
      "With --vus: each user starts an iteration at most every D (an overrun starts the next at once)");
  sub.add_option("--max-rate", o.max_rate,
                 "With --vus: all users together start at most R iterations per second");
  sub.add_option("--session-rate", o.session_rate,
                 "Partly-open model: sessions arrive at R per second (constant or Poisson)");
  sub.add_option("--max-sessions", o.max_sessions,
                 "Partly-open model: concurrent sessions cap; a session that cannot start is dropped");
  sub.add_option(
         "--session-steps", o.session_steps,
         "Partly-open model: requests per session, each after the previous response and the think time")
      ->capture_default_str();
  sub.add_option("-d,--duration", o.duration, "Measured duration, e.g. 30s, 2m")->capture_default_str();
  sub.add_option("--warmup", o.warmup, "Warm-up before measuring: sent, but reported apart")
      ->capture_default_str();
}

void add_client_options(CLI::App& sub, RunOptions& o) {
  sub.add_option("-t,--threads", o.threads, "Worker threads (default: available cores)");
  sub.add_option("--max-connections", o.max_connections,
                 "Connection cap (default: rate × timeout by Little's law, capped by the open-file limit)");
  sub.add_option(
         "--on-saturation", o.on_saturation,
         "When every connection is busy at the cap: drop (count it) | queue (wait; latency still from the "
         "intended time)")
      ->capture_default_str();
  sub.add_option("--spin-below", o.spin_below,
                 "Poll without sleeping through waits shorter than D, e.g. 20us; auto: what one timed sleep "
                 "costs in CPU on this machine, measured at start (0: always sleep)")
      ->capture_default_str();
  sub.add_option(
         "--coalesce", o.coalesce,
         "Open model: wake at most once per D, e.g. 100us, sending every arrival due by then (up to D "
         "late, measured) and timing responses by the kernel's receive stamps; cuts CPU per request "
         "(0: wake for each arrival and response)")
      ->capture_default_str();
  sub.add_option("--timeout", o.timeout, "Client deadline per request, from its intended time")
      ->capture_default_str();
  sub.add_option("--success", o.success, "Statuses that count as success, e.g. 200-299")
      ->capture_default_str();
}

void add_retry_options(CLI::App& sub, engine::RetryOptions& o) {
  sub.add_option(
         "--retry-attempts", o.attempts,
         "Attempts per request in total, the first included (1 = no retries); the --timeout deadline from "
         "the intended time spans them all, and latency runs from the first intended time to the last "
         "outcome")
      ->capture_default_str();
  sub.add_option("--retry-on", o.retry_on,
                 "What is retried: a comma list of timeout (a --per-try-timeout cut), connect, 5xx, 429 "
                 "(default with retries: connect,5xx)");
  sub.add_option("--per-try-timeout", o.per_try_timeout,
                 "Abandon an attempt (closing its connection) after D, or at the overall deadline if sooner "
                 "(default: none)");
  sub.add_option("--backoff", o.backoff,
                 "Jitter between attempts (AWS's variants): full | equal | decorrelated (default full)");
  sub.add_option("--backoff-base", o.backoff_base,
                 "Backoff base: retry k waits up to base·2^(k-1) (default 25ms)");
  sub.add_option("--backoff-max", o.backoff_max, "Backoff cap (default 250ms)");
  sub.add_flag(
      "--honor-retry-after", o.honor_retry_after,
      "A 429 or 503 with Retry-After: SECONDS waits that long instead of the backoff (no retry when that "
      "passes the deadline)");
  sub.add_option("--retry-budget", o.budget,
                 "Retry budget, each worker holding its share: ratio:20%[,min=10/s][,ttl=10s] (Finagle), "
                 "tokens:max=10[,ratio=0.1] (gRPC), quota:500[,cost=5][,timeout-cost=10] (AWS SDK)");
  sub.add_option(
      "--send-deadline", o.send_deadline,
      "Send each attempt's remaining deadline in milliseconds in header NAME (as gRPC's grpc-timeout), "
      "e.g. X-Deadline, so the target can drop work nobody waits for");
}

void add_output_options(CLI::App& sub, RunOptions& o) {
  sub.add_option("--json", o.json, "Write the results (schema openloop.results/1) to FILE, atomically");
  sub.add_option(
      "--hlog", o.hlog,
      "Write an HdrHistogram interval log (format 1.3; tags response_time, service_time, send_lateness) "
      "to FILE, atomically");
  sub.add_option("--html", o.html, "Write a self-contained HTML report (opens offline) to FILE, atomically");
  sub.add_flag("-q,--quiet", o.quiet, "Print only the summary: no live view");
  sub.add_option(
      "--slo", o.slos,
      "Service-level objective, repeatable: p99<=200ms, mean<50ms, max<=2s, errors<=0.1%, timeouts<1%, "
      "dropped<1%, goodput>=99%, throughput>=500/s; NAME:... for one request. Exit 1 when one is not met");
  sub.add_flag(
      "--abort-on-slo", o.abort_on_slo,
      "Stop the run early (exit 1) once an --slo is certain to fail whatever the rest of the run does");
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
  const Nanos d = OPENLOOP_TRY(parse_duration(text, "--coalesce"));
  if (d > std::chrono::milliseconds(100)) {
    return usage_error(
        fmt::format("--coalesce: \"{}\" is more than 100ms; use 0 (off) or a window such as 100us", text));
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

Result<void> build_request(const RunOptions& o, engine::RunPlan& plan) {
  plan.url_text = o.url;
  plan.url = OPENLOOP_TRY(net::parse_url(o.url, "URL"));
  plan.method = o.method;
  for (const auto& h : o.headers) plan.headers.push_back(OPENLOOP_TRY(http::parse_header_arg(h)));
  if (!o.body.empty() && o.body.front() == '@') {
    auto content = read_file(o.body.substr(1));
    if (!content) return usage_error(fmt::format("--body: {}", content.error().message));
    plan.body = std::move(*content);
  } else {
    plan.body = o.body;
  }
  engine::RequestSpec spec;
  spec.name = plan.method + " " + plan.url.target;
  spec.method = plan.method;
  spec.bytes = OPENLOOP_TRY(http::render_request(plan.method, plan.url, plan.headers, plan.body));
  plan.requests.push_back(std::move(spec));
  plan.insecure = o.insecure;
  plan.ca_file = o.cacert;
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
  plan.profile = workload::RateProfile::constant(rate, plan.warmup + plan.duration);
  return {};
}

Result<void> build_client(const RunOptions& o, engine::RunPlan& plan) {
  plan.spin_below = OPENLOOP_TRY(parse_spin_below(o.spin_below));
  plan.coalesce = OPENLOOP_TRY(parse_coalesce(o.coalesce));
  if (plan.coalesce.count() > 0 && plan.model != engine::Model::open) {
    return usage_error(
        fmt::format("--coalesce: applies to the open model (--rate or --stages); a {} run sends "
                    "on responses, which it must not sleep through",
                    engine::to_string(plan.model)));
  }
  plan.timeout = OPENLOOP_TRY(parse_duration(o.timeout, "--timeout"));
  if (plan.timeout.count() == 0) return usage_error("--timeout: must be greater than 0, e.g. 5s");
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

// Output files are written after the run: refuse now a path whose directory does not exist, before anything
// is sent.
Result<void> check_outputs(const RunOptions& o) {
  const std::pair<const char*, const std::string*> outputs[] = {{"--hlog", &o.hlog}, {"--html", &o.html}};
  for (const auto& [flag, path] : outputs) {
    if (path->empty()) continue;
    const std::filesystem::path parent = std::filesystem::path(*path).parent_path();
    std::error_code ec;
    if (!parent.empty() && !std::filesystem::is_directory(parent, ec)) {
      return usage_error(fmt::format("{}: the directory of \"{}\" does not exist", flag, *path));
    }
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
  add_workload_options(sub, o);
  add_client_options(sub, o);
  add_retry_options(sub, o.retry);
  add_output_options(sub, o);
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

Result<engine::RunPlan> build_plan(const RunOptions& o) {
  engine::RunPlan plan;
  OPENLOOP_TRY_VOID(build_request(o, plan));
  OPENLOOP_TRY_VOID(build_workload(o, plan));
  OPENLOOP_TRY_VOID(build_client(o, plan));
  OPENLOOP_TRY_VOID(check_outputs(o));
  plan.endpoints = OPENLOOP_TRY(net::resolve(plan.url.host, plan.url.port));
  return plan;
}

}  // namespace openloop::cli

// Flags → RunPlan, as a pure function (cli/plan_builder.h): every flag checked and turned into the plan; the
// machine's facts come in as HostFacts, and the target is resolved afterwards (cli/plan_host.h).
#include "cli/plan_builder.h"

#include <algorithm>
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "cli/grpc_plan.h"
#include "cli/option_checks.h"
#include "cli/replay_options.h"
#include "core/atomic_file.h"
#include "core/redact.h"
#include "core/units.h"
#include "engine/scenario_plans.h"
#include "http/request.h"
#include "net/url.h"
#include "workload/command_line_request.h"
#include "workload/duration_distribution.h"
#include "workload/target_override.h"
#include "workload/targets_file.h"

namespace openloop::cli {
namespace {

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
  if (!o.body.empty())
    return usage_error("--body: with --targets each target gives its body (an @file line)");
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
  options.redact = plan.redact;
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
    return usage_error(
        fmt::format("{}: applies to a plan file or --targets; a run of one URL sends to that URL as given",
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
  const bool templated = workload::has_template(o.url) || (!body_file && workload::has_template(o.body)) ||
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
  spec.name = plan.method + " " + plan.redact.url(plan.url.target);  // shown in every output
  spec.method = plan.method;
  spec.request = OPENLOOP_TRY(http::build_request(plan.method, plan.url, plan.headers, plan.body));
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
        "give exactly one of --rate R (open model), --stages S (open model with ramps), --vus N (closed "
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
    // Planned to the cap; the run stops earlier once every target holds (results/judging/until.h).
    const Nanos cap = OPENLOOP_TRY(parse_duration(o.max_duration, "--max-duration"));
    if (cap < plan.duration) {
      return usage_error(
          fmt::format("--max-duration: {} is shorter than --duration {}; the run lasts at least "
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
    return usage_error(
        "--until: needs --max-duration D, the longest the run may go on (e.g. --max-duration 5m)");
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
  plan.spin_budget = OPENLOOP_TRY(parse_spin_budget(o.spin_budget, o.spin_below, o.coalesce));
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
  plan.on_saturation = OPENLOOP_TRY(parse_on_saturation(o.on_saturation));
  plan.protocol = OPENLOOP_TRY(parse_protocol(o.protocol, o.http2, o.http1_1));
  plan.max_streams = o.max_streams;
  plan.h2_window = o.h2_window;
  return {};
}

// Worker threads and the connection (or session) cap: given, else Little's law within the open-file limit.
Result<void> build_capacity(const RunOptions& o, const HostFacts& host, engine::RunPlan& plan) {
  plan.threads = o.threads > 0 ? o.threads : std::max(1U, host.cores);
  if (plan.threads > 1024)
    return usage_error(fmt::format("--threads: {} is too many; use 1..1024", o.threads));
  const std::uint64_t fd_limit = host.fd_limit;
  if (plan.user_driven()) {
    plan.threads = static_cast<unsigned>(std::min<std::uint64_t>(plan.threads, plan.users));
    plan.max_connections = plan.users;
  } else if (plan.model == engine::Model::sessions) {
    // Default cap by Little's law: session rate × steps × (timeout + mean think), with headroom.
    plan.max_sessions =
        o.max_sessions > 0 ? o.max_sessions : engine::default_max_sessions(plan, plan.threads, fd_limit);
    plan.max_connections = plan.max_sessions;
    if (plan.max_sessions < plan.threads) plan.threads = static_cast<unsigned>(plan.max_sessions);
  } else {
    plan.max_connections =
        o.max_connections > 0
            ? o.max_connections
            : engine::default_max_connections(plan.profile.max_rate(), plan.timeout, plan.threads, fd_limit);
    engine::size_connections(plan, o.connections);
    if (plan.max_connections < plan.threads) plan.threads = static_cast<unsigned>(plan.max_connections);
  }
  if (plan.max_connections + 64 > fd_limit) {
    return usage_error(fmt::format("--max-connections: {} needs more open files than the limit {} allows",
                                   plan.max_connections, fd_limit));
  }
  return {};
}

}  // namespace

Result<engine::RunPlan> build_plan(const RunOptions& o, const HostFacts& host) {
  engine::RunPlan plan;
  plan.redact = Redactor(o.redact_params);
  OPENLOOP_TRY_VOID(check_until_model(o));
  OPENLOOP_TRY_VOID(parse_until_targets(o));
  if (!o.replay.empty()) {
    OPENLOOP_TRY_VOID(build_replay(o, plan));  // a trace gives the requests and their times
  } else {
    OPENLOOP_TRY_VOID(build_request(o, plan));
    OPENLOOP_TRY_VOID(build_workload(o, plan));
  }
  OPENLOOP_TRY_VOID(build_client(o, plan));
  OPENLOOP_TRY_VOID(build_capacity(o, host, plan));
  plan.shard = OPENLOOP_TRY(shard_spec(o, host.environment));
  OPENLOOP_TRY_VOID(check_shard_part(plan));
  return plan;
}

Result<void> use_simulated_client(RunOptions& o, std::string_view one_worker) {
  if (o.threads > 1) {
    return usage_error(
        fmt::format("--threads: a simulated client is {}; drop --threads {}", one_worker, o.threads));
  }
  if (o.coalesce != "0") return usage_error("--coalesce: a simulated client wakes exactly when due; drop it");
  if (!o.spin_budget.empty()) return usage_error("--spin-budget: a simulated client never spins; drop it");
  o.threads = 1;
  o.spin_below = "0";
  return {};
}

Result<engine::RunSettings> run_settings(const RunOptions& o, const HostFacts& host) {
  engine::RunSettings s;
  s.threads = o.threads > 0 ? o.threads : std::max(1U, host.cores);
  s.warmup = OPENLOOP_TRY(parse_duration(o.warmup, "--warmup"));
  s.on_saturation = OPENLOOP_TRY(parse_on_saturation(o.on_saturation));
  s.max_connections = o.max_connections;
  s.protocol = OPENLOOP_TRY(parse_protocol(o.protocol, o.http2, o.http1_1));
  if (o.max_streams_given) s.max_streams = o.max_streams;
  if (o.h2_window_given) s.h2_window = o.h2_window;
  s.connections = o.connections;
  s.spin_below = OPENLOOP_TRY(parse_spin_below(o.spin_below));
  s.spin_budget = OPENLOOP_TRY(parse_spin_budget(o.spin_budget, o.spin_below, o.coalesce));
  s.coalesce = OPENLOOP_TRY(parse_coalesce(o.coalesce));
  s.accept_bunching = o.accept_bunching;
  s.fd_limit = host.fd_limit;
  s.insecure = o.insecure;
  s.ca_file = o.cacert;
  s.retry = o.retry;
  return s;
}

Result<std::vector<engine::RunPlan>> build_file_plans(const RunOptions& o,
                                                      std::shared_ptr<const workload::WorkloadPlan> file,
                                                      const engine::RunSettings& settings) {
  auto plans = OPENLOOP_TRY(engine::plans_from_workload(file, settings));
  OPENLOOP_TRY_VOID(apply_plan_grpc_calls(o, *file, plans));
  const std::string metric = OPENLOOP_TRY(check_server_timing_metric(o.server_timing_metric));
  for (auto& p : plans) {
    p.server_timing_metric = metric;
    p.redact = Redactor(o.redact_params);
  }
  return plans;
}

Result<void> apply_shard(const RunOptions& o, const HostFacts& host, std::vector<engine::RunPlan>& plans) {
  const workload::ShardSpec shard = OPENLOOP_TRY(shard_spec(o, host.environment));
  for (auto& p : plans) {
    p.shard = shard;
    OPENLOOP_TRY_VOID(check_shard_part(p));
  }
  return {};
}

Result<void> refuse_once_steps(const workload::WorkloadPlan& file, std::string_view command) {
  if (file.setup.empty() && file.teardown.empty()) return {};
  return usage_error(fmt::format("{}: {} steps are sent by openloop run only (once, before and after its "
                                 "load); remove them to {} this plan",
                                 file.source, file.setup.empty() ? "teardown:" : "setup:", command));
}

Result<std::shared_ptr<const workload::WorkloadPlan>> load_plan(const RunOptions& o) {
  const workload::PlanInputs inputs = OPENLOOP_TRY(plan_inputs(o));
  return std::make_shared<const workload::WorkloadPlan>(
      OPENLOOP_TRY(workload::load_plan_file(o.url, inputs)));
}

}  // namespace openloop::cli

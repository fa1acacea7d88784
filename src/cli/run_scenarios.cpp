// `openloop run plan.yaml`: every scenario of a scenario file at once; one summary per scenario and the
// combined run.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "cli/metrics_options.h"
#include "cli/observe_options.h"
#include "cli/run_options.h"
#include "cli/run_pipeline.h"
#include "cli/start_options.h"
#include "core/units.h"
#include "engine/coordinator.h"
#include "engine/scenario_plans.h"
#include "report/summary.h"
#include "results/combine.h"
#include "results/slo_abort.h"
#include "workload/scenario_file.h"

namespace openloop::cli {
namespace {

Result<void> refuse_workload_flags(const RunOptions& o) {
  const char* flag = !o.rate.empty()           ? "--rate"
                     : !o.stages.empty()       ? "--stages"
                     : o.vus > 0               ? "--vus"
                     : !o.session_rate.empty() ? "--session-rate"
                     : !o.pacing.empty()       ? "--pacing"
                     : !o.max_rate.empty()     ? "--max-rate"
                                               : nullptr;
  if (flag == nullptr && (!o.deadline.empty() || !o.max_lateness.empty())) {
    return usage_error(
        fmt::format("{}: applies to a run from flags; a plan file's runs use the timeout and the "
                    "default lateness bound",
                    !o.deadline.empty() ? "--deadline" : "--max-lateness"));
  }
  if (flag == nullptr) return {};
  return usage_error(fmt::format(
      "{}: the workload comes from the plan file {}; set it there (see docs/scenarios.md)", flag, o.url));
}

}  // namespace

bool is_plan_file(const std::string& target) {
  const auto ends = [&](const char* ext) {
    const std::string e(ext);
    return target.size() > e.size() && target.compare(target.size() - e.size(), e.size(), e) == 0;
  };
  return target.find("://") == std::string::npos && (ends(".yaml") || ends(".yml"));
}

// The scenarios' results, each kept whole and combined into the run they made together; SLOs judged on the
// scenarios together (a request's SLO on that request across every scenario sending it).
results::RunResults plan_file_results(const std::vector<engine::RunPlan>& plans, std::vector<results::RunResults> ran,
                             const std::vector<results::Slo>& slos, const results::SloAbort* slo_abort,
                             int stop, const std::string& source) {
  std::vector<results::ScenarioResults> parts;
  for (std::size_t i = 0; i < ran.size(); ++i) {
    const auto& p = plans[i];
    if (slo_abort != nullptr) slo_abort->mark(ran[i], stop);
    parts.push_back({p.scenario, to_seconds(p.start_offset + p.warmup), std::move(ran[i])});
    parts.back().results.info.environment = run_environment();
  }
  results::RunResults all = parts.size() == 1 ? parts.front().results : results::combine_scenarios(parts);
  all.info.environment = run_environment();
  all.dns_ns = plans.front().dns_time.count();  // the scenarios share the file's one resolution
  if (slo_abort != nullptr) slo_abort->mark(all, stop);
  results::RunResults slo_view;
  for (const auto& part : parts) {
    results::add_for_slos(slo_view, part.results, part.results.info.request_names);
  }
  slo_view.measured_s = all.measured_s;
  all.slos = results::evaluate_slos(slos, slo_view);
  all.info.source = source;
  all.scenarios = std::move(parts);
  return all;
}

namespace {

// What a plan file's run is, for its plan hash and run id: every scenario's plan (the first one's `shard`, the
// same in all, at the top, so a sharded file run is recognised as such).
nlohmann::json plan_file_identity(const std::vector<engine::RunPlan>& plans) {
  nlohmann::json identity = nlohmann::json::object();
  identity["scenarios"] = nlohmann::json::array();
  for (const auto& p : plans) identity["scenarios"].push_back(p.describe());
  if (const auto& first = identity["scenarios"].front(); first.contains("shard")) identity["shard"] = first["shard"];
  return identity;
}

}  // namespace

int run_plan_file(const RunOptions& o) {
  const std::string command = "openloop run";
  auto prepared = [&]() -> Result<std::vector<engine::RunPlan>> {
    OPENLOOP_TRY_VOID(refuse_workload_flags(o));
    const workload::PlanInputs inputs = OPENLOOP_TRY(plan_inputs(o));
    auto plan =
        std::make_shared<const workload::WorkloadPlan>(OPENLOOP_TRY(workload::load_plan_file(o.url, inputs)));
    engine::RunSettings s;
    s.threads = o.threads > 0 ? o.threads : std::max(1U, std::thread::hardware_concurrency());
    s.warmup = OPENLOOP_TRY(parse_duration(o.warmup, "--warmup"));
    s.on_saturation = o.on_saturation == "queue" ? engine::OnSaturation::queue : engine::OnSaturation::drop;
    if (o.on_saturation != "drop" && o.on_saturation != "queue") {
      return usage_error(
          fmt::format("--on-saturation: \"{}\" is not accepted; use drop or queue", o.on_saturation));
    }
    s.max_connections = o.max_connections;
    s.spin_below = OPENLOOP_TRY(parse_spin_below(o.spin_below));
    s.coalesce = OPENLOOP_TRY(parse_coalesce(o.coalesce));
    s.accept_bunching = o.accept_bunching;
    s.fd_limit = raise_fd_limit();
    s.insecure = o.insecure;
    s.ca_file = o.cacert;
    s.retry = o.retry;
    const workload::ShardSpec shard = OPENLOOP_TRY(shard_spec(o, workload::shard_environment()));
    if (!o.quiet) fmt::print(stderr, "{}\n", plan->describe());
    auto plans = OPENLOOP_TRY(engine::plans_from_workload(plan, s));
    const std::string metric = OPENLOOP_TRY(check_server_timing_metric(o.server_timing_metric));
    for (auto& p : plans) {
      p.server_timing_metric = metric;
      p.shard = shard;
      OPENLOOP_TRY_VOID(check_shard_part(p));
    }
    return plans;
  }();
  if (!prepared) return report_error(command, prepared.error());
  std::vector<std::string> specs = o.observe;
  if (prepared->front().workload) {
    for (const auto& spec : prepared->front().workload->observe) {
      if (std::find(specs.begin(), specs.end(), spec) == specs.end()) specs.push_back(spec);
    }
  }
  auto observer = make_observer(specs, prepared->front().url_text);
  if (!observer) return report_error(command, observer.error());
  std::vector<engine::RunPlan*> each;
  for (auto& plan : *prepared) each.push_back(&plan);
  auto start = prepare_start(o, plan_file_identity(*prepared));
  if (!start) return report_error(command, start.error());
  // Bound before anything is sent, as for a run from flags; each scenario's series carry its name.
  const auto linger = parse_metrics_linger(o);
  if (!linger) return report_error(command, linger.error());
  std::vector<report::MetricsContext> metric_parts;
  for (const engine::RunPlan& plan : *prepared) {
    std::vector<std::string> request_names;
    for (const auto& r : plan.requests) request_names.push_back(r.name);
    metric_parts.push_back({start->run_id,
                            plan.scenario,
                            std::move(request_names),
                            plan.user_driven() ? 0.0 : plan.profile.max_rate(),
                            {},
                            offered_rate_of(plan)});
  }
  auto metrics = start_metrics(o, std::move(metric_parts), command);
  if (!metrics) return report_error(command, metrics.error());
  Pipeline<results::RunResults> p;
  p.command = command;
  p.outputs = run_outputs(o);  // the .hlog describes the run as a whole; the HTML the scenarios too
  if (o.observe.empty() && !specs.empty()) p.outputs.push_back(observed_companion(o.hlog));
  if (auto manifest = manifest_output(*start, p.outputs)) p.outputs.push_back(std::move(*manifest));
  // As for a run from flags: refusals before the wait, the wait before any thread that could take a Ctrl-C.
  if (start->start) {
    if (auto checked = check_outputs(p.outputs); !checked) return report_error(command, checked.error());
    if (auto waited = wait_for_common_start(*start, each); !waited) return report_error(command, waited.error());
  }
  auto request_log = open_request_log(o, each);
  if (!request_log) return report_error(command, request_log.error());
  // Every scenario's plan lists all the file's requests, so the names of the first are everyone's.
  std::vector<std::string> names;
  for (const auto& r : prepared->front().requests) names.push_back(r.name);
  auto slos = parse_slos(o, names);
  if (!slos) return report_error(command, slos.error());
  std::optional<results::SloAbort> slo_abort;
  if (o.abort_on_slo) {
    std::vector<results::SloAbortPart> watched;
    for (const auto& part : *prepared) watched.push_back({names, planned_intended(part)});
    slo_abort.emplace(*slos, std::move(watched));
  }
  // With the log on standard output, the summary goes to standard error so a pipe reads only log lines.
  p.summary_to = o.log_requests == "-" ? stderr : stdout;
  p.run = [&](std::atomic<int>& stop) -> Result<results::RunResults> {
    engine::MultiProgressFn judge_slos;
    if (slo_abort || *metrics) {
      judge_slos = [&](const std::vector<const results::RunResults*>& so_far) {
        if (*metrics) {
          for (std::size_t i = 0; i < so_far.size(); ++i) (*metrics)->update(*so_far[i], false, i);
        }
        if (!slo_abort || !slo_abort->stop_if_certain(so_far, stop) || o.quiet) return;
        fmt::print(stderr,
                   "\nSLO {} is certain to fail: stopping early (--abort-on-slo); waiting for in-flight "
                   "requests\n",
                   slo_abort->failed()->text);
      };
    }
    auto ran = observed(observer->get(), [&] { return engine::run_all(*prepared, stop, judge_slos); });
    Result<results::RunResults> all =
        ran ? Result<results::RunResults>(plan_file_results(*prepared, std::move(*ran), *slos,
                                                   slo_abort ? &*slo_abort : nullptr, stop.load(), o.url))
            : Result<results::RunResults>(tl::unexpected(ran.error()));
    finish_request_log(request_log->get(), all);
    if (all) stamp_start(*start, *all);
    if (all && *metrics) {  // each scenario's final totals, as the results file holds them
      for (std::size_t i = 0; i < all->scenarios.size(); ++i)
        (*metrics)->update(all->scenarios[i].results, true, i);
    }
    if (all && *observer) {
      // The combined intervals start with the earliest scenario's measured period.
      for (const auto& part : all->scenarios) {
        if (part.results.info.start_unix_s > 0)
          all->info.start_unix_s = std::min(all->info.start_unix_s, part.results.info.start_unix_s);
      }
      (*observer)->attach(*all);
    }
    return all;
  };
  p.summary = [](const results::RunResults& r) { return report::render_run_summary(r); };
  p.exit_code = [&command](const results::RunResults& r) { return run_exit_code(r, command); };
  const int code = execute(p);
  if (*metrics) (*metrics)->linger(*linger);
  return code;
}

}  // namespace openloop::cli

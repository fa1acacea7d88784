// `openloop run plan.yaml`: every scenario of a scenario file at once; one summary per scenario and the
// combined run.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "cli/front_half.h"
#include "cli/metrics_options.h"
#include "cli/observe_options.h"
#include "cli/option_checks.h"
#include "cli/plan_builder.h"
#include "cli/plan_host.h"
#include "cli/run_options.h"
#include "cli/run_pipeline.h"
#include "cli/start_options.h"
#include "core/units.h"
#include "engine/coordinator.h"
#include "engine/scenario_plans.h"
#include "engine/setup_steps.h"
#include "report/summary.h"
#include "report/summary_legend.h"
#include "results/judging/dead_target.h"
#include "results/judging/slo_abort.h"
#include "results/merging/combine.h"
#include "workload/scenario_file.h"

namespace openloop::cli {

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

bool is_plan_file(const std::string& target) {
  const auto ends = [&](const char* ext) {
    const std::string e(ext);
    return target.size() > e.size() && target.compare(target.size() - e.size(), e.size(), e) == 0;
  };
  return target.find("://") == std::string::npos && (ends(".yaml") || ends(".yml"));
}

// The scenarios' results, each kept whole and combined into the run they made together; SLOs judged on the
// scenarios together (a request's SLO on that request across every scenario sending it).
results::RunResults plan_file_results(const std::vector<engine::RunPlan>& plans,
                                      std::vector<results::RunResults> ran,
                                      const std::vector<results::Slo>& slos,
                                      const results::SloAbort* slo_abort, int stop,
                                      const std::string& source) {
  std::vector<results::ScenarioResults> parts;
  for (std::size_t i = 0; i < ran.size(); ++i) {
    const auto& p = plans[i];
    if (slo_abort != nullptr) slo_abort->mark(ran[i], stop);
    parts.push_back({p.scenario, to_seconds(p.start_offset + p.warmup), std::move(ran[i])});
    parts.back().results.info.environment.update(run_environment());  // keeps the timer_floor
  }
  results::RunResults all = parts.size() == 1 ? parts.front().results : results::combine_scenarios(parts);
  all.info.environment.update(run_environment());
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

// What a plan file's run is, for its plan hash and run id: every scenario's plan (the first one's `shard`,
// the same in all, at the top, so a sharded file run is recognised as such).
nlohmann::json plan_file_identity(const std::vector<engine::RunPlan>& plans) {
  nlohmann::json identity = nlohmann::json::object();
  identity["scenarios"] = nlohmann::json::array();
  for (const auto& p : plans) identity["scenarios"].push_back(p.describe());
  if (const auto& first = identity["scenarios"].front(); first.contains("shard"))
    identity["shard"] = first["shard"];
  return identity;
}

}  // namespace

int run_plan_file(const RunOptions& o) {
  const std::string command = "openloop run";
  auto prepared = [&]() -> Result<std::vector<engine::RunPlan>> {
    OPENLOOP_TRY_VOID(refuse_workload_flags(o));
    auto file = OPENLOOP_TRY(load_plan(o));
    const HostFacts host = host_facts();
    const engine::RunSettings settings = OPENLOOP_TRY(run_settings(o, host));
    auto plans = OPENLOOP_TRY(build_file_plans(o, file, settings));
    OPENLOOP_TRY_VOID(apply_shard(o, host, plans));
    if (!o.quiet) fmt::print(stderr, "{}\n", file->describe());
    std::vector<engine::RunPlan*> each;
    for (auto& p : plans) each.push_back(&p);
    OPENLOOP_TRY_VOID(resolve_target(each));
    return plans;
  }();
  if (!prepared) return report_error(command, prepared.error());
  const std::vector<std::string> specs = observe_specs(o, prepared->front());
  Pipeline<results::RunResults> p;
  p.command = command;
  p.outputs = run_outputs(o);  // the .hlog describes the run as a whole; the HTML the scenarios too
  if (o.observe.empty() && !specs.empty()) p.outputs.push_back(observed_companion(o.hlog));
  // Each scenario's metrics series carry its name.
  auto front = open_front_half(o, command, *prepared, plan_file_identity(*prepared), specs, p.outputs);
  if (!front) return report_error(command, front.error());
  Judging& judging = front->judging;
  MetricsServer* metrics = front->metrics.get();
  // With the log on standard output, the summary goes to standard error so a pipe reads only log lines.
  p.summary_to = o.log_requests == "-" ? stderr : stdout;
  // A target nothing answers at is named after the first interval, not after the whole duration (the
  // scenarios share one target).
  results::DeadTargetWatch dead(target_address(prepared->front()));
  p.run = [&](std::atomic<int>& stop) -> Result<results::RunResults> {
    const engine::MultiProgressFn judge_slos = [&](const std::vector<const results::RunResults*>& so_far) {
      if (metrics != nullptr) {
        for (std::size_t i = 0; i < so_far.size(); ++i) metrics->update(*so_far[i], false, i);
      }
      if (dead.stop_if_dead(so_far, stop) && !o.quiet)
        fmt::print(stderr, "\n{}: stopping early\n", dead.why(*so_far.front()));
      if (!judging.abort || !judging.abort->stop_if_certain(so_far, stop) || o.quiet) return;
      fmt::print(stderr,
                 "\nSLO {} is certain to fail: stopping early (--abort-on-slo); waiting for in-flight "
                 "requests\n",
                 judging.abort->failed()->text);
    };
    // The setup's values (a token for every session) before any load; a failed setup sends none.
    const workload::WorkloadPlan& file = *prepared->front().workload;
    const engine::SetupValues values =
        OPENLOOP_TRY(engine::run_once_steps(prepared->front(), file.setup, "setup", {}));
    if (!file.setup.empty() && !o.quiet) fmt::print(stderr, "setup: {} step(s) answered\n", file.setup.size());
    for (auto& plan : *prepared) plan.setup_values = values;
    auto ran = observed(front->observer.get(), [&] { return engine::run_all(*prepared, stop, judge_slos); });
    // The teardown after the load, interrupted or not; its failure is said, the load's results stand.
    if (const auto down = engine::run_once_steps(prepared->front(), file.teardown, "teardown", values); !down) {
      fmt::print(stderr, "{}: {}\n", command, down.error().message);
    } else if (!file.teardown.empty() && !o.quiet) {
      fmt::print(stderr, "teardown: {} step(s) answered\n", file.teardown.size());
    }
    Result<results::RunResults> all =
        ran ? Result<results::RunResults>(plan_file_results(*prepared, std::move(*ran), judging.slos,
                                                            judging.abort_or_null(), stop.load(), o.url))
            : Result<results::RunResults>(tl::unexpected(ran.error()));
    finish_request_log(front->request_log.get(), all);
    if (all) dead.mark(*all, stop.load());
    if (all) stamp_start(front->start, *all);
    if (all && metrics != nullptr) {  // each scenario's final totals, as the results file holds them
      for (std::size_t i = 0; i < all->scenarios.size(); ++i)
        metrics->update(all->scenarios[i].results, true, i);
    }
    if (all && front->observer) {
      // The combined intervals start with the earliest scenario's measured period.
      for (const auto& part : all->scenarios) {
        if (part.results.info.start_unix_s > 0)
          all->info.start_unix_s = std::min(all->info.start_unix_s, part.results.info.start_unix_s);
      }
      front->observer->attach(*all);
    }
    return all;
  };
  p.summary = [legend = wants_legend(o, p.summary_to)](const results::RunResults& r) {
    return report::render_run_summary(r) + (legend ? report::render_legend(r) : std::string());
  };
  p.exit_code = [&command, &dead](const results::RunResults& r) {
    if (results::never_reached(r, 1)) fmt::print(stderr, "{}: {}\n", command, dead.why(r));
    return run_exit_code(r, command);
  };
  const int code = execute(p);
  front->metrics.linger_after();
  return code;
}

}  // namespace openloop::cli

// `openloop run plan.yaml`: every scenario of a scenario file at once; one summary per scenario and the
// combined run.
#include <cstdio>
#include <memory>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "cli/run_options.h"
#include "cli/signal_watcher.h"
#include "core/atomic_file.h"
#include "core/units.h"
#include "engine/coordinator.h"
#include "engine/scenario_plans.h"
#include "report/summary.h"
#include "results/combine.h"
#include "results/results_json.h"
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

int run_plan_file(const RunOptions& o) {
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
    s.fd_limit = raise_fd_limit();
    s.insecure = o.insecure;
    s.ca_file = o.cacert;
    s.retry = o.retry;
    if (!o.quiet) fmt::print(stderr, "{}\n", plan->describe());
    return engine::plans_from_workload(plan, s);
  }();
  if (!prepared) {
    fmt::print(stderr, "openloop run: {}\n", prepared.error().message);
    return static_cast<int>(prepared.error().code);
  }
  // Every scenario's plan lists all the file's requests, so the names of the first are everyone's.
  std::vector<std::string> names;
  for (const auto& r : prepared->front().requests) names.push_back(r.name);
  auto slos = parse_slos(o, names);
  if (!slos) {
    fmt::print(stderr, "openloop run: {}\n", slos.error().message);
    return static_cast<int>(slos.error().code);
  }
  std::optional<results::SloAbort> slo_abort;
  engine::MultiProgressFn judge_slos;
  std::atomic<int> stop{0};
  if (o.abort_on_slo) {
    std::vector<results::SloAbortPart> watched;
    for (const auto& p : *prepared) watched.push_back({names, planned_intended(p)});
    slo_abort.emplace(*slos, std::move(watched));
    judge_slos = [&](const std::vector<const results::RunResults*>& so_far) {
      if (!slo_abort->stop_if_certain(so_far, stop) || o.quiet) return;
      fmt::print(stderr,
                 "\nSLO {} is certain to fail: stopping early (--abort-on-slo); waiting for in-flight "
                 "requests\n",
                 slo_abort->failed()->text);
    };
  }
  Result<std::vector<results::RunResults>> ran;
  {
    SignalWatcher watcher(stop);
    ran = engine::run_all(*prepared, stop, judge_slos);
  }
  if (!ran) {
    fmt::print(stderr, "openloop run: {}\n", ran.error().message);
    return static_cast<int>(ran.error().code);
  }
  std::vector<results::ScenarioResults> parts;
  for (std::size_t i = 0; i < ran->size(); ++i) {
    const auto& p = (*prepared)[i];
    if (slo_abort) slo_abort->mark((*ran)[i], stop.load());
    parts.push_back({p.scenario, to_seconds(p.start_offset + p.warmup), std::move((*ran)[i])});
    parts.back().results.info.environment = run_environment();
  }
  results::RunResults all = parts.size() == 1 ? parts.front().results : results::combine_scenarios(parts);
  all.info.environment = run_environment();
  if (slo_abort) slo_abort->mark(all, stop.load());
  // SLOs are judged on the scenarios together: a request's SLO on that request across every scenario sending
  // it.
  results::RunResults slo_view;
  for (const auto& part : parts) {
    results::add_for_slos(slo_view, part.results, part.results.info.request_names);
  }
  slo_view.measured_s = all.measured_s;
  all.slos = results::evaluate_slos(*slos, slo_view);
  all.info.source = o.url;
  all.scenarios = std::move(parts);
  std::fputs(report::render_run_summary(all).c_str(), stdout);
  std::fflush(stdout);
  if (!o.json.empty()) {
    if (auto written = write_file_atomically(o.json, results::to_json(all).dump(1) + "\n"); !written) {
      fmt::print(stderr, "openloop run: {}\n", written.error().message);
      return static_cast<int>(ExitCode::runtime);
    }
  }
  // The .hlog describes the run as a whole; the HTML report the scenarios combined and each apart.
  if (auto written = write_report_outputs(o, all); !written) {
    fmt::print(stderr, "openloop run: {}\n", written.error().message);
    return static_cast<int>(ExitCode::runtime);
  }
  return exit_code_for(all);
}

}  // namespace openloop::cli

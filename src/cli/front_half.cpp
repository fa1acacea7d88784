// The front half every load-sending command shares (cli/front_half.h).
#include "cli/front_half.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <utility>

#include <fmt/format.h>

#include "cli/observe_options.h"
#include "cli/option_checks.h"
#include "cli/plan_host.h"

namespace openloop::cli {

Result<std::unique_ptr<engine::RequestLog>> open_request_log(const RunOptions& o,
                                                             std::vector<engine::RunPlan*> plans,
                                                             const std::optional<VirtualLogClock>& virtual_clock) {
  const engine::LogFormat format = OPENLOOP_TRY(engine::parse_log_format(o.log_format, "--log-format"));
  if (o.log_requests.empty()) {
    if (o.log_format != "json") return usage_error("--log-format: has no effect without --log-requests FILE");
    return std::unique_ptr<engine::RequestLog>();
  }
  engine::LogContext context;
  // A scenario file's plans all list every request of the file, in the same order: the first's names serve.
  for (const auto& r : plans.front()->requests) context.request_names.push_back(r.name);
  if (virtual_clock) {
    context.steady_origin = virtual_clock->steady_origin;
    context.unix_origin_s = virtual_clock->unix_origin_s;
  } else {
    context.steady_origin = SteadyClock::now();
    context.unix_origin_s =
        std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  }
  const engine::RunPlan& first = *plans.front();
  const unsigned workers = first.workers_total > 0 ? first.workers_total : first.threads;
  auto log = OPENLOOP_TRY(engine::RequestLog::open(o.log_requests, format, workers, std::move(context)));
  for (engine::RunPlan* plan : plans) plan->request_log = log.get();
  if (!virtual_clock) log->start();
  return log;
}

void finish_request_log(engine::RequestLog* log, results::RunResults& r) {
  if (log == nullptr) return;
  auto finished = log->finish();
  r.logged = true;
  r.log_written = log->written();
  r.log_dropped = log->dropped();
  if (!finished) r.warnings.push_back(finished.error().message);
}

void finish_request_log(engine::RequestLog* log, Result<results::RunResults>& ran) {
  if (log == nullptr) return;
  if (ran) {
    finish_request_log(log, *ran);
  } else {
    (void)log->finish();  // closed either way; a failed run has no results to note it in
  }
}

Result<Nanos> parse_metrics_linger(const RunOptions& o) {
  const Nanos linger = OPENLOOP_TRY(parse_duration(o.metrics_linger, "--metrics-linger"));
  if (linger.count() > 0 && o.metrics_listen.empty()) {
    return usage_error("--metrics-linger: has no effect without --metrics-listen ADDR");
  }
  return linger;
}

Result<std::unique_ptr<MetricsServer>> start_metrics(const RunOptions& o,
                                                     std::vector<report::MetricsContext> parts,
                                                     const std::string& command) {
  if (o.metrics_listen.empty()) return std::unique_ptr<MetricsServer>();
  auto server = OPENLOOP_TRY(MetricsServer::start(o.metrics_listen, std::move(parts)));
  if (!o.quiet) fmt::print(stderr, "{}: metrics at http://{}/metrics\n", command, server->address());
  return server;
}

Result<Judging> prepare_judging(const RunOptions& o, const std::vector<engine::RunPlan>& plans) {
  Judging j;
  for (const auto& r : plans.front().requests) j.request_names.push_back(r.name);
  const bool flow = std::any_of(plans.begin(), plans.end(), [](const engine::RunPlan& p) {
    return p.model == engine::Model::sessions && !p.steps.empty();
  });
  j.slos = OPENLOOP_TRY(parse_slos(o, j.request_names, flow));
  if (o.abort_on_slo) {
    std::vector<results::SloAbortPart> watched;
    for (const auto& plan : plans) watched.push_back({j.request_names, planned_intended(plan)});
    j.abort.emplace(j.slos, std::move(watched));
  }
  return j;
}

void MetricsEndpoint::linger_after() const {
  if (server) server->linger(linger);
}

Result<MetricsEndpoint> open_metrics(const RunOptions& o, std::vector<report::MetricsContext> parts,
                                     const std::string& command) {
  MetricsEndpoint m;
  m.linger = OPENLOOP_TRY(parse_metrics_linger(o));
  m.server = OPENLOOP_TRY(start_metrics(o, std::move(parts), command));
  return m;
}

std::vector<report::MetricsContext> metrics_parts(const std::string& run_id,
                                                  const std::vector<engine::RunPlan>& plans) {
  std::vector<report::MetricsContext> parts;
  for (const engine::RunPlan& plan : plans) {
    std::vector<std::string> request_names;
    for (const auto& r : plan.requests) request_names.push_back(r.name);
    parts.push_back({run_id,
                     plan.scenario,
                     std::move(request_names),
                     plan.user_driven() ? 0.0 : plan.profile.max_rate(),
                     {},
                     offered_rate_of(plan)});
  }
  return parts;
}

std::vector<std::string> observe_specs(const RunOptions& o, const engine::RunPlan& first) {
  std::vector<std::string> specs = o.observe;
  if (first.workload) {
    for (const auto& spec : first.workload->observe) {
      if (std::find(specs.begin(), specs.end(), spec) == specs.end()) specs.push_back(spec);
    }
  }
  return specs;
}

void ProcedureFrontHalf::stamp(results::RunResults& r) const {
  r.info.run_id = start.run_id;
  r.info.environment.update(run_environment());  // keeps the engine's timer_floor
  if (observer) observer->attach(r);
}

Result<ProcedureFrontHalf> open_procedure_front_half(const RunOptions& o, const std::string& command,
                                                     const engine::RunPlan& base) {
  ProcedureFrontHalf f;
  f.start = OPENLOOP_TRY(prepare_start(o, base.describe()));
  // Bound before anything is sent: a bad address or a port in use ends the command with nothing sent.
  f.metrics = OPENLOOP_TRY(open_metrics(o, {}, command));
  f.observer = OPENLOOP_TRY(make_observer(observe_specs(o, base), base.url_text));
  return f;
}

Result<FrontHalf> open_front_half(const RunOptions& o, const std::string& command,
                                  std::vector<engine::RunPlan>& plans, const nlohmann::json& identity,
                                  const std::vector<std::string>& observe_specs,
                                  std::vector<OutputFile<results::RunResults>>& outputs) {
  FrontHalf f;
  f.start = OPENLOOP_TRY(prepare_start(o, identity));
  f.judging = OPENLOOP_TRY(prepare_judging(o, plans));
  f.metrics = OPENLOOP_TRY(open_metrics(o, metrics_parts(f.start.run_id, plans), command));
  f.observer = OPENLOOP_TRY(make_observer(observe_specs, plans.front().url_text));
  if (auto manifest = manifest_output(f.start, outputs)) outputs.push_back(std::move(*manifest));
  std::vector<engine::RunPlan*> each;
  for (auto& plan : plans) each.push_back(&plan);
  if (f.start.start) {
    OPENLOOP_TRY_VOID(check_outputs(outputs));
    OPENLOOP_TRY_VOID(wait_for_common_start(f.start, each));
  }
  f.request_log = OPENLOOP_TRY(open_request_log(o, each));
  return f;
}

}  // namespace openloop::cli

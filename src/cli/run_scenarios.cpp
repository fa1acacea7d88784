// `openloop run plan.yaml`: every scenario of a scenario file at once; one summary per scenario and the combined run.
#include <cstdio>
#include <memory>
#include <thread>

#include <fmt/format.h>
#include <unistd.h>

#include "cli/run_options.h"
#include "cli/signal_watcher.h"
#include "core/atomic_file.h"
#include "core/units.h"
#include "engine/coordinator.h"
#include "engine/scenario_plans.h"
#include "report/summary.h"
#include "results/combine.h"
#include "results/results_json.h"
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
  if (flag == nullptr) return {};
  return usage_error(fmt::format("{}: the workload comes from the plan file {}; set it there (see docs/scenarios.md)",
                                 flag, o.url));
}

nlohmann::json environment() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return {{"host", std::string(name)},
          {"cores", std::thread::hardware_concurrency()},
          {"openloop_version", OPENLOOP_VERSION}};
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
    auto plan = std::make_shared<const workload::WorkloadPlan>(OPENLOOP_TRY(workload::load_plan_file(o.url)));
    engine::RunSettings s;
    s.threads = o.threads > 0 ? o.threads : std::max(1U, std::thread::hardware_concurrency());
    s.warmup = OPENLOOP_TRY(parse_duration(o.warmup, "--warmup"));
    s.on_saturation = o.on_saturation == "queue" ? engine::OnSaturation::queue : engine::OnSaturation::drop;
    if (o.on_saturation != "drop" && o.on_saturation != "queue") {
      return usage_error(fmt::format("--on-saturation: \"{}\" is not accepted; use drop or queue", o.on_saturation));
    }
    s.max_connections = o.max_connections;
    s.fd_limit = raise_fd_limit();
    s.insecure = o.insecure;
    s.ca_file = o.cacert;
    if (!o.quiet) fmt::print(stderr, "{}\n", plan->describe());
    return engine::plans_from_workload(plan, s);
  }();
  if (!prepared) {
    fmt::print(stderr, "openloop run: {}\n", prepared.error().message);
    return static_cast<int>(prepared.error().code);
  }
  std::atomic<int> stop{0};
  Result<std::vector<results::RunResults>> ran;
  {
    SignalWatcher watcher(stop);
    ran = engine::run_all(*prepared, stop);
  }
  if (!ran) {
    fmt::print(stderr, "openloop run: {}\n", ran.error().message);
    return static_cast<int>(ran.error().code);
  }
  std::vector<results::ScenarioResults> parts;
  for (std::size_t i = 0; i < ran->size(); ++i) {
    const auto& p = (*prepared)[i];
    parts.push_back({p.scenario, to_seconds(p.start_offset + p.warmup), std::move((*ran)[i])});
    parts.back().results.info.environment = environment();
  }
  results::RunResults all = parts.size() == 1 ? parts.front().results : results::combine_scenarios(parts);
  all.info.environment = environment();
  for (const auto& part : parts) {
    if (parts.size() > 1) fmt::print("=== scenario {} ===\n", part.name);
    std::fputs(report::render_summary(part.results).c_str(), stdout);
    std::fputs("\n", stdout);
  }
  if (parts.size() > 1) {
    fmt::print("=== all scenarios together ===\n");
    std::fputs(report::render_summary(all).c_str(), stdout);
  }
  std::fflush(stdout);
  if (!o.json.empty()) {
    nlohmann::json j = results::to_json(all);
    j["source"] = o.url;
    j["scenarios"] = nlohmann::json::array();
    for (const auto& part : parts) {
      nlohmann::json s = results::to_json(part.results);
      s["name"] = part.name;
      s["offset_s"] = part.offset_s;
      j["scenarios"].push_back(std::move(s));
    }
    if (auto written = write_file_atomically(o.json, j.dump(1) + "\n"); !written) {
      fmt::print(stderr, "openloop run: {}\n", written.error().message);
      return static_cast<int>(ExitCode::runtime);
    }
  }
  return exit_code_for(all);
}

}  // namespace openloop::cli

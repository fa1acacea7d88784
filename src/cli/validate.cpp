// `openloop validate plan.yaml`: load and check a scenario file, print what each scenario would do, send
// nothing.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/command.h"
#include "cli/grpc_plan.h"
#include "core/error.h"
#include "engine/scenario_plans.h"
#include "workload/scenario_file.h"

namespace openloop::cli {

Action setup_validate(CLI::App& sub) {
  auto file = std::make_shared<std::string>();
  auto env = std::make_shared<std::vector<std::string>>();
  auto target = std::make_shared<std::string>();
  sub.add_option("PLAN", *file, "Scenario file (YAML; see docs/scenarios.md)")->required()->type_name("");
  sub.add_option("-e,--env", *env,
                 "NAME=value for ${NAME} in the plan (repeatable; wins over the environment)")
      ->type_name("NAME=VALUE");
  sub.add_option("--target", *target, "Check the plan sent to this scheme://host:port instead (paths kept)")
      ->type_name("URL");
  return [file, env, target]() -> int {
    auto plan = workload::make_plan_inputs(*env, *target).and_then([&](const workload::PlanInputs& inputs) {
      return workload::load_plan_file(*file, inputs);
    });
    if (!plan) {
      fmt::print(stderr, "openloop validate: {}\n", plan.error().message);
      return static_cast<int>(plan.error().code);
    }
    // Each scenario's plan, as run builds it (a gRPC call in a scenario asked for HTTP/1.1 is refused there),
    // and the calls against their schema (with none given, the target's reflection is asked).
    const auto loaded = std::make_shared<const workload::WorkloadPlan>(*plan);
    const auto calls = engine::plans_from_workload(loaded, engine::RunSettings{}).and_then([&](const auto&) {
      return describe_plan_grpc_calls(RunOptions{}, *loaded);
    });
    if (!calls) {
      fmt::print(stderr, "openloop validate: {}\n", calls.error().message);
      return static_cast<int>(calls.error().code);
    }
    std::fputs(plan->describe().c_str(), stdout);
    std::fputs(calls->c_str(), stdout);
    fmt::print("{}: valid\n", *file);
    return static_cast<int>(ExitCode::ok);
  };
}

}  // namespace openloop::cli

// `openloop validate plan.yaml`: load and check a scenario file, print what each scenario would do, send
// nothing.
#include <cstdio>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "cli/command.h"
#include "core/error.h"
#include "workload/scenario_file.h"

namespace openloop::cli {

Action setup_validate(CLI::App& sub) {
  auto file = std::make_shared<std::string>();
  sub.add_option("PLAN", *file, "Scenario file (YAML; see docs/scenarios.md)")->required()->type_name("");
  return [file]() -> int {
    auto plan = workload::load_plan_file(*file);
    if (!plan) {
      fmt::print(stderr, "openloop validate: {}\n", plan.error().message);
      return static_cast<int>(plan.error().code);
    }
    std::fputs(plan->describe().c_str(), stdout);
    fmt::print("{}: valid\n", *file);
    return static_cast<int>(ExitCode::ok);
  };
}

}  // namespace openloop::cli

// --metrics-listen's flags and a plan's offered rate for the metrics endpoint.
#include "cli/metrics_options.h"

#include <fmt/format.h>

#include "cli/command.h"
#include "cli/run_options.h"

namespace openloop::cli {

report::OfferedRate offered_rate_of(const engine::RunPlan& plan) {
  if (plan.user_driven()) return {};
  return [profile = plan.profile, warmup = plan.warmup](double from_s, double to_s) {
    return profile.mean_rate(warmup + from_seconds(from_s), warmup + from_seconds(to_s));
  };
}

void add_metrics_options(CLI::App& sub, RunOptions& o, const std::string& what) {
  sub.add_option("--metrics-listen", o.metrics_listen,
                 fmt::format("Serve the live state for Prometheus at http://ADDR/metrics: {} (docs/metrics.md), "
                             "e.g. 127.0.0.1:9464; a bad address exits 2 before any load",
                             what))
      ->type_name("ADDR")
      ->group(help_group::outputs);
  sub.add_option("--metrics-linger", o.metrics_linger,
                 "With --metrics-listen: keep serving the final state this long after the end (e.g. 3s, two "
                 "scrape intervals; default 0)")
      ->type_name("DURATION")
      ->group(help_group::outputs);
}

}  // namespace openloop::cli

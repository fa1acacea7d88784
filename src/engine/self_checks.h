// What a worker records for the run's statistical self-checks (the issue time of every arrival, the response
// time of every request in the measured period), and the checks computed from it after the run.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/time.h"
#include "results/judging/run_checks.h"

namespace openloop::hdr {
class Histogram;
}

namespace openloop::engine {

struct RunPlan;
class Worker;

/// One arrival of a worker's lane: its intended offset and when the worker issued it (the loop round's clock
/// reading, so arrivals issued in one round share it), both from the schedule's start.
struct ArrivalStamp {
  Nanos intended{0};
  Nanos issued{0};
};

/// One measured request's response time (intended → outcome, timeouts censored as in the histogram), and its
/// intended offset (to merge workers' samples into send order).
struct LatencyStamp {
  Nanos intended{0};
  std::int64_t response_ns = 0;
};

/// Stamps a worker keeps at most, per kind (8 MiB each): a longer run is checked on its first part, and says
/// how many arrivals it recorded.
inline constexpr std::size_t k_max_stamps = std::size_t{1} << 19;

/// A worker's stamps, their capacity reserved before the run so recording never allocates: push only while
/// size() < capacity().
struct SelfCheckTrace {
  std::vector<ArrivalStamp> arrivals;
  std::vector<LatencyStamp> latencies;
  /// Reserves room for `expected` of each (plus a margin for the Poisson count's spread), at most
  /// k_max_stamps; `arrivals_too` false (no schedule: closed, pacing) reserves none for arrivals.
  void reserve(double expected, bool arrivals_too);
  void add_arrival(Nanos intended, Nanos issued) {
    if (arrivals.size() < arrivals.capacity()) arrivals.push_back({intended, issued});
  }
  void add_latency(Nanos intended, std::int64_t response_ns) {
    if (latencies.size() < latencies.capacity()) latencies.push_back({intended, response_ns});
  }
};

/// How the checks judge (from the plan and the verdict's bounds).
struct SelfCheckSettings {
  double lateness_bound_ns =
      1e6;                       ///< the verdict's send-lateness bound: the unit of constant-rate dispersion
  bool accept_bunching = false;  ///< --accept-bunching: a failed arrival check does not invalidate
  /// Gaps shorter than this are not told apart (a tenth of the lateness bound, at most 100 µs): timing finer
  /// than the run's tolerance is not judged, and a generous --max-lateness does not blind the check.
  double resolution_ns() const { return std::min(lateness_bound_ns, 1e6) / 10; }
};

/// Every self-check of one plan's run from its workers' traces (read after the workers have ended):
/// the arrival process per worker lane against that lane's plan (Poisson: Anderson-Darling at 1 % on at most
/// 2,000 gaps spread over the run, gaps shorter than resolution_ns() told apart only from longer ones;
/// constant: dispersion in units of the lateness bound and bunching), the response times' rank
/// autocorrelation and effective sample size, and the response-time percentiles' intervals on it. Allocates;
/// takes up to about a second on a million samples.
results::RunChecks self_check(const RunPlan& plan, const std::vector<std::unique_ptr<Worker>>& workers,
                              const hdr::Histogram& response_time, const SelfCheckSettings& settings);

/// The arrival check of one lane from its stamps (exposed for tests): `worker` of `plan.threads`.
results::LaneArrivals check_lane(const RunPlan& plan, unsigned worker,
                                 const std::vector<ArrivalStamp>& stamps, const SelfCheckSettings& settings);

/// The independence check and intervals from merged latency stamps (exposed for tests).
void check_latencies(std::vector<LatencyStamp> stamps, const hdr::Histogram& response_time,
                     results::RunChecks& out);

/// The independence check of each window [from_s, to_s) of the measured period (seconds after `warmup`) on the
/// stamps whose intended time falls in it, into out.windows (exposed for tests); a window with fewer than 100
/// samples is left untested.
void check_windows(const std::vector<LatencyStamp>& stamps, Nanos warmup,
                   const std::vector<std::pair<double, double>>& windows, results::RunChecks& out);

}  // namespace openloop::engine

// Timer-floor calibration and the auto spin lead.
#include "engine/timer_floor.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>

#include "core/clock.h"
#include "net/event_loop.h"

namespace openloop::engine {

using namespace std::chrono_literals;

results::TimerFloor summarize_timer_floor(std::vector<Nanos>& lateness, Nanos gap) {
  results::TimerFloor f;
  f.gap_us = to_seconds(gap) * 1e6;
  if (lateness.empty()) return f;
  for (auto& l : lateness) l = std::max(l, Nanos(0));
  std::sort(lateness.begin(), lateness.end());
  const auto rank = [&](double p) {
    // Nearest rank: the smallest sample with at least p of the samples at or below it.
    const auto n = static_cast<double>(lateness.size());
    const auto k = static_cast<std::size_t>(std::max(1.0, std::ceil(p * n)));
    return to_seconds(lateness[std::min(k, lateness.size()) - 1]) * 1e6;
  };
  f.samples = lateness.size();
  f.p50_us = rank(0.50);
  f.p99_us = rank(0.99);
  f.max_us = to_seconds(lateness.back()) * 1e6;
  return f;
}

namespace {
constexpr std::size_t k_floor_max_waits = 1200, k_floor_min_waits = 100;
constexpr Nanos k_floor_time = 60ms, k_floor_longest = 150ms;
}  // namespace

bool timer_floor_measuring(std::size_t waits, Nanos elapsed) {
  if (waits >= k_floor_max_waits) return false;
  return elapsed <= k_floor_time || (waits < k_floor_min_waits && elapsed <= k_floor_longest);
}

results::TimerFloor measure_timer_floor(Nanos gap) {
  gap = std::clamp<Nanos>(gap, 50us, 500us);
  auto loop = net::EventLoop::create();
  std::vector<Nanos> lateness;
  if (!loop) return summarize_timer_floor(lateness, gap);
  lateness.reserve(k_floor_max_waits);
  loop->poll(SteadyTime{});  // sets the timer slack first, as a worker's loop does
  const SteadyTime begin = SteadyClock::now();
  SteadyTime deadline = begin + gap;
  while (timer_floor_measuring(lateness.size(), deadline - begin)) {
    loop->poll(deadline);
    const SteadyTime woke = SteadyClock::now();
    lateness.push_back(woke - deadline);
    // The next deadline still due: a late wake-up skips the ones it overslept (a bare absolute-deadline loop).
    while (deadline <= woke) deadline += gap;
  }
  return summarize_timer_floor(lateness, gap);
}

results::TimerFloor host_timer_floor(Nanos gap) {
  if (const char* given = std::getenv("OPENLOOP_TIMER_FLOOR_US"); given != nullptr && *given != '\0') {
    char* end = nullptr;
    const double us = std::strtod(given, &end);
    if (end != nullptr && *end == '\0' && us >= 0 && us <= 1e6) {
      results::TimerFloor f;
      f.samples = 1;
      f.given = true;
      f.gap_us = to_seconds(std::clamp<Nanos>(gap, 50us, 500us)) * 1e6;
      f.p50_us = f.p99_us = f.max_us = us;
      return f;
    }
  }
  return measure_timer_floor(gap);
}

namespace {

// The plan's peak arrival rate across its threads (this shard's part); 0 for plans without a schedule.
double peak_rate(const RunPlan& plan) {
  if (plan.model != Model::open && plan.model != Model::sessions) return 0;
  return plan.profile.max_rate() * plan.shard.share();
}

}  // namespace

Nanos calibration_gap(const std::vector<RunPlan>& plans) {
  Nanos gap = 1ms;
  for (const auto& plan : plans) {
    const double rate = peak_rate(plan);
    if (rate > 0) gap = std::min(gap, Nanos(static_cast<std::int64_t>(1e9 * std::max(1U, plan.threads) / rate)));
  }
  return gap;
}

Nanos planned_lateness_bound(const RunPlan& plan) {
  const Nanos floor = plan.max_lateness.count() > 0 ? plan.max_lateness : Nanos(1ms);
  const double rate = peak_rate(plan);  // this shard's, as the verdict on this shard's results computes it
  if (!(rate > 0)) return floor;
  return std::max(floor, Nanos(static_cast<std::int64_t>(0.1e9 / rate)));
}

Nanos auto_spin_lead(const results::TimerFloor& floor, Nanos bound) {
  if (floor.samples == 0) return Nanos(0);
  const double bound_us = to_seconds(bound) * 1e6;
  if (floor.p99_us <= bound_us / 2) return Nanos(0);
  const double lead_us = std::min(1.5 * floor.p99_us - bound_us / 2, 10'000.0);
  return std::chrono::duration_cast<Nanos>(std::chrono::duration<double, std::micro>(lead_us));
}

Nanos adapted_spin_lead(const hdr::Histogram& wake_lateness, Nanos current, Nanos bound) {
  if (wake_lateness.total_count() < k_adapt_min_waits) return current;
  results::TimerFloor f;
  f.samples = static_cast<std::uint64_t>(wake_lateness.total_count());
  f.p99_us = static_cast<double>(wake_lateness.value_at_percentile(99.0)) / 1e3;
  return std::max(current, auto_spin_lead(f, bound));
}

bool spin_lead_fits(Nanos lead, double busy_share, double waits_per_s, double budget_share) {
  if (lead.count() <= 0) return true;
  const double spin = waits_per_s > 0 ? std::min(budget_share, to_seconds(lead) * waits_per_s) : budget_share;
  return busy_share + spin <= k_spin_fit;
}

double worker_peak_rate(const RunPlan& plan) {
  return peak_rate(plan) / std::max(1U, plan.threads);
}

}  // namespace openloop::engine

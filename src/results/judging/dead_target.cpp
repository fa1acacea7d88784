// The dead-target watch.
#include "results/judging/dead_target.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

namespace openloop::results {

bool never_reached(const RunResults& so_far, std::uint64_t min_failures) {
  Counters all = so_far.totals;
  all.add(so_far.warmup);
  const std::uint64_t refused = all.error(ErrorKind::connect);
  return all.completed == 0 && refused >= min_failures && all.errors_total() == refused;
}

bool never_reached(const std::vector<const RunResults*>& scenarios, std::uint64_t min_failures) {
  std::uint64_t refused = 0;
  for (const RunResults* s : scenarios) {
    if (!never_reached(*s, 1)) return false;
    refused += s->totals.error(ErrorKind::connect) + s->warmup.error(ErrorKind::connect);
  }
  return !scenarios.empty() && refused >= min_failures;
}

bool DeadTargetWatch::stop_if_dead(const RunResults& so_far, std::atomic<int>& stop) {
  if (m_stopped || !never_reached(so_far)) return false;
  int expected = 0;
  m_stopped = stop.compare_exchange_strong(expected, 1);
  return m_stopped;
}

bool DeadTargetWatch::stop_if_dead(const std::vector<const RunResults*>& so_far, std::atomic<int>& stop) {
  if (m_stopped || !never_reached(so_far)) return false;
  int expected = 0;
  m_stopped = stop.compare_exchange_strong(expected, 1);
  return m_stopped;
}

std::string DeadTargetWatch::why(const RunResults& r) const {
  std::string example;
  for (const auto& [kind, message] : r.error_examples) {
    if (kind == to_string(ErrorKind::connect)) example = message;
  }
  std::string lower = example;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (example.empty() || lower.find("refused") != std::string::npos)
    return fmt::format("nothing listens at {} (connection refused)", m_where);
  return fmt::format("{} could not be reached ({})", m_where, example);
}

void DeadTargetWatch::mark(RunResults& r, int stop_value) const {
  if (!m_stopped) return;
  if (stop_value <= 1) r.interrupted = false;
  r.warnings.push_back(
      fmt::format("stopped after {:.1f} s of {:g} s: {}; every attempt failed to connect, so nothing about "
                  "the target was "
                  "measured (the target's failure, not the generator's)",
                  r.measured_s + r.info.warmup_s, r.info.duration_s + r.info.warmup_s, why(r)));
}

}  // namespace openloop::results

// Arrival schedules: per-shard intended times by inverting Λ at evenly spaced or exponentially spaced points.
#include "workload/arrival_schedule.h"

#include <cassert>
#include <cmath>

#include <fmt/format.h>

namespace openloop::workload {

Result<ArrivalKind> parse_arrival_kind(std::string_view text, std::string_view what) {
  if (text == "constant") return ArrivalKind::constant;
  if (text == "poisson") return ArrivalKind::poisson;
  return usage_error(
      fmt::format("{}: \"{}\" is not an arrival process; use constant or poisson", what, text));
}

std::string_view to_string(ArrivalKind kind) {
  switch (kind) {
    case ArrivalKind::constant:
      return "constant";
    case ArrivalKind::poisson:
      return "poisson";
  }
  return "unknown";
}

ArrivalSchedule::ArrivalSchedule(const RateProfile& profile, ArrivalKind kind, std::uint64_t seed,
                                 unsigned shard, unsigned shards)
    : m_profile(profile), m_kind(kind), m_shard(shard), m_shards(shards), m_rng(seed, shard) {
  assert(shards >= 1 && shard < shards);
  advance();
}

void ArrivalSchedule::advance() {
  double x = 0.0;
  if (m_kind == ArrivalKind::constant) {
    // The pending arrival is global j = s + k·n. x is j itself (exact in a double up to 2^53), computed
    // afresh each time, so no error accumulates however long the run.
    x = static_cast<double>(m_shard + m_issued * m_shards);
  } else {
    // Time rescaling: unit-rate Poisson points, stretched by n so this shard carries λ(t)/n.
    m_exponential_sum += m_rng.exponential();
    x = static_cast<double>(m_shards) * m_exponential_sum;
  }
  if (!(x < m_profile.total_expected())) {
    m_ended = true;
    return;
  }
  const Nanos t = m_profile.inverse(x, m_cursor);
  // x just below Λ(duration) can round up to the end itself, which is outside [0, duration).
  if (t >= m_profile.duration()) {
    m_ended = true;
    return;
  }
  m_next = t;
}

double ArrivalSchedule::expected_total() const {
  const double total = m_profile.total_expected();
  if (m_kind == ArrivalKind::poisson) return total / static_cast<double>(m_shards);
  const double first = static_cast<double>(m_shard);
  if (!(total > first)) return 0.0;
  return std::ceil((total - first) / static_cast<double>(m_shards));
}

}  // namespace openloop::workload

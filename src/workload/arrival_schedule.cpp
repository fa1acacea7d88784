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

namespace {
// The first constructor's workers are independent Poisson processes, as before host shards existed.
ShardSpec thinned_unsharded() {
  ShardSpec s;
  s.poisson_split = PoissonSplit::thin;
  return s;
}

// Thinned lanes draw from their own stream: the worker's index in shard 0 (as unsharded runs always have),
// and 2^62 + shard·2^16 + worker in other shards, above every other stream of a run (mix picks, retries,
// scenarios, variables), so no two lanes of any shard share a stream.
std::uint64_t thin_stream(const ShardSpec& host, unsigned worker) {
  if (host.index == 0) return worker;
  return (std::uint64_t{1} << 62) + (static_cast<std::uint64_t>(host.index) << 16) + worker;
}
}  // namespace

ArrivalSchedule::ArrivalSchedule(const RateProfile& profile, ArrivalKind kind, std::uint64_t seed,
                                 unsigned shard, unsigned shards)
    : ArrivalSchedule(profile, kind, seed, thinned_unsharded(), shard, shards) {}

ArrivalSchedule::ArrivalSchedule(const RateProfile& profile, ArrivalKind kind, std::uint64_t seed,
                                 const ShardSpec& host, unsigned worker, unsigned workers)
    : m_profile(profile),
      m_kind(kind),
      m_shard(worker),
      m_shards(workers),
      m_stripe(host),
      m_global_stream(kind == ArrivalKind::poisson && host.poisson_split == PoissonSplit::stripe),
      m_rng(seed, m_global_stream ? 0 : thin_stream(host, worker)),
      m_share(host.share()) {
  assert(workers >= 1 && worker < workers);
  // workers / share, so that this lane carries λ(t)·share/workers; exactly `workers` when unsharded.
  m_thin_stretch = host.sharded() ? static_cast<double>(workers) * static_cast<double>(host.weight_sum()) /
                                        static_cast<double>(host.weights[host.index])
                                  : static_cast<double>(workers);
  advance();
}

void ArrivalSchedule::advance() {
  double x = 0.0;
  // This lane's pending arrival is the shard's own arrival s + k·n, global index j.
  const std::uint64_t j = m_stripe.global(m_shard + m_issued * m_shards);
  if (m_kind == ArrivalKind::constant) {
    // x is j itself (exact in a double up to 2^53), computed afresh each time, so no error accumulates
    // however long the run.
    x = static_cast<double>(j);
  } else if (m_global_stream) {
    // The global process's point j is the sum of its first j+1 unit exponentials: draw (and skip) the
    // other lanes' ones, in the same order every lane does, so the points are bit-identical.
    while (m_drawn <= j && m_exponential_sum < m_profile.total_expected()) {
      m_exponential_sum += m_rng.exponential();
      ++m_drawn;
    }
    x = m_drawn == j + 1 ? m_exponential_sum : m_profile.total_expected();
  } else {
    // Time rescaling: unit-rate Poisson points, stretched so this lane carries λ(t)·share/workers.
    m_exponential_sum += m_rng.exponential();
    x = m_thin_stretch * m_exponential_sum;
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
  const double workers = static_cast<double>(m_shards);
  if (m_kind == ArrivalKind::poisson) return total * m_share / workers;
  // Global arrivals j < Λ(duration): ⌈Λ⌉ of them; this shard owns some of those, this worker every n-th.
  if (!(total > 0)) return 0.0;
  const std::uint64_t shard_count = m_stripe.count_below(static_cast<std::uint64_t>(std::ceil(total)));
  if (shard_count <= m_shard) return 0.0;
  return std::ceil(static_cast<double>(shard_count - m_shard) / workers);
}

}  // namespace openloop::workload

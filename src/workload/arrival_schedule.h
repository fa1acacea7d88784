// Arrival processes (constant, Poisson): the intended times of one worker's shard of the global schedule.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "core/error.h"
#include "core/rng.h"
#include "core/time.h"
#include "workload/rate_profile.h"
#include "workload/shard.h"

namespace openloop::workload {

/// How arrivals are spread under the rate profile.
enum class ArrivalKind : std::uint8_t {
  constant,  ///< evenly spaced in Λ: arrival j at Λ⁻¹(j)
  poisson    ///< non-homogeneous Poisson process of rate λ(t)
};

/// Parses "constant" | "poisson"; error (usage) names `what` and the accepted values.
Result<ArrivalKind> parse_arrival_kind(std::string_view text, std::string_view what);
/// "constant" | "poisson", as parse_arrival_kind accepts them.
std::string_view to_string(ArrivalKind kind);

/// The intended times of one worker's lane of the global arrival process, as offsets from the run's start.
/// Two levels split the global schedule: host shards (ShardSpec: processes, possibly on other machines) and,
/// within a host shard, its worker threads. A host shard takes the global arrivals its ShardStripe owns; its
/// worker w of W takes the shard's own arrivals w, w+W, w+2W, ... So the union over shards × workers is the
/// unsharded schedule.
/// Invariant (DESIGN.md #1): arrival k's intended time is a function of (profile, kind, seed, shard, shards,
/// k) only, never of "now" — so a stall in the generator never shifts the schedule.
///  - constant: global arrival j is at Λ⁻¹(j) (j = 0, 1, 2, ...); shard s of n takes j = s, s+n, s+2n, ...
///    so the union of all shards is exactly the unsharded schedule.
///  - poisson: each shard is an independent non-homogeneous Poisson process with rate λ(t)/n (time rescaling:
///    shard arrival k at Λ⁻¹(n · (E1 + ... + Ek)), Ei unit exponentials from Rng(seed, stream = shard)), so
///    the superposition is a Poisson process of rate λ(t). With n = 1 it is the unsharded process.
/// With a host ShardSpec (the second constructor):
///  - constant: global arrival j at Λ⁻¹(j), j running over this lane's indices, as above.
///  - poisson, PoissonSplit::stripe: one global process, x_j = E1 + ... + E(j+1) from Rng(seed, stream 0),
///    global arrival j at Λ⁻¹(x_j); each lane draws the whole stream and keeps its own indices (about
///    W/wᵢ × workers draws per arrival it issues), so the union is bit-identical to the unsharded process
///    whatever the shard and thread counts.
///  - poisson, PoissonSplit::thin: each lane an independent Poisson process at rate λ(t)·share/workers
///    (stream = worker for shard 0, 2^62 + shard·2^16 + worker otherwise); unsharded, the first constructor's.
/// An arrival exists while its point x in Λ-space is below Λ(duration) and its time is below duration, so the
/// constant process issues ⌈Λ(duration)⌉ arrivals in all (e.g. 5000 at 500/s over 10 s: 0, 2 ms, ...,
/// 9.998 s). Times are non-decreasing. The schedule keeps its own copy of the profile. Allocation-free after
/// construction; not thread-safe (one per worker).
class ArrivalSchedule {
 public:
  /// Preconditions (asserted): shards ≥ 1, shard < shards.
  ArrivalSchedule(const RateProfile& profile, ArrivalKind kind, std::uint64_t seed, unsigned shard,
                  unsigned shards);
  /// Worker `worker` of `workers` of host shard `host`. Preconditions (asserted): workers ≥ 1,
  /// worker < workers.
  ArrivalSchedule(const RateProfile& profile, ArrivalKind kind, std::uint64_t seed, const ShardSpec& host,
                  unsigned worker, unsigned workers);

  /// Intended offset of the next arrival of this shard, advancing the shard; std::nullopt once past the
  /// profile's end.
  std::optional<Nanos> next() {
    if (m_ended) return std::nullopt;
    const Nanos due = m_next;
    ++m_issued;
    advance();
    return due;
  }
  /// Peeks at the next intended offset without advancing (std::nullopt when ended).
  std::optional<Nanos> peek() const {
    if (m_ended) return std::nullopt;
    return m_next;
  }
  /// Number of arrivals returned so far by next().
  std::uint64_t issued() const { return m_issued; }
  /// Expected number of arrivals of this lane over the whole profile (for sizing, reports): Λ(duration) ×
  /// share / workers for poisson; for constant, the count of this lane's j below Λ(duration), i.e. what it
  /// will issue.
  double expected_total() const;

  const RateProfile& profile() const { return m_profile; }
  ArrivalKind kind() const { return m_kind; }
  /// The worker's index among its host shard's workers, and their number.
  unsigned shard() const { return m_shard; }
  unsigned shards() const { return m_shards; }

 private:
  /// Computes m_next for the following arrival, or sets m_ended.
  void advance();

  RateProfile m_profile;
  ArrivalKind m_kind;
  unsigned m_shard;   ///< worker index within the host shard
  unsigned m_shards;  ///< workers of the host shard
  ShardStripe m_stripe;
  bool m_global_stream;         ///< poisson striped: draws the global stream, keeps this lane's indices
  double m_thin_stretch = 1;    ///< poisson thinned: Λ-space per unit exponential (workers / share)
  Rng m_rng;
  double m_share = 1;            ///< the host shard's share of the plan
  double m_exponential_sum = 0;  ///< poisson: E1 + ... + Ek of the pending arrival (global: of index k−1)
  std::uint64_t m_drawn = 0;     ///< poisson striped: exponentials summed so far in the global stream
  std::size_t m_cursor = 0;      ///< forward segment cursor into the profile (x only increases)
  Nanos m_next{0};
  std::uint64_t m_issued = 0;
  bool m_ended = false;
};

}  // namespace openloop::workload

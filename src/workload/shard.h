// Host shards of a plan: which global arrivals, users and connections shard I of N (weighted) takes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace openloop::workload {

/// How a Poisson schedule is split between shards (and between a shard's worker threads).
enum class PoissonSplit : std::uint8_t {
  stripe,  ///< one seeded global stream that every shard draws and strides: the union is bit-identical
  thin     ///< each shard (and worker) an independent Poisson process at its share of the rate
};
/// Parses "stripe" | "thin"; error (usage) names `what` and the accepted values.
Result<PoissonSplit> parse_poisson_split(std::string_view text, std::string_view what);
/// "stripe" | "thin".
std::string_view to_string(PoissonSplit split);

/// This process's place among the shards of one plan. Default: unsharded (0 of 1, weight 1).
/// Invariant: count ≥ 1, index < count, weights.size() == count, every weight ≥ 1, reduced by their gcd.
struct ShardSpec {
  unsigned index = 0;
  unsigned count = 1;
  std::vector<std::uint64_t> weights{1};
  PoissonSplit poisson_split = PoissonSplit::stripe;

  /// Builds a spec, refusing (usage) index ≥ count, a weight list of the wrong length or a weight of 0, and
  /// a weight sum above k_max_weight_sum after dividing by the gcd. Empty weights: all equal.
  static Result<ShardSpec> make(unsigned index, unsigned count, std::vector<std::uint64_t> weights,
                                PoissonSplit split);
  /// True when the plan is split between more than one shard.
  bool sharded() const { return count > 1; }
  /// Σ weights (the stripe's cycle length).
  std::uint64_t weight_sum() const;
  /// This shard's fraction of the plan: weights[index] / Σ weights.
  double share() const;
  /// This shard's part of an integer total (users, sessions cap) by largest remainder: the parts of all
  /// shards add up to `total` exactly.
  std::uint64_t part_of(std::uint64_t total) const;
  /// A connection cap's part: part_of(total), at least 1.
  std::uint64_t cap_part(std::uint64_t total) const { return std::max<std::uint64_t>(1, part_of(total)); }
};

/// The most a weight sum (after dividing by the weights' gcd) may be: the stripe keeps one offset per unit.
inline constexpr std::uint64_t k_max_weight_sum = 1'000'000;

/// Largest-remainder split of `total` by `weights` (each ≥ 1): part i is ⌊total·wᵢ/W⌋ plus one for the
/// (total − Σ⌊⌋) largest remainders, ties to the lower index. The parts add up to `total` exactly.
std::vector<std::uint64_t> split_by_weight(std::uint64_t total, const std::vector<std::uint64_t>& weights);

/// Which global arrival indices one shard takes. Over each cycle of W = Σw consecutive global indices,
/// shard i takes wᵢ of them, spread as evenly as the weights allow (k6-style striping): position p of the
/// cycle goes to the shard whose next "due" position c·W/wᵢ (c = positions it has taken so far) is
/// smallest, ties to the heavier shard, then the lower index. Equal weights: global index j goes to shard
/// j mod N. The stripes of all shards partition the indices exactly.
class ShardStripe {
 public:
  /// The stripe of spec.index; unsharded: every index.
  explicit ShardStripe(const ShardSpec& spec);
  /// Global index of this shard's `local`-th arrival (0-based). Allocation-free.
  std::uint64_t global(std::uint64_t local) const {
    const std::uint64_t per_cycle = m_offsets.size();
    return (local / per_cycle) * m_cycle + m_offsets[local % per_cycle];
  }
  /// Number of this shard's indices below `total` (how many of the first `total` global arrivals it owns).
  std::uint64_t count_below(std::uint64_t total) const;
  /// Cycle length W and this shard's offsets in it (ascending).
  std::uint64_t cycle() const { return m_cycle; }
  const std::vector<std::uint64_t>& offsets() const { return m_offsets; }

 private:
  std::uint64_t m_cycle = 1;
  std::vector<std::uint64_t> m_offsets{0};
};

/// The owner of each position of the cycle (size Σw), as ShardStripe describes.
std::vector<unsigned> stripe_owners(const std::vector<std::uint64_t>& weights);

}  // namespace openloop::workload

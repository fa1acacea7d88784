// Host shards: weights, largest-remainder splits and the striped ownership of global arrival indices.
#include "workload/shard.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

namespace openloop::workload {

Result<PoissonSplit> parse_poisson_split(std::string_view text, std::string_view what) {
  if (text == "stripe") return PoissonSplit::stripe;
  if (text == "thin") return PoissonSplit::thin;
  return usage_error(fmt::format("{}: \"{}\" is not a Poisson split; use stripe or thin", what, text));
}

std::string_view to_string(PoissonSplit split) {
  return split == PoissonSplit::thin ? "thin" : "stripe";
}

Result<ShardSpec> ShardSpec::make(unsigned index, unsigned count, std::vector<std::uint64_t> weights,
                                  PoissonSplit split) {
  if (count < 1 || index >= count)
    return usage_error(fmt::format("shard {}/{}: the index must be below the count (0-based: 0/{} to {}/{})",
                                   index, count, std::max(1U, count), std::max(1U, count) - 1,
                                   std::max(1U, count)));
  if (weights.empty()) weights.assign(count, 1);
  if (weights.size() != count)
    return usage_error(
        fmt::format("--shard-weights: {} weight(s) for {} shards; give one positive integer "
                    "per shard, comma-separated (e.g. 2,1 for two shards)",
                    weights.size(), count));
  std::uint64_t g = 0;
  for (const auto w : weights) {
    if (w == 0) return usage_error("--shard-weights: a weight of 0; every weight must be a positive integer");
    g = std::gcd(g, w);
  }
  std::uint64_t sum = 0;
  for (auto& w : weights) {
    w /= g;
    sum += w;
    if (sum > k_max_weight_sum)
      return usage_error(
          fmt::format("--shard-weights: the weights add up to more than {} (after dividing "
                      "by their common factor); use smaller weights",
                      k_max_weight_sum));
  }
  ShardSpec s;
  s.index = index;
  s.count = count;
  s.weights = std::move(weights);
  s.poisson_split = split;
  return s;
}

std::uint64_t ShardSpec::weight_sum() const {
  return std::accumulate(weights.begin(), weights.end(), std::uint64_t{0});
}

double ShardSpec::share() const {
  return static_cast<double>(weights[index]) / static_cast<double>(weight_sum());
}

std::uint64_t ShardSpec::part_of(std::uint64_t total) const {
  return split_by_weight(total, weights)[index];
}

std::vector<std::uint64_t> split_by_weight(std::uint64_t total, const std::vector<std::uint64_t>& weights) {
  __extension__ using U128 = unsigned __int128;
  const std::uint64_t sum = std::accumulate(weights.begin(), weights.end(), std::uint64_t{0});
  std::vector<std::uint64_t> parts(weights.size(), 0);
  if (sum == 0) return parts;
  std::vector<std::uint64_t> remainders(weights.size(), 0);
  std::uint64_t given = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const U128 exact = static_cast<U128>(total) * weights[i];
    parts[i] = static_cast<std::uint64_t>(exact / sum);
    remainders[i] = static_cast<std::uint64_t>(exact % sum);
    given += parts[i];
  }
  std::vector<std::size_t> order(weights.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return remainders[a] > remainders[b]; });
  // Σ⌊⌋ falls short of total by less than the number of parts, so one pass hands out the rest.
  for (std::size_t k = 0; given < total && k < order.size(); ++k, ++given) ++parts[order[k]];
  return parts;
}

std::vector<unsigned> stripe_owners(const std::vector<std::uint64_t>& weights) {
  __extension__ using U128 = unsigned __int128;
  const std::uint64_t cycle = std::accumulate(weights.begin(), weights.end(), std::uint64_t{0});
  std::vector<std::uint64_t> taken(weights.size(), 0);
  std::vector<unsigned> owners;
  owners.reserve(cycle);
  for (std::uint64_t p = 0; p < cycle; ++p) {
    // Earliest due first: shard i's next position is due at taken·W/wᵢ. Compared as fractions
    // (a·W/wa < b·W/wb ⇔ a·wb < b·wa), exactly. Within one cycle exactly wᵢ positions of shard i are due
    // before W, so every shard ends the cycle with exactly its weight.
    unsigned best = 0;
    bool found = false;
    for (unsigned i = 0; i < weights.size(); ++i) {
      if (taken[i] >= weights[i]) continue;
      if (!found) {
        best = i;
        found = true;
        continue;
      }
      const U128 mine = static_cast<U128>(taken[i]) * weights[best];
      const U128 theirs = static_cast<U128>(taken[best]) * weights[i];
      if (mine < theirs || (mine == theirs && weights[i] > weights[best])) best = i;
    }
    owners.push_back(best);
    ++taken[best];
  }
  return owners;
}

ShardStripe::ShardStripe(const ShardSpec& spec) {
  if (!spec.sharded()) return;
  const auto owners = stripe_owners(spec.weights);
  m_cycle = owners.size();
  m_offsets.clear();
  for (std::uint64_t p = 0; p < owners.size(); ++p) {
    if (owners[p] == spec.index) m_offsets.push_back(p);
  }
}

std::uint64_t ShardStripe::count_below(std::uint64_t total) const {
  const std::uint64_t full = total / m_cycle;
  const std::uint64_t rest = total % m_cycle;
  const auto partial = static_cast<std::uint64_t>(std::lower_bound(m_offsets.begin(), m_offsets.end(), rest) -
                                                  m_offsets.begin());
  return full * m_offsets.size() + partial;
}

}  // namespace openloop::workload

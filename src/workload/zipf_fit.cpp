// A Zipf exponent by maximum likelihood over ranked key counts (workload/zipf_fit.h).
#include "workload/zipf_fit.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace openloop::workload {
namespace {

// E[log k] under Zipf(n, s), given log_ranks[k − 1] = log k: Σ k^-s log k / Σ k^-s, summed from the rarest
// rank so small terms are not lost.
double expected_log_rank(const std::vector<double>& log_ranks, double s) {
  double weight = 0, weighted_log = 0;
  for (auto it = log_ranks.rbegin(); it != log_ranks.rend(); ++it) {
    const double log_k = *it;
    const double w = std::exp(-s * log_k);
    weight += w;
    weighted_log += w * log_k;
  }
  return weighted_log / weight;
}

}  // namespace

std::optional<ZipfFit> fit_zipf(std::span<const std::uint64_t> counts) {
  std::vector<std::uint64_t> ranked;
  ranked.reserve(counts.size());
  for (auto c : counts)
    if (c > 0) ranked.push_back(c);
  if (ranked.size() < 2) return std::nullopt;
  std::sort(ranked.begin(), ranked.end(), std::greater<>());
  ZipfFit fit;
  fit.n = ranked.size();
  std::vector<double> log_ranks(ranked.size());
  for (std::size_t i = 0; i < ranked.size(); ++i) log_ranks[i] = std::log(static_cast<double>(i + 1));
  double sum_log_rank = 0;
  for (std::size_t i = 0; i < ranked.size(); ++i) {
    fit.observations += ranked[i];
    sum_log_rank += static_cast<double>(ranked[i]) * log_ranks[i];
  }
  const double mean_log_rank = sum_log_rank / static_cast<double>(fit.observations);
  // E[log k] falls as s grows: the root of E_s[log k] = mean_log_rank is the likelihood's maximum.
  double lo = k_zipf_fit_min_s, hi = k_zipf_fit_max_s;
  if (expected_log_rank(log_ranks, lo) <= mean_log_rank) {
    fit.s = lo;
    fit.s_at_bound = true;
  } else if (expected_log_rank(log_ranks, hi) >= mean_log_rank) {
    fit.s = hi;
    fit.s_at_bound = true;
  } else {
    for (int step = 0; step < 60; ++step) {
      const double mid = 0.5 * (lo + hi);
      (expected_log_rank(log_ranks, mid) > mean_log_rank ? lo : hi) = mid;
    }
    fit.s = 0.5 * (lo + hi);
  }
  // How well it fits: the largest gap between the two CDFs over the ranks.
  double norm = 0;
  for (auto it = log_ranks.rbegin(); it != log_ranks.rend(); ++it) norm += std::exp(-fit.s * *it);
  double fitted_cdf = 0;
  std::uint64_t seen = 0;
  const auto top = static_cast<std::size_t>((fit.n + 99) / 100);
  std::uint64_t top_seen = 0;
  for (std::size_t i = 0; i < ranked.size(); ++i) {
    seen += ranked[i];
    if (i < top) top_seen += ranked[i];
    fitted_cdf += std::exp(-fit.s * log_ranks[i]) / norm;
    const double empirical = static_cast<double>(seen) / static_cast<double>(fit.observations);
    fit.ks_distance = std::max(fit.ks_distance, std::abs(empirical - fitted_cdf));
  }
  fit.top_percent_share = static_cast<double>(top_seen) / static_cast<double>(fit.observations);
  return fit;
}

}  // namespace openloop::workload

// Confidence intervals of changes between two runs: order statistics on each run's effective sample size for
// percentiles (batch means only for correlated samples), normal approximations for rates and fractions.
#include "compare/change.h"

#include <algorithm>
#include <cmath>

namespace openloop::compare {

const char* to_string(Direction d) {
  switch (d) {
    case Direction::unchanged:
      return "unchanged";
    case Direction::increased:
      return "increased";
    case Direction::decreased:
      return "decreased";
    case Direction::unknown:
      return "unknown";
  }
  return "unknown";
}

double normal_z(double two_sided) {
  // Bisection on P(|Z| <= z) = erf(z / sqrt 2): monotone, 80 halvings of [0, 40] reach double precision.
  double lo = 0, hi = 40;
  for (int i = 0; i < 80; ++i) {
    const double mid = (lo + hi) / 2;
    (std::erf(mid / std::sqrt(2.0)) < two_sided ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

double per_run_z(double confidence, int quantities) {
  const double each = 1.0 - (1.0 - confidence) / (2.0 * static_cast<double>(quantities < 1 ? 1 : quantities));
  return normal_z(each);
}

namespace {

Direction direction_of(std::optional<double> low, std::optional<double> high) {
  if (low && *low > 0) return Direction::increased;
  if (high && *high < 0) return Direction::decreased;
  if (low && high) return Direction::unchanged;
  return Direction::unknown;
}

}  // namespace

double student_t(double z, int dof) {
  const double v = dof < 1 ? 1.0 : static_cast<double>(dof);
  const double z2 = z * z, z3 = z2 * z, z5 = z3 * z2, z7 = z5 * z2;
  return z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v) +
         (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * v * v * v);
}

std::optional<BatchSpread> batch_spread(const std::vector<hdr::Histogram>& intervals, double percentile) {
  std::vector<double> logs;
  for (const hdr::Histogram& h : intervals) {
    const double n = static_cast<double>(h.total_count());
    if (n * (1.0 - percentile / 100.0) < 1.0) continue;
    const std::int64_t v = h.value_at_percentile(percentile);
    if (v > 0) logs.push_back(std::log(static_cast<double>(v)));
  }
  if (logs.size() < 3) return std::nullopt;
  double mean = 0;
  for (double x : logs) mean += x;
  mean /= static_cast<double>(logs.size());
  double ss = 0;
  for (double x : logs) ss += (x - mean) * (x - mean);
  return BatchSpread{static_cast<int>(logs.size()), std::sqrt(ss / static_cast<double>(logs.size() - 1))};
}

double chi_square_quantile(double p, int dof) {
  const double k = dof < 1 ? 1.0 : static_cast<double>(dof);
  const double zp = p >= 0.5 ? normal_z(2 * p - 1) : -normal_z(1 - 2 * p);
  const double c = 1 - 2 / (9 * k) + zp * std::sqrt(2 / (9 * k));
  return k * c * c * c;
}

const char* to_string(IntervalBasis b) {
  switch (b) {
    case IntervalBasis::independent:
      return "independent";
    case IntervalBasis::effective:
      return "effective";
    case IntervalBasis::batch_means:
      return "batch_means";
  }
  return "independent";
}

bool batches_disagree(const std::vector<hdr::Histogram>& intervals, double percentile,
                      double effective_fraction) {
  const double fraction = effective_fraction > 0 && effective_fraction < 1 ? effective_fraction : 1.0;
  std::vector<double> logs, weights;
  for (const hdr::Histogram& h : intervals) {
    if (static_cast<double>(h.total_count()) * (1.0 - percentile / 100.0) < 1.0) continue;
    // One standard error each side (z = 1): the second's own order-statistic interval.
    const stats::QuantileEstimate q = stats::estimate_quantile(
        h, percentile, 1.0, fraction < 1 ? fraction * static_cast<double>(h.total_count()) : 0);
    if (!q.low || !q.high || *q.low <= 0 || q.value <= 0 || *q.high <= *q.low) continue;
    const double se = std::log(static_cast<double>(*q.high) / static_cast<double>(*q.low)) / 2;
    logs.push_back(std::log(static_cast<double>(q.value)));
    weights.push_back(1 / (se * se));
  }
  if (logs.size() < 3) return false;
  double wsum = 0, mean = 0;
  for (std::size_t i = 0; i < logs.size(); ++i) {
    wsum += weights[i];
    mean += weights[i] * logs[i];
  }
  mean /= wsum;
  double chi2 = 0;
  for (std::size_t i = 0; i < logs.size(); ++i) chi2 += weights[i] * (logs[i] - mean) * (logs[i] - mean);
  return chi2 > chi_square_quantile(0.99, static_cast<int>(logs.size()) - 1);
}

stats::QuantileEstimate estimate_run_quantile(const RunSamples& run, double percentile, double z,
                                              IntervalBasis* basis) {
  const hdr::Histogram& total = *run.response;
  const results::IndependenceCheck* check =
      run.independence != nullptr && run.independence->tested ? run.independence : nullptr;
  const double n = static_cast<double>(total.total_count());
  const double fraction = check != nullptr ? check->effective_fraction : 1.0;
  stats::QuantileEstimate q = stats::estimate_quantile(total, percentile, z, fraction < 1.0 ? n * fraction : 0);
  // Named only when the check found the correlation material (intervals ≥ 10 % wider).
  IntervalBasis how =
      check != nullptr && check->correlated() ? IntervalBasis::effective : IntervalBasis::independent;
  const bool disagree = run.intervals != nullptr && batches_disagree(*run.intervals, percentile, fraction);
  if (disagree && q.count > 0 && q.value > 0) {
    if (const auto spread = batch_spread(*run.intervals, percentile)) {
      const double half = student_t(z, spread->batches - 1) * spread->log_sd / std::sqrt(spread->batches);
      const auto low = static_cast<std::int64_t>(std::floor(static_cast<double>(q.value) * std::exp(-half)));
      const auto high = static_cast<std::int64_t>(std::ceil(static_cast<double>(q.value) * std::exp(half)));
      if ((q.low && total.lowest_equivalent(low) < *q.low) || (q.high && total.highest_equivalent(high) > *q.high))
        how = IntervalBasis::batch_means;
      if (q.low) q.low = std::min(*q.low, total.lowest_equivalent(low));
      if (q.high) q.high = std::max(*q.high, total.highest_equivalent(high));
    }
  }
  if (basis != nullptr) *basis = how;
  return q;
}

stats::QuantileEstimate estimate_run_quantile(const hdr::Histogram& total,
                                              const std::vector<hdr::Histogram>* intervals, double percentile,
                                              double z) {
  return estimate_run_quantile(RunSamples{&total, intervals, nullptr}, percentile, z);
}

QuantileChange compare_quantile(const RunSamples& baseline, const RunSamples& candidate, double percentile,
                                double z, IntervalBasis* baseline_basis, IntervalBasis* candidate_basis) {
  QuantileChange q;
  q.percentile = percentile;
  q.baseline = estimate_run_quantile(baseline, percentile, z, baseline_basis);
  q.candidate = estimate_run_quantile(candidate, percentile, z, candidate_basis);
  if (q.baseline.count == 0 || q.candidate.count == 0 || q.baseline.value <= 0 || q.candidate.value <= 0)
    return q;
  const auto as_double = [](std::int64_t v) { return static_cast<double>(v); };
  q.change = as_double(q.candidate.value) / as_double(q.baseline.value) - 1.0;
  // Each side's standard error of the log percentile, from its own interval at z.
  const auto below = [&](const stats::QuantileEstimate& e) -> std::optional<double> {
    if (!e.low || *e.low <= 0) return std::nullopt;
    return std::log(as_double(e.value) / as_double(*e.low)) / z;
  };
  const auto above = [&](const stats::QuantileEstimate& e) -> std::optional<double> {
    if (!e.high) return std::nullopt;
    return std::log(as_double(*e.high) / as_double(e.value)) / z;
  };
  const double centre = std::log(as_double(q.candidate.value) / as_double(q.baseline.value));
  const auto cl = below(q.candidate), bh = above(q.baseline), ch = above(q.candidate), bl = below(q.baseline);
  if (cl && bh) q.low = std::exp(centre - z * std::sqrt(*cl * *cl + *bh * *bh)) - 1.0;
  if (ch && bl) q.high = std::exp(centre + z * std::sqrt(*ch * *ch + *bl * *bl)) - 1.0;
  // The values compared as buckets, not ratios: equal buckets are no change at all.
  const bool apart = q.baseline.value != q.candidate.value;
  if (q.low && *q.low > 0 && apart) {
    q.direction = Direction::increased;
  } else if (q.high && *q.high < 0 && apart) {
    q.direction = Direction::decreased;
  } else if (q.low && q.high) {
    q.direction = Direction::unchanged;
  }
  return q;
}

QuantileChange compare_quantile(const hdr::Histogram& baseline, const hdr::Histogram& candidate,
                                double percentile, double z,
                                const std::vector<hdr::Histogram>* baseline_intervals,
                                const std::vector<hdr::Histogram>* candidate_intervals) {
  return compare_quantile(RunSamples{&baseline, baseline_intervals, nullptr},
                          RunSamples{&candidate, candidate_intervals, nullptr}, percentile, z);
}

RateChange compare_rate(const RateSample& baseline, const RateSample& candidate, double z) {
  RateChange r;
  if (baseline.seconds > 0) r.baseline = static_cast<double>(baseline.count) / baseline.seconds;
  if (candidate.seconds > 0) r.candidate = static_cast<double>(candidate.count) / candidate.seconds;
  if (baseline.trials == 0 || candidate.trials == 0 || baseline.seconds <= 0 || candidate.seconds <= 0)
    return r;
  const auto log_variance = [](const RateSample& s) {
    const double n = static_cast<double>(s.trials);
    const double p = (static_cast<double>(s.count) + 1.0) / (n + 2.0);
    return (1.0 - p) / (n * p) + (s.poisson ? 1.0 / n : 0.0);
  };
  const double spread = z * std::sqrt(log_variance(baseline) + log_variance(candidate));
  // The centre uses the same pseudo-counts as the variance so that two runs with no successes compare as
  // equal.
  const double centre = std::log((static_cast<double>(candidate.count) + 0.5) / candidate.seconds) -
                        std::log((static_cast<double>(baseline.count) + 0.5) / baseline.seconds);
  if (r.baseline > 0) r.change = r.candidate / r.baseline - 1.0;
  r.low = std::exp(centre - spread) - 1.0;
  r.high = std::exp(centre + spread) - 1.0;
  r.direction = direction_of(r.low, r.high);
  return r;
}

FractionChange compare_fraction(std::uint64_t baseline_count, std::uint64_t baseline_trials,
                                std::uint64_t candidate_count, std::uint64_t candidate_trials, double z) {
  FractionChange f;
  if (baseline_trials == 0 || candidate_trials == 0) return f;
  const auto fraction = [](std::uint64_t c, std::uint64_t n) {
    return static_cast<double>(c) / static_cast<double>(n);
  };
  f.baseline = fraction(baseline_count, baseline_trials);
  f.candidate = fraction(candidate_count, candidate_trials);
  f.change = f.candidate - f.baseline;
  const auto adjusted = [](std::uint64_t c, std::uint64_t n) {
    return (static_cast<double>(c) + 1.0) / (static_cast<double>(n) + 2.0);
  };
  const double pb = adjusted(baseline_count, baseline_trials),
               pc = adjusted(candidate_count, candidate_trials);
  const double spread = z * std::sqrt(pb * (1 - pb) / (static_cast<double>(baseline_trials) + 2.0) +
                                      pc * (1 - pc) / (static_cast<double>(candidate_trials) + 2.0));
  f.low = (pc - pb) - spread;
  f.high = (pc - pb) + spread;
  f.direction = direction_of(f.low, f.high);
  return f;
}

}  // namespace openloop::compare

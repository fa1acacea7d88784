// Anderson-Darling goodness-of-fit tests: against a fully specified distribution (its probability integral
// transform), and against the exponential with the rate estimated from the sample.
#pragma once

#include <span>
#include <string_view>
#include <vector>

namespace openloop::stats {

/// Significance levels with tabulated critical values.
enum class Level { p10, p05, p01 };
/// "10 %", "5 %", "1 %".
std::string_view to_string(Level level);

/// One test's outcome: the statistic, the critical value it is compared with, and whether it passed.
struct FitTest {
  std::size_t n = 0;     ///< samples tested
  double statistic = 0;  ///< A² (or the modified A²·(1 + 0.6/n) for the estimated-rate exponential)
  double critical = 0;   ///< upper critical value at `level`
  Level level = Level::p05;
  bool passed = true;  ///< statistic ≤ critical (true when n < 5: too few to test)
};

/// A² = −n − (1/n) Σ (2i − 1)[ln u₍ᵢ₎ + ln(1 − u₍ₙ₊₁₋ᵢ₎)] of the values u = F(xᵢ), which it sorts in place.
/// Values are clamped into [1e-300, 1 − 2⁻⁵³] so a sample at a support's edge gives a large, finite A².
/// Empty: 0.
double anderson_darling(std::span<double> u);

/// Upper critical values of A² when F is fully specified (no parameter estimated), valid for n ≥ 5:
/// 1.933 (10 %), 2.492 (5 %), 3.857 (1 %). Stephens (1974), Table 1 case 0; D'Agostino & Stephens (1986),
/// Table 4.2.
double critical_fully_specified(Level level);
/// Upper critical values of A²·(1 + 0.6/n) for the exponential with its mean estimated from the sample:
/// 1.078 (10 %), 1.341 (5 %), 1.957 (1 %). Stephens (1974), Table 1 (exponential, mean unknown).
double critical_exponential_estimated(Level level);

/// Tests values already transformed by the hypothesised CDF (u = F(x), iid uniform under the hypothesis).
/// Sorts `u` in place.
FitTest test_uniform(std::span<double> u, Level level);

/// Tests values transformed by an exponential CDF whose mean was estimated from the same sample: A²·(1 +
/// 0.6/n) against critical_exponential_estimated. Sorts `u` in place.
FitTest test_uniform_exponential_estimated(std::span<double> u, Level level);

/// Tests `gaps` (any unit, ≥ 0) against the exponential with mean `mean` (same unit, > 0): fully specified.
/// `scratch` receives the transformed values (resized; reuse it to avoid allocating).
FitTest test_exponential(std::span<const double> gaps, double mean, Level level,
                         std::vector<double>& scratch);
/// Tests `gaps` against the exponential whose mean is the sample mean (is it exponential at all, whatever the
/// rate?). A sample of zeros fails.
FitTest test_exponential_estimated(std::span<const double> gaps, Level level, std::vector<double>& scratch);

/// The regularised lower incomplete gamma function P(k, x) for an integer shape k ≥ 1 and x ≥ 0: the CDF of
/// the sum of k unit exponentials (Erlang-k), i.e. 1 − e^(−x) Σ_{i<k} xⁱ/i!.
double erlang_cdf(unsigned k, double x);

}  // namespace openloop::stats

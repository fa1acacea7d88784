// Retry budgets: Finagle's windowed ratio, gRPC's retry throttling tokens and the AWS SDK's retry quota, each
// held per worker and driven by explicit times (no clock inside, so tests advance time by hand).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/time.h"

namespace openloop::engine {

/// A budget as the user gave it, for the whole process.
struct BudgetSpec {
  enum class Kind : std::uint8_t { none, ratio, tokens, quota };
  Kind kind = Kind::none;
  // ratio (Finagle RetryBudget): retries in the last ttl ≤ min_per_s·ttl + ratio × requests in the last ttl.
  double ratio = 0.2;
  double min_per_s = 10;
  Nanos ttl = std::chrono::seconds(10);
  // tokens (gRPC retryThrottling): starts at max_tokens; a retryable failure −1, a success +token_ratio
  // (capped); retries only while tokens > max_tokens / 2.
  double max_tokens = 10;
  double token_ratio = 0.1;
  // quota (AWS SDK standard mode): a retry costs `cost` (`timeout_cost` after a timeout); none when the quota
  // cannot pay; a success refunds its last retry's cost, or `success_refund` when it needed no retry
  // (capped).
  double quota = 500;
  double cost = 5;
  double timeout_cost = 10;
  double success_refund = 1;

  /// The text form, e.g. "ratio:20%,min=10/s,ttl=10s".
  std::string to_string() const;
  nlohmann::json describe() const;
};

/// Parses --retry-budget: "ratio:P[,min=R][,ttl=D]" (P as 20% or 0.2; min a rate like 10/s; ttl a duration),
/// "tokens:max=N[,ratio=F]" or "quota:N[,cost=C][,timeout-cost=C]". Errors (usage) name `what`, the value and
/// the accepted forms.
Result<BudgetSpec> parse_budget(std::string_view text, std::string_view what);

/// One worker's share of a budget: ratios unchanged, min/s, max tokens and the quota divided by `workers`.
/// Single-threaded, allocation-free; every call takes the current time where time matters.
class RetryBudget {
 public:
  /// A budget that allows every retry.
  RetryBudget() = default;
  RetryBudget(const BudgetSpec& whole, unsigned workers);

  /// A logical request started its first attempt (Finagle deposits one request).
  void on_request(SteadyTime now);
  /// An attempt failed in a way the policy retries (gRPC: −1 token), whether or not a retry follows.
  void on_retryable_failure();
  /// A logical request succeeded. `last_retry_cost` is what its last retry withdrew (0 when it needed none):
  /// the AWS quota refunds that, or success_refund.
  void on_success(double last_retry_cost);
  /// Asks to retry now; on yes the retry is charged and `cost` says what was withdrawn (for on_success).
  /// `after_timeout`: the failed attempt timed out (AWS charges timeout_cost).
  bool try_withdraw(SteadyTime now, bool after_timeout, double& cost);

  /// Current state, for tests: ratio: reserve + ratio × deposits − withdrawals in the window; tokens: the
  /// token count; quota: the quota left.
  double balance(SteadyTime now);

 private:
  static constexpr std::size_t k_slices = 10;  // the ttl window in slices, as Finagle's WindowedAdder
  void advance(SteadyTime now);

  BudgetSpec m_spec;
  double m_tokens = 0;   // tokens, or the quota left
  double m_max = 0;      // max tokens / quota (this worker's share)
  double m_reserve = 0;  // ratio: min_per_s · ttl (this worker's share)
  Nanos m_slice{1};
  std::int64_t m_slice_index = -1;  // slice of the last update, in slices since the epoch
  std::array<double, k_slices> m_deposits{};
  std::array<double, k_slices> m_withdrawals{};
};

}  // namespace openloop::engine

// Tests for the retry budgets on a manual clock: Finagle's windowed ratio (with its reserve), gRPC's tokens,
// the AWS SDK's quota, each worker's share, and --retry-budget errors.
#include <gtest/gtest.h>

#include <string>

#include "core/clock.h"
#include "engine/retry_budget.h"

using namespace openloop;
using namespace openloop::engine;
using namespace std::chrono_literals;

namespace {

BudgetSpec spec(std::string_view text) {
  auto b = parse_budget(text, "--retry-budget");
  EXPECT_TRUE(b.has_value()) << (b ? "" : b.error().message);
  return b ? *b : BudgetSpec{};
}

// Retries granted in a row (stops at the first denial, at most `limit`).
int grant(RetryBudget& b, SteadyTime now, int limit = 10000, bool after_timeout = false) {
  int n = 0;
  double cost = 0;
  while (n < limit && b.try_withdraw(now, after_timeout, cost)) ++n;
  return n;
}

std::string error_of(std::string_view text) {
  auto b = parse_budget(text, "--retry-budget");
  EXPECT_FALSE(b.has_value()) << text;
  return b ? "" : b.error().message;
}

}  // namespace

TEST(RatioBudget, RetriesUpToTheRatioOfRecentRequests) {
  ManualClock clock(SteadyTime{} + 100s);
  RetryBudget b(spec("ratio:10%,min=0/s,ttl=10s"), 1);
  EXPECT_EQ(grant(b, clock.now()), 0) << "no requests, no reserve: nothing to retry with";
  for (int i = 0; i < 100; ++i) b.on_request(clock.now());
  EXPECT_EQ(grant(b, clock.now()), 10);
  clock.advance(1s);
  for (int i = 0; i < 50; ++i) b.on_request(clock.now());
  EXPECT_EQ(grant(b, clock.now()), 5);
}

TEST(RatioBudget, DepositsAndWithdrawalsLeaveTheWindowAfterTtl) {
  ManualClock clock(SteadyTime{} + 100s);
  RetryBudget b(spec("ratio:20%,min=0/s,ttl=10s"), 1);
  for (int i = 0; i < 100; ++i) b.on_request(clock.now());
  EXPECT_EQ(grant(b, clock.now()), 20);
  clock.advance(5s);
  EXPECT_EQ(grant(b, clock.now()), 0) << "still inside the window: the 20 retries are spent";
  clock.advance(6s);
  EXPECT_NEAR(b.balance(clock.now()), 0, 1e-9) << "both the requests and the retries have left the window";
  for (int i = 0; i < 10; ++i) b.on_request(clock.now());
  EXPECT_EQ(grant(b, clock.now()), 2);
}

TEST(RatioBudget, TheMinimumIsAReservePerTtl) {
  ManualClock clock(SteadyTime{} + 100s);
  RetryBudget b(spec("ratio:20%"), 1);  // Finagle's defaults: min=10/s, ttl=10s → 100 retries in any window
  EXPECT_EQ(grant(b, clock.now()), 100);
  clock.advance(3s);
  EXPECT_EQ(grant(b, clock.now()), 0);
  clock.advance(8s);
  EXPECT_EQ(grant(b, clock.now()), 100) << "the withdrawals have left the window";
}

TEST(RatioBudget, EachWorkerHoldsItsShareOfTheMinimumButTheWholeRatio) {
  ManualClock clock(SteadyTime{} + 100s);
  RetryBudget b(spec("ratio:10%,min=10/s,ttl=10s"), 4);  // reserve 100 / 4
  EXPECT_EQ(grant(b, clock.now()), 25);
  for (int i = 0; i < 100; ++i) b.on_request(clock.now());
  EXPECT_EQ(grant(b, clock.now()), 10);
}

TEST(TokenBudget, FailuresDrainToHalfThenRetriesStop) {
  RetryBudget b(spec("tokens:max=10,ratio=0.1"), 1);
  const SteadyTime now{};
  double cost = 0;
  // gRPC counts the failure first, then asks: 9, 8, 7, 6 are above max/2 = 5; at 5 retries stop.
  for (int i = 0; i < 4; ++i) {
    b.on_retryable_failure();
    EXPECT_TRUE(b.try_withdraw(now, false, cost)) << "failure " << i + 1;
  }
  b.on_retryable_failure();
  EXPECT_DOUBLE_EQ(b.balance(now), 5);
  EXPECT_FALSE(b.try_withdraw(now, false, cost));
  b.on_success(0);
  EXPECT_TRUE(b.try_withdraw(now, false, cost)) << "5.1 tokens > 5";
  for (int i = 0; i < 100; ++i) b.on_success(0);
  EXPECT_DOUBLE_EQ(b.balance(now), 10) << "capped at max";
  for (int i = 0; i < 20; ++i) b.on_retryable_failure();
  EXPECT_DOUBLE_EQ(b.balance(now), 0) << "never below 0";
}

TEST(TokenBudget, EachWorkerHoldsItsShareOfTheTokens) {
  RetryBudget b(spec("tokens:max=10"), 2);  // 5 tokens each, threshold 2.5
  const SteadyTime now{};
  double cost = 0;
  b.on_retryable_failure();
  b.on_retryable_failure();
  EXPECT_TRUE(b.try_withdraw(now, false, cost));  // 3 > 2.5
  b.on_retryable_failure();
  EXPECT_FALSE(b.try_withdraw(now, false, cost));  // 2
}

TEST(QuotaBudget, RetriesCostAndTimeoutsCostMore) {
  RetryBudget b(spec("quota:500,cost=5,timeout-cost=10"), 1);
  const SteadyTime now{};
  EXPECT_EQ(grant(b, now, 30, true), 30);
  EXPECT_DOUBLE_EQ(b.balance(now), 200);
  EXPECT_EQ(grant(b, now), 40);
  EXPECT_DOUBLE_EQ(b.balance(now), 0);
  double cost = 0;
  EXPECT_FALSE(b.try_withdraw(now, false, cost)) << "the quota cannot pay";
  EXPECT_EQ(cost, 0);
}

TEST(QuotaBudget, ASuccessRefundsItsRetryOrOne) {
  RetryBudget b(spec("quota:20"), 1);
  const SteadyTime now{};
  double cost = 0;
  ASSERT_TRUE(b.try_withdraw(now, false, cost));
  EXPECT_EQ(cost, 5);
  ASSERT_TRUE(b.try_withdraw(now, true, cost));
  EXPECT_EQ(cost, 10);
  EXPECT_DOUBLE_EQ(b.balance(now), 5);
  b.on_success(10);  // the request whose retry followed a timeout succeeded
  EXPECT_DOUBLE_EQ(b.balance(now), 15);
  b.on_success(0);  // a request that needed no retry
  EXPECT_DOUBLE_EQ(b.balance(now), 16);
  for (int i = 0; i < 10; ++i) b.on_success(5);
  EXPECT_DOUBLE_EQ(b.balance(now), 20) << "capped at the initial quota";
}

TEST(QuotaBudget, EachWorkerHoldsItsShareOfTheQuota) {
  RetryBudget b(spec("quota:500"), 2);
  EXPECT_EQ(grant(b, SteadyTime{}), 50);
}

TEST(NoBudget, AllowsEverything) {
  RetryBudget b;
  EXPECT_EQ(grant(b, SteadyTime{}, 1000), 1000);
}

TEST(BudgetFlag, FormsAndDefaults) {
  const BudgetSpec r = spec("ratio:0.25,ttl=5s,min=2/s");
  EXPECT_EQ(r.kind, BudgetSpec::Kind::ratio);
  EXPECT_DOUBLE_EQ(r.ratio, 0.25);
  EXPECT_EQ(r.ttl, 5s);
  EXPECT_DOUBLE_EQ(r.min_per_s, 2);
  EXPECT_EQ(spec("ratio:20%").to_string(), "ratio:20%,min=10/s,ttl=10s");
  EXPECT_EQ(spec("tokens:max=10").to_string(), "tokens:max=10,ratio=0.1");
  EXPECT_EQ(spec("quota:500").to_string(), "quota:500,cost=5,timeout-cost=10");
}

TEST(BudgetFlag, ErrorsNameTheFlagTheValueAndTheForms) {
  const std::string forms =
      "use ratio:20%[,min=10/s][,ttl=10s] (Finagle), tokens:max=10[,ratio=0.1] (gRPC) or "
      "quota:500[,cost=5][,timeout-cost=10] (AWS SDK)";
  EXPECT_EQ(error_of("ratio"), "--retry-budget: \"ratio\" is not accepted: no kind; " + forms);
  EXPECT_EQ(error_of("bucket:5"),
            "--retry-budget: \"bucket:5\" is not accepted: unknown kind \"bucket\"; " + forms);
  EXPECT_EQ(error_of("tokens:ratio=0.1"),
            "--retry-budget: \"tokens:ratio=0.1\" is not accepted: tokens needs max=N; " + forms);
  EXPECT_EQ(error_of("quota:0"),
            "--retry-budget: \"quota:0\" is not accepted: the quota must be greater than 0; " + forms);
  EXPECT_EQ(error_of("ratio:20%,ttl=100s"),
            "--retry-budget: \"ratio:20%,ttl=100s\" is not accepted: ttl must be 1s..60s; " + forms);
  EXPECT_EQ(
      error_of("ratio:20%,burst=3"),
      "--retry-budget: \"ratio:20%,burst=3\" is not accepted: \"burst\" is not a ratio setting (min, ttl); " +
          forms);
  EXPECT_EQ(error_of("ratio:20%,"),
            "--retry-budget: \"ratio:20%,\" is not accepted: an empty item; " + forms);
  EXPECT_EQ(
      error_of("ratio:abc"),
      "--retry-budget: \"ratio:abc\" is not accepted: the ratio \"abc\" is not a number like 20% or 0.2; " +
          forms);
  EXPECT_EQ(
      error_of("quota:500,cost=x"),
      "--retry-budget: \"quota:500,cost=x\" is not accepted: cost \"x\" is not a non-negative number; " +
          forms);
  EXPECT_EQ(error_of("tokens:max=5000"),
            "--retry-budget: \"tokens:max=5000\" is not accepted: max must be in (0, 1000]; " + forms);
  EXPECT_EQ(error_of("quota:500,cost=0"),
            "--retry-budget: \"quota:500,cost=0\" is not accepted: costs must be greater than 0; " + forms);
}

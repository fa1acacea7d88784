// Tests for the retry policy: backoff ranges per jitter kind on a seeded Rng, Retry-After parsing, the
// deadline header line, and flag errors that name the flag, the value and what is accepted.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "engine/retry_policy.h"

using namespace openloop;
using namespace openloop::engine;
using namespace std::chrono_literals;

namespace {

RetryPolicy policy(BackoffKind kind) {
  RetryPolicy p;
  p.attempts = 5;
  p.backoff = kind;
  p.backoff_base = 25ms;
  p.backoff_max = 250ms;
  return p;
}

struct Range {
  Nanos lo = Nanos::max(), hi = Nanos::min();
  double mean_ms = 0;
};

Range draw(const RetryPolicy& p, unsigned retry, Nanos previous, int n = 4000) {
  Rng rng(42, 7);
  Range r;
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    const Nanos d = p.backoff_delay(rng, retry, previous);
    r.lo = std::min(r.lo, d);
    r.hi = std::max(r.hi, d);
    sum += to_seconds(d) * 1000;
  }
  r.mean_ms = sum / n;
  return r;
}

Result<RetryPolicy> parse(RetryOptions o, Nanos timeout = 5s) {
  return parse_retry_policy(o, timeout);
}

std::string error_of(const RetryOptions& o, Nanos timeout = 5s) {
  auto r = parse(o, timeout);
  EXPECT_FALSE(r.has_value());
  if (r) return "";
  EXPECT_EQ(r.error().code, ExitCode::usage);
  return r.error().message;
}

}  // namespace

TEST(Backoff, FullJitterSpansZeroToTheDoublingCap) {
  const RetryPolicy p = policy(BackoffKind::full);
  const Range first = draw(p, 1, 0ns);
  EXPECT_GE(first.lo, 0ns);
  EXPECT_LE(first.hi, 25ms);
  EXPECT_LT(first.lo, 1ms);
  EXPECT_GT(first.hi, 24ms);
  EXPECT_NEAR(first.mean_ms, 12.5, 0.8);
  const Range third = draw(p, 3, 0ns);  // cap 25 ms · 2² = 100 ms
  EXPECT_LE(third.hi, 100ms);
  EXPECT_GT(third.hi, 97ms);
  const Range tenth = draw(p, 10, 0ns);  // capped by --backoff-max
  EXPECT_LE(tenth.hi, 250ms);
  EXPECT_GT(tenth.hi, 240ms);
  EXPECT_NEAR(tenth.mean_ms, 125, 6);
}

TEST(Backoff, EqualJitterKeepsAtLeastHalfTheCap) {
  const RetryPolicy p = policy(BackoffKind::equal);
  const Range second = draw(p, 2, 0ns);  // cap 50 ms
  EXPECT_GE(second.lo, 25ms);
  EXPECT_LT(second.lo, 26ms);
  EXPECT_LE(second.hi, 50ms);
  EXPECT_NEAR(second.mean_ms, 37.5, 1);
  const Range late = draw(p, 30, 0ns);
  EXPECT_GE(late.lo, 125ms);
  EXPECT_LE(late.hi, 250ms);
}

TEST(Backoff, DecorrelatedJitterGrowsFromThePreviousWaitUpToTheMax) {
  const RetryPolicy p = policy(BackoffKind::decorrelated);
  const Range first = draw(p, 1, 0ns);  // previous = base: uniform in [base, 3·base]
  EXPECT_GE(first.lo, 25ms);
  EXPECT_LE(first.hi, 75ms);
  EXPECT_NEAR(first.mean_ms, 50, 2);
  const Range after_60 = draw(p, 2, 60ms);  // [25 ms, 180 ms]
  EXPECT_GE(after_60.lo, 25ms);
  EXPECT_LE(after_60.hi, 180ms);
  EXPECT_GT(after_60.hi, 175ms);
  const Range after_200 = draw(p, 3, 200ms);  // [25 ms, 600 ms] capped at 250 ms
  EXPECT_LE(after_200.hi, 250ms);
  EXPECT_EQ(after_200.hi, 250ms);
}

TEST(Backoff, SameSeedSameWaits) {
  const RetryPolicy p = policy(BackoffKind::full);
  Rng a(9, 1), b(9, 1), c(9, 2);
  bool differs = false;
  for (unsigned k = 1; k < 50; ++k) {
    const Nanos x = p.backoff_delay(a, k % 4 + 1, 0ns);
    EXPECT_EQ(x, p.backoff_delay(b, k % 4 + 1, 0ns));
    differs = differs || x != p.backoff_delay(c, k % 4 + 1, 0ns);
  }
  EXPECT_TRUE(differs);
}

TEST(Backoff, ZeroBaseRetriesAtOnce) {
  RetryPolicy p = policy(BackoffKind::full);
  p.backoff_base = 0ns;
  Rng rng(1);
  EXPECT_EQ(p.backoff_delay(rng, 3, 0ns), 0ns);
}

TEST(RetryAfter, DeltaSecondsOnly) {
  EXPECT_EQ(parse_retry_after("120"), Nanos(120s));
  EXPECT_EQ(parse_retry_after(" 3\t"), Nanos(3s));
  EXPECT_EQ(parse_retry_after("0"), Nanos(0s));
  EXPECT_EQ(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), std::nullopt);
  EXPECT_EQ(parse_retry_after("-1"), std::nullopt);
  EXPECT_EQ(parse_retry_after("1.5"), std::nullopt);
  EXPECT_EQ(parse_retry_after(""), std::nullopt);
  EXPECT_EQ(parse_retry_after("  "), std::nullopt);
  EXPECT_EQ(parse_retry_after("99999999999999999999999"), Nanos(24h));
}

TEST(RetryFlags, DefaultsAreOneAttemptAndConnectPlus5xx) {
  const RetryPolicy p = *parse(RetryOptions{});
  EXPECT_FALSE(p.enabled());
  RetryOptions o;
  o.attempts = 3;
  const RetryPolicy q = *parse(o);
  EXPECT_TRUE(q.enabled());
  EXPECT_TRUE(q.retries(k_retry_connect));
  EXPECT_TRUE(q.retries(k_retry_5xx));
  EXPECT_FALSE(q.retries(k_retry_429));
  EXPECT_FALSE(q.retries(k_retry_timeout));
  EXPECT_EQ(q.backoff, BackoffKind::full);
  EXPECT_EQ(q.backoff_base, 25ms);
  EXPECT_EQ(q.backoff_max, 250ms);
  EXPECT_EQ(q.budget.kind, BudgetSpec::Kind::none);
}

TEST(RetryFlags, AFullPolicyParses) {
  RetryOptions o;
  o.attempts = 4;
  o.retry_on = "timeout,429,5xx";
  o.per_try_timeout = "200ms";
  o.backoff = "decorrelated";
  o.backoff_base = "10ms";
  o.backoff_max = "1s";
  o.honor_retry_after = true;
  o.budget = "tokens:max=10,ratio=0.1";
  o.send_deadline = "X-Deadline";
  const RetryPolicy p = *parse(o, 2s);
  EXPECT_EQ(p.attempts, 4u);
  EXPECT_EQ(p.retry_on, k_retry_timeout | k_retry_429 | k_retry_5xx);
  EXPECT_EQ(p.per_try_timeout, 200ms);
  EXPECT_EQ(p.backoff, BackoffKind::decorrelated);
  EXPECT_EQ(p.backoff_base, 10ms);
  EXPECT_EQ(p.backoff_max, 1s);
  EXPECT_TRUE(p.honor_retry_after);
  EXPECT_EQ(p.budget.kind, BudgetSpec::Kind::tokens);
  EXPECT_EQ(p.send_deadline, "X-Deadline");
  EXPECT_EQ(p.describe()["retry_on"], "timeout,5xx,429");
}

TEST(RetryFlags, EveryErrorNamesTheFlagTheValueAndWhatIsAccepted) {
  RetryOptions o;
  o.attempts = 0;

  EXPECT_NE(error_of(o).find("--retry-attempts: 0 is not accepted; use 1..100"), std::string::npos);
  o.attempts = 101;
  EXPECT_NE(error_of(o).find("--retry-attempts: 101"), std::string::npos);
  o.attempts = 3;
  o.retry_on = "5xx,404";
  EXPECT_NE(
      error_of(o).find("--retry-on: \"404\" in \"5xx,404\" is not accepted; use a comma-separated list of "
                       "timeout, connect, 5xx, 429"),
      std::string::npos);
  o.retry_on = "5xx,";
  EXPECT_NE(error_of(o).find("--retry-on: \"\""), std::string::npos);
  o.retry_on = "timeout";
  EXPECT_NE(error_of(o).find("give --per-try-timeout"), std::string::npos);
  o.retry_on.clear();
  o.per_try_timeout = "5s";
  EXPECT_NE(error_of(o).find(
                "--per-try-timeout: 5s is not accepted; use a duration above 0 and below --timeout (5s)"),
            std::string::npos);
  o.per_try_timeout = "0";
  EXPECT_NE(error_of(o).find("--per-try-timeout: 0 is not accepted"), std::string::npos);
  o.per_try_timeout = "fast";
  EXPECT_NE(error_of(o).find("--per-try-timeout"), std::string::npos);
  o.per_try_timeout.clear();
  o.backoff = "linear";
  EXPECT_NE(error_of(o).find("--backoff: \"linear\" is not accepted; use full, equal or decorrelated"),
            std::string::npos);
  o.backoff = "equal";
  o.backoff_base = "1s";
  EXPECT_NE(error_of(o).find("--backoff-base: 1s is above --backoff-max 250ms"), std::string::npos);
  o.backoff_base = "soon";
  EXPECT_NE(error_of(o).find("--backoff-base"), std::string::npos);
  o.backoff_base.clear();
  o.send_deadline = "X Deadline";
  EXPECT_NE(error_of(o).find("--send-deadline: \"X Deadline\" is not a header name"), std::string::npos);
}

TEST(RetryFlags, RetryOnlyFlagsNeedMoreThanOneAttempt) {
  RetryOptions o;
  o.budget = "ratio:10%";
  EXPECT_NE(error_of(o).find("--retry-budget: \"ratio:10%\" needs --retry-attempts 2 or more"),
            std::string::npos);
  RetryOptions h;
  h.honor_retry_after = true;
  EXPECT_NE(error_of(h).find("--honor-retry-after: needs --retry-attempts 2 or more"), std::string::npos);
  RetryOptions ok;  // a per-try timeout and the deadline header mean something without retries
  ok.per_try_timeout = "1s";
  ok.send_deadline = "X-Deadline";
  EXPECT_TRUE(parse(ok).has_value());
}

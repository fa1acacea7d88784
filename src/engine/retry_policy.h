// The client retry policy: which attempt outcomes are retried, how many attempts, the backoff between them,
// per-try timeouts, Retry-After, the deadline header, and their parsing from flags (shared by run, ramp,
// probe).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/rng.h"
#include "core/time.h"
#include "engine/retry_budget.h"

namespace openloop::engine {

/// Attempt outcomes a policy may retry (bit set). `timeout` means a per-try timeout: a request whose overall
/// deadline (--timeout) passed is never retried, nobody waits for it any more.
enum RetryOn : std::uint8_t {
  k_retry_timeout = 1,  ///< the attempt hit --per-try-timeout
  k_retry_connect = 2,  ///< the connection could not be established (ErrorKind::connect)
  k_retry_5xx = 4,      ///< a response with status 500..599 that is not a success under --success
  k_retry_429 = 8,      ///< a 429 response that is not a success under --success
};

/// AWS's "Exponential Backoff and Jitter" variants. For retry k (k = 1 for the first retry), with
/// cap_k = min(max, base·2^(k−1)): full waits uniform in [0, cap_k]; equal waits cap_k/2 + uniform in
/// [0, cap_k/2]; decorrelated waits min(max, uniform in [base, 3·previous wait]) with previous = base at
/// first.
enum class BackoffKind : std::uint8_t { full, equal, decorrelated };
/// "full", "equal", "decorrelated".
const char* to_string(BackoffKind k);

/// The whole policy of one run, validated. Default: one attempt (no retries), no per-try timeout, no header.
struct RetryPolicy {
  unsigned attempts = 1;  ///< total per logical request, including the first (1..100)
  std::uint8_t retry_on = k_retry_connect | k_retry_5xx;  ///< RetryOn bits
  Nanos per_try_timeout{0};  ///< 0 = none: an attempt may run to the overall deadline
  BackoffKind backoff = BackoffKind::full;
  Nanos backoff_base = std::chrono::milliseconds(25);
  Nanos backoff_max = std::chrono::milliseconds(250);
  bool honor_retry_after =
      false;                  ///< a 429/503 with Retry-After: SECONDS waits that long instead of the backoff
  BudgetSpec budget;          ///< whole-process budget; each worker holds its share (RetryBudget)
  std::string send_deadline;  ///< header carrying the remaining deadline in ms; empty = none

  bool enabled() const { return attempts > 1; }
  /// True when `outcome` (RetryOn bits of one attempt's outcome) is in retry_on.
  bool retries(std::uint8_t outcome) const { return (retry_on & outcome) != 0; }
  /// The wait before retry `retry` (1 = first retry). `previous` is the last wait of this logical request (0
  /// before the first retry; decorrelated jitter reads it). Never negative, never above backoff_max.
  /// Allocation- free.
  Nanos backoff_delay(Rng& rng, unsigned retry, Nanos previous) const;
  /// The policy for the results file's plan.
  nlohmann::json describe() const;
};

/// Retry flags as typed (strings, so errors can name the flag and the value; empty = not given, the default
/// applies). Shared by run, ramp and probe.
struct RetryOptions {
  unsigned attempts = 1;
  std::string retry_on;         ///< empty: connect,5xx
  std::string per_try_timeout;  ///< empty: none
  std::string backoff;          ///< empty: full
  std::string backoff_base;     ///< empty: 25ms
  std::string backoff_max;      ///< empty: 250ms
  bool honor_retry_after = false;
  std::string budget;         ///< empty: none
  std::string send_deadline;  ///< header name; empty: none
};

/// Validates the flags against the run's overall deadline `timeout`. Errors (usage) name the flag, the value
/// and what is accepted: --retry-attempts outside 1..100; an unknown --retry-on class; a --per-try-timeout of
/// 0 or not below --timeout; an unknown --backoff; a base above the max; retry-only flags given with one
/// attempt; a bad
/// --retry-budget (see parse_budget); a --send-deadline that is not a header name token.
Result<RetryPolicy> parse_retry_policy(const RetryOptions& o, Nanos timeout);

/// Parses "timeout,connect,5xx,429" (any subset, any order) into RetryOn bits. `what` names the flag.
Result<std::uint8_t> parse_retry_on(std::string_view text, std::string_view what);

/// The delay of a Retry-After header value in its delta-seconds form ("120"; RFC 9110 10.2.3), spaces around
/// allowed. nullopt for an HTTP-date, an empty, negative or malformed value. Values above one day are clamped
/// to one day. Allocation-free.
std::optional<Nanos> parse_retry_after(std::string_view value);

}  // namespace openloop::engine

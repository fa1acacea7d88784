// Retry policy: flag parsing and validation, jittered backoff, Retry-After and the deadline header line.
#include "engine/retry_policy.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "core/units.h"

namespace openloop::engine {
namespace {

constexpr unsigned k_max_attempts = 100;
constexpr auto k_max_retry_after = std::chrono::hours(24);

std::string retry_on_text(std::uint8_t bits) {
  std::string out;
  const std::pair<std::uint8_t, const char*> names[] = {
      {k_retry_timeout, "timeout"}, {k_retry_connect, "connect"}, {k_retry_5xx, "5xx"}, {k_retry_429, "429"}};
  for (const auto& [bit, name] : names) {
    if ((bits & bit) != 0) out += fmt::format("{}{}", out.empty() ? "" : ",", name);
  }
  return out;
}

// RFC 9110 token characters (header field names).
bool is_token(std::string_view s) {
  if (s.empty()) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || std::strchr("!#$%&'*+-.^_`|~", c) != nullptr;
  });
}

Nanos uniform(Rng& rng, double lo_ns, double hi_ns) {
  return Nanos(static_cast<std::int64_t>(lo_ns + rng.uniform01() * std::max(0.0, hi_ns - lo_ns)));
}

// The flags that only mean something when there are retries.
Result<void> check_retry_only_flags(const RetryOptions& o) {
  const std::pair<const char*, const std::string*> given[] = {{"--retry-on", &o.retry_on},
                                                              {"--backoff", &o.backoff},
                                                              {"--backoff-base", &o.backoff_base},
                                                              {"--backoff-max", &o.backoff_max},
                                                              {"--retry-budget", &o.budget}};
  for (const auto& [flag, value] : given) {
    if (!value->empty()) {
      return usage_error(fmt::format(
          "{}: \"{}\" needs --retry-attempts 2 or more (1, the default, never retries)", flag, *value));
    }
  }
  if (o.honor_retry_after) {
    return usage_error(
        "--honor-retry-after: needs --retry-attempts 2 or more (1, the default, never retries)");
  }
  return {};
}

Result<void> parse_backoff(const RetryOptions& o, RetryPolicy& p) {
  if (o.backoff.empty() || o.backoff == "full") {
    p.backoff = BackoffKind::full;
  } else if (o.backoff == "equal") {
    p.backoff = BackoffKind::equal;
  } else if (o.backoff == "decorrelated") {
    p.backoff = BackoffKind::decorrelated;
  } else {
    return usage_error(
        fmt::format("--backoff: \"{}\" is not accepted; use full, equal or decorrelated", o.backoff));
  }
  if (!o.backoff_base.empty())
    p.backoff_base = OPENLOOP_TRY(parse_duration(o.backoff_base, "--backoff-base"));
  if (!o.backoff_max.empty()) p.backoff_max = OPENLOOP_TRY(parse_duration(o.backoff_max, "--backoff-max"));
  if (p.backoff_base > p.backoff_max) {
    return usage_error(fmt::format("--backoff-base: {} is above --backoff-max {}; use a base at most the max",
                                   format_duration(p.backoff_base), format_duration(p.backoff_max)));
  }
  return {};
}

}  // namespace

const char* to_string(BackoffKind k) {
  switch (k) {
    case BackoffKind::full:
      return "full";
    case BackoffKind::equal:
      return "equal";
    case BackoffKind::decorrelated:
      return "decorrelated";
  }
  return "full";
}

Result<std::uint8_t> parse_retry_on(std::string_view text, std::string_view what) {
  std::uint8_t bits = 0;
  std::string_view rest = text;
  for (;;) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    if (item == "timeout") {
      bits |= k_retry_timeout;
    } else if (item == "connect") {
      bits |= k_retry_connect;
    } else if (item == "5xx") {
      bits |= k_retry_5xx;
    } else if (item == "429") {
      bits |= k_retry_429;
    } else {
      return usage_error(
          fmt::format("{}: \"{}\" in \"{}\" is not accepted; use a comma-separated list of timeout, "
                      "connect, 5xx, 429",
                      what, item, text));
    }
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return bits;
}

Result<RetryPolicy> parse_retry_policy(const RetryOptions& o, Nanos timeout) {
  RetryPolicy p;
  if (o.attempts < 1 || o.attempts > k_max_attempts) {
    return usage_error(
        fmt::format("--retry-attempts: {} is not accepted; use 1..{} (attempts in total, the first "
                    "included; 1 = no retries)",
                    o.attempts, k_max_attempts));
  }
  p.attempts = o.attempts;
  if (p.attempts == 1) OPENLOOP_TRY_VOID(check_retry_only_flags(o));
  if (!o.retry_on.empty()) p.retry_on = OPENLOOP_TRY(parse_retry_on(o.retry_on, "--retry-on"));
  if (!o.per_try_timeout.empty()) {
    p.per_try_timeout = OPENLOOP_TRY(parse_duration(o.per_try_timeout, "--per-try-timeout"));
    if (p.per_try_timeout.count() == 0 || p.per_try_timeout >= timeout) {
      return usage_error(
          fmt::format("--per-try-timeout: {} is not accepted; use a duration above 0 and below "
                      "--timeout ({}), which spans all attempts",
                      o.per_try_timeout, format_duration(timeout)));
    }
  }
  if ((p.retry_on & k_retry_timeout) != 0 && p.per_try_timeout.count() == 0) {
    return usage_error(
        "--retry-on: timeout retries attempts cut by --per-try-timeout, which is not set (a request "
        "past its overall --timeout is never retried); give --per-try-timeout D");
  }
  OPENLOOP_TRY_VOID(parse_backoff(o, p));
  p.honor_retry_after = o.honor_retry_after;
  if (!o.budget.empty()) p.budget = OPENLOOP_TRY(parse_budget(o.budget, "--retry-budget"));
  if (!o.send_deadline.empty() && !is_token(o.send_deadline)) {
    return usage_error(fmt::format(
        "--send-deadline: \"{}\" is not a header name; use a token such as X-Deadline", o.send_deadline));
  }
  p.send_deadline = o.send_deadline;
  return p;
}

Nanos RetryPolicy::backoff_delay(Rng& rng, unsigned retry, Nanos previous) const {
  const double base = static_cast<double>(backoff_base.count());
  const double max = static_cast<double>(backoff_max.count());
  switch (backoff) {
    case BackoffKind::full:
    case BackoffKind::equal: {
      const double cap = std::min(max, base * std::ldexp(1.0, static_cast<int>(std::min(retry, 64U)) - 1));
      return backoff == BackoffKind::full ? uniform(rng, 0, cap) : uniform(rng, cap / 2, cap);
    }
    case BackoffKind::decorrelated: {
      const double prev = previous.count() > 0 ? static_cast<double>(previous.count()) : base;
      return std::min(backoff_max, uniform(rng, base, std::max(base, 3 * prev)));
    }
  }
  return Nanos(0);
}

nlohmann::json RetryPolicy::describe() const {
  nlohmann::json j = {{"attempts", attempts}};
  if (enabled()) {
    j["retry_on"] = retry_on_text(retry_on);
    j["backoff"] = to_string(backoff);
    j["backoff_base_s"] = to_seconds(backoff_base);
    j["backoff_max_s"] = to_seconds(backoff_max);
    j["honor_retry_after"] = honor_retry_after;
    j["budget"] = budget.describe();
  }
  if (per_try_timeout.count() > 0) j["per_try_timeout_s"] = to_seconds(per_try_timeout);
  if (!send_deadline.empty()) j["send_deadline"] = send_deadline;
  return j;
}

std::optional<Nanos> parse_retry_after(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  if (v.empty()) return std::nullopt;
  std::int64_t seconds = 0;
  const std::int64_t limit = std::chrono::duration_cast<std::chrono::seconds>(k_max_retry_after).count();
  for (const char c : v) {
    if (c < '0' || c > '9') return std::nullopt;  // an HTTP-date, a sign, a fraction: not delta-seconds
    seconds = std::min(limit, seconds * 10 + (c - '0'));
  }
  return std::chrono::seconds(seconds);
}

}  // namespace openloop::engine

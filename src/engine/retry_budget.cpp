// Retry budget parsing and arithmetic (Finagle ratio window, gRPC tokens, AWS quota).
#include "engine/retry_budget.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "core/units.h"

namespace openloop::engine {
namespace {

constexpr const char* k_budget_forms =
    "use ratio:20%[,min=10/s][,ttl=10s] (Finagle), tokens:max=10[,ratio=0.1] (gRPC) or "
    "quota:500[,cost=5][,timeout-cost=10] (AWS SDK)";

std::optional<double> number(std::string_view text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) || v < 0)
    return std::nullopt;
  return v;
}

// "20%" → 0.2; "0.2" → 0.2.
std::optional<double> fraction(std::string_view text) {
  if (!text.empty() && text.back() == '%') {
    const auto percent = number(text.substr(0, text.size() - 1));
    return percent ? std::optional<double>(*percent / 100.0) : std::nullopt;
  }
  return number(text);
}

struct Parser {
  std::string_view whole, what;
  tl::unexpected<Error> fail(std::string_view why) const {
    return usage_error(fmt::format("{}: \"{}\" is not accepted: {}; {}", what, whole, why, k_budget_forms));
  }
  Result<double> value(std::string_view key, std::string_view text) const {
    if (const auto v = number(text)) return *v;
    return fail(fmt::format("{} \"{}\" is not a non-negative number", key, text));
  }
};

Result<void> ratio_field(const Parser& p, BudgetSpec& b, std::string_view key, std::string_view value) {
  const std::string what = fmt::format("{} {}", p.what, key);
  if (key == "min") {
    b.min_per_s = OPENLOOP_TRY(parse_rate(value, what));
  } else if (key == "ttl") {
    b.ttl = OPENLOOP_TRY(parse_duration(value, what));
    if (b.ttl < std::chrono::seconds(1) || b.ttl > std::chrono::seconds(60))
      return p.fail("ttl must be 1s..60s");
  } else {
    return p.fail(fmt::format("\"{}\" is not a ratio setting (min, ttl)", key));
  }
  return {};
}

Result<void> tokens_field(const Parser& p, BudgetSpec& b, std::string_view key, std::string_view value) {
  if (key == "max") {
    b.max_tokens = OPENLOOP_TRY(p.value(key, value));
    if (b.max_tokens <= 0 || b.max_tokens > 1000) return p.fail("max must be in (0, 1000]");
  } else if (key == "ratio") {
    b.token_ratio = OPENLOOP_TRY(p.value(key, value));
    if (b.token_ratio <= 0) return p.fail("ratio must be greater than 0");
  } else {
    return p.fail(fmt::format("\"{}\" is not a tokens setting (max, ratio)", key));
  }
  return {};
}

Result<void> quota_field(const Parser& p, BudgetSpec& b, std::string_view key, std::string_view value) {
  if (key == "cost") {
    b.cost = OPENLOOP_TRY(p.value(key, value));
  } else if (key == "timeout-cost") {
    b.timeout_cost = OPENLOOP_TRY(p.value(key, value));
  } else {
    return p.fail(fmt::format("\"{}\" is not a quota setting (cost, timeout-cost)", key));
  }
  if (b.cost <= 0 || b.timeout_cost <= 0) return p.fail("costs must be greater than 0");
  return {};
}

}  // namespace

Result<BudgetSpec> parse_budget(std::string_view text, std::string_view what) {
  const Parser p{text, what};
  BudgetSpec b;
  const std::size_t colon = text.find(':');
  if (colon == std::string_view::npos) return p.fail("no kind");
  const std::string_view kind = text.substr(0, colon);
  std::string_view rest = text.substr(colon + 1);
  // The first item of ratio and quota is their main value (ratio:20%, quota:500); tokens has only key=value.
  bool first = true;
  if (kind == "ratio") {
    b.kind = BudgetSpec::Kind::ratio;
  } else if (kind == "tokens") {
    b.kind = BudgetSpec::Kind::tokens;
    first = false;
  } else if (kind == "quota") {
    b.kind = BudgetSpec::Kind::quota;
  } else {
    return p.fail(fmt::format("unknown kind \"{}\"", kind));
  }
  bool has_max = false;
  for (;;) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    if (item.empty())
      return p.fail(b.kind == BudgetSpec::Kind::tokens ? "tokens needs max=N" : "an empty item");
    if (first) {
      first = false;
      if (b.kind == BudgetSpec::Kind::ratio) {
        const auto ratio = fraction(item);
        if (!ratio) return p.fail(fmt::format("the ratio \"{}\" is not a number like 20% or 0.2", item));
        if (*ratio > 10) return p.fail("the ratio must be 0%..1000%");
        b.ratio = *ratio;
      } else {
        b.quota = OPENLOOP_TRY(p.value("the quota", item));
        if (b.quota <= 0) return p.fail("the quota must be greater than 0");
      }
    } else {
      const std::size_t eq = item.find('=');
      if (eq == std::string_view::npos) return p.fail(fmt::format("\"{}\" is not KEY=VALUE", item));
      const std::string_view key = item.substr(0, eq), value = item.substr(eq + 1);
      switch (b.kind) {
        case BudgetSpec::Kind::ratio:
          OPENLOOP_TRY_VOID(ratio_field(p, b, key, value));
          break;
        case BudgetSpec::Kind::tokens:
          OPENLOOP_TRY_VOID(tokens_field(p, b, key, value));
          has_max = has_max || key == "max";
          break;
        case BudgetSpec::Kind::quota:
          OPENLOOP_TRY_VOID(quota_field(p, b, key, value));
          break;
        case BudgetSpec::Kind::none:
          break;
      }
    }
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  if (b.kind == BudgetSpec::Kind::tokens && !has_max) return p.fail("tokens needs max=N");
  return b;
}

std::string BudgetSpec::to_string() const {
  switch (kind) {
    case Kind::none:
      return "none";
    case Kind::ratio:
      return fmt::format("ratio:{:g}%,min={:g}/s,ttl={}", ratio * 100, min_per_s, format_duration(ttl));
    case Kind::tokens:
      return fmt::format("tokens:max={:g},ratio={:g}", max_tokens, token_ratio);
    case Kind::quota:
      return fmt::format("quota:{:g},cost={:g},timeout-cost={:g}", quota, cost, timeout_cost);
  }
  return "none";
}

nlohmann::json BudgetSpec::describe() const {
  switch (kind) {
    case Kind::none:
      return "none";
    case Kind::ratio:
      return {{"kind", "ratio"}, {"ratio", ratio}, {"min_per_s", min_per_s}, {"ttl_s", to_seconds(ttl)}};
    case Kind::tokens:
      return {{"kind", "tokens"}, {"max", max_tokens}, {"ratio", token_ratio}};
    case Kind::quota:
      return {{"kind", "quota"},
              {"quota", quota},
              {"cost", cost},
              {"timeout_cost", timeout_cost},
              {"success_refund", success_refund}};
  }
  return "none";
}

RetryBudget::RetryBudget(const BudgetSpec& whole, unsigned workers) : m_spec(whole) {
  const double n = std::max(1U, workers);
  switch (whole.kind) {
    case BudgetSpec::Kind::none:
      break;
    case BudgetSpec::Kind::ratio:
      m_reserve = whole.min_per_s / n * to_seconds(whole.ttl);
      m_slice = std::max(Nanos(1), whole.ttl / static_cast<std::int64_t>(k_slices));
      break;
    case BudgetSpec::Kind::tokens:
      m_max = m_tokens = whole.max_tokens / n;
      break;
    case BudgetSpec::Kind::quota:
      m_max = m_tokens = whole.quota / n;
      break;
  }
}

void RetryBudget::advance(SteadyTime now) {
  const std::int64_t index = now.time_since_epoch() / m_slice;
  if (m_slice_index < 0 || index - m_slice_index >= static_cast<std::int64_t>(k_slices)) {
    m_deposits.fill(0);
    m_withdrawals.fill(0);
  } else {
    // Slices that fell out of the window are reused for the newest times.
    for (std::int64_t i = m_slice_index + 1; i <= index; ++i) {
      const auto slot = static_cast<std::size_t>(i % static_cast<std::int64_t>(k_slices));
      m_deposits[slot] = 0;
      m_withdrawals[slot] = 0;
    }
  }
  m_slice_index = std::max(m_slice_index, index);
}

void RetryBudget::on_request(SteadyTime now) {
  if (m_spec.kind != BudgetSpec::Kind::ratio) return;
  advance(now);
  m_deposits[static_cast<std::size_t>(m_slice_index % static_cast<std::int64_t>(k_slices))] += 1;
}

void RetryBudget::on_retryable_failure() {
  if (m_spec.kind == BudgetSpec::Kind::tokens) m_tokens = std::max(0.0, m_tokens - 1);
}

void RetryBudget::on_success(double last_retry_cost) {
  if (m_spec.kind == BudgetSpec::Kind::tokens) m_tokens = std::min(m_max, m_tokens + m_spec.token_ratio);
  if (m_spec.kind == BudgetSpec::Kind::quota) {
    m_tokens = std::min(m_max, m_tokens + (last_retry_cost > 0 ? last_retry_cost : m_spec.success_refund));
  }
}

double RetryBudget::balance(SteadyTime now) {
  if (m_spec.kind != BudgetSpec::Kind::ratio) return m_tokens;
  advance(now);
  double deposits = 0, withdrawals = 0;
  for (std::size_t i = 0; i < k_slices; ++i) {
    deposits += m_deposits[i];
    withdrawals += m_withdrawals[i];
  }
  return m_reserve + m_spec.ratio * deposits - withdrawals;
}

bool RetryBudget::try_withdraw(SteadyTime now, bool after_timeout, double& cost) {
  cost = 0;
  switch (m_spec.kind) {
    case BudgetSpec::Kind::none:
      return true;
    case BudgetSpec::Kind::ratio:
      // A retry needs a whole retry's worth of balance (Finagle: count() ≥ withdrawal amount). The epsilon
      // keeps 10 % of 10 requests from falling just short through rounding.
      if (balance(now) < 1 - 1e-9) return false;
      m_withdrawals[static_cast<std::size_t>(m_slice_index % static_cast<std::int64_t>(k_slices))] += 1;
      return true;
    case BudgetSpec::Kind::tokens:
      return m_tokens > m_max / 2;
    case BudgetSpec::Kind::quota: {
      const double c = after_timeout ? m_spec.timeout_cost : m_spec.cost;
      if (m_tokens < c) return false;
      m_tokens -= c;
      cost = c;
      return true;
    }
  }
  return true;
}

}  // namespace openloop::engine

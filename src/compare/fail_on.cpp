// The --fail-on grammar ("p99>+10%") and its judgement on a change with its interval.
#include "compare/fail_on.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

namespace openloop::compare {
namespace {

constexpr const char* k_accepted =
    "accepted: pNN or pNN.N (response time, relative), goodput, throughput (relative), errors, timeouts, "
    "dropped "
    "(points of intended), capacity (two ramp files, relative), then >, >=, < or <=, then a signed percentage, "
    "e.g. 'p99>+10%', 'goodput<-1%', 'errors>+0.5%', 'capacity<-5%'";

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool parse_number(std::string_view s, double& out) {
  if (s.empty()) return false;
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, out);
  return ec == std::errc{} && ptr == end && std::isfinite(out);
}

}  // namespace

Result<FailOn> parse_fail_on(std::string_view text, std::string_view what) {
  const auto bad = [&](std::string_view why) {
    return usage_error(fmt::format("{} '{}': {}; {}", what, text, why, k_accepted));
  };
  FailOn f;
  f.text = std::string(trim(text));
  const std::string_view s = f.text;
  const std::size_t at = s.find_first_of("<>");
  if (at == std::string_view::npos) return bad("no operator");
  const std::string_view metric = trim(s.substr(0, at));
  std::string_view rest = s.substr(at);
  if (rest.size() >= 2 && rest[1] == '=') {
    f.op = rest[0] == '>' ? FailOn::Op::ge : FailOn::Op::le;
    rest.remove_prefix(2);
  } else {
    f.op = rest[0] == '>' ? FailOn::Op::gt : FailOn::Op::lt;
    rest.remove_prefix(1);
  }
  if (metric == "goodput") {
    f.metric = FailOn::Metric::goodput;
  } else if (metric == "throughput") {
    f.metric = FailOn::Metric::throughput;
  } else if (metric == "errors") {
    f.metric = FailOn::Metric::errors;
  } else if (metric == "timeouts") {
    f.metric = FailOn::Metric::timeouts;
  } else if (metric == "dropped") {
    f.metric = FailOn::Metric::dropped;
  } else if (metric == "capacity") {
    f.metric = FailOn::Metric::capacity;
  } else if (metric.size() > 1 && metric[0] == 'p' && parse_number(metric.substr(1), f.percentile)) {
    if (!(f.percentile > 0 && f.percentile < 100)) return bad("a percentile must be above 0 and below 100");
    f.metric = FailOn::Metric::percentile;
  } else {
    return bad(metric.empty() ? "no metric" : fmt::format("unknown metric '{}'", metric));
  }
  std::string_view value = trim(rest);
  if (value.empty() || value.back() != '%') return bad("the bound must be a percentage such as +10%");
  value.remove_suffix(1);
  value = trim(value);
  if (!value.empty() && value.front() == '+') value.remove_prefix(1);
  double percent = 0;
  if (!parse_number(value, percent)) return bad("the bound is not a number");
  f.bound = percent / 100.0;
  return f;
}

std::string metric_name(const FailOn& f) {
  switch (f.metric) {
    case FailOn::Metric::percentile:
      return fmt::format("p{}", f.percentile);
    case FailOn::Metric::goodput:
      return "goodput";
    case FailOn::Metric::throughput:
      return "throughput";
    case FailOn::Metric::errors:
      return "errors";
    case FailOn::Metric::timeouts:
      return "timeouts";
    case FailOn::Metric::dropped:
      return "dropped";
    case FailOn::Metric::capacity:
      return "capacity";
  }
  return "?";
}

namespace {

const char* op_text(FailOn::Op op) {
  switch (op) {
    case FailOn::Op::gt:
      return ">";
    case FailOn::Op::ge:
      return ">=";
    case FailOn::Op::lt:
      return "<";
    case FailOn::Op::le:
      return "<=";
  }
  return "?";
}

bool is_points(const FailOn& f) {
  return f.metric == FailOn::Metric::errors || f.metric == FailOn::Metric::timeouts ||
         f.metric == FailOn::Metric::dropped;
}

std::string signed_percent(double v, bool points) {
  return fmt::format("{:+.{}f} {}", v * 100, points ? 2 : 1, points ? "pt" : "%");
}

}  // namespace

const char* to_string(Outcome o) {
  switch (o) {
    case Outcome::pass:
      return "pass";
    case Outcome::fail:
      return "fail";
    case Outcome::inconclusive:
      return "inconclusive";
  }
  return "inconclusive";
}

Result<InconclusivePolicy> parse_inconclusive_policy(std::string_view word) {
  if (word == "fail") return InconclusivePolicy::fail;
  if (word == "pass") return InconclusivePolicy::pass;
  return usage_error(fmt::format(
      "--inconclusive '{}': accepted: fail (an inconclusive gate fails the build, the default) or pass", word));
}

namespace {

// The scale on which an interval's half-widths shrink as 1/√n: the log of the ratio for relative changes
// (their intervals are built there), the points themselves for fractions.
double on_scale(double v, bool points) {
  return points ? v : std::log1p(std::max(v, -0.999999));
}

// How many times longer both runs must be for the half-width facing the bound to fit between the estimate
// and the bound, the estimate kept; nullopt when it sits on the bound.
std::optional<double> longer_to_decide(double change, double low, double high, double bound, bool points) {
  const double c = on_scale(change, points), b = on_scale(bound, points);
  const double distance = std::abs(c - b);
  if (distance <= 1e-12) return std::nullopt;
  const double half = c > b ? c - on_scale(low, points) : on_scale(high, points) - c;
  return std::max(1.0, (half / distance) * (half / distance));
}

std::string factor_text(double f) {
  return f >= 100 ? fmt::format("{:.0f}", f) : fmt::format("{:.2g}", f);
}

}  // namespace

FailOnResult judge_fail_on(const FailOn& gate, std::optional<double> change, std::optional<double> low,
                           std::optional<double> high, Direction direction, InconclusivePolicy policy) {
  FailOnResult r;
  r.gate = gate;
  const bool points = is_points(gate);
  const std::string bound = fmt::format("{} {}", op_text(gate.op), signed_percent(gate.bound, points));
  const std::string counted = policy == InconclusivePolicy::fail ? "counted as failed (--inconclusive fail)"
                                                                 : "counted as passed (--inconclusive pass)";
  r.failed = policy == InconclusivePolicy::fail;
  if (!change || direction == Direction::unknown || !low || !high) {
    r.message = fmt::format("{}: inconclusive, not evaluated ({}); {}", metric_name(gate),
                            !change ? "no samples or no counts to compare" : "too few samples for an interval",
                            counted);
    return r;
  }
  r.evaluated = true;
  const bool upward = gate.op == FailOn::Op::gt || gate.op == FailOn::Op::ge;
  const bool strict = gate.op == FailOn::Op::gt || gate.op == FailOn::Op::lt;
  const auto past = [&](double v) {
    if (upward) return strict ? v > gate.bound : v >= gate.bound;
    return strict ? v < gate.bound : v <= gate.bound;
  };
  // Upward: the interval's low end past the bound means all of it is; its high end not past means none is.
  const double near_end = upward ? *low : *high, far_end = upward ? *high : *low;
  if (gate.bound == 0) {
    const bool significant = direction == (upward ? Direction::increased : Direction::decreased);
    r.outcome = significant && past(*change) ? Outcome::fail : Outcome::pass;
  } else if (past(near_end)) {
    r.outcome = Outcome::fail;
  } else if (!past(far_end)) {
    r.outcome = Outcome::pass;
  } else {
    r.outcome = Outcome::inconclusive;
    r.longer = longer_to_decide(*change, *low, *high, gate.bound, points);
  }
  const std::string interval = fmt::format("[{}, {}]", signed_percent(*low, points), signed_percent(*high, points));
  const std::string head = fmt::format("{} {} {}", metric_name(gate), signed_percent(*change, points), interval);
  switch (r.outcome) {
    case Outcome::fail:
      r.failed = true;
      r.message = gate.bound == 0 ? fmt::format("{} is significant and {}: FAILED", head, bound)
                                  : fmt::format("{} is {} over all its interval: FAILED", head, bound);
      break;
    case Outcome::pass:
      r.failed = false;
      r.message = gate.bound == 0 ? fmt::format("{} is not significantly {}: passed", head, bound)
                                  : fmt::format("{} is not {} over all its interval: passed", head, bound);
      break;
    case Outcome::inconclusive:
      r.message = fmt::format(
          "{} holds {}: inconclusive, the data cannot tell at this length; {}; {}", head,
          signed_percent(gate.bound, points),
          r.longer ? fmt::format("runs about {}x as long would decide if the estimate stayed {}", factor_text(*r.longer),
                                 signed_percent(*change, points))
                   : std::string("the estimate sits on the bound: no run length decides"),
          counted);
      break;
  }
  return r;
}

nlohmann::json fail_on_json(const std::vector<FailOnResult>& gates) {
  nlohmann::json out = nlohmann::json::array();
  for (const FailOnResult& g : gates) {
    out.push_back({{"text", g.gate.text},
                   {"outcome", to_string(g.outcome)},
                   {"evaluated", g.evaluated},
                   {"failed", g.failed},
                   {"longer", g.longer ? nlohmann::json(*g.longer) : nlohmann::json(nullptr)},
                   {"message", g.message}});
  }
  return out;
}

}  // namespace openloop::compare

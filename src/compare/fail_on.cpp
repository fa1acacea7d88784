// The --fail-on grammar ("p99>+10%") and its judgement on a change with its interval.
#include "compare/fail_on.h"

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

FailOnResult judge_fail_on(const FailOn& gate, std::optional<double> change, std::optional<double> low,
                           std::optional<double> high, Direction direction) {
  FailOnResult r;
  r.gate = gate;
  const bool points = is_points(gate);
  const std::string bound = fmt::format("{} {}", op_text(gate.op), signed_percent(gate.bound, points));
  if (!change || direction == Direction::unknown) {
    r.failed = true;
    r.message =
        fmt::format("{}: not evaluated ({}): a gate that cannot be judged fails", metric_name(gate),
                    !change ? "no samples or no counts to compare" : "too few samples for an interval");
    return r;
  }
  r.evaluated = true;
  const bool upward = gate.op == FailOn::Op::gt || gate.op == FailOn::Op::ge;
  bool past = false;
  switch (gate.op) {
    case FailOn::Op::gt:
      past = *change > gate.bound;
      break;
    case FailOn::Op::ge:
      past = *change >= gate.bound;
      break;
    case FailOn::Op::lt:
      past = *change < gate.bound;
      break;
    case FailOn::Op::le:
      past = *change <= gate.bound;
      break;
  }
  const bool significant = direction == (upward ? Direction::increased : Direction::decreased);
  r.failed = past && significant;
  const std::string interval = fmt::format("[{}, {}]", low ? signed_percent(*low, points) : std::string("?"),
                                           high ? signed_percent(*high, points) : std::string("?"));
  r.message = fmt::format("{} {} {} {} {}", metric_name(gate), signed_percent(*change, points), interval,
                          past ? "is" : "is not", bound);
  if (past && !significant)
    r.message += ", but the change is not significant: passed";
  else
    r.message += r.failed ? ", significant: FAILED" : ": passed";
  return r;
}

nlohmann::json fail_on_json(const std::vector<FailOnResult>& gates) {
  nlohmann::json out = nlohmann::json::array();
  for (const FailOnResult& g : gates) {
    out.push_back(
        {{"text", g.gate.text}, {"evaluated", g.evaluated}, {"failed", g.failed}, {"message", g.message}});
  }
  return out;
}

}  // namespace openloop::compare

// SLO parsing, evaluation on histograms and counters, and the "certain to fail" judgement for --abort-on-slo.
#include "results/judging/slo.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "core/units.h"
#include "results/flow_steps.h"
#include "results/run_results.h"

namespace openloop::results {
namespace {

constexpr std::string_view k_accepted =
    "accepted: p99<=200ms, p99.9<1s, mean<50ms, max<=2s, errors<=0.1%, timeouts<1%, dropped<1%, "
    "goodput>=99%, "
    "throughput>=500/s (operators <, <=, >, >=), each optionally prefixed NAME: for one request, e.g. "
    "checkout:p99<=300ms";

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0) s.remove_suffix(1);
  return s;
}

std::optional<double> to_number(std::string_view s) {
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

bool is_latency(Slo::Metric m) {
  return m == Slo::Metric::percentile || m == Slo::Metric::mean || m == Slo::Metric::max;
}
bool is_fraction(Slo::Metric m) {
  return m == Slo::Metric::errors || m == Slo::Metric::timeouts || m == Slo::Metric::dropped ||
         m == Slo::Metric::goodput;
}

Result<Slo::Metric> parse_metric(std::string_view name, Slo& slo, const std::string& where) {
  static const std::pair<std::string_view, Slo::Metric> k_names[] = {{"mean", Slo::Metric::mean},
                                                                     {"max", Slo::Metric::max},
                                                                     {"errors", Slo::Metric::errors},
                                                                     {"timeouts", Slo::Metric::timeouts},
                                                                     {"dropped", Slo::Metric::dropped},
                                                                     {"goodput", Slo::Metric::goodput},
                                                                     {"throughput", Slo::Metric::throughput}};
  for (const auto& [n, m] : k_names) {
    if (name == n) return m;
  }
  if (name.size() > 1 && name.front() == 'p') {
    const auto p = to_number(name.substr(1));
    if (!p || !(*p > 0 && *p <= 100)) {
      return usage_error(
          fmt::format("{}: \"{}\" is not a percentile; use p50, p99, p99.9 ... (above 0, at most 100); {}",
                      where, name, k_accepted));
    }
    slo.percentile = *p;
    return Slo::Metric::percentile;
  }
  if (name.empty())
    return usage_error(fmt::format("{}: the metric is missing before the comparison; {}", where, k_accepted));
  return usage_error(
      fmt::format("{}: \"{}\" is not a metric (expected pNN, mean, max, errors, timeouts, dropped, "
                  "goodput or throughput); {}",
                  where, name, k_accepted));
}

Result<double> parse_threshold(std::string_view value, const Slo& slo, const std::string& where) {
  if (value.empty())
    return usage_error(
        fmt::format("{}: the threshold is missing after the comparison; {}", where, k_accepted));
  if (is_latency(slo.metric)) {
    const Nanos d = OPENLOOP_TRY(parse_duration(value, where));
    return static_cast<double>(d.count());
  }
  if (slo.metric == Slo::Metric::throughput) return OPENLOOP_TRY(parse_rate(value, where));
  // A fraction: "0.1%", "99%", or a bare 0.
  if (value == "0") return 0.0;
  const auto pct = value.back() == '%' ? to_number(trim(value.substr(0, value.size() - 1))) : std::nullopt;
  if (!pct || *pct < 0 || *pct > 100) {
    return usage_error(
        fmt::format("{}: \"{}\" is not a percentage; {} takes a share of intended requests from 0% to "
                    "100%, e.g. 0.1% or 99%",
                    where, value, metric_name(slo)));
  }
  return *pct / 100.0;
}

// Equality within rounding: "0.1%" parsed as 0.1 / 100 and 1 / 1000 measured are the same number.
bool compare(double measured, Slo::Op op, double threshold) {
  const bool equal =
      std::fabs(measured - threshold) <= 1e-9 * std::max(std::fabs(measured), std::fabs(threshold));
  switch (op) {
    case Slo::Op::lt:
      return measured < threshold && !equal;
    case Slo::Op::le:
      return measured < threshold || equal;
    case Slo::Op::gt:
      return measured > threshold && !equal;
    case Slo::Op::ge:
      return measured > threshold || equal;
  }
  return false;
}

std::string human(Slo::Metric metric, double value, int digits) {
  if (is_latency(metric)) {
    const double a = std::fabs(value);
    if (value == 0) return "0";
    if (a < 1e3) return fmt::format("{:.0f}ns", value);
    if (a < 1e6) return fmt::format("{:.{}g}µs", value / 1e3, digits);
    if (a < 1e9) return fmt::format("{:.{}g}ms", value / 1e6, digits);
    if (a < 60e9) return fmt::format("{:.{}g}s", value / 1e9, digits);
    return format_duration(Nanos(static_cast<std::int64_t>(value)));
  }
  if (is_fraction(metric)) return fmt::format("{:.{}g}%", 100 * value, digits);
  return fmt::format("{:.{}g}/s", value, std::max(digits, 4));
}

/// What one SLO is judged on: the whole run's counters and response times, or one request's, or a flow's time
/// (no counters: a flow's SLOs are on its latency only).
struct Source {
  const Counters* counters = nullptr;
  const hdr::Histogram* response_time = nullptr;
};

// Looks the SLO's request up; nullopt when the run has no request of that name (or no breakdown for it).
// "flow", when no request has that name, is the flow's own time: sessions' intended start to their last
// response.
std::optional<Source> source_of(const Slo& slo, const RunResults& r, const std::vector<std::string>& names) {
  if (slo.request.empty()) return Source{&r.totals, &r.response_time};
  if (slo_names_the_flow(slo, names)) return Source{nullptr, &r.session_time};
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] != slo.request) continue;
    if (i < r.by_request.size()) return Source{&r.by_request[i].counters, &r.by_request[i].response_time};
    // One request and no breakdown: the run's totals are that request's.
    if (r.by_request.empty() && names.size() == 1) return Source{&r.totals, &r.response_time};
  }
  return std::nullopt;
}

std::uint64_t failed_requests(const Counters& c) {
  return c.errors_total() + (c.completed - c.ok);
}

// Samples whose reported value (the bucket's highest equivalent, as value_at_percentile reports it) is above
// `threshold` (or at it or above, when `inclusive`).
std::int64_t count_above(const hdr::Histogram& h, double threshold, bool inclusive) {
  std::int64_t n = 0;
  for (std::int32_t i = 0, used = h.used_length(); i < used; ++i) {
    const std::int64_t count = h.count_at_index(i);
    if (count == 0) continue;
    const auto value = static_cast<double>(h.highest_equivalent(h.value_from_index(i)));
    if (value > threshold || (inclusive && value == threshold)) n += count;
  }
  return n;
}

bool percentile_certain(const Slo& slo, const hdr::Histogram& h, double planned) {
  const double p = slo.percentile / 100;
  const auto total = static_cast<double>(h.total_count());
  switch (slo.op) {
    // Fails when the final value is above the bound: more than (1 − p) of the final samples are above it. The
    // final count is at most `planned`; +0.5 covers the rounding of the percentile's rank.
    case Slo::Op::le:
      return static_cast<double>(count_above(h, slo.threshold, false)) > (1 - p) * planned + 0.5;
    case Slo::Op::lt:
      return static_cast<double>(count_above(h, slo.threshold, true)) > (1 - p) * planned + 0.5;
    // Fails when the final value is below the bound: at least p of the final samples are below it.
    case Slo::Op::ge:
      return total - static_cast<double>(count_above(h, slo.threshold, true)) >= p * planned + 1;
    case Slo::Op::gt:
      return total - static_cast<double>(count_above(h, slo.threshold, false)) >= p * planned + 1;
  }
  return false;
}

// A latency SLO (pNN, max, mean) on `h` so far, of at most `planned` samples in all (`known`: a finite
// bound).
bool latency_certain_to_fail(const Slo& slo, const hdr::Histogram& h, bool known, double planned) {
  const bool upper = slo.op == Slo::Op::le || slo.op == Slo::Op::lt;
  switch (slo.metric) {
    case Slo::Metric::percentile:
      return known && percentile_certain(slo, h, planned);
    case Slo::Metric::max:
      return upper && h.total_count() > 0 && !compare(static_cast<double>(h.max()), slo.op, slo.threshold);
    case Slo::Metric::mean:
      // Later samples are ≥ 0 and at most `planned` in all: the final mean is at least sum so far / planned.
      return upper && known && planned > 0 &&
             !compare(h.mean() * static_cast<double>(h.total_count()) / planned, slo.op, slo.threshold);
    default:
      return false;
  }
}
}  // namespace

std::string metric_name(const Slo& slo) {
  switch (slo.metric) {
    case Slo::Metric::percentile:
      return fmt::format("p{:g}", slo.percentile);
    case Slo::Metric::mean:
      return "mean";
    case Slo::Metric::max:
      return "max";
    case Slo::Metric::errors:
      return "errors";
    case Slo::Metric::timeouts:
      return "timeouts";
    case Slo::Metric::dropped:
      return "dropped";
    case Slo::Metric::goodput:
      return "goodput";
    case Slo::Metric::throughput:
      return "throughput";
  }
  return "?";
}

std::string_view op_text(Slo::Op op) {
  switch (op) {
    case Slo::Op::lt:
      return "<";
    case Slo::Op::le:
      return "<=";
    case Slo::Op::gt:
      return ">";
    case Slo::Op::ge:
      return ">=";
  }
  return "?";
}

Result<Slo> parse_slo(std::string_view text, std::string_view what) {
  Slo slo;
  slo.text = std::string(trim(text));
  const std::string where = fmt::format("{} \"{}\"", what, slo.text);
  const std::string_view t = slo.text;
  const std::size_t at = t.find_first_of("<>");
  if (at == std::string_view::npos) {
    return usage_error(fmt::format("{}: no comparison (<, <=, >, >=) found; {}", where, k_accepted));
  }
  std::string_view head = t.substr(0, at);
  std::string_view rest = t.substr(at + 1);
  const bool inclusive = !rest.empty() && rest.front() == '=';
  if (inclusive) rest.remove_prefix(1);
  slo.op = t[at] == '<' ? (inclusive ? Slo::Op::le : Slo::Op::lt) : (inclusive ? Slo::Op::ge : Slo::Op::gt);
  if (const std::size_t colon = head.rfind(':'); colon != std::string_view::npos) {
    slo.request = std::string(trim(head.substr(0, colon)));
    if (slo.request.empty()) {
      return usage_error(fmt::format("{}: the request name before ':' is empty; {}", where, k_accepted));
    }
    head = head.substr(colon + 1);
  }
  slo.metric = OPENLOOP_TRY(parse_metric(trim(head), slo, where));
  slo.threshold = OPENLOOP_TRY(parse_threshold(trim(rest), slo, where));
  return slo;
}

Slo default_slo() {
  Slo slo;
  slo.text = "goodput>=99%";
  slo.metric = Slo::Metric::goodput;
  slo.op = Slo::Op::ge;
  slo.threshold = 0.99;
  slo.is_default = true;
  return slo;
}

std::vector<SloResult> evaluate_slos(const std::vector<Slo>& slos, const RunResults& r) {
  std::vector<SloResult> out;
  for (const Slo& slo : slos) {
    SloResult res;
    res.slo = slo;
    res.threshold_text = human(slo.metric, slo.threshold, 3);
    auto src = source_of(slo, r, r.info.request_names);
    std::optional<double> measured;
    if (!src) {
      res.measured_text = fmt::format("no request named \"{}\"", slo.request);
    } else if (src->counters == nullptr && !is_latency(slo.metric)) {
      res.measured_text = "a flow's SLO judges its time only (pNN, mean, max)";
      src.reset();
    } else if (is_latency(slo.metric)) {
      const hdr::Histogram& h = *src->response_time;
      if (h.total_count() > 0) {
        measured = slo.metric == Slo::Metric::percentile
                       ? static_cast<double>(h.value_at_percentile(slo.percentile))
                   : slo.metric == Slo::Metric::mean ? h.mean()
                                                     : static_cast<double>(h.max());
      }
    } else if (slo.metric == Slo::Metric::throughput) {
      if (r.measured_s > 0) measured = static_cast<double>(src->counters->completed) / r.measured_s;
    } else if (const Counters& c = *src->counters; c.intended > 0) {
      const std::uint64_t n = slo.metric == Slo::Metric::errors     ? failed_requests(c)
                              : slo.metric == Slo::Metric::timeouts ? c.timeouts
                              : slo.metric == Slo::Metric::dropped  ? c.dropped
                                                                    : c.ok;
      measured = static_cast<double>(n) / static_cast<double>(c.intended);
    }
    if (measured) {
      res.evaluated = true;
      res.measured = *measured;
      res.met = compare(*measured, slo.op, slo.threshold);
      // Enough digits that a measured value just past the threshold does not print as the threshold itself.
      for (int digits = 3; digits <= 6; ++digits) {
        res.measured_text = human(slo.metric, *measured, digits);
        res.threshold_text = human(slo.metric, slo.threshold, digits);
        if (res.measured_text != res.threshold_text || compare(*measured, Slo::Op::le, slo.threshold) ==
                                                           compare(*measured, Slo::Op::ge, slo.threshold)) {
          break;
        }
      }
    } else if (src) {
      res.measured_text = slo.metric == Slo::Metric::throughput ? "no measured period" : "no samples";
    }
    out.push_back(std::move(res));
  }
  return out;
}

bool all_met(const std::vector<SloResult>& results) {
  for (const auto& r : results) {
    if (!r.evaluated || !r.met) return false;
  }
  return true;
}

bool certain_to_fail(const Slo& slo, const RunResults& so_far, double planned_intended) {
  return certain_to_fail(slo, so_far, planned_intended, so_far.info.request_names);
}

bool certain_to_fail(const Slo& slo, const RunResults& so_far, double planned_intended,
                     const std::vector<std::string>& request_names) {
  const auto src = source_of(slo, so_far, request_names);
  if (!src) return false;
  const hdr::Histogram& h = *src->response_time;
  const bool known = std::isfinite(planned_intended) && planned_intended > 0;
  if (src->counters == nullptr) {
    // A flow's time: one sample per session, and each session sends at least one request, so the run's
    // planned requests bound its sessions (loosely: by the steps per session). Its SLOs are on latency only.
    const double sessions = !known ? std::numeric_limits<double>::infinity()
                                   : std::max(planned_intended, static_cast<double>(h.total_count()));
    return latency_certain_to_fail(slo, h, known, sessions);
  }
  const Counters& c = *src->counters;
  // The request's final total is at most the run's, less what the other requests have already taken (and at
  // least what it has itself, should the bound be off).
  const double others =
      static_cast<double>(so_far.totals.intended - std::min(c.intended, so_far.totals.intended));
  const double planned = !known ? std::numeric_limits<double>::infinity()
                                : std::max(planned_intended - others, static_cast<double>(c.intended));
  const bool upper = slo.op == Slo::Op::le || slo.op == Slo::Op::lt;
  // For upper bounds on shares: the final share is at least bad so far / planned, so if that already breaks
  // the bound, the end result will too.
  const auto share_past = [&](double bad) {
    return known && planned > 0 && !compare(bad / planned, slo.op, slo.threshold);
  };
  switch (slo.metric) {
    case Slo::Metric::percentile:
    case Slo::Metric::max:
    case Slo::Metric::mean:
      return latency_certain_to_fail(slo, h, known, planned);
    case Slo::Metric::errors:
      return upper && share_past(static_cast<double>(failed_requests(c)));
    case Slo::Metric::timeouts:
      return upper && share_past(static_cast<double>(c.timeouts));
    case Slo::Metric::dropped:
      return upper && share_past(static_cast<double>(c.dropped));
    case Slo::Metric::goodput: {
      // Requests already not ok stay not ok: the final goodput is at most 1 − not_ok / planned.
      if (upper || !known || planned <= 0) return false;
      const double best = 1 - static_cast<double>(c.intended - c.ok) / planned;
      return !compare(best, slo.op, slo.threshold);
    }
    case Slo::Metric::throughput:
      return false;
  }
  return false;
}

void add_for_slos(RunResults& into, const RunResults& part, const std::vector<std::string>& names) {
  into.add(part, names);
  into.measured_s = std::max(into.measured_s, part.measured_s);
}

}  // namespace openloop::results

// The results file's "checks" block: written from RunChecks and read back with every field checked.
#include <cmath>
#include <cstdint>
#include <limits>

#include <fmt/format.h>

#include "results/judging/run_checks.h"

namespace openloop::results {

using nlohmann::json;

namespace {
json optional_ns(const std::optional<std::int64_t>& v) {
  return v ? json(*v) : json(nullptr);
}

Result<LaneArrivals> read_lane(const JsonReader& rd, const JsonNode& f) {
  LaneArrivals l;
  const std::uint64_t worker = OPENLOOP_TRY(rd.count(f, "worker"));
  if (worker > UINT32_MAX)
    return rd.fail(f.path + "/worker", fmt::format("{} is not a worker index", worker));
  l.worker = static_cast<unsigned>(worker);
  l.recorded = OPENLOOP_TRY(rd.count(f, "recorded"));
  l.test = OPENLOOP_TRY(rd.string(f, "test"));
  if (l.test != "anderson-darling" && l.test != "dispersion")
    return rd.fail(f.path + "/test",
                   fmt::format("\"{}\" is not a test; expected anderson-darling or dispersion", l.test));
  l.tested = OPENLOOP_TRY(rd.count(f, "tested"));
  l.statistic = OPENLOOP_TRY(rd.number(f, "statistic"));
  l.critical = OPENLOOP_TRY(rd.number(f, "critical"));
  l.own_rate_statistic = OPENLOOP_TRY(rd.optional_number(f, "own_rate_statistic"));
  l.own_rate_critical = OPENLOOP_TRY(rd.optional_number(f, "own_rate_critical"));
  l.bunched = OPENLOOP_TRY(rd.number(f, "bunched"));
  l.planned_bunched = OPENLOOP_TRY(rd.number(f, "planned_bunched"));
  l.bunch_below_ns = OPENLOOP_TRY(rd.number(f, "bunch_below_ns"));
  l.passed = OPENLOOP_TRY(rd.boolean(f, "passed"));
  return l;
}

Result<ArrivalCheck> read_arrivals(const JsonReader& rd, const JsonNode& f) {
  ArrivalCheck a;
  a.tested = OPENLOOP_TRY(rd.boolean(f, "tested"));
  if (!a.tested) {
    a.why_not = OPENLOOP_TRY(rd.string(f, "why_not"));
    return a;
  }
  a.process = OPENLOOP_TRY(rd.string(f, "process"));
  a.level = OPENLOOP_TRY(rd.string(f, "level"));
  a.lateness_bound_ns = OPENLOOP_TRY(rd.number(f, "lateness_bound_ns"));
  a.accepted = OPENLOOP_TRY(rd.boolean(f, "accepted"));
  const JsonNode lanes = OPENLOOP_TRY(rd.field(f, "lanes", JsonKind::array));
  for (std::size_t i = 0; i < lanes.value->size(); ++i) {
    const JsonNode lane = OPENLOOP_TRY(rd.element(lanes, i, JsonKind::object));
    a.lanes.push_back(OPENLOOP_TRY(read_lane(rd, lane)));
  }
  if (a.lanes.empty()) return rd.fail(lanes.path, "empty: a tested arrival process has at least one lane");
  return a;
}

Result<IndependenceCheck> read_independence(const JsonReader& rd, const JsonNode& f) {
  IndependenceCheck i;
  i.tested = OPENLOOP_TRY(rd.boolean(f, "tested"));
  if (!i.tested) return i;
  i.samples = OPENLOOP_TRY(rd.count(f, "samples"));
  i.lag1 = OPENLOOP_TRY(rd.number(f, "lag1"));
  i.vanish_lag = OPENLOOP_TRY(rd.count(f, "vanish_lag"));
  i.vanished = OPENLOOP_TRY(rd.boolean(f, "vanished"));
  i.threshold = OPENLOOP_TRY(rd.number(f, "threshold"));
  i.effective_fraction = OPENLOOP_TRY(rd.number(f, "effective_fraction"));
  if (!(i.effective_fraction > 0 && i.effective_fraction <= 1))
    return rd.fail(f.path + "/effective_fraction", "expected a share in (0, 1]");
  return i;
}

Result<PercentileInterval> read_interval(const JsonReader& rd, const JsonNode& f) {
  PercentileInterval p;
  p.percentile = OPENLOOP_TRY(rd.number(f, "percentile"));
  const std::uint64_t value = OPENLOOP_TRY(rd.count(f, "value_ns"));
  if (value > INT64_MAX)
    return rd.fail(f.path + "/value_ns", fmt::format("{} ns is beyond any latency", value));
  p.value = static_cast<std::int64_t>(value);
  p.low = OPENLOOP_TRY(rd.optional_integer(f, "low_ns"));
  p.high = OPENLOOP_TRY(rd.optional_integer(f, "high_ns"));
  p.naive_low = OPENLOOP_TRY(rd.optional_integer(f, "naive_low_ns"));
  p.naive_high = OPENLOOP_TRY(rd.optional_integer(f, "naive_high_ns"));
  p.effective_count = OPENLOOP_TRY(rd.number(f, "effective_count"));
  return p;
}
}  // namespace

json to_json(const IndependenceCheck& i) {
  json independence = {{"tested", i.tested}};
  if (i.tested) {
    independence.update({{"samples", i.samples},
                         {"lag1", i.lag1},
                         {"vanish_lag", i.vanish_lag},
                         {"vanished", i.vanished},
                         {"threshold", i.threshold},
                         {"effective_fraction", i.effective_fraction},
                         {"widening", i.widening()},
                         {"correlated", i.correlated()}});
  }
  return independence;
}

json to_json(const UntilOutcome& u) {
  return {{"target", u.target.text},
          {"percentile", u.target.percentile},
          {"relative", u.target.relative},
          {"met", u.met},
          {"achieved", u.achieved ? json(*u.achieved) : json(nullptr)},
          {"samples", u.samples},
          {"more_seconds", std::isfinite(u.more_seconds) ? json(u.more_seconds) : json(nullptr)},
          {"sentence", u.sentence()}};
}

json to_json(const RunChecks& c) {
  json j = json::object();
  const ArrivalCheck& a = c.arrivals;
  json arrivals = {{"tested", a.tested}};
  if (!a.tested) {
    arrivals["why_not"] = a.why_not;
  } else {
    arrivals["process"] = a.process;
    arrivals["level"] = a.level;
    arrivals["lateness_bound_ns"] = a.lateness_bound_ns;
    arrivals["accepted"] = a.accepted;
    arrivals["passed"] = a.passed();
    if (!a.passed()) arrivals["failure"] = a.failure();
    arrivals["lanes"] = json::array();
    for (const auto& l : a.lanes) {
      json lane = {{"worker", l.worker},
                   {"recorded", l.recorded},
                   {"test", l.test},
                   {"tested", l.tested},
                   {"statistic", l.statistic},
                   {"critical", l.critical},
                   {"bunched", l.bunched},
                   {"planned_bunched", l.planned_bunched},
                   {"bunch_below_ns", l.bunch_below_ns},
                   {"passed", l.passed}};
      lane["own_rate_statistic"] = l.own_rate_statistic ? json(*l.own_rate_statistic) : json(nullptr);
      lane["own_rate_critical"] = l.own_rate_critical ? json(*l.own_rate_critical) : json(nullptr);
      arrivals["lanes"].push_back(std::move(lane));
    }
  }
  j["arrivals"] = std::move(arrivals);
  j["independence"] = to_json(c.independence);
  if (!c.windows.empty()) {
    j["windows"] = json::array();
    for (const auto& w : c.windows)
      j["windows"].push_back({{"from_s", w.from_s}, {"to_s", w.to_s}, {"independence", to_json(w.independence)}});
  }
  j["response_time"] = json::array();
  for (const auto& p : c.response_time) {
    j["response_time"].push_back({{"percentile", p.percentile},
                                  {"value_ns", p.value},
                                  {"low_ns", optional_ns(p.low)},
                                  {"high_ns", optional_ns(p.high)},
                                  {"naive_low_ns", optional_ns(p.naive_low)},
                                  {"naive_high_ns", optional_ns(p.naive_high)},
                                  {"effective_count", p.effective_count}});
  }
  if (!c.until.empty()) {
    j["until"] = json::array();
    for (const auto& u : c.until) j["until"].push_back(to_json(u));
  }
  return j;
}

Result<RunChecks> run_checks_from_json(const JsonReader& rd, const JsonNode& checks) {
  if (!checks.value->is_object())
    return rd.fail(checks.path, fmt::format("expected an object, found {}", checks.value->type_name()));
  RunChecks c;
  const JsonNode arrivals = OPENLOOP_TRY(rd.field(checks, "arrivals", JsonKind::object));
  c.arrivals = OPENLOOP_TRY(read_arrivals(rd, arrivals));
  const JsonNode independence = OPENLOOP_TRY(rd.field(checks, "independence", JsonKind::object));
  c.independence = OPENLOOP_TRY(read_independence(rd, independence));
  const JsonNode rt = OPENLOOP_TRY(rd.field(checks, "response_time", JsonKind::array));
  for (std::size_t k = 0; k < rt.value->size(); ++k) {
    const JsonNode p = OPENLOOP_TRY(rd.element(rt, k, JsonKind::object));
    c.response_time.push_back(OPENLOOP_TRY(read_interval(rd, p)));
  }
  if (rd.has(checks, "windows")) {
    const JsonNode windows = OPENLOOP_TRY(rd.field(checks, "windows", JsonKind::array));
    for (std::size_t k = 0; k < windows.value->size(); ++k) {
      const JsonNode w = OPENLOOP_TRY(rd.element(windows, k, JsonKind::object));
      WindowIndependence out;
      out.from_s = OPENLOOP_TRY(rd.number(w, "from_s"));
      out.to_s = OPENLOOP_TRY(rd.number(w, "to_s"));
      const JsonNode window_independence = OPENLOOP_TRY(rd.field(w, "independence", JsonKind::object));
      out.independence = OPENLOOP_TRY(read_independence(rd, window_independence));
      c.windows.push_back(out);
    }
  }
  if (rd.has(checks, "until")) {
    const JsonNode until = OPENLOOP_TRY(rd.field(checks, "until", JsonKind::array));
    for (std::size_t k = 0; k < until.value->size(); ++k) {
      const JsonNode u = OPENLOOP_TRY(rd.element(until, k, JsonKind::object));
      UntilOutcome o;
      const std::string target = OPENLOOP_TRY(rd.string(u, "target"));
      auto parsed = parse_until(target);
      if (!parsed) return rd.fail(u.path + "/target", parsed.error().message);
      o.target = std::move(*parsed);
      o.met = OPENLOOP_TRY(rd.boolean(u, "met"));
      o.achieved = OPENLOOP_TRY(rd.optional_number(u, "achieved"));
      o.samples = OPENLOOP_TRY(rd.count(u, "samples"));
      const auto more = OPENLOOP_TRY(rd.optional_number(u, "more_seconds"));
      o.more_seconds = more ? *more : std::numeric_limits<double>::infinity();
      c.until.push_back(std::move(o));
    }
  }
  return c;
}

}  // namespace openloop::results

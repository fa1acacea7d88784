// The results file's "checks" block: written from RunChecks and read back with every field checked.
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "results/run_checks.h"

namespace openloop::results {

using nlohmann::json;

namespace {
json optional_ns(const std::optional<std::int64_t>& v) {
  return v ? json(*v) : json(nullptr);
}

// Checked access with the field's path in every error.
struct Fields {
  const json& obj;
  std::string path;

  tl::unexpected<Error> fail(std::string_view key, std::string_view what) const {
    return usage_error(fmt::format("{}/{}: {}", path, key, what));
  }
  Result<const json*> get(std::string_view key, bool (json::*is)() const noexcept,
                          std::string_view kind) const {
    const auto it = obj.find(key);
    if (it == obj.end()) return fail(key, fmt::format("missing (expected {})", kind));
    if (!((*it).*is)()) return fail(key, fmt::format("expected {}, found {}", kind, it->type_name()));
    return &*it;
  }
  Result<double> number(std::string_view key) const {
    return OPENLOOP_TRY(get(key, &json::is_number, "a number"))->get<double>();
  }
  Result<std::uint64_t> count(std::string_view key) const {
    const json* v = OPENLOOP_TRY(get(key, &json::is_number_integer, "a count"));
    if (v->get<std::int64_t>() < 0) return fail(key, "expected a count, found a negative number");
    return v->get<std::uint64_t>();
  }
  Result<bool> boolean(std::string_view key) const {
    return OPENLOOP_TRY(get(key, &json::is_boolean, "true or false"))->get<bool>();
  }
  Result<std::string> string(std::string_view key) const {
    return OPENLOOP_TRY(get(key, &json::is_string, "a string"))->get<std::string>();
  }
  /// A number or null (absent counts as null).
  Result<std::optional<double>> optional_number(std::string_view key) const {
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return std::optional<double>();
    if (!it->is_number())
      return fail(key, fmt::format("expected a number or null, found {}", it->type_name()));
    return std::optional<double>(it->get<double>());
  }
  Result<std::optional<std::int64_t>> optional_ns(std::string_view key) const {
    const auto it = obj.find(key);
    if (it == obj.end() || it->is_null()) return std::optional<std::int64_t>();
    if (!it->is_number_integer())
      return fail(key, fmt::format("expected nanoseconds or null, found {}", it->type_name()));
    return std::optional<std::int64_t>(it->get<std::int64_t>());
  }
  Result<Fields> object(std::string_view key) const {
    return Fields{*OPENLOOP_TRY(get(key, &json::is_object, "an object")), fmt::format("{}/{}", path, key)};
  }
  Result<const json*> array(std::string_view key) const { return get(key, &json::is_array, "an array"); }
};

Result<LaneArrivals> read_lane(const Fields& f) {
  LaneArrivals l;
  l.worker = static_cast<unsigned>(OPENLOOP_TRY(f.count("worker")));
  l.recorded = OPENLOOP_TRY(f.count("recorded"));
  l.test = OPENLOOP_TRY(f.string("test"));
  if (l.test != "anderson-darling" && l.test != "dispersion")
    return f.fail("test",
                  fmt::format("\"{}\" is not a test; expected anderson-darling or dispersion", l.test));
  l.tested = OPENLOOP_TRY(f.count("tested"));
  l.statistic = OPENLOOP_TRY(f.number("statistic"));
  l.critical = OPENLOOP_TRY(f.number("critical"));
  l.own_rate_statistic = OPENLOOP_TRY(f.optional_number("own_rate_statistic"));
  l.own_rate_critical = OPENLOOP_TRY(f.optional_number("own_rate_critical"));
  l.bunched = OPENLOOP_TRY(f.number("bunched"));
  l.planned_bunched = OPENLOOP_TRY(f.number("planned_bunched"));
  l.bunch_below_ns = OPENLOOP_TRY(f.number("bunch_below_ns"));
  l.passed = OPENLOOP_TRY(f.boolean("passed"));
  return l;
}

Result<ArrivalCheck> read_arrivals(const Fields& f) {
  ArrivalCheck a;
  a.tested = OPENLOOP_TRY(f.boolean("tested"));
  if (!a.tested) {
    a.why_not = OPENLOOP_TRY(f.string("why_not"));
    return a;
  }
  a.process = OPENLOOP_TRY(f.string("process"));
  a.level = OPENLOOP_TRY(f.string("level"));
  a.lateness_bound_ns = OPENLOOP_TRY(f.number("lateness_bound_ns"));
  a.accepted = OPENLOOP_TRY(f.boolean("accepted"));
  const json* lanes = OPENLOOP_TRY(f.array("lanes"));
  for (std::size_t i = 0; i < lanes->size(); ++i) {
    const std::string path = fmt::format("{}/lanes/{}", f.path, i);
    if (!(*lanes)[i].is_object()) return usage_error(fmt::format("{}: expected an object", path));
    a.lanes.push_back(OPENLOOP_TRY(read_lane(Fields{(*lanes)[i], path})));
  }
  if (a.lanes.empty()) return f.fail("lanes", "empty: a tested arrival process has at least one lane");
  return a;
}

Result<IndependenceCheck> read_independence(const Fields& f) {
  IndependenceCheck i;
  i.tested = OPENLOOP_TRY(f.boolean("tested"));
  if (!i.tested) return i;
  i.samples = OPENLOOP_TRY(f.count("samples"));
  i.lag1 = OPENLOOP_TRY(f.number("lag1"));
  i.vanish_lag = OPENLOOP_TRY(f.count("vanish_lag"));
  i.vanished = OPENLOOP_TRY(f.boolean("vanished"));
  i.threshold = OPENLOOP_TRY(f.number("threshold"));
  i.effective_fraction = OPENLOOP_TRY(f.number("effective_fraction"));
  if (!(i.effective_fraction > 0 && i.effective_fraction <= 1))
    return f.fail("effective_fraction", "expected a share in (0, 1]");
  return i;
}

Result<PercentileInterval> read_interval(const Fields& f) {
  PercentileInterval p;
  p.percentile = OPENLOOP_TRY(f.number("percentile"));
  p.value = static_cast<std::int64_t>(OPENLOOP_TRY(f.count("value_ns")));
  p.low = OPENLOOP_TRY(f.optional_ns("low_ns"));
  p.high = OPENLOOP_TRY(f.optional_ns("high_ns"));
  p.naive_low = OPENLOOP_TRY(f.optional_ns("naive_low_ns"));
  p.naive_high = OPENLOOP_TRY(f.optional_ns("naive_high_ns"));
  p.effective_count = OPENLOOP_TRY(f.number("effective_count"));
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

Result<RunChecks> run_checks_from_json(const json& j, std::string_view where) {
  const std::string path = fmt::format("{}/checks", where);
  if (!j.is_object())
    return usage_error(fmt::format("{}: expected an object, found {}", path, j.type_name()));
  const Fields f{j, path};
  RunChecks c;
  const Fields arrivals = OPENLOOP_TRY(f.object("arrivals"));
  c.arrivals = OPENLOOP_TRY(read_arrivals(arrivals));
  const Fields independence = OPENLOOP_TRY(f.object("independence"));
  c.independence = OPENLOOP_TRY(read_independence(independence));
  const json* rt = OPENLOOP_TRY(f.array("response_time"));
  for (std::size_t k = 0; k < rt->size(); ++k) {
    const std::string p = fmt::format("{}/response_time/{}", path, k);
    if (!(*rt)[k].is_object()) return usage_error(fmt::format("{}: expected an object", p));
    c.response_time.push_back(OPENLOOP_TRY(read_interval(Fields{(*rt)[k], p})));
  }
  if (j.contains("windows")) {
    const json* windows = OPENLOOP_TRY(f.array("windows"));
    for (std::size_t k = 0; k < windows->size(); ++k) {
      const std::string p = fmt::format("{}/windows/{}", path, k);
      if (!(*windows)[k].is_object()) return usage_error(fmt::format("{}: expected an object", p));
      const Fields w{(*windows)[k], p};
      WindowIndependence out;
      out.from_s = OPENLOOP_TRY(w.number("from_s"));
      out.to_s = OPENLOOP_TRY(w.number("to_s"));
      const Fields window_independence = OPENLOOP_TRY(w.object("independence"));
      out.independence = OPENLOOP_TRY(read_independence(window_independence));
      c.windows.push_back(out);
    }
  }
  if (j.contains("until")) {
    const json* until = OPENLOOP_TRY(f.array("until"));
    for (std::size_t k = 0; k < until->size(); ++k) {
      const std::string p = fmt::format("{}/until/{}", path, k);
      if (!(*until)[k].is_object()) return usage_error(fmt::format("{}: expected an object", p));
      const Fields u{(*until)[k], p};
      UntilOutcome o;
      const std::string target = OPENLOOP_TRY(u.string("target"));
      o.target = OPENLOOP_TRY(parse_until(target));
      o.met = OPENLOOP_TRY(u.boolean("met"));
      o.achieved = OPENLOOP_TRY(u.optional_number("achieved"));
      o.samples = OPENLOOP_TRY(u.count("samples"));
      const auto more = OPENLOOP_TRY(u.optional_number("more_seconds"));
      o.more_seconds = more ? *more : std::numeric_limits<double>::infinity();
      c.until.push_back(std::move(o));
    }
  }
  return c;
}

}  // namespace openloop::results

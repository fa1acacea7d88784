// Merging runs: compatibility checks, alignment of intervals by wall-clock time, exact sums, a fresh verdict.
#include "results/merge.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>

#include <fmt/format.h>

#include "hdr/codec.h"
#include "results/aggregator.h"
#include "results/interval_server_timing.h"
#include "results/merge_observed.h"
#include "results/run_identity.h"
#include "results/shard_checks.h"
#include "results/slo.h"
#include "results/verdict.h"

namespace openloop::results {
namespace {

using nlohmann::json;

json plan_field(const json& plan, const std::string& key) {
  return plan.is_object() && plan.contains(key) ? plan[key] : json();
}

std::string show(const json& value) {
  return value.is_null() ? "absent" : value.dump();
}

Result<void> check_compatible(const std::vector<MergeInput>& inputs) {
  const MergeInput& first = inputs.front();
  for (const MergeInput& in : inputs) {
    if (!(in.results.info.start_unix_s > 0)) {
      return usage_error(
          fmt::format("{}: has no wall-clock start (environment.start_unix_s), so its intervals cannot "
                      "be aligned by time; re-run it with this version of openloop",
                      in.name));
    }
    if (in.results.info.model != first.results.info.model) {
      return usage_error(fmt::format("cannot merge {} with {}: the model differs ({} in {}, {} in {})",
                                     first.name, in.name, to_string(first.results.info.model),
                                     first.name, to_string(in.results.info.model), in.name));
    }
    for (const char* key : k_merge_must_match) {
      const json a = plan_field(first.results.info.plan, key);
      const json b = plan_field(in.results.info.plan, key);
      if (a != b) {
        return usage_error(
            fmt::format("cannot merge {} with {}: plan.{} differs ({} in {}, {} in {}); runs belong together "
                        "only when their "
                        "target, method, headers, body, model, arrival process, saturation policy, timeout, "
                        "success statuses and "
                        "interval length are the same",
                        first.name, in.name, key, show(a), first.name, show(b), in.name));
      }
    }
  }
  return {};
}

// Two inputs that are one run (the same file given twice, or a copy of it) would count every request twice.
// One run: the same run id and shard index (the same run id alone for unsharded runs); for files written
// before run ids, the same host, wall-clock start (to the microsecond), plan, measured period and counts, which
// two real runs never share.
Result<void> check_distinct(const std::vector<MergeInput>& inputs) {
  for (std::size_t a = 0; a < inputs.size(); ++a) {
    for (std::size_t b = a + 1; b < inputs.size(); ++b) {
      const RunResults& x = inputs[a].results;
      const RunResults& y = inputs[b].results;
      if (!x.info.run_id.empty() && !y.info.run_id.empty()) {
        const ShardInfo sx = shard_of(x.info), sy = shard_of(y.info);
        if (x.info.run_id == y.info.run_id && sx.count == sy.count && sx.index == sy.index) {
          return usage_error(fmt::format(
              "{} and {} are the same run (run id {}{}): merging them would count every request twice; give "
              "each run once",
              inputs[a].name, inputs[b].name, x.info.run_id,
              sx.count > 0 ? fmt::format(", shard {}/{}", sx.index, sx.count) : std::string()));
        }
        continue;
      }
      const json hx = x.info.environment.is_object() ? x.info.environment.value("host", json()) : json();
      const json hy = y.info.environment.is_object() ? y.info.environment.value("host", json()) : json();
      const bool same_start = std::abs(x.info.start_unix_s - y.info.start_unix_s) < 1e-6;
      const bool same_counts = x.totals.intended == y.totals.intended && x.totals.ok == y.totals.ok &&
                               x.totals.completed == y.totals.completed && x.measured_s == y.measured_s;
      if (same_start && hx == hy && same_counts && x.info.plan == y.info.plan) {
        return usage_error(fmt::format(
            "{} and {} are the same run (same host, start time, plan and counts): merging them would count "
            "every request twice; give each run once",
            inputs[a].name, inputs[b].name));
      }
    }
  }
  return {};
}

// Warnings for inputs that may not belong together although they can be added: runs that do not overlap in
// time (the merged period then holds stretches where some ran alone or none ran, so its rates are diluted),
// and plans that differ in the load they applied.
void warn_mismatch(const std::vector<MergeInput>& inputs, const json& plan, double measured_s,
                   std::vector<std::string>& warnings) {
  std::vector<std::size_t> order(inputs.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return inputs[a].results.info.start_unix_s < inputs[b].results.info.start_unix_s;
  });
  double covered_end = 0;
  std::string apart;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const RunResults& r = inputs[order[k]].results;
    const double start = r.info.start_unix_s, end = start + r.measured_s;
    if (k > 0 && start >= covered_end) {
      apart += fmt::format("{}{} starts {:.3g}s after the runs before it ended", apart.empty() ? "" : "; ",
                           inputs[order[k]].name, start - covered_end);
    }
    covered_end = std::max(covered_end, end);
  }
  if (!apart.empty()) {
    warnings.push_back(fmt::format(
        "the inputs do not overlap in time ({}): the merged run spans {:.3g}s from the first start, "
        "including "
        "time when not every run was sending, so its rates are not those of any run; merge runs that ran "
        "at the same time (e.g. one per host)",
        apart, measured_s));
  }
  // Fields that say how a run was driven but not what load it applied.
  static const char* const k_harmless[] = {"threads", "seed", "spin_below_us", "coalesce_us", "insecure"};
  std::string fields;
  if (plan.contains("differs")) {
    for (const auto& [key, values] : plan["differs"].items()) {
      if (std::find(std::begin(k_harmless), std::end(k_harmless), key) != std::end(k_harmless)) continue;
      fields += fmt::format("{}{} {}", fields.empty() ? "" : "; ", key, values.dump());
    }
  }
  if (!fields.empty()) {
    warnings.push_back(fmt::format(
        "the inputs' plans differ ({}): the merged run adds different loads together (plan.differs lists "
        "each input's value)",
        fields));
  }
}

// The plans' interval length (equal across inputs, checked above); without one, the longest interval of any
// input (the last interval of a run may be cut short by its end).
double interval_length(const std::vector<MergeInput>& inputs) {
  const json planned = plan_field(inputs.front().results.info.plan, "interval_s");
  if (planned.is_number() && planned.get<double>() > 0) return planned.get<double>();
  double length = 0;
  for (const MergeInput& in : inputs) {
    for (const IntervalResult& i : in.results.intervals) length = std::max(length, i.length_s);
  }
  return length > 0 ? length : 1.0;
}

/// Where each input interval lands: (merged index, input, interval).
using Placement = std::tuple<std::int64_t, std::size_t, std::size_t>;

// Shards (`by_index`) align by their own interval index: each ran its share of the same schedule from its own
// start, so interval k of every shard holds the same intended times.
std::vector<Placement> place(const std::vector<MergeInput>& inputs, double t0, double length, bool by_index,
                             double& worst_offset_s) {
  std::vector<Placement> out;
  worst_offset_s = 0;
  for (std::size_t in = 0; in < inputs.size(); ++in) {
    const RunResults& r = inputs[in].results;
    const double from = by_index ? 0.0 : r.info.start_unix_s - t0;
    for (std::size_t k = 0; k < r.intervals.size(); ++k) {
      const double offset = (from + r.intervals[k].start_s) / length;
      const auto index = static_cast<std::int64_t>(std::llround(offset));
      worst_offset_s = std::max(worst_offset_s, std::abs(offset - static_cast<double>(index)) * length);
      out.emplace_back(index, in, k);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

Result<void> add_histogram(hdr::Histogram& into, const std::string& text, const MergeInput& in, std::size_t k,
                           const char* name) {
  auto h = hdr::from_compressed_base64(text);
  if (!h)
    return usage_error(fmt::format("{}: interval {}: {} histogram: {}", in.name, k, name, h.error().message));
  if (!into.add(*h)) {
    return usage_error(
        fmt::format("{}: interval {}: {} histogram holds values beyond 1 h", in.name, k, name));
  }
  return {};
}

/// The per-request breakdown of the merged run: request names (in first-seen order) and, per input, the
/// merged index of each of its requests. Empty when some input has no breakdown (one request, or a file
/// written before per-request histograms were kept): a partial breakdown would not add up.
struct RequestMap {
  std::vector<std::string> names;
  std::vector<std::vector<std::size_t>> index;  ///< [input][its request index] → merged index
};

RequestMap map_requests(const std::vector<MergeInput>& inputs) {
  RequestMap map;
  for (const MergeInput& in : inputs) {
    if (in.results.by_request.empty()) return {};
  }
  for (const MergeInput& in : inputs) {
    std::vector<std::size_t> index;
    for (std::size_t k = 0; k < in.results.by_request.size(); ++k) {
      const std::string& name =
          k < in.results.info.request_names.size() ? in.results.info.request_names[k] : "";
      const std::string& key = name.empty() ? in.results.by_request[k].name : name;
      const auto at = std::find(map.names.begin(), map.names.end(), key);
      index.push_back(static_cast<std::size_t>(at - map.names.begin()));
      if (at == map.names.end()) map.names.push_back(key);
    }
    map.index.push_back(std::move(index));
  }
  return map;
}

/// Feeds the aggregator one merged interval at a time, so memory stays flat however long the runs.
Result<void> merge_intervals(const std::vector<MergeInput>& inputs, const std::vector<Placement>& placements,
                             const RequestMap& requests, Aggregator& agg) {
  std::vector<IntervalStats> batch(1);
  batch[0].index = -1;
  for (const MergeInput& in : inputs) batch[0].counters.add(in.results.warmup);
  agg.add(0, batch);
  std::size_t p = 0;
  const std::int64_t last = placements.empty() ? -1 : std::get<0>(placements.back());
  for (std::int64_t index = 0; index <= last; ++index) {
    IntervalStats s;
    s.index = index;
    s.by_request.resize(requests.names.size());
    for (; p < placements.size() && std::get<0>(placements[p]) == index; ++p) {
      const auto [i, in, k] = placements[p];
      const IntervalResult& from = inputs[in].results.intervals[k];
      s.counters.add(from.counters);
      s.flows.add(from.flows);
      if (from.coalesce_us >= 0)  // --coalesce auto: the widest window any shard used
        s.coalesce_ns = std::max(s.coalesce_ns, static_cast<std::int64_t>(std::llround(from.coalesce_us * 1e3)));
      if (!requests.names.empty()) {
        for (std::size_t q = 0; q < from.by_request.size() && q < requests.index[in].size(); ++q)
          s.by_request[requests.index[in][q]].counters.add(from.by_request[q]);
      }
      if (!from.session_time_hist.empty()) {
        OPENLOOP_TRY_VOID(
            add_histogram(s.session_time, from.session_time_hist.text(), inputs[in], k, "session_time"));
      }
      OPENLOOP_TRY_VOID(
          add_histogram(s.response_time, from.response_time_hist.text(), inputs[in], k, "response_time"));
      OPENLOOP_TRY_VOID(add_histogram(s.service_time, from.service_time_hist.text(), inputs[in], k, "service_time"));
      OPENLOOP_TRY_VOID(
          add_histogram(s.send_lateness, from.send_lateness_hist.text(), inputs[in], k, "send_lateness"));
      if (auto added = add_interval_server_timing(s.server_timing, from); !added)
        return usage_error(fmt::format("{}: interval {}: {}", inputs[in].name, k, added.error().message));
      if (!from.attempt_time_hist.empty()) {
        OPENLOOP_TRY_VOID(
            add_histogram(s.attempt_time, from.attempt_time_hist.text(), inputs[in], k, "attempt_time"));
      }
    }
    batch.clear();
    batch.push_back(std::move(s));
    agg.add(0, batch);
  }
  return {};
}

json merged_plan(const std::vector<MergeInput>& inputs) {
  json plan = json::object();
  json differs = json::object();
  std::vector<std::string> keys;
  for (const MergeInput& in : inputs) {
    if (!in.results.info.plan.is_object()) continue;
    for (const auto& [key, value] : in.results.info.plan.items()) {
      if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
    }
  }
  for (const std::string& key : keys) {
    json values = json::array();
    for (const MergeInput& in : inputs) values.push_back(plan_field(in.results.info.plan, key));
    const bool same =
        std::all_of(values.begin(), values.end(), [&](const json& v) { return v == values[0]; });
    if (same) {
      plan[key] = values[0];
    } else {
      differs[key] = values;
    }
  }
  if (!differs.empty()) plan["differs"] = differs;
  return plan;
}

json merged_from(const std::vector<MergeInput>& inputs) {
  json list = json::array();
  for (const MergeInput& in : inputs) {
    const json& env = in.results.info.environment;
    list.push_back({{"file", in.name},
                    {"start_unix_s", in.results.info.start_unix_s},
                    {"duration_s", in.results.measured_s},
                    {"host", env.is_object() && env.contains("host") ? env["host"] : json()},
                    {"valid", in.results.verdict.valid}});
  }
  return list;
}

// The shards' shared plan: `shard` (each one's own) left out, `shards: N` and, when some are missing, `partial`.
void shared_plan(const ShardCoverage& shards, nlohmann::json& plan) {
  plan.erase("shard");
  if (plan.contains("differs")) {
    plan["differs"].erase("shard");
    if (plan["differs"].empty()) plan.erase("differs");
  }
  plan["shards"] = shards.count;
  if (!shards.missing.empty())
    plan["partial"] = {{"missing", shards.missing}, {"missing_share", shards.missing_share}};
}

// The shards' identity and start: the same run id, plan hash and --start-at; the worst lag and clock bound.
void shared_identity(const std::vector<MergeInput>& inputs, RunInfo& info) {
  info.plan_hash = plan_hash_of(inputs.front().results.info);
  info.run_id = inputs.front().results.info.run_id;
  for (const MergeInput& in : inputs) {
    const StartTiming& t = in.results.info.start;
    if (in.results.info.run_id != info.run_id) info.run_id.clear();
    if (t.at_unix_s <= 0) continue;
    StartTiming& m = info.start;
    const bool first = m.at_unix_s <= 0;
    m.at_unix_s = t.at_unix_s;
    m.lag_s = first ? t.lag_s : std::max(m.lag_s, t.lag_s);
    m.clock_known = first ? t.clock_known : m.clock_known && t.clock_known;
    m.clock_synchronized = first ? t.clock_synchronized : m.clock_synchronized && t.clock_synchronized;
    m.clock_maxerror_s = std::max(m.clock_maxerror_s, t.clock_maxerror_s);
    m.clock_esterror_s = std::max(m.clock_esterror_s, t.clock_esterror_s);
  }
}

RunInfo merged_info(const std::vector<MergeInput>& inputs, double t0, double measured_s,
                    double worst_offset_s, const ShardCoverage* shards) {
  RunInfo info = inputs.front().results.info;
  info.start_unix_s = t0;
  info.duration_s = measured_s;
  double planned = 0;
  info.users = 0;
  info.configured_iterations_per_s = 0;
  for (const MergeInput& in : inputs) {
    info.configured_iterations_per_s += in.results.info.configured_iterations_per_s;
    planned += in.results.info.offered_rps * in.results.measured_s;
    info.users += in.results.info.users;
    info.warmup_s = std::max(info.warmup_s, in.results.info.warmup_s);
  }
  info.offered_rps = measured_s > 0 ? planned / measured_s : 0.0;
  info.plan = merged_plan(inputs);
  info.plan_hash.clear();
  info.run_id.clear();
  info.start = StartTiming{};
  if (shards != nullptr) {
    shared_plan(*shards, info.plan);
    shared_identity(inputs, info);
  } else if (std::all_of(inputs.begin(), inputs.end(), [&](const MergeInput& in) {
               return in.results.info.run_id == inputs.front().results.info.run_id;
             })) {
    info.run_id = inputs.front().results.info.run_id;
  }
  info.environment = {{"merged_from", merged_from(inputs)}, {"merge_alignment_s", worst_offset_s}};
  return info;
}

GeneratorStats merged_generator(const std::vector<MergeInput>& inputs) {
  GeneratorStats g;
  double thread_seconds = 0;
  for (const MergeInput& in : inputs) {
    const GeneratorStats& s = in.results.generator;
    g.threads += s.threads;
    g.cpu_seconds += s.cpu_seconds;
    g.spin_seconds += s.spin_seconds;
    g.spin_below_us = std::max(g.spin_below_us, s.spin_below_us);
    thread_seconds += s.wall_seconds * s.threads;
    g.max_connections += s.max_connections;
    g.peak_connections += s.peak_connections;
    g.abandoned += s.abandoned;
    g.max_rss_kb = std::max(g.max_rss_kb, s.max_rss_kb);
    add_contention(g, s);
  }
  g.wall_seconds = g.threads > 0 ? thread_seconds / g.threads : 0.0;
  return g;
}

// Per-request totals, added exactly by name (the aggregator has the counts, not the histograms).
void merge_request_totals(const std::vector<MergeInput>& inputs, const RequestMap& requests, RunResults& r) {
  r.info.request_names = requests.names;
  r.by_request.assign(requests.names.size(), RequestTotals{});
  for (std::size_t q = 0; q < requests.names.size(); ++q) r.by_request[q].name = requests.names[q];
  for (std::size_t in = 0; in < inputs.size(); ++in) {
    const auto& from = inputs[in].results.by_request;
    for (std::size_t q = 0; q < from.size() && q < requests.index[in].size(); ++q) {
      r.by_request[requests.index[in][q]].add(from[q]);
    }
  }
}

// Every input's SLOs (by text, first-seen order), judged again on the merged run.
std::vector<SloResult> merged_slos(const std::vector<MergeInput>& inputs, const RunResults& r) {
  std::vector<Slo> slos;
  for (const MergeInput& in : inputs) {
    for (const SloResult& s : in.results.slos) {
      const bool known =
          std::any_of(slos.begin(), slos.end(), [&](const Slo& o) { return o.text == s.slo.text; });
      if (!known) slos.push_back(s.slo);
    }
  }
  return evaluate_slos(slos, r);
}

// A merged verdict that failed says which shards brought the drops and the lateness: each shard that dropped
// requests or sent later than the merged run's bound ("shard 2/4 (file): dropped 3.1% ...").
void name_shards_at_fault(const std::vector<MergeInput>& inputs, RunResults& r) {
  const double bound_ms = lateness_bound_ms(r, VerdictBounds{});
  for (const MergeInput& in : inputs) {
    const Counters& c = in.results.totals;
    std::string what;
    if (c.intended > 0 && c.dropped > 0) {
      what = fmt::format("dropped {:.1f}% ({} of {})",
                         100.0 * static_cast<double>(c.dropped) / static_cast<double>(c.intended), c.dropped,
                         c.intended);
    }
    if (in.results.send_lateness.total_count() > 0) {
      const double p99_ms = static_cast<double>(in.results.send_lateness.value_at_percentile(99)) / 1e6;
      if (p99_ms > bound_ms) {
        what += fmt::format("{}send lateness p99 {:.3f} ms > {:.3f} ms", what.empty() ? "" : ", ", p99_ms,
                            bound_ms);
      }
    }
    if (!what.empty()) r.verdict.reasons.push_back(fmt::format("{}: {}", shard_label(in), what));
  }
}

// The scenario names of an input, in order, as one string for comparison and messages.
std::string scenario_names(const RunResults& r) {
  std::string names;
  for (const ScenarioResults& s : r.scenarios) names += (names.empty() ? "" : ", ") + s.name;
  return names;
}

// The merge itself, without the checks that concern the inputs as whole runs (merge_results); `shards` is
// null unless the inputs are shards of one run.
Result<RunResults> merge_all(const std::vector<MergeInput>& inputs, const ShardCoverage* shards);

// Scenarios merged by name when every input ran the same ones, in the same order; otherwise none, and a
// warning says why.
Result<void> merge_scenarios(const std::vector<MergeInput>& inputs, const ShardCoverage* shards, RunResults& r) {
  const std::string names = scenario_names(inputs.front().results);
  for (const MergeInput& in : inputs) {
    if (scenario_names(in.results) == names) continue;
    r.warnings.push_back(
        fmt::format("scenarios not merged: {} has [{}], {} has [{}]; only the runs as a whole were merged",
                    inputs.front().name, names, in.name, scenario_names(in.results)));
    return {};
  }
  for (std::size_t k = 0; k < inputs.front().results.scenarios.size(); ++k) {
    std::vector<MergeInput> parts;
    double offset_s = inputs.front().results.scenarios[k].offset_s;
    for (const MergeInput& in : inputs) {
      const ScenarioResults& s = in.results.scenarios[k];
      parts.push_back({fmt::format("{} (scenario {})", in.name, s.name), s.results});
      offset_s = std::min(offset_s, s.offset_s);
    }
    r.scenarios.push_back(
        {inputs.front().results.scenarios[k].name, offset_s, OPENLOOP_TRY(merge_all(parts, shards))});
  }
  return {};
}

}  // namespace

Result<RunResults> merge_results(const std::vector<MergeInput>& inputs, const MergeOptions& options) {
  if (inputs.empty()) return usage_error("merge: no results to merge");
  OPENLOOP_TRY_VOID(check_compatible(inputs));
  OPENLOOP_TRY_VOID(check_distinct(inputs));
  std::optional<ShardCoverage> shards;
  if (any_sharded(inputs)) shards = OPENLOOP_TRY(check_shards(inputs, options));
  RunResults r = OPENLOOP_TRY(merge_all(inputs, shards ? &*shards : nullptr));
  warn_mismatch(inputs, r.info.plan, r.measured_s, r.warnings);
  if (shards && !shards->missing.empty()) {
    std::string list;
    for (const auto& m : shards->missing) list += (list.empty() ? "" : ", ") + m;
    r.warnings.push_back(fmt::format("PARTIAL (--allow-partial): {} missing, {:.4g} of the plan; the merged run "
                                     "is not the plan's load",
                                     list, shards->missing_share));
  }
  return r;
}

namespace {

Result<RunResults> merge_all(const std::vector<MergeInput>& inputs, const ShardCoverage* shards) {
  OPENLOOP_TRY_VOID(check_compatible(inputs));
  const double length = interval_length(inputs);
  double t0 = inputs.front().results.info.start_unix_s;
  double t_end = t0;
  for (const MergeInput& in : inputs) t0 = std::min(t0, in.results.info.start_unix_s);
  for (const MergeInput& in : inputs) {
    // Shards all ran the plan's measured period from their own start: the merged period is the longest one.
    const double start = shards != nullptr ? t0 : in.results.info.start_unix_s;
    t_end = std::max(t_end, start + in.results.measured_s);
  }
  double worst_offset_s = 0;
  const std::vector<Placement> placements = place(inputs, t0, length, shards != nullptr, worst_offset_s);
  const RequestMap requests = map_requests(inputs);
  Aggregator agg(1, from_seconds(length));
  OPENLOOP_TRY_VOID(merge_intervals(inputs, placements, requests, agg));
  RunResults r = agg.finish(t_end - t0);
  r.info = merged_info(inputs, t0, r.measured_s, worst_offset_s, shards);
  if (!requests.names.empty()) merge_request_totals(inputs, requests, r);
  for (const MergeInput& in : inputs) r.phases.add(in.results.phases);  // totals only: no per-interval phases
  r.generator = merged_generator(inputs);
  r.interrupted =
      std::any_of(inputs.begin(), inputs.end(), [](const MergeInput& in) { return in.results.interrupted; });
  for (const MergeInput& in : inputs) {
    for (const auto& example : in.results.error_examples) {
      const bool known = std::any_of(r.error_examples.begin(), r.error_examples.end(),
                                     [&](const auto& e) { return e.first == example.first; });
      if (!known) r.error_examples.push_back(example);
    }
  }
  r.verdict = judge(r);
  if (shards != nullptr && !r.verdict.reasons.empty()) name_shards_at_fault(inputs, r);
  for (const MergeInput& in : inputs) {
    if (in.results.verdict.valid) continue;
    std::string why;
    for (const auto& reason : in.results.verdict.reasons) why += (why.empty() ? "" : "; ") + reason;
    r.verdict.reasons.push_back(fmt::format("{} was INVALID on its own: {}",
                                            shards != nullptr ? shard_label(in) : in.name,
                                            why.empty() ? "(no reason given)" : why));
  }
  r.verdict.valid = r.verdict.reasons.empty();
  r.slos = merged_slos(inputs, r);
  std::vector<ObservedPart> observed(inputs.size());
  for (std::size_t in = 0; in < inputs.size(); ++in) {
    const ShardInfo s = shard_of(inputs[in].results.info);
    observed[in].label = shards != nullptr ? fmt::format("shard {}/{}", s.index, s.count) : inputs[in].name;
    observed[in].results = &inputs[in].results;
    observed[in].landed.assign(inputs[in].results.intervals.size(), -1);
  }
  for (const auto& [index, in, k] : placements) observed[in].landed[k] = index;
  merge_observed(observed, r);
  OPENLOOP_TRY_VOID(merge_scenarios(inputs, shards, r));
  return r;
}

}  // namespace

}  // namespace openloop::results

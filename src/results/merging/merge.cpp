// Merging runs: alignment of intervals by wall-clock time (or by index for shards), exact sums, a fresh
// verdict (the checks in merge_checks, the merged context in merge_info).
#include "results/merging/merge.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>

#include <fmt/format.h>

#include "core/units.h"
#include "hdr/codec.h"
#include "results/judging/slo.h"
#include "results/judging/verdict.h"
#include "results/merging/interval_server_timing.h"
#include "results/merging/merge_checks.h"
#include "results/merging/merge_info.h"
#include "results/merging/merge_observed.h"
#include "results/merging/shard_checks.h"
#include "results/recording/aggregator.h"
#include "results/run_identity.h"

namespace openloop::results {
namespace {

using nlohmann::json;

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
      if (!from.slot_wait_hist.empty())
        OPENLOOP_TRY_VOID(add_histogram(s.slot_wait, from.slot_wait_hist.text(), inputs[in], k, "slot_wait"));
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
        what += fmt::format("{}send lateness p99 {} > {}", what.empty() ? "" : ", ",
                            format_duration(from_seconds(p99_ms / 1e3)),
                            format_duration(from_seconds(bound_ms / 1e3)));
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
  for (const MergeInput& in : inputs) {  // whole-run counts only, as the phases
    r.server_timing.cache_off += in.results.server_timing.cache_off;
    r.server_timing.cache_hit += in.results.server_timing.cache_hit;
    r.server_timing.cache_miss += in.results.server_timing.cache_miss;
  }
  r.generator = GeneratorStats{};
  for (const MergeInput& in : inputs) r.add_metadata(in.results, in.name, PartsRan::side_by_side);
  r.interrupted =
      std::any_of(inputs.begin(), inputs.end(), [](const MergeInput& in) { return in.results.interrupted; });
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

// The merged run's context: its plan (shared fields, and plan.differs), identity, start and environment.
#include "results/merging/merge_info.h"

#include <algorithm>

#include "results/merging/merge_checks.h"
#include "results/run_identity.h"

namespace openloop::results {
namespace {

using nlohmann::json;

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

// The shards' shared plan: `shard` (each one's own) left out, `shards: N` and, when some are missing,
// `partial`.
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

}  // namespace

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

}  // namespace openloop::results

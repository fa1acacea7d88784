// Whether runs can be merged: the plan fields that must match, the same run given twice, and the warnings for
// runs that can be added but may not belong together.
#include "results/merging/merge_checks.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "results/run_identity.h"
#include "results/used_protocol.h"

namespace openloop::results {

using nlohmann::json;

json plan_field(const json& plan, const std::string& key) {
  return plan.is_object() && plan.contains(key) ? plan[key] : json();
}

namespace {
std::string show(const json& value) {
  return value.is_null() ? "absent" : value.dump();
}
}  // namespace

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
                                     first.name, in.name, to_string(first.results.info.model), first.name,
                                     to_string(in.results.info.model), in.name));
    }
    // The protocol a run spoke (its connections', over TLS the server's ALPN choice): an HTTP/1.1 run and an
    // HTTP/2 run measure different things (a connection per request against streams on a few connections).
    if (const std::string a = used_protocol(first.results.generator), b = used_protocol(in.results.generator);
        a != b && a != "none" && b != "none") {
      return usage_error(fmt::format(
          "cannot merge {} with {}: the protocol differs ({} in {}, {} in {}); runs of one protocol merge, "
          "compare them instead (openloop compare)",
          first.name, in.name, a, first.name, b, in.name));
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
// before run ids, the same host, wall-clock start (to the microsecond), plan, measured period and counts,
// which two real runs never share.
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

}  // namespace openloop::results

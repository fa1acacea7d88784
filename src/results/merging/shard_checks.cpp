// The checks that make a merge of shards exact: one run, one plan, every share once, aligned starts.
#include "results/merging/shard_checks.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "hdr/codec.h"
#include "results/run_identity.h"

namespace openloop::results {
namespace {

// The weight of shard `index` as a fraction of all (equal shares without weights).
double share_of(const nlohmann::json& weights, std::uint64_t index, std::uint64_t count) {
  if (!weights.is_array() || weights.size() != count) return 1.0 / static_cast<double>(count);
  double sum = 0;
  for (const auto& w : weights) sum += w.is_number() ? w.get<double>() : 0.0;
  return sum > 0 && weights[index].is_number() ? weights[index].get<double>() / sum : 0.0;
}

// "lowest 1, highest 3600000000000, 3 digits" of the first interval's response-time histogram; empty when the
// input has no interval.
Result<std::string> histogram_settings(const MergeInput& in) {
  if (in.results.intervals.empty()) return std::string();
  auto h = hdr::from_compressed_base64(in.results.intervals.front().response_time_hist.text());
  if (!h) {
    return usage_error(
        fmt::format("{}: interval 0: response_time histogram: {}", in.name, h.error().message));
  }
  return fmt::format("lowest {}, highest {}, {} significant digits", h->lowest_discernible_value(),
                     h->highest_trackable_value(), h->significant_digits());
}

Result<void> check_same_run(const MergeInput& first, const MergeInput& in) {
  const std::string a = plan_hash_of(first.results.info), b = plan_hash_of(in.results.info);
  if (a != b) {
    return usage_error(fmt::format(
        "{}: its plan hash {} differs from {}'s {}: the shards split different plans (another target, rate, "
        "duration, seed or option); run every shard with the same command line and only its own --shard",
        in.name, b.substr(0, 16), first.name, a.substr(0, 16)));
  }
  const std::string& x = first.results.info.run_id;
  const std::string& y = in.results.info.run_id;
  if (x != y) {
    return usage_error(
        fmt::format("{}: its run id {} differs from {}'s {}: they are shards of different runs; merge the "
                    "shards of one run (same --run-id, or the same plan and --start-at)",
                    in.name, y.empty() ? "(none)" : y, first.name, x.empty() ? "(none)" : x));
  }
  const ShardInfo s = shard_of(in.results.info), f = shard_of(first.results.info);
  if (s.count != f.count) {
    return usage_error(
        fmt::format("{}: shard {}/{} but {} is shard {}/{}: the shards split the plan into "
                    "different numbers of parts, so they cannot cover it exactly",
                    in.name, s.index, s.count, first.name, f.index, f.count));
  }
  if (s.weights != f.weights) {
    return usage_error(
        fmt::format("{}: --shard-weights {} but {} has {}: the shards split the plan differently, "
                    "so they cannot cover it exactly",
                    in.name, s.weights.dump(), first.name, f.weights.dump()));
  }
  if (s.index >= s.count) {
    return usage_error(
        fmt::format("{}: shard index {} is not below the shard count {}", in.name, s.index, s.count));
  }
  return {};
}

}  // namespace

bool any_sharded(const std::vector<MergeInput>& inputs) {
  return std::any_of(inputs.begin(), inputs.end(),
                     [](const MergeInput& in) { return shard_of(in.results.info).count > 0; });
}

std::string shard_label(const MergeInput& in) {
  const ShardInfo s = shard_of(in.results.info);
  return fmt::format("shard {}/{} ({})", s.index, s.count, in.name);
}

Result<ShardCoverage> check_shards(const std::vector<MergeInput>& inputs, const MergeOptions& options) {
  const MergeInput& first = inputs.front();
  for (const MergeInput& in : inputs) {
    if (shard_of(in.results.info).count == 0) {
      return usage_error(fmt::format(
          "{}: is not a shard (its plan has no shard) but {} is: merge the shards of "
          "one run together, or whole runs together",
          in.name, shard_label(*std::find_if(inputs.begin(), inputs.end(), [](const MergeInput& x) {
            return shard_of(x.results.info).count > 0;
          }))));
    }
  }
  const std::string settings = OPENLOOP_TRY(histogram_settings(first));
  std::vector<const MergeInput*> by_index(shard_of(first.results.info).count, nullptr);
  for (const MergeInput& in : inputs) {
    OPENLOOP_TRY_VOID(check_same_run(first, in));
    const ShardInfo s = shard_of(in.results.info);
    if (by_index[s.index] != nullptr) {
      return usage_error(
          fmt::format("{}: shard {}/{} is given twice ({} and {}): its requests would be counted "
                      "twice; give each shard once",
                      in.name, s.index, s.count, by_index[s.index]->name, in.name));
    }
    by_index[s.index] = &in;
    const std::string mine = OPENLOOP_TRY(histogram_settings(in));
    if (!mine.empty() && !settings.empty() && mine != settings) {
      return usage_error(fmt::format("{}: its histograms have {}, {}'s {}: they cannot be added exactly",
                                     in.name, mine, first.name, settings));
    }
  }
  const auto [earliest, latest] =
      std::minmax_element(inputs.begin(), inputs.end(), [](const MergeInput& a, const MergeInput& b) {
        return a.results.info.start_unix_s < b.results.info.start_unix_s;
      });
  const double skew = latest->results.info.start_unix_s - earliest->results.info.start_unix_s;
  if (skew > options.max_skew_s) {
    return usage_error(fmt::format(
        "{}: started {:.3f}s after {} (--max-skew {:g}s): the shards were out of phase, so the merged "
        "intervals would add requests from different moments; start the shards together (--start-at) or "
        "raise --max-skew",
        latest->name, skew, earliest->name, options.max_skew_s));
  }
  ShardCoverage c;
  c.count = by_index.size();
  c.weights = shard_of(first.results.info).weights;
  for (std::uint64_t i = 0; i < c.count; ++i) {
    if (by_index[i] != nullptr) {
      c.present.push_back(i);
      continue;
    }
    const double share = share_of(c.weights, i, c.count);
    c.missing.push_back(fmt::format("shard {}/{} (share {:.4g})", i, c.count, share));
    c.missing_share += share;
  }
  if (!c.missing.empty() && !options.allow_partial) {
    std::string list;
    for (const auto& m : c.missing) list += (list.empty() ? "" : ", ") + m;
    return usage_error(fmt::format(
        "{} given, but {} missing ({:.4g} of the plan): the merged run would not be the plan's load; give "
        "every shard, or --allow-partial to merge what there is, labelled partial",
        first.name, list, c.missing_share));
  }
  return c;
}

}  // namespace openloop::results

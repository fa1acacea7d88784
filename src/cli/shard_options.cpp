// `openloop run --shard I/N`: the sharding flags, the engines' environment, and this shard's part of a plan.
#include <charconv>

#include <fmt/format.h>

#include "cli/run_options.h"
#include "workload/shard_env.h"

namespace openloop::cli {
namespace {

constexpr const char* k_sharding = help_group::sharding;

// "2,1,1": positive integers, comma-separated.
Result<std::vector<std::uint64_t>> parse_weights(const std::string& text) {
  std::vector<std::uint64_t> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item(text.data() + start, comma - start);
    std::uint64_t w = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), w);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size() || w == 0)
      return usage_error(
          fmt::format("--shard-weights: \"{}\" in \"{}\" is not a positive integer; give one "
                      "per shard, comma-separated, e.g. 2,1,1",
                      item, text));
    out.push_back(w);
    start = comma + 1;
  }
  return out;
}

}  // namespace

void add_shard_options(CLI::App& sub, RunOptions& o) {
  sub.add_option(
         "--shard", o.shard,
         "Run shard I of N (0-based, e.g. 1/4) of the plan: every N-th arrival (or this shard's share "
         "of users). Also read from OPENLOOP_SHARD, JOB_COMPLETION_INDEX + OPENLOOP_SHARD_COUNT, "
         "SLURM_PROCID/SLURM_NTASKS, OMPI_COMM_WORLD_RANK/SIZE, PMI_RANK/PMI_SIZE; see "
         "docs/distributed.md")
      ->type_name("I/N")
      ->group(k_sharding);
  sub.add_option("--shard-weights", o.shard_weights,
                 "Unequal shards: N positive integers, e.g. 2,1,1 (shard 0 takes half the arrivals)")
      ->type_name("W,W,...")
      ->group(k_sharding);
  sub.add_option("--poisson-split", o.poisson_split,
                 "How shards and threads split a Poisson schedule: stripe (one global stream, the union is "
                 "bit-identical) | thin (each an independent Poisson process at its share)")
      ->capture_default_str()
      ->type_name("HOW")
      ->group(k_sharding);
}

Result<workload::ShardSpec> shard_spec(const RunOptions& o, const workload::Environment& env) {
  const auto split = OPENLOOP_TRY(workload::parse_poisson_split(o.poisson_split, "--poisson-split"));
  const auto assigned = OPENLOOP_TRY(workload::detect_shard(o.shard, env));
  std::vector<std::uint64_t> weights;
  if (!o.shard_weights.empty()) {
    if (!assigned)
      return usage_error(
          "--shard-weights: applies to a sharded run; give --shard I/N (or set OPENLOOP_SHARD=I/N)");
    weights = OPENLOOP_TRY(parse_weights(o.shard_weights));
    if (weights.size() != assigned->count)
      return usage_error(fmt::format("--shard-weights: {} weight(s) for {} shards ({}); give one per shard",
                                     weights.size(), assigned->count, assigned->source));
  }
  if (!assigned) return workload::ShardSpec::make(0, 1, {}, split);
  return workload::ShardSpec::make(assigned->index, assigned->count, std::move(weights), split);
}

Result<void> check_shard_part(const engine::RunPlan& plan) {
  if (!plan.shard.sharded() || !plan.user_driven() || plan.users_part() > 0) return {};
  const std::string name = plan.scenario.empty() ? std::string("--vus") : "scenario '" + plan.scenario + "'";
  return usage_error(
      fmt::format("{}: {} user(s) split {} ways leave shard {}/{} none; give at least {} users "
                  "or run fewer shards",
                  name, plan.users, plan.shard.count, plan.shard.index, plan.shard.count, plan.shard.count));
}

}  // namespace openloop::cli

// Plan hashes, run ids and the shard a results file records.
#include "results/run_identity.h"

#include <random>

#include <fmt/format.h>

#include "core/sha256.h"

namespace openloop::results {

namespace {

// The plan without what differs between shards of it: the shard's own share, and how each host generates its
// part (shards on machines with other core counts, where threads default to the cores, or another measured
// spin threshold run the same plan). A plan file's scenarios each hold a plan of their own.
void strip_host_fields(nlohmann::json& plan) {
  if (!plan.is_object()) return;
  for (const char* key : {"shard", "shards", "partial", "threads", "spin_below_us"}) plan.erase(key);
  if (auto s = plan.find("scenarios"); s != plan.end() && s->is_array()) {
    for (nlohmann::json& scenario : *s) strip_host_fields(scenario);
  }
}

}  // namespace

std::string plan_hash(const nlohmann::json& plan) {
  nlohmann::json shared = plan;
  strip_host_fields(shared);
  // nlohmann objects are key-sorted: dump() is canonical. A header given as bytes that are not UTF-8 is hashed
  // with U+FFFD in their place, as the results file writes it (dump() would throw otherwise).
  return sha256_hex(shared.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

std::string plan_hash_of(const RunInfo& info) {
  return info.plan_hash.empty() ? plan_hash(info.plan) : info.plan_hash;
}

std::string derived_run_id(const std::string& hash, const std::string& start_at) {
  return "p" + sha256_hex(hash + "@" + start_at).substr(0, 16);
}

std::string random_run_id() {
  std::random_device device;
  const std::uint64_t a = device(), b = device();
  return fmt::format("r{:016x}", (a << 32) ^ b);
}

ShardInfo shard_of(const RunInfo& info) {
  ShardInfo s;
  if (!info.plan.is_object() || !info.plan.contains("shard") || !info.plan["shard"].is_object()) return s;
  const nlohmann::json& j = info.plan["shard"];
  const auto count = [&](const char* key) {
    // Read back from a file, a count is unsigned; set in memory it may be a signed integer.
    const bool known = j.contains(key) && j[key].is_number_integer() && j[key].get<std::int64_t>() >= 0;
    return known ? j[key].get<std::uint64_t>() : std::uint64_t{0};
  };
  s.index = count("index");
  s.count = count("count");
  s.weights = j.contains("weights") ? j["weights"] : nlohmann::json();
  s.share = j.contains("share") && j["share"].is_number() ? j["share"].get<double>() : 0.0;
  return s;
}

}  // namespace openloop::results

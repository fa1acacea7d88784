// Shard detection: the --shard flag and the engines' environment variables, checked for agreement.
#include "workload/shard_env.h"

#include <charconv>
#include <cstdlib>
#include <vector>

#include <fmt/format.h>

namespace openloop::workload {
namespace {

// A non-negative decimal integer, digits only (no sign, no spaces).
std::optional<std::uint64_t> parse_uint(std::string_view text) {
  std::uint64_t v = 0;
  if (text.empty()) return std::nullopt;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

Result<ShardAssignment> make(std::uint64_t index, std::uint64_t count, std::string source,
                             std::string_view what) {
  if (count < 1 || count > k_max_shards)
    return usage_error(fmt::format("{}: a shard count of {}; use 1 to {}", what, count, k_max_shards));
  if (index >= count)
    return usage_error(
        fmt::format("{}: shard index {} is not below the count {} (indices are 0-based: 0 to {})", what,
                    index, count, count - 1));
  return ShardAssignment{static_cast<unsigned>(index), static_cast<unsigned>(count), std::move(source)};
}

const std::string* lookup(const Environment& env, std::string_view name) {
  const auto it = env.find(name);
  return it == env.end() ? nullptr : &it->second;
}

// An engine's rank/size pair; nullopt when either is unset or the size is 1.
Result<std::optional<ShardAssignment>> from_pair(const Environment& env, std::string_view rank_name,
                                                 std::string_view size_name) {
  const std::string* rank = lookup(env, rank_name);
  const std::string* size = lookup(env, size_name);
  if (rank == nullptr || size == nullptr) return std::nullopt;
  const auto r = parse_uint(*rank);
  if (!r)
    return usage_error(
        fmt::format("{}=\"{}\": not a shard index; a non-negative integer is accepted", rank_name, *rank));
  const auto n = parse_uint(*size);
  if (!n || *n < 1)
    return usage_error(
        fmt::format("{}=\"{}\": not a shard count; a positive integer is accepted", size_name, *size));
  if (*n == 1 && *r == 0) return std::nullopt;
  const std::string source = fmt::format("{}={} {}={}", rank_name, *rank, size_name, *size);
  return OPENLOOP_TRY(make(*r, *n, source, source));
}

}  // namespace

Result<ShardAssignment> parse_shard(std::string_view text, std::string_view what) {
  const auto slash = text.find('/');
  const auto bad = [&] {
    return usage_error(fmt::format(
        "{}: \"{}\" is not a shard; use I/N, the 0-based index I of N shards (e.g. 0/4 to 3/4)", what, text));
  };
  if (slash == std::string_view::npos) return bad();
  const auto index = parse_uint(text.substr(0, slash));
  const auto count = parse_uint(text.substr(slash + 1));
  if (!index || !count) return bad();
  return make(*index, *count, std::string(what), what);
}

Result<std::optional<ShardAssignment>> detect_shard(std::string_view flag, const Environment& env) {
  std::vector<ShardAssignment> found;
  if (!flag.empty()) {
    auto s = OPENLOOP_TRY(parse_shard(flag, "--shard"));
    s.source = fmt::format("--shard {}", flag);
    found.push_back(std::move(s));
  }
  if (const std::string* v = lookup(env, "OPENLOOP_SHARD")) {
    auto s = OPENLOOP_TRY(parse_shard(*v, fmt::format("OPENLOOP_SHARD=\"{}\"", *v)));
    s.source = fmt::format("OPENLOOP_SHARD={}", *v);
    found.push_back(std::move(s));
  }
  if (lookup(env, "OPENLOOP_SHARD_COUNT") != nullptr && lookup(env, "JOB_COMPLETION_INDEX") == nullptr)
    return usage_error(
        "OPENLOOP_SHARD_COUNT is set but JOB_COMPLETION_INDEX is not: OPENLOOP_SHARD_COUNT gives the count "
        "of "
        "a Kubernetes Indexed Job's shards; elsewhere use --shard I/N or OPENLOOP_SHARD=I/N");
  const std::pair<std::string_view, std::string_view> pairs[] = {
      {"JOB_COMPLETION_INDEX", "OPENLOOP_SHARD_COUNT"},
      {"SLURM_PROCID", "SLURM_NTASKS"},
      {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
      {"PMI_RANK", "PMI_SIZE"}};
  for (const auto& [rank, size] : pairs) {
    if (auto s = OPENLOOP_TRY(from_pair(env, rank, size))) found.push_back(std::move(*s));
  }
  if (found.empty()) return std::nullopt;
  for (std::size_t i = 1; i < found.size(); ++i) {
    if (found[i].index != found[0].index || found[i].count != found[0].count)
      return usage_error(fmt::format(
          "{} (shard {}/{}) disagrees with {} (shard {}/{}); give the shard one way, or make them agree",
          found[0].source, found[0].index, found[0].count, found[i].source, found[i].index, found[i].count));
  }
  return found.front();
}

Environment shard_environment() {
  Environment env;
  for (const char* name :
       {"OPENLOOP_SHARD", "JOB_COMPLETION_INDEX", "OPENLOOP_SHARD_COUNT", "SLURM_PROCID", "SLURM_NTASKS",
        "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "PMI_RANK", "PMI_SIZE"}) {
    if (const char* v = std::getenv(name)) env.emplace(name, v);
  }
  return env;
}

}  // namespace openloop::workload

// A synthetic plan fitted to a trace: its rate profile, arrivals, endpoint mix, body sizes and key
// popularity, written as a scenario file (`openloop trace fit`, docs/replay.md).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "workload/trace_inspect.h"
#include "workload/trace_reader.h"
#include "workload/zipf_fit.h"

namespace openloop::workload {

/// The keys seen in one varying place of an endpoint: a path segment that normalise_path() turned into a
/// placeholder, or a query parameter named with --key-param.
struct KeySlot {
  std::size_t segment = 0;  ///< the path segment's index (0 = the first after '/'), when `param` is empty
  std::string param;        ///< the query parameter's name, or "" for a path segment
  std::unordered_map<std::string, std::uint64_t> counts;  ///< key → records
  std::uint64_t unrecorded = 0;  ///< records whose key was new after k_max_fit_keys distinct keys in all
};

/// What the fit knows of one endpoint ("GET /item/{n}").
struct EndpointShape {
  std::string method;
  std::string path;  ///< normalised: ids as placeholders
  std::uint64_t records = 0;
  std::uint64_t body_bytes = 0;  ///< Σ request body sizes
  std::vector<KeySlot> slots;    ///< one per placeholder segment, then one per --key-param present
};

/// Distinct keys kept in all (memory: about 100 bytes each); later new keys are counted, not kept.
inline constexpr std::size_t k_max_fit_keys = 1'000'000;

/// A trace read once for fitting.
struct TraceFitData {
  TraceProfile profile;
  std::map<std::string, EndpointShape> endpoints;  ///< by "METHOD /path/{n}", at most k_max_endpoints
  std::size_t distinct_keys = 0;
};

/// Reads every record of `reader`; `key_params` names query parameters whose values are keys too.
/// Errors: the reader's.
Result<TraceFitData> collect_fit_data(TraceReader& reader, const std::vector<std::string>& key_params);

/// A slot's place in its endpoint: "segment 2" (1-based) or "parameter q".
std::string place_of(const KeySlot& slot);
/// fit_zipf() of the slot's counts: nullopt with fewer than two distinct keys.
std::optional<ZipfFit> fit_slot(const KeySlot& slot);
/// Key popularity of every place with keys, endpoints with most records first (`trace inspect`): an array of
/// {endpoint, place, records, distinct_keys, unrecorded, zipf: {n, s, s_at_bound, ks_distance,
/// top_1pct_share} or null}.
nlohmann::json keys_json(const TraceFitData& data);
/// The same as text lines for people, at most `rows` places.
std::string render_keys_text(const TraceFitData& data, std::size_t rows = 20);

struct FitOptions {
  std::string source;  ///< the trace's name, for the plan's comments
  std::string target = "http://127.0.0.1:8080";
  std::size_t top = 10;          ///< endpoints kept in the mix (≥ 1)
  double window_s = 0;           ///< the rate windows' length; 0 = chosen from the trace (rate_fit.h)
  double rate_scale = 1;         ///< every rate multiplied by this (> 0)
  std::size_t max_body = 65536;  ///< a request body's size is capped at this many bytes
};

/// The plan and what to tell the user about it.
struct FittedPlan {
  std::string yaml;                  ///< a scenario file `openloop validate` accepts
  std::vector<std::string> summary;  ///< one line each: the rate, the arrivals, the mix, each key's fit
};

/// Writes the plan for `data`. Errors (usage): fewer than two records, or a span of zero.
Result<FittedPlan> fit_plan(const TraceFitData& data, const FitOptions& options);

}  // namespace openloop::workload

// The results file (schema "openloop.results/1", documented in docs/results.md): RunResults ⇄ JSON.
#pragma once

#include <nlohmann/json.hpp>

#include "results/run_results.h"

namespace openloop::results {

inline constexpr const char* k_results_schema = "openloop.results/1";

/// Serializes everything: verdict, summary (counts, rates, latency summaries in ms), warm-up, generator,
/// plan, environment, and every interval with its histograms as compressed V2 base64 (nanoseconds).
nlohmann::json to_json(const RunResults& r);

}  // namespace openloop::results

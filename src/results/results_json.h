// The results file (schema "openloop.results/1", documented in docs/results.md): RunResults ⇄ JSON.
#pragma once

#include <nlohmann/json.hpp>

#include "results/run_results.h"

namespace openloop::results {

inline constexpr const char* k_results_schema = "openloop.results/1";

/// Serializes everything: verdict, summary (counts, rates, latency summaries in ms), warm-up, generator,
/// plan, environment, every interval with its histograms as compressed V2 base64 (nanoseconds), the
/// per-request breakdown (totals with their histograms, counts per interval), and for a scenario file its
/// `source` and `scenarios[]` (each a complete results object of its own plus `name` and `offset_s`).
nlohmann::json to_json(const RunResults& r);
/// A start's clock as results files and manifests write it: known, synchronized, maxerror_s, esterror_s.
nlohmann::json clock_json(const StartTiming& t);

}  // namespace openloop::results

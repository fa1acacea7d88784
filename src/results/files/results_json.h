// The results file (schema "openloop.results/1", documented in docs/results.md): RunResults ⇄ JSON.
#pragma once

#include <nlohmann/json.hpp>

#include "core/atomic_file.h"
#include "core/error.h"

#include "results/run_results.h"

namespace openloop::results {

inline constexpr const char* k_results_schema = "openloop.results/1";

/// Serializes everything: verdict, summary (counts, rates, latency summaries in ms), warm-up, generator,
/// plan, environment, every interval with its histograms as compressed V2 base64 (nanoseconds), the
/// per-request breakdown (totals with their histograms, counts per interval), and for a scenario file its
/// `source` and `scenarios[]` (each a complete results object of its own plus `name` and `offset_s`).
nlohmann::json to_json(const RunResults& r);
/// The same document as to_json(r) (plus the top-level fields of the object `extra`), written as JSON text
/// (one space of indent, a final newline, bytes that are not UTF-8 as U+FFFD) to `sink` one interval at a
/// time, so that writing a long run never holds its intervals or the document whole. Errors are the sink's.
Result<void> write_json(const RunResults& r, const WriteSink& sink,
                        const nlohmann::json& extra = nlohmann::json::object());
/// A start's clock as results files and manifests write it: known, synchronized, maxerror_s, esterror_s.
nlohmann::json clock_json(const StartTiming& t);

}  // namespace openloop::results

// The front half every load-sending command shares, written once: the run's identity and --start-at, its SLOs
// and --abort-on-slo, the metrics endpoint, the observer and the request log, set up in one order so that
// every refusal comes before the wait for --start-at and before any load (signals are the pipeline's:
// cli/run_pipeline.h). A command file then holds only what makes it different.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/metrics_options.h"
#include "cli/run_options.h"
#include "cli/run_pipeline.h"
#include "cli/start_options.h"
#include "core/error.h"
#include "engine/request_log.h"
#include "engine/run_plan.h"
#include "observe/observer.h"
#include "results/judging/slo.h"
#include "results/judging/slo_abort.h"

namespace openloop::cli {

/// What a run is judged on: the plans' request names (every plan of a scenario file lists all the file's
/// requests, so the first plan's serve), the --slo objectives, and --abort-on-slo's judge when asked.
struct Judging {
  std::vector<std::string> request_names;
  std::vector<results::Slo> slos;
  std::optional<results::SloAbort> abort;  ///< --abort-on-slo: one watched part per plan
  results::SloAbort* abort_or_null() { return abort ? &*abort : nullptr; }
};

/// --slo (parse_slos on the first plan's request names) and --abort-on-slo for `plans` (one, or a scenario
/// file's), each plan's part bounded by planned_intended(). Errors (usage) as parse_slos's.
Result<Judging> prepare_judging(const RunOptions& o, const std::vector<engine::RunPlan>& plans);

/// --metrics-listen's endpoint and --metrics-linger.
struct MetricsEndpoint {
  Nanos linger{0};
  std::unique_ptr<MetricsServer> server;  ///< null without --metrics-listen
  MetricsServer* get() const { return server.get(); }
  /// After the outputs are written: serves the final totals for --metrics-linger (nothing without a server).
  void linger_after() const;
};

/// --metrics-linger checked, then --metrics-listen bound (a bad address or a port in use ends the command
/// with nothing sent), serving `parts`. Errors (usage) name the flag.
Result<MetricsEndpoint> open_metrics(const RunOptions& o, std::vector<report::MetricsContext> parts,
                                     const std::string& command);

/// One metrics part per plan: the run id, its scenario, request names, peak and offered rate.
std::vector<report::MetricsContext> metrics_parts(const std::string& run_id,
                                                  const std::vector<engine::RunPlan>& plans);

/// The front half of `run` (from flags or a scenario file) once its plans are built and resolved.
struct FrontHalf {
  StartContext start;
  Judging judging;
  MetricsEndpoint metrics;
  std::unique_ptr<observe::Observer> observer;      ///< null without an --observe SPEC
  std::unique_ptr<engine::RequestLog> request_log;  ///< null without --log-requests
};

/// Sets up the front half for `plans`, in this order: the start context (prepare_start on `identity`), the
/// SLOs and --abort-on-slo, the metrics endpoint, the observer of `observe_specs`; then, with --start-at, the
/// output paths checked and the wait for the common start (the manifest output appended to `outputs` first,
/// when the run writes one); last the request log (its writer is a thread, which must not take a Ctrl-C meant
/// to end the wait). Errors end the command before any load: usage (exit 2) name the flag; the wait's own.
Result<FrontHalf> open_front_half(const RunOptions& o, const std::string& command,
                                  std::vector<engine::RunPlan>& plans, const nlohmann::json& identity,
                                  const std::vector<std::string>& observe_specs,
                                  std::vector<OutputFile<results::RunResults>>& outputs);

}  // namespace openloop::cli

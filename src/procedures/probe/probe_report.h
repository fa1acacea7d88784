// The metastable probe's outputs: the verdict over repeats, the terminal phase table, the JSON document
// (schema openloop.probe/1) and the HTML page.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "procedures/probe/probe_plan.h"
#include "procedures/probe/probe_runner.h"

namespace openloop::procedures {

inline constexpr const char* k_probe_schema = "openloop.probe/1";

/// Every repeat of one probe and the conclusion over them.
struct ProbeReport {
  ProbePlan plan;
  std::string target;       ///< URL
  std::string lab_control;  ///< the control endpoint used ("" when none)
  std::vector<ProbeRun> runs;
  bool interrupted = false;
  /// The probe's id (OPENLOOP_RUN_ID, else random, as run's and ramp's): the file's run_id, its runs' and the
  /// run_id label of its metrics; "" leaves it out of the file.
  std::string run_id;
};

/// The spill files the probe's runs are parked in (results::spill_files), for the output pipeline's check.
inline std::vector<std::shared_ptr<const results::SpillFile>> spill_files(const ProbeReport& r) {
  std::vector<std::shared_ptr<const results::SpillFile>> files;
  for (const auto& run : r.runs) results::add_spill_files(run.results, files);
  return files;
}

/// Over repeats: METASTABLE if any run was, else RECOVERED-AT-LOWER-LOAD if any, else RECOVERED if any, else
/// INCONCLUSIVE (a single metastable run is a finding; inconclusive runs do not outvote it).
ProbeVerdict overall_verdict(const ProbeReport& r);
/// One sentence: the single run's sentence, or "METASTABLE in 2 of 3 runs (...)".
std::string overall_sentence(const ProbeReport& r);
/// Exit code: RECOVERED 0; METASTABLE and RECOVERED-AT-LOWER-LOAD 1 (the system did not recover at a load it
/// served before); INCONCLUSIVE 3; interrupted 130.
int probe_exit_code(const ProbeReport& r);

/// The terminal report: per run, the phase table (offered, goodput, throughput, p99, in flight, timeouts, not
/// ok, amplification, the lab's deepest queue when polled), the verdict, signals and notes; then the overall
/// sentence.
std::string render_probe_text(const ProbeReport& r);
/// The JSON document: schema, verdict, sentence, recovery time, per run the outcome, the lab's samples and
/// actions, and the full results of the run (schema openloop.results/1).
nlohmann::json probe_json(const ProbeReport& r);
/// A self-contained HTML page: the verdict and phase tables, a chart per run of offered, throughput and
/// goodput with p99 on a second axis and the phases shaded, followed by the standard report of the last run.
std::string render_probe_html(const ProbeReport& r);

}  // namespace openloop::procedures

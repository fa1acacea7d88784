// What --observe saw at each step of a ramp, and the sentence naming what saturated first at the knee.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "procedures/ramp/ramp_runner.h"
#include "results/recording/observed.h"

namespace openloop::observe {

/// Every observed signal's value at each step: the mean of the step's measured intervals (a counter's mean
/// rate, a gauge's mean level); NaN where the step's run did not observe it.
struct StepSignals {
  std::vector<results::ObservedSignal> signals;  ///< the union over the ramp's runs, in order of appearance
  std::vector<double> offered_rps;               ///< per step
  std::vector<std::vector<double>> values;       ///< [step][signal]
};
StepSignals step_signals(const procedures::RampOutcome& o);

/// The step to name saturation at: the first failing step above capacity (the load the target could not
/// carry), else the goodput knee, else the latency knee; nullopt if none.
std::optional<std::size_t> knee_step(const procedures::RampOutcome& o);

/// One signal's state at the knee, compared with the first step.
struct Finding {
  std::size_t signal = 0;
  double at_knee = 0, at_first = 0;
  std::string phrase;  ///< "pid:42's CPU of its allowed cores was 0.98", "its run-queue wait rose 40×"
};
/// The saturated signals at step `knee`: utilization ≥ 0.9; saturation at least 4× the first step's and
/// above a floor (0.05 for shares and s/s, 1 for counts and rates); errors above 1/s and more than twice the
/// first step's; in signal order. Then each process's CPU demand ≥ 0.9 (its CPU of its allowed cores plus its
/// run-queue wait per allowed core, over what the host's steal left of them) where its utilization alone is
/// not.
std::vector<Finding> saturated_at(const StepSignals& s, std::size_t knee);

/// The sentence for people: "at 700/s (the knee) pid:42's CPU of its allowed cores was 0.98 and its run-queue
/// wait rose 40× (0.01 → 0.40 s/s); nothing else was saturated." With no signals observed it says so and
/// suggests --observe; with no knee it says that too.
std::string knee_sentence(const procedures::RampOutcome& o);
/// A table of every signal (utilization, saturation and errors first) per step, then knee_sentence().
std::string render_ramp_observed(const procedures::RampOutcome& o);
/// `observed` of the ramp's JSON: {signals: [{source, name, unit, role, label, steps: [..]}], knee:
/// sentence}.
nlohmann::json ramp_observed_json(const procedures::RampOutcome& o);

}  // namespace openloop::observe

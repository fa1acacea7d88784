// Builders for ramp tests: judged steps, beside the runs of results/run_builders.h.
#pragma once

#include <string_view>

#include "procedures/ramp/ramp_analysis.h"
#include "results/run_builders.h"

namespace ramp_test {

using namespace openloop;
using namespace run_builders;

/// A judged step with just what the ramp's analysis reads.
inline procedures::StepRecord step(double offered, double goodput, double p99_ms, bool slos_met = true,
                                   procedures::StepState state = procedures::StepState::steady,
                                   bool refinement = false) {
  procedures::StepRecord s;
  s.refinement = refinement;
  s.analysis.window.offered_rps = offered;
  s.analysis.goodput_rps = goodput;
  s.analysis.completed_rps = goodput;
  s.analysis.latency[2].value = static_cast<std::int64_t>(p99_ms * 1e6);
  s.analysis.latency[2].count = 1000;
  s.analysis.state = state;
  s.slos_met = slos_met;
  return s;
}

/// Whether any of a step's reasons contains `text`.
inline bool mentions(const procedures::StepAnalysis& a, std::string_view text) {
  for (const auto& r : a.reasons) {
    if (r.find(text) != std::string::npos) return true;
  }
  return false;
}

}  // namespace ramp_test

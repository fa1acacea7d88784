// --junit for ramp and probe: what each judges, as the cases of a JUnit report (report/junit.h writes it;
// run's own report is report::junit_for_run).
#pragma once

#include <string>

#include "procedures/probe/probe_report.h"
#include "procedures/ramp/ramp_plan.h"
#include "procedures/ramp/ramp_runner.h"
#include "report/junit.h"

namespace openloop::cli {

/// `openloop ramp`: one case per SLO (passes when some valid step met it; fails with the lowest valid step's
/// measured value otherwise), a "capacity" case (fails when no step passed; every step's state and SLOs in
/// its text) and a "ramp verdict" case (fails when no step was valid, listing the first step's reasons;
/// interrupted is an error): the same outcome as the exit code. Properties: target (already redacted),
/// rates, hold and capacity.
report::JunitReport ramp_junit(const procedures::RampOutcome& o, const procedures::RampSettings& s,
                               const std::string& target);

/// `openloop probe metastable`: per run, one case per baseline SLO, then the "probe verdict" case: RECOVERED
/// passes; METASTABLE and RECOVERED-AT-LOWER-LOAD fail with the verdict's sentence; INCONCLUSIVE fails with
/// its notes; interrupted is an error. Properties: target, base rate, trigger, runs.
report::JunitReport probe_junit(const procedures::ProbeReport& r);

}  // namespace openloop::cli

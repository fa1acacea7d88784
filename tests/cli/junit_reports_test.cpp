// --junit for ramp and probe: the cases follow what each command judges, as its exit code does.
#include "cli/junit_reports.h"

#include <stdexcept>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace openloop::cli {
namespace {

using report::JunitCase;
using ::testing::HasSubstr;

results::SloResult slo(const std::string& text, bool met, const std::string& measured) {
  results::SloResult s;
  s.slo = *results::parse_slo(text);
  s.evaluated = true;
  s.met = met;
  s.measured_text = measured;
  s.threshold_text = "100ms";
  return s;
}

procedures::StepRecord step(std::size_t number, double rate, procedures::StepState state, bool slo_met,
                            const std::string& p99) {
  procedures::StepRecord st;
  st.number = number;
  st.analysis.window.offered_rps = rate;
  st.analysis.state = state;
  if (state == procedures::StepState::invalid) st.analysis.reasons = {"send lateness p99 5 ms > 1 ms"};
  st.slos = {slo("p99<=100ms", slo_met, p99)};
  st.slos_met = slo_met;
  return st;
}

const JunitCase& named(const report::JunitReport& j, const std::string& name) {
  for (const auto& c : j.cases) {
    if (c.name == name) return c;
  }
  throw std::runtime_error("no case named " + name);
}

procedures::RampSettings settings() {
  procedures::RampSettings s;
  s.slos = {*results::parse_slo("p99<=100ms")};
  return s;
}

TEST(RampJunit, CapacityFoundPassesWithTheSloMetAtTheCapacityStep) {
  procedures::RampOutcome o;
  o.steps = {step(1, 100, procedures::StepState::steady, true, "20ms"),
             step(2, 200, procedures::StepState::steady, true, "40ms"),
             step(3, 300, procedures::StepState::unsteady, false, "900ms")};
  o.findings.capacity = 1;
  o.findings.capacity_rps = o.findings.capacity_low_rps = 200;
  o.findings.capacity_high_rps = 300;
  o.findings.bounded = true;
  o.findings.capacity_tolerance = 0.5;
  const auto j = ramp_junit(o, settings(), "http://127.0.0.1:1/");
  ASSERT_EQ(j.cases.size(), 3u);
  EXPECT_EQ(named(j, "SLO p99<=100ms").status, JunitCase::Status::passed);
  EXPECT_THAT(named(j, "SLO p99<=100ms").detail,
              HasSubstr("measured 40ms, bound <= 100ms at step 2 (200/s)"));
  EXPECT_EQ(named(j, "capacity").status, JunitCase::Status::passed);
  EXPECT_THAT(named(j, "capacity").detail,
              HasSubstr("capacity 200/s (step 2 passed; the first failing step, 300/s, is 50.0% above)"));
  EXPECT_THAT(named(j, "capacity").detail,
              HasSubstr("step 3 at 300/s: UNSTEADY, p99<=100ms not met (900ms)"));
  EXPECT_EQ(named(j, "ramp verdict").status, JunitCase::Status::passed);
}

TEST(RampJunit, NoStepPassingFailsCapacityAndTheSloWithTheLowestValidStep) {
  procedures::RampOutcome o;
  o.steps = {step(1, 100, procedures::StepState::invalid, true, "20ms"),
             step(2, 200, procedures::StepState::steady, false, "150ms"),
             step(3, 300, procedures::StepState::steady, false, "400ms")};
  const auto j = ramp_junit(o, settings(), "http://127.0.0.1:1/");
  EXPECT_EQ(named(j, "SLO p99<=100ms").status, JunitCase::Status::failed);
  EXPECT_EQ(named(j, "SLO p99<=100ms").message,
            "p99<=100ms: measured 150ms, bound <= 100ms at step 2 (200/s), the lowest valid step; met at no "
            "valid step");
  EXPECT_EQ(named(j, "capacity").status, JunitCase::Status::failed);
  EXPECT_EQ(named(j, "ramp verdict").status, JunitCase::Status::passed);  // step 2 and 3 were valid
}

TEST(RampJunit, EveryStepInvalidFailsTheVerdictListingReasonsAndInterruptedIsAnError) {
  procedures::RampOutcome o;
  o.steps = {step(1, 100, procedures::StepState::invalid, true, "20ms")};
  auto j = ramp_junit(o, settings(), "http://127.0.0.1:1/");
  const JunitCase& verdict = named(j, "ramp verdict");
  EXPECT_EQ(verdict.status, JunitCase::Status::failed);
  EXPECT_EQ(verdict.message, "INVALID: step 1 (100/s): send lateness p99 5 ms > 1 ms");
  o.interrupted = true;
  j = ramp_junit(o, settings(), "http://127.0.0.1:1/");
  EXPECT_EQ(named(j, "ramp verdict").status, JunitCase::Status::error);
}

procedures::ProbeReport probe(procedures::ProbeVerdict v, const std::string& sentence) {
  procedures::ProbeReport r;
  r.target = "http://127.0.0.1:1/";
  procedures::ProbeRun run;
  run.outcome.verdict = v;
  run.outcome.sentence = sentence;
  run.baseline_slos = {slo("p99<=100ms", false, "120ms")};
  r.runs.push_back(run);
  return r;
}

TEST(ProbeJunit, RecoveredPassesOtherVerdictsFailWithTheSentence) {
  auto j = probe_junit(probe(procedures::ProbeVerdict::recovered, "RECOVERED after 3.0 s"));
  ASSERT_EQ(j.cases.size(), 2u);
  EXPECT_EQ(j.cases[0].name, "SLO p99<=100ms (baseline)");
  EXPECT_EQ(j.cases[0].status, JunitCase::Status::failed);
  EXPECT_EQ(named(j, "probe verdict").status, JunitCase::Status::passed);
  j = probe_junit(probe(procedures::ProbeVerdict::metastable, "METASTABLE: retry amplification 2.9"));
  EXPECT_EQ(named(j, "probe verdict").status, JunitCase::Status::failed);
  EXPECT_EQ(named(j, "probe verdict").message, "METASTABLE: retry amplification 2.9");
  auto interrupted = probe(procedures::ProbeVerdict::inconclusive, "INCONCLUSIVE: interrupted");
  interrupted.interrupted = true;
  EXPECT_EQ(named(probe_junit(interrupted), "probe verdict").status, JunitCase::Status::error);
}

}  // namespace
}  // namespace openloop::cli

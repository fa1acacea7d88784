// --junit for ramp and probe: their judgements (capacity and SLOs; the probe's verdict) as JUnit cases.
#include "cli/junit_reports.h"

#include <optional>

#include <fmt/format.h>

#include "core/time.h"
#include "core/units.h"

namespace openloop::cli {

using report::JunitCase;

namespace {

// The step's line for the capacity case's text: "step 3 at 400/s: STEADY, SLOs met".
std::string step_text(const procedures::StepRecord& step) {
  std::string line =
      fmt::format("step {} at {}{}: {}", step.number, format_rate(step.analysis.window.offered_rps),
                  step.refinement ? " (refinement)" : "", to_string(step.analysis.state));
  for (const auto& s : step.slos) {
    line += fmt::format(", {} {} ({})", s.slo.text, s.met ? "met" : "not met", s.measured_text);
  }
  for (const auto& reason : step.analysis.reasons) line += "; " + reason;
  return line + "\n";
}

}  // namespace

report::JunitReport ramp_junit(const procedures::RampOutcome& o, const procedures::RampSettings& s,
                               const std::string& target) {
  report::JunitReport j;
  j.suite = "openloop ramp";
  const auto& f = o.findings;
  j.properties = {{"target", target},
                  {"steps", fmt::format("{}", o.steps.size())},
                  {"hold_s", fmt::format("{:g}", to_seconds(s.hold))},
                  {"warmup_s", fmt::format("{:g}", to_seconds(s.warmup))}};
  if (!o.steps.empty()) {
    j.properties.emplace_back("first_offered_rps",
                              fmt::format("{:g}", o.steps.front().analysis.window.offered_rps));
    j.properties.emplace_back("last_offered_rps",
                              fmt::format("{:g}", o.steps.back().analysis.window.offered_rps));
  }
  if (f.capacity) j.properties.emplace_back("capacity_rps", fmt::format("{:.1f}", f.capacity_rps));
  for (const auto& r : o.runs) j.time_s += r.measured_s + r.info.warmup_s;
  if (!o.runs.empty()) j.timestamp = report::junit_timestamp(o.runs.front().info.start_unix_s);

  // Per SLO: met at some valid step (at capacity, when there is one), or not met at any: then the value at
  // the lowest valid step (the easiest load it was judged at).
  for (std::size_t k = 0; k < s.slos.size(); ++k) {
    const procedures::StepRecord* met = nullptr;
    const procedures::StepRecord* lowest = nullptr;
    for (const auto& step : o.steps) {
      if (step.analysis.state == procedures::StepState::invalid || k >= step.slos.size()) continue;
      const auto& res = step.slos[k];
      if (res.evaluated && res.met && (met == nullptr || (f.capacity && &step == &o.steps[*f.capacity])))
        met = &step;
      if (lowest == nullptr || step.analysis.window.offered_rps < lowest->analysis.window.offered_rps)
        lowest = &step;
    }
    const procedures::StepRecord* shown = met != nullptr ? met : lowest;
    JunitCase c;
    if (shown == nullptr) {
      c.name = fmt::format("SLO {}{}", s.slos[k].text, s.slos[k].is_default ? " (default)" : "");
      c.status = JunitCase::Status::failed;
      c.message = fmt::format("{}: not judged: no valid step", s.slos[k].text);
      c.detail = c.message;
    } else {
      c = report::junit_slo_case(shown->slos[k]);
      const std::string where =
          fmt::format(" at step {} ({})", shown->number, format_rate(shown->analysis.window.offered_rps));
      if (c.status == JunitCase::Status::passed) {
        c.detail += where;
      } else {
        c.message += where + ", the lowest valid step; met at no valid step";
        c.detail = c.message;
      }
    }
    j.cases.push_back(std::move(c));
  }

  JunitCase capacity;
  capacity.name = "capacity";
  for (const auto& step : o.steps) capacity.detail += step_text(step);
  if (f.capacity) {
    const auto& step = o.steps[*f.capacity];
    const std::string found =
        f.bounded ? fmt::format("capacity {} (step {} passed; the first failing step, {}, is {:.1f}% above)",
                                format_rate(f.capacity_rps), step.number, format_rate(f.capacity_high_rps),
                                100 * f.capacity_tolerance)
                  : fmt::format("capacity at least {} (step {} passed; no failing step above it)",
                                format_rate(f.capacity_rps), step.number);
    capacity.detail = found + "\n" + capacity.detail;
  } else {
    capacity.status = JunitCase::Status::failed;
    capacity.message = "no step passed (STEADY with every SLO met): no capacity found";
  }
  if (!o.stopped.empty()) capacity.detail += "stopped: " + o.stopped + "\n";
  for (const auto& note : o.notes) capacity.detail += "note: " + note + "\n";
  j.cases.push_back(std::move(capacity));

  bool any_valid = false;
  std::vector<std::string> reasons;
  for (const auto& step : o.steps) {
    if (step.analysis.state != procedures::StepState::invalid) {
      any_valid = true;
      continue;
    }
    for (const auto& reason : step.analysis.reasons)
      reasons.push_back(fmt::format("step {} ({}): {}", step.number,
                                    format_rate(step.analysis.window.offered_rps), reason));
  }
  JunitCase verdict = report::junit_verdict_case("ramp verdict", any_valid, reasons);
  if (o.steps.empty() && !o.interrupted)
    verdict = report::junit_verdict_case("ramp verdict", false, {"no step ran"});
  if (o.interrupted) {
    verdict.status = JunitCase::Status::error;
    verdict.message = fmt::format("interrupted after {} step(s): results are partial", o.steps.size());
    verdict.detail = verdict.message + "\n";
  }
  j.cases.push_back(std::move(verdict));
  return j;
}

}  // namespace openloop::cli

namespace openloop::cli {

report::JunitReport probe_junit(const procedures::ProbeReport& r) {
  report::JunitReport j;
  j.suite = "openloop probe metastable";
  const auto& s = r.plan.settings;
  j.properties = {{"target", r.target},
                  {"base_rps", fmt::format("{:g}", s.base_rate)},
                  {"trigger", s.trigger.text},
                  {"runs", fmt::format("{}", r.runs.size())}};
  for (const auto& run : r.runs) j.time_s += run.results.measured_s + run.results.info.warmup_s;
  if (!r.runs.empty()) j.timestamp = report::junit_timestamp(r.runs.front().results.info.start_unix_s);

  for (std::size_t i = 0; i < r.runs.size(); ++i) {
    const std::string prefix = r.runs.size() > 1 ? fmt::format("run {}: SLO ", i + 1) : std::string("SLO ");
    for (const auto& slo : r.runs[i].baseline_slos) {
      JunitCase c = report::junit_slo_case(slo, prefix);
      c.name += " (baseline)";
      j.cases.push_back(std::move(c));
    }
  }

  JunitCase verdict;
  verdict.name = "probe verdict";
  const procedures::ProbeVerdict v = procedures::overall_verdict(r);
  const std::string sentence = procedures::overall_sentence(r);
  std::string notes;
  for (const auto& run : r.runs) {
    for (const auto& note : run.outcome.notes) notes += "- " + note + "\n";
  }
  if (r.interrupted) {
    verdict.status = JunitCase::Status::error;
    verdict.message = fmt::format("interrupted after {} run(s): {}", r.runs.size(), procedures::to_string(v));
    verdict.detail = sentence + "\n" + notes;
  } else if (v == procedures::ProbeVerdict::recovered) {
    verdict.detail = sentence + "\n" + notes;
  } else {
    verdict.status = JunitCase::Status::failed;
    const std::string name = procedures::to_string(v);
    // The sentence usually starts with the verdict's name already ("INCONCLUSIVE: the baseline ...").
    verdict.message = sentence.rfind(name, 0) == 0 ? sentence : fmt::format("{}: {}", name, sentence);
    verdict.detail = sentence + "\n" + notes;
  }
  j.cases.push_back(std::move(verdict));
  return j;
}

}  // namespace openloop::cli

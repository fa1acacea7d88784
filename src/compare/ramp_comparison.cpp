// Two ramps compared: capacity and knees with the ramps' own intervals, p99 at the rates both ran, gates.
#include "compare/ramp_comparison.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "core/units.h"
#include "results/run_identity.h"

namespace openloop::compare {
namespace {

using procedures::ReadRamp;
using procedures::StepRecord;

RampRate capacity_of(const ReadRamp& r) {
  const procedures::RampFindings& f = r.outcome.findings;
  if (!f.capacity) return {};
  RampRate out{f.capacity_rps, f.capacity_low_rps, std::nullopt};
  if (f.bounded) out.high_rps = f.capacity_high_rps;
  return out;
}

// A knee is a step: the true knee lies between the offered rates of its neighbouring valid steps.
RampRate knee_of(const ReadRamp& r, const std::optional<std::size_t>& knee) {
  if (!knee) return {};
  const std::vector<StepRecord>& steps = r.outcome.steps;
  const double at = steps[*knee].analysis.window.offered_rps;
  RampRate out{at, at, std::nullopt};
  for (const StepRecord& s : steps) {
    if (s.analysis.state == procedures::StepState::invalid) continue;
    const double rate = s.analysis.window.offered_rps;
    if (rate < at) out.low_rps = *out.low_rps == at ? rate : std::max(*out.low_rps, rate);
    if (rate > at) out.high_rps = out.high_rps ? std::min(*out.high_rps, rate) : rate;
  }
  return out;
}

Direction direction_of(const std::optional<double>& low, const std::optional<double>& high) {
  if (low && *low > 0) return Direction::increased;
  if (high && *high < 0) return Direction::decreased;
  if (low && high) return Direction::unchanged;
  return Direction::unknown;
}

RampRateChange compare_rates(std::string name, RampRate b, RampRate k) {
  RampRateChange c{std::move(name), b, k, std::nullopt, std::nullopt, std::nullopt, Direction::unknown};
  if (!b.rps || !k.rps || *b.rps <= 0) return c;
  c.change = *k.rps / *b.rps - 1;
  if (k.low_rps && b.high_rps && *b.high_rps > 0) c.low = *k.low_rps / *b.high_rps - 1;
  if (k.high_rps && b.low_rps && *b.low_rps > 0) c.high = *k.high_rps / *b.low_rps - 1;
  c.direction = direction_of(c.low, c.high);
  return c;
}

std::vector<RampStepChange> common_steps(const ReadRamp& b, const ReadRamp& k) {
  std::map<double, const StepRecord*> baseline;
  for (const StepRecord& s : b.outcome.steps) baseline.try_emplace(s.analysis.window.offered_rps, &s);
  std::map<double, RampStepChange> out;
  for (const StepRecord& s : k.outcome.steps) {
    const double rate = s.analysis.window.offered_rps;
    const auto found = baseline.find(rate);
    if (found == baseline.end() || out.count(rate) != 0) continue;
    RampStepChange c;
    c.offered_rps = rate;
    c.baseline_step = found->second->number;
    c.candidate_step = s.number;
    QuantileChange& q = c.p99;
    q.percentile = 99;
    q.baseline = found->second->analysis.latency[2];
    q.candidate = s.analysis.latency[2];
    if (q.baseline.count > 0 && q.candidate.count > 0 && q.baseline.value > 0) {
      q.change = static_cast<double>(q.candidate.value) / static_cast<double>(q.baseline.value) - 1;
      if (q.candidate.low && q.baseline.high && *q.baseline.high > 0)
        q.low = static_cast<double>(*q.candidate.low) / static_cast<double>(*q.baseline.high) - 1;
      if (q.candidate.high && q.baseline.low && *q.baseline.low > 0)
        q.high = static_cast<double>(*q.candidate.high) / static_cast<double>(*q.baseline.low) - 1;
      q.direction = direction_of(q.low, q.high);
    }
    out.emplace(rate, std::move(c));
  }
  std::vector<RampStepChange> v;
  for (auto& [rate, c] : out) v.push_back(std::move(c));
  return v;
}

std::string interval_text(const std::optional<double>& low, const std::optional<double>& high) {
  return fmt::format("[{}, {}]", low ? signed_change(*low) : "?", high ? signed_change(*high) : "?");
}

void write_finding(RampComparison& c) {
  std::vector<std::string> moved, unchanged, unknown;
  for (const RampRateChange& r : c.rates) {
    if (r.direction == Direction::increased || r.direction == Direction::decreased) {
      moved.push_back(fmt::format("{} {} {}, significant", r.name, signed_change(*r.change),
                                  interval_text(r.low, r.high)));
    } else if (r.direction == Direction::unchanged) {
      unchanged.push_back(r.name);
    } else {
      unknown.push_back(r.name);
    }
  }
  std::size_t slower = 0, faster = 0;
  for (const RampStepChange& s : c.steps) {
    slower += s.p99.direction == Direction::increased ? 1 : 0;
    faster += s.p99.direction == Direction::decreased ? 1 : 0;
  }
  c.significant = !moved.empty() || slower > 0 || faster > 0;
  const auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
  };
  std::vector<std::string> parts;
  if (moved.empty()) parts.push_back("capacity and knees: no significant difference");
  for (auto& m : moved) parts.push_back(std::move(m));
  if (!moved.empty() && !unchanged.empty()) parts.push_back(join(unchanged) + " unchanged");
  if (!unknown.empty()) parts.push_back(join(unknown) + ": not found by both ramps or unbounded");
  if (!c.steps.empty()) {
    parts.push_back(
        fmt::format("p99 higher at {} and lower at {} of {} common rate(s)", slower, faster, c.steps.size()));
  }
  c.finding.clear();
  for (const auto& p : parts) c.finding += (c.finding.empty() ? "" : "; ") + p;
}

std::string plan_of(const ReadRamp& r) {
  return r.outcome.runs.empty() ? std::string() : results::plan_hash_of(r.outcome.runs.front().info);
}

}  // namespace

bool RampComparison::failed() const {
  return std::any_of(gates.begin(), gates.end(), [](const FailOnResult& g) { return g.failed; });
}

Result<RampComparison> compare_ramps(const ReadRamp& baseline, const ReadRamp& candidate,
                                     std::string baseline_source, std::string candidate_source,
                                     const CompareSettings& settings) {
  RampComparison c;
  c.baseline_source = std::move(baseline_source);
  c.candidate_source = std::move(candidate_source);
  for (const FailOn& g : settings.gates) {
    if (g.metric != FailOn::Metric::capacity) {
      return usage_error(fmt::format(
          "--fail-on '{}': {} and {} are ramp files; their gate is capacity, e.g. 'capacity<-5%' (a "
          "percentile or rate gate compares two runs)",
          g.text, c.baseline_source, c.candidate_source));
    }
  }
  c.baseline_plan_hash = plan_of(baseline);
  c.candidate_plan_hash = plan_of(candidate);
  c.same_plan = c.baseline_plan_hash == c.candidate_plan_hash;
  if (!c.same_plan && !settings.allow_different_plans) {
    return usage_error(fmt::format(
        "{} (plan {}) and {} (plan {}) are ramps of different plans (target, requests or steps): compare "
        "ramps of one plan, or pass --allow-different-plans",
        c.baseline_source, c.baseline_plan_hash.substr(0, 12), c.candidate_source,
        c.candidate_plan_hash.substr(0, 12)));
  }
  if (!c.same_plan) c.notes.push_back("the ramps are of different plans (--allow-different-plans)");
  const procedures::RampFindings& fb = baseline.outcome.findings;
  const procedures::RampFindings& fk = candidate.outcome.findings;
  c.rates.push_back(compare_rates("capacity", capacity_of(baseline), capacity_of(candidate)));
  c.rates.push_back(
      compare_rates("knee (p99)", knee_of(baseline, fb.knee_latency), knee_of(candidate, fk.knee_latency)));
  c.rates.push_back(compare_rates("knee (goodput)", knee_of(baseline, fb.knee_goodput),
                                  knee_of(candidate, fk.knee_goodput)));
  c.steps = common_steps(baseline, candidate);
  c.baseline_finding = procedures::findings_sentence(baseline.outcome.steps, fb);
  c.candidate_finding = procedures::findings_sentence(candidate.outcome.steps, fk);
  for (const FailOn& g : settings.gates) {
    const RampRateChange& cap = c.rates.front();
    FailOnResult r = judge_fail_on(g, cap.change, cap.low, cap.high, cap.direction, settings.inconclusive);
    // A capacity's interval is its ramps' brackets, not a sampling error: longer steps would not narrow it,
    // finer steps (--refine, a smaller --tol, a smaller --step-add) would.
    if (r.evaluated && r.outcome == Outcome::inconclusive) {
      r.longer.reset();
      r.message = fmt::format(
          "capacity {:+.1f} % [{:+.1f} %, {:+.1f} %] holds {:+.1f} %: inconclusive, the ramps' brackets are "
          "too wide to tell; ramp with finer steps (--refine with a smaller --tol) to decide; {}",
          *cap.change * 100, *cap.low * 100, *cap.high * 100, g.bound * 100,
          settings.inconclusive == InconclusivePolicy::fail ? "counted as failed (--inconclusive fail)"
                                                            : "counted as passed (--inconclusive pass)");
    }
    c.gates.push_back(std::move(r));
  }
  if (!fb.capacity || !fk.capacity)
    c.notes.push_back(fmt::format("{} found no capacity (no step passed): capacity not compared",
                                  !fb.capacity ? c.baseline_source : c.candidate_source));
  for (const auto* r : {&baseline, &candidate}) {
    if (r->outcome.findings.capacity && !r->outcome.findings.bounded)
      c.notes.push_back(fmt::format("{}: capacity is a lower bound (no failing step above it)",
                                    r == &baseline ? c.baseline_source : c.candidate_source));
  }
  c.notes.push_back(
      "intervals: a capacity's bracket (its step and the first failing step above) and a knee's neighbouring "
      "steps; p99 per rate: each step's 95 % order-statistic interval");
  write_finding(c);
  return c;
}

}  // namespace openloop::compare

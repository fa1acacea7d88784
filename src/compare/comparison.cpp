// Builds a Comparison: the plan check, every quantity's change with simultaneous intervals, gates, the
// finding.
#include "compare/comparison.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "results/run_identity.h"
#include "results/used_protocol.h"

namespace openloop::compare {

std::string signed_change(double v, bool points) {
  return points ? fmt::format("{:+.2f} pt", v * 100) : fmt::format("{:+.1f} %", v * 100);
}

bool Comparison::failed() const {
  return std::any_of(gates.begin(), gates.end(), [](const FailOnResult& g) { return g.failed; });
}

namespace {

std::string plan_of(const report::ReportInput& in) {
  if (!in.has_counts || in.results.info.plan.is_null() || in.results.info.plan.empty()) return {};
  return results::plan_hash_of(in.results.info);
}

std::string interval_text(std::optional<double> low, std::optional<double> high, bool points) {
  return fmt::format("[{}, {}]", low ? signed_change(*low, points) : "?",
                     high ? signed_change(*high, points) : "?");
}

std::string percentile_name(double p) {
  return fmt::format("p{}", p);
}

bool gate_on_counts(const FailOn& g) {
  return g.metric != FailOn::Metric::percentile;
}

RateSample rate_sample(const results::RunResults& r, std::uint64_t count) {
  return {count, r.totals.intended, r.measured_s,
          r.info.model == results::Model::open && r.info.arrival == "poisson"};
}

void add_rates(Comparison& c, const results::RunResults& b, const results::RunResults& k, double z) {
  c.rates.push_back(
      {"offered", compare_rate(rate_sample(b, b.totals.intended), rate_sample(k, k.totals.intended), z)});
  c.rates.push_back({"throughput", compare_rate(rate_sample(b, b.totals.completed),
                                                rate_sample(k, k.totals.completed), z)});
  c.rates.push_back({"goodput", compare_rate(rate_sample(b, b.totals.ok), rate_sample(k, k.totals.ok), z)});
  // Errors as an SLO counts them: failures without a usable response and responses outside --success.
  const auto errors = [](const results::Counters& t) { return t.errors_total() + t.bad_status(); };
  c.fractions.push_back({"errors", compare_fraction(errors(b.totals), b.totals.intended, errors(k.totals),
                                                    k.totals.intended, z)});
  c.fractions.push_back({"timeouts", compare_fraction(b.totals.timeouts, b.totals.intended, k.totals.timeouts,
                                                      k.totals.intended, z)});
  c.fractions.push_back({"dropped", compare_fraction(b.totals.dropped, b.totals.intended, k.totals.dropped,
                                                     k.totals.intended, z)});
}

void judge_gates(Comparison& c, const std::vector<FailOn>& gates, InconclusivePolicy policy) {
  for (const FailOn& g : gates) {
    if (g.metric == FailOn::Metric::percentile) {
      const auto it = std::find_if(c.percentiles.begin(), c.percentiles.end(),
                                   [&](const QuantileChange& q) { return q.percentile == g.percentile; });
      c.gates.push_back(judge_fail_on(g, it->change, it->low, it->high, it->direction, policy));
      continue;
    }
    const std::string name = metric_name(g);
    bool found = false;
    for (const NamedRate& r : c.rates) {
      if (r.name != name) continue;
      c.gates.push_back(judge_fail_on(g, r.change.change, r.change.low, r.change.high, r.change.direction, policy));
      found = true;
    }
    for (const NamedFraction& f : c.fractions) {
      if (f.name != name || found) continue;
      c.gates.push_back(judge_fail_on(g, f.change.change, f.change.low, f.change.high, f.change.direction, policy));
    }
  }
}

// "p99 +18.0 % [+12.0 %, +24.1 %], significant; p50, p90 unchanged; p99.99 too few samples".
void write_finding(Comparison& c) {
  std::vector<std::string> moved, unchanged, unknown;
  for (const QuantileChange& q : c.percentiles) {
    const std::string name = percentile_name(q.percentile);
    if (q.direction == Direction::increased || q.direction == Direction::decreased) {
      moved.push_back(fmt::format("{} {} {}, significant", name, signed_change(*q.change),
                                  interval_text(q.low, q.high, false)));
    } else if (q.direction == Direction::unchanged) {
      unchanged.push_back(name);
    } else {
      unknown.push_back(name);
    }
  }
  for (const NamedRate& r : c.rates) {
    if (r.change.direction == Direction::increased || r.change.direction == Direction::decreased) {
      moved.push_back(fmt::format("{} {} {}, significant", r.name,
                                  r.change.change ? signed_change(*r.change.change) : std::string("from 0"),
                                  interval_text(r.change.low, r.change.high, false)));
    }
  }
  for (const NamedFraction& f : c.fractions) {
    if (f.change.direction == Direction::increased || f.change.direction == Direction::decreased) {
      moved.push_back(fmt::format("{} {} {}, significant", f.name, signed_change(*f.change.change, true),
                                  interval_text(f.change.low, f.change.high, true)));
    }
  }
  c.significant = !moved.empty();
  std::vector<std::string> parts;
  if (moved.empty()) {
    parts.push_back(fmt::format("no significant difference at {:g} % confidence", c.confidence * 100));
  } else {
    for (auto& m : moved) parts.push_back(std::move(m));
  }
  const auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return s;
  };
  if (!moved.empty() && !unchanged.empty()) parts.push_back(join(unchanged) + " unchanged");
  if (!unknown.empty()) parts.push_back(join(unknown) + ": too few samples to bound");
  c.finding.clear();
  for (const auto& p : parts) c.finding += (c.finding.empty() ? "" : "; ") + p;
}

// Closed and pacing users wait for each response before sending the next request: their response time is
// the service time, and the delay the server caused to requests not yet sent is never measured (coordinated
// omission). An open-model run measures it. Their percentiles answer different questions.
std::string not_comparable_why(const report::ReportInput& baseline, const report::ReportInput& candidate) {
  if (!baseline.has_counts || !candidate.has_counts) return {};
  const results::RunInfo& b = baseline.results.info;
  const results::RunInfo& k = candidate.results.info;
  const auto known = [](results::Model m) {
    return m != results::Model::mixed && m != results::Model::unknown;
  };
  if (!known(b.model) || !known(k.model)) return {};
  if (results::waits_for_responses(b.model) == results::waits_for_responses(k.model)) return {};
  const bool baseline_closed = results::waits_for_responses(b.model);
  const report::ReportInput& closed = baseline_closed ? baseline : candidate;
  const report::ReportInput& open = baseline_closed ? candidate : baseline;
  const results::RunResults& c = closed.results;
  const double would = open.results.info.offered_rps * c.measured_s;
  return fmt::format(
      "not comparable: {} is a {}-model run ({} users waiting for each response: its response times leave out "
      "the time requests would have waited to be sent while the server was slow), {} an open-model run "
      "(requests sent on schedule: that wait is in its response times); the closed loop sent {} requests in "
      "{:.3g} s, users arriving at the open run's {:.4g}/s would have sent {:.0f}. Compare runs of one model",
      closed.source, results::to_string(c.info.model), c.info.users, open.source, c.totals.sent, c.measured_s,
      open.results.info.offered_rps, would);
}

// "the baseline's samples are correlated (its independence check): p50, p99 intervals on its effective
// sample size, p99 widened by batch means": only when an interval is not the independent one.
void add_basis_notes(Comparison& c) {
  const auto note = [&](const char* run, const std::vector<IntervalBasis>& basis) {
    std::string effective, batched;
    for (std::size_t i = 0; i < basis.size(); ++i) {
      const std::string name = percentile_name(c.percentiles[i].percentile);
      if (basis[i] == IntervalBasis::effective) effective += (effective.empty() ? "" : ", ") + name;
      if (basis[i] == IntervalBasis::batch_means) batched += (batched.empty() ? "" : ", ") + name;
    }
    if (effective.empty() && batched.empty()) return;
    std::string s = fmt::format("the {}'s samples are correlated:", run);
    if (!effective.empty()) s += fmt::format(" {} on its effective sample size", effective);
    if (!batched.empty())
      s += fmt::format("{} {} widened by the spread between its seconds (batch means)",
                       effective.empty() ? "" : ";", batched);
    c.notes.push_back(std::move(s));
  };
  note("baseline", c.baseline_basis);
  note("candidate", c.candidate_basis);
}

void judge_not_comparable(Comparison& c, const std::vector<FailOn>& gates, InconclusivePolicy policy) {
  for (const FailOn& g : gates) {
    c.gates.push_back(judge_fail_on(g, std::nullopt, std::nullopt, std::nullopt, Direction::unknown, policy));
    c.gates.back().message = fmt::format("{}: inconclusive, the runs are not comparable; {}", metric_name(g),
                                         policy == InconclusivePolicy::fail
                                             ? "counted as failed (--inconclusive fail)"
                                             : "counted as passed (--inconclusive pass)");
  }
  c.finding = c.not_comparable;
}

}  // namespace

Result<Comparison> compare_runs(const report::ReportInput& baseline, const report::ReportInput& candidate,
                                const CompareSettings& settings) {
  Comparison c;
  c.baseline_source = baseline.source;
  c.candidate_source = candidate.source;
  c.confidence = settings.confidence;
  c.not_comparable = not_comparable_why(baseline, candidate);
  c.comparable = c.not_comparable.empty();
  c.baseline_plan_hash = plan_of(baseline);
  c.candidate_plan_hash = plan_of(candidate);
  c.plan_checked = !c.baseline_plan_hash.empty() && !c.candidate_plan_hash.empty();
  c.same_plan = !c.plan_checked || c.baseline_plan_hash == c.candidate_plan_hash;
  if (c.comparable && !c.same_plan && !settings.allow_different_plans) {
    return usage_error(fmt::format(
        "{} (plan {}) and {} (plan {}) are runs of different plans: their differences would mix the change "
        "you "
        "made with the load you asked for; compare runs of one plan, or pass --allow-different-plans",
        baseline.source, c.baseline_plan_hash.substr(0, 12), candidate.source,
        c.candidate_plan_hash.substr(0, 12)));
  }
  if (!c.same_plan) c.notes.push_back("the runs are of different plans (--allow-different-plans)");
  if (!c.plan_checked) c.notes.push_back("plans not checked: a file records no plan (an .hlog)");
  c.has_counts = baseline.has_counts && candidate.has_counts;
  // Over TLS with --protocol auto the server's ALPN choice decides: one plan may have spoken either.
  if (const std::string bp = results::used_protocol(baseline.results.generator),
      kp = results::used_protocol(candidate.results.generator);
      c.has_counts && bp != kp && bp != "none" && kp != "none") {
    c.notes.push_back(fmt::format("the runs spoke different protocols ({} in the baseline, {} in the candidate): "
                                  "part of any difference is the protocol's (docs/http2.md)",
                                  bp, kp));
  }
  for (const FailOn& g : settings.gates) {
    if (g.metric == FailOn::Metric::capacity) {
      return usage_error(fmt::format(
          "--fail-on '{}': {} and {} are runs; a capacity gate compares two ramp files (ramp --json)", g.text,
          baseline.source, candidate.source));
    }
    if (gate_on_counts(g) && !c.has_counts) {
      return usage_error(
          fmt::format("--fail-on '{}': {} is an .hlog, which holds latencies only; a gate on {} "
                      "needs two results files (run --json)",
                      g.text, baseline.has_counts ? candidate.source : baseline.source, metric_name(g)));
    }
  }
  std::vector<double> ps = settings.percentiles;
  for (const FailOn& g : settings.gates) {
    if (g.metric == FailOn::Metric::percentile) ps.push_back(g.percentile);
  }
  std::sort(ps.begin(), ps.end());
  ps.erase(std::unique(ps.begin(), ps.end()), ps.end());
  const results::RunResults& b = baseline.results;
  const results::RunResults& k = candidate.results;
  c.baseline_has_verdict = baseline.has_counts;
  c.candidate_has_verdict = candidate.has_counts;
  c.baseline_verdict = b.verdict;
  c.candidate_verdict = k.verdict;
  c.baseline_slos = b.slos;
  c.candidate_slos = k.slos;
  c.baseline_response = b.response_time;
  c.candidate_response = k.response_time;
  if (!c.comparable) {
    judge_not_comparable(c, settings.gates, settings.inconclusive);
    return c;
  }
  // Bonferroni over the quantities: each change's interval at 1 − (1 − confidence) / quantities.
  const int quantities = static_cast<int>(ps.size()) + (c.has_counts ? 6 : 0);
  const double z = normal_z(1.0 - (1.0 - settings.confidence) / quantities);
  // Each run's one-second intervals, for the batch-means widening (an interval that does not decode is
  // left out: the reader checked every histogram already).
  const auto intervals_of = [](const report::ReportInput& in) {
    auto h = report::interval_histograms(in, "response_time");
    return h ? std::move(*h) : std::vector<hdr::Histogram>{};
  };
  const std::vector<hdr::Histogram> b_intervals = intervals_of(baseline),
                                    k_intervals = intervals_of(candidate);
  // A results file's own independence check decides whether its samples are correlated; an .hlog has none.
  const auto check_of = [](const report::ReportInput& in) -> const results::IndependenceCheck* {
    return in.has_counts && in.results.checks.independence.tested ? &in.results.checks.independence : nullptr;
  };
  const RunSamples b_run{&b.response_time, &b_intervals, check_of(baseline)};
  const RunSamples k_run{&k.response_time, &k_intervals, check_of(candidate)};
  for (double p : ps) {
    IntervalBasis bb = IntervalBasis::independent, kb = IntervalBasis::independent;
    c.percentiles.push_back(compare_quantile(b_run, k_run, p, z, &bb, &kb));
    c.baseline_basis.push_back(bb);
    c.candidate_basis.push_back(kb);
  }
  add_basis_notes(c);
  if (c.has_counts) add_rates(c, b, k, z);
  if (c.baseline_has_verdict && !b.verdict.valid)
    c.notes.push_back("the baseline run is INVALID: see its verdict");
  if (c.candidate_has_verdict && !k.verdict.valid)
    c.notes.push_back("the candidate run is INVALID: see its verdict");
  judge_gates(c, settings.gates, settings.inconclusive);
  write_finding(c);
  return c;
}

}  // namespace openloop::compare

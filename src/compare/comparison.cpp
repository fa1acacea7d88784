// Builds a Comparison: the plan check, every quantity's change with simultaneous intervals, gates, the
// finding.
#include "compare/comparison.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "results/run_identity.h"

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

void judge_gates(Comparison& c, const std::vector<FailOn>& gates) {
  for (const FailOn& g : gates) {
    if (g.metric == FailOn::Metric::percentile) {
      const auto it = std::find_if(c.percentiles.begin(), c.percentiles.end(),
                                   [&](const QuantileChange& q) { return q.percentile == g.percentile; });
      c.gates.push_back(judge_fail_on(g, it->change, it->low, it->high, it->direction));
      continue;
    }
    const std::string name = metric_name(g);
    bool found = false;
    for (const NamedRate& r : c.rates) {
      if (r.name != name) continue;
      c.gates.push_back(judge_fail_on(g, r.change.change, r.change.low, r.change.high, r.change.direction));
      found = true;
    }
    for (const NamedFraction& f : c.fractions) {
      if (f.name != name || found) continue;
      c.gates.push_back(judge_fail_on(g, f.change.change, f.change.low, f.change.high, f.change.direction));
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

}  // namespace

Result<Comparison> compare_runs(const report::ReportInput& baseline, const report::ReportInput& candidate,
                                const CompareSettings& settings) {
  Comparison c;
  c.baseline_source = baseline.source;
  c.candidate_source = candidate.source;
  c.confidence = settings.confidence;
  c.baseline_plan_hash = plan_of(baseline);
  c.candidate_plan_hash = plan_of(candidate);
  c.plan_checked = !c.baseline_plan_hash.empty() && !c.candidate_plan_hash.empty();
  c.same_plan = !c.plan_checked || c.baseline_plan_hash == c.candidate_plan_hash;
  if (!c.same_plan && !settings.allow_different_plans) {
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
  const int quantities = static_cast<int>(ps.size()) + (c.has_counts ? 6 : 0);
  const double z_runs = per_run_z(settings.confidence, quantities);
  const double z_pairs = normal_z(1.0 - (1.0 - settings.confidence) / quantities);
  const results::RunResults& b = baseline.results;
  const results::RunResults& k = candidate.results;
  // Each run's one-second intervals, for the batch-means widening (an interval that does not decode is
  // left out: the reader checked every histogram already).
  const auto intervals_of = [](const report::ReportInput& in) {
    auto h = report::interval_histograms(in, "response_time");
    return h ? std::move(*h) : std::vector<hdr::Histogram>{};
  };
  const std::vector<hdr::Histogram> b_intervals = intervals_of(baseline),
                                    k_intervals = intervals_of(candidate);
  for (double p : ps) {
    c.percentiles.push_back(
        compare_quantile(b.response_time, k.response_time, p, z_runs, &b_intervals, &k_intervals));
  }
  if (c.has_counts) add_rates(c, b, k, z_pairs);
  c.baseline_has_verdict = baseline.has_counts;
  c.candidate_has_verdict = candidate.has_counts;
  c.baseline_verdict = b.verdict;
  c.candidate_verdict = k.verdict;
  c.baseline_slos = b.slos;
  c.candidate_slos = k.slos;
  if (c.baseline_has_verdict && !b.verdict.valid)
    c.notes.push_back("the baseline run is INVALID: see its verdict");
  if (c.candidate_has_verdict && !k.verdict.valid)
    c.notes.push_back("the candidate run is INVALID: see its verdict");
  c.baseline_response = b.response_time;
  c.candidate_response = k.response_time;
  judge_gates(c, settings.gates);
  write_finding(c);
  return c;
}

}  // namespace openloop::compare

// `run --repeat N`: spread across repeats, the run-to-run variation rule, the repeats added into one run.
#include "results/merging/repeats.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/units.h"
#include "results/files/results_json.h"

namespace openloop::results {
namespace {

constexpr double k_percentiles[] = {50.0, 90.0, 99.0, 99.9};

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// P(Bin(n, ½) < k): the chance that fewer than k of n values fall below the median.
double binomial_half_below(std::size_t n, std::size_t k) {
  double sum = 0, term = std::pow(0.5, static_cast<double>(n));  // C(n, 0) / 2^n
  for (std::size_t i = 0; i < k && i <= n; ++i) {
    sum += term;
    term = term * static_cast<double>(n - i) / static_cast<double>(i + 1);
  }
  return sum;
}

double ms(double ns) {
  return ns / 1e6;
}

std::string percentile_name(double p) {
  return p == 99.9 ? "p99.9" : fmt::format("p{:g}", p);
}

// The summary's own duration formatter (core/units.h), so the repeats block reads "151µs" where the table
// above it does, not "0.151 ms".
std::string duration_text(double ns) {
  return format_duration(Nanos(std::llround(ns)));
}

}  // namespace

std::uint64_t repeat_seed(std::uint64_t base, std::uint64_t k) {
  std::uint64_t z = base + k * 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  // 53 bits: every seed survives a JSON reader that holds numbers as doubles (jq, JavaScript).
  return (z ^ (z >> 31)) & ((std::uint64_t{1} << 53) - 1);
}

MedianInterval median_interval(std::vector<double> values) {
  MedianInterval m;
  if (values.empty()) return m;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  m.min = values.front();
  m.max = values.back();
  m.median = median_of(values);
  m.rank = 1;
  // The largest rank k whose pair (k-th smallest, k-th largest) still covers the median with ≥ 95 %.
  for (std::size_t k = 1; 2 * k <= n; ++k) {
    if (1.0 - 2.0 * binomial_half_below(n, k) < 0.95) break;
    m.rank = k;
  }
  m.confidence = n < 2 ? 0.0 : 1.0 - 2.0 * binomial_half_below(n, m.rank);
  m.reaches_95 = m.confidence >= 0.95;
  m.low = values[m.rank - 1];
  m.high = values[n - m.rank];
  return m;
}

SpreadJudgement judge_spread(const std::vector<RepeatEstimate>& estimates) {
  SpreadJudgement j;
  j.repeats = estimates.size();
  if (estimates.size() < 3) {
    j.why_not = fmt::format("{} repeats: the rule needs 3 or more", estimates.size());
    return j;
  }
  std::vector<double> widths;
  for (std::size_t i = 0; i < estimates.size(); ++i) {
    if (!estimates[i].low || !estimates[i].high) {
      j.why_not = fmt::format(
          "repeat {} has too few samples (after any widening for correlation) to bound this percentile on "
          "both sides",
          i + 1);
      return j;
    }
    widths.push_back(*estimates[i].high - *estimates[i].low);
  }
  j.judged = true;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (std::size_t i = 0; i < estimates.size(); ++i) {
    std::vector<double> others;
    for (std::size_t k = 0; k < estimates.size(); ++k) {
      if (k != i) others.push_back(estimates[k].value);
    }
    const double m = median_of(others);
    if (*estimates[i].low <= m && m <= *estimates[i].high) ++j.covering;
    lo = std::min(lo, estimates[i].value);
    hi = std::max(hi, estimates[i].value);
  }
  j.dominated = j.covering * 2 < j.repeats;
  const double width = median_of(widths);
  j.spread_over_width =
      width > 0 ? (hi - lo) / width : (hi > lo ? std::numeric_limits<double>::infinity() : 0.0);
  return j;
}

std::vector<PercentileSpread> percentile_spreads(const std::vector<RunResults>& runs) {
  std::vector<PercentileSpread> out;
  for (const double p : k_percentiles) {
    PercentileSpread s;
    s.percentile = p;
    std::vector<double> values;
    for (const RunResults& r : runs) {
      const IndependenceCheck* check = r.checks.independence.tested ? &r.checks.independence : nullptr;
      const PercentileInterval in = percentile_interval(r.response_time, p, check);
      RepeatEstimate e;
      e.value = static_cast<double>(in.value);
      if (in.low) e.low = static_cast<double>(*in.low);
      if (in.high) e.high = static_cast<double>(*in.high);
      if (r.response_time.total_count() == 0) e.low = e.high = std::nullopt;
      s.estimates.push_back(e);
      values.push_back(e.value);
    }
    s.across = median_interval(values);
    s.judgement = judge_spread(s.estimates);
    out.push_back(std::move(s));
  }
  return out;
}

bool variation_dominates(const std::vector<PercentileSpread>& spreads) {
  return std::any_of(spreads.begin(), spreads.end(),
                     [](const PercentileSpread& s) { return s.judgement.dominated; });
}

RunResults add_repeats(const std::vector<RunResults>& runs) {
  RunResults total = runs.front();
  total.checks = RunChecks{};  // they belong to one run each
  total.verdict = Verdict{};
  total.generator = GeneratorStats{};
  total.error_examples.clear();
  total.warnings.clear();
  total.interrupted = false;
  total.measured_s = 0;
  total.intervals.clear();
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const RunResults& r = runs[k];
    if (k > 0) total.add(r);
    // Intervals keep their place in time: a repeat's interval i starts at its own offset from the first
    // repeat's start of measurement (cooldowns and warm-ups leave gaps).
    const double offset = r.info.start_unix_s > 0 && runs.front().info.start_unix_s > 0
                              ? r.info.start_unix_s - runs.front().info.start_unix_s
                              : total.measured_s;
    for (IntervalResult in : r.intervals) {
      in.start_s += offset;
      total.intervals.push_back(std::move(in));
    }
    total.measured_s += r.measured_s;
    total.add_metadata(r, fmt::format("repeat {}", k + 1), PartsRan::one_after_another);
    if (!r.verdict.valid) total.verdict.valid = false;
    for (const auto& why : r.verdict.reasons)
      total.verdict.reasons.push_back(fmt::format("repeat {}: {}", k + 1, why));
    total.interrupted = total.interrupted || r.interrupted;
  }
  // add() counts a run without a breakdown as its one request's totals; one request has no breakdown (its
  // intervals carry none either).
  if (std::all_of(runs.begin(), runs.end(), [](const RunResults& r) { return r.by_request.empty(); })) {
    total.by_request.clear();
  }
  return total;
}

nlohmann::json repeat_entry_json(const RepeatSet& set, const std::vector<PercentileSpread>& spreads,
                                 std::size_t k) {
  const RepeatContext& c = set.contexts[k];
  nlohmann::json percentiles = nlohmann::json::object();
  for (const PercentileSpread& s : spreads) {
    const RepeatEstimate& e = s.estimates[k];
    percentiles[percentile_name(s.percentile)] = {
        {"value_ms", ms(e.value)},
        {"low_ms", e.low ? nlohmann::json(ms(*e.low)) : nlohmann::json()},
        {"high_ms", e.high ? nlohmann::json(ms(*e.high)) : nlohmann::json()}};
  }
  return {{"repeat", k + 1},
          {"seed", c.seed},
          {"cooldown_s", c.cooldown_s},
          {"lab_reset", {{"state", c.reset}, {"detail", c.reset_detail}}},
          {"response_time_intervals", percentiles}};
}

nlohmann::json repeats_json(const RepeatSet& set, const std::vector<PercentileSpread>& spreads) {
  nlohmann::json repeats = nlohmann::json::array();
  for (std::size_t k = 0; k < set.runs.size(); ++k) {
    nlohmann::json j = to_json(set.runs[k]);
    j.update(repeat_entry_json(set, spreads, k));
    repeats.push_back(std::move(j));
  }
  return {{"repeats", repeats}, {"repeat_summary", repeat_summary_json(set, spreads)}};
}

nlohmann::json repeat_summary_json(const RepeatSet& set, const std::vector<PercentileSpread>& spreads) {
  nlohmann::json per = nlohmann::json::object();
  for (const PercentileSpread& s : spreads) {
    const MedianInterval& m = s.across;
    const SpreadJudgement& g = s.judgement;
    per[percentile_name(s.percentile)] = {
        {"median_ms", ms(m.median)},
        {"min_ms", ms(m.min)},
        {"max_ms", ms(m.max)},
        {"median_interval",
         {{"low_ms", ms(m.low)},
          {"high_ms", ms(m.high)},
          {"rank", m.rank},
          {"confidence", m.confidence},
          {"reaches_95", m.reaches_95}}},
        {"within_run",
         {{"judged", g.judged},
          {"why_not", g.why_not},
          {"covering", g.covering},
          {"repeats", g.repeats},
          {"dominated", g.dominated},
          {"spread_over_width",
           std::isfinite(g.spread_over_width) ? nlohmann::json(g.spread_over_width) : nlohmann::json()}}}};
  }
  const bool dominated = variation_dominates(spreads);
  return {{"planned", set.planned},
          {"completed", set.runs.size()},
          {"cooldown_s", set.cooldown_s},
          {"lab", set.lab},
          {"totals", "the main results are every repeat's counters and histograms added exactly"},
          {"rule",
           "dominated when fewer than half of the repeats' 95 % within-run intervals contain the median of "
           "the other repeats (3 or more repeats)"},
          {"response_time", per},
          {"variation_dominates", dominated},
          {"flag", dominated ? nlohmann::json(k_variation_flag) : nlohmann::json()}};
}

std::string render_spread(const PercentileSpread& s, std::size_t runs) {
  const MedianInterval& m = s.across;
  const SpreadJudgement& g = s.judgement;
  return fmt::format(
      "{:<6} median {}, range {} – {}, median in [{}, {}] at {:.1f} %{}; {}", percentile_name(s.percentile),
      duration_text(m.median), duration_text(m.min), duration_text(m.max), duration_text(m.low),
      duration_text(m.high), 100 * m.confidence,
      m.reaches_95 || runs < 2 ? "" : fmt::format(" (too few repeats for 95 %: {} needs 6)", runs),
      g.judged ? fmt::format("{} of {} within-run intervals cover the others' median{}", g.covering,
                             g.repeats, g.dominated ? " ✗" : "")
               : "not judged: " + g.why_not);
}

std::string render_repeats(const RepeatSet& set, const std::vector<PercentileSpread>& spreads) {
  std::string out =
      fmt::format("\nrepeats: {} of {}{} (totals above: every repeat's histograms added)\n", set.runs.size(),
                  set.planned, set.cooldown_s > 0 ? fmt::format(", {:g} s cooldown", set.cooldown_s) : "");
  for (std::size_t k = 0; k < set.runs.size(); ++k) {
    const RunResults& r = set.runs[k];
    const RepeatContext& c = set.contexts[k];
    std::string pcts;
    for (const PercentileSpread& s : spreads) {
      pcts += fmt::format(" {} {}", percentile_name(s.percentile), duration_text(s.estimates[k].value));
    }
    out += fmt::format("  #{:<3} seed {:<20} {:>8} sent {}{}{}{}\n", k + 1, c.seed, r.totals.sent,
                       r.verdict.valid ? "valid" : "INVALID", r.interrupted ? " (interrupted)" : "", pcts,
                       c.reset == "none" ? std::string() : fmt::format("  lab reset: {}", c.reset));
  }
  for (const PercentileSpread& s : spreads) out += "  " + render_spread(s, set.runs.size()) + "\n";
  if (variation_dominates(spreads)) out += fmt::format("  {}\n", k_variation_flag);
  return out;
}

}  // namespace openloop::results

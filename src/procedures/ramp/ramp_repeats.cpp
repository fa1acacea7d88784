// A ramp step's repeats: the repeat it is judged on, the spread across them, their agreement.
#include "procedures/ramp/ramp_repeats.h"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "core/units.h"

namespace openloop::procedures {
namespace {

constexpr std::size_t k_p99 = 2;  // StepAnalysis::latency: p50, p90, p99, p99.9

// What a repeat said: "pass", "SLO not met", "UNSTEADY", "INVALID".
std::string verdict_of(const StepRecord& r) {
  if (r.analysis.state != StepState::steady) return to_string(r.analysis.state);
  return r.slos_met ? "pass" : "SLO not met";
}

std::string disagreement(const std::vector<StepRecord>& repeats) {
  std::vector<std::string> said;
  for (const auto& r : repeats) said.push_back(verdict_of(r));
  if (std::all_of(said.begin(), said.end(), [&](const std::string& v) { return v == said.front(); }))
    return {};
  std::string out = "repeats disagree:";
  for (std::size_t k = 0; k < said.size(); ++k)
    out += fmt::format("{} #{} {}", k == 0 ? "" : ",", k + 1, said[k]);
  return out;
}

}  // namespace

std::size_t median_repeat(const std::vector<StepRecord>& repeats) {
  std::vector<std::size_t> order(repeats.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const bool invalid_a = repeats[a].analysis.state == StepState::invalid;
    const bool invalid_b = repeats[b].analysis.state == StepState::invalid;
    if (invalid_a != invalid_b) return invalid_b;
    return repeats[a].analysis.latency[k_p99].value < repeats[b].analysis.latency[k_p99].value;
  });
  return order[repeats.size() / 2];
}

StepRecord combine_repeats(std::vector<StepRecord> repeats, results::RepeatSet set) {
  set.runs.clear();
  for (const auto& r : repeats) {
    // The window as a run, with the step's own independence check, so each repeat's intervals are the ones
    // the step shows (widened on its effective n).
    results::RunResults window = r.analysis.results;
    window.checks.independence = r.analysis.independence;
    set.runs.push_back(std::move(window));
  }
  const std::size_t chosen = median_repeat(repeats);
  StepRecord step = repeats[chosen];
  step.judged_on = chosen;
  step.spreads = results::percentile_spreads(set.runs);
  step.disagreement = disagreement(repeats);
  step.repeat_set = std::move(set);
  step.repeats = std::move(repeats);
  return step;
}

std::string repeats_line(const StepRecord& step) {
  if (step.repeats.empty()) return {};
  const results::PercentileSpread* p99 = nullptr;
  for (const auto& s : step.spreads) {
    if (s.percentile == 99.0) p99 = &s;
  }
  std::string out = fmt::format("{} of {} repeats", step.repeats.size(), step.repeat_set.planned);
  if (p99 != nullptr) {
    out +=
        fmt::format(": p99 median {}, range {} – {}", format_duration(from_seconds(p99->across.median / 1e9)),
                    format_duration(from_seconds(p99->across.min / 1e9)),
                    format_duration(from_seconds(p99->across.max / 1e9)));
  }
  out += fmt::format("; judged on #{} (upper median p99)", step.judged_on + 1);
  if (results::variation_dominates(step.spreads)) out += fmt::format("; {}", results::k_variation_flag);
  if (!step.disagreement.empty()) out += "; " + step.disagreement;
  return out;
}

}  // namespace openloop::procedures

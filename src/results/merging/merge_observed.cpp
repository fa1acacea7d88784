// Merged runs' observed signals: kept per input under its label, never summed.
#include "results/merging/merge_observed.h"

#include <limits>

#include <fmt/format.h>

namespace openloop::results {

void merge_observed(const std::vector<ObservedPart>& parts, RunResults& r) {
  std::size_t columns = 0;
  std::string labels, without;
  for (const ObservedPart& p : parts) {
    const Observed& o = p.results->observed;
    if (o.empty()) {
      without += (without.empty() ? "" : ", ") + p.label;
      continue;
    }
    columns += o.signals.size();
    labels += (labels.empty() ? "" : ", ") + p.label;
  }
  if (labels.empty()) return;
  Observed out;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // The merged run's intervals were just built in memory (merge), so updating them cannot fail.
  for (std::size_t k = 0; k < r.intervals.size(); ++k)
    (void)r.intervals.update(k, [&](IntervalResult& i) { i.observed.assign(columns, nan); });
  std::size_t first = 0;
  for (const ObservedPart& p : parts) {
    const Observed& o = p.results->observed;
    if (o.empty()) continue;
    for (const auto& spec : o.sources) out.sources.push_back(labelled_source(spec, p.label));
    for (ObservedSignal s : o.signals) {
      s.source = labelled_source(s.source, p.label);
      out.signals.push_back(std::move(s));
    }
    const auto& intervals = p.results->intervals;
    for (std::size_t k = 0; k < intervals.size() && k < p.landed.size(); ++k) {
      const std::int64_t at = p.landed[k];
      if (at < 0 || static_cast<std::size_t>(at) >= r.intervals.size()) continue;
      const std::vector<double> from = intervals[k].observed;
      (void)r.intervals.update(static_cast<std::size_t>(at), [&](IntervalResult& i) {
        for (std::size_t c = 0; c < from.size() && c < o.signals.size(); ++c) i.observed[first + c] = from[c];
      });
    }
    first += o.signals.size();
    out.sampler.period_s = o.sampler.period_s;
    out.sampler.samples += o.sampler.samples;
    out.sampler.cpu_s += o.sampler.cpu_s;
    out.sampler.wall_s += o.sampler.wall_s;
  }
  out.merged = fmt::format(
      "merged: each input's observations kept under its label ({}), not summed: a host's or a process's "
      "signals belong to the machine that sampled them, and each generator has its own self line; the "
      "sampler's samples and CPU are the inputs' totals{}",
      labels, without.empty() ? std::string() : fmt::format("; observed nothing: {}", without));
  r.observed = std::move(out);
}

}  // namespace openloop::results

// Coordinated omission: expected intervals and the corrected histogram.
#include "audit/omission.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "core/units.h"

namespace openloop::audit {
namespace {

constexpr std::int64_t k_highest = 3'600'000'000'000LL;  // 1 h in ns

}  // namespace

hdr::Histogram response_histogram() {
  return hdr::Histogram(1, k_highest, 3);
}

PercentileSet percentiles_of(const hdr::Histogram& h) {
  PercentileSet p;
  p.count = h.total_count();
  if (p.count == 0) return p;
  p.p50 = Nanos(h.value_at_percentile(50));
  p.p90 = Nanos(h.value_at_percentile(90));
  p.p99 = Nanos(h.value_at_percentile(99));
  p.p999 = Nanos(h.value_at_percentile(99.9));
  p.max = Nanos(h.max());
  return p;
}

OmissionCorrector::OmissionCorrector(const std::map<std::string, SenderStats>& senders, LoadModel model,
                                     Nanos pooled, std::string pooled_why) {
  if (model == LoadModel::open) {
    m_why =
        "the file shows an open model: a slow response does not hold back the next send, so nothing was "
        "omitted by coordination";
    return;
  }
  std::vector<Nanos> medians;
  for (const auto& [name, s] : senders) {
    if (s.pairs() >= 3) {
      m_intervals[name] = s.median_interval();
      medians.push_back(s.median_interval());
    }
  }
  if (!medians.empty()) {
    std::nth_element(medians.begin(), medians.begin() + static_cast<std::ptrdiff_t>(medians.size() / 2),
                     medians.end());
    m_default = medians[medians.size() / 2];
    m_why = fmt::format(
        "each sender's median time between its own sends ({} senders; median over them {}): a "
        "median is set by the healthy stretches when they are more than half the run; no "
        "configured pacing in the file",
        medians.size(), format_duration(m_default));
  } else if (model == LoadModel::unknown) {
    m_why = "the file names no sender and its load model is unknown: no expected interval to correct with";
    return;
  } else {
    m_default = pooled;
    m_why = std::move(pooled_why);
  }
  m_applicable = m_default > Nanos(0);
  if (!m_applicable)
    m_why = "no expected interval could be found (no sender has 3 sends and no pooled value)";
}

Nanos OmissionCorrector::interval_of(const std::string& sender) const {
  if (auto it = m_intervals.find(sender); it != m_intervals.end() && it->second > Nanos(0)) return it->second;
  return m_default;
}

void OmissionCorrector::add(const Record& r) {
  const std::int64_t value = std::clamp<std::int64_t>(r.duration.count(), 0, k_highest);
  if (!m_applicable) {
    m_corrected.record(value);
    return;
  }
  const Nanos expected = interval_of(r.thread);
  m_corrected.record_with_expected_interval(value, expected.count());
  if (expected > Nanos(0) && r.duration >= 2 * expected) {
    ++m_blocked;
    m_missing += r.duration / expected - 1;
  }
}

OmissionFinding OmissionCorrector::finish(const hdr::Histogram& uncorrected) const {
  OmissionFinding f;
  f.applicable = m_applicable;
  f.why = m_why;
  f.expected_interval = m_default;
  f.blocked = m_blocked;
  f.missing = m_missing;
  f.uncorrected = percentiles_of(uncorrected);
  f.corrected = percentiles_of(m_corrected);
  return f;
}

}  // namespace openloop::audit

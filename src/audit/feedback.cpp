// Offered rate against latency over time.
#include "audit/feedback.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/units.h"

namespace openloop::audit {
namespace {

template <class T>
T median(std::vector<T> v) {
  if (v.empty()) return T{};
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

}  // namespace

FeedbackFinding find_feedback(const TimeBins& bins) {
  FeedbackFinding f;
  f.bin_width = bins.width();
  const auto& map = bins.bins();
  if (map.empty()) {
    f.sentence = "no requests: no feedback to show";
    return f;
  }
  const double width_s = to_seconds(bins.width());
  std::int64_t first = map.begin()->first, last = map.rbegin()->first;
  for (std::int64_t i = first; i <= last; ++i) {
    FeedbackBin b;
    b.offset = i * bins.width();
    if (auto it = map.find(i); it != map.end()) {
      b.sent = it->second.sent;
      b.p99 = Nanos(it->second.latency_us.value_at_percentile(99) * 1000);
    }
    b.sent_per_s = static_cast<double>(b.sent) / width_s;
    f.bins.push_back(b);
  }
  // The partial first and last bins would read as a rate drop.
  std::size_t lo = 0, hi = f.bins.size();
  if (f.bins.size() > 4) {
    lo = 1;
    hi = f.bins.size() - 1;
  }
  std::vector<double> rates;
  std::vector<Nanos> p99s;
  for (std::size_t i = lo; i < hi; ++i) {
    rates.push_back(f.bins[i].sent_per_s);
    if (f.bins[i].sent > 0) p99s.push_back(f.bins[i].p99);
  }
  f.healthy_rate = median(rates);
  f.healthy_p99 = median(p99s);
  hdr::Histogram slow_latency(1, 3'600'000'000LL, 2);
  std::int64_t slow_sent = 0, slow_bins = 0;
  for (std::size_t i = lo; i < hi; ++i) {
    const FeedbackBin& b = f.bins[i];
    const bool slow = (b.sent > 0 && b.p99 >= 2 * f.healthy_p99) || b.sent_per_s < 0.5 * f.healthy_rate;
    if (!slow) continue;
    ++slow_bins;
    slow_sent += b.sent;
    if (auto it = map.find(first + static_cast<std::int64_t>(i)); it != map.end()) {
      slow_latency.add(it->second.latency_us);
    }
  }
  const std::string bins_said = fmt::format("bins of {} by send time", format_duration(bins.width()));
  if (slow_bins == 0 || slow_latency.total_count() == 0) {
    f.sentence = fmt::format("no slow stretch: the rate held near {} and p99 near {} ({})",
                             format_rate(f.healthy_rate), format_duration(f.healthy_p99), bins_said);
    return f;
  }
  f.worst_rate = static_cast<double>(slow_sent) / (static_cast<double>(slow_bins) * width_s);
  f.worst_p99 = Nanos(slow_latency.value_at_percentile(99) * 1000);
  const double drop = f.healthy_rate > 0 ? 1 - f.worst_rate / f.healthy_rate : 0;
  f.seen = drop >= 0.2 && f.worst_p99 >= 2 * f.healthy_p99;
  f.sentence =
      fmt::format("{} {:.0f} % ({} → {}) while p99 rose from {} to {} in the slow stretches ({} of {} {})",
                  drop >= 0 ? "arrivals fell" : "arrivals rose", 100 * std::abs(drop),
                  format_rate(f.healthy_rate), format_rate(f.worst_rate), format_duration(f.healthy_p99),
                  format_duration(f.worst_p99), slow_bins, hi - lo, bins_said);
  if (!f.seen) f.sentence += ": no feedback (the rate did not fall with the latency)";
  return f;
}

}  // namespace openloop::audit

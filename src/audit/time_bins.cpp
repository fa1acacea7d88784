// Requests counted by send time in bins that widen as the run grows.
#include "audit/time_bins.h"

#include <algorithm>

namespace openloop::audit {
namespace {

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

}  // namespace

void TimeBins::add(Nanos start, Nanos duration) {
  const std::int64_t index = floor_div((start - m_origin).count(), m_width.count());
  Bin& bin = m_bins[index];
  ++bin.sent;
  bin.latency_us.record(std::clamp<std::int64_t>(duration.count() / 1000, 0, 3'600'000'000LL));
  // The bins from the first to the last are what the feedback walks (empty ones count at rate 0): bound their
  // span, not only the bins that hold sends, or two sends years apart would make billions of them.
  while (m_bins.rbegin()->first - m_bins.begin()->first >= static_cast<std::int64_t>(k_max_bins)) widen();
}

void TimeBins::widen() {
  std::map<std::int64_t, Bin> wider;
  for (auto& [index, bin] : m_bins) {
    Bin& into = wider[floor_div(index, 2)];
    into.sent += bin.sent;
    into.latency_us.add(bin.latency_us);
  }
  m_bins = std::move(wider);
  m_width *= 2;
}

}  // namespace openloop::audit

// A pace found in the spacing of unattributed sends.
#include "audit/pace_detector.h"

#include <algorithm>

namespace openloop::audit {
namespace {

constexpr Nanos k_longest{2'000'000'000};  // spacings counted up to 2 s
constexpr Nanos k_shortest{1'000'000};     // and from 1 ms: bursts of sends at once are not a pace

}  // namespace

PaceDetector::PaceDetector(Nanos resolution)
    : m_bin(std::max(Nanos(250'000), 2 * resolution)),
      m_counts(static_cast<std::size_t>(k_longest / m_bin) + 1, 0) {}

void PaceDetector::learn(Nanos start) {
  const std::size_t known = std::min(m_seen, k_recent);
  for (std::size_t back = 1; back <= known; ++back) {
    const Nanos gap = start - m_recent[(m_seen - back) % k_recent];
    if (gap > k_longest) break;
    if (gap >= k_shortest) ++m_counts[static_cast<std::size_t>(gap / m_bin)];
  }
  m_recent[m_seen % k_recent] = start;
  ++m_seen;
}

std::optional<Pace> PaceDetector::find(double min_share) const {
  if (m_seen < 20) return std::nullopt;
  const std::size_t n = m_counts.size();
  const std::size_t first = static_cast<std::size_t>(k_shortest / m_bin) + 1;
  // A peak is a three-bin window's count above the median window in [b/2, 3b/2] without the peak itself:
  // other senders' sends fall evenly around it; one sender's previous send falls in it.
  auto window = [&](std::size_t b) {
    return m_counts[b - 1] + m_counts[b] + (b + 1 < n ? m_counts[b + 1] : 0);
  };
  std::vector<std::int64_t> excess(n, 0);
  std::vector<std::int64_t> around;
  for (std::size_t b = first; b + 1 < n; ++b) {
    const std::int64_t here = window(b);
    // The excess is at most the window: a window below the share cannot peak (and most are skipped cheaply).
    if (static_cast<double>(here) < min_share * static_cast<double>(m_seen)) continue;
    around.clear();
    for (std::size_t a = std::max(first, b / 2); a <= std::min(n - 2, b + b / 2); ++a) {
      if (a + 2 < b || a > b + 2) around.push_back(window(a));
    }
    if (around.empty()) continue;
    std::nth_element(around.begin(), around.begin() + static_cast<std::ptrdiff_t>(around.size() / 2),
                     around.end());
    excess[b] = here - around[around.size() / 2];
  }
  const std::int64_t best = *std::max_element(excess.begin(), excess.end());
  const double total = static_cast<double>(m_seen);
  if (best <= 0 || static_cast<double>(best) < min_share * total) return std::nullopt;
  // The shortest spacing that peaks about as high: multiples of the pace peak as high as the pace (each send
  // has its own sender's sends at 2I, 3I, ... before it), while the spacing between two senders' phases
  // peaks with only one of them: at most half as high when there are two.
  for (std::size_t b = first; b + 1 < n; ++b) {
    if (4 * excess[b] < 3 * best) continue;
    while (b + 2 < n && excess[b + 1] > excess[b]) ++b;  // to the top of this peak
    // The bin's centre of mass within its window.
    double weight = 0, sum = 0;
    for (std::size_t a = b - 1; a <= b + 1; ++a) {
      weight += static_cast<double>(m_counts[a]);
      sum += static_cast<double>(m_counts[a]) * (static_cast<double>(a) + 0.5);
    }
    const Nanos interval(static_cast<std::int64_t>(sum / weight * static_cast<double>(m_bin.count())));
    return Pace{interval, std::min(1.0, static_cast<double>(excess[b]) / total)};
  }
  return std::nullopt;
}

}  // namespace openloop::audit

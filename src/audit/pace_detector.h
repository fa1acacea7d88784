// A pace in sends that name no sender: when each of N senders sends every I, nearly every send has another
// send exactly I before it, so the spacing between sends peaks at I above the background of other senders'.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/time.h"

namespace openloop::audit {

struct Pace {
  Nanos interval{0};  ///< the pace: the spacing with the largest excess over its neighbourhood
  double share =
      0;  ///< sends with another send one interval (± a bin) before them, above the background (≤ 1)
};

/// Learns send stamps in (roughly) send order; finds the pace from the spacings between each send and the
/// sends shortly before it (at most 256 of them, within 2 s: a pace longer than 256 sends' span is not
/// seen). Memory and work per send are fixed.
class PaceDetector {
 public:
  /// `resolution`: the stamps' resolution; spacings are counted in bins of max(250 µs, 2 × resolution).
  explicit PaceDetector(Nanos resolution);
  void learn(Nanos start);
  /// The pace, when the excess at it accounts for at least `min_share` of the sends; the shortest spacing
  /// that peaks at least 3/4 as high as the highest (its multiples peak as well). Senders whose phases split
  /// the pace evenly are a faster pace to this, by construction; phases at random or together are found.
  std::optional<Pace> find(double min_share = 0.5) const;

 private:
  static constexpr std::size_t k_recent = 256;
  Nanos m_bin{0};
  std::vector<std::int64_t> m_counts;  ///< spacings by bin, up to 2 s
  std::array<Nanos, k_recent> m_recent{};
  std::size_t m_seen = 0;
};

}  // namespace openloop::audit

// Offline Kneedle on a handful of points: normalise, take the distance from the chord, confirm a local
// maximum.
#include "procedures/ramp/ramp_knee.h"

#include <algorithm>
#include <vector>

namespace openloop::procedures {
namespace {

std::vector<double> normalised(std::span<const double> v) {
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  std::vector<double> out;
  out.reserve(v.size());
  for (const double e : v) out.push_back((e - *lo) / (*hi - *lo));
  return out;
}

// Distance of each normalised point from the chord between the first and last point, positive on the side the
// curve bends to, so the knee is a maximum whatever the shape.
std::vector<double> difference_curve(const std::vector<double>& xn, const std::vector<double>& yn,
                                     KneeShape shape, KneeDirection direction) {
  std::vector<double> d(xn.size());
  for (std::size_t i = 0; i < xn.size(); ++i) {
    const double chord = direction == KneeDirection::increasing ? xn[i] : 1.0 - xn[i];
    d[i] = shape == KneeShape::concave ? yn[i] - chord : chord - yn[i];
  }
  return d;
}

}  // namespace

std::optional<std::size_t> find_knee(std::span<const double> x, std::span<const double> y, KneeShape shape,
                                     KneeDirection direction, double sensitivity) {
  const std::size_t n = x.size();
  if (n < 3 || y.size() != n) return std::nullopt;
  if (x.front() == x.back() ||
      *std::max_element(y.begin(), y.end()) == *std::min_element(y.begin(), y.end())) {
    return std::nullopt;
  }
  const std::vector<double> xn = normalised(x), yn = normalised(y);
  const std::vector<double> d = difference_curve(xn, yn, shape, direction);
  // The threshold a maximum must be followed by: S times the mean spacing of the normalised x (= 1 / (n −
  // 1)).
  const double drop = sensitivity * (xn.back() - xn.front()) / static_cast<double>(n - 1);
  bool armed = false;
  double threshold = 0;
  std::size_t candidate = 0;
  for (std::size_t i = 1; i + 1 < n; ++i) {
    if (d[i] >= d[i - 1] && d[i] >= d[i + 1]) {
      armed = true;
      candidate = i;
      threshold = d[i] - drop;
    } else if (armed && d[i] <= d[i - 1] && d[i] <= d[i + 1]) {
      // At a local minimum the paper resets the threshold to 0: the difference curve must turn negative to
      // confirm the earlier maximum from here on.
      threshold = 0;
    }
    if (armed && d[i + 1] < threshold) return candidate;
  }
  return std::nullopt;
}

}  // namespace openloop::procedures

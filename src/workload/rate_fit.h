// A trace's rate over time fitted as a constant rate or as stages, and its arrivals as constant or Poisson
// (`openloop trace fit`).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace openloop::workload {

/// A stretch of the trace and the records in it.
struct RateWindow {
  double start_s = 0;   ///< from the first record
  double length_s = 0;  ///< > 0
  std::uint64_t count = 0;
  double rate() const { return static_cast<double>(count) / length_s; }
};

/// The fitted shape of the arrivals.
struct RateFit {
  double window_s = 0;              ///< the windows' nominal length
  std::vector<RateWindow> windows;  ///< in time order, covering the whole span
  double span_s = 0;                ///< Σ window lengths
  double mean_rate = 0;             ///< records / span_s
  /// Index of dispersion of the whole seconds' counts with a linear trend removed: half the variance of their
  /// successive differences (about the differences' mean), over the counts' mean. ~1 Poisson, < 1 paced,
  /// > 1 bursty.
  double dispersion = 0;
  bool dispersion_known = false;  ///< false with fewer than three whole seconds (too short to test)
  /// Some window's rate lies outside the band a constant rate allows: max(10 % of the mean, 4 standard
  /// deviations of its count, with the variance the dispersion implies (at least Poisson's)).
  bool varies = false;
  double worst_deviation = 0;  ///< max over windows of |rate − mean| / mean
  bool poisson = true;         ///< arrivals: Poisson unless the dispersion is known and below 0.5 (paced)
};

/// Fits `per_second`: records in each whole second of the trace's clock, from the first record's second to
/// the last's (TraceProfile::rate_series()). `first_bin_s` is how much of the first second the trace covers
/// (from its first record to the second's end), `last_bin_s` how much of the last (from the second's start to
/// the last record); with one second, `first_bin_s` is the span. Both are clamped to at least 1 ms.
/// `window_s` > 0 sets the windows' length (rounded up to whole seconds); 0 picks the longer of 1 s, 1/30 of
/// the span and the time the mean rate takes to bring 200 records. A window shorter than half the nominal
/// length (the trace's ragged ends) is merged into its neighbour.
RateFit fit_rate(std::span<const std::uint64_t> per_second, double first_bin_s, double last_bin_s,
                 double window_s = 0);

}  // namespace openloop::workload

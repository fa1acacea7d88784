// The percentile spectrum (.hgrm text), byte-identical to Java's
// AbstractHistogram.outputPercentileDistribution.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hdr/histogram.h"

namespace openloop::hdr {

/// One step of Java's PercentileIterator.
struct PercentileRow {
  std::int64_t value = 0;         ///< highest equivalent value of the bucket reached (histogram units)
  double percentile_level = 0.0;  ///< the level iterated to, in [0, 100]
  std::int64_t total_count = 0;   ///< cumulative count up to and including this bucket
};

/// The percentile spectrum: levels 0, then `ticks_per_half_distance` equal steps per half of the
/// remaining distance to 100 (10, 20, ..., 50, 55, ... for 5), one row per level reached, and a final
/// row at 100. Empty histogram → no rows. ticks_per_half_distance ≥ 1.
std::vector<PercentileRow> percentile_spectrum(const Histogram& h, int ticks_per_half_distance = 5);

struct PercentileOutputOptions {
  int ticks_per_half_distance = 5;        ///< ≥ 1, Java's percentileTicksPerHalfDistance
  double value_unit_scaling_ratio = 1.0;  ///< values are divided by this (1e6: ns recorded, ms printed)
  bool csv = false;                       ///< Java's useCsvFormat (no footer, "Infinity" last column)
};

/// The full .hgrm text (header, rows, and for the plain form the Mean/Max/Buckets footer), formatted as
/// Java prints it: values with significant_digits() decimals, Java's half-up %f rounding.
std::string percentile_distribution(const Histogram& h, const PercentileOutputOptions& options = {});

}  // namespace openloop::hdr

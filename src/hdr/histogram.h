// HdrHistogram: high-dynamic-range histogram of non-negative integer values, held to the Java reference
// (../shared/reference/hdrhistogram.md) value for value. openloop records nanoseconds.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace openloop::hdr {

/// A histogram of int64 values in [lowest_discernible, highest_trackable] with `significant_digits` (1..5)
/// decimal digits of precision. Recording is O(1), allocation-free and exception-free (except when an
/// auto-resizing histogram grows). Not thread-safe: one writer; merge copies with add().
///
/// As in Java, the trackable range is what the counts array covers: the highest value that fits is
/// highest_equivalent(value_from_index(counts_length() − 1)), which may exceed highest_trackable_value().
class Histogram {
 public:
  /// Fixed range. Preconditions (checked by `valid_parameters`): lowest ≥ 1, highest ≥ 2·lowest, 1 ≤ digits
  /// ≤ 5.
  Histogram(std::int64_t lowest_discernible, std::int64_t highest_trackable, int significant_digits);
  /// Auto-resizing, as Java's `new Histogram(digits)`: lowest 1, starts at highest 2, grows on demand.
  static Histogram auto_resizing(int significant_digits);
  /// True when the parameters describe a valid layout (also rejects lowest/digits combinations whose
  /// sub-buckets would not fit in 62 bits, as Java does).
  static bool valid_parameters(std::int64_t lowest, std::int64_t highest, int digits);

  /// Records one value. Returns false (and records nothing) if value < 0 or above the trackable range
  /// of a fixed-range histogram.
  bool record(std::int64_t value) { return record(value, 1); }
  /// Records `count` occurrences of value. Returns false (and records nothing) if value < 0, count < 0 or
  /// value is above the trackable range of a fixed-range histogram. Inline and branch-light: the hot path.
  bool record(std::int64_t value, std::int64_t count);
  /// Records value and, for coordinated-omission correction, value − I, value − 2I, ... while ≥ I.
  /// I ≤ 0 records value only. Cost is O(buckets touched), not O(value / I).
  bool record_with_expected_interval(std::int64_t value, std::int64_t expected_interval);

  /// Adds every count of `other` (exact merge). Values of `other` outside this range: auto-resizing
  /// histograms grow; fixed ones return false and add nothing.
  bool add(const Histogram& other);
  /// Clears all counts (layout kept).
  void reset();
  /// Turns growth on out-of-range values on or off (Java's setAutoResize; decoded histograms have it on).
  void set_auto_resize(bool enabled) { m_auto_resize = enabled; }

  std::int64_t total_count() const { return m_total_count; }
  /// Value at percentile p in [0, 100], Java semantics (highest equivalent value of the bucket).
  std::int64_t value_at_percentile(double percentile) const;
  /// highestEquivalent(max recorded), 0 when empty.
  std::int64_t max() const;
  /// lowestEquivalent(min recorded), 0 when empty or when a value in the lowest unit bucket was recorded.
  std::int64_t min() const;
  /// Mean of the median-equivalent values; 0 when empty.
  double mean() const;
  /// Population standard deviation of the median-equivalent values; 0 when empty.
  double stddev() const;
  /// Count recorded at values equivalent to `value`; 0 when out of range.
  std::int64_t count_at_value(std::int64_t value) const;

  // Layout, as the reference names it.
  std::int64_t lowest_discernible_value() const { return m_lowest; }
  std::int64_t highest_trackable_value() const { return m_highest; }
  int significant_digits() const { return m_digits; }
  bool is_auto_resizing() const { return m_auto_resize; }
  std::int32_t bucket_count() const { return m_bucket_count; }
  std::int32_t sub_bucket_count() const { return m_sub_bucket_count; }
  std::int32_t counts_length() const { return static_cast<std::int32_t>(m_counts.size()); }
  std::int32_t unit_magnitude() const { return m_unit_magnitude; }

  /// Counts-array index for value ≥ 0 (may be ≥ counts_length() for values out of range).
  std::int32_t counts_index_for(std::int64_t value) const;
  std::int64_t value_from_index(std::int32_t index) const;
  /// Precondition: 0 ≤ index < counts_length().
  std::int64_t count_at_index(std::int32_t index) const { return m_counts[static_cast<std::size_t>(index)]; }
  /// One past the highest index holding a count (0 when empty): every count from there on is zero, so a walk over
  /// the counts stops there. The array spans the whole trackable range (about 33,000 counts for nanoseconds up to
  /// an hour), a run's values seldom a third of it.
  std::int32_t used_length() const;
  std::int64_t size_of_equivalent_range(std::int64_t value) const;
  std::int64_t lowest_equivalent(std::int64_t value) const;
  std::int64_t highest_equivalent(std::int64_t value) const;
  std::int64_t median_equivalent(std::int64_t value) const;
  /// Raw max recorded value and raw min recorded non-zero value above the unit bucket (before
  /// equivalence), for encoders and iteration. raw_min() is INT64_MAX when there is none.
  std::int64_t raw_max() const { return m_max; }
  std::int64_t raw_min() const { return m_min; }

  /// Equal layout parameters and equal counts (the auto-resize flag is not compared).
  friend bool operator==(const Histogram& a, const Histogram& b);

 private:
  // Implementation-defined members (see histogram.cpp).
  void init_layout(std::int64_t lowest, std::int64_t highest, int digits);
  void resize(std::int64_t new_highest);
  std::int32_t bucket_index(std::int64_t value) const;
  std::int32_t buckets_needed_for(std::int64_t value) const;
  bool record_out_of_range(std::int64_t value, std::int64_t count);
  void add_same_layout(const Histogram& other);
  void update_min_max(std::int64_t value) {
    if (value > m_max) m_max = value;
    if (value < m_min && value > m_unit_magnitude_mask) m_min = value;
  }

  std::int64_t m_lowest = 1;
  std::int64_t m_highest = 2;
  int m_digits = 3;
  bool m_auto_resize = false;
  std::int32_t m_unit_magnitude = 0;
  std::int32_t m_sub_bucket_count_magnitude = 0;
  std::int32_t m_sub_bucket_half_count_magnitude = 0;
  std::int32_t m_sub_bucket_count = 0;
  std::int32_t m_sub_bucket_half_count = 0;
  std::int64_t m_sub_bucket_mask = 0;
  std::int64_t m_unit_magnitude_mask = 0;
  std::int32_t m_leading_zero_count_base = 0;
  std::int32_t m_bucket_count = 0;
  std::int64_t m_total_count = 0;
  std::int64_t m_max = 0;          // raw max recorded (0 when empty)
  std::int64_t m_min = INT64_MAX;  // raw min non-zero recorded (INT64_MAX when none)
  std::vector<std::int64_t> m_counts;
};

// The hot path, inline: one clz, shifts, one bounds check, no allocation.

inline std::int32_t Histogram::bucket_index(std::int64_t value) const {
  // value | mask is never 0, so countl_zero is in [0, 63].
  const auto bits = static_cast<std::uint64_t>(value | m_sub_bucket_mask);
  return m_leading_zero_count_base - static_cast<std::int32_t>(std::countl_zero(bits));
}

inline std::int32_t Histogram::counts_index_for(std::int64_t value) const {
  const std::int32_t bucket = bucket_index(value);
  const auto sub_bucket = static_cast<std::int32_t>(value >> (bucket + m_unit_magnitude));
  return ((bucket + 1) << m_sub_bucket_half_count_magnitude) + (sub_bucket - m_sub_bucket_half_count);
}

inline bool Histogram::record(std::int64_t value, std::int64_t count) {
  if ((value | count) < 0) return false;
  const std::int32_t index = counts_index_for(value);
  if (index >= static_cast<std::int32_t>(m_counts.size())) [[unlikely]] {
    return record_out_of_range(value, count);
  }
  m_counts[static_cast<std::size_t>(index)] += count;
  m_total_count += count;
  update_min_max(value);
  return true;
}

}  // namespace openloop::hdr

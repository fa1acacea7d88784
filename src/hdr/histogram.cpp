// HdrHistogram layout, growth, merge and statistics, following the Java reference's arithmetic exactly.
#include "hdr/histogram.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace openloop::hdr {

namespace {

// ceil(log2(2·10^d)) for d = 1..5 (the reference computes it in floating point; these are its results).
constexpr std::int32_t k_sub_bucket_count_magnitudes[] = {0, 5, 8, 11, 15, 18};

std::int32_t floor_log2(std::int64_t value) {
  return 63 - static_cast<std::int32_t>(std::countl_zero(static_cast<std::uint64_t>(value)));
}

}  // namespace

bool Histogram::valid_parameters(std::int64_t lowest, std::int64_t highest, int digits) {
  if (digits < 1 || digits > 5) return false;
  if (lowest < 1 || lowest > std::numeric_limits<std::int64_t>::max() / 2) return false;
  if (highest < 2 * lowest) return false;
  // Java: unitMagnitude + subBucketHalfCountMagnitude must not exceed 61 so shifts cannot overflow.
  return floor_log2(lowest) + k_sub_bucket_count_magnitudes[digits] - 1 <= 61;
}

Histogram::Histogram(std::int64_t lowest_discernible, std::int64_t highest_trackable,
                     int significant_digits) {
  assert(valid_parameters(lowest_discernible, highest_trackable, significant_digits));
  init_layout(lowest_discernible, highest_trackable, significant_digits);
}

Histogram Histogram::auto_resizing(int significant_digits) {
  Histogram h(1, 2, significant_digits);
  h.m_auto_resize = true;
  return h;
}

void Histogram::init_layout(std::int64_t lowest, std::int64_t highest, int digits) {
  m_lowest = lowest;
  m_digits = digits;
  m_unit_magnitude = floor_log2(lowest);
  m_unit_magnitude_mask = (std::int64_t{1} << m_unit_magnitude) - 1;
  m_sub_bucket_count_magnitude = k_sub_bucket_count_magnitudes[digits];
  m_sub_bucket_half_count_magnitude = m_sub_bucket_count_magnitude - 1;
  m_sub_bucket_count = std::int32_t{1} << m_sub_bucket_count_magnitude;
  m_sub_bucket_half_count = m_sub_bucket_count / 2;
  m_sub_bucket_mask = (static_cast<std::int64_t>(m_sub_bucket_count) - 1) << m_unit_magnitude;
  m_leading_zero_count_base = 64 - m_unit_magnitude - m_sub_bucket_count_magnitude;
  m_highest = highest;
  m_bucket_count = buckets_needed_for(highest);
  m_counts.assign(
      static_cast<std::size_t>(m_bucket_count + 1) * static_cast<std::size_t>(m_sub_bucket_half_count), 0);
  m_total_count = 0;
  m_max = 0;
  m_min = std::numeric_limits<std::int64_t>::max();
}

std::int32_t Histogram::buckets_needed_for(std::int64_t value) const {
  // Bucket k covers [0, subBucketCount · 2^(k + unitMagnitude)); always at least one bucket.
  std::int64_t smallest_untrackable = static_cast<std::int64_t>(m_sub_bucket_count) << m_unit_magnitude;
  std::int32_t buckets = 1;
  while (smallest_untrackable <= value) {
    if (smallest_untrackable > std::numeric_limits<std::int64_t>::max() / 2) return buckets + 1;
    smallest_untrackable <<= 1;
    ++buckets;
  }
  return buckets;
}

void Histogram::resize(std::int64_t new_highest) {
  m_bucket_count = buckets_needed_for(new_highest);
  m_counts.resize(
      static_cast<std::size_t>(m_bucket_count + 1) * static_cast<std::size_t>(m_sub_bucket_half_count), 0);
  m_highest = new_highest;
}

bool Histogram::record_out_of_range(std::int64_t value, std::int64_t count) {
  if (!m_auto_resize) return false;
  resize(value);
  const std::int32_t index = counts_index_for(value);
  m_counts[static_cast<std::size_t>(index)] += count;
  m_total_count += count;
  update_min_max(value);
  // Java reports the grown range as the top of the new counts array.
  m_highest = highest_equivalent(value_from_index(counts_length() - 1));
  return true;
}

bool Histogram::record_with_expected_interval(std::int64_t value, std::int64_t expected_interval) {
  if (!record(value)) return false;
  if (expected_interval <= 0) return true;
  // The reference records value − k·I for every k ≥ 1 while ≥ I. Consecutive missing values that
  // share a bucket are added in one step (same counts, min and max as recording them one by one).
  std::int64_t missing = value - expected_interval;
  while (missing >= expected_interval) {
    const std::int64_t bucket_low = std::max(lowest_equivalent(missing), expected_interval);
    const std::int64_t in_bucket = (missing - bucket_low) / expected_interval + 1;
    const std::int64_t lowest_in_bucket = missing - (in_bucket - 1) * expected_interval;
    m_counts[static_cast<std::size_t>(counts_index_for(missing))] += in_bucket;
    m_total_count += in_bucket;
    update_min_max(lowest_in_bucket);
    missing = lowest_in_bucket - expected_interval;
  }
  return true;
}

bool Histogram::add(const Histogram& other) {
  if (other.m_total_count == 0 && other.m_max == 0) return true;
  const std::int64_t highest_recordable = highest_equivalent(value_from_index(counts_length() - 1));
  if (highest_recordable < other.max()) {
    if (!m_auto_resize) return false;
    resize(other.max());
  }
  if (m_bucket_count == other.m_bucket_count && m_sub_bucket_count == other.m_sub_bucket_count &&
      m_unit_magnitude == other.m_unit_magnitude) {
    add_same_layout(other);
    return true;
  }
  // Different layouts: record each non-zero count at its value in this layout, max first so the
  // array grows (if it must) once.
  const std::int32_t other_max_index = other.counts_index_for(other.max());
  if (!record(other.value_from_index(other_max_index), other.count_at_index(other_max_index))) return false;
  for (std::int32_t i = 0; i < other_max_index; ++i) {
    const std::int64_t count = other.count_at_index(i);
    if (count > 0) record(other.value_from_index(i), count);
  }
  return true;
}

void Histogram::add_same_layout(const Histogram& other) {
  std::int64_t added = 0;
  const auto n = static_cast<std::size_t>(other.used_length());  // same layout: the same array length
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t count = other.m_counts[i];
    if (count > 0) {
      m_counts[i] += count;
      added += count;
    }
  }
  m_total_count += added;
  m_max = std::max(m_max, other.m_max);
  m_min = std::min(m_min, other.m_min);
}

void Histogram::reset() {
  std::fill_n(m_counts.begin(), used_length(), 0);  // the rest is zero already
  m_total_count = 0;
  m_max = 0;
  m_min = std::numeric_limits<std::int64_t>::max();
}

std::int64_t Histogram::value_from_index(std::int32_t index) const {
  std::int32_t bucket = (index >> m_sub_bucket_half_count_magnitude) - 1;
  std::int32_t sub_bucket = (index & (m_sub_bucket_half_count - 1)) + m_sub_bucket_half_count;
  if (bucket < 0) {
    sub_bucket -= m_sub_bucket_half_count;
    bucket = 0;
  }
  return static_cast<std::int64_t>(sub_bucket) << (bucket + m_unit_magnitude);
}

std::int64_t Histogram::size_of_equivalent_range(std::int64_t value) const {
  return std::int64_t{1} << (m_unit_magnitude + bucket_index(value));
}

std::int64_t Histogram::lowest_equivalent(std::int64_t value) const {
  const std::int32_t bucket = bucket_index(value);
  const std::int64_t sub_bucket = value >> (bucket + m_unit_magnitude);
  return sub_bucket << (bucket + m_unit_magnitude);
}

std::int64_t Histogram::highest_equivalent(std::int64_t value) const {
  // Adding (size − 1) rather than size then − 1 keeps the top bucket of the int64 range from overflowing.
  return lowest_equivalent(value) + (size_of_equivalent_range(value) - 1);
}

std::int64_t Histogram::median_equivalent(std::int64_t value) const {
  return lowest_equivalent(value) + (size_of_equivalent_range(value) >> 1);
}

std::int64_t Histogram::max() const {
  return m_max == 0 ? 0 : highest_equivalent(m_max);
}

std::int64_t Histogram::min() const {
  if (m_total_count == 0 || m_counts[0] > 0) return 0;
  if (m_min == std::numeric_limits<std::int64_t>::max()) return m_min;
  return lowest_equivalent(m_min);
}

std::int64_t Histogram::count_at_value(std::int64_t value) const {
  if (value < 0) return 0;
  const std::int32_t index = counts_index_for(value);
  return index < counts_length() ? count_at_index(index) : 0;
}

std::int64_t Histogram::value_at_percentile(double percentile) const {
  // Java: one ulp below the request so round-off cannot push the count into the next bucket.
  double requested = std::nextafter(percentile, -std::numeric_limits<double>::infinity());
  requested = std::isnan(requested) ? 0.0 : std::clamp(requested, 0.0, 100.0);
  const double fractional = requested * static_cast<double>(m_total_count) / 100.0;
  const auto target = std::max<std::int64_t>(static_cast<std::int64_t>(std::ceil(fractional)), 1);
  std::int64_t cumulative = 0;
  const std::int32_t length = used_length();
  for (std::int32_t i = 0; i < length; ++i) {
    cumulative += count_at_index(i);
    if (cumulative >= target) {
      const std::int64_t value = value_from_index(i);
      return percentile == 0.0 ? lowest_equivalent(value) : highest_equivalent(value);
    }
  }
  return 0;
}

std::int32_t Histogram::used_length() const {
  // Every count-changing path (record, add, decode) moves m_max up to the value it counts.
  return m_total_count == 0 ? 0 : std::min(counts_length(), counts_index_for(m_max) + 1);
}

double Histogram::mean() const {
  if (m_total_count == 0) return 0.0;
  // Same summation order and operations as Java's getMean (index order, double accumulation).
  double total = 0.0;
  const std::int32_t length = used_length();
  for (std::int32_t i = 0; i < length; ++i) {
    const std::int64_t count = count_at_index(i);
    if (count != 0) {
      total += static_cast<double>(median_equivalent(value_from_index(i))) * static_cast<double>(count);
    }
  }
  return total / static_cast<double>(m_total_count);
}

double Histogram::stddev() const {
  if (m_total_count == 0) return 0.0;
  const double mean_value = mean();
  double deviation_total = 0.0;
  const std::int32_t length = used_length();
  for (std::int32_t i = 0; i < length; ++i) {
    const std::int64_t count = count_at_index(i);
    if (count != 0) {
      const double deviation = static_cast<double>(median_equivalent(value_from_index(i))) - mean_value;
      deviation_total += (deviation * deviation) * static_cast<double>(count);
    }
  }
  return std::sqrt(deviation_total / static_cast<double>(m_total_count));
}

bool operator==(const Histogram& a, const Histogram& b) {
  return a.m_lowest == b.m_lowest && a.m_highest == b.m_highest && a.m_digits == b.m_digits &&
         a.m_total_count == b.m_total_count && a.max() == b.max() && a.min() == b.min() &&
         a.m_counts == b.m_counts;
}

}  // namespace openloop::hdr

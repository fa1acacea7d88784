// A run's finished intervals in order: the latest few in memory, older ones parked whole in a spill file, so
// a run's memory does not grow with its length (docs/results.md, "Long runs").
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "results/recording/encoded_histogram.h"
#include "results/recording/interval_result.h"

namespace openloop::results {

/// The intervals of a run, index 0 first. Intervals [0, parked()) live in a SpillFile as compact binary
/// records (16 bytes of index each stay in memory); the rest are held whole. Reading returns a copy: a parked
/// interval is read back and decoded. at() reports a failed read or a record that does not decode as an
/// error; operator[] (and iteration) returns a default interval instead and notes the failure on the file
/// (SpillFile::read_back_since()), so whoever renders an output from it refuses that output. Copies share the
/// spill file (records are never overwritten, so a copy's changes never show in another). Not thread-safe;
/// reading a parked interval costs one pread.
class IntervalSeries {
 public:
  IntervalSeries() = default;
  IntervalSeries(
      std::vector<IntervalResult> all);  // NOLINT(google-explicit-constructor): every interval held

  std::size_t size() const { return m_index.size() + m_resident.size(); }
  bool empty() const { return size() == 0; }
  /// Interval `k` (< size()), read back when parked; a runtime error naming the interval when it cannot be.
  Result<IntervalResult> at(std::size_t k) const;
  /// at(k), or a default interval when it fails (the failure noted on the spill file).
  IntervalResult operator[](std::size_t k) const;
  IntervalResult front() const { return (*this)[0]; }
  IntervalResult back() const { return (*this)[size() - 1]; }
  /// Sum of every interval's length_s, kept as intervals are added or replaced (no read-back).
  double total_length_s() const { return m_total_length_s; }

  void push_back(IntervalResult r);
  /// Replaces interval `k` (< size()); a parked one is written again at the end of the file.
  Result<void> set(std::size_t k, IntervalResult r);
  /// Applies `change(IntervalResult&)` to interval `k` (set() with the changed copy).
  template <class F>
  Result<void> update(std::size_t k, F change) {
    IntervalResult r = (*this)[k];
    change(r);
    return set(k, std::move(r));
  }
  void clear();
  /// Interval `k` in place; only for one not parked (k >= parked(): a series built in memory, as a file's or
  /// a test's). Cheaper than update() where no spill can be involved.
  IntervalResult& resident(std::size_t k) { return m_resident.at(k - m_index.size()); }
  /// Grows (default intervals) or shrinks a series that has nothing parked.
  void resize(std::size_t n);

  /// Parks all but the latest `keep` intervals in `file` (the file this series already uses, if any). On a
  /// write failure the interval stays in memory and the error is returned.
  Result<void> park(const std::shared_ptr<SpillFile>& file, std::size_t keep);
  std::size_t parked() const { return m_index.size(); }
  /// The spill file parked intervals live in; null when none was parked.
  const std::shared_ptr<SpillFile>& spill() const { return m_file; }
  /// Bytes held in memory for this series' bookkeeping and its resident intervals' histogram texts (not their
  /// fixed-size fields).
  std::size_t resident_bytes() const;

  /// Iterates by value (each parked interval read back once per visit), so `for (const auto& i : series)`
  /// holds one interval at a time.
  class const_iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = IntervalResult;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = IntervalResult;
    const_iterator() = default;
    const_iterator(const IntervalSeries* s, std::size_t k) : m_series(s), m_k(k) {}
    IntervalResult operator*() const { return (*m_series)[m_k]; }
    const_iterator& operator++() {
      ++m_k;
      return *this;
    }
    const_iterator operator++(int) {
      auto before = *this;
      ++m_k;
      return before;
    }
    bool operator==(const const_iterator& o) const { return m_k == o.m_k; }

   private:
    const IntervalSeries* m_series = nullptr;
    std::size_t m_k = 0;
  };
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }

 private:
  struct Record {
    std::int64_t offset = 0;
    std::int64_t size = 0;
  };
  std::shared_ptr<SpillFile> m_file;
  std::vector<Record> m_index;            ///< intervals [0, parked())
  std::deque<IntervalResult> m_resident;  ///< intervals [parked(), size())
  double m_total_length_s = 0;
};

/// The binary record an interval is parked as (exact: every field, histograms' texts included).
std::string encode_interval(const IntervalResult& r);
/// Decodes encode_interval()'s record; nothing when `bytes` is not one (cut short, foreign).
std::optional<IntervalResult> decode_interval(std::string_view bytes);

}  // namespace openloop::results

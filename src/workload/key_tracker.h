// Cheap distinct-key counting per request, and the end-of-run "every request hit one key" warning.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace openloop::workload {

/// Counts requests and the distinct keys they used, up to k_capacity distinct keys (then it saturates: it
/// only needs to tell "one key" from "many"). A key is the rendered value of a template's first variable, or
/// the request target of a template without variables. Fixed size (~1.2 KiB), allocation-free; observe()
/// hashes the key (64-bit FNV-1a) and probes a small open-addressing table until saturated, then only counts.
/// Not thread-safe: one per worker per request template; merge() combines workers' trackers at the end of a
/// run.
class KeyTracker {
 public:
  static constexpr std::size_t k_capacity = 64;

  /// Records `count` requests that used `key`.
  void observe(std::string_view key, std::uint64_t count = 1);
  /// Adds another tracker's requests and keys (saturating).
  void merge(const KeyTracker& other);

  /// Requests observed.
  std::uint64_t requests() const { return m_requests; }
  /// Distinct keys seen, exact below k_capacity; k_capacity means "at least that many".
  std::size_t distinct() const { return m_distinct; }
  bool saturated() const { return m_distinct >= k_capacity; }
  /// The first key observed, truncated to 64 bytes (for the warning's text).
  std::string_view first_key() const { return {m_first.data(), m_first_size}; }

 private:
  bool insert(std::uint64_t hash);

  static constexpr std::size_t k_slots = 2 * k_capacity;
  std::array<std::uint64_t, k_slots> m_hashes{};  ///< 0 = empty (a zero hash is stored as 1)
  std::uint64_t m_requests = 0;
  std::size_t m_distinct = 0;
  std::array<char, 64> m_first{};
  std::size_t m_first_size = 0;
};

/// One request template's merged tracker, for the warning.
struct RequestKeys {
  std::string_view request;  ///< the request's name
  bool templated = false;    ///< the template draws variables (else its key is its constant target)
  const KeyTracker* keys = nullptr;
};

/// The seed's single-SKU story, as warnings for the end of a run (empty when none applies):
///  - the whole run: when at least `min_requests` requests were sent and every one used the same request and
///    the same key (all requests identical up to the key), one warning saying that the run may have measured
///    a cache and how to draw keys from a distribution;
///  - per templated request: when it was sent at least `min_requests` times and all used one key.
std::vector<std::string> single_key_warnings(std::span<const RequestKeys> requests,
                                             std::uint64_t min_requests = 100);

}  // namespace openloop::workload

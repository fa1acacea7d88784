// Distinct-key tracking by hashing into a small saturating table, and the warnings built from it.
#include "workload/key_tracker.h"

#include <algorithm>

#include <fmt/format.h>

namespace openloop::workload {
namespace {

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h == 0 ? 1 : h;
}

constexpr std::string_view k_advice =
    "draw keys from a production-shaped distribution, e.g. openloop run "
    "'http://host/item/{{zipf(10000, 1.1)}}', or path: /item/{{zipf(10000, 1.1)}} in a plan file "
    "(docs/scenarios.md)";

}  // namespace

bool KeyTracker::insert(std::uint64_t hash) {
  std::size_t i = hash % k_slots;
  while (m_hashes[i] != 0) {
    if (m_hashes[i] == hash) return false;
    i = (i + 1) % k_slots;
  }
  m_hashes[i] = hash;
  ++m_distinct;
  return true;
}

void KeyTracker::observe(std::string_view key, std::uint64_t count) {
  if (m_requests == 0 && m_first_size == 0) {
    m_first_size = std::min(key.size(), m_first.size());
    std::copy_n(key.data(), m_first_size, m_first.data());
  }
  m_requests += count;
  if (!saturated()) insert(fnv1a(key));
}

void KeyTracker::merge(const KeyTracker& other) {
  if (m_requests == 0 && other.m_requests > 0) {
    m_first = other.m_first;
    m_first_size = other.m_first_size;
  }
  m_requests += other.m_requests;
  for (std::uint64_t hash : other.m_hashes) {
    if (saturated()) break;
    if (hash != 0) insert(hash);
  }
  if (other.saturated()) m_distinct = std::max(m_distinct, k_capacity);
}

std::vector<std::string> single_key_warnings(std::span<const RequestKeys> requests,
                                             std::uint64_t min_requests) {
  std::vector<std::string> warnings;
  std::uint64_t total = 0;
  std::size_t distinct = 0;
  const RequestKeys* only = nullptr;
  for (const RequestKeys& r : requests) {
    if (r.keys == nullptr || r.keys->requests() == 0) continue;
    total += r.keys->requests();
    distinct += r.keys->distinct();
    only = &r;
  }
  if (total >= min_requests && distinct == 1 && only != nullptr) {
    warnings.push_back(
        fmt::format("every request was '{}' with the same key \"{}\": you may have measured a cache, not the "
                    "service; {}",
                    only->request, only->keys->first_key(), k_advice));
    return warnings;
  }
  for (const RequestKeys& r : requests) {
    if (!r.templated || r.keys == nullptr || r.keys->requests() < min_requests || r.keys->distinct() != 1)
      continue;
    warnings.push_back(
        fmt::format("every '{}' request used the same key \"{}\": you may have measured a cache; {}", r.request,
                    r.keys->first_key(), k_advice));
  }
  return warnings;
}

}  // namespace openloop::workload

// A fixed-capacity LRU set of 64-bit keys (hashes of path+query) that stops allocating once full.
#pragma once

#include <cstdint>
#include <list>
#include <unordered_map>

namespace openloop::lab {

/// Least-recently-used membership: access() says hit or miss and makes the key the most recent, evicting the
/// least recent key when full. Keys are 64-bit hashes: two targets colliding is possible but, at 2^-64 per
/// pair, far below anything a lab run can observe. Single-threaded. Once `capacity` keys are present, a miss
/// reuses the evicted key's nodes, so steady state does not allocate.
class LruCache {
 public:
  /// capacity 0 disables the cache (every access is a miss, nothing stored).
  explicit LruCache(std::size_t capacity = 0) { set_capacity(capacity); }

  /// Returns true on a hit. On a miss, inserts the key (evicting the least recent one if full).
  bool access(std::uint64_t key);
  /// Changes the capacity, evicting least recent keys if it shrank.
  void set_capacity(std::size_t capacity);
  /// Forgets every key (a cold cache, as after a deploy).
  void clear();

  std::size_t size() const { return m_map.size(); }
  std::size_t capacity() const { return m_capacity; }

 private:
  std::size_t m_capacity = 0;
  std::list<std::uint64_t> m_order;  // front = most recent
  std::unordered_map<std::uint64_t, std::list<std::uint64_t>::iterator> m_map;
};

}  // namespace openloop::lab

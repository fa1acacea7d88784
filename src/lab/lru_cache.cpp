// LRU bookkeeping with node reuse: list splice for recency, map node handles re-keyed on eviction.
#include "lab/lru_cache.h"

namespace openloop::lab {

bool LruCache::access(std::uint64_t key) {
  if (m_capacity == 0) return false;
  auto it = m_map.find(key);
  if (it != m_map.end()) {
    m_order.splice(m_order.begin(), m_order, it->second);
    return true;
  }
  if (m_map.size() < m_capacity) {
    m_order.push_front(key);
    m_map.emplace(key, m_order.begin());
    return false;
  }
  // Full: recycle the least recent entry's list node and map node under the new key (no allocation).
  auto last = std::prev(m_order.end());
  auto node = m_map.extract(*last);
  *last = key;
  m_order.splice(m_order.begin(), m_order, last);
  node.key() = key;
  node.mapped() = m_order.begin();
  m_map.insert(std::move(node));
  return false;
}

void LruCache::set_capacity(std::size_t capacity) {
  m_capacity = capacity;
  while (m_map.size() > m_capacity) {
    m_map.erase(m_order.back());
    m_order.pop_back();
  }
  m_map.reserve(capacity);
}

void LruCache::clear() {
  m_map.clear();
  m_order.clear();
}

}  // namespace openloop::lab

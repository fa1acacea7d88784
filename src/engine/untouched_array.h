// A fixed array of trivially copyable elements whose memory is left as the allocator gives it: a large one
// comes straight from mmap, so its pages are touched (faulted in) only as elements are written, not all at
// once when it is made (std::vector::resize zeroes every element: the saturation queue's room for the default
// 5-s timeout at 60k/s is 14 MB, zeroed before the run, 53 ms of CPU on the 2-core VM, and mostly never
// used).
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>

namespace openloop::engine {

template <typename T>
class UntouchedArray {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "its elements are never constructed nor destroyed");

 public:
  /// n elements, none of them initialized: write one before reading it. Throws std::bad_alloc as new does.
  void resize(std::size_t n) {
    m_data.reset();
    m_size = 0;
    if (n == 0) return;
    void* p = std::malloc(n * sizeof(T));
    if (p == nullptr) throw std::bad_alloc();
    m_data.reset(static_cast<T*>(p));  // malloc's storage holds implicit-lifetime T objects (C++20)
    m_size = n;
  }
  std::size_t size() const { return m_size; }
  T& operator[](std::size_t i) { return m_data.get()[i]; }
  const T& operator[](std::size_t i) const { return m_data.get()[i]; }

 private:
  struct Free {
    void operator()(T* p) const { std::free(p); }
  };
  std::unique_ptr<T, Free> m_data;
  std::size_t m_size = 0;
};

}  // namespace openloop::engine

#include "core/malloc_policy.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
void* volatile g_sink = nullptr;  // so the compiler keeps the allocation

TEST(MallocPolicy, FreedMemoryStaysWithTheProcess) {
  ASSERT_TRUE(openloop::keep_freed_memory());
  // A 16 MiB block comes from the heap, not from an mmap of its own (which free() would munmap); glibc's default
  // (128 KiB) would have mmapped it.
  constexpr std::size_t k_size = 16 << 20;
  const auto mmapped_before = mallinfo2().hblks;
  void* big = std::malloc(k_size);
  ASSERT_NE(big, nullptr);
  g_sink = big;
  std::memset(big, 1, k_size);
  EXPECT_EQ(mallinfo2().hblks, mmapped_before);
  // Freed, it stays: the heap is not trimmed below 1 GiB free (by default, freeing the top 16 MiB trims it).
  const auto heap_with_it = mallinfo2().arena;
  std::free(g_sink);
  g_sink = nullptr;
  EXPECT_EQ(mallinfo2().arena, heap_with_it);
}
#else
TEST(MallocPolicy, LeavesAnotherAllocatorAlone) { EXPECT_FALSE(openloop::keep_freed_memory()); }
#endif

}  // namespace

// The process's allocator policy during a run: keep freed memory instead of handing it back to the kernel.
#pragma once

namespace openloop {

/// Tells glibc's malloc to keep freed memory: no trimming of the heaps below 1 GiB free, and blocks up to 32 MiB
/// (the largest threshold glibc takes) served from the heaps instead of mmap. Handing memory back
/// (madvise(MADV_DONTNEED) when a thread's heap shrinks, munmap of a large block) makes the kernel flush the TLB of
/// every core running one of the process's threads: an interrupt on the workers' cores, about fifteen times a
/// second in a 20k/s run as the coordinator frees each spent interval's histograms (docs/performance.md). Memory
/// stays at its peak instead, which a run's flat memory keeps small. Call once, first thing in main(), before any
/// thread starts. False when the allocator refused (not glibc's, or a sanitizer's): nothing changes then.
bool keep_freed_memory();

}  // namespace openloop

#pragma once
/// Process-wide allocator settings for ppy's executables (the driver, backend
/// helpers, benchmarks standing in for the driver).

#include <malloc.h>

namespace ppy {

namespace detail {
inline bool freed_memory_kept = false;  // set by keep_freed_memory
}  // namespace detail

/// Keeps memory a process frees for its next use instead of handing it back
/// to the kernel. A compiler frees and rebuilds modules of the same size over
/// and over (one per module, one per session in a helper); on machines where a
/// page fault is dear, faulting fresh pages in each time cost more than the
/// work. Buffers up to 32 MiB (glibc's ceiling) come from the reusable heap,
/// and every thread allocates from one heap, so what one call's thread freed
/// serves the next call's, whichever thread gRPC hands it to (with a heap per
/// thread, a helper's second module faulted in as much fresh memory as its
/// first).
///
/// For a process serving one client: a spawned helper. Not for a shared
/// server, which would keep its peak for good and serialise its concurrent
/// calls' allocations.
///
/// `Heaps::kPerThread` keeps freed memory too but leaves each thread its own
/// heap: for the driver, whose threads compile modules at once (-j) and would
/// otherwise take turns at the one heap's lock (a cold build at -j2 was 1.1x
/// the speed of -j1, malloc a third of its time).
enum class Heaps { kOne, kPerThread };
inline void keep_freed_memory(Heaps heaps = Heaps::kOne) {
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  if (heaps == Heaps::kOne) mallopt(M_ARENA_MAX, 1);
  detail::freed_memory_kept = true;
}

/// Whether this process called `keep_freed_memory`: one heap, kept.
inline bool keeps_freed_memory() { return detail::freed_memory_kept; }

}  // namespace ppy

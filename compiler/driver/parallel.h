#pragma once
// Runs independent pieces of a road at once: module pipelines, module emits.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace ppy::driver {

/// `jobs` as the user gave it (-j N), or the number of cores for 0.
inline int effective_jobs(int jobs) {
  return jobs > 0 ? jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

/// Calls `fn(i)` for every i in [0, n), on up to `jobs` threads (the caller's
/// among them). Each i is taken once; `fn` must not touch another i's state.
template <class Fn>
void parallel_for(size_t n, int jobs, Fn&& fn) {
  size_t workers = std::min<size_t>(n, static_cast<size_t>(std::max(1, jobs)));
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < n;) fn(i);
  };
  std::vector<std::thread> threads;
  for (size_t w = 1; w < workers; ++w) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
}

}  // namespace ppy::driver

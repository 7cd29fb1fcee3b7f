#include "ppy/ir/arena.h"

#include <cstdlib>
#include <mutex>
#include <new>

namespace ppy::ir {
namespace {

/// A standard chunk: big enough that its bookkeeping is nothing per op, small
/// enough that a module of a few ops does not hold much.
constexpr size_t kChunk = size_t{256} << 10;
/// Free chunks kept for the next arena: 64 MiB, a module of about 250k ops.
constexpr size_t kMaxCached = 256;

/// The process's free chunks. Taken and given back once per chunk (every
/// thousand ops or so), so one lock serves every thread.
struct ChunkCache {
  std::mutex mu;
  std::vector<void*> free;

  void* take() {
    {
      std::lock_guard lock(mu);
      if (!free.empty()) {
        void* c = free.back();
        free.pop_back();
        return c;
      }
    }
    return ::operator new(kChunk);
  }
  void give(const std::vector<void*>& chunks) {
    size_t i = 0;
    {
      std::lock_guard lock(mu);
      for (; i < chunks.size() && free.size() < kMaxCached; ++i) free.push_back(chunks[i]);
    }
    for (; i < chunks.size(); ++i) ::operator delete(chunks[i]);
  }
};

ChunkCache& cache() {
  static auto* c = new ChunkCache;  // never destroyed: arenas may die after main
  return *c;
}

}  // namespace

Arena::~Arena() {
  cache().give(chunks_);
  for (void* p : large_) ::operator delete(p);
}

void* Arena::grow(size_t n, size_t align) {
  if (n + align > kChunk / 4) {
    void* p = ::operator new(n + align);
    large_.push_back(p);
    reserved_ += n + align;
    uintptr_t a = (reinterpret_cast<uintptr_t>(p) + align - 1) & ~(uintptr_t{align} - 1);
    return reinterpret_cast<void*>(a);
  }
  char* c = static_cast<char*>(cache().take());
  chunks_.push_back(c);
  reserved_ += kChunk;
  cur_ = c;
  end_ = c + kChunk;
  return allocate(n, align);
}

}  // namespace ppy::ir

#pragma once
/// A bump allocator for the operations of one module (issue 20): readers and
/// clone place every op of the module they make in one Arena, so an op costs a
/// pointer bump instead of a malloc, and the memory goes back at once when the
/// last function made in it goes. Chunks are recycled through a process-wide
/// cache, so reading module after module does not fault fresh pages in.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace ppy::ir {

class Arena : public std::enable_shared_from_this<Arena> {
 public:
  Arena() = default;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  /// Gives the chunks back (to the cache, or to the system past its bound).
  /// Nothing placed in the arena is destroyed here: its owners did that.
  ~Arena();

  /// `n` bytes aligned to `align` (a power of two, at most 16), uninitialised.
  void* allocate(size_t n, size_t align = alignof(std::max_align_t)) {
    uintptr_t p = (reinterpret_cast<uintptr_t>(cur_) + align - 1) & ~(uintptr_t{align} - 1);
    if (p + n > reinterpret_cast<uintptr_t>(end_)) [[unlikely]]
      return grow(n, align);
    cur_ = reinterpret_cast<char*>(p + n);
    return reinterpret_cast<void*>(p);
  }

  /// The bytes of the chunks the arena holds.
  size_t bytes_reserved() const { return reserved_; }

 private:
  void* grow(size_t n, size_t align);

  char* cur_ = nullptr;
  char* end_ = nullptr;
  size_t reserved_ = 0;
  std::vector<void*> chunks_;  ///< standard-size chunks, recycled
  std::vector<void*> large_;   ///< one allocation bigger than a chunk's quarter each
};

}  // namespace ppy::ir

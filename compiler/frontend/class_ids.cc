#include "class_ids.h"

namespace ppy::frontend {

int64_t first_class_id(const std::string& name, bool is_entry) {
  if (is_entry) return 1;
  uint64_t h = 1469598103934665603ull;  // FNV-1a, 64-bit
  for (unsigned char c : name) {
    h ^= c;
    h *= 1099511628211ull;
  }
  uint64_t base = (1 + (h & ((uint64_t{1} << 40) - 1))) << kClassIdBits;
  return static_cast<int64_t>(base + 1);
}

std::string exception_class_name(const ClassInfo& c) {
  return c.tid >= (int64_t{1} << kClassIdBits) ? c.module + "." + c.name : c.name;
}

}  // namespace ppy::frontend

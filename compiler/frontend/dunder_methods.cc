#include "dunder_methods.h"

#include "types.h"

namespace ppy::frontend {

bool is_supported_dunder(std::string_view name) {
  static constexpr std::string_view kSupported[] = {
      "__str__", "__repr__", "__len__", "__bool__", "__eq__", "__ne__", "__hash__", "__lt__", "__le__", "__gt__", "__ge__",
      "__getitem__", "__setitem__", "__contains__", "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
      "__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__matmul__",
      "__rmatmul__", "__pow__", "__rpow__", "__neg__", "__pos__", "__invert__", "__abs__", "__call__",
      // `x op= v` calls these, or the binary one without them (check_dunder.cc, aug_dunder)
      "__iadd__", "__isub__", "__imul__", "__itruediv__", "__ifloordiv__", "__imod__", "__imatmul__", "__ipow__",
      // called as ordinary methods until the `with` statement calls them
      "__enter__", "__exit__"};
  for (std::string_view n : kSupported)
    if (n == name) return true;
  return false;
}

bool printable_object(Ty t) {
  const ClassInfo& c = *class_info(t);
  if (!c.dataclass || c.methods.count("__str__") || c.methods.count("__repr__")) {
    for (Ty sub : c.subclasses)
      if (!printable_object(sub) && class_info(sub)->dataclass) return false;
    return true;
  }
  return false;
}

}  // namespace ppy::frontend

/* ppy_obj.c: objects (ppy_obj.h). */
#include "ppy_obj.h"

#include <stdio.h>

#include "ppy_str.h"

#if defined(PPY_RT_STRINGS) && !defined(PPY_RT_DECLARATIONS_ONLY)

PPY_RT_API void* ppy_obj_new(int64_t bytes, int64_t tid) {
  if (PPY_RT_UNLIKELY(!ppy_rt_gc_ready)) ppy_rt_gc_init();
  if (bytes < 8) bytes = 8;
  int64_t* o = (int64_t*)GC_MALLOC((size_t)bytes);
  if (!o) ppy_rt_raise("MemoryError", "");
  o[0] = tid;
  return o;
}

PPY_RT_API void* ppy_obj_null(void) { return 0; }

/** `repr()` of an instance of a class without `__repr__`, as Python's
 * object.__repr__: `<module.Name object at 0x...>` (`name` qualified). */
PPY_RT_API ppy_str* ppy_obj_repr(const ppy_str* name, const void* obj) {
  char buf[64];
  int n = snprintf(buf, sizeof buf, " object at %p>", obj);
  ppy_str* s = ppy_str_concat(ppy_str_literal("<", 1), name);
  return ppy_str_concat(s, ppy_str_literal(buf, n));
}

#endif /* PPY_RT_STRINGS && !PPY_RT_DECLARATIONS_ONLY */

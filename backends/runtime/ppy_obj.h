/* ppy_obj.h: objects of the native runtime (docs/runtime.md, "Objects").
 *
 * It follows ppy_str.h (the same conventions, and compiled only with
 * PPY_RT_STRINGS defined) and is embedded after it. An instance of a class
 * is a handle (`ptr<i8>` on the IR) to a block of the collector's heap that
 * compiled code reads and writes as its class's struct
 * (`struct<Name, __tid: i64, fields...>`): the type id first, then the
 * fields, the base class's first. The block is scanned (GC_MALLOC, not
 * atomic): fields may hold strings, lists and other objects.
 */
#if defined(PPY_RT_STRINGS) && !defined(PPY_OBJ_H)
#define PPY_OBJ_H

#ifndef PPY_STR_H /* pasted after it, it is already there */
#include "ppy_str.h"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** A new object of `bytes` bytes (zero), its first eight the type id `tid`. */
PPY_RT_API void* ppy_obj_new(int64_t bytes, int64_t tid);
/** What an optional object holds when it is None (never read). */
PPY_RT_API void* ppy_obj_null(void);

#define PPY_OBJ_SYMBOLS(X) X(ppy_obj_new) X(ppy_obj_null)

#ifndef PPY_RT_DECLARATIONS_ONLY

PPY_RT_API void* ppy_obj_new(int64_t bytes, int64_t tid) {
  if (PPY_RT_UNLIKELY(!ppy_rt_gc_ready)) ppy_rt_gc_init();
  if (bytes < 8) bytes = 8;
  int64_t* o = (int64_t*)GC_MALLOC((size_t)bytes);
  if (!o) ppy_rt_raise("MemoryError", "");
  o[0] = tid;
  return o;
}

PPY_RT_API void* ppy_obj_null(void) { return 0; }

#endif /* PPY_RT_DECLARATIONS_ONLY */

#ifdef __cplusplus
}
#endif

#endif /* PPY_RT_STRINGS && !PPY_OBJ_H */

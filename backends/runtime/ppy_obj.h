/* ppy_obj.h: objects of the native runtime (docs/runtime.md, "Objects").
 *
 * Compiled only with PPY_RT_STRINGS defined (objects live on the collector).
 * An instance of a class is a handle (`ptr<i8>` on the IR) to a block of the
 * collector's heap that compiled code reads and writes as its class's struct
 * (`struct<Name, __tid: i64, fields...>`): the type id first, then the
 * fields, the base class's first. The block is scanned (GC_MALLOC, not
 * atomic): fields may hold strings, lists and other objects.
 */
#ifndef PPY_OBJ_H
#define PPY_OBJ_H

#include "ppy_runtime.h"

#ifdef PPY_RT_STRINGS

#ifdef __cplusplus
extern "C" {
#endif

/** A new object of `bytes` bytes (zero), its first eight the type id `tid`. */
PPY_RT_API void* ppy_obj_new(int64_t bytes, int64_t tid);
/** What an optional object holds when it is None (never read). */
PPY_RT_API void* ppy_obj_null(void);

typedef struct ppy_str ppy_str; /* ppy_str.h */
/** Python's default `repr()` of an instance: `<module.Name object at 0x...>`. */
PPY_RT_API ppy_str* ppy_obj_repr(const ppy_str* name, const void* obj);

typedef struct ppy_list ppy_list; /* ppy_list.h */
/** Objects printed in a container (issue 32; ppy_value.c): the objects at the
 * `O` leaves of `l`'s elements (`desc` their descriptor, docs/runtime.md), in
 * order, each once for each place it is at. */
PPY_RT_API ppy_list* ppy_obj_collect(const ppy_list* l, const ppy_str* desc);
/** Python's repr of `l` (as ppy_list_repr), each object (an `o` leaf) printed as
 * the str at its place in `reprs` where `objs` holds it. */
PPY_RT_API ppy_str* ppy_list_repr_objs(const ppy_list* l, const ppy_str* desc, const ppy_list* objs,
                                       const ppy_list* reprs);

#define PPY_OBJ_SYMBOLS(X) \
  X(ppy_obj_new) X(ppy_obj_null) X(ppy_obj_repr) X(ppy_obj_collect) X(ppy_list_repr_objs)

#ifdef __cplusplus
}
#endif

#endif /* PPY_RT_STRINGS */

#endif /* PPY_OBJ_H */

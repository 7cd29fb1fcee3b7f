/* ppy_exc.h: exceptions of the native runtime (docs/runtime.md, "Exceptions").
 *
 * `raise NAME(message)`, what the innermost try caught, and which `except`
 * clause catches it. Raising itself (ppy_rt_raise, ppy_rt_try) is the core's;
 * these functions take and give strs, so they live on the collector
 * (PPY_RT_STRINGS).
 */
#ifndef PPY_EXC_H
#define PPY_EXC_H

#include "ppy_runtime.h"

#ifdef PPY_RT_STRINGS

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ppy_str ppy_str; /* ppy_str.h */

PPY_RT_API PPY_RT_NORETURN void ppy_exc_raise(const ppy_str* name, const ppy_str* message);
PPY_RT_API ppy_str* ppy_exc_name(void);
PPY_RT_API ppy_str* ppy_exc_message(void);
PPY_RT_API int64_t ppy_exc_matches(const ppy_str* name, const ppy_str* cls);
PPY_RT_API void ppy_exc_set(const char* name, const char* message);
PPY_RT_API PPY_RT_NORETURN void ppy_exc_raise_object(const ppy_str* classes, const ppy_str* message, void* object);
PPY_RT_API void* ppy_exc_object(void);
PPY_RT_API ppy_str* ppy_exc_classes(void);
PPY_RT_API void ppy_exc_set_object(void* object, const char* classes);
PPY_RT_API PPY_RT_NORETURN void ppy_exc_raise_args(const ppy_str* name, const ppy_str* message, const ppy_str* args);
PPY_RT_API void ppy_exc_keep_args(const ppy_str* name, const ppy_str* message, const ppy_str* args);
PPY_RT_API ppy_str* ppy_exc_args(void);

/** The exception functions compiled code may call (part of PPY_STR_SYMBOLS). */
#define PPY_EXC_SYMBOLS(X) X(ppy_exc_raise) X(ppy_exc_name) X(ppy_exc_message) X(ppy_exc_matches) X(ppy_exc_set) \
  X(ppy_exc_raise_object) X(ppy_exc_object) X(ppy_exc_classes) X(ppy_exc_set_object) X(ppy_exc_raise_args) \
  X(ppy_exc_keep_args) X(ppy_exc_args)

#ifdef __cplusplus
}
#endif

#endif /* PPY_RT_STRINGS */

#endif /* PPY_EXC_H */

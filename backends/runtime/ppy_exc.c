/* ppy_exc.c: exceptions (ppy_exc.h). */
#include "ppy_exc.h"

#include "ppy_str.h"

#if defined(PPY_RT_STRINGS) && !defined(PPY_RT_DECLARATIONS_ONLY)

/** `raise NAME(message)`: as a guard raises (ends the program, or returns
 * to the innermost ppy_rt_try). The strings stay reachable from the runtime's
 * state, which the collector scans. */
PPY_RT_API PPY_RT_NORETURN void ppy_exc_raise(const ppy_str* name, const ppy_str* message) {
  ppy_rt_raise(PPY_STR_BYTES(name), PPY_STR_BYTES(message));
}

static ppy_str* ppy_str_of_c(const char* s) { return ppy_str_literal(s ? s : "", s ? (int64_t)strlen(s) : 0); }

/** The class name of the exception the innermost ppy_rt_try caught. */
PPY_RT_API ppy_str* ppy_exc_name(void) {
  const char *name, *message;
  ppy_rt_last_error(&name, &message);
  return ppy_str_of_c(name);
}
/** Its message (`str(e)`). */
PPY_RT_API ppy_str* ppy_exc_message(void) {
  const char *name, *message;
  ppy_rt_last_error(&name, &message);
  return ppy_str_of_c(message);
}

/** Records a caught exception for an embedder that catches raises itself (the
 * interpreter): ppy_exc_name and ppy_exc_message answer it next. */
PPY_RT_API void ppy_exc_set(const char* name, const char* message) {
  ppy_str* n = ppy_str_of_c(name);
  ppy_str* m = ppy_str_of_c(message);
  ppy_rt_set_error(PPY_STR_BYTES(n), PPY_STR_BYTES(m));
}

/** Whether an exception of class `name` is caught by an `except` whose
 * `classes` are the class and its subclasses, space-separated, as the
 * frontend writes them (it alone knows the hierarchy); `BaseException` and
 * `Exception` catch everything the subset raises. */
PPY_RT_API int64_t ppy_exc_matches(const ppy_str* name, const ppy_str* classes) {
  const char* c = PPY_STR_BYTES(classes);
  const char* n = PPY_STR_BYTES(name);
  size_t len = strlen(n);
  if (strcmp(c, "BaseException") == 0) return 1;
  if (strcmp(c, "Exception") == 0) return strcmp(n, "SystemExit") != 0; /* io (issue 33): SystemExit is no Exception */
  for (const char* w = c; *w;) {
    const char* end = strchr(w, ' ');
    size_t wl = end ? (size_t)(end - w) : strlen(w);
    if (wl == len && memcmp(w, n, len) == 0) return 1;
    w += wl;
    while (*w == ' ') ++w;
  }
  return 0;
}

#endif /* PPY_RT_STRINGS && !PPY_RT_DECLARATIONS_ONLY */

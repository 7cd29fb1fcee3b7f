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

/** Whether an exception of class `name` is caught by `except cls`: the
 * builtin classes' bases, as Python has them. */
PPY_RT_API int64_t ppy_exc_matches(const ppy_str* name, const ppy_str* cls) {
  static const char* const kBases[][2] = {
      {"ZeroDivisionError", "ArithmeticError"},
      {"OverflowError", "ArithmeticError"},
      {"FloatingPointError", "ArithmeticError"},
      {"IndexError", "LookupError"},
      {"KeyError", "LookupError"},
      {"RecursionError", "RuntimeError"},
      {"NotImplementedError", "RuntimeError"},
      {"UnicodeError", "ValueError"},
  };
  const char* c = PPY_STR_BYTES(cls);
  if (strcmp(c, "BaseException") == 0) return 1;
  const char* n = PPY_STR_BYTES(name);
  while (n) {
    if (strcmp(n, c) == 0) return 1;
    const char* base = strcmp(n, "Exception") == 0 ? NULL : "Exception";
    for (size_t i = 0; i < sizeof kBases / sizeof kBases[0]; ++i)
      if (strcmp(n, kBases[i][0]) == 0) base = kBases[i][1];
    n = base;
  }
  return 0;
}

#endif /* PPY_RT_STRINGS && !PPY_RT_DECLARATIONS_ONLY */

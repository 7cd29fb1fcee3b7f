/* ppy_exc.c: exceptions (ppy_exc.h). */
#include "ppy_exc.h"

#include "ppy_str.h"

#if defined(PPY_RT_STRINGS) && !defined(PPY_RT_DECLARATIONS_ONLY)

/** `raise NAME(message)`: as a guard raises (ends the program, or returns
 * to the innermost ppy_rt_try). The strings stay reachable from the runtime's
 * state, which the collector scans. */
static void ppy_exc_give(const ppy_str* name, const ppy_str* message, const ppy_str* classes);

static const ppy_str* ppy_exc_args_kept[3]; /* name, message, args: ppy_exc_args below */

PPY_RT_API PPY_RT_NORETURN void ppy_exc_raise(const ppy_str* name, const ppy_str* message) {
  ppy_exc_args_kept[2] = NULL; /* its args are what its name and message tell */
  ppy_exc_give(name, message, name);
  ppy_rt_raise(PPY_STR_BYTES(name), PPY_STR_BYTES(message));
}

static ppy_str* ppy_str_of_c(const char* s) { return ppy_str_literal(s ? s : "", s ? (int64_t)strlen(s) : 0); }

/* Faster raising and catching (issue 32): the strs the last raise of compiled
 * code was given (its name, message and classes). A handler asks for them
 * back (ppy_exc_name, _message, _classes) and gets the same strs, not copies,
 * while the runtime's state still points at their bytes; a raise of the
 * runtime itself (C strings) is copied as before. Static, so the collector
 * keeps them. */
enum { PPY_EXC_NAME, PPY_EXC_MESSAGE, PPY_EXC_CLASSES };
static const ppy_str* ppy_exc_given[3];

static void ppy_exc_give(const ppy_str* name, const ppy_str* message, const ppy_str* classes) {
  ppy_exc_given[PPY_EXC_NAME] = name;
  ppy_exc_given[PPY_EXC_MESSAGE] = message;
  ppy_exc_given[PPY_EXC_CLASSES] = classes;
}

static ppy_str* ppy_exc_answer(const char* bytes, int which) {
  const ppy_str* s = ppy_exc_given[which];
  if (s && bytes == PPY_STR_BYTES(s)) return (ppy_str*)s;
  return ppy_str_of_c(bytes);
}

/** The class name of the exception the innermost ppy_rt_try caught
 * (`type(e).__name__`): without its module (`module.Name` of a class outside
 * the entry, `io.UnsupportedOperation`), as Python's `__name__` has it. */
static ppy_str* ppy_exc_short_name(const char* name) {
  const char* dot = strrchr(name, '.');
  return dot ? ppy_str_of_c(dot + 1) : NULL;
}

/* The names without their module that ppy_exc_name answered lately for the
 * names compiled code raised (issue 32: a handler asks at every catch), keyed
 * by that str, which the entry keeps alive. */
enum { PPY_EXC_SHORT_KEPT = 4 };
static struct {
  const ppy_str *name, *short_name;
} ppy_exc_short_kept[PPY_EXC_SHORT_KEPT];
static unsigned ppy_exc_short_next;

PPY_RT_API ppy_str* ppy_exc_name(void) {
  const char *name, *message;
  ppy_rt_last_error(&name, &message);
  const ppy_str* given = ppy_exc_given[PPY_EXC_NAME];
  if (!given || name != PPY_STR_BYTES(given)) {
    ppy_str* s = ppy_exc_short_name(name);
    return s ? s : ppy_str_of_c(name);
  }
  for (unsigned i = 0; i < PPY_EXC_SHORT_KEPT; ++i)
    if (ppy_exc_short_kept[i].name == given) return (ppy_str*)ppy_exc_short_kept[i].short_name;
  ppy_str* s = ppy_exc_short_name(name);
  unsigned i = ppy_exc_short_next++ % PPY_EXC_SHORT_KEPT;
  ppy_exc_short_kept[i].name = given;
  ppy_exc_short_kept[i].short_name = s ? s : given;
  return (ppy_str*)ppy_exc_short_kept[i].short_name;
}
/** Its message (`str(e)`). */
PPY_RT_API ppy_str* ppy_exc_message(void) {
  const char *name, *message;
  ppy_rt_last_error(&name, &message);
  return ppy_exc_answer(message, PPY_EXC_MESSAGE);
}

/** Records a caught exception for an embedder that catches raises itself (the
 * interpreter): ppy_exc_name and ppy_exc_message answer it next. */
PPY_RT_API void ppy_exc_set(const char* name, const char* message) {
  ppy_str* n = ppy_str_of_c(name);
  ppy_str* m = ppy_str_of_c(message);
  ppy_rt_set_error(PPY_STR_BYTES(n), PPY_STR_BYTES(m));
}

/** Whether word `w` (`wl` bytes) is one of the space-separated `words` (`n`
 * bytes). By lengths, no strlen or strchr: a handler tests every raise that
 * reaches it (issue 32). */
static int ppy_exc_word_in(const char* w, size_t wl, const char* words, size_t n) {
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && words[j] != ' ') ++j; /* words are short: no call per word */
    if (j - i == wl && words[i] == w[0] && memcmp(words + i, w, wl) == 0) return 1;
    i = j + 1;
  }
  return 0;
}

static int ppy_exc_is(const ppy_str* s, const char* text, size_t n) {
  return (size_t)s->len == n && memcmp(PPY_STR_BYTES(s), text, n) == 0;
}

/** Whether an exception is caught by an `except` whose `classes` are the
 * class and its builtin subclasses, space-separated, as the frontend writes
 * them (it alone knows the hierarchy). `name` is the exception's class, or
 * an exception class instance's classes (its own, then its bases: ppy_exc_classes),
 * any of which may match; `BaseException` catches everything the subset
 * raises, `Exception` everything but SystemExit. */
static int64_t ppy_exc_matches_words(const ppy_str* name, const ppy_str* classes);

/* What ppy_exc_matches answered lately, keyed by its two strs (issue 32: a
 * handler tests each raise against each clause, and a loop raises the same
 * few classes at the same few clauses; the LLVM road's literals are
 * constants). Strs do not change, and the entry keeps both alive (static:
 * the collector scans it), so the same pointers give the same answer. */
enum { PPY_EXC_MATCHES_SETS = 16, PPY_EXC_MATCHES_WAYS = 4 };
static struct {
  struct {
    const ppy_str *name, *classes;
    int64_t hit;
  } way[PPY_EXC_MATCHES_WAYS];
  unsigned next; /* the way the next miss replaces */
} ppy_exc_matches_kept[PPY_EXC_MATCHES_SETS];

PPY_RT_API int64_t ppy_exc_matches(const ppy_str* name, const ppy_str* classes) {
  uint64_t key = ((uint64_t)(uintptr_t)name * 0x9E3779B97F4A7C15u) ^ (uint64_t)(uintptr_t)classes;
  unsigned set = (unsigned)((key * 0x9E3779B97F4A7C15u) >> 60) % PPY_EXC_MATCHES_SETS;
  for (unsigned w = 0; w < PPY_EXC_MATCHES_WAYS; ++w)
    if (ppy_exc_matches_kept[set].way[w].name == name && ppy_exc_matches_kept[set].way[w].classes == classes)
      return ppy_exc_matches_kept[set].way[w].hit;
  int64_t hit = ppy_exc_matches_words(name, classes);
  unsigned w = ppy_exc_matches_kept[set].next++ % PPY_EXC_MATCHES_WAYS;
  ppy_exc_matches_kept[set].way[w].name = name;
  ppy_exc_matches_kept[set].way[w].classes = classes;
  ppy_exc_matches_kept[set].way[w].hit = hit;
  return hit;
}

static int64_t ppy_exc_matches_words(const ppy_str* name, const ppy_str* classes) {
  if (ppy_exc_is(classes, "BaseException", 13)) return 1;
  /* io (issue 33): SystemExit derives from BaseException, not Exception; so does a generator's
   * GeneratorExit (issue 31, generator_close.h). */
  if (ppy_exc_is(classes, "Exception", 9))
    return !ppy_exc_is(name, "SystemExit", 10) && !ppy_exc_is(name, "GeneratorExit", 13);
  const char* n = PPY_STR_BYTES(name);
  const char* c = PPY_STR_BYTES(classes);
  size_t nl = (size_t)name->len, cl = (size_t)classes->len;
  for (size_t i = 0; i < nl;) {
    size_t j = i;
    while (j < nl && n[j] != ' ') ++j;
    if (j > i && ppy_exc_word_in(n + i, j - i, c, cl)) return 1;
    i = j + 1;
  }
  return 0;
}

/* ------------------------------------------------------------------------ */
/* Exception classes                                                          */

/** `raise obj` of an exception class's instance (or again of a caught
 * exception): `classes` is its class, then its bases up to the builtin one,
 * space-separated (the first is the name an uncaught one prints); `object`
 * the instance, NULL for a builtin exception. */
/* The names (first classes) of the classes raised lately, each made once
 * (issue 32): a loop that raises two or three classes in turn made one at
 * every raise when only the last was kept. Keyed by the classes' str, which
 * the entry keeps alive (static: the collector scans it), so the same pointer
 * is the same text; another str of the same text (the C road makes its
 * literals at each use) is found by its bytes. */
enum { PPY_EXC_NAMES = 8 };
static struct {
  const ppy_str* classes;
  const ppy_str* name;
} ppy_exc_names[PPY_EXC_NAMES];

static const ppy_str* ppy_exc_name_of(const ppy_str* classes) {
  size_t slot = ((uintptr_t)classes >> 4) % PPY_EXC_NAMES;
  if (ppy_exc_names[slot].classes == classes) return ppy_exc_names[slot].name;
  const char* c = PPY_STR_BYTES(classes);
  const char* end = (const char*)memchr(c, ' ', (size_t)classes->len);
  if (!end) return classes;
  int64_t n = (int64_t)(end - c);
  const ppy_str* last = ppy_exc_names[slot].name;
  const ppy_str* name =
      last && last->len == n && memcmp(PPY_STR_BYTES(last), c, (size_t)n) == 0 ? last : ppy_str_literal(c, n);
  ppy_exc_names[slot].classes = classes;
  ppy_exc_names[slot].name = name;
  return name;
}

/** `raise obj` of an exception class's instance (or again of a caught
 * exception): `classes` is its class, then its bases up to the builtin one,
 * space-separated (the first is the name an uncaught one prints); `object`
 * the instance, NULL for a builtin exception. */
PPY_RT_API PPY_RT_NORETURN void ppy_exc_raise_object(const ppy_str* classes, const ppy_str* message, void* object) {
  const ppy_str* name = ppy_exc_name_of(classes);
  ppy_exc_give(name, message, classes);
  ppy_rt_mark_raise_again(); /* the same object again, or a new instance: ppy_trace.c tells them apart */
  ppy_rt_raise_object(PPY_STR_BYTES(name), PPY_STR_BYTES(message), object, PPY_STR_BYTES(classes));
}

/** The caught exception's instance (NULL for a builtin exception). */
PPY_RT_API void* ppy_exc_object(void) {
  void* object;
  const char* classes;
  ppy_rt_last_object(&object, &classes);
  return object;
}

/** The caught exception's classes (ppy_exc_raise_object), or its name. */
PPY_RT_API ppy_str* ppy_exc_classes(void) {
  void* object;
  const char* classes;
  ppy_rt_last_object(&object, &classes);
  return ppy_exc_answer(classes, PPY_EXC_CLASSES);
}

/** After ppy_exc_set: the caught exception's instance and classes. */
PPY_RT_API void ppy_exc_set_object(void* object, const char* classes) {
  ppy_rt_set_object(object, "");  /* reachable from the runtime's state while the copy is made */
  ppy_rt_set_object(object, PPY_STR_BYTES(ppy_str_of_c(classes)));
}

/* ------------------------------------------------------------------------ */
/* The args of a builtin exception (issue 32)                                 */

/* `raise ValueError(1, 2)`, `raise ValueError(3)`: the repr of the args tuple
 * a raise of compiled code gave, whose str() alone the message cannot tell
 * back (`3` and `'3'`), kept with the name and message it was raised with.
 * ppy_exc_args answers it while the exception caught has that name and
 * message (by their bytes: the interpreter catches a copy, ppy_exc_set), and
 * "" otherwise: repr(e) is then made from the name and message as before, so
 * a raise of one str (the common one) keeps nothing and a catch allocates
 * nothing. Static (declared above ppy_exc_raise, which forgets them), so the
 * collector keeps them. */
static int ppy_exc_same(const ppy_str* s, const char* bytes) {
  return s && bytes && (PPY_STR_BYTES(s) == bytes || strcmp(PPY_STR_BYTES(s), bytes) == 0);
}

/** Keeps `args` (the repr of the args tuple) for the exception `name` with `message`. */
PPY_RT_API void ppy_exc_keep_args(const ppy_str* name, const ppy_str* message, const ppy_str* args) {
  if (!args || args->len == 0) return;
  ppy_exc_args_kept[0] = name;
  ppy_exc_args_kept[1] = message;
  ppy_exc_args_kept[2] = args;
}

/** `raise NAME(args...)` whose args' repr is `args` (`(1, 2)`, `(3,)`). */
PPY_RT_API PPY_RT_NORETURN void ppy_exc_raise_args(const ppy_str* name, const ppy_str* message, const ppy_str* args) {
  ppy_exc_give(name, message, name);
  ppy_exc_keep_args(name, message, args);
  ppy_rt_raise(PPY_STR_BYTES(name), PPY_STR_BYTES(message));
}

/** The repr of the caught exception's args tuple as its raise gave it, or "". */
PPY_RT_API ppy_str* ppy_exc_args(void) {
  const char *name, *message;
  ppy_rt_last_error(&name, &message);
  if (ppy_exc_args_kept[2] && ppy_exc_same(ppy_exc_args_kept[1], message) && ppy_exc_same(ppy_exc_args_kept[0], name))
    return (ppy_str*)ppy_exc_args_kept[2];
  static ppy_str* none; /* made once: every catch asks (static: the collector keeps it) */
  if (!none) none = ppy_str_literal("", 0);
  return none;
}

#endif /* PPY_RT_STRINGS && !PPY_RT_DECLARATIONS_ONLY */

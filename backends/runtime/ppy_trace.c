/* ppy_trace.c: tracebacks of uncaught exceptions (ppy_trace.h). */
#include "ppy_trace.h"

#ifndef PPY_RT_DECLARATIONS_ONLY

static const char* ppy_rt_source_root;

PPY_RT_API void ppy_rt_set_source_root(const char* root) { ppy_rt_source_root = root; }

/** Writes line `line` of `file`, stripped of its indentation and its end, as
 * python3 quotes it (four spaces in); nothing when the file cannot be read. */
static void ppy_rt_trace_quote(const char* file, int64_t line) {
  FILE* f = NULL;
  if (file[0] != '/' && ppy_rt_source_root && ppy_rt_source_root[0]) {
    size_t rl = strlen(ppy_rt_source_root), fl = strlen(file);
    char* path = (char*)malloc(rl + fl + 2);
    if (!path) return;
    memcpy(path, ppy_rt_source_root, rl);
    path[rl] = '/';
    memcpy(path + rl + 1, file, fl + 1);
    f = fopen(path, "r");
    free(path);
  }
  if (!f) f = fopen(file, "r");
  if (!f) return;
  char buf[4096];
  int64_t at = 1;
  int found = 0;
  while (fgets(buf, sizeof buf, f)) {
    size_t n = strlen(buf);
    if (at == line) {
      found = 1;
      break;
    }
    if (n && buf[n - 1] == '\n') ++at;
  }
  fclose(f);
  if (!found) return;
  const char* s = buf;
  while (*s == ' ' || *s == '\t' || *s == '\f') ++s;
  size_t n = strlen(s);
  while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t')) --n;
  if (!n) return;
  ppy_rt_write_err("    ", 4);
  ppy_rt_write_err(s, n);
  ppy_rt_write_err("\n", 1);
}

/** The frame printed last and how often it came again since, for python3's
 * `[Previous line repeated N more times]` after three alike (a recursion). */
typedef struct {
  const char *function, *file;
  int64_t line, count;
} ppy_rt_trace_run;

static void ppy_rt_trace_repeated(ppy_rt_trace_run* run) {
  if (run->count <= 3) return;
  char text[96];
  int64_t more = run->count - 3;
  int len = snprintf(text, sizeof text, "  [Previous line repeated %lld more time%s]\n", (long long)more,
                     more == 1 ? "" : "s");
  ppy_rt_write_err(text, (size_t)len);
}

static void ppy_rt_trace_frame(ppy_rt_trace_run* run, const char* function, const char* file, int64_t line) {
  if (run->function && run->line == line && strcmp(run->function, function) == 0 && strcmp(run->file, file) == 0) {
    if (++run->count > 3) return;
  } else {
    ppy_rt_trace_repeated(run);
    run->function = function;
    run->file = file;
    run->line = line;
    run->count = 1;
  }
  char num[32];
  int len = snprintf(num, sizeof num, "%lld", (long long)line);
  ppy_rt_write_err("  File \"", 8);
  ppy_rt_write_err(file, strlen(file));
  ppy_rt_write_err("\", line ", 8);
  ppy_rt_write_err(num, (size_t)len);
  ppy_rt_write_err(", in ", 5);
  ppy_rt_write_err(function, strlen(function));
  ppy_rt_write_err("\n", 1);
  if (line > 0) ppy_rt_trace_quote(file, line);
}

/* Comprehension k's entry in `code`'s table, or NULL when it has none such
   (a line from code the table does not describe prints as the function's). */
static const ppy_rt_comp* ppy_rt_trace_comp(const ppy_rt_code* code, int64_t k) {
  if (k <= 0 || !code->comps) return NULL;
  for (int64_t i = 1; code->comps[i - 1].function; ++i)
    if (i == k) return &code->comps[i - 1];
  return NULL;
}

/* Writes the frame of `code` at `line`, and when the line is inside a
   comprehension, that comprehension's frames after it, outermost first. */
static void ppy_rt_trace_code_frame(ppy_rt_trace_run* run, const ppy_rt_code* code, int64_t line) {
  int64_t k = line >> 32, at = line & 0xffffffff;
  const ppy_rt_comp* chain[64];
  size_t n = 0;
  for (const ppy_rt_comp* c = ppy_rt_trace_comp(code, k); c && n < 64; c = ppy_rt_trace_comp(code, c->parent))
    chain[n++] = c;
  if (!n) { /* no comprehension, or none the table names */
    ppy_rt_trace_frame(run, code->function, code->file, at);
    return;
  }
  ppy_rt_trace_frame(run, code->function, code->file, chain[n - 1]->line);
  for (size_t i = n; i-- > 0;) ppy_rt_trace_frame(run, chain[i]->function, code->file, i ? chain[i - 1]->line : at);
}

PPY_RT_API void ppy_rt_traceback_write(const ppy_rt_code* const* codes, const int64_t* lines, size_t n) {
  if (!n) return;
  static const char head[] = "Traceback (most recent call last):\n";
  ppy_rt_write_err(head, sizeof head - 1);
  ppy_rt_trace_run run;
  memset(&run, 0, sizeof run);
  for (size_t i = 0; i < n; ++i) ppy_rt_trace_code_frame(&run, codes[i], lines[i]);
  ppy_rt_trace_repeated(&run);
}

/* The frames the last caught raise unwound, innermost first, ending with the
   frame of the try that caught it (its line then); `owner` is that frame. */
enum { PPY_RT_TRACE_KEPT = 256 };
static struct {
  const ppy_rt_code* codes[PPY_RT_TRACE_KEPT];
  int64_t lines[PPY_RT_TRACE_KEPT];
  size_t n;
  const ppy_rt_frame* owner;
  const char* name;
  const char* message;
  const void* object; /* the instance of an exception class; NULL for a builtin's */
  uint64_t tries;     /* ppy_rt_trace_tries when it was caught */
} ppy_rt_trace_kept;

/* How many tries have begun: a raise is the caught one raised again only while
   no try began since it was caught (a handler's bare `raise`, a `finally`). */
static uint64_t ppy_rt_trace_tries;

PPY_RT_INTERNAL void ppy_rt_trace_try_entered(void) { ++ppy_rt_trace_tries; }

static int ppy_rt_trace_same(const char* a, const char* b) { return strcmp(a ? a : "", b ? b : "") == 0; }

static const void* ppy_rt_trace_object(void) {
  void* object;
  const char* classes;
  ppy_rt_last_object(&object, &classes);
  return object;
}

/* Whether the raise under way is the last caught one raised again by the frame
   whose try caught it: raised again (ppy_rt_raising_again), the same instance,
   no try begun since, the same name and message. */
static int ppy_rt_trace_again(const char* name, const char* message) {
  return ppy_rt_trace_kept.owner == ppy_rt_frames && ppy_rt_raising_again() &&
         ppy_rt_trace_kept.object == ppy_rt_trace_object() && ppy_rt_trace_kept.tries == ppy_rt_trace_tries &&
         ppy_rt_trace_same(ppy_rt_trace_kept.name, name) && ppy_rt_trace_same(ppy_rt_trace_kept.message, message);
}

/* Appends to `codes` / `lines` (holding `n`) the frames from `f` out to the
   try's own frame `try_frames`, that one included; answers the count and in
   `*end` the try's frame. */
static size_t ppy_rt_trace_unwound(const ppy_rt_frame* f, const ppy_rt_frame* try_frames, const ppy_rt_code** codes,
                                   int64_t* lines, size_t n, const ppy_rt_frame** end) {
  for (; f && f != try_frames && n < PPY_RT_TRACE_KEPT; f = f->prev) {
    if (!f->code) continue; /* a frame that counts a depth alone */
    codes[n] = f->code;
    lines[n++] = f->line;
  }
  if (f && n < PPY_RT_TRACE_KEPT) { /* the try's own frame */
    codes[n] = f->code;
    lines[n++] = f->line;
  }
  *end = f;
  return n;
}

PPY_RT_INTERNAL void ppy_rt_trace_caught(const ppy_rt_frame* try_frames, const char* name, const char* message) {
  /* Raised again from the frame that caught it before: what it kept goes on. */
  int again = ppy_rt_trace_kept.owner && ppy_rt_trace_again(name, message);
  const ppy_rt_frame* f = ppy_rt_frames;
  size_t n;
  if (!again) { /* a new raise (every raise a loop catches, issue 32): kept as read, no copy */
    n = ppy_rt_trace_unwound(f, try_frames, ppy_rt_trace_kept.codes, ppy_rt_trace_kept.lines, 0, &f);
  } else {
    const ppy_rt_code* codes[PPY_RT_TRACE_KEPT];
    int64_t lines[PPY_RT_TRACE_KEPT];
    n = 0;
    if (f) { /* the catching frame, at the line it had when it first caught it */
      codes[n] = f->code;
      lines[n++] = ppy_rt_trace_kept.n ? ppy_rt_trace_kept.lines[ppy_rt_trace_kept.n - 1] : f->line;
      if (f != try_frames) /* else caught again by a try of the same frame */
        n = ppy_rt_trace_unwound(f->prev, try_frames, codes, lines, n, &f);
    }
    if (ppy_rt_trace_kept.n > 1 && n + ppy_rt_trace_kept.n - 1 <= PPY_RT_TRACE_KEPT) {
      /* inner frames first: what was kept (less its catching frame, now in front) */
      size_t inner = ppy_rt_trace_kept.n - 1;
      memmove(ppy_rt_trace_kept.codes + inner, codes, n * sizeof codes[0]);
      memmove(ppy_rt_trace_kept.lines + inner, lines, n * sizeof lines[0]);
      n += inner;
    } else {
      memcpy(ppy_rt_trace_kept.codes, codes, n * sizeof codes[0]);
      memcpy(ppy_rt_trace_kept.lines, lines, n * sizeof lines[0]);
    }
  }
  ppy_rt_trace_kept.n = n;
  ppy_rt_trace_kept.owner = f;
  ppy_rt_trace_kept.name = name;
  ppy_rt_trace_kept.message = message;
  ppy_rt_trace_kept.object = ppy_rt_trace_object();
  ppy_rt_trace_kept.tries = ppy_rt_trace_tries;
}

PPY_RT_API void ppy_rt_traceback(const char* name, const char* message) {
  size_t n = 0; /* the frames a traceback names (not those counting a depth alone) */
  for (const ppy_rt_frame* f = ppy_rt_frames; f; f = f->prev) n += f->code != NULL;
  if (!n) return;
  /* Raised again by the frame whose try caught it: from where it first came. */
  int again = ppy_rt_trace_kept.n && ppy_rt_trace_again(name, message);
  /* Outermost first, as python3 prints them: the chain reversed, without
     allocating (the collector may be what failed). */
  static const char head[] = "Traceback (most recent call last):\n";
  ppy_rt_write_err(head, sizeof head - 1);
  ppy_rt_trace_run run;
  memset(&run, 0, sizeof run);
  for (size_t k = n; k-- > (again ? 1u : 0u);) {
    const ppy_rt_frame* f = ppy_rt_frames;
    while (!f->code) f = f->prev;
    for (size_t i = 0; i < k; ++i)
      for (f = f->prev; !f->code;) f = f->prev;
    ppy_rt_trace_code_frame(&run, f->code, f->line);
  }
  if (again)
    for (size_t k = ppy_rt_trace_kept.n; k-- > 0;)
      ppy_rt_trace_code_frame(&run, ppy_rt_trace_kept.codes[k], ppy_rt_trace_kept.lines[k]);
  ppy_rt_trace_repeated(&run);
}

#endif /* !PPY_RT_DECLARATIONS_ONLY */

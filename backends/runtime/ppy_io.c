/* ppy_io.c: the standard streams and text files (ppy_io.h). */
#include "ppy_io.h"

#include "ppy_list.h"
#include "ppy_str.h"
#include "ppy_sys.h"

#if defined(PPY_RT_STRINGS) && !defined(PPY_RT_DECLARATIONS_ONLY)

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

/* POSIX's, which <stdio.h> declares only outside strict C11. */
extern int fileno(FILE* stream);

enum { PPY_IO_STDIN, PPY_IO_STDOUT, PPY_IO_STDERR, PPY_IO_FILE };

typedef struct ppy_file {
  FILE* fp; /* stdin or the file; NULL for stdout and stderr (the runtime's writers) */
  int kind;
  int readable, writable, closed;
  int64_t offset; /* bytes read so far: where a decoding error is */
  char* line;     /* the line buffer (malloc'd, reused) */
  size_t line_cap;
  /* speedrt: the read-ahead block of stdin and of files opened for reading
   * only (on the collector, PPY_IO_BLOCK bytes): bytes [block_at, block_end)
   * are read from the file and not yet taken. */
  char* block;
  size_t block_at, block_end;
  /* python3's decoding, emulated (ppy_io_decode): raw bytes [0, fed) were fed to its decoder,
   * 8 KiB at a time; those from `pending` on are an incomplete character it still holds. */
  int64_t fed, pending;
} ppy_file;

static ppy_file* ppy_io_std[3];

static ppy_file* ppy_io_new(FILE* fp, int kind, int readable, int writable) {
  ppy_file* f = (ppy_file*)GC_MALLOC(sizeof(ppy_file));
  f->fp = fp;
  f->kind = kind;
  f->readable = readable;
  f->writable = writable;
  return f;
}

static void* ppy_io_standard(int kind) {
  if (!ppy_io_std[kind]) {
    ppy_io_std[kind] =
        ppy_io_new(kind == PPY_IO_STDIN ? stdin : NULL, kind, kind == PPY_IO_STDIN, kind != PPY_IO_STDIN);
    ppy_list_root((void*)&ppy_io_std[kind]);
  }
  return ppy_io_std[kind];
}

PPY_RT_API void* ppy_io_stdin(void) { return ppy_io_standard(PPY_IO_STDIN); }
PPY_RT_API void* ppy_io_stdout(void) { return ppy_io_standard(PPY_IO_STDOUT); }
PPY_RT_API void* ppy_io_stderr(void) { return ppy_io_standard(PPY_IO_STDERR); }

PPY_RT_API void* ppy_io_open(const ppy_str* path, const ppy_str* mode) {
  const char* m = PPY_STR_BYTES(mode);
  char kind = 0;
  int plus = 0, ok = 1;
  for (const char* c = m; *c; ++c) {
    if (*c == 'r' || *c == 'w' || *c == 'a' || *c == 'x') {
      if (kind) ok = 0;
      kind = *c;
    } else if (*c == '+' && !plus) {
      plus = 1;
    } else if (*c != 't') {
      ok = 0;
    }
  }
  if (!ok || !kind) {
    size_t n = (size_t)mode->len + 32;
    char* text = (char*)GC_MALLOC_ATOMIC(n);
    snprintf(text, n, "invalid mode: '%s'", m);
    ppy_rt_raise("ValueError", text);
  }
  const char* p = PPY_STR_BYTES(path);
  struct stat st;
  if (kind == 'r' && stat(p, &st) == 0 && S_ISDIR(st.st_mode)) ppy_sys_raise_os_error(EISDIR, path);
  const char* cmode = kind == 'r'   ? (plus ? "r+" : "r")
                      : kind == 'w' ? (plus ? "w+" : "w")
                      : kind == 'a' ? (plus ? "a+" : "a")
                                    : (plus ? "w+x" : "wx");
  FILE* fp = fopen(p, cmode);
  if (!fp) ppy_sys_raise_os_error(errno, path);
  return ppy_io_new(fp, PPY_IO_FILE, kind == 'r' || plus, kind != 'r' || plus);
}

static void ppy_io_check(ppy_file* f, int reading) {
  if (f->closed) ppy_rt_raise("ValueError", "I/O operation on closed file.");
  if (reading && !f->readable) ppy_rt_raise("io.UnsupportedOperation", "not readable");
  if (!reading && !f->writable) ppy_rt_raise("io.UnsupportedOperation", "not writable");
}

/** UnicodeDecodeError unless bytes[0, n) are UTF-8 (`at`: the file offset of
 * bytes[0], for the message's position); answers their count of code points.
 * Runs of ASCII go eight bytes at a step. */
static int64_t ppy_io_check_utf8(const unsigned char* b, int64_t n, int64_t at) {
  int64_t ncp = 0;
  for (int64_t i = 0; i < n;) {
    uint64_t word;
    if (i + 8 <= n && (memcpy(&word, b + i, 8), (word & 0x8080808080808080ULL) == 0)) {
      i += 8;
      ncp += 8;
      continue;
    }
    unsigned c = b[i];
    int need = c < 0x80                          ? 0
               : (c & 0xE0) == 0xC0 && c >= 0xC2 ? 1
               : (c & 0xF0) == 0xE0              ? 2
               : (c & 0xF8) == 0xF0 && c <= 0xF4 ? 3
                                                 : -1;
    const char* why = NULL;
    if (need < 0) {
      why = "invalid start byte";
    } else {
      for (int k = 1; k <= need && !why; ++k) {
        if (i + k >= n) {
          why = "unexpected end of data";
          break;
        }
        unsigned d = b[i + k];
        unsigned lo = 0x80, hi = 0xBF;
        if (k == 1 && c == 0xE0) lo = 0xA0;
        if (k == 1 && c == 0xED) hi = 0x9F;
        if (k == 1 && c == 0xF0) lo = 0x90;
        if (k == 1 && c == 0xF4) hi = 0x8F;
        if (d < lo || d > hi) why = "invalid continuation byte";
      }
    }
    if (why) {
      char* text = (char*)GC_MALLOC_ATOMIC(128);
      snprintf(text, 128, "'utf-8' codec can't decode byte 0x%02x in position %lld: %s", c, (long long)(at + i), why);
      ppy_rt_raise("UnicodeDecodeError", text);
    }
    i += need + 1;
    ++ncp;
  }
  return ncp;
}

/* python3's TextIOWrapper decodes a file 8 KiB at a time (its chunk size; a
 * readline decodes the chunks up to the one that holds the line's end, read()
 * the whole rest at once), so a byte that is not UTF-8 raises
 * UnicodeDecodeError before the lines of its chunk, good ones too, are handed
 * out, and the message's position counts from the start of what that decode
 * was given: the chunk, after the bytes of a character the previous chunk
 * left incomplete. ppy_io_decode checks the bytes of a file read ahead in the
 * same steps; the block (64 KiB) holds whole chunks. */
enum { PPY_IO_CHUNK = 8192 };

/* speedrt: the read-ahead block (ppy_io_fill). */
enum { PPY_IO_BLOCK = 64 * 1024 };

/** The UTF-8 sequence at b[0] (`n` bytes there): its length when whole and
 * valid, 0 when a valid prefix runs past `n`, else minus the length of its
 * valid prefix, with `why`. */
static int ppy_io_utf8_seq(const unsigned char* b, int64_t n, const char** why) {
  unsigned c = b[0];
  int need = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 && c >= 0xC2 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 && c <= 0xF4 ? 3 : -1;
  if (need < 0) {
    *why = "invalid start byte";
    return -1;
  }
  for (int k = 1; k <= need; ++k) {
    if (k >= n) return 0;
    unsigned d = b[k], lo = 0x80, hi = 0xBF;
    if (k == 1 && c == 0xE0) lo = 0xA0;
    if (k == 1 && c == 0xED) hi = 0x9F;
    if (k == 1 && c == 0xF0) lo = 0x90;
    if (k == 1 && c == 0xF4) hi = 0x8F;
    if (d < lo || d > hi) {
      *why = "invalid continuation byte";
      return -k;
    }
  }
  return need + 1;
}

/** Raises python3's UnicodeDecodeError for the `len` bytes at `b`, at `pos` of the decode's input. */
static PPY_RT_NORETURN void ppy_io_decode_error(const unsigned char* b, int64_t len, int64_t pos, const char* why) {
  char* text = (char*)GC_MALLOC_ATOMIC(160);
  if (len == 1)
    snprintf(text, 160, "'utf-8' codec can't decode byte 0x%02x in position %lld: %s", b[0], (long long)pos, why);
  else
    snprintf(text, 160, "'utf-8' codec can't decode bytes in position %lld-%lld: %s", (long long)pos,
             (long long)(pos + len - 1), why);
  ppy_rt_raise("UnicodeDecodeError", text);
}

/** At the end of a file: the bytes of an incomplete character python3's decoder still holds. */
static void ppy_io_decode_end(ppy_file* f, int whole, int64_t base) {
  if (f->kind != PPY_IO_FILE || f->pending >= f->fed) return;
  int64_t block_start = f->offset - (int64_t)f->block_at;
  if (f->pending < block_start) return;
  const unsigned char* b = (const unsigned char*)f->block + (f->pending - block_start);
  ppy_io_decode_error(b, f->fed - f->pending, whole ? f->pending - base : 0, "unexpected end of data");
}

/** Feeds python3's decoder the file's bytes up to raw offset `upto` (`whole`:
 * read(), one decode of the rest from `base`), from the read-ahead block. */
static void ppy_io_decode(ppy_file* f, int64_t upto, int whole, int64_t base) {
  if (f->kind != PPY_IO_FILE) return;
  int64_t block_start = f->offset - (int64_t)f->block_at;
  int64_t block_stop = block_start + (int64_t)f->block_end;
  if (f->pending < block_start) { /* a character split across blocks: its bytes here are skipped, not followed */
    f->pending = block_start;
    for (int k = 0; k < 3 && f->pending < block_stop && ((unsigned char)f->block[f->pending - block_start] & 0xC0) == 0x80; ++k)
      ++f->pending;
  }
  while (f->fed < upto && f->fed < block_stop) {
    int64_t end = whole ? block_stop : (f->fed / PPY_IO_CHUNK + 1) * PPY_IO_CHUNK;
    if (end > block_stop) end = block_stop;
    int64_t from = whole ? base : f->pending; /* where this decode's input starts */
    int64_t i = f->pending;
    while (i < end) {
      const unsigned char* b = (const unsigned char*)f->block + (i - block_start);
      const char* why = NULL;
      int len = ppy_io_utf8_seq(b, end - i, &why);
      if (len < 0) ppy_io_decode_error(b, -len, i - from, why);
      if (len == 0 || i + len > end) break; /* incomplete: held for the next chunk */
      i += len;
    }
    f->pending = i;
    f->fed = end;
  }
  /* A short block is the file's end (a regular file's read is short only there): a line or a
   * read() that reaches it ends the decode, as python3's does when it reads nothing more. */
  if (upto >= block_stop && f->block_end < PPY_IO_BLOCK) ppy_io_decode_end(f, whole, base);
}

/** The str of the `n` checked bytes at `b` read from file offset `at`. */
static ppy_str* ppy_io_text(const char* b, size_t n, int64_t at) {
  int64_t ncp = ppy_io_check_utf8((const unsigned char*)b, (int64_t)n, at);
  ppy_str* s = ppy_str_alloc((int64_t)n, ncp);
  if (n) memcpy(PPY_STR_BYTES(s), b, n);
  return s;
}

/** Appends `n` bytes at `b` to f->line (holding `*len`). */
static void ppy_io_append(ppy_file* f, size_t* len, const char* b, size_t n) {
  if (*len + n >= f->line_cap) {
    size_t cap = f->line_cap ? f->line_cap : 256;
    while (*len + n >= cap) cap *= 2;
    char* grown = (char*)realloc(f->line, cap);
    if (!grown) ppy_rt_raise("MemoryError", "");
    f->line = grown;
    f->line_cap = cap;
  }
  memcpy(f->line + *len, b, n);
  *len += n;
}

/** Reads up to a newline (`whole`: to the end) into f->line one character at a
 * time, newlines translated: a file open for reading and writing, whose
 * stdio position a read-ahead would move. */
static ppy_str* ppy_io_take_chars(ppy_file* f, int whole) {
  size_t len = 0;
  int64_t start = f->offset;
  for (;;) {
    int c = getc(f->fp);
    if (c == EOF) break;
    ++f->offset;
    if (c == '\r') {
      int d = getc(f->fp);
      if (d == '\n')
        ++f->offset;
      else if (d != EOF)
        ungetc(d, f->fp);
      c = '\n';
    }
    char one = (char)c;
    ppy_io_append(f, &len, &one, 1);
    if (c == '\n' && !whole) break;
  }
  return ppy_io_text(len ? f->line : "", len, start);
}

/* speedrt: a block read at a time (a getc per character was a fifth of
 * wordfreq's time). read(2), not fread: stdin from a pipe or a terminal answers
 * the line typed without waiting for a whole block. */

/** Refills the read-ahead block: false at the end of the file (or an error, as
 * getc's EOF). */
static int ppy_io_fill(ppy_file* f) {
  if (!f->block) {
    f->block = (char*)GC_MALLOC_ATOMIC(PPY_IO_BLOCK);
    if (!f->block) ppy_rt_raise("MemoryError", "");
  }
  f->block_at = f->block_end = 0;
  for (;;) {
    ssize_t got = read(fileno(f->fp), f->block, PPY_IO_BLOCK);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return 0;
    f->block_end = (size_t)got;
    return 1;
  }
}

/** Reads up to a newline (`whole`: to the end), newlines translated, from the
 * read-ahead block: a line inside the block becomes its str straight from
 * there; one that crosses blocks (or holds a \r) is gathered in f->line. */
static ppy_str* ppy_io_take(ppy_file* f, int whole) {
  if (f->kind == PPY_IO_FILE && f->writable) return ppy_io_take_chars(f, whole);
  size_t len = 0;
  int64_t start = f->offset;
  int64_t base = f->pending > f->fed ? f->fed : f->pending; /* read(): its one decode starts here */
  for (;;) {
    if (f->block_at == f->block_end && !ppy_io_fill(f)) {
      ppy_io_decode_end(f, whole, base);
      break;
    }
    const char* b = f->block + f->block_at;
    size_t avail = f->block_end - f->block_at;
    const char* nl = whole ? NULL : (const char*)memchr(b, '\n', avail);
    size_t seg = nl ? (size_t)(nl - b) + 1 : avail;
    ppy_io_decode(f, f->offset + (int64_t)seg, whole, base);
    const char* cr = (const char*)memchr(b, '\r', seg);
    if (cr) seg = (size_t)(cr - b);
    if (!cr && nl && len == 0) { /* the whole line is in the block */
      f->block_at += seg;
      f->offset += (int64_t)seg;
      return ppy_io_text(b, seg, start);
    }
    ppy_io_append(f, &len, b, seg);
    f->block_at += seg;
    f->offset += (int64_t)seg;
    if (cr) { /* \r\n and \r read as \n */
      ++f->block_at;
      ++f->offset;
      if (f->block_at < f->block_end || ppy_io_fill(f)) {
        if (f->block[f->block_at] == '\n') {
          ++f->block_at;
          ++f->offset;
        }
      }
      ppy_io_append(f, &len, "\n", 1);
      if (!whole) break;
      continue;
    }
    if (nl) break;
  }
  return ppy_io_text(len ? f->line : "", len, start);
}

PPY_RT_API ppy_str* ppy_io_read(void* stream) {
  ppy_file* f = (ppy_file*)stream;
  ppy_io_check(f, 1);
  return ppy_io_take(f, 1);
}

PPY_RT_API ppy_str* ppy_io_readline(void* stream) {
  ppy_file* f = (ppy_file*)stream;
  ppy_io_check(f, 1);
  return ppy_io_take(f, 0);
}

PPY_RT_API ppy_str* ppy_io_next(void* stream) {
  ppy_str* s = ppy_io_readline(stream);
  if (s->len == 0) ppy_rt_raise("StopIteration", "");
  return s;
}

PPY_RT_API ppy_str* ppy_io_next_or(void* stream, ppy_str* fallback) {
  ppy_str* s = ppy_io_readline(stream);
  return s->len == 0 ? fallback : s;
}

PPY_RT_API ppy_str* ppy_io_readline_if(void* stream, int64_t more) {
  return more ? ppy_io_readline(stream) : ppy_str_literal("", 0);
}

PPY_RT_API ppy_list* ppy_io_readlines(void* stream) {
  ppy_file* f = (ppy_file*)stream;
  ppy_io_check(f, 1);
  ppy_list* l = ppy_list_new_ptr(0);
  for (;;) {
    ppy_str* s = ppy_io_take(f, 0);
    if (s->len == 0) break;
    ppy_list_append_ptr(l, s);
  }
  return l;
}

PPY_RT_API int64_t ppy_io_write(void* stream, const ppy_str* s) {
  ppy_file* f = (ppy_file*)stream;
  ppy_io_check(f, 0);
  if (f->kind == PPY_IO_STDOUT)
    ppy_rt_write(PPY_STR_BYTES(s), (size_t)s->len);
  else if (f->kind == PPY_IO_STDERR)
    ppy_rt_write_err(PPY_STR_BYTES(s), (size_t)s->len);
  else if (s->len && fwrite(PPY_STR_BYTES(s), 1, (size_t)s->len, f->fp) != (size_t)s->len)
    ppy_sys_raise_os_error(errno, NULL);
  return s->ncp;
}

PPY_RT_API void ppy_io_writelines(void* stream, const ppy_list* lines) {
  for (int64_t i = 0; i < lines->len; ++i) ppy_io_write(stream, ((ppy_str**)lines->data)[i]);
  if (lines->len == 0) ppy_io_check((ppy_file*)stream, 0);
}

PPY_RT_API void ppy_io_flush(void* stream) {
  ppy_file* f = (ppy_file*)stream;
  if (f->closed) ppy_rt_raise("ValueError", "I/O operation on closed file.");
  if (f->kind == PPY_IO_STDOUT) ppy_rt_flush();
  if (f->kind == PPY_IO_FILE) fflush(f->fp);
}

/** Closing twice is no error, as in Python; closing a standard stream only
 * marks it closed. */
PPY_RT_API void ppy_io_close(void* stream) {
  ppy_file* f = (ppy_file*)stream;
  if (f->closed) return;
  if (f->kind == PPY_IO_STDOUT) ppy_rt_flush();
  f->closed = 1;
  if (f->kind == PPY_IO_FILE) fclose(f->fp);
  f->fp = NULL;
  free(f->line);
  f->line = NULL;
  f->line_cap = 0;
  f->block = NULL; /* the collector takes it */
  f->block_at = f->block_end = 0;
}

PPY_RT_API ppy_str* ppy_io_input(void) {
  ppy_file* f = (ppy_file*)ppy_io_stdin();
  ppy_io_check(f, 1);
  ppy_rt_flush(); /* as CPython's input() flushes stdout first; sys.stdin's reads do not */
  ppy_str* s = ppy_io_take(f, 0);
  if (s->len == 0) ppy_rt_raise("EOFError", "EOF when reading a line");
  if (PPY_STR_BYTES(s)[s->len - 1] == '\n') return ppy_str_literal(PPY_STR_BYTES(s), s->len - 1);
  return s;
}

PPY_RT_API ppy_str* ppy_io_input_prompt(const ppy_str* prompt) {
  ppy_rt_write(PPY_STR_BYTES(prompt), (size_t)prompt->len);
  ppy_rt_flush();
  return ppy_io_input();
}

#endif /* PPY_RT_STRINGS && !PPY_RT_DECLARATIONS_ONLY */

/* ppy_io.h: the standard streams and text files (docs/runtime.md, "Streams
 * and files"): input(), sys.stdin / sys.stdout / sys.stderr, open() in the
 * text modes r, w, a and x (UTF-8), and their methods.
 *
 * A stream is a handle (`ptr<i8>` on the IR) on the collector. sys.stdout
 * writes through the runtime's output buffer, so it interleaves with print
 * exactly; sys.stderr is unbuffered, as python3's is to a pipe. Reading
 * translates newlines as Python's text mode does (\r\n and \r read as \n) and
 * checks the text is UTF-8 (UnicodeDecodeError). Reading takes a 64 KiB block
 * at a time (a file opened with `+`: a character at a time); a line that
 * crosses blocks is gathered in one buffer the stream reuses, so walking a file
 * line by line holds one line and one block at a time, whatever its size.
 */
#ifndef PPY_IO_H
#define PPY_IO_H

#include "ppy_runtime.h"

#ifdef PPY_RT_STRINGS

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ppy_str ppy_str;   /* ppy_str.h */
typedef struct ppy_list ppy_list; /* ppy_list.h */

PPY_RT_API void* ppy_io_stdin(void);
PPY_RT_API void* ppy_io_stdout(void);
PPY_RT_API void* ppy_io_stderr(void);
/** `open(path, mode)`: FileNotFoundError, PermissionError, IsADirectoryError,
 * FileExistsError with Python's message; ValueError for a mode outside the
 * text modes. */
PPY_RT_API void* ppy_io_open(const ppy_str* path, const ppy_str* mode);
PPY_RT_API ppy_str* ppy_io_read(void* f);
/** The next line with its '\n' ("" at the end). */
PPY_RT_API ppy_str* ppy_io_readline(void* f);
PPY_RT_API ppy_list* ppy_io_readlines(void* f);
/** `next(f)`: the next line, StopIteration at the end; `next(f, default)`: the default there. */
PPY_RT_API ppy_str* ppy_io_next(void* f);
PPY_RT_API ppy_str* ppy_io_next_or(void* f, ppy_str* fallback);
/** `f.readline()` when `more`, else "" with nothing read: zip's later stream, which python3
 * does not read once an earlier iterable is exhausted. */
PPY_RT_API ppy_str* ppy_io_readline_if(void* f, int64_t more);
/** Answers the count of code points written, as Python's write does. */
PPY_RT_API int64_t ppy_io_write(void* f, const ppy_str* s);
PPY_RT_API void ppy_io_writelines(void* f, const ppy_list* lines);
PPY_RT_API void ppy_io_flush(void* f);
PPY_RT_API void ppy_io_close(void* f);
/** `input()` / `input(prompt)`: the next line of stdin without its '\n';
 * EOFError at the end. stdout is flushed first, as python3 flushes it. */
PPY_RT_API ppy_str* ppy_io_input(void);
PPY_RT_API ppy_str* ppy_io_input_prompt(const ppy_str* prompt);

#ifdef __cplusplus
}
#endif

#endif /* PPY_RT_STRINGS */

#endif /* PPY_IO_H */

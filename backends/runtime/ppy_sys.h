/* ppy_sys.h: what a program asks of its process and its file system
 * (docs/runtime.md, "Arguments, exit and the file system"): sys.argv,
 * sys.exit, os.environ, os.getcwd, os.listdir, os.remove and os.path.
 *
 * Compiled only with PPY_RT_STRINGS: everything here takes or gives strs.
 */
#ifndef PPY_SYS_H
#define PPY_SYS_H

#include "ppy_runtime.h"

#ifdef PPY_RT_STRINGS

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ppy_str ppy_str;   /* ppy_str.h */
typedef struct ppy_list ppy_list; /* ppy_list.h */

/** Records the program's arguments (`sys.argv`): main() of an executable, the
 * JIT and the interpreter call it before the program runs. */
PPY_RT_API void ppy_sys_set_argv(int argc, char** argv);
PPY_RT_API ppy_list* ppy_sys_argv(void);
/** `sys.exit(code)`, `sys.exit("message")`, `sys.exit()`: SystemExit. */
PPY_RT_API PPY_RT_NORETURN void ppy_sys_exit(int64_t code);
PPY_RT_API PPY_RT_NORETURN void ppy_sys_exit_str(const ppy_str* message);
PPY_RT_API PPY_RT_NORETURN void ppy_sys_exit_none(void);
/** `os.environ.get(key, default)`: default (possibly NULL: None) when unset. */
PPY_RT_API ppy_str* ppy_os_environ_get(const ppy_str* key, const ppy_str* fallback);
/** `key in os.environ`. */
PPY_RT_API int64_t ppy_os_environ_has(const ppy_str* key);
/** `os.environ[key]`: KeyError of the key's repr when unset, as Python's. */
PPY_RT_API ppy_str* ppy_os_environ_item(const ppy_str* key);
PPY_RT_API ppy_str* ppy_os_getcwd(void);
PPY_RT_API ppy_list* ppy_os_listdir(const ppy_str* path);
PPY_RT_API void ppy_os_remove(const ppy_str* path);
PPY_RT_API int64_t ppy_os_path_exists(const ppy_str* path);
PPY_RT_API int64_t ppy_os_path_isfile(const ppy_str* path);
PPY_RT_API int64_t ppy_os_path_isdir(const ppy_str* path);
PPY_RT_API ppy_str* ppy_os_path_join(const ppy_str* a, const ppy_str* b);
PPY_RT_API ppy_str* ppy_os_path_basename(const ppy_str* path);
PPY_RT_API ppy_str* ppy_os_path_dirname(const ppy_str* path);
/** `os.path.splitext(p)`: the root (0) or the extension (1). */
PPY_RT_API ppy_str* ppy_os_path_splitext(const ppy_str* path, int64_t part);
/** Raises the OSError subclass errno `err` names, as Python words it:
 * `[Errno 2] No such file or directory: 'x'` (ppy_io.c, this file). */
PPY_RT_API PPY_RT_NORETURN void ppy_sys_raise_os_error(int err, const ppy_str* path);

#ifdef __cplusplus
}
#endif

#endif /* PPY_RT_STRINGS */

#endif /* PPY_SYS_H */

/* ppy_sys.c: arguments, exit, environment and the file system (ppy_sys.h). */
#include "ppy_sys.h"

#include "ppy_exc.h"
#include "ppy_list.h"
#include "ppy_str.h"

#if defined(PPY_RT_STRINGS) && !defined(PPY_RT_DECLARATIONS_ONLY)

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

static struct {
  int argc;
  char** argv;
  ppy_list* list; /* made once: sys.argv is one list the program may change */
} ppy_sys_state;

PPY_RT_API void ppy_sys_set_argv(int argc, char** argv) {
  ppy_sys_state.argc = argc;
  ppy_sys_state.argv = argv;
  ppy_sys_state.list = NULL;
}

static ppy_str* ppy_sys_str(const char* s) { return ppy_str_literal(s, (int64_t)strlen(s)); }

PPY_RT_API ppy_list* ppy_sys_argv(void) {
  if (!ppy_sys_state.list) {
    ppy_list* l = ppy_list_new_ptr(0);
    for (int i = 0; i < ppy_sys_state.argc; ++i) ppy_list_append_ptr(l, ppy_sys_str(ppy_sys_state.argv[i]));
    if (ppy_sys_state.argc == 0) ppy_list_append_ptr(l, ppy_sys_str(""));
    ppy_sys_state.list = l;
    ppy_list_root(&ppy_sys_state.list);
  }
  return ppy_sys_state.list;
}

/* SystemExit's args are kept (ppy_exc_keep_args) where its message cannot tell
 * them: `(3,)` of an int code, `('3',)` of a str, so `e.code` reads the
 * int, the str or None back as python3 has it (io_helpers.cc). */
PPY_RT_API PPY_RT_NORETURN void ppy_sys_exit(int64_t code) {
  char text[32], args[40];
  snprintf(text, sizeof text, "%lld", (long long)code);
  snprintf(args, sizeof args, "(%lld,)", (long long)code);
  ppy_str* message = ppy_sys_str(text);
  ppy_exc_keep_args(ppy_sys_str("SystemExit"), message, ppy_sys_str(args));
  ppy_rt_set_exit((int)code, 0);
  ppy_rt_raise("SystemExit", PPY_STR_BYTES(message)); /* the runtime keeps the pointer */
}

PPY_RT_API PPY_RT_NORETURN void ppy_sys_exit_str(const ppy_str* message) {
  ppy_str* args = ppy_str_concat(ppy_str_concat(ppy_sys_str("("), ppy_str_repr(message)), ppy_sys_str(",)"));
  ppy_exc_keep_args(ppy_sys_str("SystemExit"), message, args);
  ppy_rt_set_exit(1, 1);
  ppy_rt_raise("SystemExit", PPY_STR_BYTES(message));
}

PPY_RT_API PPY_RT_NORETURN void ppy_sys_exit_none(void) {
  ppy_rt_set_exit(0, 0);
  ppy_rt_raise("SystemExit", "");
}

PPY_RT_API int64_t ppy_os_environ_has(const ppy_str* key) { return getenv(PPY_STR_BYTES(key)) != NULL; }

PPY_RT_API ppy_str* ppy_os_environ_item(const ppy_str* key) {
  const char* v = getenv(PPY_STR_BYTES(key));
  if (!v) ppy_rt_raise("KeyError", PPY_STR_BYTES(ppy_str_repr(key)));
  return ppy_sys_str(v);
}

PPY_RT_API ppy_str* ppy_os_environ_get(const ppy_str* key, const ppy_str* fallback) {
  const char* v = getenv(PPY_STR_BYTES(key));
  return v ? ppy_sys_str(v) : (ppy_str*)fallback;
}

PPY_RT_API PPY_RT_NORETURN void ppy_sys_raise_os_error(int err, const ppy_str* path) {
  const char* name = "OSError";
  switch (err) {
    case ENOENT:
      name = "FileNotFoundError";
      break;
    case EACCES:
    case EPERM:
      name = "PermissionError";
      break;
    case EISDIR:
      name = "IsADirectoryError";
      break;
    case ENOTDIR:
      name = "NotADirectoryError";
      break;
    case EEXIST:
      name = "FileExistsError";
      break;
    default:
      break;
  }
  ppy_str* r = path ? ppy_str_repr(path) : NULL;
  const char* reason = strerror(err);
  size_t n = strlen(reason) + (r ? (size_t)r->len : 0) + 32;
  char* text = (char*)GC_MALLOC_ATOMIC(n);
  if (r)
    snprintf(text, n, "[Errno %d] %s: %s", err, reason, PPY_STR_BYTES(r));
  else
    snprintf(text, n, "[Errno %d] %s", err, reason);
  /* Its args are (errno, strerror), which e.args shows (ppy_exc_args), the path aside, as python3's. */
  ppy_str* why = ppy_str_repr(ppy_sys_str(reason));
  size_t an = (size_t)why->len + 32;
  char* args = (char*)GC_MALLOC_ATOMIC(an);
  snprintf(args, an, "(%d, %s)", err, PPY_STR_BYTES(why));
  ppy_exc_keep_args(ppy_sys_str(name), ppy_sys_str(text), ppy_sys_str(args));
  ppy_rt_raise(name, text);
}

PPY_RT_API ppy_str* ppy_os_getcwd(void) {
  char buf[4096];
  if (!getcwd(buf, sizeof buf)) ppy_sys_raise_os_error(errno, NULL);
  return ppy_sys_str(buf);
}

/** os.listdir: in the directory's own order, as Python lists it (no sort). */
PPY_RT_API ppy_list* ppy_os_listdir(const ppy_str* path) {
  DIR* d = opendir(PPY_STR_BYTES(path));
  if (!d) ppy_sys_raise_os_error(errno, path);
  ppy_list* l = ppy_list_new_ptr(0);
  for (struct dirent* e; (e = readdir(d)) != NULL;) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    ppy_list_append_ptr(l, ppy_sys_str(e->d_name));
  }
  closedir(d);
  return l;
}

PPY_RT_API void ppy_os_remove(const ppy_str* path) {
  struct stat st;
  if (stat(PPY_STR_BYTES(path), &st) == 0 && S_ISDIR(st.st_mode)) ppy_sys_raise_os_error(EISDIR, path);
  if (unlink(PPY_STR_BYTES(path)) != 0) ppy_sys_raise_os_error(errno, path);
}

PPY_RT_API int64_t ppy_os_path_exists(const ppy_str* path) {
  struct stat st;
  return stat(PPY_STR_BYTES(path), &st) == 0;
}
PPY_RT_API int64_t ppy_os_path_isfile(const ppy_str* path) {
  struct stat st;
  return stat(PPY_STR_BYTES(path), &st) == 0 && S_ISREG(st.st_mode);
}
PPY_RT_API int64_t ppy_os_path_isdir(const ppy_str* path) {
  struct stat st;
  return stat(PPY_STR_BYTES(path), &st) == 0 && S_ISDIR(st.st_mode);
}

/** posixpath.join(a, b): b when absolute, else a and b with one '/' between. */
PPY_RT_API ppy_str* ppy_os_path_join(const ppy_str* a, const ppy_str* b) {
  const char* bb = PPY_STR_BYTES(b);
  if (bb[0] == '/' || a->len == 0) return (ppy_str*)b;
  if (PPY_STR_BYTES(a)[a->len - 1] == '/') return ppy_str_concat(a, b);
  return ppy_str_concat(ppy_str_concat(a, ppy_str_literal("/", 1)), b);
}

/** posixpath.basename: what follows the last '/'. */
PPY_RT_API ppy_str* ppy_os_path_basename(const ppy_str* path) {
  const char* p = PPY_STR_BYTES(path);
  const char* slash = strrchr(p, '/');
  return slash ? ppy_sys_str(slash + 1) : (ppy_str*)path;
}

/** posixpath.dirname: up to the last '/', trailing slashes dropped unless
 * that leaves only slashes. */
PPY_RT_API ppy_str* ppy_os_path_dirname(const ppy_str* path) {
  const char* p = PPY_STR_BYTES(path);
  const char* slash = strrchr(p, '/');
  if (!slash) return ppy_str_literal("", 0);
  int64_t n = (int64_t)(slash - p) + 1;
  int64_t k = n;
  while (k > 0 && p[k - 1] == '/') --k;
  return ppy_str_literal(p, k > 0 ? k : n);
}

/** posixpath.splitext: the extension is the last '.' of the last component
 * and everything after it, unless the component is only dots before it. */
PPY_RT_API ppy_str* ppy_os_path_splitext(const ppy_str* path, int64_t part) {
  const char* p = PPY_STR_BYTES(path);
  const char* slash = strrchr(p, '/');
  const char* base = slash ? slash + 1 : p;
  const char* dot = strrchr(base, '.');
  int64_t cut = path->len;
  if (dot) {
    const char* q = base;
    while (q < dot && *q == '.') ++q;
    if (q < dot) cut = (int64_t)(dot - p);
  }
  return part == 0 ? ppy_str_literal(p, cut) : ppy_str_literal(p + cut, path->len - cut);
}

#endif /* PPY_RT_STRINGS && !PPY_RT_DECLARATIONS_ONLY */

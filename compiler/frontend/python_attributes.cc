// Python's own attribute names of the builtin types and standard modules a
// ppy program uses (python_attributes.h), from python3.11's dir(), dunder
// names left out (`sorted(n for n in dir(list) if not n.startswith("__"))`;
// modules without their private `_` names).
#include "python_attributes.h"

#include <map>

#include "ppy/util/str_cat.h"
#include "suggest.h"

namespace ppy::frontend {

const std::vector<std::string>* python_attributes(std::string_view owner) {
  static const std::map<std::string, std::vector<std::string>, std::less<>> kAttributes = {
    {"list",
     {"append", "clear", "copy", "count", "extend", "index", "insert", "pop", "remove", "reverse", "sort"}},
    {"str",
     {"capitalize", "casefold", "center", "count", "encode", "endswith", "expandtabs", "find", "format",
      "format_map", "index", "isalnum", "isalpha", "isascii", "isdecimal", "isdigit", "isidentifier", "islower",
      "isnumeric", "isprintable", "isspace", "istitle", "isupper", "join", "ljust", "lower", "lstrip", "maketrans",
      "partition", "removeprefix", "removesuffix", "replace", "rfind", "rindex", "rjust", "rpartition", "rsplit",
      "rstrip", "split", "splitlines", "startswith", "strip", "swapcase", "title", "translate", "upper", "zfill"}},
    {"dict",
     {"clear", "copy", "fromkeys", "get", "items", "keys", "pop", "popitem", "setdefault", "update", "values"}},
    {"set",
     {"add", "clear", "copy", "difference", "difference_update", "discard", "intersection", "intersection_update",
      "isdisjoint", "issubset", "issuperset", "pop", "remove", "symmetric_difference",
      "symmetric_difference_update", "union", "update"}},
    {"tuple",
     {"count", "index"}},
    {"int",
     {"as_integer_ratio", "bit_count", "bit_length", "conjugate", "denominator", "from_bytes", "imag", "numerator",
      "real", "to_bytes"}},
    {"float",
     {"as_integer_ratio", "conjugate", "fromhex", "hex", "imag", "is_integer", "real"}},
    {"module math",
     {"acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil", "comb", "copysign", "cos", "cosh",
      "degrees", "dist", "e", "erf", "erfc", "exp", "exp2", "expm1", "fabs", "factorial", "floor", "fmod", "frexp",
      "fsum", "gamma", "gcd", "hypot", "inf", "isclose", "isfinite", "isinf", "isnan", "isqrt", "lcm", "ldexp",
      "lgamma", "log", "log10", "log1p", "log2", "modf", "nan", "nextafter", "perm", "pi", "pow", "prod", "radians",
      "remainder", "sin", "sinh", "sqrt", "tan", "tanh", "tau", "trunc", "ulp"}},
    {"module random",
     {"BPF", "LOG4", "NV_MAGICCONST", "RECIP_BPF", "Random", "SG_MAGICCONST", "SystemRandom", "TWOPI",
      "betavariate", "choice", "choices", "expovariate", "gammavariate", "gauss", "getrandbits", "getstate",
      "lognormvariate", "normalvariate", "paretovariate", "randbytes", "randint", "random", "randrange", "sample",
      "seed", "setstate", "shuffle", "triangular", "uniform", "vonmisesvariate", "weibullvariate"}},
    {"module itertools",
     {"accumulate", "chain", "combinations", "combinations_with_replacement", "compress", "count", "cycle",
      "dropwhile", "filterfalse", "groupby", "islice", "pairwise", "permutations", "product", "repeat", "starmap",
      "takewhile", "tee", "zip_longest"}},
    {"module functools",
     {"GenericAlias", "RLock", "WRAPPER_ASSIGNMENTS", "WRAPPER_UPDATES", "cache", "cached_property", "cmp_to_key",
      "get_cache_token", "lru_cache", "namedtuple", "partial", "partialmethod", "recursive_repr", "reduce",
      "singledispatch", "singledispatchmethod", "total_ordering", "update_wrapper", "wraps"}},
    {"module collections",
     {"ChainMap", "Counter", "OrderedDict", "UserDict", "UserList", "UserString", "abc", "defaultdict", "deque",
      "namedtuple"}},
    {"module string",
     {"Formatter", "Template", "ascii_letters", "ascii_lowercase", "ascii_uppercase", "capwords", "digits",
      "hexdigits", "octdigits", "printable", "punctuation", "whitespace"}},
    {"module sys",
     {"abiflags", "addaudithook", "api_version", "argv", "audit", "base_exec_prefix", "base_prefix",
      "breakpointhook", "builtin_module_names", "byteorder", "call_tracing", "copyright", "displayhook",
      "dont_write_bytecode", "exc_info", "excepthook", "exception", "exec_prefix", "executable", "exit", "flags",
      "float_info", "float_repr_style", "get_asyncgen_hooks", "get_coroutine_origin_tracking_depth",
      "get_int_max_str_digits", "getallocatedblocks", "getdefaultencoding", "getdlopenflags",
      "getfilesystemencodeerrors", "getfilesystemencoding", "getprofile", "getrecursionlimit", "getrefcount",
      "getsizeof", "getswitchinterval", "gettrace", "hash_info", "hexversion", "implementation", "int_info",
      "intern", "is_finalizing", "maxsize", "maxunicode", "meta_path", "modules", "orig_argv", "path", "path_hooks",
      "path_importer_cache", "platform", "platlibdir", "prefix", "pycache_prefix", "set_asyncgen_hooks",
      "set_coroutine_origin_tracking_depth", "set_int_max_str_digits", "setdlopenflags", "setprofile",
      "setrecursionlimit", "setswitchinterval", "settrace", "stderr", "stdin", "stdlib_module_names", "stdout",
      "thread_info", "unraisablehook", "version", "version_info", "warnoptions"}},
    {"module os",
     {"CLD_CONTINUED", "CLD_DUMPED", "CLD_EXITED", "CLD_KILLED", "CLD_STOPPED", "CLD_TRAPPED", "DirEntry",
      "EFD_CLOEXEC", "EFD_NONBLOCK", "EFD_SEMAPHORE", "EX_CANTCREAT", "EX_CONFIG", "EX_DATAERR", "EX_IOERR",
      "EX_NOHOST", "EX_NOINPUT", "EX_NOPERM", "EX_NOUSER", "EX_OK", "EX_OSERR", "EX_OSFILE", "EX_PROTOCOL",
      "EX_SOFTWARE", "EX_TEMPFAIL", "EX_UNAVAILABLE", "EX_USAGE", "F_LOCK", "F_OK", "F_TEST", "F_TLOCK", "F_ULOCK",
      "GRND_NONBLOCK", "GRND_RANDOM", "GenericAlias", "MFD_ALLOW_SEALING", "MFD_CLOEXEC", "MFD_HUGETLB",
      "MFD_HUGE_16GB", "MFD_HUGE_16MB", "MFD_HUGE_1GB", "MFD_HUGE_1MB", "MFD_HUGE_256MB", "MFD_HUGE_2GB",
      "MFD_HUGE_2MB", "MFD_HUGE_32MB", "MFD_HUGE_512KB", "MFD_HUGE_512MB", "MFD_HUGE_64KB", "MFD_HUGE_8MB",
      "MFD_HUGE_MASK", "MFD_HUGE_SHIFT", "Mapping", "MutableMapping", "NGROUPS_MAX", "O_ACCMODE", "O_APPEND",
      "O_ASYNC", "O_CLOEXEC", "O_CREAT", "O_DIRECT", "O_DIRECTORY", "O_DSYNC", "O_EXCL", "O_FSYNC", "O_LARGEFILE",
      "O_NDELAY", "O_NOATIME", "O_NOCTTY", "O_NOFOLLOW", "O_NONBLOCK", "O_PATH", "O_RDONLY", "O_RDWR", "O_RSYNC",
      "O_SYNC", "O_TMPFILE", "O_TRUNC", "O_WRONLY", "POSIX_FADV_DONTNEED", "POSIX_FADV_NOREUSE",
      "POSIX_FADV_NORMAL", "POSIX_FADV_RANDOM", "POSIX_FADV_SEQUENTIAL", "POSIX_FADV_WILLNEED", "POSIX_SPAWN_CLOSE",
      "POSIX_SPAWN_DUP2", "POSIX_SPAWN_OPEN", "PRIO_PGRP", "PRIO_PROCESS", "PRIO_USER", "P_ALL", "P_NOWAIT",
      "P_NOWAITO", "P_PGID", "P_PID", "P_PIDFD", "P_WAIT", "PathLike", "RTLD_DEEPBIND", "RTLD_GLOBAL", "RTLD_LAZY",
      "RTLD_LOCAL", "RTLD_NODELETE", "RTLD_NOLOAD", "RTLD_NOW", "RWF_APPEND", "RWF_DSYNC", "RWF_HIPRI",
      "RWF_NOWAIT", "RWF_SYNC", "R_OK", "SCHED_BATCH", "SCHED_FIFO", "SCHED_IDLE", "SCHED_OTHER",
      "SCHED_RESET_ON_FORK", "SCHED_RR", "SEEK_CUR", "SEEK_DATA", "SEEK_END", "SEEK_HOLE", "SEEK_SET",
      "SPLICE_F_MORE", "SPLICE_F_MOVE", "SPLICE_F_NONBLOCK", "ST_APPEND", "ST_MANDLOCK", "ST_NOATIME", "ST_NODEV",
      "ST_NODIRATIME", "ST_NOEXEC", "ST_NOSUID", "ST_RDONLY", "ST_RELATIME", "ST_SYNCHRONOUS", "ST_WRITE",
      "TMP_MAX", "WCONTINUED", "WCOREDUMP", "WEXITED", "WEXITSTATUS", "WIFCONTINUED", "WIFEXITED", "WIFSIGNALED",
      "WIFSTOPPED", "WNOHANG", "WNOWAIT", "WSTOPPED", "WSTOPSIG", "WTERMSIG", "WUNTRACED", "W_OK", "XATTR_CREATE",
      "XATTR_REPLACE", "XATTR_SIZE_MAX", "X_OK", "abc", "abort", "access", "altsep", "chdir", "chmod", "chown",
      "chroot", "close", "closerange", "confstr", "confstr_names", "copy_file_range", "cpu_count", "ctermid",
      "curdir", "defpath", "device_encoding", "devnull", "dup", "dup2", "environ", "environb", "error", "eventfd",
      "eventfd_read", "eventfd_write", "execl", "execle", "execlp", "execlpe", "execv", "execve", "execvp",
      "execvpe", "extsep", "fchdir", "fchmod", "fchown", "fdatasync", "fdopen", "fork", "forkpty", "fpathconf",
      "fsdecode", "fsencode", "fspath", "fstat", "fstatvfs", "fsync", "ftruncate", "fwalk", "get_blocking",
      "get_exec_path", "get_inheritable", "get_terminal_size", "getcwd", "getcwdb", "getegid", "getenv", "getenvb",
      "geteuid", "getgid", "getgrouplist", "getgroups", "getloadavg", "getlogin", "getpgid", "getpgrp", "getpid",
      "getppid", "getpriority", "getrandom", "getresgid", "getresuid", "getsid", "getuid", "getxattr", "initgroups",
      "isatty", "kill", "killpg", "lchown", "linesep", "link", "listdir", "listxattr", "lockf", "login_tty",
      "lseek", "lstat", "major", "makedev", "makedirs", "memfd_create", "minor", "mkdir", "mkfifo", "mknod", "name",
      "nice", "open", "openpty", "pardir", "path", "pathconf", "pathconf_names", "pathsep", "pidfd_open", "pipe",
      "pipe2", "popen", "posix_fadvise", "posix_fallocate", "posix_spawn", "posix_spawnp", "pread", "preadv",
      "putenv", "pwrite", "pwritev", "read", "readlink", "readv", "register_at_fork", "remove", "removedirs",
      "removexattr", "rename", "renames", "replace", "rmdir", "scandir", "sched_get_priority_max",
      "sched_get_priority_min", "sched_getaffinity", "sched_getparam", "sched_getscheduler", "sched_param",
      "sched_rr_get_interval", "sched_setaffinity", "sched_setparam", "sched_setscheduler", "sched_yield",
      "sendfile", "sep", "set_blocking", "set_inheritable", "setegid", "seteuid", "setgid", "setgroups", "setpgid",
      "setpgrp", "setpriority", "setregid", "setresgid", "setresuid", "setreuid", "setsid", "setuid", "setxattr",
      "spawnl", "spawnle", "spawnlp", "spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe", "splice", "st",
      "stat", "stat_result", "statvfs", "statvfs_result", "strerror", "supports_bytes_environ", "supports_dir_fd",
      "supports_effective_ids", "supports_fd", "supports_follow_symlinks", "symlink", "sync", "sys", "sysconf",
      "sysconf_names", "system", "tcgetpgrp", "tcsetpgrp", "terminal_size", "times", "times_result", "truncate",
      "ttyname", "umask", "uname", "uname_result", "unlink", "unsetenv", "urandom", "utime", "wait", "wait3",
      "wait4", "waitid", "waitid_result", "waitpid", "waitstatus_to_exitcode", "walk", "write", "writev"}},
    {"module heapq",
     {"heapify", "heappop", "heappush", "heappushpop", "heapreplace", "merge", "nlargest", "nsmallest"}},
    {"module bisect",
     {"bisect", "bisect_left", "bisect_right", "insort", "insort_left", "insort_right"}},
  };
  auto it = kAttributes.find(owner);
  return it == kAttributes.end() ? nullptr : &it->second;
}

const std::vector<std::string>* python_keywords(std::string_view builtin) {
  // inspect.signature's keyword parameters (those python3 has for the
  // builtins that take keywords; the others take none).
  static const std::map<std::string, std::vector<std::string>, std::less<>> kKeywords = {
      {"print", {"sep", "end", "file", "flush"}},
      {"sorted", {"key", "reverse"}},
      {"list.sort", {"key", "reverse"}},
      {"min", {"key", "default"}},
      {"max", {"key", "default"}},
      {"sum", {"start"}},
      {"enumerate", {"iterable", "start"}},
      {"round", {"number", "ndigits"}},
      {"pow", {"base", "exp", "mod"}},
      {"int", {"base"}},
      {"str", {"object", "encoding", "errors"}},
      {"zip", {"strict"}},
      {"open", {"file", "mode", "buffering", "encoding", "errors", "newline", "closefd", "opener"}},
  };
  auto it = kKeywords.find(builtin);
  return it == kKeywords.end() ? nullptr : &it->second;
}

std::string missing_attribute(std::string_view owner, const std::string& attr) {
  const std::vector<std::string>* names = python_attributes(owner);
  if (!names) return "";
  for (const std::string& n : *names)
    if (n == attr) return "";
  std::string what = owner.starts_with("module ") ? str_cat("module '", owner.substr(7), "'")
                                                  : str_cat("'", owner, "' object");
  return str_cat(what, " has no attribute '", attr, "'", did_you_mean(attr, *names));
}

}  // namespace ppy::frontend

#include "io_helpers.h"

#include "parser.h"
#include "ppy/frontend/diagnostics.h"

namespace ppy::frontend {
namespace {

/// `args` is the repr of the args tuple its raise kept: `(3,)` of `sys.exit(3)`, `('bye',)`
/// of a str; "" (native) or `()` (python3) of `sys.exit()`, `(None,)` of `SystemExit(None)`.
constexpr const char* kExitHelper = R"ppy(
def __ppy_exit_code(message: str, args: str) -> int | str | None:
    if args.startswith("('") or args.startswith('("'):
        return message
    if args == "" or args == "()" or args == "(None,)":
        if message == "" or args == "(None,)":
            return None
        return message
    return int(message)
)ppy";

constexpr const char* kEnvironHelper = R"ppy(
def __ppy_str_or_none(present: bool, value: str) -> str | None:
    if present:
        return value
    return None
)ppy";

/// An OSError's message is `[Errno N] strerror: 'filename'` (ppy_sys_raise_os_error), or
/// `[Errno N] strerror` without a file.
constexpr const char* kOsErrorHelpers = R"ppy(
def __ppy_os_errno(message: str) -> int | None:
    if not message.startswith("[Errno "):
        return None
    return int(message[7:message.index("]")])

def __ppy_os_strerror(message: str) -> str | None:
    if not message.startswith("[Errno "):
        return None
    rest = message[message.index("]") + 2:]
    colon = rest.find(": '")
    if colon < 0:
        colon = rest.find(': "')
    return rest if colon < 0 else rest[:colon]

def __ppy_os_filename(message: str) -> str | None:
    if not message.startswith("[Errno "):
        return None
    colon = message.find(": '")
    if colon < 0:
        colon = message.find(': "')
    if colon < 0:
        return None
    return message[colon + 3:len(message) - 1].replace("\\'", "'").replace("\\\\", "\\")
)ppy";

/// `e.args` of a caught builtin exception (shown_args.h). `kept` is the repr of the args tuple
/// its raise kept, whose elements are ints, floats, bools and strs; "" where the raise kept
/// none (one str argument, or a runtime error's message): then its one argument is its
/// message, a KeyError's key without the quotes its message (the key's repr) has, as
/// `KeyError('k').args == ('k',)`.
constexpr const char* kExcArgHelper = R"ppy(
def __ppy_exc_arg0(name: str, message: str) -> str:
    if name == "KeyError" and len(message) >= 2 and message[0] == message[-1] and (message[0] == "'" or message[0] == '"'):
        return __ppy_exc_unquote(message, 1, len(message) - 1)
    return message

def __ppy_exc_unquote(text: str, start: int, end: int) -> str:
    out = ""
    j = start
    while j < end:
        d = text[j]
        if d == "\\":
            j += 1
            d = text[j]
            if d == "x" or d == "u" or d == "U":
                width = 2 if d == "x" else 4 if d == "u" else 8
                d = chr(int(text[j + 1:j + 1 + width], 16))
                j += width
            else:
                d = "\n" if d == "n" else "\t" if d == "t" else "\r" if d == "r" else d
        out += d
        j += 1
    return out

def __ppy_exc_args_text(name: str, message: str, kept: str) -> str:
    if kept != "":
        return kept
    return "(" + repr(__ppy_exc_arg0(name, message)) + ",)"

def __ppy_exc_arg_values(name: str, message: str, kept: str) -> list[int | float | bool | str]:
    out: list[int | float | bool | str] = []
    if kept == "" and name == "KeyError" and message != "" and message[0] not in "([{":
        kept = "(" + message + ",)"
    if kept == "":
        out.append(__ppy_exc_arg0(name, message))
        return out
    i = 1
    n = len(kept) - 1
    while i < n:
        c = kept[i]
        if c == "'" or c == '"':
            j = i + 1
            while kept[j] != c:
                j += 2 if kept[j] == "\\" else 1
            out.append(__ppy_exc_unquote(kept, i + 1, j))
            i = j + 1
        else:
            j = kept.find(",", i)
            if j < 0:
                j = n
            text = kept[i:j]
            if text == "True" or text == "False":
                out.append(text == "True")
            elif text.lstrip("-").isdigit():
                out.append(int(text))
            elif text != "None":
                out.append(float(text))
            else:
                out.append(text)
            i = j
        while i < n and (kept[i] == "," or kept[i] == " "):
            i += 1
    return out

def __ppy_exc_arg_misuse(v: int | float | bool | str, what: str) -> None:
    kind = "bool" if isinstance(v, bool) else "int" if isinstance(v, int) else "float" if isinstance(v, float) else "str"
    text = what[1:].replace("{}", kind)
    if what[0] == "A":
        raise AttributeError(text)
    raise TypeError(text)

def __ppy_exc_arg_str(v: int | float | bool | str, what: str) -> str:
    if isinstance(v, str):
        return v
    __ppy_exc_arg_misuse(v, what)
    return ""

def __ppy_exc_arg_int(v: int | float | bool | str, what: str) -> int:
    if isinstance(v, bool):
        return 1 if v else 0
    if isinstance(v, int):
        return v
    __ppy_exc_arg_misuse(v, what)
    return 0

def __ppy_exc_arg_float(v: int | float | bool | str, what: str) -> float:
    if isinstance(v, float):
        return v
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    if isinstance(v, int):
        return float(v)
    __ppy_exc_arg_misuse(v, what)
    return 0.0

def __ppy_exc_args_n(name: str, message: str, kept: str, n: int) -> list[int | float | bool | str]:
    out = __ppy_exc_arg_values(name, message, kept)
    if len(out) > n:
        raise ValueError(f"too many values to unpack (expected {n})")
    if len(out) < n:
        raise ValueError(f"not enough values to unpack (expected {n}, got {len(out)})")
    return out
)ppy";

void add(ModuleAst& ast, const char* helpers, const std::string& file) {
  DiagnosticEngine quiet;
  ModuleAst parsed = parse_module(helpers, file, quiet);
  if (!quiet.diagnostics().empty()) return;
  for (auto& s : parsed.body) ast.body.push_back(std::move(s));
}

}  // namespace

void add_io_helpers(ModuleAst& ast, const std::string& file, const std::string& text) {
  if (text.find(".code") != std::string::npos) add(ast, kExitHelper, file);
  if (text.find("environ") != std::string::npos) add(ast, kEnvironHelper, file);
  if (text.find(".args") != std::string::npos) add(ast, kExcArgHelper, file);
  if (text.find(".errno") != std::string::npos || text.find(".strerror") != std::string::npos ||
      text.find(".filename") != std::string::npos)
    add(ast, kOsErrorHelpers, file);
}

}  // namespace ppy::frontend

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

/// `e.args` of a caught builtin exception, `(arg,)`: its message, a KeyError's key without the
/// quotes its message (the key's repr) has, as `KeyError('k').args == ('k',)`.
constexpr const char* kExcArgHelper = R"ppy(
def __ppy_exc_arg0(name: str, message: str) -> str:
    if name == "KeyError" and len(message) >= 2 and message[0] == message[-1] and (message[0] == "'" or message[0] == '"'):
        return message[1:len(message) - 1].replace("\\'", "'").replace("\\\\", "\\")
    return message

def __ppy_exc_args_text(name: str, message: str, kept: str) -> str:
    if kept != "":
        return kept
    return "(" + repr(__ppy_exc_arg0(name, message)) + ",)"

def __ppy_exc_arg_strs(name: str, message: str, kept: str) -> list[str]:
    if kept == "":
        return [__ppy_exc_arg0(name, message)]
    out: list[str] = []
    i = 1
    n = len(kept) - 1
    while i < n:
        c = kept[i]
        if c == "'" or c == '"':
            j = i + 1
            text = ""
            while kept[j] != c:
                d = kept[j]
                if d == "\\":
                    j += 1
                    d = kept[j]
                    d = "\n" if d == "n" else "\t" if d == "t" else "\r" if d == "r" else d
                text += d
                j += 1
            out.append(text)
            i = j + 1
        else:
            j = kept.find(",", i)
            if j < 0:
                j = n
            out.append(kept[i:j])
            i = j
        while i < n and (kept[i] == "," or kept[i] == " "):
            i += 1
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

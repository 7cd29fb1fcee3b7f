// `ppy run --backend python`'s traceback hook (issue 34, docs/runtime.md
// "Tracebacks"): python3 runs generated modules, whose frames would name
// generated lines and functions; the hook reads the table the python backend
// writes beside each module (`<module>.py.trace.json`) and prints the
// traceback the original program gives: its file, its lines, its functions.
#include "python_trace_hook.h"

#include "ppy/util/str_cat.h"

namespace ppy::driver {

namespace {

/// A Python string literal of `s` (quotes and backslashes escaped).
std::string python_literal(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

constexpr const char* kHook = R"PY(
import json as _ppy_json, linecache as _ppy_lc, os as _ppy_os, sys as _ppy_sys, traceback as _ppy_tb
def _ppy_entries(tb):
    out = []
    while tb is not None:
        out.append((tb.tb_frame, tb.tb_lineno))
        tb = tb.tb_next
    return out
def _ppy_excepthook(tp, ex, tb):
    # The generated code raises an exception a handler does not match again
    # (a new one of the same class and message, or the same object): the
    # frames are where it first came from, as in the original program.
    entries, cur = _ppy_entries(tb), ex
    while True:
        ctx = cur.__context__
        if ctx is None or cur.__suppress_context__ or type(ctx) is not type(cur) or str(ctx) != str(cur):
            break
        inner = _ppy_entries(ctx.__traceback__)
        if not entries or not inner or inner[0][0] is not entries[-1][0]:
            break
        entries, cur = entries[:-1] + inner, ctx
    # An exception object raised again carries its old traceback after the new
    # one: the chain stops where a frame is neither the same nor a callee.
    for i in range(1, len(entries)):
        if entries[i][0] is not entries[i - 1][0] and entries[i][0].f_back is not entries[i - 1][0]:
            entries = entries[:i]
            break
    entries = [e for i, e in enumerate(entries) if i + 1 == len(entries) or entries[i + 1][0] is not e[0]]
    frames, tables = [], {}
    for frame_object, line in entries:
        code = frame_object.f_code
        table = tables.get(code.co_filename)
        if table is None:
            try:
                with open(code.co_filename + '.trace.json', encoding='utf-8') as h:
                    table = _ppy_json.load(h)
            except (OSError, ValueError):
                table = False
            tables[code.co_filename] = table
        if table:
            entry = table['functions'].get(code.co_name, [code.co_name, 'none'])
            src = table['lines'].get(str(line), 0)
            if entry[1] == 'borrows' and frames:
                frames[-1][2] = src
            elif entry[1] == 'owns':
                frames.append([entry[0], table['file'], src, entry[2] if len(entry) > 2 else []])
    # A line inside a comprehension holds its number k above bit 32: the
    # function at the outermost one's line, then each one's frame out to k.
    expanded = []
    for name, file, src, comps in frames:
        k, at, chain = src >> 32, src & 0xffffffff, []
        while 0 < k <= len(comps) and len(chain) < 64:
            chain.append(comps[k - 1])
            k = comps[k - 1][2]
        expanded.append([name, file, chain[-1][1] if chain else at])
        for i in range(len(chain) - 1, -1, -1):
            expanded.append([chain[i][0], file, chain[i - 1][1] if i else at])
    frames = expanded
    err = _ppy_sys.stderr
    if frames:
        err.write('Traceback (most recent call last):\n')
        last, count = None, 0
        def repeated():
            if count > 3:
                more = count - 3
                err.write('  [Previous line repeated %d more time%s]\n' % (more, '' if more == 1 else 's'))
        for frame in frames:
            if frame == last:
                count += 1
                if count > 3:
                    continue
            else:
                repeated()
                last, count = frame, 1
            name, file, line = frame
            err.write('  File "%s", line %d, in %s\n' % (file, line, name))
            text = _ppy_lc.getline(_ppy_os.path.join(_PPY_ROOT, file), line).strip() if line else ''
            if text:
                err.write('    %s\n' % text)
        repeated()
    err.write(''.join(_ppy_tb.format_exception_only(tp, ex)))
_ppy_sys.excepthook = _ppy_excepthook
)PY";

}  // namespace

std::string python_traceback_hook(const std::string& source_root) {
  return str_cat("_PPY_ROOT = ", python_literal(source_root), "\n", kHook);
}

}  // namespace ppy::driver

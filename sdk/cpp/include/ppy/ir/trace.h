#pragma once
/// Tracebacks (issue 34, docs/runtime.md "Tracebacks"): what a function's
/// frame is called in python3's traceback, and whether it has one. Every
/// road that prints tracebacks (LLVM, C, the interpreter) reads these, so a
/// frame is named once.

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "ppy/ir/ir.h"

namespace ppy::ir {

/// How a function takes part in tracebacks.
enum class TraceRole {
  kOwns,     ///< a frame of its own: it may raise, or holds a try (its body's lines are its own)
  kNone,     ///< no frame: it cannot raise, its `ppy.frame_name` is "" (map()'s loop, whose frames
             ///< python3 has none of), or it is an adapter that only calls the real
             ///< function (`.bound`, `.value`), device code, or a function without a `loc`
             ///< (IR written by hand or by a tool: a frame without a place says nothing)
  kBorrows,  ///< a try body the frontend outlined (`.tryN`): its lines are its enclosing function's
};

[[nodiscard]] TraceRole trace_role(const Function& f);

/// A try body the frontend outlined (`.tryN`) or an adapter that only calls
/// the real function (`.bound`, `.value`): code that is no frame of its own in
/// Python, so it counts no level toward RecursionError on any road.
[[nodiscard]] bool trace_transparent(const Function& f);

/// The name python3 prints for a frame of `f` (`in NAME`): the last part of
/// its qualified name, `<module>` for a module's top level; a generator's
/// resume function is the generator's frame. A function's `ppy.frame_name`
/// attribute, where it has one, is the name (a nested def's or a lambda's,
/// whose qualified name also names the function around it).
[[nodiscard]] std::string trace_frame_name(const Function& f);

/// The file `f`'s locations name, or `<unknown>`.
[[nodiscard]] std::string trace_file(const Function& f);

/// A comprehension's frame inside a function (`<listcomp>`, `<genexpr>`,
/// `<dictcomp>`, `<setcomp>`): python3 runs a comprehension as a function of
/// its own, ppy as a loop inline, so its frame is only named, never linked.
/// The frontend numbers them per function from 1 (the function's
/// `ppy.comps`: `[[name, line, parent], ...]`) and marks each op lowered
/// inside one with `ppy.comp = k`; a frame's line is then `line | k << 32`
/// and a traceback prints the function at the comprehension's `line`, then
/// each comprehension out from `parent` (0: none), the innermost at the op's.
struct TraceComprehension {
  std::string name;
  int64_t line = 0;    ///< where it stands in its parent (or the function)
  int64_t parent = 0;  ///< the comprehension around it (1-based), 0 for none
};

/// Where a frame's line keeps the comprehension it is in (see above).
inline constexpr int kTraceComprehensionShift = 32;

/// `f`'s comprehensions (`ppy.comps`), in their numbering's order.
[[nodiscard]] std::vector<TraceComprehension> trace_comprehensions(const Function& f);

/// `op`'s line as a frame holds it: its `loc`'s line, with its comprehension
/// (`ppy.comp`) above kTraceComprehensionShift; 0 without a line.
[[nodiscard]] int64_t trace_line(const Operation& op);

/// Each reachable op's line as a traceback shows it: its own `loc`'s, else
/// that of the op before it in reverse post-order (the function's own line
/// before the first), whatever order a backend writes the ops in.
[[nodiscard]] std::unordered_map<const Operation*, int64_t> trace_lines(const Function& f);

}  // namespace ppy::ir

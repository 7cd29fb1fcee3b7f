#pragma once
/// Generators closed before they are exhausted (docs/language.md, "Generators"; docs/runtime.md,
/// "Generators"): `gen.close()` and a `for` loop left early over a generator it made run the
/// `finally` clauses (and `with` exits) around the yield the generator waits at, as python3 does.

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ast.h"

namespace ppy::frontend {

/// The hidden local of a generator that has something to run when closed: true while `close()`
/// resumes it (the lowering's `<fn>__close` sets it in the frame).
inline constexpr const char* kGeneratorClosing = "_ppy_gclose";

/// In a generator whose body yields inside a try with a `finally` (or a `with`): `if _ppy_gclose:
/// return` after each yield, so a resume made by close() leaves through every enclosing `finally`
/// (`yield from it` becomes a loop yielding each value, checked after each), and `_ppy_gclose =
/// False` first. Runs before the tries are split (generator_try.h), which keeps each check in the
/// run after its yield. Any other generator is left as it is (closing it only marks it done).
/// A `yield from` of a call of one of `closing` (closing_generators) counts too: its loop closes
/// that inner generator when the outer is closed, as python3 closes the one a yield from waits on.
void add_close_points(std::vector<StmtPtr>& body, const std::set<std::string>& closing);

/// Whether a generator's body has something to run when it is closed (before or after
/// add_close_points).
bool closes_on_abandon(const std::vector<StmtPtr>& body);

/// The generators (by name) that have something to run when closed: `gens` names each generator
/// of a module with its body; one looping over a call of another that does, and yielding in the
/// loop, does too (closing it drops the inner one, which python3 then closes).
/// `plain` names the module's other functions returning an iterator: one whose every `return` is a
/// call of a generator that has something to run when closed (returns_new_generator) counts too, as
/// its caller gets a generator nothing else holds.
std::set<std::string> closing_generators(const std::vector<std::pair<std::string, const std::vector<StmtPtr>*>>& gens,
                                         const std::vector<std::pair<std::string, const FuncDef*>>& plain = {});

/// Whether a function that does not yield returns only new generators: each `return` of its body is
/// a call of a generator `is_gen` names, or of a generator function nested in it (one with
/// something to run when closed, when `closing_only`). Its caller may close what it gets, as python3
/// does when it drops it: nothing else refers to it.
bool returns_new_generator(const FuncDef& def, const std::function<bool(const std::string&)>& is_gen,
                           bool closing_only);

/// Each `for x in g(...)` of `body` whose iterable calls one of the generators `closing` names
/// becomes `_ppy_gc<n> = g(...)` then `try: for x in _ppy_gc<n>: ... finally: _ppy_gc<n>.close()`:
/// python3 drops the generator (so runs its `finally`) when the loop is left, by `break`, `return`
/// or an exception as well. Nested defs are left to their own check.
void close_abandoned_loops(std::vector<StmtPtr>& body, const std::set<std::string>& closing);

/// In a plain function (not a generator, not module code), each local whose every binding is `v =
/// g(...)` of a generator `gens` names (with its result annotation) and whose every read walks it
/// without keeping it (a `for`, `next`, `close()`, a consuming builtin, `"".join`): python3 closes
/// what it holds when it is rebound and when the frame goes, since nothing else refers to it. So
/// `v: T` and a hidden `_ppy_gk_v = False` come first, each binding closes the one held before
/// (`if _ppy_gk_v: v.close()`, after the new value is made), and the body becomes `try: BODY
/// finally:` those closes, in the order the locals are first bound (python3 clears a frame's locals
/// in that order). Known difference: python3 keeps a frame an exception left alive until the
/// handler that caught it ends, so it closes such a generator later than this `finally` does.
void close_dropped_locals(FuncDef& def, const std::map<std::string, const Expr*>& gens);

/// In a plain function, each try with handlers whose body (its simple statements) walks a call of
/// one of `gens` through a generator expression in a consumer (`sum(f(x) for x in gen(a))`, `any`,
/// `all`, `min`, `max`, `list`, `sorted`, `"".join`, ...; the call's arguments names, literals or
/// f-strings of those):
/// the call is made just before the statement into a hidden local, and the try's `finally` closes
/// it first. An exception raised by the expression's element leaves the generator half-way; python3
/// frees it with the exception's traceback, as the handler that caught it ends, which is where
/// that `finally` runs (an exception no handler of the try takes closes it there too, earlier than
/// python3). On the normal path the consumer has exhausted or closed it: the close does nothing.
void close_consumed_in_tries(FuncDef& def, const std::map<std::string, const Expr*>& gens);

}  // namespace ppy::frontend

#pragma once
// A write to a container the function made itself (docs/language.md, "Effects"): `counts = {}`
// then `counts[k] = v`, `out = []` then `out.append(x)`. The function still writes memory (its
// IR effects say `writes`, so nothing is moved across its calls), but no one else can see that
// memory while it runs, so `@ppy.pure` holds. Not an API: the body checker's files use it.

#include "ast.h"
#include "checker.h"

namespace ppy::frontend::checking {

/// Whether `base` is a local of `f` every assignment of which (in its body) is a new container:
/// a display, a comprehension, or `list(...)`, `dict(...)`, `set(...)`, `sorted(...)`.
bool owned_container(const Expr& base, const FuncInfo& f);

/// Records that the body writes memory at `at` through `base`: as BodyChecker::effect("writes"),
/// but a write to an owned container is kept apart (the "own writes" site) for @ppy.pure.
void write_through(const Expr& base, FuncInfo& f, Pos at);

/// Whether a `@ppy.pure` function `f` whose effects hold `writes` writes only containers it made,
/// calling nothing that writes (check_effect_claims).
bool writes_only_own(const FuncInfo& f);

}  // namespace ppy::frontend::checking

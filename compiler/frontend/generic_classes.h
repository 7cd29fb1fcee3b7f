#pragma once
/// generics: generic classes (`class Stack(Generic[T])`, PEP 695's `class
/// Stack[T]:`), monomorphized before the declarer runs (docs/language.md,
/// "Type aliases and generics"). Each instantiation the module names
/// (`Stack[int]` in an annotation, a string annotation, a call or a base;
/// `s: Stack[int] = Stack()`, `return Stack()` under `-> Stack[int]`, and a
/// bare call whose T arguments are literals or annotated parameters name it
/// too) becomes a
/// plain class of the module: a copy of the template with its type parameters
/// replaced by the arguments, named `Stack[int]` (Python shows it as `Stack`:
/// types.h's shown_name). Instantiations an instantiation names are made
/// too, to a fixpoint; the template itself is no class. `Stack[T]` inside a
/// generic function stays for its instantiation to read (type_alias.cc).

#include <string>
#include <vector>

#include "ast.h"
#include "ppy/frontend/diagnostics.h"
#include "types.h"

namespace ppy::frontend {

void expand_generic_classes(ModuleAst& ast, const std::string& file, DiagnosticEngine& diags);

/// The name Python shows for a class (`type(x).__name__`, reprs): an
/// instantiation (`Stack[int]`) shows as its template's, `Stack`.
std::string shown_name(const ClassInfo& c);

/// An instantiation's type arguments (int, str of `Pair[int, str]`), which a
/// generic function's `Pair[K, V]` binds; empty for any other class.
std::vector<Ty> class_type_args(const ClassInfo& c);

}  // namespace ppy::frontend

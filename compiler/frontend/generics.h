#pragma once
// Generics and type aliases (docs/language.md, "Type aliases and generics"),
// shared by the declarer, the body checker and the project's checks: type
// aliases (type_alias.cc), generic functions monomorphized (check_generic.cc,
// one function `first[int]` per distinct instantiation), the AST copies each
// instantiation checks (clone_ast.cc). Not an API: only compiler/frontend
// includes it.

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ast.h"
#include "checker.h"

namespace ppy::frontend::checking {

/// What an annotation's name means besides the builtin types and classes: a
/// type parameter bound in `args` or one of `m`'s type aliases; nullopt when
/// neither. (A bare TypeVar outside a generic function is left to the caller's
/// message.)
std::optional<Ty> named_type(const ModuleInfo& m, const std::map<std::string, Ty>& args, const Expr& a);

/// The type parameters of `def`: its own (PEP 695) and then the module's
/// TypeVars its annotations name, in order of first appearance.
std::vector<std::string> generic_params(const ModuleInfo& m, const FuncDef& def);

/// Whether annotation `a` names one of `params`.
bool names_any(const Expr& a, const std::vector<std::string>& params);

/// Reports a problem at a place: (position, E-code, message).
using ErrorFn = std::function<void(Pos, const char*, std::string)>;

/// A module-level statement that declares a type alias (`Matrix =
/// list[list[float]]`, `Vector: TypeAlias = list[float]`, `type Grid = ...`)
/// or a type variable (`T = TypeVar("T")`): declares it in `m` and returns
/// true; false for any other statement. `resolve` reads an annotation, `special`
/// maps a dotted name to what an import of a special module binds it to
/// (`typing.TypeVar`), `bound_once` says whether a name is bound once.
bool declare_type_name(ModuleInfo& m, Stmt& s, const std::function<Ty(const Expr&)>& resolve,
                       const std::function<std::string(const std::string&)>& special,
                       const std::function<bool(const std::string&)>& bound_once, const ErrorFn& error);

/// When `def` is generic (generic_params), declares it as a template of `m`
/// and returns true: its parameters whose types name no type parameter are
/// read (`resolve`) and get their defaults (`default_of`) once, here. A
/// generic method (`method`) is refused.
bool declare_if_generic(ModuleInfo& m, FuncDef& def, bool method, const std::function<Ty(const Param&)>& resolve,
                        const std::function<std::optional<ConstInfo>(const Param&)>& default_of, const ErrorFn& error);

/// An annotation as source text (`list[T]`, `tuple[K, V] | None`): how an
/// interface carries a generic function's signature.
std::string annotation_text(const Expr& a);

/// An instantiation's name, the template's with its type arguments:
/// `first[int]`, `pair[str, list[int]]` (docs/ir.md says its IR symbol).
std::string instance_name(const std::string& name, const std::vector<Ty>& args);

/// Whether `name`, in `m`, names a generic function (its own or one imported
/// from another module): only calls pick an instantiation, so it is no value.
bool names_generic_function(const ModuleInfo& m, const ModuleInterfaces& all, const std::string& name);

/// A deep copy of a function's AST as the parser made it (clone_ast.cc).
std::unique_ptr<FuncDef> clone_def(const FuncDef& d);
/// Deep copies of a statement, statements and an expression (null stays null):
/// a generic class's instantiation is a copy of its template (generic_classes.cc);
/// generator_try.cc copies the finally bodies it repeats.
StmtPtr clone_stmt(const Stmt& s);
std::vector<StmtPtr> clone_body(const std::vector<StmtPtr>& body);
ExprPtr clone_expr(const Expr* e);
/// A deep copy of an `except` clause.
Handler clone_handler(const Handler& h);

}  // namespace ppy::frontend::checking

#pragma once
/// `@dataclass(...)` with options (docs/language.md, "Classes"): `frozen=True`
/// (an assignment to a field raises dataclasses.FrozenInstanceError, as the
/// frozen class's __setattr__ does), `order=True` (`<`, `<=`, `>`, `>=` compare
/// the fields as tuples: written here as the four methods Python generates),
/// and the defaults spelled out (`eq=True`, `init=True`, `repr=True`); the
/// fields' `field(compare=False)` and `field(repr=False)`.

#include <functional>
#include <string>
#include <vector>

#include "ast.h"
#include "types.h"

namespace ppy::frontend {

/// What dataclasses raises on an assignment to a frozen instance's field: the
/// name the runtime and tracebacks show (Python prints it with its module).
inline constexpr const char* kFrozenInstanceError = "dataclasses.FrozenInstanceError";

/// The value of the keyword `name` of the decorator call `deco` when it is a
/// bool literal; `dflt` when the keyword is not there.
[[nodiscard]] bool dataclass_flag(const Expr& deco, const std::string& name, bool dflt);

/// Whether `s` is a class decorated `@dataclass(...)` or `@dataclasses.dataclass(...)`,
/// and the call if so (the declarer checks that the name resolves to the dataclass).
[[nodiscard]] const Expr* dataclass_call(const Stmt& s);

/// `(x.a, x.b)`: the fields of `x` as a tuple (Python's dataclass compares,
/// orders and hashes by it).
[[nodiscard]] std::string fields_tuple(const std::string& x, const std::vector<std::string>& fields);

/// Reads the options of the decorator call `deco` (`dataclass(frozen=True)`)
/// into `c`; reports (code, position, message) what ppy does not take.
void dataclass_options(ClassInfo& c, const Expr& deco, const std::function<void(const char*, Pos, std::string)>& error);

/// Whether assigning a field of an instance of `cls` raises
/// FrozenInstanceError (it, or a base, is a frozen dataclass).
[[nodiscard]] bool is_frozen_class(Ty cls);

/// Whether `s` is a class decorated `@dataclass` or `@dataclass(...)` (the
/// declarer checks that the name resolves to the dataclass).
[[nodiscard]] bool is_dataclass_stmt(const Stmt& s);

/// The bool option `name` (`compare`, `repr`) of the dataclass field `field`
/// (`x: int = field(compare=False)`); true when it has no `field(...)` or leaves it out.
[[nodiscard]] bool field_option(const Stmt& field, const std::string& name);

/// Adds to each dataclass of `ast` the methods @dataclass generates that depend
/// on its options, as Python text: `order=True`'s `__lt__`, `__le__`, `__gt__` and
/// `__ge__` (the fields, its base dataclass's first, compared as tuples are:
/// the first pair that differs decides, so `Optional` fields raise Python's
/// TypeError only when reached), and `__eq__` / `__repr__` when a field is
/// `field(compare=False)` / `field(repr=False)` (else the lowering's own).
/// Runs before the declarer, so the class's methods (and the sorting helpers,
/// object_list_helpers.h) see them.
void add_dataclass_methods(ModuleAst& ast, const std::string& file);

/// Adds to each dataclass of `ast` whose fields' annotations name its own class
/// (`children: list["Node"]`, `next: Optional["Node"]`) and that has no
/// `__repr__`, no base and no subclass in the module, the `__repr__` Python
/// generates (`Node(value=1, children=[...])`), so a tree of them prints through a
/// method that calls itself where the printing code would be written out without end.
void add_dataclass_recursive_repr(ModuleAst& ast, const std::string& file);

}  // namespace ppy::frontend
